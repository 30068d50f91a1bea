#!/usr/bin/python3
"""faultfs: a passthrough FUSE filesystem that can turn slow, hang, fail or vanish on demand, so
integration tests can see how qlbrowse copes with a dying USB stick or SMB share.

usage: /usr/bin/python3 faultfs.py SOURCE_DIR MOUNTPOINT [--control FILE]

Mirrors SOURCE_DIR read-write at MOUNTPOINT, in the foreground, one thread per request (a stuck
call must not stop the others). mountinfo shows fstype `fuse.faultfs`, source `faultfs` (the
subtype option gives the suffix; fusepy alone would give plain `fuse`).

Faults come from the control file (default MOUNTPOINT.control, beside the mount, never inside it:
reading it through the mount would deadlock). It is plain JSON, re-read when it changes (checked
on every call and every 50 ms), so faults switch without remounting. A missing or half-written
file keeps the last good settings (none at start); unknown keys are ignored.
  latency_ms        sleep before every call
  hang              every call blocks until hang is switched off or the connection is aborted
  hang_paths        ["/slow", ...]: only calls on these paths or below them hang
  eio               every call fails with EIO
  eio_paths         as hang_paths, for eio
  readdir_delay_ms  sleep after every 100 entries listed (listings stream: each getdents gets
                    what is ready; a kernel request holds up to the caller's buffer, on
                    kernel 6.18 ~800 short names for glibc's 32 KiB getdents)
  read_delay_ms     sleep in every read call, one read at a time (a copy crawls)
  read_mb_per_s     reads share this throughput (MB/s): each read waits its turn on one wire
                    and the time its bytes take on it (a network share's bandwidth); with
                    latency_ms, a slow share (20 MB/s, 5 ms a request)
  vanish            true: the daemon exits; the mount stays, every caller gets ENOTCONN
                    (a crashed SMB client, a yanked FUSE-driven stick).
                    "lazy": the daemon detaches the mount (fusermount3 -uz); paths under it then
                    give ENOENT, open files keep working (a stick unmounted behind our back).
Order within a call: vanish, latency, hang, eio. init/destroy never fault.

Driven by faultfs_ctl.py (mount, set, abort, unmount) beside this file.
"""
import argparse, errno, json, os, subprocess, sys, threading, time

from fusepy import FUSE, FuseOSError, Operations, c_stat, set_st_attrs


def under(path, prefixes):
    """True when prefixes is empty (fault everywhere) or path is one of them or below one."""
    if not prefixes:
        return True
    return any(path == p.rstrip('/') or path.startswith(p.rstrip('/') + '/')
               for p in prefixes)


class Faults:
    def __init__(self, control, mountpoint):
        self.control, self.mountpoint = control, mountpoint
        self.settings, self.stamp, self.lock = {}, None, threading.Lock()
        self.detached = False

    def get(self):
        """Current settings; re-reads the file only when inode, mtime or size changed (cheap)."""
        try:
            st = os.stat(self.control)
            stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        except FileNotFoundError:
            stamp = None
        with self.lock:
            if self.detached:
                # After a lazy vanish the file may soon belong to a new mount at the same place.
                return {}
            if stamp != self.stamp:
                if stamp is None:
                    self.settings, self.stamp = {}, None
                else:
                    try:
                        with open(self.control) as f:
                            loaded = json.load(f)
                        if isinstance(loaded, dict):
                            self.settings, self.stamp = loaded, stamp
                    except (OSError, ValueError):
                        pass  # written in place and caught half-way: try again next call
            settings = self.settings
            if settings.get('vanish') == 'lazy':
                # umount does not wait for this daemon, so calling it from a request is safe.
                subprocess.run(['fusermount3', '-uz', self.mountpoint], stderr=subprocess.DEVNULL)
                self.detached = True
                return {}
            if settings.get('vanish'):
                # Closing /dev/fuse by dying is what a crash looks like: the kernel ends every
                # request and the dead mount answers ENOTCONN until someone unmounts it.
                os._exit(0)
        return settings

    def apply(self, path):
        s = self.get()
        if s.get('latency_ms'):
            time.sleep(s['latency_ms'] / 1000)
        # Poll rather than wait on an event: the switch lives in a file another process writes.
        while s.get('hang') and under(path, s.get('hang_paths')):
            time.sleep(0.05)
            s = self.get()
        if s.get('eio') and under(path, s.get('eio_paths')):
            raise FuseOSError(errno.EIO)
        return s


