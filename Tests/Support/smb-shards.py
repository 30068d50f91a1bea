#!/usr/bin/python3
"""A library split over four "machines": four `qlbrowse thumbnail -r --shard I/4 --shared` runs at
once through GNU parallel (`--sshlogin 4/:`, the README's form, on this machine) into the
`.sh_thumbnails` repositories of a real SMB share (smbd + smbnetfs on loopback,
Tests/Support/testvolumes.py), each run with a cache folder of its own, as separate machines have.

usage: smb-shards.py QLBROWSE WORKDIR

Checks: the four runs overlap in time and all succeed; together they cover every file exactly
once; on the server's disk every file has exactly one shared thumbnail, named as the Thumbnail
Managing Standard says (md5 of `./` and the escaped name, in `.sh_thumbnails/large/` beside it),
recording that name and the file's mtime, and nothing else is there (no temporary, every PNG
whole and decodable); then a second user (another HOME and cache folder) gets every file's
picture from the share, one by one and as a batch, and no decoder is started (a counting
wrapper stands in for qlbrowse-thumbnailer; as a control, a file touched afterwards does start
one). Prints PASS/FAIL lines; exit 0 when all pass, 77
when Samba, smbnetfs or GNU parallel are not installed.
"""
import hashlib, json, os, shutil, subprocess, sys, time, urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import summarize  # noqa: E402
import testvolumes  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.environ.get('QLBROWSE_FIXTURES') or os.path.join(HERE, '..', '..', '.fixtures', 'small')
SHARDS = 4
# Fixtures that every shard must thumbnail (fixtures.tsv says `ok`), by folder on the share. Not the
# 1080p video (slow over SMB for nothing) nor the one whose name holds escape sequences.
FOLDERS = {'photos': ('image', 'raw'), 'documents': ('pdf', 'text', 'doc'), 'media': ('video', 'audio')}
SKIPPED = {'long-1080p.mp4'}


def fixtures():
    """(folder on the share, fixture file name) for every usable fixture."""
    rows = [line.split('\t') for line in open(os.path.join(FIXTURES, 'fixtures.tsv'), encoding='utf-8').read().splitlines()[1:]]
    chosen = []
    for row in rows:
        name, kind, expect = row[0], row[1], row[4]
        folder = next((f for f, kinds in FOLDERS.items() if kind in kinds), None)
        if expect == 'ok' and folder and name not in SKIPPED and name.isprintable():
            chosen.append((folder, name))
    return chosen


def shared_name(name):
    """The standard's shared-repository key: md5 of `./` and the name, escaped as in a URI."""
    return hashlib.md5(('./' + urllib.parse.quote(name, safe="/!$&'()*+,:=@-._~")).encode()).hexdigest() + '.png'


