#!/usr/bin/python3
"""The mouse, as a terminal reports it (xterm's SGR encoding), in a real pseudo-terminal.

usage: mouse.py QLBROWSE WORKDIR

Opens a folder of 100 files and checks: the wheel moves the selection three rows a notch, down
and up; a click selects the row under the pointer; a click in the grid selects the tile under it.
(tmux cannot inject mouse reports, so this test writes them to the pty as the terminal would.)
"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402


def position(browser, expected):
    """The selected row's number once it is `expected` (waiting up to 3 s: ncurses holds a click
    back for its double-click interval), else whatever it is then."""
    browser.wait_for(' %d/100 ' % expected, 3, row=-1)
    found = re.search(r'(\d+)/100', browser.text().splitlines()[-1])
    return int(found.group(1)) if found else None


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    folder = os.path.join(work, 'files')
    os.makedirs(folder)
    for index in range(1, 101):
        with open(os.path.join(folder, 'f%03d.txt' % index), 'w') as handle:
            handle.write('%d\n' % index)
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config'}
    results = []
    browser = Browser([qlbrowse, '--graphics', 'symbols', folder], env)
    try:
        started = browser.wait_for('1/100', 10) is not None
        for _ in range(3):
            browser.send(b'\x1b[<65;10;10M')  # wheel down, pointer at column 10, row 10 (1-based)
            browser.pump(0.3, quiet=0.1)
        down = position(browser, 10)
        browser.send(b'\x1b[<64;10;10M')  # wheel up
        up = position(browser, 7)
        results.append(('the wheel moves three rows a notch, down and up', started and down == 10 and up == 7, 'at %s, then %s' % (down, up)))
        # Row 12 on screen is the 11th row of the list (the header is row 1); the cursor is on the 7th.
        browser.send(b'\x1b[<0;10;12M\x1b[<0;10;12m')
        clicked = position(browser, 11)
        results.append(('a click selects the row under the pointer', clicked == 11, 'at %s' % clicked))
        browser.send(b'v')
        browser.pump(0.5, quiet=0.1)
        browser.send(b'g')
        browser.pump(0.3, quiet=0.1)
        # The second tile of the first grid row: at 120 columns, 6 tiles of 20 columns (ScreenLayout.tileWidth).
        browser.send(b'\x1b[<0;30;4M\x1b[<0;30;4m')
        tile = position(browser, 2)
        results.append(('a click in the grid selects the tile under it', tile == 2, 'at %s' % tile))
        results.append(browser.quit())
        browser = None
    finally:
        if browser is not None:
            browser.kill()
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
