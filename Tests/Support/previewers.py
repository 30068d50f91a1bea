#!/usr/bin/python3
"""The README's preview set-ups for lf, ranger, nnn and fzf, tried in tmux as a person uses them.

usage: previewers.py QLBROWSE WORKDIR

Each set-up is read from README.md (the block under `qlbrowse preview`), written where the README
says into a fresh HOME, and the real program is started in a detached tmux session on a folder
holding the quadrant test picture (red and green over blue and yellow) and an all-blue picture.
What tmux shows is read back (capture-pane -e through a terminal emulator, pyte): the preview pane
must hold the picture, quadrants in place; after a key moves the cursor, the blue picture; quitting
must leave no pane behind (nnn's preview pane closes with nnn). A program that is not installed is
reported as SKIP and not counted. Exit 0 when every check of every installed program passes.
"""
import os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pictures import QUADRANTS, nearest, quadrants_right, save_quadrants, seen  # noqa: E402
import pyte  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, '..', '..', 'README.md')
COLS, ROWS = 120, 30
WAIT = 20  # seconds: catches a hang, not slowness (two busy cores in CI)


def setups():
    """Program -> (its file's path under HOME, the file's text, the command line the README gives)."""
    text = open(README, encoding='utf-8').read()
    section = text[text.index('### `qlbrowse preview`'):]
    block = re.search(r'```sh\n(.*?)```', section, re.S).group(1)
    found = {}
    for part in block.split('\n\n'):
        lines = part.strip('\n').split('\n')
        head = re.match(r'# (\w+)(?::\s*(\S+))?', lines[0])
        if not head:
            continue
        name, path = head.group(1), head.group(2)
        command = next((l.lstrip('# ').strip() for l in lines[1:] if l.startswith('#   ')), None)
        body = [l for l in lines[1:] if not l.startswith('#   ')]
        found[name] = (path, '\n'.join(body) + '\n', command)
    return found


def config_line(name):
    """The line the README says goes into the program's own config file: (file, line)."""
    text = open(README, encoding='utf-8').read()
    match = re.search(r'# %s: \S+ \(chmod \+x\), with `([^`]+)` in (\S+)' % name, text)
    return (match.group(2), match.group(1)) if match else None


class Tmux:
    def __init__(self, work, env):
        self.socket = 'qlbrowse-previewers-%d' % os.getpid()
        self.conf = os.path.join(work, 'tmux.conf')
        with open(self.conf, 'w') as handle:
            handle.write('set -g default-terminal tmux-256color\nset -g status off\n')
        self.env = env

    def run(self, *words):
        return subprocess.run(['tmux', '-L', self.socket, '-f', self.conf] + list(words), capture_output=True,
                              env=self.env, timeout=30)

    def start(self, command, folder):
        self.run('new-session', '-d', '-x', str(COLS), '-y', str(ROWS), '-c', folder, command)

    def panes(self):
        out = self.run('list-panes', '-a', '-F', '#{pane_id} #{pane_left} #{pane_width} #{pane_height}').stdout.decode()
        return [line.split() for line in out.splitlines() if line.strip()]

    def screen(self, pane):
        """The pane's cells as pyte reads tmux's capture (colours included)."""
        _, _, width, height = next(p for p in self.panes() if p[0] == pane)
        data = self.run('capture-pane', '-p', '-e', '-N', '-t', pane).stdout
        screen = pyte.Screen(int(width), int(height))
        pyte.ByteStream(screen).feed(data.rstrip(b'\n').replace(b'\n', b'\r\n'))  # a last newline would scroll
        return screen

    def kill(self):
        self.run('kill-server')


def blue_share(screen, left, top, right, bottom):
    """Of the cells with a background colour in the rectangle, the share that reads as blue."""
    names = [nearest(seen(screen.buffer[y][x])) for y in range(top, bottom) for x in range(left, right)
             if screen.buffer[y][x].bg != 'default']
    return (names.count('blue') / len(names) if len(names) >= 20 else 0), len(names)


def wait_until(check, seconds=WAIT):
    """Polls check() -> (ok, detail) until ok or the time is up; the last (ok, detail)."""
    end = time.time() + seconds
    while True:
        ok, detail = check()
        if ok or time.time() > end:
            return ok, detail
        time.sleep(0.3)


