#!/usr/bin/python3
"""Pictures as a person sees them, on every kind of terminal the browser draws for.

usage: pictures.py QLBROWSE WORKDIR

The browser's output goes through a terminal emulator (pyte) or through a real tmux, and what is
checked is what a person would see: the colours of the picture's cells against the picture (a
red / green / blue / yellow quadrant test picture) in 8, 16, 256 colours and truecolor, and inside
tmux; for kitty, every graphics command decoded and counted per image id (each picture sent once,
none sent again when the selection moves or the view scrolls back, all freed on quit); kitty
placeholders inside tmux (the pane's cells name the picture, the transmission reaches the outer
terminal through the passthrough); sixel through tmux's passthrough landing on the right pane; a
TERM without terminfo; an 80x24 terminal.
"""
import os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402
import pyte  # noqa: E402

QUADRANTS = {'red': (255, 0, 0), 'green': (0, 200, 0), 'blue': (0, 0, 255), 'yellow': (255, 220, 0)}
# pyte's names for the 16 ANSI colours, as xterm draws them.
NAMED = {'black': (0, 0, 0), 'red': (205, 0, 0), 'green': (0, 205, 0), 'brown': (205, 205, 0), 'blue': (0, 0, 238),
         'magenta': (205, 0, 205), 'cyan': (0, 205, 205), 'white': (229, 229, 229), 'brightblack': (127, 127, 127),
         'brightred': (255, 0, 0), 'brightgreen': (0, 255, 0), 'brightbrown': (255, 255, 0), 'brightblue': (92, 92, 255),
         'brightmagenta': (255, 0, 255), 'brightcyan': (0, 255, 255), 'brightwhite': (255, 255, 255)}
# How much of a cell each block character covers with its foreground colour.
INK = {' ': 0.0, '█': 1.0, '▀': 0.5, '▄': 0.5, '▌': 0.5, '▐': 0.5, '▖': 0.25, '▗': 0.25, '▘': 0.25, '▝': 0.25,
       '▙': 0.75, '▛': 0.75, '▜': 0.75, '▟': 0.75, '▚': 0.5, '▞': 0.5}
INK.update({chr(0x2581 + i): (i + 1) / 8 for i in range(7)})
INK.update({chr(0x2589 + i): (7 - i) / 8 for i in range(7)})


def rgb(colour, default):
    if colour == 'default':
        return default
    if re.fullmatch(r'[0-9a-fA-F]{6}', colour):
        return tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return NAMED.get(colour, default)


def seen(cell):
    """The colour a person sees in a cell: foreground and background mixed by the glyph's ink."""
    ink = INK.get(cell.data, 0.5)
    fg, bg = rgb(cell.fg, (229, 229, 229)), rgb(cell.bg, (0, 0, 0))
    if cell.reverse:
        fg, bg = bg, fg
    return tuple(f * ink + b * (1 - ink) for f, b in zip(fg, bg))


def nearest(colour):
    name, distance = min(((name, sum((a - b) ** 2 for a, b in zip(colour, value))) for name, value in QUADRANTS.items()), key=lambda x: x[1])
    return name if distance < 3 * 110 ** 2 else None


def quadrants_right(screen, left, top, right, bottom):
    """Whether the picture in the rectangle shows red/green over blue/yellow: the (label, ok, detail)
    of the check. The picture's cells are those with a colour; each quadrant's inner cells must
    mostly read as that quadrant's colour."""
    cells = [(x, y) for y in range(top, bottom) for x in range(left, right)
             if screen.buffer[y][x].bg != 'default' or (screen.buffer[y][x].data.strip() and screen.buffer[y][x].fg != 'default')]
    if len(cells) < 20:
        return False, 'no picture (%d coloured cells)' % len(cells)
    x0, x1 = min(x for x, _ in cells), max(x for x, _ in cells) + 1
    y0, y1 = min(y for _, y in cells), max(y for _, y in cells) + 1
    midx, midy = (x0 + x1) / 2, (y0 + y1) / 2
    report = []
    ok = True
    for name, (qx, qy) in (('red', (0, 0)), ('green', (1, 0)), ('blue', (0, 1)), ('yellow', (1, 1))):
        # The inner part of the quadrant (a cell away from the middle lines and the edges).
        xs = range(x0 + 1, int(midx) - 1) if qx == 0 else range(int(midx) + 2, x1 - 1)
        ys = range(y0 + 1, int(midy) - 1) if qy == 0 else range(int(midy) + 2, y1 - 1)
        names = [nearest(seen(screen.buffer[y][x])) for y in ys for x in xs]
        share = names.count(name) / max(1, len(names))
        report.append('%s %.0f%%' % (name, share * 100))
        ok = ok and share >= 0.8
    return ok, ', '.join(report) + ' of %dx%d cells' % (x1 - x0, y1 - y0)


