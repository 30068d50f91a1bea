#!/usr/bin/python3
"""`qlbrowse thumbnail -r` on a real FUSE volume (Tests/Support/faultfs.py) whose daemon is killed
and which is unmounted in the middle of the walk, as in the bug report: 40 photos in 8 folders,
slow listings, the volume vanishes after the first folders were listed.

usage: batch-vanish.py QLBROWSE WORKDIR

Checks, one PASS/FAIL line each: the run ends (exit status 1, not a hang); it says the volume went
away ("stopped (mnt was disconnected)"), that the walk was cut short and how many folders and
files were never reached or not done; it does not blame the files ("No such file or directory");
nothing partial is left in the cache. Exit 0 when all pass.
"""
import os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faultfs_ctl  # noqa: E402
from ptybrowser import cache_damage, summarize  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    source, mount, cache = os.path.join(work, 'source'), os.path.join(work, 'mnt'), os.path.join(work, '.cache')
    os.makedirs(cache)
    fixture = os.path.join(HERE, '..', '..', '.fixtures', 'small', 'landscape.jpg')
    for folder in range(8):
        os.makedirs(os.path.join(source, 'roll%d' % folder))
        for index in range(5):
            shutil.copy(fixture, os.path.join(source, 'roll%d' % folder, 'photo%d.jpg' % index))
    results = []
    env = dict(os.environ, XDG_CACHE_HOME=cache, LANG='C.UTF-8')
    try:
        faultfs_ctl.mount(source, mount)
        # Every call takes 150 ms: listing the 9 folders takes seconds.
        faultfs_ctl.set_faults(mount, latency_ms=150)
        run = subprocess.Popen([qlbrowse, 'thumbnail', '-r', mount], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        time.sleep(2.5)
        out, err = faultfs_ctl.vanish_under(mount, run)
        lines = [line for line in err.splitlines() if line.strip()]
        report = next((line for line in lines if 'stopped (' in line), '')
        results.append(('the run ends with exit status 1', run.returncode == 1, 'status %d' % run.returncode))
        results.append(('it says the volume went away', 'stopped (mnt was disconnected)' in report, ' | '.join(lines)))
        match = re.search(r'(\d+) made, (\d+) already cached, (\d+) not done; the walk was cut short: (\d+) folders? never listed', report)
        counted = match is not None and int(match.group(4)) >= 1 and sum(int(match.group(i)) for i in (1, 2, 3)) < 40
        results.append(('it says the walk was cut short, and how many folders and files were not reached', counted, report))
        blamed = [line for line in lines if 'No such file or directory' in line or 'not connected' in line]
        results.append(('no file is blamed for the vanished volume', not blamed, ' | '.join(blamed)))
        partial, remembered = cache_damage(os.path.join(cache, 'thumbnails'))
        results.append(('nothing partial in the cache, no file remembered as failed', not partial and not remembered,
                        '%d partial, %d failure entries' % (len(partial), len(remembered))))
    finally:
        faultfs_ctl.unmount(mount)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
