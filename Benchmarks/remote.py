#!/usr/bin/python3
"""A remote folder of 2,000 photos over a slow link, side by side in one run: qlbrowse's own
remote place (`ssh://`, thumbnails made where the files are) against the same qlbrowse on an
sshfs mount of the same folder (thumbnails made here from files read over the link), and the
SFTP fallback (`ssh://` to a remote without qlbrowse: embedded previews from ranged reads, whole
files read into the local cache only for the full pictures).

The link: a real sshd on loopback (keys made here, host key checked) reached through a shaper
in this script that delays every chunk by DELAY one way (2 x 25 ms = 50 ms round trip) and paces
each direction to RATE (20 Mbit/s). The kernel's netem would be the usual tool; this machine's
kernel has no sch_netem ("Specified qdisc kind is unknown"), and a shaper in user space also
keeps the rest of the machine's loopback traffic untouched.

Measured for each, cold (empty caches on both sides) then warm (second visit): the time from
starting the browser to the last picture of the first grid screen (120x40, kitty graphics),
the pictures drawn, and the bytes that crossed the link. Target (issue #26): first grid <= 2 s.

With --trace DIR, both sides write the remote protocol's timestamps (QLBROWSE_TRACE) to
DIR/ssh-VISIT.log (the browser's log, with its picture lines) and DIR/ssh-VISIT-remote.log.

usage: Benchmarks/remote.py [--qlbrowse PATH] [--photos N] [--delay-ms 25] [--mbit 20] [--trace DIR] [--only ssh,sftp,sshfs]
"""
import argparse, os, re, select, shutil, socket, subprocess, sys, tempfile, threading, time, queue

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import spawn, read_chunk, drain_until_exit  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class SlowLink:
    """A TCP relay to `target_port` that delays and paces each direction, counting the bytes."""

    def __init__(self, target_port, delay, bits_per_second):
        self.target_port, self.delay, self.rate = target_port, delay, bits_per_second / 8.0
        self.bytes = 0
        self.lock = threading.Lock()
        self.listener = socket.socket()
        self.listener.bind(('127.0.0.1', 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(('127.0.0.1', self.target_port))
            for source, sink in ((client, server), (server, client)):
                self.pump(source, sink)

    def pump(self, source, sink):
        chunks = queue.Queue()

        def receive():
            while True:
                try:
                    data = source.recv(65536)
                except OSError:
                    data = b''
                chunks.put((time.monotonic(), data))
                if not data:
                    return

        def deliver():
            wire_free = 0.0
            while True:
                arrived, data = chunks.get()
                if not data:
                    try:
                        sink.shutdown(socket.SHUT_WR)
                    except OSError:
                        pass
                    return
                wire_free = max(wire_free, arrived) + len(data) / self.rate
                wait = wire_free + self.delay - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                with self.lock:
                    self.bytes += len(data)
                try:
                    sink.sendall(data)
                except OSError:
                    return

        threading.Thread(target=receive, daemon=True).start()
        threading.Thread(target=deliver, daemon=True).start()

    def take_bytes(self):
        with self.lock:
            count, self.bytes = self.bytes, 0
        return count


class LoopbackSSH:
    """sshd on a free loopback port with keys of its own; `ssh_command` reaches it through `port`."""

    def __init__(self, folder):
        self.folder = folder
        for key in ('host_key', 'client_key'):
            subprocess.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', os.path.join(folder, key)], check=True)
        shutil.copy(os.path.join(folder, 'client_key.pub'), os.path.join(folder, 'authorized_keys'))
        probe = socket.socket()
        probe.bind(('127.0.0.1', 0))
        self.port = probe.getsockname()[1]
        probe.close()
        with open(os.path.join(folder, 'sshd_config'), 'w') as config:
            config.write(f'Port {self.port}\nListenAddress 127.0.0.1\nHostKey {folder}/host_key\nPidFile {folder}/sshd.pid\n'
                         f'AuthorizedKeysFile {folder}/authorized_keys\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n'
                         'UsePAM no\nStrictModes no\nLogLevel ERROR\nSubsystem sftp /usr/lib/openssh/sftp-server\n')
        self.server = subprocess.Popen(['/usr/sbin/sshd', '-D', '-e', '-f', os.path.join(folder, 'sshd_config')],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(('127.0.0.1', self.port)).close()
                break
            except OSError:
                time.sleep(0.1)

    def trust(self, port):
        """known_hosts naming the host key for the shaper's port too (nothing accepted blindly)."""
        key = ' '.join(open(os.path.join(self.folder, 'host_key.pub')).read().split()[:2])
        with open(os.path.join(self.folder, 'known_hosts'), 'a') as known:
            known.write(f'[127.0.0.1]:{port} {key}\n')

    def ssh_command(self):
        folder = self.folder
        return (f'ssh -F /dev/null -i {folder}/client_key -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes '
                f'-o UserKnownHostsFile={folder}/known_hosts -o StrictHostKeyChecking=yes -o ConnectTimeout=10')

    def stop(self):
        self.server.terminate()
        self.server.wait()


def photo_folder(folder, count):
    """`count` names for the corpus's camera JPEGs (hard links, so the disk holds each once; every
    name is its own file to a thumbnailer, whose cache is keyed by the name)."""
    corpus = os.path.join(ROOT, '..', 'shared', 'corpus', 'images')
    sources = sorted(os.path.join(corpus, n) for n in os.listdir(corpus) if n.lower().endswith('.jpg')
                     and os.path.getsize(os.path.join(corpus, n)) > 150_000)
    os.makedirs(folder, exist_ok=True)
    originals = []
    for index, source in enumerate(sources):
        copy = os.path.join(folder, 'original%02d.jpg' % index)
        shutil.copy(source, copy)
        originals.append(copy)
    for index in range(count - len(originals)):
        os.link(originals[index % len(originals)], os.path.join(folder, 'photo%04d.jpg' % index))
    return sum(os.path.getsize(o) for o in originals) / len(originals)


def first_grid(qlbrowse, target, env):
    """Starts the browser on `target` and asks for the grid as soon as it has drawn anything (a
    user opening the folder in the grid view); returns (seconds from start to the last picture
    of the first screen, pictures transmitted, seconds from start to the first screen).

    A picture's time is when the chunk holding the end of its transmission arrived (the command
    with its last part, `m=0` or no `m`), not when the output fell quiet afterwards: the end is
    told by 5 s without output (or 90 s in all), and those 5 s are not the browser's."""
    started = time.monotonic()
    pid, fd = spawn([qlbrowse, '--graphics', 'kitty', target], env, cols=120, rows=40)
    transmissions = KittyTransmissions()
    transmissions.feed(read_chunk(fd))
    first_screen = time.monotonic() - started
    os.write(fd, b'v')
    last_picture = started
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 5.0)
        if not ready:
            break
        try:
            chunk = read_chunk(fd)
        except OSError:
            break
        if not chunk:
            break
        if transmissions.feed(chunk):
            last_picture = time.monotonic()
    pictures = transmissions.complete
    os.write(fd, b'q')
    drain_until_exit(pid, fd)
    os.close(fd)
    return last_picture - started, len(pictures), first_screen


class KittyTransmissions:
    """The kitty images whose transmission has ended, read as the output comes: a transmission
    starts with a=T or a=t and an id, goes on in parts with m=1, and its last part has m=0 (or
    no m at all)."""

    def __init__(self):
        self.pending = bytearray()
        self.current = None
        self.complete = set()

    def feed(self, chunk):
        """Reads `chunk`; whether an image's transmission ended in it."""
        self.pending += chunk
        ended = False
        while True:
            start = self.pending.find(b'\x1b_G')
            if start < 0:
                # Keep a last ESC, which may begin the next command.
                self.pending = self.pending[-1:] if self.pending.endswith(b'\x1b') else bytearray()
                return ended
            end = self.pending.find(b'\x1b\\', start)
            if end < 0:
                del self.pending[:start]
                return ended
            command = bytes(self.pending[start + 3:end]).split(b';', 1)[0]
            del self.pending[:end + 2]
            keys = dict(part.split(b'=', 1) for part in command.split(b',') if b'=' in part)
            if keys.get(b'a') in (b'T', b't') and b'i' in keys:
                self.current = keys[b'i']
            if self.current is not None and keys.get(b'm', b'0') == b'0':
                if self.current not in self.complete:
                    self.complete.add(self.current)
                    ended = True
                self.current = None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build', 'release', 'qlbrowse'))
    parser.add_argument('--photos', type=int, default=2000)
    parser.add_argument('--delay-ms', type=float, default=25)
    parser.add_argument('--mbit', type=float, default=20)
    parser.add_argument('--trace', metavar='DIR', help='write both sides\' timestamps of the ssh:// runs there')
    parser.add_argument('--only', default='ssh,sftp,sshfs', help='the columns measured (comma-separated: ssh, sftp, sshfs)')
    arguments = parser.parse_args()
    qlbrowse = os.path.abspath(arguments.qlbrowse)
    work = tempfile.mkdtemp(prefix='qlbrowse-remote-bench-')
    mount = os.path.join(work, 'mnt')
    os.makedirs(mount)
    ssh = LoopbackSSH(work)
    link = SlowLink(ssh.port, arguments.delay_ms / 1000, arguments.mbit * 1e6)
    ssh.trust(link.port)
    photos = os.path.join(work, 'remote', 'photos')
    average = photo_folder(photos, arguments.photos)
    print(f'{arguments.photos} photos (average {average / 1e6:.1f} MB) behind a link of {2 * arguments.delay_ms:.0f} ms '
          f'round trip and {arguments.mbit:.0f} Mbit/s')

    def environment(name):
        home = os.path.join(work, name)
        for sub in ('config', 'cache', 'state', 'remote-cache'):
            os.makedirs(os.path.join(home, sub), exist_ok=True)
        return dict(os.environ, TERM='xterm-kitty', XDG_CONFIG_HOME=home + '/config', XDG_CACHE_HOME=home + '/cache',
                    XDG_STATE_HOME=home + '/state', QLBROWSE_NO_SERVICE='1', QLBROWSE_SSH_COMMAND=ssh.ssh_command(),
                    QLBROWSE_REMOTE_COMMAND=f'env XDG_CACHE_HOME={home}/remote-cache QLBROWSE_NO_SERVICE=1 {qlbrowse}')

    results = {}
    columns = set(arguments.only.split(','))
    try:
        remote = environment('remote-place')
        for visit in ('cold', 'warm') if 'ssh' in columns else ():
            link.take_bytes()
            traced = dict(remote)
            if arguments.trace:
                os.makedirs(arguments.trace, exist_ok=True)
                log = os.path.abspath(os.path.join(arguments.trace, f'ssh-{visit}'))
                traced['QLBROWSE_TRACE'] = '1'
                traced['QLBROWSE_REMOTE_COMMAND'] = remote['QLBROWSE_REMOTE_COMMAND'].replace(
                    'env ', f'env QLBROWSE_TRACE={log}-remote.log ', 1)
            results[('ssh://', visit)] = first_grid(qlbrowse, f'ssh://127.0.0.1:{link.port}{photos}', traced) + (link.take_bytes(),)
            if arguments.trace:
                shutil.copy(os.path.join(remote['XDG_STATE_HOME'], 'qlbrowse', 'qlbrowse.log'), log + '.log')
        # The fallback as a user meets it: the remote has no qlbrowse (a command that is not there).
        sftp = dict(environment('sftp'), QLBROWSE_REMOTE_COMMAND=os.path.join(work, 'no-such-qlbrowse'))
        for visit in ('cold', 'warm') if 'sftp' in columns else ():
            link.take_bytes()
            results[('sftp', visit)] = first_grid(qlbrowse, f'ssh://127.0.0.1:{link.port}{photos}', sftp) + (link.take_bytes(),)
        sshfs = environment('sshfs')
        if 'sshfs' not in columns:
            raise StopIteration
        subprocess.run(['sshfs', '-p', str(link.port), '-o', 'ssh_command=' + ssh.ssh_command(), f'127.0.0.1:{photos}', mount], check=True)
        try:
            for visit in ('cold', 'warm'):
                link.take_bytes()
                results[('sshfs', visit)] = first_grid(qlbrowse, mount, sshfs) + (link.take_bytes(),)
        finally:
            if subprocess.run(['fusermount3', '-u', mount], stderr=subprocess.DEVNULL).returncode != 0:
                time.sleep(2)  # the browser's workers may still be closing files there
                subprocess.run(['fusermount3', '-u', '-z', mount])
    except StopIteration:
        pass
    finally:
        ssh.stop()
        shutil.rmtree(work, ignore_errors=True)
    print('\n%-8s %-5s %16s %14s %9s %14s' % ('how', 'visit', 'first screen (s)', 'first grid (s)', 'pictures', 'bytes on link'))
    for (how, visit), (seconds, count, screen, crossed) in results.items():
        print('%-8s %-5s %16.2f %14.2f %9d %14d' % (how, visit, screen, seconds, count, crossed))
    for visit in ('cold', 'warm'):
        for how in ('ssh://', 'sftp'):
            mine, theirs = results.get((how, visit)), results.get(('sshfs', visit))
            if mine and theirs:
                print(f'{visit}: {how} / sshfs time {mine[0] / max(theirs[0], 1e-9):.2f}, bytes {mine[3] / max(theirs[3], 1):.3f}')
    if ('ssh://', 'cold') not in results:
        return 0 if all(result[1] > 0 for result in results.values()) else 1
    cold, pictures = results[('ssh://', 'cold')][:2]
    met = pictures > 0 and cold <= 2
    print(f'first grid over ssh:// cold <= 2 s: {"yes" if met else "NO"} ({cold:.2f} s, {pictures} pictures)')
    return 0 if pictures > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
