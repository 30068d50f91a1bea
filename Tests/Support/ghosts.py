#!/usr/bin/python3
"""No picture left behind by a screen change, with sixel (issue 23: typing in the filter left cut
copies of icons; help over the grid left the top row; `v` left the list's photo behind the grid).

usage: ghosts.py QLBROWSE WORKDIR [--tmux]

--tmux: the browser runs inside tmux (3.3+, its sixels through the passthrough) and the bytes tmux
sends its outer terminal are replayed. tmux sends on only the cells that change in its own grid, so
a repaint of blank cells under a picture never reaches the terminal (foot inside tmux kept the
grid's top row above the help).

The browser's output is replayed through a terminal emulator (pyte) with every sixel replaced by
a block of marker cells where the terminal draws its pixels (10x20 pixel cells here). The markers
then behave as sixel pixels do in xterm: lines scrolled by a scroll region carry them along, text
and erases written over them take them away. After each screen change (filter typed and cleared,
help over the grid and closed, list/grid switch, Quick Look opened and closed, a tab opened in
the grid and closed) every marker cell
must belong to a whole picture, a rectangle drawn as one sixel and still complete: a cut copy, a
row left behind or a picture moved by a scroll is a ghost; with help open no picture may show.
"""
import math, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402
import pyte  # noqa: E402

MARK = '\u00a7'
SIXEL = re.compile(rb'\x1b\[(\d+);(\d+)H\x1bP[^q]*q"1;1;(\d+);(\d+)(.*?)\x1b\\', re.S)


class SixelScreen(pyte.Screen):
    """pyte, with pictures scrolling as xterm scrolls them: a scroll moves every picture up,
    the part outside the scroll region too (xterm's scroll_displayed_graphics)."""
    def index(self):
        top, bottom = (self.margins.top, self.margins.bottom) if self.margins else (0, self.lines - 1)
        outside = []
        if self.cursor.y == bottom:
            outside = [(y, x) for y in range(self.lines) if y < top or y > bottom
                       for x in range(self.columns) if self.buffer[y][x].data == MARK]
        super().index()
        for y, x in outside:
            self.buffer[y][x] = self.default_char
        for y, x in outside:
            if y - 1 >= 0:
                self.buffer[y - 1][x] = self.buffer[y - 1][x]._replace(data=MARK)


SCROLL = re.compile(rb'\x1b\[(\d+);(\d+)r|\x1b\[(\d*)S')


def scrolls_as_line_feeds(chunk, region):
    """`chunk` with each scroll up (SU, which pyte does not know) written as the line feeds at the
    bottom of the scroll region that do the same; `region` is [top, bottom], kept across chunks."""
    def replace(match):
        if match.group(1):
            region[:] = [int(match.group(1)), int(match.group(2))]
            return match.group(0)
        count = int(match.group(3) or 1)
        return b'\x1b7\x1b[%d;1H' % region[1] + b'\n' * count + b'\x1b8'
    return SCROLL.sub(replace, chunk)


def replay(raw, marks, columns=120):
    """Feeds `raw` to pyte with sixels turned into marker blocks; at each offset in `marks`, the
    marker cells on screen and the rectangles drawn so far: [(cells, rects)]."""
    screen = SixelScreen(columns, 36)
    stream = pyte.ByteStream(screen)
    rects = []
    states = []
    region = [1, 36]
    start = 0
    for mark in sorted(marks):
        chunk = scrolls_as_line_feeds(raw[start:mark], region)
        start = mark
        position = 0
        for match in SIXEL.finditer(chunk):
            stream.feed(chunk[position:match.start()])
            row, column, width, height = (int(match.group(i)) for i in range(1, 5))
            rows, wide = math.ceil(height / 20), math.ceil(width / 10)
            stream.feed(b''.join(b'\x1b[%d;%dH' % (row + k, column) + (MARK * wide).encode() for k in range(rows)))
            rects.append((row - 1, column - 1, rows, wide))
            position = match.end()
        stream.feed(chunk[position:])
        cells = {(y, x) for y in range(screen.lines) for x in range(screen.columns) if screen.buffer[y][x].data == MARK}
        states.append((cells, list(rects)))
    return states


