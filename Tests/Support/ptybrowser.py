"""The browser in a pseudo-terminal, read from the rendered screen (pyte), for volume tests."""
import fcntl, os, pty, select, shutil, signal, struct, termios, time

import pyte  # Debian's python3-pyte

COLS, ROWS = 120, 30


class Browser:
    def __init__(self, command, env, cols=COLS, rows=ROWS):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, cols * 10, rows * 20))
            os.environ.update(env)
            os.execvp(command[0], command)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        # Every byte written, for tests that decode graphics commands.
        self.raw = bytearray()

    def text(self):
        return '\n'.join(self.screen.display)

    def pump(self, seconds, quiet=None):
        """Reads for up to `seconds` (or, with `quiet`, until that long passes without output once
        something came); returns the time the first bytes came, or None."""
        first = None
        end = time.time() + seconds
        while time.time() < end:
            wait = max(0, end - time.time()) if first is None or quiet is None else min(quiet, max(0, end - time.time()))
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                break
            try:
                chunk = os.read(self.fd, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            if first is None:
                first = time.time()
            self.raw.extend(chunk)
            self.stream.feed(chunk)
        return first

    def wait_for(self, text, seconds, row=None):
        """Seconds until `text` is on screen (on `row` when given), or None."""
        def shown():
            return text in (self.screen.display[row] if row is not None else self.text())
        start = time.time()
        while time.time() - start < seconds:
            if shown():
                return time.time() - start
            self.pump(0.05)
        return time.time() - start if shown() else None

    def send(self, keys):
        os.write(self.fd, keys)

    def enter(self, name):
        """Finds `name` with the filter (its first match) and opens it."""
        self.send(b'/' + name.encode() + b'\r')
        self.pump(0.3)
        self.send(b'l')

    def kill(self):
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)

    def quit(self, keys=b'q'):
        """Sends `keys` and waits for the exit: the (label, ok, detail) result of quitting cleanly."""
        self.send(keys)
        status = self.finish()
        return ('q quits cleanly', status == 0, 'wait status %d' % status)

    def finish(self, seconds=5):
        end = time.time() + seconds
        while time.time() < end:
            self.pump(0.1)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                return status
        os.kill(self.pid, signal.SIGKILL)
        return os.waitpid(self.pid, 0)[1]


class PtyCommand:
    """A command line program on a terminal of its own (a pty), read as raw bytes: for prompts a
    person answers (a password asked without echo), where the screen is not what is checked."""
    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        self.seen = b''

    def until(self, text, seconds=15):
        """Reads until `text` has been seen (or `seconds` pass); whether it was."""
        deadline = time.monotonic() + seconds
        while text not in self.seen and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.fd, 4096)
                except OSError:
                    break
        return text in self.seen

    def type(self, data):
        os.write(self.fd, data)

    def finish(self):
        """Waits for the exit; its wait status."""
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return status

    def transcript(self):
        """What the terminal showed, on one line."""
        return self.seen.decode(errors='replace').replace('\r', '').strip().replace('\n', ' | ')


def cache_damage(root):
    """Cache files that are not whole PNGs (or temporaries), and failure entries."""
    partial, remembered = [], []
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if '/fail/' in path:
                remembered.append(path)
                continue
            with open(path, 'rb') as handle:
                data = handle.read()
            if not name.endswith('.png') or not data.startswith(b'\x89PNG') or not data.endswith(b'IEND\xaeB`\x82'):
                partial.append(path)
    return partial, remembered


def summarize(results, work):
    """Prints one PASS/FAIL line per (label, ok, detail), removes `work`; the exit status."""
    for label, ok, detail in results:
        print('%-4s %s%s' % ('PASS' if ok else 'FAIL', label, ('  (' + detail + ')') if detail else ''))
    shutil.rmtree(work, ignore_errors=True)
    return 0 if results and all(ok for _, ok, _ in results) else 1
