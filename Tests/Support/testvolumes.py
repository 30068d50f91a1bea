#!/usr/bin/python3
"""Real volumes for tests, both FUSE mounts with the real fstypes and failures: an SMB share on
loopback (smbd + smbnetfs, fuse.smbnetfs) and a FAT stick image (fusefat, fuse.fusefat).

usage: testvolumes.py smb start ROOT      start smbd and smbnetfs, wait until the share lists, print
                                          its path under the mount, ROOT/mnt/127.0.0.1/pub (the
                                          server's side of it is ROOT/share)
       testvolumes.py smb stop ROOT       kill the server; calls under the mount get EIO (at
                                          once or in 2 s), but a stat of a folder smbnetfs has
                                          seen may still answer from its cache
       testvolumes.py smb pause ROOT      SIGSTOP it; listings block 3 s (smb_timeout; at times
                                          9 s: smbnetfs retries), then EIO
       testvolumes.py smb restart ROOT    start the server again after stop (same share)
       testvolumes.py smb resume ROOT     SIGCONT it; EIO goes on up to 3 s (smbnetfs' cache)
       testvolumes.py smb teardown ROOT   kill all, unmount, remove ROOT; safe to repeat
       testvolumes.py fat mount ROOT [SIZE_MB]   make ROOT/stick.img (label STICK, 64 MB), mount it
                                          at ROOT/mnt, print that. Quirks: the label shows as a
                                          0-byte file, non-ASCII names fail with EPERM
       testvolumes.py fat teardown ROOT   unmount, remove ROOT; safe to repeat
       testvolumes.py selftest            show both working, failing and cleaned up
Exits 77 (skip) when a Debian package it needs is missing. Importable too: smb_start(), smb_stop(),
smb_pause(), smb_resume(), smb_teardown(), fat_mount(), fat_teardown(); Missing is raised then.
Needs root (port 445, guest mapped to root): one SMB server per machine at a time.
Nothing here stats under a mount it tears down: on a hung mount that call would never return.
"""
import os, shutil, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faultfs_ctl import fuse_mount, kill, mounts, outside_path  # noqa: E402

SMB_TIMEOUT_MS = 3000  # smbnetfs' default 20 s would make every "server gone" test slow
PACKAGES = {'smbd': 'samba', 'smbnetfs': 'smbnetfs', 'fusefat': 'fusefat',
            'mkfs.vfat': 'dosfstools', 'fusermount3': 'fuse3'}


class Missing(RuntimeError):  # a Debian package is not installed: the caller skips
    pass


