#!/usr/bin/python3
"""Browser benchmarks, side by side in one run, in the same pseudo-terminal harness.

1. Open a folder of 100,000 files, jump to the end, quit: qlbrowse against nnn, lf and ranger
   (those installed). Prints the CPU time each used (best of RUNS; fixed waits between keys, so
   CPU time rather than wall time measures the work) and peak RSS of the program itself, and the
   ratios to nnn. Targets: time <= nnn, RSS <= 2x nnn.
2. Key-to-screen latency while thumbnails load: qlbrowse in the grid view of a folder of 300
   pictures with an empty thumbnail cache; a key every 40 ms; the time from each key to the first
   byte the browser writes back. Target: p99 <= 50 ms.

usage: Benchmarks/browser.py [--qlbrowse PATH] [--runs N]
"""
import argparse, fcntl, os, pty, resource, select, shutil, signal, statistics, struct, subprocess, sys, tempfile, termios, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get('BENCH_DIR', '/tmp/qlbrowse-bench')
QUIET = 0.15


def spawn(command, env, cols=120, rows=40):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(env)
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, cols * 10, rows * 20))
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


def open_jump_quit(command, env):
    """Opens the folder, waits 1.5 s (every tool here lists 100,000 files within it), presses G,
    waits 0.5 s, presses q. Returns the CPU time the program used for all that (user + system,
    from wait4: the work done, independent of the fixed waits) and its peak RSS."""
    pid, fd = spawn(command, env)
    read_until_quiet(fd, quiet=1.5, limit=1.5)
    os.write(fd, b'G')
    read_until_quiet(fd, quiet=0.5, limit=0.5)
    os.write(fd, b'q')
    _, usage = drain_until_exit(pid, fd)
    os.close(fd)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def latency(qlbrowse, env):
    folder = os.path.join(BENCH, 'pictures-300')
    if not os.path.isdir(folder):
        os.makedirs(folder)
        fixtures = os.path.join(ROOT, '.fixtures', 'small')
        sources = [os.path.join(fixtures, n) for n in ('landscape.jpg', 'image.webp', 'interlaced.png', 'clip.mp4', 'doc.pdf', 'image.heic')]
        for index in range(300):
            source = sources[index % len(sources)]
            shutil.copy(source, os.path.join(folder, 'pic%03d%s' % (index, os.path.splitext(source)[1])))
    cache = tempfile.mkdtemp(prefix='qlb-latency-cache-')
    run_env = dict(env, XDG_CACHE_HOME=cache)
    pid, fd = spawn([qlbrowse, '--graphics', 'symbols', folder], run_env)
    read_until_quiet(fd)
    os.write(fd, b'v')
    read_until_quiet(fd, quiet=0.05)
    samples = []
    for index in range(120):
        key = b'l' if index % 2 == 0 else b'h'
        if index % 20 == 19:
            key = b'j'
        sent = time.time()
        os.write(fd, key)
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            samples.append((time.time() - sent) * 1000)
            os.read(fd, 1 << 16)
        # keep reading (thumbnails arriving) until the next key is due
        end = sent + 0.04
        while time.time() < end:
            ready, _, _ = select.select([fd], [], [], max(0, end - time.time()))
            if ready:
                try:
                    os.read(fd, 1 << 16)
                except OSError:
                    break
    os.write(fd, b'q')
    drain_until_exit(pid, fd)
    os.close(fd)
    shutil.rmtree(cache, ignore_errors=True)
    samples.sort()
    return samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build/release/qlbrowse'))
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args()
    os.makedirs(BENCH, exist_ok=True)
    folder = make_big_folder()
    home = tempfile.mkdtemp(prefix='qlb-bench-home-')
    env = {'TERM': 'xterm-256color', 'HOME': home, 'XDG_CONFIG_HOME': home + '/.config', 'XDG_CACHE_HOME': home + '/.cache',
           'XDG_STATE_HOME': home + '/.state', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'EDITOR': 'true'}
    tools = [('qlbrowse', [args.qlbrowse, folder]), ('nnn', ['nnn', folder]), ('lf', ['lf', folder]), ('ranger', ['ranger', folder])]
    results = {}
    for name, command in tools:
        if shutil.which(command[0]) is None:
            print('%-9s not installed' % name)
            continue
        best = None
        for _ in range(args.runs):
            seconds, rss = open_jump_quit(command, env)
            if best is None or seconds < best[0]:
                best = (seconds, rss)
        results[name] = best
    print('\nopen a folder of 100,000 files, jump to the end, quit (best of %d; CPU seconds used, peak RSS)' % args.runs)
    print('%-10s %9s %9s %10s %9s' % ('tool', 'CPU s', 'RSS MB', 'CPU/nnn', 'RSS/nnn'))
    nnn = results.get('nnn')
    for name, (seconds, rss) in results.items():
        ratio_t = seconds / nnn[0] if nnn else float('nan')
        ratio_m = rss / nnn[1] if nnn else float('nan')
        print('%-10s %9.3f %9.1f %10.2f %9.2f' % (name, seconds, rss, ratio_t, ratio_m))
    verdicts = []
    if nnn and 'qlbrowse' in results:
        q = results['qlbrowse']
        verdicts.append(('time <= nnn', q[0] <= nnn[0]))
        verdicts.append(('RSS <= 2x nnn', q[1] <= 2 * nnn[1]))
    samples = latency(args.qlbrowse, env)
    if samples:
        p50 = samples[len(samples) // 2]
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
        print('\nkey-to-screen latency, grid of 300 pictures loading (%d keys): p50 %.1f ms, p99 %.1f ms, max %.1f ms'
              % (len(samples), p50, p99, samples[-1]))
        verdicts.append(('latency p99 <= 50 ms', p99 <= 50))
    print()
    for label, ok in verdicts:
        print('%-24s %s' % (label, 'PASS' if ok else 'FAIL'))
    shutil.rmtree(home, ignore_errors=True)
    return 0 if all(ok for _, ok in verdicts) else 1


sys.exit(main())
