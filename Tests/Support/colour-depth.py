#!/usr/bin/python3
"""Block art through tmux as colourful as outside it (issue 23: inside tmux, whose pane TERM is
`screen` with 8 colours, pictures came out almost grey: 2.3x the colour error).

usage: colour-depth.py QLBROWSE WORKDIR

A picture of mid-tone colours is shown as block art outside tmux (truecolor terminal) and inside
tmux (pane TERM=screen, as tmux gives with no configuration) whose outer terminal has RGB, and one
without RGB; each time the outer screen is read (pyte) and the colour each cell shows is compared
with the picture's mean colour under it. Inside tmux the error must stay within 1.5x of outside.
chafa's own output for the same picture and size is measured beside them for reference.
"""
import os, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402
from pictures import seen  # noqa: E402
import pyte  # noqa: E402

WIDTH, HEIGHT = 480, 320


def save_midtones(path):
    """Soft hues at mid lightness, changing across and down: easy to recognise, hard to get in 8 colours."""
    from PIL import Image
    import colorsys
    image = Image.new('RGB', (WIDTH, HEIGHT))
    pixels = image.load()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            r, g, b = colorsys.hls_to_rgb(x / WIDTH, 0.35 + 0.3 * y / HEIGHT, 0.45)
            pixels[x, y] = (int(r * 255), int(g * 255), int(b * 255))
    image.save(path)
    return image


def error(screen, image, left, top, right, bottom):
    """Mean distance (RGB) between each picture cell's colour and the picture under it."""
    cells = [(x, y) for y in range(top, bottom) for x in range(left, right)
             if screen.buffer[y][x].bg != 'default' or (screen.buffer[y][x].data.strip() and screen.buffer[y][x].fg != 'default')]
    if len(cells) < 50:
        return None, len(cells)
    x0, x1 = min(x for x, _ in cells), max(x for x, _ in cells) + 1
    y0, y1 = min(y for _, y in cells), max(y for _, y in cells) + 1
    small = image.resize((x1 - x0, y1 - y0), resample=2)
    total = 0.0
    for x, y in cells:
        want = small.getpixel((x - x0, y - y0))
        got = seen(screen.buffer[y][x])
        total += sum((a - b) ** 2 for a, b in zip(want, got)) ** 0.5
    return total / len(cells), len(cells)


def env_for(work, colorterm=''):
    return {'TERM': 'xterm-256color', 'COLORTERM': colorterm, 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8',
            'XDG_CACHE_HOME': work + '/.cache', 'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config',
            'QLBROWSE_NO_SERVICE': '1'}


def shown(browser):
    browser.wait_for('picture %d×%d' % (WIDTH, HEIGHT), 30)
    browser.pump(2.0, quiet=1.0)
    return browser.screen


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    folder = os.path.join(work, 'midtones')
    os.makedirs(folder)
    image = save_midtones(os.path.join(folder, 'midtones.png'))
    results = []
    errors = {}
    for label, term, colorterm in (('outside tmux, truecolor', 'xterm-256color', 'truecolor'), ('outside tmux, 256 colours', 'xterm-256color', ''),
                                   ('outside tmux, 8 colours (what tmux got before)', 'xterm', '')):
        environment = env_for(work, colorterm)
        environment['TERM'] = term
        browser = Browser([qlbrowse, '--graphics', 'symbols', folder], environment, cols=120, rows=30)
        errors[label] = error(shown(browser), image, 56, 1, 119, 20)
        browser.quit()
    for label, features in (('tmux, outer terminal with RGB', 'set -as terminal-features ",xterm-256color:RGB"\n'),
                            ('tmux, outer terminal without RGB', '')):
        socket = 'qlbrowse-colours-%d' % os.getpid()
        conf = os.path.join(work, 'tmux.conf')
        with open(conf, 'w') as handle:
            handle.write('set -g default-terminal screen\nset -g status off\n' + features)
        command = '%s --graphics auto %s' % (qlbrowse, folder)
        browser = Browser(['tmux', '-L', socket, '-f', conf, 'new-session', '-x', '120', '-y', '30', command], env_for(work), cols=120, rows=30)
        try:
            errors[label] = error(shown(browser), image, 56, 1, 119, 20)
            browser.send(b'q')
            browser.finish()
        finally:
            subprocess.run(['tmux', '-L', socket, 'kill-server'], capture_output=True)
    # chafa itself, for reference: the same picture at the size the browser drew it, truecolor and 256.
    for colours in (('full', '256') if shutil.which('chafa') else ()):
        out = subprocess.run(['chafa', '--format', 'symbols', '--colors', colours, '--size', '62x19', os.path.join(folder, 'midtones.png')],
                             capture_output=True).stdout
        screen = pyte.Screen(120, 30)
        pyte.ByteStream(screen).feed(out.replace(b'\n', b'\r\n'))
        errors['chafa --colors %s' % colours] = error(screen, image, 0, 0, 119, 29)
    for label, (value, cells) in errors.items():
        print('colour error %-48s %s over %d cells' % (label, '%.1f' % value if value is not None else 'none', cells))
    for label, reference in (('tmux, outer terminal with RGB', 'outside tmux, truecolor'),
                             ('tmux, outer terminal without RGB', 'outside tmux, 256 colours')):
        value, outside = errors[label][0], errors[reference][0]
        results.append(('%s: colour error within 1.5x of %s' % (label, reference), value is not None and outside is not None and value <= 1.5 * outside,
                        '%s vs %s' % ('%.1f' % value if value is not None else 'no picture', '%.1f' % outside if outside is not None else 'no picture')))
    chafas = errors.get('chafa --colors 256', (None, 0))[0]
    if chafas is not None:
        # 256 colours chosen for the picture: no worse than chafa's own command line at 256.
        value = errors['tmux, outer terminal without RGB'][0]
        results.append(('tmux, outer terminal without RGB: colour error at most chafa --colors 256', value is not None and value <= chafas,
                        '%s vs %.1f' % ('%.1f' % value if value is not None else 'no picture', chafas)))
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
