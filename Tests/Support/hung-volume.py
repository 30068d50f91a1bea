#!/usr/bin/python3
"""The browser against a real FUSE volume that hangs and vanishes, measured as a user sees it.

usage: hung-volume.py QLBROWSE WORKDIR

Mounts faultfs (Tests/Support/faultfs.py) at WORKDIR/mnt beside a local folder WORKDIR/local,
runs qlbrowse in a pseudo-terminal on WORKDIR, and checks, reading the rendered screen (pyte):
  1. with the volume hung, entering it shows "waiting for mnt" within 1 s, and Esc goes back;
  2. while the hung call is still stuck, browsing the local folder answers every key:
     time from key to the first screen update, p99 <= 100 ms over 100 keys;
  3. the volume vanishing (its daemon dies) while the user is in it gives the banner
     "mnt was disconnected" and the view moves out of it; the browser keeps running;
  4. pictures asked of a volume that has just hung (their stat stuck in the kernel) do not hold
     up pictures elsewhere: a photo on the local disk still gets its picture within 5 s;
  5. q quits cleanly.
Prints one line per check and the latency figures; exit status 0 when all pass. The mount is
always torn down (faultfs_ctl.unmount aborts a hung connection first).
"""
import os, shutil, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faultfs_ctl  # noqa: E402
from ptybrowser import Browser, cache_damage, summarize  # noqa: E402



