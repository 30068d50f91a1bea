#!/usr/bin/python3
"""The first screen of photos on a slow share (issue 27): the grid of 24 camera photos (4000x3000,
~5.5 MB, each with the 160x120 EXIF thumbnail cameras write) on a FUSE mount that answers every
request after 5 ms and reads at 20 MB/s (Tests/Support/faultfs.py: `latency_ms` 5, and
`read_delay_ms` 6.4 for each read of up to 128 KiB, one read at a time), cold thumbnail cache.

The browser starts in the folder (120x40, kitty graphics, its own workers as on a share without
the service running) and is asked for the grid as soon as it drew its first screen. Each picture
it sends is placed where the cursor was put before it; the time each tile first shows a picture
(the embedded preview at least) and its last (the thumbnail) are read from the stream. Prints,
per run, the time to the first tile, to every tile of the first screen showing a picture (target
<= 1.5 s), and to every tile's thumbnail; then medians (ranges).

usage: Benchmarks/fuse-grid.py [--qlbrowse PATH] [--runs N]
"""
import argparse, os, re, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import spawn, read_chunk, read_until_quiet, drain_until_exit  # noqa: E402
import dbus as dbus_bench  # noqa: E402  (the camera photos with their EXIF thumbnails)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'Tests', 'Support'))
import faultfs_ctl  # noqa: E402

CURSOR = re.compile(rb'\x1b\[(\d+);(\d+)H|\x1b_G([^;\x1b]*)')


def tiles_shown(data, now, tiles):
    """Notes in `tiles` when each tile got its first and its last picture (a=T or a=p placed at the
    cursor). A picture is centred in its tile, so the preview and the thumbnail of one tile land a
    few columns apart: a placement on the same row within 8 columns of a tile's is that tile's."""
    position = None
    for match in CURSOR.finditer(bytes(data)):
        if match.group(1):
            position = (int(match.group(1)), int(match.group(2)))
            continue
        keys = dict(part.split(b'=', 1) for part in match.group(3).split(b',') if b'=' in part)
        if keys.get(b'a') not in (b'T', b'p') or position is None:
            continue
        tile = next((t for t in tiles if t[0] == position[0] and abs(t[1] - position[1]) < 8), None)
        if tile is None:
            tiles[position] = {'first': now, 'last': now, 'places': {position}}
        elif position not in tiles[tile]['places']:
            tiles[tile]['places'].add(position)
            tiles[tile]['last'] = now


def one_run(qlbrowse, mount, env):
    started = time.monotonic()
    pid, fd = spawn([qlbrowse, '--graphics', 'kitty', mount], env, cols=120, rows=40)
    seen = bytearray(read_chunk(fd))
    os.write(fd, b'v')
    tiles, last = {}, started
    deadline = started + 60
    while time.monotonic() < deadline:
        data, _ = read_until_quiet(fd, quiet=2.0, limit=0.05)
        if data:
            seen += data
            last = time.monotonic()
            tiles_shown(seen, last - started, tiles)
        elif time.monotonic() - last > 3.0:
            break
    os.write(fd, b'q')
    drain_until_exit(pid, fd)
    os.close(fd)
    if os.environ.get('FUSE_GRID_TRACE'):
        for position, tile in sorted(tiles.items(), key=lambda item: item[1]['first']):
            print('  row %2d column %3d: first %6.2f s, last %6.2f s' % (position + (tile['first'], tile['last'])), file=sys.stderr)
    first = sorted(tile['first'] for tile in tiles.values()) or [float('nan')]
    final = sorted(tile['last'] for tile in tiles.values()) or [float('nan')]
    return first[0], first[-1], final[-1], len(tiles)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build', 'release', 'qlbrowse'))
    parser.add_argument('--runs', type=int, default=int(os.environ.get('RUNS', '3')))
    args = parser.parse_args()
    photos = dbus_bench.camera_photos()[:24]
    work = tempfile.mkdtemp(prefix='qlb-fuse-grid-')
    source, mount = os.path.join(work, 'photos'), os.path.join(work, 'mnt')
    os.makedirs(source)
    os.makedirs(mount)
    for photo in photos:
        os.link(photo, os.path.join(source, os.path.basename(photo)))
    faultfs_ctl.mount(source, mount)
    faultfs_ctl.set_faults(mount, latency_ms=5, read_delay_ms=6.4)
    rows = []
    try:
        print('24 camera photos (%.1f MB each) on FUSE at 5 ms a request and 20 MB/s, cold cache' %
              (sum(os.path.getsize(p) for p in photos) / len(photos) / 1e6))
        print('%-4s %12s %18s %16s %6s' % ('run', 'first tile s', 'every tile s', 'every thumbnail s', 'tiles'))
        for run in range(args.runs):
            home = os.path.join(work, 'home%d' % run)
            for sub in ('config', 'cache', 'state'):
                os.makedirs(os.path.join(home, sub))
            env = dict(os.environ, TERM='xterm-kitty', XDG_CONFIG_HOME=home + '/config', XDG_CACHE_HOME=home + '/cache',
                       XDG_STATE_HOME=home + '/state', QLBROWSE_NO_SERVICE='1')
            # Cold: nothing of the files in the page cache either.
            subprocess.run(['sh', '-c', 'sync; echo 3 > /proc/sys/vm/drop_caches'], stderr=subprocess.DEVNULL)
            first, every, last, count = one_run(args.qlbrowse, mount, env)
            rows.append((first, every, last, count))
            print('%-4d %12.2f %18.2f %16.2f %6d' % (run + 1, first, every, last, count), flush=True)
    finally:
        faultfs_ctl.unmount(mount)
        shutil.rmtree(work, ignore_errors=True)

    def spread(values):
        return '%.2f (%.2f-%.2f)' % (statistics.median(values), min(values), max(values))
    every = [r[1] for r in rows]
    print('every tile of the first screen shows a picture: median (range) %s s  target <= 1.5  %s' %
          (spread(every), 'PASS' if statistics.median(every) <= 1.5 else 'FAIL'))
    print('first tile %s s, every thumbnail %s s, tiles %s' % (spread([r[0] for r in rows]), spread([r[2] for r in rows]),
                                                                 sorted(set(r[3] for r in rows))))
    return 0 if statistics.median(every) <= 1.5 else 1


if __name__ == '__main__':
    sys.exit(main())
