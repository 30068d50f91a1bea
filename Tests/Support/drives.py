#!/usr/bin/python3
"""Drives not mounted, from the command line, on real loop devices (disk images attached with
losetup, not mounted): listed, mounted, a file read, eject refused while a file is held open (the
holder named), eject after; a FAT image (owned by the user of sudo), an image with no file system
and a damaged ext4 refused with what to run.

usage: drives.py QLBROWSE WORKDIR

Needs root (losetup, mount). udisks2 is used by qlbrowse when it runs on the system bus; where it
does not (no system bus here), the root path (mount(8), a FUSE driver where the kernel lacks the
file system) is what this measures, and the first line says which. Exit 0 when all pass, 77 when
not root or a tool is missing.
"""
import json, os, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import summarize  # noqa: E402


def sbin(name):
    return shutil.which(name, path=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')


def attach(image):
    return subprocess.run([sbin('losetup'), '-f', '--show', image], check=True, capture_output=True, text=True).stdout.strip()


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    if os.geteuid() != 0 or not all(sbin(t) for t in ('losetup', 'mkfs.ext4', 'mkfs.vfat', 'blkid')):
        print('drives.py: needs root, losetup, mkfs.ext4, mkfs.vfat and blkid')
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work + '/content')
    with open(work + '/content/hello.txt', 'w') as f:
        f.write('hello from ext4\n')
    env = dict(os.environ, LANG='C.UTF-8', XDG_STATE_HOME=work + '/state', XDG_CONFIG_HOME=work + '/config', USER='root')
    env.pop('SUDO_USER', None)

    def ql(*words, **extra):
        return subprocess.run([qlbrowse] + list(words), capture_output=True, text=True, timeout=60, env=dict(env, **extra))

    images = {}
    for name, size in (('ext', 32), ('fat', 32), ('blank', 8), ('broken', 32)):
        images[name] = work + '/%s.img' % name
        with open(images[name], 'wb') as f:
            f.truncate(size << 20)
    subprocess.run([sbin('mkfs.ext4'), '-q', '-L', 'QLEXT', '-d', work + '/content', images['ext']], check=True)
    subprocess.run([sbin('mkfs.vfat'), '-n', 'QLFAT', images['fat']], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([sbin('mkfs.ext4'), '-q', '-L', 'QLBROKEN', '-O', '^metadata_csum', images['broken']], check=True)
    with open(images['broken'], 'r+b') as f:  # s_log_block_size (superblock + 24) out of range
        f.seek(1024 + 24)
        f.write((40).to_bytes(4, 'little'))
    results, devices, holder = [], {}, None
    udisks = os.path.exists('/run/dbus/system_bus_socket') and shutil.which('udisksctl')
    print('mounting through %s' % ('udisks2' if udisks else 'mount(8) as root (no udisks2 on a system bus here)'))
    try:
        for name in images:
            devices[name] = attach(images[name])
        listed = ql('volumes')
        rows = {name: next((l for l in listed.stdout.splitlines() if devices[name] in l), '') for name in devices}
        results.append(('attached images are listed as not mounted, with label and file system',
                        rows['ext'].startswith('not mounted') and 'QLEXT' in rows['ext'] and ' ext4 ' in rows['ext']
                        and 'QLFAT' in rows['fat'] and ' vfat ' in rows['fat'] and ' unknown ' in rows['blank'],
                        ' | '.join(' '.join(r.split()) for r in rows.values())))
        as_json = [json.loads(l) for l in ql('volumes', '--json').stdout.splitlines()]
        ext = next((o for o in as_json if o.get('device') == devices['ext']), {})
        results.append(('--json gives the same', ext.get('state') == 'not mounted' and ext.get('label') == 'QLEXT' and ext.get('size') == 32 << 20, str(ext)))

        mounted = ql('volumes', 'mount', 'QLEXT')
        point = mounted.stdout.strip()
        try:
            content = open(point + '/hello.txt').read()
        except OSError as e:
            content = str(e)
        results.append(('mount QLEXT: under /media/root/QLEXT, a file read', mounted.returncode == 0 and point == '/media/root/QLEXT'
                        and content == 'hello from ext4\n', point + ' ' + mounted.stderr.strip() + ' ' + content.strip()))
        relisted = ql('volumes').stdout
        results.append(('then listed as mounted, no longer as not mounted',
                        any(l.startswith('mounted') and point in l for l in relisted.splitlines())
                        and not any(l.startswith('not mounted') and devices['ext'] in l for l in relisted.splitlines()), ''))

        holder = subprocess.Popen([sys.executable, '-c', 'import sys,time; f=open(sys.argv[1]); print("open", flush=True); time.sleep(60)',
                                   point + '/hello.txt'], stdout=subprocess.PIPE, text=True, cwd=work)
        holder.stdout.readline()
        refused = ql('volumes', 'eject', 'QLEXT')
        said = refused.stderr.strip()
        results.append(('eject refused while a file is held open, the holder named', refused.returncode == 1
                        and ('(pid %d) has hello.txt open' % holder.pid) in said and os.path.ismount(point), said))
        holder.kill()
        holder.wait()
        holder = None
        ejected = ql('volumes', 'eject', point)
        results.append(('eject after: safe to remove, unmounted, the folder gone', ejected.returncode == 0 and 'removed safely' in ejected.stdout
                        and not os.path.exists(point), ejected.stdout.strip() + ejected.stderr.strip()))

        fat = ql('volumes', 'mount', devices['fat'], SUDO_USER='nobody', SUDO_UID='65534', SUDO_GID='65534')
        fat_point = fat.stdout.strip()
        written = False
        if fat.returncode == 0:
            with open(fat_point + '/note.txt', 'w') as f:
                f.write('on fat')
            written = open(fat_point + '/note.txt').read() == 'on fat'
        kind = next((l.split()[2] for l in ql('volumes').stdout.splitlines() if l.startswith('mounted') and fat_point in l), '?')
        results.append(('mount the FAT image by device: under /media/nobody/QLFAT (sudo\'s user), written and read',
                        fat.returncode == 0 and fat_point == '/media/nobody/QLFAT' and written, '%s as %s %s' % (fat_point, kind, fat.stderr.strip())))
        fat_out = ql('volumes', 'eject', 'QLFAT')
        results.append(('FAT ejected', fat_out.returncode == 0 and not os.path.exists(fat_point), fat_out.stdout.strip() + fat_out.stderr.strip()))

        blank = ql('volumes', 'mount', devices['blank'])
        results.append(('no file system: said, with what to run', blank.returncode == 1 and 'no file system' in blank.stderr
                        and 'fsck' in blank.stderr, blank.stderr.strip()))
        broken = ql('volumes', 'mount', 'QLBROKEN')
        results.append(('damaged ext4: said, with the repair command', broken.returncode == 1 and 'damaged' in broken.stderr
                        and ('fsck.ext4 %s' % devices['broken']) in broken.stderr and not os.path.exists('/media/root/QLBROKEN'), broken.stderr.strip()))
        missing = ql('volumes', 'mount', 'NOSUCHLABEL')
        results.append(('an unknown name is said', missing.returncode == 1 and 'NOSUCHLABEL' in missing.stderr, missing.stderr.strip()))
    finally:
        if holder is not None:
            holder.kill()
        for point in ('/media/root/QLEXT', '/media/nobody/QLFAT', '/media/root/QLBROKEN'):
            if os.path.ismount(point):
                subprocess.run(['umount', '-l', point], capture_output=True)
        for device in devices.values():
            subprocess.run([sbin('losetup'), '-d', device], capture_output=True)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
