#!/usr/bin/python3
"""Drives faultfs.py for tests: start it, switch faults, abort a hung connection, tear it down.

usage: faultfs_ctl.py mount SOURCE MNT [--control FILE] [--name NAME]   start the daemon, wait for
                                                          the mount, print the daemon's pid (NAME:
                                                          fuse.NAME in mountinfo, faultfs unless given)
       faultfs_ctl.py set MNT KEY=VALUE... [--control FILE]   merge into the control file
                                                          (VALUE is JSON if it parses: true, 250,
                                                          ["/slow"]; a plain string otherwise)
       faultfs_ctl.py clear MNT [--control FILE]          no faults
       faultfs_ctl.py abort MNT                           abort the FUSE connection (fusectl)
       faultfs_ctl.py unmount MNT [--control FILE]        clear, abort if stuck, unmount, kill the
                                                          daemon; safe to repeat, leaves no mount
Importable too: mount(), set_faults(), clear(), abort(), unmount().

Nothing here stats or opens anything under MNT: on a hung mount that call would never return.
"""
import json, os, signal, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
CONNECTIONS = '/sys/fs/fuse/connections'


def outside_path(path):
    """Absolute path resolved up to, not through, the last component (it may be a hung mount)."""
    path = path.rstrip('/') or '/'
    return os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))),
                        os.path.basename(path))


def control_path(mnt, control=None):
    return os.path.abspath(control) if control else outside_path(mnt) + '.control'


def mounts():
    """(mount point, 'major:minor', fstype) for each line of mountinfo, in mount order."""
    result = []
    with open('/proc/self/mountinfo') as f:
        for line in f:
            fields = line.split()
            sep = fields.index('-')
            # mountinfo escapes space, tab, newline and backslash as octal.
            point = fields[4].encode().decode('unicode_escape').encode('latin-1').decode()
            result.append((point, fields[2], fields[sep + 1]))
    return result


def fuse_mount(mnt):
    """The topmost FUSE mount at mnt, or None."""
    mnt = outside_path(mnt)
    found = [m for m in mounts() if m[0] == mnt and m[2].startswith('fuse')]
    return found[-1] if found else None


def write_control(mnt, settings, control=None):
    # Written beside and renamed, so the daemon never reads half a file.
    path = control_path(mnt, control)
    tmp = '%s.%d.tmp' % (path, os.getpid())
    with open(tmp, 'w') as f:
        json.dump(settings, f)
    os.replace(tmp, path)


def set_faults(mnt, control=None, **settings):
    try:
        with open(control_path(mnt, control)) as f:
            current = json.load(f)
    except (OSError, ValueError):
        current = {}
    current.update(settings)
    write_control(mnt, current, control)


def clear(mnt, control=None):
    write_control(mnt, {}, control)


def connection(mnt):
    """fusectl's folder for the mount: it is named after the minor of the mount's 0:NN device."""
    m = fuse_mount(mnt)
    if m is None:
        return None
    if not any(p == CONNECTIONS and t == 'fusectl' for p, _, t in mounts()):
        subprocess.run(['mount', '-t', 'fusectl', 'none', CONNECTIONS], check=True)
    return os.path.join(CONNECTIONS, m[1].split(':')[1])


def abort(mnt):
    """Frees every caller, even in D state: calls the daemon had taken fail with ENOTCONN, calls
    still queued with ECONNABORTED, later calls with ENOTCONN until unmounted (kernel 6.18)."""
    conn = connection(mnt)
    if conn is None or not os.path.exists(conn):
        return False
    with open(os.path.join(conn, 'abort'), 'w') as f:
        f.write('1')
    return True


def daemons(mnt):
    """Pids of faultfs.py processes serving mnt, found from their command lines."""
    mnt, pids = outside_path(mnt), []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                argv = f.read().decode(errors='replace').split('\0')
            cwd = os.readlink('/proc/%s/cwd' % pid)
        except OSError:
            continue
        if not any(a.endswith('faultfs.py') for a in argv):
            continue
        positional = [a for i, a in enumerate(argv) if not a.startswith('-')
                      and not (i > 0 and argv[i - 1] == '--control')]
        if any(os.path.normpath(os.path.join(cwd, a)) == mnt for a in positional):
            pids.append(int(pid))
    return pids


