#!/usr/bin/python3
"""File operations through the real browser, on real folders and FUSE mounts, checked on disk.

usage: file-ops.py QLBROWSE WORKDIR

1. copy with name clashes: keep both for all, skip for all, overwrite for all;
2. rename keeps the extension out of the selection; a new folder with a trailing /;
3. trash: the .trashinfo is read back by trash-cli's trash-list (an independent parser), U restores;
4. D names what it deletes and deletes only after y;
5. a move across volumes (onto a tmpfs) that completes: the file is there with its content and
   its time, the original gone;
   a cross-volume move of a 500 MB file (its source on a slow FUSE volume) cancelled half-way
   from the jobs panel: the source's checksum is unchanged, nothing partial at the destination;
6. a copy onto a FUSE volume that vanishes mid-write: the source is intact, no file under the
   final name, the job stops with a report that names any temporary it could not remove.
Prints one line per check; exit 0 when all pass.
"""
import hashlib, os, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faultfs_ctl  # noqa: E402
from ptybrowser import Browser, summarize  # noqa: E402


def write(path, text):
    with open(path, 'w') as handle:
        handle.write(text)


def read(path):
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return None


def md5(path):
    digest = hashlib.md5()
    with open(path, 'rb') as handle:
        for block in iter(lambda: handle.read(1 << 20), b''):
            digest.update(block)
    return digest.hexdigest()


