#!/usr/bin/python3
"""Connecting through GVfs and keeping passwords in the keyring, on qlbrowse's side (issue 25).
GVfs cannot run here (it needs systemd and udev), so the test puts a fake `gio` and a fake
`secret-tool` first on PATH: each writes down what it was given (arguments, standard input,
whether the password was in its environment) and behaves as the real one does (gio asks
"User [..]: Domain [..]: Password: " on stdout, reads the answers from stdin, asks again after a
wrong password, makes the server's folder in gvfsd-fuse's mount; secret-tool stores what stdin
says and prints it on lookup). gvfsd-fuse's mount is faultfs mounted as `gvfsd-fuse` at
$XDG_RUNTIME_DIR/gvfs, with a session bus address set: what qlbrowse looks for. The servers'
ports answer (qlbrowse asks a port before mounting) in a network namespace of the test's own.

usage: gvfs.py QLBROWSE WORKDIR

Needs root (the namespace and FUSE). Exit 0 when all pass, 77 without unshare or python3-fusepy.
"""
import json, os, shutil, socket, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ptybrowser import Browser, PtyCommand, summarize  # noqa: E402


def row_of(browser, text):
    """The volumes view's line index (0 = first volume) of the line holding `text`."""
    lines = [l for l in browser.text().splitlines() if any(k in l for k in ('local ', 'removable ', 'network '))]
    return next((i for i, l in enumerate(lines) if text in l), None)

PASSWORD = 'tiger lily'

FAKE_GIO = r'''#!/usr/bin/python3
import json, os, shutil, sys
LOG, ROOT, PASSWORD = %r, %r, %r
data = sys.stdin.buffer.read().decode()
lines = data.split('\n')
with open(LOG, 'a') as log:
    log.write(json.dumps({'argv': sys.argv[1:], 'stdin': data, 'env': any(PASSWORD in v for v in os.environ.values())}) + '\n')
args = sys.argv[1:]
if args == ['mount', '-l']:
    sys.exit(0)
if len(args) == 3 and args[:2] == ['mount', '-u']:
    for name in os.listdir(ROOT):
        shutil.rmtree(os.path.join(ROOT, name))
    sys.exit(0)
url = args[1]
scheme, rest = url.split('://', 1)
who, _, tail = rest.partition('/')
user, _, hostport = who.rpartition('@')
host, _, port = hostport.partition(':')
if scheme == 'smb':
    folder = 'smb-share:server=%%s,share=%%s%%s' %% (host, tail.split('/')[0], ',user=' + user if user else '')
else:
    folder = 'sftp:host=%%s%%s%%s' %% (host, ',port=' + port if port else '', ',user=' + user if user else '')
answers = iter(lines[:-1] if data.endswith('\n') else lines if data else [])
while True:
    print('Authentication Required\nEnter password for %%s:' %% url)
    if scheme == 'smb':
        print('User [%%s]: ' %% (user or 'root'), end='')
        next(answers, None)
        print('Domain [WORKGROUP]: ', end='')
        next(answers, None)
    print('Password: ', end='', flush=True)
    given = next(answers, None)
    if given is None:
        print()
        sys.stderr.write('gio: %%s: Password dialog cancelled\n' %% url)
        sys.exit(2)
    if given == PASSWORD:
        break
path = os.path.join(ROOT, folder)
os.makedirs(os.path.join(path, tail.partition('/')[2] if scheme == 'smb' else tail), exist_ok=True)
with open(os.path.join(path, tail.partition('/')[2] if scheme == 'smb' else tail, 'report.txt'), 'w') as f:
    f.write('through gvfs\n')
'''

FAKE_SECRET_TOOL = r'''#!/usr/bin/python3
import json, os, sys
LOG, KEYRING, PASSWORD = %r, %r, %r
args = sys.argv[1:]
data = sys.stdin.read() if args[:1] == ['store'] else ''
with open(LOG, 'a') as log:
    log.write(json.dumps({'argv': args, 'stdin': data, 'env': any(PASSWORD in v for v in os.environ.values())}) + '\n')
kept = json.load(open(KEYRING)) if os.path.exists(KEYRING) else {}
key = ' '.join(a for a in args[1:] if not a.startswith('--'))
if args[0] == 'store':
    kept[key] = data
    json.dump(kept, open(KEYRING, 'w'))
elif args[0] == 'lookup':
    if key not in kept:
        sys.exit(1)
    sys.stdout.write(kept[key])
'''


def calls(path):
    return [json.loads(line) for line in open(path)] if os.path.exists(path) else []