def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    for folder in ('local', 'src/inner', 'zfresh', '.cache', '.state'):
        os.makedirs(os.path.join(work, folder))
    for index in range(300):
        with open(os.path.join(work, 'local', 'note%03d.txt' % index), 'w') as handle:
            handle.write('note %d\n' % index)
    for index in range(20):
        with open(os.path.join(work, 'src', 'remote%02d.txt' % index), 'w') as handle:
            handle.write('remote %d\n' % index)
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '.fixtures', 'small', 'landscape.jpg')
    for index in range(60):
        shutil.copy(fixture, os.path.join(work, 'src', 'photo%02d.jpg' % index))
    shutil.copy(fixture, os.path.join(work, 'zfresh', 'fresh.jpg'))
    os.makedirs(os.path.join(work, 'src', 'many'))
    for index in range(3000):
        open(os.path.join(work, 'src', 'many', 'entry%04d' % index), 'w').close()
    mount = os.path.join(work, 'mnt')
    results = []
    browser = None
    try:
        env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
               'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config'}
        # 0. The volumes view follows the mount table by itself.
        os.makedirs(mount)
        browser = Browser([qlbrowse, '--graphics', 'symbols', '--volumes', work], env)
        opened = browser.wait_for('Volumes', 10) is not None
        mounted_at = time.time()
        faultfs_ctl.mount(os.path.join(work, 'src'), mount)
        appeared = browser.wait_for('fuse.faultfs', 5)
        if appeared is not None:
            appeared = time.time() - mounted_at
        results.append(('volumes view shows a fresh FUSE mount within 2 s', opened and appeared is not None and appeared <= 2,
                        'after %s s' % (None if appeared is None else round(appeared, 2))))
        faultfs_ctl.unmount(mount)
        unmounted_at = time.time()
        gone = None
        while time.time() - unmounted_at < 5:
            browser.pump(0.05)
            if 'fuse.faultfs' not in browser.text():
                gone = time.time() - unmounted_at
                break
        results.append(('and drops it after unmount within 2 s', gone is not None and gone <= 2, 'after %s s' % (None if gone is None else round(gone, 2))))
        browser.send(b'\x1bq')
        browser.finish()

        faultfs_ctl.mount(os.path.join(work, 'src'), mount)
        browser = Browser([qlbrowse, '--graphics', 'symbols', work], env)
        started = browser.wait_for('sort:name', 10) is not None and browser.wait_for('local/', 5) is not None
        results.append(('browser starts and lists WORKDIR', started, ''))

        # 1. Hang the volume, then enter it (folders first: local/, mnt/, src/).
        faultfs_ctl.set_faults(mount, hang=True)
        browser.send(b'j')
        browser.pump(0.3)
        browser.send(b'\r')
        shown = browser.wait_for('waiting for mnt', 3)
        results.append(('hung volume: "waiting for mnt" within 1 s', shown is not None and shown <= 1.0, 'after %s s' % (None if shown is None else round(shown, 2))))
        browser.send(b'\x1b')
        back = browser.wait_for('stopped waiting for mnt', 2)
        results.append(('Esc goes back to where the user was', back is not None and ' %s' % work in browser.text(), ''))

        # 2. Browse the local folder while the stuck call is still stuck.
        browser.send(b'g')
        browser.pump(0.3)
        browser.send(b'\r')
        entered = browser.wait_for('note000.txt', 3) is not None
        samples = []
        for index in range(100):
            sent = time.time()
            browser.send(b'j' if index % 10 != 9 else b'k')
            first = browser.pump(1.0, quiet=0.02)
            if first is not None:
                samples.append((first - sent) * 1000)
        samples.sort()
        p50 = samples[len(samples) // 2] if samples else float('nan')
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] if samples else float('nan')
        answered = len(samples) == 100
        results.append(('local browsing while the volume hangs: every key answered, p99 <= 100 ms',
                        entered and answered and p99 <= 100, '%d/100 answered, p50 %.1f ms, p99 %.1f ms, max %.1f ms'
                        % (len(samples), p50, p99, samples[-1] if samples else float('nan'))))

        # 2b. The volume vanishes in the middle of a listing (entries trickle in), then in the middle
        #     of a preview (the selected photo's thumbnail reads slowly).
        faultfs_ctl.set_faults(mount, hang=False)
        faultfs_ctl.unmount(mount)
        faultfs_ctl.mount(os.path.join(work, 'src'), mount)
        browser.send(b'h')
        browser.pump(0.5)
        faultfs_ctl.set_faults(mount, readdir_delay_ms=400)
        browser.send(b'gj\r')  # mnt/
        browser.wait_for('inner/', 10)
        browser.send(b'j\r')  # many/ (folders: inner, many)
        streaming = browser.wait_for('reading…', 5) is not None
        faultfs_ctl.set_faults(mount, vanish=True)
        during_listing = browser.wait_for('mnt was disconnected', 5, row=0)
        faultfs_ctl.unmount(mount)
        faultfs_ctl.mount(os.path.join(work, 'src'), mount)
        browser.send(b'gj\r')
        browser.wait_for('photo00.jpg', 10)
        faultfs_ctl.set_faults(mount, read_delay_ms=300)
        browser.send(b'/photo33\r')  # a photo not thumbnailed yet: its preview reads slowly
        browser.pump(0.8)
        faultfs_ctl.set_faults(mount, vanish=True)
        during_preview = browser.wait_for('mnt was disconnected', 8, row=0)
        alive = browser.wait_for('sort:name', 1) is not None
        faultfs_ctl.unmount(mount)
        faultfs_ctl.mount(os.path.join(work, 'src'), mount)
        results.append(('vanishing during a listing and during a preview: banner each time, the browser goes on',
                        streaming and during_listing is not None and during_preview is not None and alive,
                        'listing %s s, preview %s s' % (during_listing if during_listing is None else round(during_listing, 2),
                                                        during_preview if during_preview is None else round(during_preview, 2))))

        # 3. Let the volume answer again, go in, start thumbnailing it (slow reads), and have its
        #    daemon die underneath in the middle of the job.
        browser.send(b'\x1b')
        browser.pump(0.3)
        browser.send(b'gj\r')
        inside = browser.wait_for('photo00.jpg', 15) is not None
        faultfs_ctl.set_faults(mount, read_delay_ms=10)
        browser.send(b'GT')  # on a file: the current folder
        asked = browser.wait_for('Thumbnail this folder?', 3) is not None
        browser.send(b'\r')
        running = browser.wait_for('/3080', 10) is not None  # 60 photos, 20 notes, 3000 empty files, in the status line
        time.sleep(1.0)
        faultfs_ctl.set_faults(mount, vanish=True)
        banner = browser.wait_for('mnt was disconnected', 8, row=0)
        moved = banner is not None and ' %s ' % work in browser.text().splitlines()[0] + ' '
        results.append(('vanished volume: banner and the view leaves it', inside and banner is not None and moved,
                        'banner after %s s' % (None if banner is None else round(banner, 2))))
        reported = browser.wait_for('not done', 5) is not None
        browser.send(b'J')
        panel = browser.wait_for('stopped (mnt was disconnected)', 3) is not None
        report = [line.strip() for line in browser.text().splitlines() if 'stopped (mnt was disconnected)' in line]
        browser.send(b'\x1b')
        results.append(('batch job on it: asked where thumbnails go, stopped with a report of what was and was not done',
                        asked and running and reported and panel, '%s (asked %s, running %s, reported %s, panel %s)' % (report[0] if report else browser.text().splitlines()[-1], asked, running, reported, panel)))
        # The volume comes back; the stopped job resumes from the jobs panel, skipping what is cached.
        faultfs_ctl.unmount(mount)
        faultfs_ctl.mount(os.path.join(work, 'src'), mount)
        browser.send(b'J')
        browser.pump(0.3)
        browser.send(b'\r')
        resumed = browser.wait_for('thumbnailed mnt', 60)
        line = [l.strip() for l in browser.text().splitlines() if 'thumbnailed mnt' in l]
        made_before = int(report[0].split('): ')[1].split(' made')[0]) if report else -1
        results.append(('after remounting, the job resumes and skips what was cached', resumed is not None and made_before > 0
                        and ('%d already cached' % made_before) in (line[0] if line else ''), line[0] if line else browser.text().splitlines()[-1]))
        browser.send(b'\x1b')
        partial, remembered = cache_damage(work + '/.cache/thumbnails')
        results.append(('nothing partial in the cache, no file remembered as failed', not partial and not remembered,
                        '%d partial, %d failure entries' % (len(partial), len(remembered))))

        # 4. Into the volume, in the grid; the volume hangs; G shows tiles whose pictures are not
        #    in memory, and asking for them stats files on the hung volume. Then, on the local
        #    disk, a photo nobody has looked at yet must still get its picture.
        browser.pump(0.3)
        browser.enter('mnt')
        browser.wait_for('photo00.jpg', 10)
        browser.send(b'v')
        browser.pump(1.0)
        faultfs_ctl.set_faults(mount, hang=True)
        browser.send(b'G')
        browser.pump(1.0)
        browser.send(b'vh')
        browser.pump(0.5)
        browser.enter('zfresh')
        shown = browser.wait_for('from libjpeg', 10)
        results.append(('while picture requests on the hung volume are stuck, a local photo still gets its picture within 5 s',
                        shown is not None and shown <= 5, 'after %s s' % (None if shown is None else round(shown, 2))))
        faultfs_ctl.set_faults(mount, hang=False)

        results.append(browser.quit())
        browser = None
    finally:
        if browser is not None:
            browser.kill()
        faultfs_ctl.unmount(mount)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