def png_text(data):
    """A PNG's tEXt chunks, or None when it is not a whole PNG (signature, chunks, IEND last)."""
    import struct, zlib
    if not data.startswith(b'\x89PNG\r\n\x1a\n'):
        return None
    offset, text = 8, {}
    while offset + 8 <= len(data):
        length, kind = struct.unpack('>I4s', data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        crc = data[offset + 8 + length:offset + 12 + length]
        if len(body) != length or len(crc) != 4 or zlib.crc32(kind + body) != struct.unpack('>I', crc)[0]:
            return None
        if kind == b'tEXt':
            key, _, value = body.partition(b'\0')
            text[key.decode('latin-1')] = value.decode('latin-1')
        offset += 12 + length
        if kind == b'IEND':
            return text if offset == len(data) else None
    return None


def decodes(path):
    from PIL import Image
    try:
        with Image.open(path) as image:
            image.load()
            return image.size
    except Exception:
        return None


def counting_worker(qlbrowse, work):
    """A stand-in for qlbrowse-thumbnailer that records each start, then becomes the real one."""
    wrapper, log = os.path.join(work, 'counting-thumbnailer'), os.path.join(work, 'worker-starts.log')
    real = os.path.join(os.path.dirname(os.path.abspath(qlbrowse)), 'qlbrowse-thumbnailer')
    with open(wrapper, 'w') as handle:
        handle.write("#!/bin/sh\necho \"$$\" >> '%s'\nexec '%s' \"$@\"\n" % (log, real))
    os.chmod(wrapper, 0o755)
    open(log, 'w').close()
    return wrapper, log


def starts(log):
    return len(open(log).read().split())


def main():
    qlbrowse, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not shutil.which('parallel'):
        print('smb-shards: missing Debian package: parallel')
        return 77
    root = os.path.join(work, 'smb')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    results = []
    try:
        try:
            share = testvolumes.smb_start(root)
        except testvolumes.Missing as error:
            print(error)
            return 77
        server = os.path.join(root, 'share')
        files = []  # paths relative to the share
        for index, (folder, name) in enumerate(fixtures()):
            os.makedirs(os.path.join(server, folder), exist_ok=True)
            # A few names with a space and a letter outside ASCII, escaped in the shared key.
            target = ('Été %02d ' % index + name) if index % 7 == 0 else name
            shutil.copy(os.path.join(FIXTURES, name), os.path.join(server, folder, target))
            files.append(os.path.join(folder, target))
        wanted = sorted(files)

        # Four "machines" at once, each with a cache of its own, as the README's parallel line.
        joblog = os.path.join(work, 'joblog')
        command = ('XDG_CACHE_HOME=%s/machine{} %s thumbnail -r --shard {}/%d --shared --json %s > %s/shard{}.json'
                   % (work, qlbrowse, SHARDS, share, work))
        started = time.time()
        run = subprocess.run(['parallel', '--will-cite', '--sshlogin', '%d/:' % SHARDS, '--joblog', joblog, command, ':::']
                             + [str(i) for i in range(1, SHARDS + 1)], capture_output=True, text=True, timeout=600)
        seconds = time.time() - started
        jobs = [line.split('\t') for line in open(joblog).read().splitlines()[1:]]
        spans = [(float(j[2]), float(j[2]) + float(j[3])) for j in jobs]
        overlap = len(spans) == SHARDS and max(s for s, _ in spans) < min(e for _, e in spans)
        statuses = [int(j[6]) for j in jobs]
        results.append(('four shards run at once through GNU parallel, all succeed',
                        run.returncode == 0 and overlap and statuses == [0] * SHARDS,
                        '%.1f s; exit statuses %s%s' % (seconds, statuses, '' if run.returncode == 0 else '; ' + run.stderr.strip()[-300:])))

        seen, per_shard, outcomes = [], [], {}
        for shard in range(1, SHARDS + 1):
            lines = [json.loads(l) for l in open(os.path.join(work, 'shard%d.json' % shard)).read().splitlines() if l.startswith('{')]
            per_shard.append(len(lines))
            for line in lines:
                seen.append(os.path.relpath(line['file'], share))
                outcomes[line['outcome']] = outcomes.get(line['outcome'], 0) + 1
        results.append(('together they cover every file exactly once', sorted(seen) == wanted and min(per_shard) > 0,
                        '%d files; per shard %s; %s' % (len(wanted), per_shard, outcomes)))

        # On the server's own disk: one thumbnail per file, the standard's name, nothing else.
        missing, wrong, extra, partial = [], [], [], []
        for folder in sorted({os.path.dirname(f) for f in files}):
            names = [os.path.basename(f) for f in files if os.path.dirname(f) == folder]
            repository = os.path.join(server, folder, '.sh_thumbnails')
            expected = {shared_name(n): n for n in names}
            for flavor_folder, _, entries in os.walk(repository):
                for entry in entries:
                    path = os.path.join(flavor_folder, entry)
                    if os.path.dirname(path) != os.path.join(repository, 'large') or entry not in expected:
                        extra.append(os.path.relpath(path, server))
            for key, name in expected.items():
                path = os.path.join(repository, 'large', key)
                if not os.path.exists(path):
                    missing.append(name)
                    continue
                data = open(path, 'rb').read()
                text = png_text(data)
                if text is None or decodes(path) is None:
                    partial.append(name)
                elif text.get('Thumb::URI') != './' + urllib.parse.quote(name, safe="/!$&'()*+,:=@-._~") \
                        or text.get('Thumb::MTime') != str(int(os.stat(os.path.join(share, folder, name)).st_mtime)):
                    wrong.append('%s: %s' % (name, text))
        stray = [os.path.relpath(os.path.join(d, n), server) for d, _, ns in os.walk(server) for n in ns if n.endswith('.tmp')]
        results.append(('every file has exactly one shared thumbnail, named by md5 of ./name, with its URI and mtime',
                        not missing and not wrong and not extra,
                        'missing %s; wrong %s; extra %s' % (missing[:5], wrong[:3], extra[:5])))
        results.append(('nothing partial: no temporary left, every PNG whole and decodable', not partial and not stray,
                        '%d thumbnails; partial %s; temporaries %s' % (len(files), partial[:5], stray[:5])))

        # A second user: another HOME and cache folder; the decoder is a wrapper that counts starts.
        wrapper, log = counting_worker(qlbrowse, work)
        other = os.path.join(work, 'second-user')
        os.makedirs(os.path.join(other, 'out'))
        env = dict(os.environ, HOME=other, XDG_CACHE_HOME=os.path.join(other, 'cache'), XDG_CONFIG_HOME=os.path.join(other, 'config'),
                   XDG_STATE_HOME=os.path.join(other, 'state'), QLBROWSE_THUMBNAILER=wrapper)
        one = subprocess.run([qlbrowse, 'thumbnail', '--json', '-o', os.path.join(other, 'out')] + [os.path.join(share, f) for f in files],
                             capture_output=True, text=True, env=env, timeout=300)
        lines = [json.loads(l) for l in one.stdout.splitlines() if l.startswith('{')]
        from_share = [l for l in lines if l.get('source') == 'shared' and l.get('output') and decodes(l['output'])]
        results.append(('a second user gets every picture from the share, no decoder started',
                        one.returncode == 0 and len(from_share) == len(files) and starts(log) == 0,
                        '%d of %d from the shared repository; %d decoder starts; %s'
                        % (len(from_share), len(files), starts(log), one.stderr.strip()[-200:])))
        batch = subprocess.run([qlbrowse, 'thumbnail', '-r', '--json', share], capture_output=True, text=True, env=env, timeout=300)
        cached = [json.loads(l) for l in batch.stdout.splitlines() if l.startswith('{')]
        results.append(('their batch over the share finds everything made, no decoder started',
                        batch.returncode == 0 and len(cached) == len(files) and all(l['outcome'] == 'cached' for l in cached)
                        and starts(log) == 0, '%d cached of %d; %d decoder starts' % (sum(l['outcome'] == 'cached' for l in cached),
                                                                                       len(files), starts(log))))
        # The control: a file changed since is decoded again, and the counter sees that start.
        changed = os.path.join(share, files[0])
        os.utime(changed, (time.time(), time.time() + 5))
        again = subprocess.run([qlbrowse, 'thumbnail', '-r', '--json', share], capture_output=True, text=True, env=env, timeout=300)
        made = [json.loads(l) for l in again.stdout.splitlines() if l.startswith('{') and '"generated"' in l]
        results.append(('control: a file changed since is decoded again, and that decoder start is counted',
                        len(made) == 1 and starts(log) >= 1, '%d made, %d decoder starts' % (len(made), starts(log))))
    finally:
        testvolumes.smb_teardown(root)
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
