#!/usr/bin/python3
"""`qlbrowse edit trim` on a real FUSE volume (Tests/Support/faultfs.py) that vanishes while the
trimmed copy is being written: a stick pulled out, a share gone.

usage: edit-vanish.py QLBROWSE WORKDIR

Checks, one PASS/FAIL line each: the edit ends (exit status 1, not a hang) with a clear message;
the original on the volume is byte for byte what it was once the volume is back; the partial
temporary the vanished volume kept is removed by the next edit of that file, which succeeds.
Exit 0 when all pass.
"""
import hashlib, os, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faultfs_ctl  # noqa: E402
from ptybrowser import summarize  # noqa: E402


def digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def leftovers(folder):
    return sorted(name for name in os.listdir(folder) if '.qlbrowse-edit-' in name)


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    source, mount = os.path.join(work, 'source'), os.path.join(work, 'mnt')
    os.makedirs(source)
    video = os.path.join(source, 'holiday.mp4')
    # 60 s of H.264 with a keyframe a second: thousands of packets to copy.
    subprocess.run(['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:duration=60',
                    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '30', '-pix_fmt', 'yuv420p', video], check=True)
    before = digest(video)
    env = dict(os.environ, LANG='C.UTF-8', XDG_DATA_HOME=os.path.join(work, 'data'), XDG_CACHE_HOME=os.path.join(work, 'cache'),
               QLBROWSE_NO_SERVICE='1')
    results = []
    try:
        faultfs_ctl.mount(source, mount)
        # Every call takes 20 ms: the copy takes many seconds, the volume goes in the middle.
        faultfs_ctl.set_faults(mount, latency_ms=20)
        started = time.time()
        run = subprocess.Popen([qlbrowse, 'edit', 'trim', '--start', '5', '--end', '55', '--copy', os.path.join(mount, 'holiday.mp4')],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        deadline = time.time() + 30
        while time.time() < deadline and not any(name.endswith('.mp4') and os.path.getsize(os.path.join(source, name)) > 100_000
                                                 for name in leftovers(source)):
            time.sleep(0.1)
        partial_seen = bool(leftovers(source))
        out, err = faultfs_ctl.vanish_under(mount, run)
        message = ' | '.join(line for line in err.splitlines() if line.strip())
        results.append(('the volume went while the copy was half written', partial_seen, 'temporaries seen: %s' % leftovers(source)))
        results.append(('the edit ends with exit status 1, not a hang', run.returncode == 1, 'status %d after %.1f s' % (run.returncode, time.time() - started)))
        results.append(('it says the volume went away, naming the file', 'qlbrowse edit:' in message and 'holiday.mp4' in message and 'went away' in message and '(killed' not in message, message))
        results.append(('the original is whole', digest(video) == before, 'sha256 changed' if digest(video) != before else ''))
        left = leftovers(source)
        # The volume comes back: the next edit of the file clears what the vanished one left.
        faultfs_ctl.mount(source, mount)
        again = subprocess.run([qlbrowse, 'edit', 'trim', '--start', '5', '--end', '15', '--copy', os.path.join(mount, 'holiday.mp4')],
                               stdin=subprocess.DEVNULL, capture_output=True, env=env, text=True, timeout=120)
        results.append(('the next edit succeeds and removes the leftover temporary',
                        again.returncode == 0 and not leftovers(source) and os.path.exists(os.path.join(source, 'holiday (edited).mp4')),
                        'left after the vanish: %s; status %d; now: %s; %s' % (left, again.returncode, leftovers(source), again.stderr.strip())))
        results.append(('the original is still whole', digest(video) == before, ''))
    finally:
        faultfs_ctl.unmount(mount)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
