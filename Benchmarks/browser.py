#!/usr/bin/python3
"""Browser benchmarks, side by side in one run, in the same pseudo-terminal harness.

1. Open a folder of 100,000 files, jump to the end, quit: qlbrowse against nnn, lf and ranger
   (those installed). Prints the CPU time each used (best of RUNS; fixed waits between keys, so
   CPU time rather than wall time measures the work) and peak RSS of the program itself, and the
   ratios to nnn. Targets: time (wall, keys sent as soon as the screen allows) <= nnn, RSS <= 2x nnn;
   CPU time is printed too.
2. Key-to-screen latency while thumbnails load: qlbrowse in the grid view of a folder of 300
   pictures with an empty thumbnail cache; a key every 40 ms; the time from each key to the first
   byte the browser writes back. Target: p99 <= 50 ms. Twice: thumbnails decoded by the resident
   service (the default; it runs from a runtime folder of this script's own, started by the first
   window and stopped at the end) and by the browser's own workers (--no-service).
3. Key-to-screen latency in Quick Look: stepping with -> and <- through 12 photos of 3000x2000 as
   sixel, a key every 150 ms, the full-screen picture of each encoded while the next key comes.
   Target: p99 <= 50 ms.
4. Bytes written per graphics protocol (kitty, sixel, iTerm2, block art) for opening a 12-photo
   grid, moving the selection 20 times, and scrolling one screen down and back. Targets: kitty
   grid <= 2 MB and <= 1.2x sixel, no picture bytes for selection moves, nothing sent again by
   kitty when scrolling back. (`--graphics-only` runs just this.)

`--folder-only`: just the first, qlbrowse and nnn alternating RUNS times: each run's peak RSS and
CPU time, and the median (range) of the ratios qlbrowse/nnn (RSS target <= 1.2x, issue 27).

usage: Benchmarks/browser.py [--qlbrowse PATH] [--runs N] [--graphics-only | --folder-only]
"""
import argparse, fcntl, os, pty, re, resource, select, shutil, signal, statistics, struct, subprocess, sys, tempfile, termios, time
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


def read_chunk(fd, size=1 << 16):
    """Reads what the program wrote, answering the device attributes query as a terminal does at
    once (qlbrowse asks before it draws; a pty nobody answers would cost it its probe's timeout)."""
    chunk = os.read(fd, size)
    if b'\x1b[c' in chunk:
        os.write(fd, b'\x1b[?62;22c')
    return chunk


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
            chunk = read_chunk(fd)
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
            chunk = read_chunk(fd)
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
                if not read_chunk(fd):
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
            chunk = read_chunk(fd)
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
                    read_chunk(fd, 1 << 20)
                except OSError:
                    break
    os.write(fd, quit)
    drain_until_exit(pid, fd)
    os.close(fd)
    shutil.rmtree(cache, ignore_errors=True)
    samples.sort()
    return samples


def latency(qlbrowse, env, extra=()):
    folder = os.path.join(BENCH, 'pictures-300')
    if not os.path.isdir(folder):
        os.makedirs(folder)
        fixtures = os.path.join(ROOT, '.fixtures', 'small')
        sources = [os.path.join(fixtures, n) for n in ('landscape.jpg', 'image.webp', 'interlaced.png', 'clip.mp4', 'doc.pdf', 'image.heic')]
        for index in range(300):
            source = sources[index % len(sources)]
            shutil.copy(source, os.path.join(folder, 'pic%03d%s' % (index, os.path.splitext(source)[1])))
    keys = [b'j' if index % 20 == 19 else b'l' if index % 2 == 0 else b'h' for index in range(120)]
    return key_latencies([qlbrowse, '--graphics', 'symbols', *extra, folder], env, b'v', keys, 0.04)


def latency_own_workers(qlbrowse, env):
    return latency(qlbrowse, env, ['--no-service'])


def stop_service(runtime):
    """Ends the service started from `runtime` (it leads its own process group: its workers go too)."""
    try:
        with open(os.path.join(runtime, 'qlbrowse', 'service.pid')) as f:
            os.killpg(int(f.read().strip()), signal.SIGKILL)
    except (OSError, ValueError):
        pass


