#!/usr/bin/python3
"""The SMB server stopped in the middle of a batch job, on a real share (smbd + smbnetfs on
loopback, Tests/Support/testvolumes.py), as the user sees it in the browser.

usage: smb-batch.py QLBROWSE WORKDIR

Steps, each checked on the rendered screen: browse the share; T asks whether to also write
.sh_thumbnails (a network volume); Enter starts the job; the server is killed mid-job; the job
stops with a report of what was done and what was not, the browser leaves the share with a
banner, nothing partial is left in the cache and no file is remembered as failed; the server
comes back, the share opens again and the job resumes from the jobs panel, skipping what was
cached. Prints one line per step with timings; exit 0 when all pass, 77 when Samba or
smbnetfs are not installed.
"""
import os, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, cache_damage, summarize  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VOLUMES = [sys.executable, os.path.join(HERE, 'testvolumes.py')]


def smb(*words):
    result = subprocess.run(VOLUMES + ['smb'] + list(words), capture_output=True, text=True, timeout=60)
    if result.returncode == 77:
        print(result.stdout + result.stderr, end='')
        sys.exit(77)
    if result.returncode != 0:
        raise RuntimeError('testvolumes smb %s: %s' % (' '.join(words), result.stderr.strip()))
    return result.stdout.strip()


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    root = os.path.join(work, 'smb')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, '.cache'))
    fixture = os.path.join(HERE, '..', '..', '.fixtures', 'small', 'landscape.jpg')
    results, browser = [], None
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.cache', 'XDG_CONFIG_HOME': work + '/.cache'}
    try:
        share = smb('start', root)
        for index in range(80):
            shutil.copy(fixture, os.path.join(root, 'share', 'photo%02d.jpg' % index))
        browser = Browser([qlbrowse, '--graphics', 'symbols', share], env)
        listed = browser.wait_for('80 files', 15) is not None
        results.append(('the share lists', listed, ''))
        browser.send(b'GT')
        asked = browser.wait_for('also into .sh_thumbnails', 3) is not None
        browser.send(b'\r')
        running = browser.wait_for('/80', 10) is not None
        time.sleep(1.0)
        killed = time.time()
        smb('stop', root)
        banner = browser.wait_for('was disconnected', 15, row=0)
        reported = browser.wait_for('not done', 5) is not None
        browser.send(b'J')
        browser.wait_for('stopped (', 3)
        line = next((l.strip() for l in browser.text().splitlines() if 'stopped (' in l), '')
        browser.send(b'\x1b')
        results.append(('T asks about .sh_thumbnails on a share, the job runs', asked and running, ''))
        results.append(('server killed mid-job: banner, the job stops with what was and was not done', banner is not None and reported and 'not done' in line,
                        'banner %.1f s after the kill; %s' % (time.time() - killed if banner is None else banner, line)))
        partial, remembered = cache_damage(work + '/.cache/thumbnails')
        results.append(('nothing partial in the cache, no file remembered as failed', not partial and not remembered,
                        '%d partial, %d failure entries' % (len(partial), len(remembered))))
        made = int(line.split('): ')[1].split(' made')[0]) if '): ' in line else -1

        smb('restart', root)
        deadline = time.time() + 20  # smbnetfs answers EIO for a few seconds after the server is back
        while time.time() < deadline:
            try:
                if len(os.listdir(share)) == 80:
                    break
            except OSError:
                time.sleep(0.5)
        browser.send(b'J')
        browser.wait_for('stopped (', 3)
        browser.send(b'\r')
        resumed = browser.wait_for('thumbnailed pub', 60)
        done = next((l.strip() for l in browser.text().splitlines() if 'thumbnailed pub' in l), '')
        results.append(('server back: the job resumes and skips what was cached', resumed is not None and made > 0 and ('%d already cached' % made) in done, done))
        results.append(browser.quit(b'\x1bq'))
        browser = None
    finally:
        if browser is not None:
            browser.kill()
        subprocess.run(VOLUMES + ['smb', 'teardown', root], capture_output=True, timeout=60)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