def listen(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(('127.0.0.1', port))
    s.listen(16)
    return s


def terminal(qlbrowse, env, url, answer):
    """qlbrowse connect on a terminal: the password typed, then the keyring question answered."""
    command = PtyCommand([qlbrowse, 'connect', url], env)
    asked = command.until(b'Password for root@127.0.0.1: ')
    command.type(PASSWORD.encode() + b'\n')
    question = command.until(b'keep the password in the keyring? (y/N) ')
    command.type(answer + b'\n')
    command.until(b'\n', 2)
    status = command.finish()
    return asked and question and status == 0, command.transcript()


def main():
    if os.geteuid() == 0 and os.environ.get('QLBROWSE_TEST_NETNS') != '1' and shutil.which('unshare'):
        os.environ['QLBROWSE_TEST_NETNS'] = '1'
        os.execvp('unshare', ['unshare', '--net', '--', sys.executable] + sys.argv)
    try:
        import fusepy  # noqa: F401
    except ImportError:
        print('gvfs.py: needs python3-fusepy')
        return 77
    if os.environ.get('QLBROWSE_TEST_NETNS') != '1':
        print('gvfs.py: needs root and unshare')
        return 77
    subprocess.run(['ip', 'link', 'set', 'lo', 'up'], check=True)
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    run, source, bin_ = work + '/run', work + '/gvfs-source', work + '/bin'
    for folder in (run, source, bin_):
        os.makedirs(folder, mode=0o700)
    root = run + '/gvfs'
    gio_log, secret_log = work + '/gio.log', work + '/secret-tool.log'
    for name, text in (('gio', FAKE_GIO % (gio_log, root, PASSWORD)), ('secret-tool', FAKE_SECRET_TOOL % (secret_log, work + '/keyring.json', PASSWORD))):
        with open(bin_ + '/' + name, 'w') as f:
            f.write(text)
        os.chmod(bin_ + '/' + name, 0o755)
    os.makedirs(root)
    fuse = subprocess.Popen(['/usr/bin/python3', HERE + '/faultfs.py', source, root, '--control', work + '/gvfs.control', '--name', 'gvfsd-fuse'])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(' %s ' % root in l and 'fuse.gvfsd-fuse' in l for l in open('/proc/self/mountinfo')):
        time.sleep(0.05)
    env = dict(os.environ, LANG='C.UTF-8', XDG_STATE_HOME=work + '/state', XDG_CONFIG_HOME=work + '/config', XDG_RUNTIME_DIR=run,
               DBUS_SESSION_BUS_ADDRESS='unix:path=%s/bus' % run, PATH=bin_ + ':' + os.environ.get('PATH', '/usr/bin:/bin'))
    env.pop('QLBROWSE_SSH_COMMAND', None)
    sockets = [listen(445)]
    port = sockets[0].getsockname()[1]
    sockets.append(listen(2222))

    def ql(*words, password=None):
        return subprocess.run([qlbrowse] + list(words), input=password, capture_output=True, text=True, timeout=60, env=env)

    def clean(log):
        """Every call so far had the password nowhere but on its standard input."""
        return all(not any(PASSWORD in a for a in c['argv']) and not c['env'] for c in calls(log))

    results = []
    url = 'smb://alice@127.0.0.1/pub'
    folder = root + '/smb-share:server=127.0.0.1,share=pub,user=alice'
    try:
        wrong = ql('connect', '--password-stdin', url, password='not it\n')
        results.append(('GVfs: a wrong password is said (gio asked again)', wrong.returncode == 1 and 'refused the user name or password' in wrong.stderr,
                        wrong.stderr.strip()))
        nopass = ql('connect', url)
        results.append(('GVfs: no password: it says one is wanted', nopass.returncode == 1 and 'wants a user name and password' in nopass.stderr, nopass.stderr.strip()))
        good = ql('connect', '--password-stdin', url, password=PASSWORD + '\n')
        mounts = [c for c in calls(gio_log) if c['argv'][:1] == ['mount'] and c['argv'][1:2] != ['-l']]
        try:
            names = sorted(os.listdir(good.stdout.strip())) if good.stdout.strip() else []
        except OSError as e:
            names = [str(e)]
        results.append(('GVfs: connected with gio mount URL, the folder under $XDG_RUNTIME_DIR/gvfs opened', good.returncode == 0
                        and good.stdout.strip() == folder and names == ['report.txt'] and mounts[-1]['argv'] == ['mount', url],
                        '%s %s %s' % (good.stdout.strip(), names, good.stderr.strip())))
        results.append(('GVfs: gio got user, domain and password on stdin, the password in no argument or environment',
                        mounts[-1]['stdin'] == 'alice\n\n%s\n' % PASSWORD and clean(gio_log), repr(mounts[-1]['stdin'].replace(PASSWORD, '<password>'))))
        results.append(('nothing kept in the keyring without --keep-password', not [c for c in calls(secret_log) if c['argv'][0] == 'store'],
                        json.dumps(calls(secret_log))))
        listed = ql('volumes').stdout
        off = ql('disconnect', url)
        unmounts = [c['argv'] for c in calls(gio_log) if c['argv'][:2] == ['mount', '-u']]
        results.append(('GVfs: disconnect is gio mount -u URL (gvfsd-fuse stays mounted)', off.returncode == 0 and unmounts == [['mount', '-u', url]]
                        and not os.path.exists(folder) and os.path.ismount(root), off.stdout.strip() + off.stderr.strip() + ' ' + listed.replace('\n', ' | ')))
        kept = ql('connect', '--password-stdin', '--keep-password', url, password=PASSWORD + '\n')
        stores = [c for c in calls(secret_log) if c['argv'][0] == 'store']
        results.append(('--keep-password: secret-tool store got the password on stdin only', kept.returncode == 0 and len(stores) == 1
                        and stores[0]['stdin'] == PASSWORD and stores[0]['argv'][-2:] == ['qlbrowse-server', url] and clean(secret_log),
                        json.dumps([c['argv'] for c in stores]) + kept.stderr.strip()))
        ql('disconnect', url)
        before, asked_before = len(calls(gio_log)), len(calls(secret_log))
        again = ql('connect', url)
        lookups = [c['argv'] for c in calls(secret_log)[asked_before:] if c['argv'][0] == 'lookup']
        retried = [c for c in calls(gio_log)[before:] if c['argv'] == ['mount', url]]
        results.append(('the keyring is looked up before asking: connected without a password given', again.returncode == 0 and again.stdout.strip() == folder
                        and lookups == [['lookup', 'qlbrowse-server', url]] and [c['stdin'] for c in retried] == ['', 'alice\n\n%s\n' % PASSWORD],
                        again.stderr.strip() + json.dumps(lookups)))
        ql('disconnect', url)
        sftp = 'sftp://root@127.0.0.1:2222/srv/data'
        said_no, seen = terminal(qlbrowse, env, sftp, b'n')
        stored = [c['argv'] for c in calls(secret_log) if c['argv'][0] == 'store' and 'sftp' in ' '.join(c['argv'])]
        results.append(('on a terminal: asked whether to keep it; n keeps nothing', said_no and not stored, seen.replace(PASSWORD, '<password>')))
        ql('disconnect', sftp)
        said_yes, seen = terminal(qlbrowse, env, sftp, b'y')
        stored = [c for c in calls(secret_log) if c['argv'][0] == 'store' and 'sftp' in ' '.join(c['argv'])]
        results.append(('on a terminal: y keeps it (asked again first: nothing was kept after n)', said_yes and len(stored) == 1 and stored[0]['stdin'] == PASSWORD
                        and [c['stdin'] for c in calls(gio_log) if c['argv'][1:2] == [sftp]][-1] == PASSWORD + '\n', seen.replace(PASSWORD, '<password>')))
        ql('disconnect', sftp)

        os.unlink(work + '/keyring.json')  # so that the browser asks
        browser = Browser([qlbrowse, work], env)
        try:
            browser.send(b'VC')
            browser.wait_for('server (smb://…, sftp://… or ssh://…', 5)
            browser.send(url.encode() + b'\r')
            asked = browser.wait_for('password for alice@127.0.0.1:', 15) is not None
            stores_before = len([c for c in calls(secret_log) if c['argv'][0] == 'store'])
            browser.send(PASSWORD.encode() + b'\r')
            question = browser.wait_for('keep the password in the keyring? (y/N)', 15) is not None and browser.wait_for('report.txt', 5) is not None
            browser.send(b'n')
            declined = browser.wait_for('the password was not kept', 5) is not None
            time.sleep(0.5)
            stores_after = len([c for c in calls(secret_log) if c['argv'][0] == 'store'])
            results.append(('in the browser: C, the password, "keep the password in the keyring? (y/N)", n keeps nothing',
                            asked and question and declined and stores_after == stores_before, browser.text().splitlines()[-1].strip()))
            browser.send(b'V')
            browser.wait_for(' gvfs ', 5)
            browser.send(b'g' + b'j' * (row_of(browser, ' gvfs ') or 0) + b'E')
            gone = browser.wait_for('disconnected from pub on 127.0.0.1', 10) is not None
            results.append(('in the browser: E on the gvfs volume disconnects with gio mount -u', gone and not os.path.exists(folder) and os.path.ismount(root),
                            browser.text().splitlines()[-1].strip()))
            results.append(browser.quit(b'\x1bq'))
            browser = None
        finally:
            if browser is not None:
                browser.kill()
    finally:
        for s in sockets:
            s.close()
        subprocess.run(['fusermount3', '-u', root], capture_output=True)
        fuse.wait(timeout=10)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
