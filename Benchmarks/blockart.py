#!/usr/bin/python3
"""Block art side by side with chafa's own command line: how close each comes to the picture.

Each photo is shown full screen in qlbrowse's Quick Look (--graphics symbols) and drawn by the
`chafa` command (its defaults, and with more work) at the same size; every screen goes through a
terminal emulator (pyte), and each cell's seen colour (foreground and background mixed by the
glyph's ink) is compared with the picture averaged over that cell. Printed: the mean colour error
(RGB distance, lower is better) per colour depth, and the ratio to chafa's default.

usage: Benchmarks/blockart.py [--qlbrowse PATH] [--photos N]
"""
import argparse, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'Tests', 'Support'))
import pyte  # noqa: E402
from PIL import Image  # noqa: E402
from ptybrowser import Browser  # noqa: E402
import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location('pictures', os.path.join(ROOT, 'Tests', 'Support', 'pictures.py'))
pictures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pictures)
COLS, ROWS = 120, 30
DEPTHS = [('truecolor', 'xterm-256color', 'truecolor', 'full'), ('256', 'xterm-256color', '', '240'), ('16', 'xterm-16color', '', '16')]


def error(screen, photo, top, bottom):
    """Mean RGB distance between what the cells show and the picture, over the picture's cells."""
    cells = [(x, y) for y in range(top, bottom) for x in range(COLS) if screen.buffer[y][x].bg != 'default' or screen.buffer[y][x].data.strip()]
    if not cells:
        return float('nan')
    x0, x1 = min(x for x, _ in cells), max(x for x, _ in cells) + 1
    y0, y1 = min(y for _, y in cells), max(y for _, y in cells) + 1
    target = Image.open(photo).convert('RGB').resize((x1 - x0, y1 - y0), Image.BOX).load()
    total = 0.0
    for y in range(y0, y1):
        for x in range(x0, x1):
            seen = pictures.seen(screen.buffer[y][x])
            total += sum((a - b) ** 2 for a, b in zip(seen, target[x - x0, y - y0])) ** 0.5
    return total / ((x1 - x0) * (y1 - y0))


def ours(qlbrowse, photo, term, colorterm, work):
    folder = tempfile.mkdtemp(dir=work)
    shutil.copy(photo, folder)
    browser = Browser([qlbrowse, '--graphics', 'symbols', folder], pictures.env_for(work, term, colorterm))
    try:
        browser.wait_for(' from ', 30)
        browser.send(b' ')
        browser.pump(4.0, quiet=1.5)
        return error(browser.screen, photo, 1, ROWS - 2)
    finally:
        browser.kill()


def chafa(photo, colors, extra, rows):
    out = subprocess.run(['chafa', '-f', 'symbols', '-c', colors, '-s', '%dx%d' % (COLS, rows), '--animate', 'off'] + extra + [photo],
                         capture_output=True, env=dict(os.environ, TERM='xterm-256color')).stdout
    screen = pyte.Screen(COLS, rows + 1)
    pyte.ByteStream(screen).feed(out.replace(b'\n', b'\r\n'))
    return error(screen, photo, 0, rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build/release/qlbrowse'))
    parser.add_argument('--photos', type=int, default=6)
    args = parser.parse_args()
    corpus = os.path.join(ROOT, '..', 'shared', 'corpus', 'images')
    work = tempfile.mkdtemp(prefix='qlb-blockart-')
    photos = sorted(os.path.join(corpus, n) for n in os.listdir(corpus) if n.lower().endswith('.jpg') and os.path.getsize(os.path.join(corpus, n)) > 150_000)[:args.photos] \
        if os.path.isdir(corpus) else []
    if not photos:
        path = os.path.join(work, 'photo.jpg')
        subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'mandelbrot=size=1200x800', '-frames:v', '1', path], check=True)
        photos = [path]
    print('mean colour error per cell (RGB distance; lower is better), %d photos, %dx%d cells' % (len(photos), COLS, ROWS - 3))
    print('%-10s %10s %14s %16s %10s' % ('colours', 'qlbrowse', 'chafa default', 'chafa -w 9', 'ratio'))
    for label, term, colorterm, chafa_colors in DEPTHS:
        mine = [ours(args.qlbrowse, p, term, colorterm, work) for p in photos]
        default = [chafa(p, chafa_colors, [], ROWS - 3) for p in photos]
        best = [chafa(p, chafa_colors, ['-w', '9'], ROWS - 3) for p in photos]
        m, d, b = (sum(v) / len(v) for v in (mine, default, best))
        print('%-10s %10.1f %14.1f %16.1f %10.2f' % (label, m, d, b, m / d))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