def mount(source, mnt, control=None, timeout=10, name=None):
    """Starts faultfs on mnt (clearing any leftover first) and returns the daemon's pid."""
    unmount(mnt, control)
    mnt = outside_path(mnt)
    os.makedirs(mnt, exist_ok=True)
    clear(mnt, control)
    cmd = ['/usr/bin/python3', os.path.join(HERE, 'faultfs.py'), source, mnt]
    if control:
        cmd += ['--control', os.path.abspath(control)]
    if name:
        cmd += ['--name', name]
    log = open(mnt + '.log', 'w')
    # Own session: a test's Ctrl-C or process-group kill must not take the daemon down mid-call
    # and leave a dead mount behind; unmount() ends it.
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                            start_new_session=True)
    deadline = time.monotonic() + timeout
    while fuse_mount(mnt) is None:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            with open(mnt + '.log') as f:
                raise RuntimeError('faultfs did not mount %s:\n%s' % (mnt, f.read()))
        time.sleep(0.02)
    return proc.pid


def unmount(mnt, control=None):
    """Leaves no mount and no daemon for mnt, whatever state it was in. True when clean."""
    mnt = outside_path(mnt)
    if os.path.isdir(os.path.dirname(control_path(mnt, control))):
        clear(mnt, control)  # lets calls stuck in a hang return
    conn = connection(mnt)
    if conn is not None and os.path.exists(conn):
        # Hung calls poll the control file every 50 ms; still waiting after that means the
        # daemon itself is stuck or stopped, and only an abort frees the callers.
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline and read_int(os.path.join(conn, 'waiting')) > 0:
            time.sleep(0.05)
        if read_int(os.path.join(conn, 'waiting')) > 0:
            abort(mnt)
    for _ in range(10):
        if fuse_mount(mnt) is None:
            break
        # A plain unmount fails while something has a file or cwd in there; detach then.
        if subprocess.run(['fusermount3', '-u', mnt], stderr=subprocess.DEVNULL).returncode:
            subprocess.run(['fusermount3', '-uz', mnt], stderr=subprocess.DEVNULL)
    for pid in daemons(mnt):
        kill(pid)
    try:
        os.unlink(control_path(mnt, control))
    except OSError:
        pass
    return fuse_mount(mnt) is None


def vanish_under(mnt, run, timeout=60):
    """The volume goes while `run` (a Popen with pipes) uses it: the daemon dies (ENOTCONN), then
    the mount goes (its paths give ENOENT). Returns run's (stdout, stderr), ending it after
    `timeout` s with "(killed after N s)" in stderr."""
    set_faults(mnt, vanish=True)
    time.sleep(0.3)
    unmount(mnt)
    try:
        return run.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        run.kill()
        out, err = run.communicate()
        return out, err + '\n(killed after %d s)' % timeout


def read_int(path):
    try:
        with open(path) as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0


def kill(pid):
    try:
        os.kill(pid, signal.SIGTERM)
        os.kill(pid, signal.SIGCONT)  # a stopped daemon (a test simulating a stuck one) too
    except ProcessLookupError:
        return
    for _ in range(40):
        if gone(pid):
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    gone(pid)


def gone(pid):
    try:
        if os.waitpid(pid, os.WNOHANG)[0]:  # our own child (mount() called in-process)
            return True
    except ChildProcessError:
        pass
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] == 'Z'  # a zombie nobody reaps yet
    except OSError:
        return True


def parse_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def main(argv):
    control = None
    if '--control' in argv:
        i = argv.index('--control')
        control = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    name = None
    if '--name' in argv:
        i = argv.index('--name')
        name = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[0], argv[1:]
    if cmd == 'mount' and len(args) == 2:
        print(mount(args[0], args[1], control, name=name))
    elif cmd == 'set' and len(args) >= 2 and all('=' in a for a in args[1:]):
        set_faults(args[0], control, **{k: parse_value(v) for k, v in
                                        (a.split('=', 1) for a in args[1:])})
    elif cmd == 'clear' and len(args) == 1:
        clear(args[0], control)
    elif cmd == 'abort' and len(args) == 1:
        if not abort(args[0]):
            sys.exit('faultfs_ctl: no FUSE connection for %s' % args[0])
    elif cmd == 'unmount' and len(args) == 1:
        if not unmount(args[0], control):
            sys.exit('faultfs_ctl: %s is still mounted' % args[0])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