def big_file(path, megabytes):
    block = bytes((i * 131) & 0xFF for i in range(1 << 20))
    with open(path, 'wb') as handle:
        for index in range(megabytes):
            handle.write(block[index % 251:] + block[:index % 251])


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    # Names a filter finds alone: /from, /into, /slow (before slowsrc), /dest (before destsrc).
    for folder in ('from', 'into', 'data', 'cache', 'slowsrc', 'slow', 'destsrc', 'dest', 'ram'):
        os.makedirs(os.path.join(work, folder))
    for name, text in (('a.txt', 'new a'), ('b.txt', 'new b'), ('c.txt', 'new c'), ('photo.jpg', 'jpeg')):
        write(os.path.join(work, 'from', name), text)
    write(os.path.join(work, 'into', 'a.txt'), 'old a')
    write(os.path.join(work, 'into', 'b.txt'), 'old b')
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/cache',
           'XDG_STATE_HOME': work + '/cache', 'XDG_CONFIG_HOME': work + '/cache', 'XDG_DATA_HOME': work + '/data'}
    results, browser = [], None
    src, dst = os.path.join(work, 'from'), os.path.join(work, 'into')

    def check(label, ok, detail=''):
        results.append((label, bool(ok), detail))

    def open_folder(path):
        nonlocal browser
        if browser is not None:
            browser.send(b'q')
            browser.finish()
        browser = Browser([qlbrowse, '--graphics', 'none', path], env)
        browser.wait_for('sort:name', 10)

    try:
        # 1. Clashes. The clipboard lives in the browser, so copy and paste happen in one session: go to dst by filter.
        browser = Browser([qlbrowse, '--graphics', 'none', work], env)
        browser.wait_for('sort:name', 10)
        browser.enter('from')
        browser.wait_for('photo.jpg', 3)
        browser.send(b'*y')
        if browser.wait_for('4 items to copy', 3) is None:
            raise RuntimeError('could not copy the four files:\n' + browser.text())
        browser.send(b'h')
        browser.pump(0.3)
        browser.enter('into')
        browser.wait_for('b.txt', 3)
        browser.send(b'p')
        asked = browser.wait_for('This name is taken', 5) is not None
        browser.send(b'K')
        browser.wait_for('copied:', 10)
        names = sorted(os.listdir(dst))
        check('clash, keep both for all', asked and names == ['a (2).txt', 'a.txt', 'b (2).txt', 'b.txt', 'c.txt', 'photo.jpg']
              and read(dst + '/a.txt') == 'old a' and read(dst + '/a (2).txt') == 'new a', str(names))
        browser.send(b'p')
        browser.wait_for('This name is taken', 5)
        browser.send(b'S')
        browser.wait_for('skipped', 10)
        check('clash, skip for all', sorted(os.listdir(dst)) == names)
        browser.send(b'p')
        browser.wait_for('This name is taken', 5)
        browser.send(b'O')
        time.sleep(0.5)
        browser.wait_for('copied: 4 done', 10)
        check('clash, overwrite for all', read(dst + '/a.txt') == 'new a' and sorted(os.listdir(dst)) == names
              and not [n for n in os.listdir(dst) if n.endswith('.part')])

        # 2. Rename (cursor on c.txt) and a new folder.
        browser.send(b'/c.txt\r')
        browser.pump(0.3)
        browser.send(b'\x1b')  # clear the filter, the cursor stays
        browser.pump(0.3)
        browser.send(b'r')
        browser.wait_for('rename c.txt to', 3)
        browser.send(b'notes\r')
        renamed = browser.wait_for('notes.txt', 5) is not None
        browser.send(b'a')
        browser.wait_for('new file', 3)
        browser.send(b'album/\r')
        created = browser.wait_for('album/', 5) is not None
        check('rename keeps the extension; a new folder with /', renamed and os.path.isfile(dst + '/notes.txt') and created
              and os.path.isdir(dst + '/album'), str(sorted(os.listdir(dst))))

        # 3. Trash and restore (the cursor is on album/ after creating it; trash notes.txt).
        browser.send(b'/notes\r')
        browser.pump(0.3)
        browser.send(b'd')
        browser.wait_for('trashed: 1 done', 5)
        listed = subprocess.run(['trash-list'], capture_output=True, text=True, env=dict(os.environ, XDG_DATA_HOME=work + '/data')).stdout
        check('trash: trash-list reads the .trashinfo', dst + '/notes.txt' in listed and not os.path.exists(dst + '/notes.txt'), listed.strip())
        browser.send(b'\x1bU')
        browser.wait_for('restored 1 of 1', 5)
        check('U restores it', read(dst + '/notes.txt') == 'new c' and not os.listdir(work + '/data/Trash/files'))

        # 4. Delete for good, after y.
        browser.send(b'/photo\r')
        browser.pump(0.3)
        browser.send(b'D')
        named = browser.wait_for(dst + '/photo.jpg', 3) is not None and browser.wait_for('Delete for good', 1) is not None
        still = os.path.exists(dst + '/photo.jpg')
        browser.send(b'y')
        browser.wait_for('deleted: 1 done', 5)
        check('D names what it deletes and deletes after y', named and still and not os.path.exists(dst + '/photo.jpg'))
        browser.send(b'\x1bq')
        browser.finish()
        browser = None

        # 5a. A move onto another volume (tmpfs) that completes.
        ram = os.path.join(work, 'ram')
        subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', ram], check=True)
        mover = os.path.join(dst, 'b (2).txt')
        stamp = os.stat(mover).st_mtime_ns
        browser = Browser([qlbrowse, '--graphics', 'none', dst], env)
        browser.wait_for('sort:name', 10)
        browser.send(b'/b (2)\r')
        browser.pump(0.3)
        browser.send(b'x\x1bh')
        browser.pump(0.3)
        browser.send(b'/ram\r')
        browser.pump(0.3)
        browser.send(b'lp')
        moved = browser.wait_for('moved: 1 done', 10) is not None
        landed = os.path.join(ram, 'b (2).txt')
        check('a move onto another volume (tmpfs): content and time there, the original gone',
              moved and read(landed) == 'new b' and os.stat(landed).st_mtime_ns == stamp and not os.path.exists(mover),
              str(os.listdir(ram)))
        browser.send(b'q')
        browser.finish()
        browser = None

        # 5b. Cross-volume move from a slow volume, cancelled half-way.
        big = os.path.join(work, 'slowsrc', 'big.bin')
        big_file(big, 500)
        before = md5(big)
        faultfs_ctl.mount(os.path.join(work, 'slowsrc'), os.path.join(work, 'slow'))
        faultfs_ctl.set_faults(os.path.join(work, 'slow'), read_delay_ms=4)
        browser = Browser([qlbrowse, '--graphics', 'none', work], env)
        browser.wait_for('sort:name', 10)
        browser.enter('slow')
        browser.wait_for('big.bin', 5)
        browser.send(b'x')
        browser.wait_for('1 item to move', 3)
        browser.send(b'h')
        browser.pump(0.3)
        browser.send(b'/into\r')
        browser.pump(0.3)
        browser.send(b'lp')
        browser.send(b'J')
        half = None
        start = time.time()
        while time.time() - start < 60:
            browser.pump(0.2)
            line = next((l for l in browser.text().splitlines() if 'move →' in l and '%' in l), '')
            if '%' in line:
                percent = int(line.split(']')[1].split('%')[0])
                if percent >= 40:
                    half = percent
                    break
        browser.send(b'c')
        cancelled = browser.wait_for('cancelled', 10) is not None
        leftovers = [n for n in os.listdir(dst) if 'big' in n]
        check('cross-volume move of 500 MB cancelled half-way: source unchanged, nothing at the destination',
              half is not None and cancelled and md5(big) == before and not leftovers,
              'cancelled at %s%%; destination: %s' % (half, leftovers))
        browser.send(b'\x1bq')
        browser.finish()
        browser = None
        faultfs_ctl.unmount(os.path.join(work, 'slow'))

        # 6. A copy onto a volume that vanishes mid-write.
        local_big = os.path.join(src, 'big2.bin')
        big_file(local_big, 200)
        before = md5(local_big)
        dest = os.path.join(work, 'dest')
        faultfs_ctl.mount(os.path.join(work, 'destsrc'), dest)
        faultfs_ctl.set_faults(dest, latency_ms=3)
        browser = Browser([qlbrowse, '--graphics', 'none', src], env)
        browser.wait_for('sort:name', 10)
        browser.send(b'/big2\r')
        browser.pump(0.3)
        browser.send(b'y\x1bh')
        browser.pump(0.3)
        browser.send(b'/dest\r')
        browser.pump(0.3)
        browser.send(b'lp')
        browser.send(b'J')
        started = browser.wait_for('% ', 15) is not None
        time.sleep(1.0)
        faultfs_ctl.set_faults(dest, vanish=True)
        browser.wait_for('was disconnected', 10)  # the browser leaves the volume, closing the panel
        browser.send(b'J')
        stopped = browser.wait_for('stopped:', 20) is not None
        line = next((l.strip() for l in browser.text().splitlines() if 'stopped:' in l), '')
        backing = os.listdir(os.path.join(work, 'destsrc'))
        temporaries = [n for n in backing if n.endswith('.part')]
        named = 'temporary file left' in browser.text()
        check('copy onto a volume that vanishes: source intact, nothing under the final name, temporaries reported',
              started and stopped and md5(local_big) == before and 'big2.bin' not in backing and (not temporaries or named),
              '%s; on the volume: %s' % (line, backing))
        browser.send(b'\x1bq')
        browser.finish()
        browser = None
    finally:
        if browser is not None:
            browser.kill()
        for mount in ('slow', 'dest'):
            faultfs_ctl.unmount(os.path.join(work, mount))
        subprocess.run(['umount', os.path.join(work, 'ram')], capture_output=True)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