class FaultFS(Operations):
    use_ns = True

    def __init__(self, source, faults):
        self.source, self.faults = source, faults
        self.listings, self.next_dir, self.read_lock = {}, 0, threading.Lock()
        # The one wire read_mb_per_s shares: when it is free next.
        self.wire_lock, self.wire_free = threading.Lock(), 0.0

    def __call__(self, op, *args):
        if op not in ('init', 'destroy'):
            self.faults.apply(args[0] if args and isinstance(args[0], str) else '/')
        return getattr(self, op)(*args)

    def real(self, path):
        return self.source + path

    def getattr(self, path, fh=None):
        st = os.fstat(fh) if fh is not None else os.lstat(self.real(path))
        attrs = {k: getattr(st, k) for k in ('st_mode', 'st_nlink', 'st_uid', 'st_gid', 'st_size',
                                             'st_blocks', 'st_ino', 'st_rdev')}
        return attrs | {k: getattr(st, k + '_ns') for k in ('st_atime', 'st_mtime', 'st_ctime')}

    def access(self, path, mode):
        if not os.access(self.real(path), mode):
            raise FuseOSError(errno.EACCES)

    # A directory is listed once at opendir; readdir hands it out from an offset so a listing
    # can be served across many kernel requests, each delayed, instead of all in the first one.
    def opendir(self, path):
        names = ['.', '..'] + os.listdir(self.real(path))
        with self.faults.lock:
            self.next_dir += 1
            self.listings[self.next_dir] = names
            return self.next_dir

    def readdir(self, path, fh, offset=0):
        names = self.listings.get(fh) or ['.', '..'] + os.listdir(self.real(path))
        for i in range(offset, len(names)):
            yield names[i], None, i + 1
            # Reached only when the kernel took entry i, so each 100 taken costs one sleep.
            delay = self.faults.get().get('readdir_delay_ms')
            if delay and (i + 1) % 100 == 0:
                time.sleep(delay / 1000)

    def releasedir(self, path, fh):
        self.listings.pop(fh, None)

    def readlink(self, path):
        return os.readlink(self.real(path))

    def open(self, path, flags):
        return os.open(self.real(path), flags)

    def create(self, path, mode, fi=None):
        # The kernel calls create only after a failed lookup, so no O_TRUNC; RDWR because fusepy
        # does not tell us the caller's access mode.
        return os.open(self.real(path), os.O_RDWR | os.O_CREAT, mode)

    def read(self, path, size, offset, fh):
        data = self.read_at(path, size, offset, fh)
        rate = self.faults.get().get('read_mb_per_s')
        if rate:
            with self.wire_lock:
                start = max(self.wire_free, time.monotonic())
                self.wire_free = start + len(data) / (rate * 1e6)
                done = self.wire_free
            time.sleep(max(0.0, done - time.monotonic()))
        return data

    def read_at(self, path, size, offset, fh):
        delay = self.faults.get().get('read_delay_ms')
        if delay:
            # One read at a time, as on a slow stick: readahead sends several reads at once and
            # parallel sleeps would make the copy barely slower.
            with self.read_lock:
                time.sleep(delay / 1000)
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        if fh is not None:
            os.ftruncate(fh, length)
        else:
            os.truncate(self.real(path), length)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        (os.fdatasync if datasync else os.fsync)(fh)

    def release(self, path, fh):
        os.close(fh)

    def unlink(self, path):
        os.unlink(self.real(path))

    def mkdir(self, path, mode):
        os.mkdir(self.real(path), mode)

    def rmdir(self, path):
        os.rmdir(self.real(path))

    def symlink(self, target, source):
        os.symlink(source, self.real(target))

    def rename(self, old, new):
        os.rename(self.real(old), self.real(new))

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self.real(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self.real(path), ns=times, follow_symlinks=False)

    def statfs(self, path):
        sv = os.statvfs(self.real(path))
        return {k: getattr(sv, k) for k in ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail',
                                            'f_ffree', 'f_files', 'f_flag', 'f_frsize', 'f_namemax')}


class OffsetFUSE(FUSE):
    """fusepy drops readdir's offset; pass it on so listings can resume (see FaultFS.opendir)."""

    def readdir(self, path, buf, filler, offset, fip):
        for name, attrs, next_offset in self.operations('readdir', self._decode_optional_path(path),
                                                        fip.contents.fh, offset):
            st = None
            if attrs:
                st = c_stat()
                set_st_attrs(st, attrs, use_ns=True)
            if filler(buf, name.encode(self.encoding), st, next_offset) != 0:
                break  # kernel buffer full: the rest goes in the next request
        return 0


def outside_path(path):
    """Absolute path without stat'ing the last component: it may be a hung mount."""
    path = path.rstrip('/') or '/'
    return os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))),
                        os.path.basename(path))


def main(argv):
    parser = argparse.ArgumentParser(description='Passthrough FUSE filesystem with faults.')
    parser.add_argument('source')
    parser.add_argument('mountpoint')
    parser.add_argument('--control')
    parser.add_argument('--name', default='faultfs', help="fsname and subtype (mountinfo's source and fuse.NAME)")
    args = parser.parse_args(argv)
    source, mountpoint = os.path.realpath(args.source), outside_path(args.mountpoint)
    faults = Faults(os.path.abspath(args.control or mountpoint + '.control'), mountpoint)

    def watch():
        # Keeps 'vanish' prompt when no call is arriving to notice the file change.
        while True:
            faults.get()
            time.sleep(0.05)
    threading.Thread(target=watch, daemon=True).start()

    # Root may always; anyone else only when fuse.conf says so, or the mount fails outright.
    allow_other = os.geteuid() == 0
    if not allow_other and os.path.exists('/etc/fuse.conf'):
        with open('/etc/fuse.conf') as f:
            allow_other = any(line.strip() == 'user_allow_other' for line in f)
    # attr/entry timeouts of 0: a fault must show on the very next call, not after the cache ages.
    OffsetFUSE(FaultFS(source, faults), mountpoint, foreground=True, nothreads=False,
               fsname=args.name, subtype=args.name, allow_other=allow_other,
               attr_timeout=0, entry_timeout=0, negative_timeout=0)
    # Threads still stuck in a hang would keep the interpreter alive after the loop ends.
    os._exit(0)


if __name__ == '__main__':
    main(sys.argv[1:])