def quicklook_latency(qlbrowse, env):
    folder = os.path.join(BENCH, 'photos-3000')
    if len([n for n in os.listdir(folder) if n.endswith('.jpg')] if os.path.isdir(folder) else []) < 12:
        os.makedirs(folder, exist_ok=True)
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=3000x2000:rate=1', '-frames:v', '12',
                        '-q:v', '3', os.path.join(folder, 'photo%02d.jpg')], check=True)
    # -> and <- as xterm sends them in keypad mode, ten of each in turn
    keys = [b'\x1bOC' if (index // 10) % 2 == 0 else b'\x1bOD' for index in range(60)]
    return key_latencies([qlbrowse, '--graphics', 'sixel', folder], env, b' ', keys, 0.15, cols=160, rows=50, quit=b' q')


def photo_folder():
    """36 photos: the corpus's camera JPEGs when ../shared/corpus is there (what users have), else
    generated ones; three screens of a 12-tile grid at 80x30."""
    folder = os.path.join(BENCH, 'photos-36')
    if os.path.isdir(folder) and len(os.listdir(folder)) >= 36:
        return folder
    os.makedirs(folder, exist_ok=True)
    corpus = os.path.join(ROOT, '..', 'shared', 'corpus', 'images')
    sources = sorted(os.path.join(corpus, n) for n in os.listdir(corpus) if n.lower().endswith('.jpg')
                     and os.path.getsize(os.path.join(corpus, n)) > 150_000) if os.path.isdir(corpus) else []
    if sources:
        for index in range(36):
            shutil.copy(sources[index % len(sources)], os.path.join(folder, 'photo%02d.jpg' % index))
    else:
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'mandelbrot=size=1600x1200:rate=4', '-frames:v', '36',
                        '-q:v', '3', os.path.join(folder, 'photo%02d.jpg')], check=True)
    return folder


def picture_bytes(data):
    """Bytes that draw pictures: kitty commands, and what is written between save and restore cursor
    (every driver places its pictures so: sixel, iTerm2, block art, kitty placements)."""
    placed = re.findall(rb'\x1b7.*?\x1b8', bytes(data), re.S)
    rest = re.sub(rb'\x1b7.*?\x1b8', b'', bytes(data), flags=re.S)
    return sum(len(m) for m in placed) + sum(len(m) for m in re.findall(rb'\x1b_G[^\x1b]*\x1b\\', rest))


def graphics_bytes(qlbrowse, env, mode, cache):
    """Bytes written by `mode` for: opening the 12-photo grid, moving the selection 20 times,
    scrolling one screen down and back. The thumbnails are in the cache already (a second visit)."""
    pid, fd = spawn([qlbrowse, '--graphics', mode, photo_folder()], dict(env, XDG_CACHE_HOME=cache), cols=80, rows=30)
    read_until_quiet(fd, quiet=1.0, limit=10)
    os.write(fd, b'v')
    grid, _ = read_until_quiet(fd, quiet=1.5, limit=30)
    moves = bytearray()
    for key in b'llljjhhhkkllljjhhhkk':
        os.write(fd, bytes([key]))
        moves += read_until_quiet(fd, quiet=0.15, limit=2)[0]
    os.write(fd, b'\x1b[6~')
    scroll = bytearray(read_until_quiet(fd, quiet=1.5, limit=20)[0])
    os.write(fd, b'\x1b[5~')
    back = read_until_quiet(fd, quiet=1.5, limit=20)[0]
    os.write(fd, b'q')
    drain_until_exit(pid, fd)
    os.close(fd)
    return len(grid), picture_bytes(moves), len(scroll), len(back), picture_bytes(back)


def graphics_bytes_table(qlbrowse, env):
    """Bytes per protocol side by side; the verdicts for kitty."""
    cache = tempfile.mkdtemp(prefix='qlb-graphics-cache-')
    graphics_bytes(qlbrowse, env, 'symbols', cache)  # fills the thumbnail cache
    rows = {mode: graphics_bytes(qlbrowse, env, mode, cache) for mode in ('kitty', 'sixel', 'iterm', 'symbols')}
    shutil.rmtree(cache, ignore_errors=True)
    print('\nbytes written per protocol, 12-photo grid at 80x30, thumbnails cached')
    print('%-9s %12s %14s %14s %12s %16s' % ('mode', 'open grid', 'picture bytes', 'PgDn', 'PgUp', 'picture bytes'))
    print('%-9s %12s %14s %14s %12s %16s' % ('', '', '20 moves', '(4 new)', '(back)', 'PgUp'))
    for mode, (grid, moves, down, up, up_pictures) in rows.items():
        print('%-9s %12d %14d %14d %12d %16d' % (mode, grid, moves, down, up, up_pictures))
    kitty, sixel = rows['kitty'], rows['sixel']
    print('kitty/sixel to open the grid: %.2f' % (kitty[0] / sixel[0]))
    # Scrolling back, kitty places what it holds (a few dozen bytes each) and sends nothing again.
    return [('kitty grid <= 2 MB', kitty[0] <= 2_000_000), ('kitty grid <= 1.2x sixel', kitty[0] <= 1.2 * sixel[0]),
            ('0 picture bytes for moves', all(row[1] == 0 for row in rows.values())),
            ('kitty PgUp: no resend', kitty[4] < 2000)]


