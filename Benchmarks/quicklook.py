#!/usr/bin/python3
"""Quick Look benchmarks, at 140x45 in the same pseudo-terminal harness as browser.py.

1. PDF next-page latency: a 1,008-page PDF, PgDn every 400 ms, time from the key to the first byte
   of the new page's picture (sixel). Target: p99 <= 150 ms (the next page is rendered ahead).
2. Text scroll latency on a 2 GB sparse log (lines at both ends): j every 50 ms, time from the key
   to the first byte written. Target: p99 <= 20 ms.
3. Video seek latency: a 60 s 1080p H.264 video (ffmpeg's default GOP), j (5 s on) every 700 ms,
   time from the key to the first byte of the new frame's picture (sixel). Target: p99 <= 300 ms.
4. Playing that video for 8 s in kitty and in sixel: pictures per second and bytes per second.
   Target: >= 10 pictures/s.

usage: Benchmarks/quicklook.py [--qlbrowse PATH]
"""
import argparse, os, re, select, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # the pty harness: spawn, read_chunk, read_until_quiet, drain_until_exit, percentiles

COLS, ROWS = 140, 45
ENV = {'TERM': 'xterm-256color', 'COLORTERM': 'truecolor', 'LANG': 'C.UTF-8'}


def fixtures():
    folder = os.path.join(browser.BENCH, 'quicklook')
    os.makedirs(folder, exist_ok=True)
    pdf = os.path.join(folder, 'book.pdf')
    if not os.path.exists(pdf):
        pages12 = os.path.join(browser.ROOT, '.fixtures', 'small', 'pages12.pdf')
        subprocess.run(['qpdf', '--empty', '--pages'] + [pages12] * 84 + ['--', pdf], check=True)
    log = os.path.join(folder, 'sparse.log')
    if not os.path.exists(log):
        with open(log, 'wb') as out:
            out.write(b''.join(b'head %d\n' % i for i in range(100_000)))
            out.truncate(2 << 30)
            out.seek(0, 2)
            out.write(b'\n' + b''.join(b'tail %d\n' % i for i in range(100_000)))
    video = os.path.join(folder, 'movie.mp4')
    if not os.path.exists(video):
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25', '-t', '60',
                        '-c:v', 'libx264', '-pix_fmt', 'yuv420p', video], check=True)
    return folder


def session(qlbrowse, folder, name, mode):
    """The browser on `folder` with Quick Look open on `name`; returns (pid, fd)."""
    alone = tempfile.mkdtemp(prefix='qlb-ql-')
    os.symlink(os.path.join(folder, name), os.path.join(alone, name))
    pid, fd = browser.spawn([qlbrowse, '--graphics', mode, alone], dict(ENV, XDG_CACHE_HOME=alone + '/.cache'), cols=COLS, rows=ROWS)
    browser.read_until_quiet(fd, quiet=0.5)
    os.write(fd, b' ')
    browser.read_until_quiet(fd, quiet=1.0, limit=20)
    return pid, fd


def finish(pid, fd):
    os.write(fd, b'qq')
    browser.drain_until_exit(pid, fd)
    os.close(fd)


def latencies(pid, fd, key, count, interval, until=None):
    """Sends `key` `count` times, `interval` apart; the milliseconds from each key to the first
    byte written after it, or to the first `until` pattern (a picture starting)."""
    samples = []
    for _ in range(count):
        sent = time.time()
        os.write(fd, key)
        seen = None
        data = bytearray()
        end = sent + interval
        while time.time() < end:
            ready, _, _ = select.select([fd], [], [], max(0, end - time.time()))
            if not ready:
                continue
            try:
                data.extend(browser.read_chunk(fd, 1 << 20))
            except OSError:
                break
            if seen is None and (until is None or re.search(until, bytes(data))):
                seen = time.time()
        if seen is not None:
            samples.append((seen - sent) * 1000)
    samples.sort()
    return samples


def playing(qlbrowse, folder, mode):
    pid, fd = session(qlbrowse, folder, 'movie.mp4', mode)
    os.write(fd, b'p')
    start, data = time.time(), bytearray()
    while time.time() - start < 8:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            data.extend(browser.read_chunk(fd, 1 << 20))
    elapsed = time.time() - start
    finish(pid, fd)
    raw = bytes(data)
    # kitty: distinct pictures placed (each frame has its own id); sixel: pictures written.
    pictures = len(set(re.findall(rb'\x1b_Ga=p,i=(\d+)', raw))) if mode == 'kitty' else raw.count(b'\x1bP')
    return pictures / elapsed, len(raw) / elapsed


def show(label, samples):
    if not samples:
        print('%s: nothing was drawn' % label)
        return float('inf')
    p50, p99, largest = browser.percentiles(samples)
    print('%s (%d keys): p50 %.1f ms, p99 %.1f ms, max %.1f ms' % (label, len(samples), p50, p99, largest))
    return p99


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--qlbrowse', default=os.path.join(browser.ROOT, '.build/release/qlbrowse'))
    args = parser.parse_args()
    folder = fixtures()
    results = []
    pid, fd = session(args.qlbrowse, folder, 'book.pdf', 'sixel')
    results.append(('PDF next page p99 <= 150 ms', show('PDF next page, key to picture, sixel', latencies(pid, fd, b'\x1b[6~', 40, 0.4, rb'\x1bP')) <= 150))
    finish(pid, fd)
    pid, fd = session(args.qlbrowse, folder, 'sparse.log', 'sixel')
    results.append(('text scroll p99 <= 20 ms', show('2 GB log, key to screen', latencies(pid, fd, b'j', 100, 0.05)) <= 20))
    finish(pid, fd)
    pid, fd = session(args.qlbrowse, folder, 'movie.mp4', 'sixel')
    results.append(('video seek p99 <= 300 ms', show('video seek 5 s, key to picture, sixel', latencies(pid, fd, b'j', 10, 0.7, rb'\x1bP')) <= 300))
    finish(pid, fd)
    for mode in ('kitty', 'sixel'):
        fps, rate = playing(args.qlbrowse, folder, mode)
        print('playing 1080p at %dx%d in %s: %.1f pictures/s, %d bytes/s' % (COLS, ROWS, mode, fps, rate))
        results.append(('%s playing >= 10 pictures/s' % mode, fps >= 10))
    for label, passed in results:
        print('%-28s %s' % (label, 'PASS' if passed else 'FAIL'))


if __name__ == '__main__':
    main()
