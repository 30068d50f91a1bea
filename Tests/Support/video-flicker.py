#!/usr/bin/python3
"""A video playing in Quick Look with sixel draws each frame over the last one (issue 23: the
picture was blank between frames, 3 in 20 samples in mlterm, 1 in 20 in xterm).

usage: video-flicker.py QLBROWSE WORKDIR

The output is replayed in pyte with sixels as marker cells (ghosts.py): just before each frame
of the playing video is drawn, the previous frame's cells must still show it (not blanked).
"""
import math, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402
from ghosts import MARK, SIXEL, SixelScreen, scrolls_as_line_feeds  # noqa: E402
import pyte  # noqa: E402


def frames_over_blank(raw):
    """(frames drawn where the frame before was, how many of them found its cells blanked)."""
    screen = SixelScreen(120, 36)
    stream = pyte.ByteStream(screen)
    data = scrolls_as_line_feeds(raw, [1, 36])
    previous = None
    position = 0
    over, blanked = 0, 0
    for match in SIXEL.finditer(data):
        stream.feed(data[position:match.start()])
        row, column, width, height = (int(match.group(i)) for i in range(1, 5))
        rect = (row - 1, column - 1, math.ceil(height / 20), math.ceil(width / 10))
        if rect == previous:
            top, left, rows, columns = rect
            cells = [(y, x) for y in range(top, top + rows) for x in range(left, min(120, left + columns))]
            still = sum(1 for y, x in cells if screen.buffer[y][x].data == MARK)
            over += 1
            if still < len(cells) // 2:
                blanked += 1
        stream.feed(b''.join(b'\x1b[%d;%dH' % (row + k, column) + (MARK * rect[3]).encode() for k in range(rect[2])))
        previous = rect
        position = match.end()
    return over, blanked


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    folder = os.path.join(work, 'videos')
    os.makedirs(folder)
    subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=12', '-t', '4', '-pix_fmt', 'yuv420p',
                    os.path.join(folder, 'clip.mp4')], check=True)
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config', 'QLBROWSE_NO_SERVICE': '1'}
    browser = Browser([qlbrowse, '--graphics', 'sixel', folder], env, cols=120, rows=36)
    try:
        browser.wait_for('1 files', 15) or browser.wait_for('1 file', 5)
        browser.pump(3.0, quiet=1.5)
        browser.send(b' ')
        browser.pump(3.0, quiet=1.5)
        mark = len(browser.raw)
        browser.send(b'p')
        browser.pump(4.0)
        over, blanked = frames_over_blank(bytes(browser.raw))
        played = len(SIXEL.findall(bytes(browser.raw[mark:])))
        results = [('the video plays: frames drawn one after another', played >= 5, '%d frames drawn while playing' % played),
                   ('each frame is drawn over the last, never on blanked cells', over >= 5 and blanked == 0,
                    '%d frames over the one before, %d of them on blanked cells' % (over, blanked))]
        browser.send(b'\x1b')
        browser.pump(1.0, quiet=0.5)
        results.append(browser.quit())
    except Exception:
        browser.kill()
        raise
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