def tool(name):  # smbd and mkfs.vfat live in sbin, which a user's PATH may lack
    return shutil.which(name, path=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')


def require(*tools):
    missing = sorted({PACKAGES[t] for t in tools if not tool(t)})
    if missing:
        raise Missing('testvolumes: missing Debian packages: %s' % ' '.join(missing))


def processes():
    """(pid, argv, session id) of every process."""
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                argv = f.read().decode(errors='replace').split('\0')
            with open('/proc/%s/stat' % pid) as f:
                session = int(f.read().rsplit(')', 1)[1].split()[3])
        except (OSError, IndexError, ValueError):
            continue
        yield int(pid), argv, session


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def mounted_under(root):
    return [m[0] for m in mounts() if m[0] == root or m[0].startswith(root + '/')]


def unmount(mnt, program):
    """Unmounts mnt and kills the `program` daemons (forked helpers too) named after it."""
    for _ in range(10):
        if fuse_mount(mnt) is None:
            break
        # A plain unmount fails while something has a file or cwd in there; detach then.
        if subprocess.run(['fusermount3', '-u', mnt], stderr=subprocess.DEVNULL).returncode:
            subprocess.run(['fusermount3', '-uz', mnt], stderr=subprocess.DEVNULL)
    for pid, argv, _ in processes():
        if os.path.basename(argv[0]) == program and mnt in argv:
            kill(pid)


def remove(root):
    """Removes root unless something is still mounted in it (rmtree would walk into it)."""
    left = mounted_under(root)
    if not left:
        shutil.rmtree(root, ignore_errors=True)
    return not left


def ready(test):
    try:
        return bool(test())
    except OSError:
        return False


def wait(what, test, timeout, log=None):
    deadline = time.monotonic() + timeout
    while not ready(test):
        if time.monotonic() > deadline:
            tail = open(log, errors='replace').read()[-2000:] if log and os.path.exists(log) else ''
            raise RuntimeError('testvolumes: %s not ready after %g s\n%s' % (what, timeout, tail))
        time.sleep(0.05)


SMB_GLOBAL = ['interfaces = lo', 'bind interfaces only = yes', 'smb ports = 445',
              'disable netbios = yes', 'map to guest = Bad User', 'guest account = root',
              'load printers = no', 'printcap name = /dev/null', 'disable spoolss = yes']
SMB_SHARE = ['guest ok = yes', 'read only = no', 'force user = root']
SMB_DIRS = ['state directory', 'cache directory', 'lock directory', 'pid directory',
            'private dir', 'ncalrpc dir', 'binddns dir']  # all of smbd's state stays in ROOT
# Our own smbnetfs.conf, not /etc's, whose include lines would read more of ~/.smb. Mode 600,
# or smbnetfs ignores the auth line; no browsing, so nothing but 127.0.0.1 is ever asked.
SMBNETFS_CONF = 'auth "guest" ""\nuse_libsecret "false"\nsmb_query_browsers "false"\n' \
                'smb_timeout %d\n' % SMB_TIMEOUT_MS


def server_pids(root):
    """smbd -D leads a session its children (one per client) stay in; samba-dcerpcd and its
    rpcd_* workers, started when a client lists the shares, are in one of their own but are
    told our config file."""
    conf = os.path.join(root, 'smb.conf')
    try:
        with open(os.path.join(root, 'samba', 'pid', 'smbd.pid')) as f:
            leader = int(f.read().strip())
    except (OSError, ValueError):
        leader = None
    return [pid for pid, argv, sid in processes()
            if (sid == leader and 'smbd' in argv[0]) or '--configfile=' + conf in argv]


def port_open(port=445):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(('127.0.0.1', port)) == 0


def smb_start(root, timeout=20):
    """Returns the share's path under the smbnetfs mount."""
    require('smbd', 'smbnetfs', 'fusermount3')
    root = outside_path(root)
    smb_teardown(root)
    if port_open():
        raise RuntimeError('testvolumes: 127.0.0.1:445 is taken (another smb start running?)')
    dirs = [os.path.join(root, 'samba', d.split()[0]) for d in SMB_DIRS]
    home, conf = os.path.join(root, 'home'), os.path.join(root, 'smb.conf')
    for d in dirs + [os.path.join(root, 'share'), os.path.join(root, 'mnt'), home + '/.smb']:
        os.makedirs(d, exist_ok=True)
    write(conf, '\n'.join(['[global]'] + SMB_GLOBAL + ['log file = %s/smbd.log' % root]
                          + ['%s = %s' % dp for dp in zip(SMB_DIRS, dirs)]
                          + ['[pub]', 'path = %s/share' % root] + SMB_SHARE) + '\n')
    write(home + '/.smb/smb.conf', '[global]\nclient min protocol = SMB2\n')  # libsmbclient's
    write(home + '/.smb/smbnetfs.conf', SMBNETFS_CONF)
    os.chmod(home + '/.smb/smbnetfs.conf', 0o600)
    mnt, share = os.path.join(root, 'mnt'), os.path.join(root, 'mnt', '127.0.0.1', 'pub')
    log = os.path.join(root, 'smbnetfs.log')
    try:
        subprocess.run([tool('smbd'), '-D', '-s', conf], check=True)  # daemonizes
        wait('smbd on 127.0.0.1:445', port_open, timeout, os.path.join(root, 'smbd.log'))
        # HOME is where smbnetfs and libsmbclient find .smb/; smbnetfs daemonizes too.
        subprocess.run([tool('smbnetfs'), mnt, '-o', 'log_file=' + log], check=True,
                       env=dict(os.environ, HOME=home))
        wait('smbnetfs mount', lambda: fuse_mount(mnt), timeout, log)
        wait('share listing', lambda: os.listdir(share) is not None, timeout, log)  # smb_timeout
    except BaseException:
        smb_teardown(root)
        raise
    return share


def smb_signal(root, sig):
    for pid in server_pids(outside_path(root)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def smb_pause(root): smb_signal(root, signal.SIGSTOP)
def smb_resume(root): smb_signal(root, signal.SIGCONT)  # noqa: E302


def smb_stop(root):
    for pid in server_pids(outside_path(root)):
        kill(pid)  # TERM + CONT, KILL if still there after 2 s


def smb_restart(root, timeout=20):
    """The server comes back (after smb stop), with the same share; smbnetfs stays mounted."""
    root = outside_path(root)
    subprocess.run([tool('smbd'), '-D', '-s', os.path.join(root, 'smb.conf')], check=True)
    wait('smbd on 127.0.0.1:445', port_open, timeout, os.path.join(root, 'smbd.log'))


def smb_teardown(root):
    """Leaves no server, smbnetfs or mount for root, and removes it. True when clean."""
    root = outside_path(root)
    smb_stop(root)
    unmount(os.path.join(root, 'mnt'), 'smbnetfs')
    return remove(root)


def fat_mount(root, size_mb=64, timeout=10):
    """Returns the mount point."""
    require('fusefat', 'mkfs.vfat', 'fusermount3')
    root = outside_path(root)
    fat_teardown(root)
    mnt, img = os.path.join(root, 'mnt'), os.path.join(root, 'stick.img')
    os.makedirs(mnt)
    with open(img, 'wb') as f:
        f.truncate(size_mb << 20)
    subprocess.run([tool('mkfs.vfat'), '-n', 'STICK', img], check=True, stdout=subprocess.DEVNULL)
    try:
        with open(os.path.join(root, 'fusefat.log'), 'w') as log:  # it chats on stdout, later
            subprocess.run([tool('fusefat'), '-o', 'rw+', img, mnt], check=True, stdout=log,
                           stderr=log)  # daemonizes
        wait('fusefat mount', lambda: fuse_mount(mnt), timeout)
    except BaseException:
        fat_teardown(root)
        raise
    return mnt


def fat_teardown(root):
    root = outside_path(root)
    unmount(os.path.join(root, 'mnt'), 'fusefat')
    return remove(root)


PROBE = """import errno, os, sys, time
t, r = time.monotonic(), 'OK'
try: getattr(os, sys.argv[1])(sys.argv[2])
except OSError as e: r = errno.errorcode[e.errno]
print('%s after %.1f s' % (r, time.monotonic() - t))"""


def probe(call, path):
    """How os.<call>(path) ends, and when. In a child, so a call that never returns cannot take
    the self-test with it."""
    try:
        return subprocess.run([sys.executable, '-c', PROBE, call, path], capture_output=True,
                              text=True, timeout=60).stdout.strip()
    except subprocess.TimeoutExpired:
        return 'no answer after 60 s'


def selftest():
    require(*PACKAGES)
    base, failed = tempfile.mkdtemp(prefix='testvolumes.'), []
    fat, smb = os.path.join(base, 'fat'), os.path.join(base, 'smb')

    def check(what, ok):
        print('  %s: %s' % ('ok' if ok else 'FAILED', what))
        ok or failed.append(what)

    def fstype(mnt):
        return (fuse_mount(mnt) or ('', '', 'nothing'))[2]

    try:
        print('FAT stick (fusefat):')
        mnt = fat_mount(fat)
        check('mounted, fstype %s' % fstype(mnt), fstype(mnt) == 'fuse.fusefat')
        write(os.path.join(mnt, 'hello.txt'), 'stick')
        check('write, read back', open(os.path.join(mnt, 'hello.txt')).read() == 'stick')
        check('teardown removes all', fat_teardown(fat) and not os.path.exists(fat))
        print('SMB share on loopback (smbd + smbnetfs):')
        t = time.monotonic()
        share = smb_start(smb)
        check('smb start in %.1f s, fstype %s' % (time.monotonic() - t, fstype(smb + '/mnt')),
              fstype(smb + '/mnt') == 'fuse.smbnetfs')
        write(os.path.join(share, 'hello.txt'), 'share')
        check('written through the mount, read on the server side',
              open(os.path.join(smb, 'share', 'hello.txt')).read() == 'share')
        # Listings, as smbnetfs answers a stat of a name it has seen from its cache for a while.
        smb_pause(smb)
        print('  server paused: listing the share gets %s' % probe('listdir', share))
        smb_resume(smb)
        print('  resumed: listing gets %s; 3.5 s later %s'
              % (probe('listdir', share), time.sleep(3.5) or probe('listdir', share)))
        smb_stop(smb)
        check('smb stop leaves no server process', not server_pids(smb))
        print('  server killed: listing the share gets %s; stat of it %s, of a file in it %s'
              % (probe('listdir', share), probe('stat', share),
                 probe('stat', share + '/hello.txt')))
        check('teardown removes all', smb_teardown(smb) and not os.path.exists(smb))
    finally:
        smb_teardown(smb)
        fat_teardown(fat)
        check('nothing of ours left in mountinfo', not mounted_under(base))
        left = [pid for pid, argv, _ in processes() if any(base in a for a in argv)]
        check('no process of ours left %s' % (left or ''), not left)
        remove(base)
    print('FAILED: %s' % '; '.join(failed) if failed else 'all ok')
    return not failed


def main(argv):
    kind, cmd, args = (argv + ['', ''])[0], (argv + ['', ''])[1], argv[2:]
    try:
        if kind == 'selftest' and not argv[1:]:
            sys.exit(0 if selftest() else 1)
        elif (kind, cmd) == ('smb', 'start') and len(args) == 1:
            print(smb_start(args[0]))
        elif kind == 'smb' and cmd in ('stop', 'pause', 'resume', 'restart') and len(args) == 1:
            {'stop': smb_stop, 'pause': smb_pause, 'resume': smb_resume, 'restart': smb_restart}[cmd](args[0])
        elif (kind, cmd) == ('fat', 'mount') and len(args) in (1, 2):
            print(fat_mount(args[0], *map(int, args[1:])))
        elif kind in ('smb', 'fat') and cmd == 'teardown' and len(args) == 1:
            if not (smb_teardown if kind == 'smb' else fat_teardown)(args[0]):
                sys.exit('testvolumes: something is still mounted under %s' % args[0])
        else:
            sys.exit(__doc__)
    except Missing as e:
        print(e, file=sys.stderr)
        sys.exit(77)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        sys.exit(str(e))  # what failed, without a traceback


if __name__ == '__main__':
    main(sys.argv[1:])