def save_quadrants(path):
    """Writes the 400x300 test picture: red and green over blue and yellow."""
    from PIL import Image
    image = Image.new('RGB', (400, 300))
    pixels = image.load()
    colours = [QUADRANTS['red'], QUADRANTS['green'], QUADRANTS['blue'], QUADRANTS['yellow']]
    for y in range(300):
        for x in range(400):
            pixels[x, y] = colours[(x >= 200) + 2 * (y >= 150)]
    image.save(path)


def env_for(work, term, colorterm=None):
    env = {'TERM': term, 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config', 'COLORTERM': colorterm or ''}
    return env


def kitty_commands(data):
    """Each kitty graphics command as (keys, payload length)."""
    found = []
    for keys, payload in re.findall(rb'\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\', bytes(data)):
        found.append((dict(kv.split(b'=', 1) for kv in keys.split(b',') if b'=' in kv), len(payload)))
    return found


def transmissions(commands):
    """Image id -> how many times its data was sent (the first chunk of each transmission)."""
    sent = {}
    for keys, _ in commands:
        if keys.get(b'a') in (b't', b'T'):
            sent[keys[b'i']] = sent.get(keys[b'i'], 0) + 1
    return sent


def block_art(qlbrowse, work, folder, term, colorterm, label):
    browser = Browser([qlbrowse, '--graphics', 'symbols', folder], env_for(work, term, colorterm))
    try:
        browser.wait_for('picture 400×300 from', 30)
        browser.pump(1.5, quiet=0.5)
        ok, detail = quadrants_right(browser.screen, 56, 1, 119, 20)
        return (label, ok, detail)
    finally:
        browser.kill()


def kitty_grid(qlbrowse, work, photos):
    results = []
    # 80x30: the first screen of the grid holds 12 tiles (4 by 3); the folder has 30, for scrolling.
    browser = Browser([qlbrowse, '--graphics', 'kitty', photos], env_for(work, 'xterm-256color'), cols=80, rows=30)
    try:
        browser.wait_for('/30', 10)
        browser.send(b'v')
        # Every tile has its full picture when 12 full-quality transmissions came and the screen is quiet.
        end = time.time() + 40
        while time.time() < end:
            browser.pump(0.5, quiet=0.3)
            if len(transmissions(kitty_commands(browser.raw))) >= 12 and browser.pump(1.0, quiet=1.0) is None:
                break
        opened = len(browser.raw)
        sent = transmissions(kitty_commands(browser.raw))
        results.append(('kitty grid: each picture sent once, by id', sent and max(sent.values()) == 1,
                        '%d images, %d bytes to open the grid' % (len(sent), opened)))
        results.append(('kitty grid of 12 photos <= 2 MB', opened <= 2_000_000, '%d bytes' % opened))
        mark = len(browser.raw)
        for key in b'llljjhhhkkllljjhhhkk':
            browser.send(bytes([key]))
            browser.pump(0.15, quiet=0.1)
        browser.pump(1.0, quiet=0.5)
        moved = kitty_commands(browser.raw[mark:])
        results.append(('moving the selection 20 times sends no picture', not transmissions(moved) and not any(k.get(b'a') == b'p' for k, _ in moved),
                        '%d graphics commands, %d bytes in all' % (len(moved), len(browser.raw) - mark)))
        mark = len(browser.raw)
        browser.send(b'?')
        browser.pump(1.0, quiet=0.5)
        browser.send(b'\x1b')
        browser.pump(1.0, quiet=0.5)
        overlay = kitty_commands(browser.raw[mark:])
        results.append(('an overlay opening and closing re-places pictures without sending them', not transmissions(overlay)
                        and any(k.get(b'a') == b'p' for k, _ in overlay), '%d commands' % len(overlay)))
        return browser, results
    except Exception:
        browser.kill()
        raise


def kitty_scroll(browser, results):
    """One screen down, back up: what the terminal still holds is not sent again."""
    held = set(transmissions(kitty_commands(browser.raw)))
    mark = len(browser.raw)
    browser.send(b'\x1b[6~')
    browser.pump(4.0, quiet=2.0)
    browser.send(b'\x1b[5~')
    browser.pump(3.0, quiet=1.5)
    again = transmissions(kitty_commands(browser.raw[mark:]))
    resent = [image for image in again if image in held]
    results.append(('scrolling back re-sends nothing the terminal holds', not resent, '%d new pictures, %d sent again' % (len(again), len(resent))))
    status = browser.quit()
    tail = kitty_commands(browser.raw[-20000:])
    freed = {keys[b'i'] for keys, _ in tail if keys.get(b'a') == b'd' and keys.get(b'd') == b'I'}
    held = set(transmissions(kitty_commands(browser.raw)))
    results.append(('quitting frees the pictures the terminal holds', len(freed) >= min(len(held), 20) and status[1], '%d freed' % len(freed)))


def tmux_outer(qlbrowse, work, folder, graphics, split=False, seconds=12):
    """The browser in tmux, tmux in a pty (the "outer terminal"): the bytes tmux sent out, and the
    pane's cells as tmux keeps them."""
    socket = 'qlbrowse-pictures-%d' % os.getpid()
    conf = os.path.join(work, 'tmux.conf')
    with open(conf, 'w') as handle:
        handle.write('set -g default-terminal tmux-256color\nset -g status off\n')
    env = env_for(work, 'xterm-256color')
    command = '%s --graphics %s %s' % (qlbrowse, graphics, folder)
    tmux = ['tmux', '-L', socket, '-f', conf, 'new-session', '-x', '120', '-y', '30']
    if split:
        tmux += ['sleep 60', ';', 'split-window', '-h', '-l', '60', command]
    else:
        tmux += [command]
    browser = Browser(tmux, env, cols=120, rows=30)
    try:
        browser.wait_for('picture 400×300 from', seconds)
        browser.pump(2.0, quiet=1.0)
        pane = subprocess.run(['tmux', '-L', socket, 'capture-pane', '-p', '-e', '-t', '{last}' if split else '0'], capture_output=True).stdout
        active = subprocess.run(['tmux', '-L', socket, 'display', '-p', '#{pane_left}'], capture_output=True, text=True).stdout.strip()
        return browser, pane, active, socket
    except Exception:
        browser.kill()
        subprocess.run(['tmux', '-L', socket, 'kill-server'], capture_output=True)
        raise


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(work)
    quadrants = os.path.join(work, 'quadrants')
    os.makedirs(quadrants)
    save_quadrants(os.path.join(quadrants, 'quadrants.png'))
    photos = os.path.join(work, 'photos')
    os.makedirs(photos)
    subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'mandelbrot=size=1200x800:rate=2', '-frames:v', '30',
                    '-q:v', '3', os.path.join(photos, 'photo%02d.jpg')], check=True)

    results = []
    for term, colorterm, label in (('xterm', None, '8 colours (TERM=xterm)'), ('xterm-16color', None, '16 colours'),
                                   ('xterm-256color', None, '256 colours'), ('xterm-256color', 'truecolor', 'truecolor (COLORTERM)')):
        results.append(block_art(qlbrowse, work, quadrants, term, colorterm, 'block art looks like the picture in ' + label))

    # Block art inside tmux, as tmux draws it on the terminal around it.
    browser, pane, _, socket = tmux_outer(qlbrowse, work, quadrants, 'auto')
    ok, detail = quadrants_right(browser.screen, 56, 1, 119, 20)
    results.append(('inside tmux (no outer graphics): block art looks like the picture', ok, detail))
    browser.send(b'q')
    browser.finish()
    subprocess.run(['tmux', '-L', socket, 'kill-server'], capture_output=True)

    # Kitty placeholders inside tmux.
    browser, pane, _, socket = tmux_outer(qlbrowse, work, quadrants, 'kitty')
    placeholders = pane.decode('utf-8', 'replace').count('\U0010EEEE')
    outer = kitty_commands(browser.raw)
    sent = transmissions(outer)
    virtual = [keys for keys, _ in outer if keys.get(b'U') == b'1']
    results.append(('inside tmux, kitty: the pane holds placeholder cells', placeholders >= 100, '%d placeholder cells' % placeholders))
    results.append(('inside tmux, kitty: each picture reaches the outer terminal once, with a virtual placement',
                    bool(sent) and max(sent.values()) == 1 and len(virtual) >= len(sent), '%d sent, %d virtual placements' % (len(sent), len(virtual))))
    mark = len(browser.raw)
    browser.send(b'q')
    browser.finish()
    freed = {keys[b'i'] for keys, _ in kitty_commands(browser.raw[mark:]) if keys.get(b'd') == b'I'}
    results.append(('inside tmux, kitty: quitting frees them on the outer terminal', set(sent) <= freed, '%d freed' % len(freed)))
    subprocess.run(['tmux', '-L', socket, 'kill-server'], capture_output=True)

    # Sixel through the passthrough, in the right-hand pane of a split window.
    browser, pane, left, socket = tmux_outer(qlbrowse, work, quadrants, 'sixel', split=True)
    moves = re.findall(rb'\x1b7\x1b\[(\d+);(\d+)H\x1bP', bytes(browser.raw))
    columns = sorted({int(column) for _, column in moves})
    results.append(('inside tmux, sixel: passed through, placed on the browser\'s pane', bool(moves) and left.isdigit() and min(columns) > int(left),
                    'sixel at columns %s, pane starts at column %s' % (columns, left)))
    # tmux forgets passthrough pictures when it redraws (a window switched back): Ctrl-L draws them again.
    subprocess.run(['tmux', '-L', socket, 'new-window', 'sleep 60'], capture_output=True)
    browser.pump(1.0, quiet=0.5)
    subprocess.run(['tmux', '-L', socket, 'last-window'], capture_output=True)
    browser.pump(1.0, quiet=0.5)
    mark = len(browser.raw)
    subprocess.run(['tmux', '-L', socket, 'send-keys', '-t', '0.1', 'C-l'], capture_output=True)
    browser.pump(2.0, quiet=1.0)
    again = re.findall(rb'\x1b7\x1b\[(\d+);(\d+)H\x1bP', bytes(browser.raw[mark:]))
    results.append(('inside tmux, sixel: Ctrl-L draws the pictures again after a window switch', bool(again), '%d sixels' % len(again)))
    browser.send(b'q')
    browser.finish()
    subprocess.run(['tmux', '-L', socket, 'kill-server'], capture_output=True)

    browser, grid_results = kitty_grid(qlbrowse, work, photos)
    results += grid_results
    kitty_scroll(browser, results)

    # A TERM this machine has no terminfo entry for (ssh from kitty to a server without kitty's terminfo).
    browser = Browser([qlbrowse, '--graphics', 'symbols', quadrants], env_for(work, 'xterm-qlbrowse-missing-256color'))
    shown = browser.wait_for('using xterm-256color', 10)
    results.append(('a TERM without terminfo falls back to xterm-256color and says so', shown is not None, browser.screen.display[-1].strip()))
    results.append(browser.quit())

    # 80x24: the status line shortens its hints, long names end in an ellipsis.
    long_name = 'a-very-long-file-name-that-does-not-fit-in-the-list-at-eighty-columns.png'
    shutil.copy(os.path.join(quadrants, 'quadrants.png'), os.path.join(quadrants, long_name))
    browser = Browser([qlbrowse, '--graphics', 'symbols', quadrants], env_for(work, 'xterm-256color'), cols=80, rows=24)
    browser.wait_for('2/2', 10) or browser.wait_for('1/2', 5)
    browser.pump(1.0, quiet=0.5)
    status = browser.screen.display[-1]
    results.append(('80x24: the status line does not overlap itself', 'sort:name' in status and '[symbols]' in status and '? help' in status, status.strip()))
    listed = [line for line in browser.screen.display if 'a-very-long' in line]
    results.append(('80x24: a name that does not fit ends in "…"', bool(listed) and '…' in listed[0], listed[0].strip() if listed else 'not listed'))
    browser.send(b'?')
    browser.pump(1.0, quiet=0.5)
    # At 80x24 the help comes in pages, "qlbrowse keys (1/4)" (PgDn turns them): every key is on one.
    shown, pages = browser.text(), 1
    counted = re.search(r'keys \((\d+)/(\d+)\)', shown)
    total = int(counted.group(2)) if counted else 1
    while pages < total:
        browser.send(b'\x1b[6~')  # PgDn
        browser.pump(0.6, quiet=0.3)
        shown += '\n' + browser.text()
        pages += 1
    results.append(('80x24: the help shows every key, first to last, page by page', 'move down' in shown and 'quit' in shown and 'redraw' in shown,
                    '%d pages' % pages))
    browser.send(b'\x1b')
    browser.pump(0.5, quiet=0.3)
    results.append(browser.quit())
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
