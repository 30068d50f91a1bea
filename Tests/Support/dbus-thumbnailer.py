#!/usr/bin/python3
"""qlbrowse as the freedesktop thumbnailer on a private D-Bus session bus, asked as a desktop program asks tumbler.

usage: dbus-thumbnailer.py QLBROWSE FIXTURES WORKDIR   (XDG_DATA_HOME holding dbus-1/services/…service)

The script runs a session bus of its own (dbus-daemon --session on a socket in WORKDIR) and kills
it, and the thumbnailer it activated, when it ends, whatever happened.

Started by D-Bus activation from a service file in $XDG_DATA_HOME/dbus-1/services (as the README
says to install it); checks Queue (Started, Ready per file, Finished; the PNG in the cache's flavor
folder carries Thumb::URI and Thumb::MTime), tumbler's error codes (a remote URI, an empty file,
a thumbnail of a thumbnail, an unknown flavor), Dequeue and handle_to_unqueue, GetSupported,
GetFlavors, GetSchedulers, signals only to the caller and never before the reply with the handle,
a second instance refused while the name is taken, the idle exit, and GetSupported answered by
the next start from the list kept in the cache folder.
Prints one line per check; exit status 1 on the first failure.
"""
import urllib.parse
import hashlib, os, shutil, subprocess, sys, time
import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402
from PIL import Image  # noqa: E402

NAME = 'org.freedesktop.thumbnails.Thumbnailer1'
PATH = '/org/freedesktop/thumbnails/Thumbnailer1'


def fail(message):
    print('dbus-thumbnailer: FAIL: ' + message, flush=True)
    sys.exit(1)


def ok(message):
    print('dbus-thumbnailer: ok: ' + message, flush=True)


class Thumbnailer:
    def __init__(self, bus):
        self.bus = bus
        self.signals = []
        # Every message in the order it arrived (the filter runs on GDBus's own thread, as they come).
        self.wire = []
        bus.add_filter(self.on_message)
        bus.signal_subscribe(NAME, NAME, None, PATH, None, Gio.DBusSignalFlags.NONE, self.on_signal)

    def on_message(self, connection, message, incoming):
        if incoming and message.get_message_type() in (Gio.DBusMessageType.SIGNAL, Gio.DBusMessageType.METHOD_RETURN):
            body = message.get_body()
            first = body.get_child_value(0).unpack() if body is not None and body.n_children() else None
            self.wire.append((message.get_message_type(), message.get_member(), first))
        return message

    def on_signal(self, connection, sender, path, interface, signal, parameters):
        self.signals.append((signal, parameters.unpack()))

    def call(self, method, parameters=None, reply='()'):
        result = self.bus.call_sync(NAME, PATH, NAME, method, parameters, GLib.VariantType(reply),
                                    Gio.DBusCallFlags.NONE, 30000, None)
        return result.unpack()

    def wait(self, condition, seconds=60):
        context = GLib.MainContext.default()
        deadline = time.time() + seconds
        while time.time() < deadline:
            while context.pending():
                context.iteration(False)
            if condition():
                return True
            time.sleep(0.02)
        return False

    def of(self, handle, kind=None):
        return [(s, p) for s, p in self.signals if p[0] == handle and (kind is None or s == kind)]

    def queue(self, uris, flavor='normal', unqueue=0):
        return self.call('Queue', GLib.Variant('(asasssu)', (uris, [''] * len(uris), flavor, 'default', unqueue)), '(u)')[0]

    def finished(self, handle, seconds=60):
        return self.wait(lambda: self.of(handle, 'Finished'), seconds)


def uri(path):
    return 'file://' + path


