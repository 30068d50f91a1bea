#!/usr/bin/python3
"""Connecting to servers from the command line, on real servers started here on loopback: Samba
with a user and a password (445, its own passdb), and sshd on a free port with a key only, both
in a network namespace of the test's own (unshare --net), whose loopback is the test's alone: an
smbd of another test on 127.0.0.1:445 is not in the way, nor is this one in its.
Connect, list, a wrong password, no such share, an
unknown host, a refused port, silence with a short deadline, disconnect, the recent list without
the password.

usage: servers.py QLBROWSE WORKDIR [smb|sftp]

Needs root. Exit 0 when all pass, 77 when samba, smbnetfs, sshd or sshfs is missing.
"""
import os, shutil, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import PtyCommand, summarize  # noqa: E402
from testvolumes import kill, processes, wait, write  # noqa: E402

SMB_HOST = '127.0.0.1'
PASSWORD = 'tiger lily'


def sbin(name):
    return shutil.which(name, path=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def listening(port, host='127.0.0.1'):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def start_smb(root):
    """smbd on 127.0.0.1:445, share [priv] for user alice (mapped to root) with PASSWORD."""
    # smbd's sockets live in these folders: a long test folder would overrun a socket path's 108
    # bytes, so they are in a short one of their own (ROOT/samba links to it).
    short = tempfile.mkdtemp(prefix='qlsmb.')
    os.makedirs(root, exist_ok=True)
    os.symlink(short, root + '/samba')
    dirs = {d: os.path.join(short, d.replace(' ', '-')) for d in
            ('state directory', 'cache directory', 'lock directory', 'pid directory', 'private dir', 'ncalrpc dir', 'binddns dir')}
    for d in list(dirs.values()) + [root + '/share']:
        os.makedirs(d, exist_ok=True)
    write(root + '/share/report.txt', 'from samba\n')
    write(root + '/users.map', 'root = alice\n')
    conf = root + '/smb.conf'
    write(conf, '\n'.join(['[global]', 'interfaces = %s' % SMB_HOST, 'bind interfaces only = yes', 'smb ports = 445',
                           'disable netbios = yes', 'security = user', 'map to guest = never', 'passdb backend = tdbsam:%s/passdb.tdb' % root,
                           'username map = %s/users.map' % root, 'load printers = no', 'printcap name = /dev/null', 'disable spoolss = yes',
                           'log file = %s/smbd.log' % root] + ['%s = %s' % kv for kv in dirs.items()]
                          + ['[priv]', 'path = %s/share' % root, 'valid users = root', 'read only = no', 'force user = root']) + '\n')
    subprocess.run([sbin('smbpasswd'), '-c', conf, '-a', '-s', 'root'], input='%s\n%s\n' % (PASSWORD, PASSWORD), text=True,
                   check=True, capture_output=True)
    subprocess.run([sbin('smbd'), '-D', '-s', conf], check=True)
    wait('smbd on %s:445' % SMB_HOST, lambda: listening(445, SMB_HOST), 20, root + '/smbd.log')


def stop_smb(root):
    conf = root + '/smb.conf'
    try:
        leader = int(open(os.path.join(root, 'samba', 'pid-directory', 'smbd.pid')).read())
    except (OSError, ValueError):
        leader = None
    for pid, argv, sid in processes():
        if (leader and sid == leader and 'smbd' in argv[0]) or '--configfile=' + conf in argv or ('-s' in argv and conf in argv):
            kill(pid)
    if os.path.islink(root + '/samba'):
        shutil.rmtree(os.path.realpath(root + '/samba'), ignore_errors=True)
        os.unlink(root + '/samba')


def start_sshd(root, port):
    """sshd on 127.0.0.1:port, root by key only; returns the ssh command line for qlbrowse."""
    os.makedirs(root + '/remote/photos', exist_ok=True)
    os.makedirs('/run/sshd', exist_ok=True)
    write(root + '/remote/photos/beach.jpg', 'not really a jpeg\n')
    for key in ('host', 'id'):
        subprocess.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', '%s/%s' % (root, key)], check=True)
    shutil.copy(root + '/id.pub', root + '/authorized_keys')
    write(root + '/sshd_config', '\n'.join(['Port %d' % port, 'ListenAddress 127.0.0.1', 'HostKey %s/host' % root,
                                            'AuthorizedKeysFile %s/authorized_keys' % root, 'PasswordAuthentication no',
                                            'KbdInteractiveAuthentication no', 'PermitRootLogin prohibit-password', 'StrictModes no',
                                            'UsePAM no', 'PidFile %s/sshd.pid' % root, 'Subsystem sftp internal-sftp']) + '\n')
    server = subprocess.Popen([sbin('sshd'), '-D', '-e', '-f', root + '/sshd_config'], stderr=open(root + '/sshd.log', 'w'))
    wait('sshd on %d' % port, lambda: listening(port), 20, root + '/sshd.log')
    return server


def terminal_prompt(qlbrowse, env, url):
    """qlbrowse connect on a terminal: asks the password without echo, again after a wrong one."""
    command = PtyCommand([qlbrowse, 'connect', url], env)
    prompt = b'Password for alice@127.0.0.1: '
    asked = command.until(prompt)
    command.type(b'wrong one\n')
    # The second prompt, not the first one already seen (typing before it shows is echoed, as on any terminal).
    refused = command.until(b'refused the user name or password')
    deadline = time.monotonic() + 5
    while command.seen.count(prompt) < 2 and time.monotonic() < deadline:
        command.until(b'\x00', 0.2)
    again = refused and command.seen.count(prompt) == 2
    command.type(PASSWORD.encode() + b'\n')
    command.until(b'/priv')
    # Where secret-tool is installed it then asks whether the keyring keeps the password: no.
    if command.until(b'(y/N) ', 3):
        command.type(b'\n')
    status = command.finish()
    echoed = b'wrong one' in command.seen or PASSWORD.encode() in command.seen
    return ('on a terminal, connect asks the password unechoed, again after a wrong one', asked and again and status == 0 and not echoed,
            'status %d: ' % status + command.transcript())


def main():
    if os.geteuid() == 0 and os.environ.get('QLBROWSE_TEST_NETNS') != '1' and shutil.which('unshare') and sbin('ip'):
        os.environ['QLBROWSE_TEST_NETNS'] = '1'
        os.execvp('unshare', ['unshare', '--net', '--', sys.executable] + sys.argv)
    if os.environ.get('QLBROWSE_TEST_NETNS') == '1':
        subprocess.run([sbin('ip'), 'link', 'set', 'lo', 'up'], check=True)
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    only = sys.argv[3] if len(sys.argv) > 3 else ''
    need = {'smbd': 'samba', 'smbpasswd': 'samba', 'smbnetfs': 'smbnetfs', 'sshd': 'openssh-server', 'sshfs': 'sshfs'}
    missing = sorted({p for t, p in need.items() if not sbin(t)})
    if os.geteuid() != 0 or missing:
        print('servers.py: needs root and %s' % ' '.join(missing))
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work + '/run', mode=0o700)
    env = dict(os.environ, LANG='C.UTF-8', XDG_STATE_HOME=work + '/state', XDG_CONFIG_HOME=work + '/config', XDG_RUNTIME_DIR=work + '/run')
    env.pop('QLBROWSE_SSH_COMMAND', None)
    # A gio that answers and a session bus address, but no gvfsd-fuse mount: GVfs does not run,
    # and the FUSE path must still be chosen (gio is never asked to mount).
    os.makedirs(work + '/bin')
    write(work + '/bin/gio', '#!/bin/sh\necho "$*" >> %s/gio.log\nexit 0\n' % work)
    os.chmod(work + '/bin/gio', 0o755)
    env.update(PATH=work + '/bin:' + env.get('PATH', '/usr/bin:/bin'), DBUS_SESSION_BUS_ADDRESS='unix:path=%s/run/bus' % work)

    def ql(*words, password=None, **extra):
        started = time.monotonic()
        run = subprocess.run([qlbrowse] + list(words), input=password, capture_output=True, text=True, timeout=60, env=dict(env, **extra))
        run.seconds = time.monotonic() - started
        return run

    results, sshd = [], None
    try:
        if only in ('', 'smb'):
            start_smb(work + '/smb')
            url = 'smb://alice@%s/priv' % SMB_HOST
            wrong = ql('connect', '--password-stdin', url, password='not it\n')
            results.append(('SMB: a wrong password is said', wrong.returncode == 1 and 'refused the user name or password' in wrong.stderr, wrong.stderr.strip()))
            nopass = ql('connect', url)
            results.append(('SMB: no password given: it says one is wanted', nopass.returncode == 1 and 'wants a user name and password' in nopass.stderr,
                            nopass.stderr.strip()))
            noshare = ql('connect', '--password-stdin', 'smb://alice@%s/nosuch' % SMB_HOST, password=PASSWORD + '\n')
            results.append(('SMB: no such share is said', noshare.returncode == 1 and 'no share called nosuch' in noshare.stderr, noshare.stderr.strip()))
            good = ql('connect', '--password-stdin', url, password=PASSWORD + '\n')
            folder = good.stdout.strip()
            try:
                names = sorted(os.listdir(folder)) if folder else []
            except OSError as e:
                names = [str(e)]
            results.append(('SMB: connected with the password, the share listed', good.returncode == 0 and names == ['report.txt'],
                            '%s %s in %.1f s %s' % (folder, names, good.seconds, good.stderr.strip())))
            gio = open(work + '/gio.log').read() if os.path.exists(work + '/gio.log') else ''
            results.append(('without GVfs running (no gvfsd-fuse mount) smbnetfs mounts, gio is not asked to', folder.startswith(work + '/run/qlbrowse/servers/')
                            and 'mount smb' not in gio, gio.strip()))
            leaked = [pid for pid, argv, _ in processes() if any(PASSWORD in a for a in argv)]
            recent = open(work + '/state/qlbrowse/recent-servers').read() if os.path.exists(work + '/state/qlbrowse/recent-servers') else ''
            results.append(('the password is on no command line and not in the recent list', not leaked and url in recent and PASSWORD not in recent,
                            recent.strip()))
            listed = ql('volumes').stdout
            results.append(('qlbrowse volumes lists the share as network', any(l.startswith('mounted') and 'network' in l and 'priv on 127.0.0.1' in l
                                                                                for l in listed.splitlines()), ''))
            off = ql('disconnect', url)
            mount_point = os.path.dirname(os.path.dirname(folder))
            results.append(('SMB: disconnect by address unmounts and removes the private folder', off.returncode == 0 and not os.path.exists(mount_point)
                            and not [n for n in os.listdir(work + '/run/qlbrowse/servers') if n.startswith('.smb')], off.stdout.strip() + off.stderr.strip()))
            results.append(terminal_prompt(qlbrowse, env, url))
            subprocess.run([qlbrowse, 'disconnect', url], capture_output=True, env=env, timeout=30)
            stop_smb(work + '/smb')
        if only in ('', 'sftp'):
            port = free_port()
            sshd = start_sshd(work + '/ssh', port)
            ssh = 'ssh -F /dev/null -i %s/ssh/id -o IdentitiesOnly=yes -o UserKnownHostsFile=%s/ssh/known -o StrictHostKeyChecking=accept-new' % (work, work)
            url = 'sftp://root@127.0.0.1:%d%s/ssh/remote' % (port, work)
            nokey = ql('connect', url, QLBROWSE_SSH_COMMAND='ssh -F /dev/null -o IdentitiesOnly=yes -o IdentityFile=/dev/null -o UserKnownHostsFile=%s/ssh/known -o StrictHostKeyChecking=accept-new' % work)
            results.append(('SFTP: without the key it says the keys were refused', nokey.returncode == 1 and 'refused every key' in nokey.stderr, nokey.stderr.strip()))
            good = ql('connect', url, QLBROWSE_SSH_COMMAND=ssh)
            folder = good.stdout.strip()
            try:
                names = sorted(os.listdir(folder)) if folder else []
                inside = sorted(os.listdir(folder + '/photos')) if folder else []
            except OSError as e:
                names, inside = [str(e)], []
            results.append(('SFTP: connected with a key (QLBROWSE_SSH_COMMAND), the folder listed', good.returncode == 0 and names == ['photos']
                            and inside == ['beach.jpg'], '%s %s in %.1f s %s' % (folder, names, good.seconds, good.stderr.strip())))
            nofolder = ql('connect', 'sftp://root@127.0.0.1:%d/no/such/folder' % port, QLBROWSE_SSH_COMMAND=ssh)
            results.append(('SFTP: no such folder is said', nofolder.returncode == 1 and 'has no folder /no/such/folder' in nofolder.stderr, nofolder.stderr.strip()))
            off = ql('disconnect', folder)
            results.append(('SFTP: disconnect by mount point', off.returncode == 0 and not os.path.exists(folder), off.stdout.strip() + off.stderr.strip()))
        unknown = ql('connect', 'sftp://no-such-host.invalid/x')
        results.append(('an unknown host is said', unknown.returncode == 1 and 'no server called no-such-host.invalid' in unknown.stderr, unknown.stderr.strip()))
        closed = ql('connect', 'smb://127.0.0.1:%d/x' % free_port())
        results.append(('a refused port is said', closed.returncode == 1 and 'refused the connection' in closed.stderr, closed.stderr.strip()))
        quiet = socket.socket()  # takes connections (the kernel completes them) and never says a word
        quiet.bind(('127.0.0.1', 0))
        quiet.listen(8)
        silent = ql('connect', '--timeout', '2', 'sftp://127.0.0.1:%d/x' % quiet.getsockname()[1])
        quiet.close()
        results.append(('a server that never answers: given up after the deadline', silent.returncode == 1 and 'did not answer within 2 s' in silent.stderr
                        and silent.seconds < 5, '%s after %.1f s' % (silent.stderr.strip(), silent.seconds)))
    finally:
        for point in os.listdir(work + '/run/qlbrowse/servers') if os.path.isdir(work + '/run/qlbrowse/servers') else []:
            subprocess.run(['fusermount3', '-uz', work + '/run/qlbrowse/servers/' + point], capture_output=True)
        if sshd is not None:
            sshd.kill()
            sshd.wait()
        stop_smb(work + '/smb')
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
