#!/usr/bin/python3
"""Browser benchmarks, side by side in one run, in the same pseudo-terminal harness.

1. Open a folder of 100,000 files, jump to the end, quit: qlbrowse against nnn, lf and ranger
   (those installed). Prints the CPU time each used (best of RUNS; fixed waits between keys, so
   CPU time rather than wall time measures the work) and peak RSS of the program itself, and the
   ratios to nnn. Targets: time (wall, keys sent as soon as the screen allows) <= nnn, RSS <= 2x nnn;
   CPU time is printed too.
2. Key-to-screen latency while thumbnails load: qlbrowse in the grid view of a folder of 300
   pictures with an empty thumbnail cache; a key every 40 ms; the time from each key to the first
   byte the browser writes back. Target: p99 <= 50 ms.
3. Key-to-screen latency in Quick Look: stepping with -> and <- through 12 photos of 3000x2000 as
   sixel, a key every 150 ms, the full-screen picture of each encoded while the next key comes.
   Target: p99 <= 50 ms.

usage: Benchmarks/browser.py [--qlbrowse PATH] [--runs N]
"""
import argparse, fcntl, os, pty, resource, select, shutil, signal, statistics, struct, subprocess, sys, tempfile, termios, time
import pyte  # Debian's python3-pyte: a terminal emulator, to read what is on screen, not which bytes were sent

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get('BENCH_DIR', '/tmp/qlbrowse-bench')
QUIET = 0.15


def spawn(command, env, cols=120, rows=40):
    pid, fd = pty.fork()
    if pid == 0:
        # The size is set before exec: a program that starts on a 0x0 terminal may quit at once
        # (nnn does), and its CPU time would then mean nothing.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, cols * 10, rows * 20))
        os.environ.update(env)
        os.execvp(command[0], command)
    return pid, fd


def read_until_quiet(fd, quiet=QUIET, limit=60.0):
    """Reads until nothing arrives for `quiet` seconds; returns (bytes, time of the last byte)."""
    data = bytearray()
    last = time.time()
    end = time.time() + limit
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], quiet)
        if not ready:
            if data:
                break
            continue
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        data.extend(chunk)
        last = time.time()
    return data, last


def read_until(fd, pattern, limit=60.0):
    """Reads until `pattern` has been written; returns the time it was seen (None on timeout)."""
    data = bytearray()
    end = time.time() + limit
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            return None
        if not chunk:
            return None
        data.extend(chunk)
        if pattern in data:
            seen = time.time()
            read_until_quiet(fd, quiet=0.03, limit=1.0)  # let the rest of the frame arrive
            return seen
    return None


def drain_until_exit(pid, fd, limit=30.0):
    end = time.time() + limit
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                if not os.read(fd, 1 << 16):
                    break
            except OSError:
                break
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return time.time(), usage
    os.kill(pid, signal.SIGKILL)
    _, status, usage = os.wait4(pid, 0)
    return time.time(), usage


def make_big_folder(count=100_000):
    folder = os.path.join(BENCH, 'folder-100k')
    stamp = os.path.join(BENCH, 'folder-100k.done')
    if not os.path.exists(stamp):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for index in range(count):
            open(os.path.join(folder, 'file%06d.txt' % index), 'w').close()
        open(stamp, 'w').close()
    return folder


FIRST_NAME, LAST_NAME = 'file0', 'file099999'


class Screen:
    """What a program shows, rendered from the bytes it wrote (curses redraws only what changed,
    so a name need not appear whole in the byte stream)."""
    def __init__(self, cols=120, rows=40):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)

    def feed(self, data):
        self.stream.feed(bytes(data))

    def shows(self, text):
        return any(text in line for line in self.screen.display)


def read_until_shown(fd, screen, text, limit=60.0):
    """Reads until `text` is on screen; returns True, or False on timeout or exit."""
    end = time.time() + limit
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            return False
        if not chunk:
            return False
        screen.feed(chunk)
        if screen.shows(text):
            return True
    return False


