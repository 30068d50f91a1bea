#!/usr/bin/python3
"""Runs a program in a pseudo-terminal of a given size, types keys at given times, and saves every
byte the program wrote, for tests that check escape sequences (sixel, kitty) exactly.

usage: pty-run.py OUTPUT COLUMNS ROWS SCRIPT -- COMMAND...
SCRIPT is a list of steps separated by ';': 'wait:SECONDS', 'keys:TEXT' (\\e, \\r escapes), or
'until:SECONDS:TEXT' (read until TEXT, with escapes, appears in what this step reads, or SECONDS pass).
Each step's offset in OUTPUT is written to OUTPUT.marks, one per line, so a test can look at
what was drawn after each key.
"""
import fcntl, os, pty, select, signal, struct, sys, termios, time

def main():
    out, cols, rows, script = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    command = sys.argv[sys.argv.index('--') + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        # The size is set before exec: set afterwards, it raced the program's first look at the
        # terminal (a 0x0 start, then a resize at a random moment).
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, cols * 10, rows * 20))
        os.environ['TERM'] = os.environ.get('PTY_TERM', 'xterm-256color')
        os.execvp(command[0], command)
    data = bytearray()
    marks = []

    def pump(seconds, until=None, start=0):
        end = time.time() + seconds
        while True:
            if until is not None and until in data[start:]:
                return True
            left = end - time.time()
            if left <= 0:
                return True
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                data.extend(chunk)

    alive = True
    for step in script.split(';'):
        kind, _, value = step.partition(':')
        marks.append(len(data))
        if kind == 'wait':
            alive = pump(float(value)) and alive
        elif kind == 'until':
            seconds, _, text = value.partition(':')
            pattern = text.encode().decode('unicode_escape').encode('utf-8')
            alive = pump(float(seconds), pattern, len(data)) and alive
        elif kind == 'keys':
            os.write(fd, value.encode().decode('unicode_escape').encode('latin-1'))
            alive = pump(0.3) and alive
    pump(1.0)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    with open(out, 'wb') as f:
        f.write(data)
    with open(out + '.marks', 'w') as f:
        f.write('\n'.join(str(m) for m in marks) + '\n')

main()