def folder_side_by_side(qlbrowse, runs):
    """The 100,000-entry folder, qlbrowse and nnn alternating: RSS and CPU ratios, medians (ranges)."""
    os.makedirs(BENCH, exist_ok=True)
    folder = make_big_folder()
    home = tempfile.mkdtemp(prefix='qlb-bench-home-')
    for sub in ('.config', '.cache', '.state'):
        os.makedirs(os.path.join(home, sub))
    env = {'TERM': 'xterm-256color', 'HOME': home, 'XDG_CONFIG_HOME': home + '/.config', 'XDG_CACHE_HOME': home + '/.cache',
           'XDG_STATE_HOME': home + '/.state', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'EDITOR': 'true'}
    rss, cpu = [], []
    print('%-4s %14s %14s %14s %14s' % ('run', 'qlbrowse RSS', 'nnn RSS MB', 'qlbrowse CPU', 'nnn CPU s'))
    for run in range(runs):
        order = [('qlbrowse', [qlbrowse, folder]), ('nnn', ['nnn', folder])]
        result = {name: open_jump_quit(command, env) for name, command in (order if run % 2 == 0 else order[::-1])}
        (qc, qr), (nc, nr) = result['qlbrowse'], result['nnn']
        print('%-4d %14.1f %14.1f %14.3f %14.3f' % (run + 1, qr, nr, qc, nc), flush=True)
        rss.append(qr / nr)
        cpu.append(qc / nc)
    shutil.rmtree(home, ignore_errors=True)
    print('RSS qlbrowse/nnn: median %.2f (%.2f-%.2f)  target <= 1.2  %s' % (statistics.median(rss), min(rss), max(rss),
                                                                            'PASS' if statistics.median(rss) <= 1.2 else 'FAIL'))
    print('CPU qlbrowse/nnn: median %.2f (%.2f-%.2f)' % (statistics.median(cpu), min(cpu), max(cpu)))
    return 0 if statistics.median(rss) <= 1.2 else 1


def percentiles(samples):
    """p50, p99 and the largest of sorted samples."""
    return samples[len(samples) // 2], samples[min(len(samples) - 1, int(len(samples) * 0.99))], samples[-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build/release/qlbrowse'))
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--graphics-only', action='store_true')
    parser.add_argument('--folder-only', action='store_true')
    args = parser.parse_args()
    if args.folder_only:
        return folder_side_by_side(args.qlbrowse, args.runs)
    if args.graphics_only:
        home = tempfile.mkdtemp(prefix='qlb-bench-home-')
        env = {'TERM': 'xterm-256color', 'HOME': home, 'XDG_STATE_HOME': home, 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8'}
        verdicts = graphics_bytes_table(args.qlbrowse, env)
        for label, ok in verdicts:
            print('%-28s %s' % (label, 'PASS' if ok else 'FAIL'))
        return 0 if all(ok for _, ok in verdicts) else 1
    os.makedirs(BENCH, exist_ok=True)
    folder = make_big_folder()
    home = tempfile.mkdtemp(prefix='qlb-bench-home-')
    for sub in ('.config', '.cache', '.state'):
        os.makedirs(os.path.join(home, sub))  # nnn exits when it cannot make its config folder
    runtime = os.path.join(home, 'run')
    os.makedirs(runtime, mode=0o700)
    env = {'TERM': 'xterm-256color', 'HOME': home, 'XDG_CONFIG_HOME': home + '/.config', 'XDG_CACHE_HOME': home + '/.cache',
           'XDG_STATE_HOME': home + '/.state', 'XDG_RUNTIME_DIR': runtime, 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'EDITOR': 'true'}
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
    measurements = [('grid of 300 pictures loading, service', 'latency p99 <= 50 ms', latency),
                    ('grid of 300 pictures loading, --no-service', 'latency (own) p99 <= 50 ms', latency_own_workers)]
    if shutil.which('ffmpeg'):
        measurements.append(('Quick Look stepping through 3000x2000 photos as sixel', 'Quick Look p99 <= 50 ms', quicklook_latency))
    print()
    for what, label, measure in measurements:
        samples = measure(args.qlbrowse, env)
        if samples:
            p50, p99, top = percentiles(samples)
            print('key-to-screen latency, %s (%d keys): p50 %.1f ms, p99 %.1f ms, max %.1f ms' % (what, len(samples), p50, p99, top))
            verdicts.append((label, p99 <= 50))
    verdicts += graphics_bytes_table(args.qlbrowse, env)
    stop_service(runtime)
    print()
    for label, ok in verdicts:
        print('%-24s %s' % (label, 'PASS' if ok else 'FAIL'))
    shutil.rmtree(home, ignore_errors=True)
    return 0 if all(ok for _, ok in verdicts) else 1


if __name__ == '__main__':
    sys.exit(main())
