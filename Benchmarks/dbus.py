#!/usr/bin/python3
"""A desktop program's first screen through the D-Bus thumbnailer: tumbler against `qlbrowse dbus`.

Two folders, cold thumbnail cache: "mixed", 34 files (16 camera photos with their EXIF thumbnail,
8 other images, 6 PDFs, 4 videos, mixed by name), and "photos", 24 camera photos (4000x3000, with
the 160x120 EXIF thumbnail cameras write). The client speaks org.freedesktop.thumbnails.Thumbnailer1
as Thunar 4.18 does when it opens the folder: GetSupported, then one Queue of the visible files (the
first 24 by name) with the MIME types GIO gives, scheduler "foreground", flavor "normal". Each run
has a private session bus whose only service file names the thumbnailer under test, so the first call
activates it (tumblerd, or `qlbrowse dbus` and its resident service, cold: a runtime folder of its
own); the clock starts before GetSupported and stops at the last Ready or Error of the 24. The
thumbnail caches are empty in every run; what a desktop keeps across sessions is kept across runs:
tumbler's GStreamer registry, and qlbrowse's list of the types it reads (its GetSupported answer).

Runs alternate tumbler and qlbrowse (RUNS pairs, default 5, after one warm-up pair that is not
counted), every run with empty caches. Prints each pair and the ratio qlbrowse/tumbler of the time to
the whole first screen (target <= 0.5) and of the time to the first thumbnail, median and spread.

usage: Benchmarks/dbus.py [--qlbrowse PATH] [--runs N] [mixed] [photos]
Installs tumbler from Debian when it is missing and this runs as root (apt-get).
"""
import argparse, ctypes, os, shutil, signal, statistics, subprocess, sys, tempfile, time
import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get('BENCH_DIR', os.path.join(os.environ.get('TMPDIR', '/tmp'), 'qlbrowse-bench'))
CORPUS = os.environ.get('CORPUS', os.path.join(ROOT, '..', 'shared', 'corpus'))
TUMBLERD = '/usr/lib/x86_64-linux-gnu/tumbler-1/tumblerd'
NAME = 'org.freedesktop.thumbnails.Thumbnailer1'
PATH = '/org/freedesktop/thumbnails/Thumbnailer1'
VISIBLE = 24