def ghosts(cells, rects, width=120):
    """Marker cells that are not part of a complete drawn rectangle."""
    whole = set()
    for top, left, rows, columns in rects:
        area = {(y, x) for y in range(top, top + rows) for x in range(left, min(width, left + columns))}
        if area and area <= cells:
            whole |= area
    return cells - whole


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    folder = os.path.join(work, 'photos')
    os.makedirs(folder)
    from PIL import Image
    # Wide pictures, of different heights: each sits in the middle of the preview pane, away from
    # the top of the lines ncurses scrolls, where a picture moved up a row leaves its top row behind.
    # dora, never previewed, is tall: in the grid's first row it reaches above the help box, into
    # rows the help leaves as they were (inside tmux such rows are never sent to the terminal again).
    sizes = {'alpha.png': (640, 200), 'lily.png': (640, 260), 'lime.png': (640, 180), 'bob.png': (640, 240),
             'carl.png': (640, 300), 'dora.png': (200, 640), 'liam.png': (640, 280), 'eve.png': (640, 160)}
    for index, (name, size) in enumerate(sorted(sizes.items())):
        image = Image.new('RGB', size, (30 * index, 200 - 20 * index, 90))
        for x in range(0, size[0], 16):
            for y in range(size[1]):
                image.putpixel((x, y), (255, 255, 255))
        image.save(os.path.join(folder, name))
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config', 'QLBROWSE_NO_SERVICE': '1'}
    command = [qlbrowse, '--graphics', 'sixel', folder]
    socket = None
    # Inside tmux the terminal is wider: help fits in three columns and leaves the grid's top
    # rows uncovered, rows tmux does not send again when only their pictures change.
    width = 160 if '--tmux' in sys.argv[3:] else 120
    if '--tmux' in sys.argv[3:]:
        socket = 'qlbrowse-ghosts-%d' % os.getpid()
        conf = os.path.join(work, 'tmux.conf')
        with open(conf, 'w') as handle:
            handle.write('set -g status off\n')  # the pane's TERM stays tmux's default, screen
        command = ['tmux', '-L', socket, '-f', conf, 'new-session', '-x', str(width), '-y', '36', ' '.join(command)]
    browser = Browser(command, env, cols=width, rows=36)
    steps = [('list', b''), ('down twice', b'jj'), ('filter /l', b'/l'), ('filter /li', b'i'), ('filter /lim', b'm'),
             ('filter cleared', b'\x7f\x7f\x7f'), ('filter kept', b'\r'), ('grid', b'v'), ('grid: down', b'j'),
             ('help over the grid', b'?'), ('help closed', b'\x1b'), ('filter in the grid /a', b'/a'),
             ('filter cleared in the grid', b'\x1b'), ('back to the list', b'v'), ('Quick Look', b' '), ('Quick Look closed', b'\x1b'),
             ('a new tab, the grid', b'tv'), ('the tab closed', b'w')]
    marks = []
    try:
        browser.wait_for('8 files', 15)
        for label, keys in steps:
            if keys:
                browser.send(keys)
            browser.pump(4.0 if label == 'list' else 2.5, quiet=1.2)
            marks.append(len(browser.raw))
        results = [browser.quit()]
    except Exception:
        browser.kill()
        raise
    finally:
        if socket:
            subprocess.run(['tmux', '-L', socket, 'kill-server'], capture_output=True)
    states = replay(bytes(browser.raw), marks, width)
    if os.environ.get('GHOSTS_DEBUG'):
        for index, (label, _) in enumerate(steps):
            chunk = bytes(browser.raw[marks[index - 1] if index else 0:marks[index]])
            print(label, re.findall(rb'\x1b\[\d+;\d+r', chunk), [(m.group(1), m.group(2), m.group(3), m.group(4)) for m in SIXEL.finditer(chunk)],
                  'marker rows', sorted({y for y, _ in states[index][0]}))
    for (label, _), (cells, rects) in zip(steps, states):
        if label == 'help over the grid':
            results.append(('help over the grid: no picture shows', not cells, '%d picture cells' % len(cells)))
            continue
        left = ghosts(cells, rects, width)
        results.append(('%s: no picture left behind' % label, not left and (label != 'list' or cells),
                         '%d picture cells, %d of them ghosts%s' % (len(cells), len(left), (' (rows %s)' % sorted({y for y, _ in left})) if left else '')))
    scrolls = len(re.findall(rb'\x1b\[(?!1;36r)\d+;\d+r', bytes(browser.raw)))
    print('scroll regions set by ncurses: %d' % scrolls)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
