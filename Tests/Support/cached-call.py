#!/usr/bin/python3
"""`qlbrowse thumbnail` answered from the cache, on a local disk and on a FUSE volume that hangs.

usage: cached-call.py QLBROWSE WORKDIR

A call whose thumbnails are all cached, and whose files, output folder and cache lie on local
disks, is answered before any thread starts (issue #27); anything the mount table cannot vouch
for goes the guarded way, whose threads a hung volume cannot hold. Checked with strace (clone
calls) on real files: a photo on the local disk, one on faultfs (Tests/Support/faultfs.py), and
links from the local disk to each, and the cache's folder linked onto the volume; then, with the volume hung, the cached call of its photo must
still end (an error within its --timeout), not sleep in the kernel for good.
Prints one line per check; exit status 0 when all pass. The mount is always torn down.
"""
import os, select, shutil, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faultfs_ctl  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '.fixtures', 'small', 'landscape.jpg')


def hung_call_says(qlbrowse, work, env, path, mount):
    """The first line a `thumbnail --timeout 2` call of `path` writes to standard error, and when;
    then the volume's connection is aborted so that the call can end."""
    started = time.monotonic()
    run = subprocess.Popen([qlbrowse, 'thumbnail', '--timeout', '2', '-o', 'out', path], cwd=work, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.set_blocking(run.stderr.fileno(), False)
    line, text = None, b''
    while time.monotonic() - started < 20 and line is None:
        ready, _, _ = select.select([run.stderr], [], [], 0.1)
        if ready:
            chunk = run.stderr.read() or b''
            text += chunk
            if b'\n' in text or not chunk:
                line = text.decode(errors='replace').split('\n')[0]
    seconds = time.monotonic() - started
    faultfs_ctl.abort(mount)
    try:
        run.wait(timeout=20)
    except subprocess.TimeoutExpired:
        run.kill()
    faultfs_ctl.unmount(mount)
    faultfs_ctl.mount(os.path.join(work, 'src'), mount)
    return line, seconds


def main():
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    for folder in ('local', 'src', 'out'):
        os.makedirs(os.path.join(work, folder))
    shutil.copy(FIXTURE, os.path.join(work, 'local', 'photo.jpg'))
    shutil.copy(FIXTURE, os.path.join(work, 'src', 'remote.jpg'))
    os.symlink('photo.jpg', os.path.join(work, 'local', 'alias.jpg'))
    os.symlink('../mnt/remote.jpg', os.path.join(work, 'local', 'through.jpg'))
    env = dict(os.environ, XDG_CACHE_HOME=work + '/.cache', XDG_CONFIG_HOME=work + '/.config',
               XDG_STATE_HOME=work + '/.state', QLBROWSE_NO_SERVICE='1')
    mount = os.path.join(work, 'mnt')
    results = []

    def call(*paths, timeout=60, traced=False):
        """(status, stdout, threads started or None, seconds) of one cached-or-not call."""
        trace = os.path.join(work, 'trace.txt')
        command = [qlbrowse, 'thumbnail', '--timeout', '2', '-o', 'out', *paths]
        if traced:
            command = ['strace', '-f', '-qq', '-e', 'trace=clone,clone3', '-o', trace] + command
        started = time.monotonic()
        try:
            run = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, '', None, time.monotonic() - started
        threads = None
        if traced:
            with open(trace) as handle:
                threads = sum(1 for line in handle if 'clone' in line)
        return run.returncode, run.stdout + run.stderr, threads, time.monotonic() - started

    try:
        faultfs_ctl.mount(os.path.join(work, 'src'), mount)
        paths = ['local/photo.jpg', 'local/alias.jpg', 'mnt/remote.jpg', 'local/through.jpg']
        made = [call(path)[0] for path in paths]
        results.append(('the thumbnails made and cached (a link is cached under its own name)', made == [0] * 4, str(made)))
        for path, local in (('local/photo.jpg', True), ('local/alias.jpg', True), ('mnt/remote.jpg', False), ('local/through.jpg', False)):
            status, output, threads, _ = call(path, traced=True)
            cached = status == 0 and ' cache ' in output
            if local:
                results.append(('%s: answered from the cache, no thread started' % path, cached and threads == 0,
                                '%s thread(s); %s' % (threads, output.strip())))
            else:
                results.append(('%s: answered from the cache the guarded way (threads)' % path, cached and bool(threads),
                                '%s thread(s); %s' % (threads, output.strip())))
        # Up to 16 files are answered at once; a call for more is a batch and goes the full way.
        os.makedirs(os.path.join(work, 'local', 'many'))
        many = ['local/many/p%02d.jpg' % index for index in range(17)]
        for path in many:
            os.link(os.path.join(work, 'local', 'photo.jpg'), os.path.join(work, path))
        call(*many)
        for count, local in ((16, True), (17, False)):
            status, output, threads, _ = call(*many[:count], traced=True)
            cached = status == 0 and output.count(' cache ') == count
            results.append(('%d cached files in one call: %s' % (count, 'no thread started' if local else 'the full way (threads)'),
                            cached and (threads == 0) == local, '%s thread(s), %d answered from the cache' % (threads, output.count(' cache '))))
        # The cache's folder for this size moved onto the FUSE volume, a link left in its place:
        # the look-up would read through it, so the call goes the guarded way.
        large = os.path.join(work, '.cache', 'thumbnails', 'large')
        shutil.move(large, os.path.join(work, 'src', 'cache-large'))
        os.symlink(os.path.join(mount, 'cache-large'), large)
        status, output, threads, _ = call('local/photo.jpg', traced=True)
        results.append(('the cache folder linked onto FUSE: answered from the cache the guarded way (threads)',
                        status == 0 and ' cache ' in output and bool(threads), '%s thread(s); %s' % (threads, output.strip())))
        os.unlink(large)
        shutil.move(os.path.join(work, 'src', 'cache-large'), large)
        faultfs_ctl.set_faults(mount, hang=True)
        # Its stat is stuck in the FUSE daemon, which no signal frees: the call says so within its
        # --timeout (the process itself can end only once the volume lets the stat go).
        said, seconds = hung_call_says(qlbrowse, work, env, 'mnt/remote.jpg', mount)
        results.append(('the volume hung: the cached call of its photo says it does not answer within 2 s + 3',
                        said is not None and 'not responding' in said and seconds <= 5, '%.1f s: %s' % (seconds, said)))
        faultfs_ctl.set_faults(mount, hang=True)
        status, output, _, seconds = call('local/photo.jpg', timeout=30)
        results.append(('the volume hung: a local photo is answered from the cache', status == 0 and ' cache ' in output,
                        'status %s after %.1f s' % (status, seconds)))
    finally:
        faultfs_ctl.unmount(mount)
    failed = 0
    for name, ok, detail in results:
        print('%s %s  (%s)' % ('PASS' if ok else 'FAIL', name, detail))
        failed += not ok
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