def open_jump_quit(command, env):
    """Opens the folder, waits 1.5 s, presses G, waits until the last entry is on screen, presses q. Returns the CPU time the program used for all that (user + system,
    from wait4: the work done, independent of the fixed waits) and its peak RSS."""
    pid, fd = spawn(command, env)
    screen = Screen()
    screen.feed(read_until_quiet(fd, quiet=1.5, limit=1.5)[0])
    os.write(fd, b'G')
    # Slow tools (lf, ranger) are given the time they need: the work counted is the whole task.
    # A G pressed while they still load goes to the end of what is loaded, so it is pressed again.
    shown = False
    deadline = time.time() + 60
    while not shown and time.time() < deadline:
        shown = read_until_shown(fd, screen, LAST_NAME, limit=1.0)
        if not shown:
            os.write(fd, b'G')
    read_until_quiet(fd, quiet=0.3, limit=1.0)
    os.write(fd, b'q')
    _, usage = drain_until_exit(pid, fd)
    os.close(fd)
    if not shown:
        raise RuntimeError('%s did not show the last entry after G' % command[0])
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def open_jump_quit_wall(command, env):
    """The same as fast as the screen allows: from start until the last entry is on screen after
    G (pressed as soon as the first entry shows), and the program has exited after q. Seconds."""
    start = time.time()
    pid, fd = spawn(command, env)
    screen = Screen()
    if not read_until_shown(fd, screen, FIRST_NAME):
        raise RuntimeError('%s did not show the first entry' % command[0])
    os.write(fd, b'G')
    shown = False
    deadline = time.time() + 60
    while not shown and time.time() < deadline:
        shown = read_until_shown(fd, screen, LAST_NAME, limit=1.0)
        if not shown:
            os.write(fd, b'G')  # pressed while the tool was still loading: again
    if not shown:
        raise RuntimeError('%s did not show the last entry after G' % command[0])
    os.write(fd, b'q')
    end, _ = drain_until_exit(pid, fd)
    os.close(fd)
    return end - start


def key_latencies(command, env, setup, keys, interval, cols=120, rows=40, quit=b'q'):
    """Runs `command` in a pty, sends `setup` and then each of `keys` every `interval` seconds,
    reading everything the program writes meanwhile; returns the sorted milliseconds from each
    key to the first byte written after it."""
    cache = tempfile.mkdtemp(prefix='qlb-latency-cache-')
    pid, fd = spawn(command, dict(env, XDG_CACHE_HOME=cache), cols=cols, rows=rows)
    read_until_quiet(fd)
    os.write(fd, setup)
    read_until_quiet(fd, quiet=0.3)
    samples = []
    for key in keys:
        sent = time.time()
        os.write(fd, key)
        ready, _, _ = select.select([fd], [], [], 2.0)
        if ready:
            samples.append((time.time() - sent) * 1000)
        # keep reading (pictures arriving) until the next key is due
        end = sent + interval
        while time.time() < end:
            ready, _, _ = select.select([fd], [], [], max(0, end - time.time()))
            if ready:
                try:
                    os.read(fd, 1 << 20)
                except OSError:
                    break
    os.write(fd, quit)
    drain_until_exit(pid, fd)
    os.close(fd)
    shutil.rmtree(cache, ignore_errors=True)
    samples.sort()
    return samples


def latency(qlbrowse, env):
    folder = os.path.join(BENCH, 'pictures-300')
    if not os.path.isdir(folder):
        os.makedirs(folder)
        fixtures = os.path.join(ROOT, '.fixtures', 'small')
        sources = [os.path.join(fixtures, n) for n in ('landscape.jpg', 'image.webp', 'interlaced.png', 'clip.mp4', 'doc.pdf', 'image.heic')]
        for index in range(300):
            source = sources[index % len(sources)]
            shutil.copy(source, os.path.join(folder, 'pic%03d%s' % (index, os.path.splitext(source)[1])))
    keys = [b'j' if index % 20 == 19 else b'l' if index % 2 == 0 else b'h' for index in range(120)]
    return key_latencies([qlbrowse, '--graphics', 'symbols', folder], env, b'v', keys, 0.04)