def need_tumbler():
    if os.path.exists(TUMBLERD):
        return
    if os.geteuid() == 0 and shutil.which('apt-get'):
        print('installing tumbler', file=sys.stderr)
        subprocess.run(['apt-get', 'install', '-y', '-qq', 'tumbler'], env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not os.path.exists(TUMBLERD):
        sys.exit('dbus.py: missing %s (Debian package tumbler)' % TUMBLERD)


def camera_photos():
    """Benchmarks/thumbnails.sh's 4000x3000 JPEGs, each with a 160x120 EXIF thumbnail as cameras write."""
    folder = os.path.join(BENCH, 'jpeg')
    if not os.path.isfile(os.path.join(folder, '.complete')):
        subprocess.run([os.path.join(ROOT, 'Benchmarks', 'thumbnails.sh'), 'jpeg'], stdout=subprocess.DEVNULL)
    photos = [n for n in sorted(os.listdir(folder)) if n.endswith('.jpg')] if os.path.isdir(folder) else []
    if len(photos) < VISIBLE:
        sys.exit('dbus.py: %s holds %d camera JPEGs, %d needed (Benchmarks/thumbnails.sh jpeg makes them)' % (folder, len(photos), VISIBLE))
    out = os.path.join(BENCH, 'camera-exif')
    if not os.path.isdir(out):
        work = out + '.part'
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        for name in photos[:VISIBLE]:
            source, target, thumb = os.path.join(folder, name), os.path.join(work, name), os.path.join(work, name + '.thumb')
            subprocess.run(['convert', source, '-thumbnail', '160x120', '-quality', '85', thumb], check=True)
            shutil.copy(source, target)
            subprocess.run(['exiftool', '-q', '-overwrite_original', '-Make=Benchmark', '-Model=Camera',
                            '-ThumbnailImage<=' + thumb, target], check=True)
            os.unlink(thumb)
        os.rename(work, out)
    return [os.path.join(out, n) for n in sorted(os.listdir(out))]


def folder_of_34():
    folder = os.path.join(BENCH, 'dbus34')
    if os.path.isdir(folder):
        return folder
    manifest = [line.rstrip('\n').split('\t') for line in open(os.path.join(CORPUS, 'MANIFEST.tsv'))][1:]
    ok = [row for row in manifest if len(row) > 7 and row[7] == 'ok']

    def pick(prefix, types, count):
        rows = [row for row in ok if row[0].startswith(prefix) and row[2] in types and int(row[3]) > 4000]
        return [os.path.join(CORPUS, row[0]) for row in rows[:count]]
    others = pick('images/', {'image/png', 'image/webp', 'image/gif', 'image/tiff'}, 8)
    pdfs = pick('pdf/', {'application/pdf'}, 6)
    videos = pick('video/', {'video/mp4', 'video/webm', 'video/x-matroska', 'video/quicktime'}, 4)
    photos = camera_photos()[:16]
    kinds = [photos, others, pdfs, videos]
    work = folder + '.part'
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    index = 0
    while any(kinds):
        for kind in kinds:
            if kind:
                source = kind.pop(0)
                shutil.copy(source, os.path.join(work, 'f%02d-%s' % (index, os.path.basename(source))))
                index += 1
    if len(os.listdir(work)) != 34:
        sys.exit('dbus.py: only %d of the 34 files found (corpus at %s)' % (len(os.listdir(work)), CORPUS))
    os.rename(work, folder)
    return folder


def descendants():
    """Every process below this one (orphans come here: this process is a child subreaper)."""
    children = {}
    for pid in os.listdir('/proc'):
        if pid.isdigit():
            try:
                stat = open('/proc/%s/stat' % pid).read()
                children.setdefault(int(stat.rsplit(')', 1)[1].split()[1]), []).append(int(pid))
            except OSError:
                pass
    found, todo = [], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def stop_everything(keep=()):
    """Kills every process below this one but those in `keep` (a FUSE daemon serving the files)."""
    killed = [pid for pid in descendants() if pid not in keep]
    for pid in killed:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for pid in killed:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass  # not a child of this process, nor an orphan it adopted: reaped by its parent
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break


def run_once(peer, qlbrowse, files, keep=()):
    """Seconds to the first thumbnail and to the last answer of the visible files, and how many were Ready."""
    work = tempfile.mkdtemp(prefix='qlb-dbus-bench-')
    services = os.path.join(work, 'services')
    os.makedirs(services)
    command = TUMBLERD if peer == 'tumbler' else '%s dbus' % qlbrowse
    with open(os.path.join(services, 'thumbnailer.service'), 'w') as out:
        out.write('[D-BUS Service]\nName=%s\nExec=%s\n' % (NAME, command))
    config = os.path.join(work, 'bus.conf')
    with open(config, 'w') as out:
        out.write('<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" '
                  '"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n<busconfig><type>session</type>'
                  '<listen>unix:path=%s/bus</listen><servicedir>%s</servicedir>'
                  '<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>'
                  '<allow own="*"/></policy></busconfig>\n' % (work, services))
    runtime = os.path.join(work, 'runtime')
    os.makedirs(runtime, mode=0o700)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, 'cache'), XDG_RUNTIME_DIR=runtime,
               XDG_STATE_HOME=os.path.join(work, 'state'), XDG_CONFIG_HOME=os.path.join(work, 'config'),
               # GStreamer's plugin registry lives in the cache folder: kept across runs, as on a desktop.
               GST_REGISTRY=os.path.join(BENCH, 'gstreamer-registry.bin'))
    # Likewise qlbrowse's list of the types it thumbnails (its GetSupported answer), written by its last run.
    types_memo, kept_types = os.path.join(work, 'cache', 'qlbrowse', 'dbus-types'), os.path.join(BENCH, 'qlbrowse-dbus-types')
    if os.path.exists(kept_types):
        os.makedirs(os.path.dirname(types_memo))
        shutil.copy(kept_types, types_memo)
    daemon = subprocess.Popen(['dbus-daemon', '--config-file=' + config, '--nofork', '--nopidfile'], env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 10
        while not os.path.exists(os.path.join(work, 'bus')) and time.time() < deadline:
            time.sleep(0.005)
        # The socket file appears when it is bound, a moment before the daemon listens on it.
        while True:
            try:
                bus = Gio.DBusConnection.new_for_address_sync('unix:path=%s/bus' % work, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
                                                              Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
                break
            except GLib.GError:
                if time.time() > deadline:
                    raise
                time.sleep(0.01)
        uris = [Gio.File.new_for_path(f).get_uri() for f in files]
        types = [Gio.File.new_for_path(f).query_info('standard::content-type', 0, None).get_content_type() for f in files]
        answered, ready, first = set(), [0], [None]
        start = time.monotonic()

        def on_signal(connection, sender, path, interface, name, parameters):
            if name in ('Ready', 'Error'):
                now = time.monotonic()
                for uri in parameters.unpack()[1]:
                    answered.add(uri)
                    if os.environ.get('DBUS_BENCH_TRACE'):
                        print('  %6.2f %s %s' % (now - start, name, uri.rsplit('/', 1)[1]), file=sys.stderr)
                    if name == 'Ready':
                        ready[0] += 1
                        if first[0] is None:
                            first[0] = now - start
        bus.signal_subscribe(None, NAME, None, PATH, None, Gio.DBusSignalFlags.NONE, on_signal)
        bus.call_sync(NAME, PATH, NAME, 'GetSupported', None, GLib.VariantType('(asas)'), Gio.DBusCallFlags.NONE, 30000, None)
        if os.environ.get('DBUS_BENCH_TRACE'):
            print('  %6.3f GetSupported answered (%s)' % (time.monotonic() - start, peer), file=sys.stderr)
        bus.call_sync(NAME, PATH, NAME, 'Queue', GLib.Variant('(asasssu)', (uris, types, 'normal', 'foreground', 0)),
                      GLib.VariantType('(u)'), Gio.DBusCallFlags.NONE, 30000, None)
        context = GLib.MainContext.default()
        deadline = time.monotonic() + 60
        while len(answered & set(uris)) < len(uris) and time.monotonic() < deadline:
            context.iteration(True)
        whole = time.monotonic() - start
        bus.close_sync(None)
        return first[0] if first[0] is not None else float('nan'), whole, ready[0]
    finally:
        daemon.kill()
        daemon.wait()
        stop_everything(keep)
        if os.path.exists(types_memo):
            shutil.copy(types_memo, kept_types)
        shutil.rmtree(work, ignore_errors=True)


def spread(values):
    values = sorted(values)
    return '%.2f (%.2f-%.2f)' % (statistics.median(values), values[0], values[-1])


def compare(title, files, qlbrowse, runs):
    """Interleaved runs of both on `files`; returns the median ratio of the whole screen."""
    whole_ratios, first_ratios = [], []
    print('%s: %d files queued' % (title, len(files)))
    print('%-5s %-22s %-22s %s' % ('run', 'tumbler first/all (n)', 'qlbrowse first/all (n)', 'ratio all, first'))
    for run in range(runs + 1):
        order = ['tumbler', 'qlbrowse'] if run % 2 == 0 else ['qlbrowse', 'tumbler']
        result = {peer: run_once(peer, qlbrowse, files) for peer in order}
        (tf, tw, tn), (qf, qw, qn) = result['tumbler'], result['qlbrowse']
        label = 'warm' if run == 0 else str(run)
        print('%-5s %5.2f / %5.2f s (%2d)    %5.2f / %5.2f s (%2d)    %.2f, %.2f' % (label, tf, tw, tn, qf, qw, qn, qw / tw, qf / tf), flush=True)
        if run > 0:
            whole_ratios.append(qw / tw)
            first_ratios.append(qf / tf)
    median = statistics.median(whole_ratios)
    print('%s, first screen, qlbrowse/tumbler: median (range) %s  target <= 0.5  %s' %
          (title, spread(whole_ratios), 'PASS' if median <= 0.5 else 'FAIL'))
    print('%s, first thumbnail, qlbrowse/tumbler: median (range) %s' % (title, spread(first_ratios)))
    return median


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build', 'release', 'qlbrowse'))
    parser.add_argument('--runs', type=int, default=int(os.environ.get('RUNS', '5')))
    parser.add_argument('sets', nargs='*', default=['mixed', 'photos'], help='mixed (34 files, 24 visible), photos (24 camera photos)')
    args = parser.parse_args()
    need_tumbler()
    missing = [tool for tool in ('convert', 'exiftool', 'ffmpeg') if not shutil.which(tool)]
    if missing:
        sys.exit('dbus.py: missing %s (scripts/install-deps bench installs them)' % ', '.join(missing))
    ctypes.CDLL(None).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: the activated services stay in this tree
    medians = []
    if 'mixed' in args.sets:
        folder = folder_of_34()
        medians.append(compare('mixed', [os.path.join(folder, n) for n in sorted(os.listdir(folder))][:VISIBLE], args.qlbrowse, args.runs))
    if 'photos' in args.sets:
        medians.append(compare('photos', camera_photos()[:VISIBLE], args.qlbrowse, args.runs))
    return 0 if all(m <= 0.5 for m in medians) else 1


if __name__ == '__main__':
    sys.exit(main())
