#!/usr/bin/python3
"""A FAT USB stick (a fusefat image, Tests/Support/testvolumes.py) through the browser.

usage: stick.py QLBROWSE WORKDIR

1. the volumes view shows it as removable, with what FAT allows (probed: files <= 4 GiB,
   no symlinks, the characters it refuses);
2. pasting a file whose name has ":" onto it is refused before a byte is written;
3. pasting an ordinary file works, and the file is on the stick with its content.
Prints one line per check; exit 0 when all pass, 77 when fusefat is not installed.
"""
import os, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VOLUMES = [sys.executable, os.path.join(HERE, 'testvolumes.py')]


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, 'from'))
    os.makedirs(os.path.join(work, '.cache'))
    for name, text in (('bad:name.txt', 'colon'), ('ok.txt', 'fine')):
        with open(os.path.join(work, 'from', name), 'w') as handle:
            handle.write(text)
    root = os.path.join(work, 'stick')
    mounted = subprocess.run(VOLUMES + ['fat', 'mount', root], capture_output=True, text=True)
    if mounted.returncode == 77:
        print(mounted.stderr.strip())
        return 77
    if mounted.returncode != 0:
        print('FAIL fat mount: ' + mounted.stderr.strip())
        return 1
    mnt = mounted.stdout.strip()
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.cache', 'XDG_CONFIG_HOME': work + '/.cache', 'XDG_DATA_HOME': work + '/.cache'}
    results, browser = [], None
    try:
        browser = Browser([qlbrowse, '--graphics', 'none', '--volumes', work], env)
        browser.wait_for('fuse.fusefat', 10)
        lines = [l for l in browser.text().splitlines() if ('local ' in l or 'removable ' in l or 'network ' in l) and '/' in l]
        row = next((i for i, l in enumerate(lines) if 'fuse.fusefat' in l), None)
        removable = row is not None and 'removable' in lines[row]
        browser.send(b'j' * (row or 0))
        limits = browser.wait_for('files ≤ 4 GiB', 5) is not None and browser.wait_for('no symlinks', 1) is not None
        results.append(('volumes view: the stick is removable, FAT limits probed', removable and limits,
                        lines[row].strip() if row is not None else browser.text()))
        browser.send(b'\x1b')
        browser.enter('from')
        browser.wait_for('ok.txt', 5)
        browser.send(b'gy')  # bad:name.txt sorts first
        browser.wait_for('1 item to copy', 3)
        browser.send(b'h')
        browser.pump(0.3)
        browser.enter('stick')
        browser.pump(0.3)
        browser.send(b'/mnt\r')
        browser.pump(0.3)
        browser.send(b'lp')
        refused = browser.wait_for('does not allow', 10) is not None
        results.append(('a name with ":" is refused before a byte is written', refused and 'bad:name.txt' not in os.listdir(mnt)
                        and not [n for n in os.listdir(mnt) if n.endswith('.part')], str(os.listdir(mnt))))
        browser.send(b'\x1bh')
        browser.pump(0.3)
        browser.send(b'h')
        browser.pump(0.3)
        browser.enter('from')
        browser.wait_for('ok.txt', 5)
        browser.send(b'Gy')
        browser.wait_for('1 item to copy', 3)
        browser.send(b'h')
        browser.pump(0.3)
        browser.enter('stick')
        browser.pump(0.3)
        browser.send(b'/mnt\r')
        browser.pump(0.3)
        browser.send(b'lp')
        copied = browser.wait_for('copied: 1 done', 10) is not None
        try:
            with open(os.path.join(mnt, 'ok.txt')) as handle:
                content = handle.read()
        except OSError:
            content = None
        if not copied:
            print(browser.text())
        results.append(('an ordinary file is copied onto the stick', copied and content == 'fine', str(os.listdir(mnt))))
        browser.send(b'q')
        browser.finish()
        browser = None
    finally:
        if browser is not None:
            browser.kill()
        subprocess.run(VOLUMES + ['fat', 'teardown', root], capture_output=True)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