def quicklook_latency(qlbrowse, env):
    folder = os.path.join(BENCH, 'photos-3000')
    if len([n for n in os.listdir(folder) if n.endswith('.jpg')] if os.path.isdir(folder) else []) < 12:
        os.makedirs(folder, exist_ok=True)
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=3000x2000:rate=1', '-frames:v', '12',
                        '-q:v', '3', os.path.join(folder, 'photo%02d.jpg')], check=True)
    # -> and <- as xterm sends them in keypad mode, ten of each in turn
    keys = [b'\x1bOC' if (index // 10) % 2 == 0 else b'\x1bOD' for index in range(60)]
    return key_latencies([qlbrowse, '--graphics', 'sixel', folder], env, b' ', keys, 0.15, cols=160, rows=50, quit=b' q')


def percentiles(samples):
    """p50, p99 and the largest of sorted samples."""
    return samples[len(samples) // 2], samples[min(len(samples) - 1, int(len(samples) * 0.99))], samples[-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build/release/qlbrowse'))
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args()
    os.makedirs(BENCH, exist_ok=True)
    folder = make_big_folder()
    home = tempfile.mkdtemp(prefix='qlb-bench-home-')
    for sub in ('.config', '.cache', '.state'):
        os.makedirs(os.path.join(home, sub))  # nnn exits when it cannot make its config folder
    env = {'TERM': 'xterm-256color', 'HOME': home, 'XDG_CONFIG_HOME': home + '/.config', 'XDG_CACHE_HOME': home + '/.cache',
           'XDG_STATE_HOME': home + '/.state', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'EDITOR': 'true'}
    tools = [('qlbrowse', [args.qlbrowse, folder]), ('nnn', ['nnn', folder]), ('lf', ['lf', folder]), ('ranger', ['ranger', folder])]
    results = {}
    for name, command in tools:
        if shutil.which(command[0]) is None:
            print('%-9s not installed' % name)
            continue
        try:
            cpu = min(open_jump_quit(command, env) for _ in range(args.runs))
            wall = min(open_jump_quit_wall(command, env) for _ in range(args.runs))
        except RuntimeError as error:
            print('%-9s %s' % (name, error))
            continue
        results[name] = (cpu[0], cpu[1], wall)
    print('\nopen a folder of 100,000 files, jump to the end, quit (best of %d)' % args.runs)
    print('  CPU s: user + system with fixed waits (the work done); wall s: start to exit, keys sent as soon as the screen allows')
    print('%-10s %8s %8s %8s %9s %9s %9s' % ('tool', 'CPU s', 'wall s', 'RSS MB', 'CPU/nnn', 'wall/nnn', 'RSS/nnn'))
    nnn = results.get('nnn')
    for name, (seconds, rss, wall) in results.items():
        ratios = (seconds / nnn[0], wall / nnn[2], rss / nnn[1]) if nnn else (float('nan'),) * 3
        print('%-10s %8.3f %8.3f %8.1f %9.2f %9.2f %9.2f' % ((name, seconds, wall, rss) + ratios))
    verdicts = []
    if nnn and 'qlbrowse' in results:
        q = results['qlbrowse']
        # The target is the time the task takes (wall); CPU time is printed above for the record.
        verdicts.append(('time (wall) <= nnn', q[2] <= nnn[2]))
        verdicts.append(('RSS <= 2x nnn', q[1] <= 2 * nnn[1]))
    measurements = [('grid of 300 pictures loading', 'latency p99 <= 50 ms', latency)]
    if shutil.which('ffmpeg'):
        measurements.append(('Quick Look stepping through 3000x2000 photos as sixel', 'Quick Look p99 <= 50 ms', quicklook_latency))
    print()
    for what, label, measure in measurements:
        samples = measure(args.qlbrowse, env)
        if samples:
            p50, p99, top = percentiles(samples)
            print('key-to-screen latency, %s (%d keys): p50 %.1f ms, p99 %.1f ms, max %.1f ms' % (what, len(samples), p50, p99, top))
            verdicts.append((label, p99 <= 50))
    print()
    for label, ok in verdicts:
        print('%-24s %s' % (label, 'PASS' if ok else 'FAIL'))
    shutil.rmtree(home, ignore_errors=True)
    return 0 if all(ok for _, ok in verdicts) else 1


sys.exit(main())