def try_program(name, setup, qlbrowse, work, pictures):
    """Runs one program's set-up; its (label, ok, detail) results."""
    path, script, command = setup
    home = os.path.join(work, name, 'home')
    os.makedirs(home)
    env = {'HOME': home, 'PATH': os.path.dirname(os.path.abspath(qlbrowse)) + ':' + os.environ.get('PATH', '/usr/bin:/bin'),
           'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': os.path.join(work, name, 'cache'),
           'XDG_STATE_HOME': os.path.join(work, name, 'state'), 'XDG_CONFIG_HOME': os.path.join(home, '.config'),
           'XDG_DATA_HOME': os.path.join(home, '.local', 'share'),
           'TMUX_TMPDIR': os.path.join(work, name),
           # As every test but ServiceTests: no resident service, which would outlive the test.
           'QLBROWSE_NO_SERVICE': '1'}
    if path:
        target = path.replace('~', home, 1)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, 'w') as handle:
            handle.write(script)
        os.chmod(target, 0o755)
    configured = config_line(name)
    if configured:
        conf = configured[0].replace('~', home, 1)
        os.makedirs(os.path.dirname(conf), exist_ok=True)
        with open(conf, 'a') as handle:
            # Written out: lf takes `~` from the password file, not from HOME.
            handle.write(configured[1].replace('~', home) + '\n')
    if name == 'lf':
        program = 'lf'
    elif name == 'ranger':
        # ranger turns previews off for root after reading rc.conf; the README says how to turn them on.
        program = 'ranger' + (" --cmd='set preview_files true' --cmd='set use_preview_script true'" if os.getuid() == 0 else '')
    elif name == 'nnn':
        program = command.replace('/tmp/nnn.fifo', os.path.join(work, name, 'nnn.fifo'))
    elif name == 'fzf':
        program = 'ls | ' + script.strip()
    tmux = Tmux(os.path.join(work, name), env)
    results = []
    try:
        tmux.start(program, pictures)

        def preview_area():
            """The pane the picture is in and the rectangle of it (left, top, right, bottom) to read."""
            panes = tmux.panes()
            if name == 'nnn':  # the plugin's own pane, right of nnn's
                right = [p for p in panes if int(p[1]) > 0]
                return (right[0][0], 0, 0, int(right[0][2]), int(right[0][3])) if right else None
            if not panes:
                return None
            if name == 'fzf':  # inside the preview window's border (coloured lines, a cell of padding)
                return panes[0][0], COLS // 2 + 2, 1, COLS - 2, ROWS - 1
            return panes[0][0], COLS // 2 - 1, 1, COLS, ROWS  # below the title line (the folder's path)

        def quadrants():
            area = preview_area()
            if area is None:
                return False, 'no preview pane'
            return quadrants_right(tmux.screen(area[0]), *area[1:])

        ok, detail = wait_until(quadrants)
        results.append(('%s: the preview pane shows the quadrant picture' % name, ok, detail))
        pane = tmux.panes()[0][0]
        tmux.run('send-keys', '-t', pane, 'Up' if name == 'fzf' else 'j')

        def blue():
            area = preview_area()
            if area is None:
                return False, 'no preview pane'
            share, cells = blue_share(tmux.screen(area[0]), *area[1:])
            return share >= 0.8, '%.0f%% of %d coloured cells blue' % (share * 100, cells)

        ok, detail = wait_until(blue)
        results.append(('%s: moving the cursor shows the next file (all blue)' % name, ok, detail))
        tmux.run('send-keys', '-t', pane, 'Escape' if name == 'fzf' else 'q')
        ok, detail = wait_until(lambda: (not tmux.panes(), '%d panes left' % len(tmux.panes())), 10)
        results.append(('%s: quitting leaves no pane behind' % name, ok, detail))
    finally:
        tmux.kill()
    return results


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    pictures = os.path.join(work, 'pictures')
    os.makedirs(pictures)
    from PIL import Image
    save_quadrants(os.path.join(pictures, 'a-quadrants.png'))  # first in every program's order
    Image.new('RGB', (400, 300), QUADRANTS['blue']).save(os.path.join(pictures, 'b-blue.png'))

    found = setups()
    results = []
    for name in ('lf', 'ranger', 'nnn', 'fzf'):
        if name not in found:
            results.append(('%s: a set-up in the README' % name, False, 'not found under `qlbrowse preview`'))
        elif not shutil.which(name) or not shutil.which('tmux'):
            print('SKIP %s: not installed' % name)
        else:
            results.extend(try_program(name, found[name], qlbrowse, work, pictures))
    for label, ok, detail in results:
        print('%-4s %s%s' % ('PASS' if ok else 'FAIL', label, ('  (' + detail + ')') if detail else ''))
    shutil.rmtree(work, ignore_errors=True)
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
