#!/usr/bin/python3
"""Bookmarks as a user meets them, on a real FUSE volume (Tests/Support/faultfs.py): set in one
run, used in the next, and asked for while their volume is unmounted or hung.

usage: bookmarks.py QLBROWSE WORKDIR

Checks, reading the rendered screen (pyte), one PASS/FAIL line each:
  1. b then s bookmarks a folder on the volume (the file under the cursor too); q quits;
  2. a new run in another folder: ' then s goes back to it, the cursor on that file;
  3. the volume unmounted: ' then s says the bookmark is unavailable and why, within 2 s, and
     the browser stays where it is; B lists it as unavailable;
  4. the volume hung: ' then s says it is not responding within the volume deadline (2 s) plus
     0.5 s, and the browser answers a key meanwhile;
  5. the bookmarks file is JSON in $XDG_STATE_HOME/qlbrowse/bookmarks;
  6. b, a key and q typed at once: the bookmark is in the file after the process ends.
Exit status 0 when all pass. The mount is always torn down.
"""
import json, os, shutil, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faultfs_ctl  # noqa: E402
from ptybrowser import Browser, summarize  # noqa: E402


def jump_from_home(qlbrowse, home, env, key=b's'):
    """A new run in `home`; ' then `key`. Returns the browser and when the key went."""
    browser = Browser([qlbrowse, '--graphics', 'symbols', home], env)
    browser.wait_for('notes.txt', 10)
    browser.send(b"'")
    browser.wait_for('go to:', 3)
    sent = time.time()
    browser.send(key)
    return browser, sent


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    source, mount, home = os.path.join(work, 'src'), os.path.join(work, 'mnt'), os.path.join(work, 'home')
    for folder in ('src/holiday', 'home', '.cache', '.state'):
        os.makedirs(os.path.join(work, folder))
    for name in ('beach.txt', 'hills.txt', 'town.txt'):
        with open(os.path.join(source, 'holiday', name), 'w') as handle:
            handle.write(name + '\n')
    with open(os.path.join(home, 'notes.txt'), 'w') as handle:
        handle.write('notes\n')
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config', 'QLBROWSE_NO_SERVICE': '1'}
    results = []
    browser = None
    try:
        faultfs_ctl.mount(source, mount)
        holiday = os.path.join(mount, 'holiday')
        browser = Browser([qlbrowse, '--graphics', 'symbols', holiday], env)
        listed = browser.wait_for('town.txt', 10) is not None
        browser.send(b'j')
        browser.pump(0.3)
        browser.send(b'b')
        asked = browser.wait_for('press a key', 3) is not None
        browser.send(b's')
        kept = browser.wait_for("' then s", 3) is not None
        browser.quit()
        results.append(('b then s bookmarks the folder on the volume', listed and asked and kept, ''))

        browser, _ = jump_from_home(qlbrowse, home, env)
        back = browser.wait_for('town.txt', 5) is not None and browser.wait_for(' ' + holiday, 3, row=0) is not None
        on_hills = browser.wait_for('2/3 ', 3) is not None  # the status line counts the cursor's entry
        results.append(("a new run: ' then s goes back, the cursor on hills.txt", back and on_hills, browser.text().splitlines()[-1].strip()))
        browser.quit()

        faultfs_ctl.unmount(mount)
        browser, sent = jump_from_home(qlbrowse, home, env)
        said = browser.wait_for('is unavailable', 4)
        line = next((line for line in browser.text().splitlines() if 'unavailable' in line), '')
        stayed = browser.wait_for(' ' + home, 1, row=0) is not None
        results.append(('unmounted: unavailable with the reason within 2 s, the browser stays',
                        said is not None and time.time() - sent <= 2.5 and 'mounted' in line and stayed, line.strip()))
        browser.send(b'B')
        listed = browser.wait_for('unavailable: not there', 4)
        results.append(('B lists it as unavailable', listed is not None, ''))
        browser.send(b'\x1b')
        browser.quit()

        faultfs_ctl.mount(source, mount)
        faultfs_ctl.set_faults(mount, hang=True)
        browser, sent = jump_from_home(qlbrowse, home, env)
        browser.pump(0.3)
        browser.send(b'?')  # the help, while the check waits on the hung volume
        answered = browser.wait_for('qlbrowse keys', 1) is not None
        browser.send(b'\x1b')
        said = browser.wait_for('not responding', 5)
        waited = time.time() - sent
        results.append(('hung: "not responding" within the 2 s deadline (+0.5 s), keys answered meanwhile',
                        said is not None and waited <= 2.5 and answered, 'after %.2f s, help shown: %s' % (waited, answered)))
        faultfs_ctl.set_faults(mount, hang=False)
        browser.quit()

        with open(os.path.join(work, '.state', 'qlbrowse', 'bookmarks')) as handle:
            stored = json.load(handle)
        results.append(('the bookmarks file is JSON in $XDG_STATE_HOME/qlbrowse', stored == [{'key': 's', 'folder': holiday, 'file': 'hills.txt'}],
                        json.dumps(stored)))

        # b, a key and q typed at once: the bookmark is written before the process ends (CI saw
        # the file missing once: the save was still queued when q ended the process).
        browser = Browser([qlbrowse, '--graphics', 'symbols', home], env)
        browser.wait_for('notes.txt', 10)
        browser.send(b'bnq')
        status = browser.finish()
        with open(os.path.join(work, '.state', 'qlbrowse', 'bookmarks')) as handle:
            keys = sorted(bookmark['key'] for bookmark in json.load(handle))
        results.append(('b n q typed at once: the bookmark is kept', status == 0 and keys == ['n', 's'], 'keys %s' % keys))
    finally:
        if browser is not None:
            try:
                browser.kill()
            except (ProcessLookupError, ChildProcessError):
                pass  # it had quit
        faultfs_ctl.unmount(mount)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