def listener(address):
    """A second program on the bus, listening to every signal of the interface."""
    bus = Gio.DBusConnection.new_for_address_sync(address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
                                                  Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    heard = []
    bus.signal_subscribe(None, NAME, None, PATH, None, Gio.DBusSignalFlags.NONE,
                         lambda c, s, p, i, signal, parameters: heard.append(signal))
    return bus, heard


def main():
    qlbrowse, fixtures, work = sys.argv[1:4]
    address = 'unix:path=' + os.path.join(work, 'bus')
    daemon = subprocess.Popen(['dbus-daemon', '--session', '--nofork', '--nopidfile', '--address=' + address],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.environ['DBUS_SESSION_BUS_ADDRESS'] = address
    deadline = time.time() + 10
    while not os.path.exists(os.path.join(work, 'bus')) and time.time() < deadline:
        time.sleep(0.02)
    started = []
    try:
        check(qlbrowse, fixtures, work, started)
    finally:
        for pid in started:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        daemon.kill()
        daemon.wait()


def check(qlbrowse, fixtures, work, started):
    cache = os.environ['XDG_CACHE_HOME']
    files = os.path.join(work, 'files')
    os.makedirs(files, exist_ok=True)
    for name in ('landscape.jpg', 'doc.pdf', 'clip.mp4', 'empty.jpg'):
        shutil.copy(os.path.join(fixtures, name), os.path.join(files, name))
    spaced = os.path.join(files, 'a photo é.jpg')
    shutil.copy(os.path.join(fixtures, 'landscape.jpg'), spaced)
    # A Latin-1 name (not UTF-8) beside its U+FFFD twin: the URI is percent-encoded from its bytes.
    latin = os.path.join(files.encode(), b'caf\xe9.jpg')
    shutil.copy(os.path.join(fixtures, 'landscape.jpg'), latin)
    shutil.copy(os.path.join(fixtures, 'doc.pdf'), os.path.join(files.encode(), 'caf\ufffd.jpg'.encode()))

    other, heard = listener(os.environ['DBUS_SESSION_BUS_ADDRESS'])
    bus = Gio.DBusConnection.new_for_address_sync(os.environ['DBUS_SESSION_BUS_ADDRESS'],
                                                 Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
                                                 None, None)
    thumbnailer = Thumbnailer(bus)
    # Activation: the bus starts `qlbrowse dbus` from the service file at the first call.
    flavors = thumbnailer.call('GetFlavors', None, '(as)')[0]
    if flavors != ['normal', 'large', 'x-large', 'xx-large']:
        fail('GetFlavors: %s' % flavors)
    ok('activated by the bus from the service file; GetFlavors %s' % flavors)
    schemes, types = thumbnailer.call('GetSupported', None, '(asas)')
    if len(schemes) != len(types) or set(schemes) != {'file'} or not {'image/jpeg', 'application/pdf', 'video/mp4'} <= set(types):
        fail('GetSupported: %d schemes, %d types, %s' % (len(schemes), len(types), types[:8]))
    ok('GetSupported: %d types, each with the file scheme' % len(types))
    if 'default' not in thumbnailer.call('GetSchedulers', None, '(as)')[0]:
        fail('GetSchedulers has no default')

    # Good files, at the large flavor (256 px), one with a space and an accent (escaped in the URI).
    good = [os.path.join(files, n) for n in ('landscape.jpg', 'doc.pdf', 'clip.mp4')]
    spaced_uri = 'file://' + GLib.uri_escape_string(spaced, '/', False)
    latin_uri = 'file://' + urllib.parse.quote(latin, safe="!$&'()*+,-./:=@_~")
    uris = [uri(p) for p in good] + [spaced_uri, latin_uri]
    handle = thumbnailer.queue(uris, 'large')
    if not thumbnailer.finished(handle):
        fail('no Finished for handle %d: %s' % (handle, thumbnailer.signals))
    kinds = [s for s, _ in thumbnailer.of(handle)]
    ready = [u for s, p in thumbnailer.of(handle, 'Ready') for u in p[1]]
    if kinds[0] != 'Started' or kinds[-1] != 'Finished' or sorted(ready) != sorted(uris) or thumbnailer.of(handle, 'Error'):
        fail('signals for handle %d: %s' % (handle, thumbnailer.of(handle)))
    for path, text in zip(good + [spaced, latin], uris):
        png = os.path.join(cache, 'thumbnails', 'large', hashlib.md5(text.encode()).hexdigest() + '.png')
        if not os.path.exists(png):
            fail('no %s for %s' % (png, text))
        image = Image.open(png)
        if image.info.get('Thumb::URI') != text or int(image.info.get('Thumb::MTime', -1)) != int(os.stat(path).st_mtime) \
                or max(image.size) > 256:
            fail('%s: %s %s' % (png, image.size, {k: v for k, v in image.info.items() if k.startswith('Thumb')}))
    ok('Queue at large: Started, Ready for each of %d files (one named in Latin-1), Finished; PNGs in thumbnails/large with Thumb::URI and Thumb::MTime' % len(uris))
    # The handle's reply came before any signal about it, and nobody else heard those signals.
    order = [(kind, member) for kind, member, first in thumbnailer.wire if first == handle]
    if not order or order[0][0] != Gio.DBusMessageType.METHOD_RETURN:
        fail('a signal about handle %d came before the reply that gave it: %s' % (handle, order[:3]))
    if heard:
        fail('another program on the bus heard the signals: %s' % heard)
    ok('the reply with the handle came before its signals; another program on the bus heard none of them')

    # The same files again behind one not made yet: those in the cache are announced at once, in
    # one Ready, before the new one is decoded (nothing cached waits behind a decode).
    fresh = os.path.join(files, 'fresh.jpg')
    shutil.copy(os.path.join(fixtures, 'landscape.jpg'), fresh)
    handle = thumbnailer.queue([uri(fresh)] + uris, 'large')
    if not thumbnailer.finished(handle):
        fail('no Finished for the cached files')
    readies = [p[1] for _, p in thumbnailer.of(handle, 'Ready')]
    if len(readies) != 2 or sorted(readies[0]) != sorted(uris) or readies[1] != [uri(fresh)]:
        fail('cached files not announced first, together: %s' % readies)
    ok('the %d cached files in one Ready, before the file still to be made' % len(uris))

    # Failures, with tumbler's codes.
    thumb = os.path.join(cache, 'thumbnails', 'large', hashlib.md5(uris[0].encode()).hexdigest() + '.png')
    cases = {'sftp://example.org/x.jpg': 0, uri(os.path.join(files, 'empty.jpg')): 6, uri(thumb): 3,
             'file://localhost' + good[0]: 0, uri(spaced): 0}
    handle = thumbnailer.queue(list(cases), 'normal')
    if not thumbnailer.finished(handle):
        fail('no Finished for the failures')
    codes = {u: p[2] for _, p in thumbnailer.of(handle, 'Error') for u in p[1]}
    if codes != cases:
        fail('error codes %s, expected %s; signals %s' % (codes, cases, thumbnailer.of(handle)))
    ok('Error codes as tumbler: remote URI 0, empty file 6, a thumbnail itself 3, a URI not written as the cache keys it 0 (%s)' %
       '; '.join(p[3] for _, p in thumbnailer.of(handle, 'Error')))
    handle = thumbnailer.queue(uris[:1], 'enormous')
    if not thumbnailer.finished(handle) or [p[2] for _, p in thumbnailer.of(handle, 'Error')] != [5]:
        fail('unknown flavor: %s' % thumbnailer.of(handle))
    ok('an unknown flavor is error 5 for the whole list')

    # Dequeue: a long list cancelled at once ends with Finished, most files never made.
    many = os.path.join(work, 'many')
    os.makedirs(many, exist_ok=True)
    for index in range(60):
        shutil.copy(os.path.join(fixtures, 'doc.pdf'), os.path.join(many, 'doc%02d.pdf' % index))
    handle = thumbnailer.queue([uri(os.path.join(many, n)) for n in sorted(os.listdir(many))], 'x-large')
    thumbnailer.call('Dequeue', GLib.Variant('(u)', (handle,)))
    if not thumbnailer.finished(handle, 30):
        fail('no Finished after Dequeue')
    made = len(thumbnailer.of(handle, 'Ready'))
    if made >= 60:
        fail('Dequeue cancelled nothing: %d of 60 made' % made)
    # handle_to_unqueue: a new list replaces the old one.
    first = thumbnailer.queue([uri(os.path.join(many, n)) for n in sorted(os.listdir(many))], 'xx-large')
    second = thumbnailer.queue(uris[:1], 'normal', unqueue=first)
    if not thumbnailer.finished(first, 30) or not thumbnailer.finished(second, 30) or len(thumbnailer.of(first, 'Ready')) >= 60:
        fail('handle_to_unqueue: %d made of the first list' % len(thumbnailer.of(first, 'Ready')))
    ok('Dequeue: %d of 60 made before Finished; handle_to_unqueue: %d of 60' % (made, len(thumbnailer.of(first, 'Ready'))))

    # A second instance while the name is taken leaves with a reason.
    second = subprocess.run([qlbrowse, 'dbus'], capture_output=True, text=True, timeout=30)
    if second.returncode != 1 or 'another program serves' not in second.stderr:
        fail('second instance: %d %r' % (second.returncode, second.stderr))
    ok('a second instance: %s' % second.stderr.strip())

    # Idle exit: the activated one was started with --idle-seconds 3 (the service file says so).
    owner = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetConnectionUnixProcessID',
                          GLib.Variant('(s)', (NAME,)), GLib.VariantType('(u)'), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
    def gone():
        return not os.path.exists('/proc/%d' % owner) or open('/proc/%d/stat' % owner).read().split(') ')[1].startswith('Z')
    started.append(owner)
    if not thumbnailer.wait(gone, 20):
        fail('pid %d still running 20 s after its last work' % owner)
    ok('it exits by itself when idle (pid %d)' % owner)

    # The next start answers GetSupported from the list the last one kept (no worker started first),
    # and only when that list was made by this worker.
    def released():
        """The bus has seen the owner go (its exit and the bus dropping its name are not one step)."""
        return not bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner',
                                 GLib.Variant('(s)', (NAME,)), GLib.VariantType('(b)'), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
    if not thumbnailer.wait(released, 20):
        fail('the name is still owned 20 s after pid %d exited' % owner)
    memo = os.path.join(cache, 'qlbrowse', 'dbus-types')
    lines = open(memo).read().split('\n')
    if lines[1:-1] != types:
        fail('the kept list is not what GetSupported answered: %s' % lines[:4])
    with open(memo, 'w') as out:
        out.write('\n'.join([lines[0]] + types + ['x-test/remembered', '']))
    again = thumbnailer.call('GetSupported', None, '(asas)')[1]
    started.append(bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetConnectionUnixProcessID',
                                 GLib.Variant('(s)', (NAME,)), GLib.VariantType('(u)'), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0])
    if again != types + ['x-test/remembered']:
        fail('a new start did not answer from the kept list: %d types, last %s' % (len(again), again[-1:]))
    ok('a new start answers GetSupported from the list its worker made before (%d types)' % len(again))
    owner = started[-1]
    if not thumbnailer.wait(gone, 20) or not thumbnailer.wait(released, 20):
        fail('pid %d still running or owning the name 20 s after its last work' % owner)
    with open(memo, 'w') as out:
        out.write('\n'.join(['another worker\t1\t2\t3'] + types + ['x-test/stale', '']))
    fresh = thumbnailer.call('GetSupported', None, '(asas)')[1]
    started.append(bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetConnectionUnixProcessID',
                                 GLib.Variant('(s)', (NAME,)), GLib.VariantType('(u)'), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0])
    if fresh != types or open(memo).read().split('\n')[0] != lines[0]:
        fail('a list kept for another worker was answered or kept: %d types, last %s' % (len(fresh), fresh[-1:]))
    ok('a list kept for another worker is made again')


if __name__ == '__main__':
    main()
