#!/usr/bin/python3
"""Text on a light terminal background: the browser asks the terminal its colours (OSC 10/11),
this emulator answers black on white, and every text cell of the screens a person sees (list,
grid, help, filter, Quick Look of a text file) is measured for contrast against what it is drawn
on: at least 95 % of text cells at 3:1 or more (WCAG's floor for large text and UI parts).

usage: light-background.py QLBROWSE WORKDIR
"""
import os, sys, zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402
from pictures import NAMED, rgb  # noqa: E402

WHITE, BLACK = (255, 255, 255), (0, 0, 0)


def luminance(colour):
    def channel(value):
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def cell_contrasts(screen):
    """(contrast, character, fg, bg) of every cell with a visible character."""
    found = []
    for y in range(screen.lines):
        for x in range(screen.columns):
            cell = screen.buffer[y][x]
            if not cell.data.strip():
                continue
            fg, bg = rgb(cell.fg, BLACK), rgb(cell.bg, WHITE)
            if cell.reverse:
                fg, bg = bg, fg
            found.append((contrast(fg, bg), cell.data, cell.fg, cell.bg))
    return found


class AnsweringBrowser(Browser):
    """The browser in a terminal with a white background that answers the colour questions."""
    def answer_probe(self, seconds=5):
        for _ in range(int(seconds / 0.02)):
            self.pump(0.02)
            if b'\x1b]11;?\x07' in self.raw:
                self.send(b'\x1b]10;rgb:0000/0000/0000\x1b\\\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c')
                return True
        return False


def make_folder(folder):
    os.makedirs(os.path.join(folder, 'Pictures'))
    os.makedirs(os.path.join(folder, 'music'))
    from PIL import Image
    for index in range(6):
        Image.new('RGB', (64, 48), (40 * index, 120, 200 - 30 * index)).save(os.path.join(folder, 'photo-%d.png' % index))
    with open(os.path.join(folder, 'notes.txt'), 'w') as handle:
        handle.write('\n'.join('line %d of some notes' % n for n in range(80)))
    with open(os.path.join(folder, 'script.py'), 'w') as handle:
        handle.write('def main():\n    return 42\n')
    with open(os.path.join(folder, '.hidden-settings'), 'w') as handle:
        handle.write('x=1\n')
    with zipfile.ZipFile(os.path.join(folder, 'bundle.zip'), 'w') as archive:
        archive.writestr('inside.txt', 'hello')
    with open(os.path.join(folder, 'song.mp3'), 'wb') as handle:
        handle.write(b'ID3\x03\x00\x00\x00\x00\x00\x00')
    os.symlink('notes.txt', os.path.join(folder, 'link-to-notes'))


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    folder = os.path.join(work, 'files')
    make_folder(folder)
    env = {'TERM': 'xterm-256color', 'COLORTERM': 'truecolor', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'LS_COLORS': '',
           'XDG_CACHE_HOME': work + '/.cache', 'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config',
           'QLBROWSE_NO_SERVICE': '1'}
    os.environ.pop('NO_COLOR', None)
    results = []
    browser = AnsweringBrowser([qlbrowse, '--graphics', 'none', folder], env, cols=100, rows=30)
    try:
        asked = browser.answer_probe()
        results.append(('the browser asks the terminal its background (OSC 11)', asked, ''))
        browser.wait_for('notes.txt', 10)
        browser.pump(1.5, quiet=0.5)
        header = browser.screen.buffer[0][1].bg
        results.append(('a white background gets the light theme (its header)', header == '005faf', 'header background %s' % header))
        cells = []
        screens = []
        for label, keys in (('list', b''), ('a moved selection', b'jjj'), ('hidden files shown', b'.'), ('help', b'?'),
                            ('grid', b'\x1bv'), ('filter', b'/pho'), ('list again', b'\x1b\x1bv'), ('Quick Look of text', b'G?\x1b/notes\r \x1b')):
            if keys:
                browser.send(keys)
                browser.pump(1.5, quiet=0.6)
            found = cell_contrasts(browser.screen)
            screens.append('%s %d' % (label, len(found)))
            cells += found
        readable = [c for c in cells if c[0] >= 3.0]
        share = len(readable) / max(1, len(cells))
        worst = sorted({(round(c[0], 2), c[2], c[3]) for c in cells if c[0] < 3.0})[:6]
        results.append(('light background: >= 95 % of text cells at contrast >= 3:1', share >= 0.95 and len(cells) > 500,
                        '%.1f %% of %d cells; below 3:1: %s' % (share * 100, len(cells), worst)))
        results.append(browser.quit())
    except Exception:
        browser.kill()
        raise
    # A theme named in config.toml still wins over the terminal's background.
    os.makedirs(os.path.join(work, '.config', 'qlbrowse'), exist_ok=True)
    with open(os.path.join(work, '.config', 'qlbrowse', 'config.toml'), 'w') as handle:
        handle.write('theme = "default"\n')
    browser = AnsweringBrowser([qlbrowse, '--graphics', 'none', folder], env, cols=100, rows=30)
    try:
        browser.answer_probe(2)
        browser.wait_for('notes.txt', 10)
        browser.pump(1.0, quiet=0.5)
        header = browser.screen.buffer[0][1].bg
        results.append(('theme = in config.toml wins: the dark theme\'s header', header == '005f87', 'header background %s: %s' % (header, browser.screen.display[0].strip())))
        results.append(browser.quit())
    except Exception:
        browser.kill()
        raise
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
