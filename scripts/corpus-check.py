#!/usr/bin/python3
"""Run `qlbrowse thumbnail` over the shared real-world corpus and check every result.

Usage:
  scripts/corpus-check.py [--corpus ../shared/corpus] [--qlbrowse PATH] [--size 256]
                          [--batch 50] [--timeout 300] [--kind KIND ...] [--keep]
                          [--accept-low-quality] [--peers] [--results TSV] [--verbose]

Reads MANIFEST.tsv (path source type size note license kind expect display_w display_h) and runs
  qlbrowse thumbnail --json -s 256 -o OUTDIR FILE...
in batches (one output folder and a fresh XDG_CACHE_HOME per batch, no two files with the same
name in a batch), parsing one JSON object per line: {file, contentType, representation, source, width, height, ms, output} or
{file, error[, contentType]}. Files that a batch left without a line (crash, hang) are run again
one by one to find the culprit.

Checks, independent of what the tool claims:
  ok rows (expect=ok, kind is not broken): a `thumbnail` representation (not icon; lowQuality only
    with --accept-low-quality) was written; the PNG's own IHDR says max(w, h) <= size, == size
    (+-1) when the displayed source is at least that big, and w/h is within 4 % (or +-1 px) of
    display_w/display_h when the manifest gives them; JSON width/height match the PNG.
  all other rows (kind broken, expect error or either): only a thumbnail line or an error line.
  every file: the process was not killed by a signal, did not hang, and left nothing in the output
    folder but the outputs it reported (no `.name.XXXXXX.tmp`, no partial files).
Exit status 1 when fewer than 95 % of the ok rows pass or there was any crash, hang, missing line or
litter; 2 on usage errors. Stdlib only; run with /usr/bin/python3.

--peers does the same count for the tools a Linux file manager would otherwise call: for each file,
vipsthumbnail, ffmpegthumbnailer and pdftoppm are tried (the one matching the MIME type first) and the
file counts as handled when any of them writes a PNG that passes the same checks.
"""

import argparse
import concurrent.futures
import csv
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUCCESS_KEYS = ("file", "contentType", "representation", "source", "width", "height", "ms", "output")
OK_TARGET = 95.0


class Row:
    """One MANIFEST.tsv line plus what happened to it."""

    def __init__(self, corpus, fields):
        self.rel = fields["path"]
        self.path = os.path.join(corpus, self.rel)
        self.mime = fields.get("type", "")
        self.kind = fields["kind"]
        self.expect = fields["expect"]
        self.display = None
        try:
            w, h = int(fields.get("display_w") or 0), int(fields.get("display_h") or 0)
            if w > 0 and h > 0:
                self.display = (w, h)
        except ValueError:
            pass
        self.result = None        # the JSON object printed for this file
        self.crash = None         # text when the process died by a signal with this file unanswered
        self.hang = False
        self.failure = None       # why an ok row failed its checks
        self.png = None           # (w, h) read from the written PNG

    @property
    def must_thumbnail(self):
        return self.expect == "ok" and self.kind != "broken"


def read_manifest(corpus):
    with open(os.path.join(corpus, "MANIFEST.tsv"), newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [Row(corpus, r) for r in reader]


def png_size(path):
    """Width and height from a PNG's IHDR, or an error string."""
    try:
        with open(path, "rb") as f:
            head = f.read(33)
    except OSError as e:
        return f"cannot read output: {e.strerror}"
    if len(head) < 33 or head[:8] != b"\x89PNG\r\n\x1a\n":
        return "output is not a PNG"
    length, kind = struct.unpack(">I4s", head[8:16])
    if kind != b"IHDR" or length != 13:
        return "output PNG has no IHDR first"
    w, h = struct.unpack(">II", head[16:24])
    if w == 0 or h == 0:
        return "output PNG is 0 pixels"
    return (w, h)


def check_geometry(size, box, display):
    """None when an image of `size` is a correct thumbnail for the box, else the reason."""
    w, h = size
    if max(w, h) > box:
        return f"{w}x{h} does not fit {box}x{box}"
    if display:
        dw, dh = display
        if max(dw, dh) >= box and max(w, h) < box - 1:
            return f"{w}x{h} is smaller than the {box} px box (source {dw}x{dh})"
        want = dw / dh
        ratio_ok = abs((w / h) / want - 1) <= 0.04
        pixel_ok = abs(w - h * want) <= 1 or abs(h - w / want) <= 1
        if not (ratio_ok or pixel_ok):
            return f"{w}x{h} has aspect {w / h:.3f}, expected {dw}x{dh} = {want:.3f}"
    return None


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def group_members(pgid):
    """Live (not zombie) processes of a process group."""
    live = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        state, _, pgrp = stat[stat.rindex(")") + 2:].split()[:3]
        if int(pgrp) == pgid and state != "Z":
            live.append(int(d))
    return live


class Outcome:
    """What one run of a command did. rc is None on timeout; outlived is how long other processes of
    its group (workers) kept running after it exited, None if they did not; killed when they were
    still running after LINGER seconds and had to be killed."""
    LINGER = 2.0

    def __init__(self, rc, out, err, seconds, outlived, killed):
        self.rc, self.out, self.err, self.seconds = rc, out, err, seconds
        self.outlived, self.killed = outlived, killed


def run(cmd, timeout, env=None):
    """Runs cmd in its own process group; on timeout the whole group is killed."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, env=env)
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        # Either the command hangs, or it exited and a child still holds its stdout open.
        rc = proc.poll()
        kill_group(proc)
        out, err = proc.communicate()
    seconds = time.monotonic() - start
    ended, outlived, killed = time.monotonic(), None, False
    while group_members(proc.pid):
        outlived = time.monotonic() - ended
        if outlived > Outcome.LINGER:
            killed = True
            break
        time.sleep(0.02)
    kill_group(proc)
    return Outcome(rc, out, err, seconds, outlived, killed)


def batches(rows, size):
    """Groups of at most `size` rows in which no two files share a name (outputs could collide),
    filled first-fit so that name clashes do not leave many small groups."""
    groups = []
    for row in rows:
        name = os.path.splitext(os.path.basename(row.rel))[0].lower()
        for group, names in groups:
            if len(group) < size and name not in names:
                break
        else:
            group, names = [], set()
            groups.append((group, names))
        group.append(row)
        names.add(name)
    return [group for group, _ in groups]


def litter_in(folder, reported):
    """Files (and dot-folders) under folder that are not among the reported outputs."""
    found = []
    for root, dirs, files in os.walk(folder):
        for name in files + [d for d in dirs if d.startswith(".")]:
            path = os.path.join(root, name)
            if os.path.realpath(path) not in reported:
                found.append(path)
    return found


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_qlbrowse(args, rows, work):
    """Fills row.result / crash / hang for every row.
    Returns (litter list, stderr log path, notes, seconds qlbrowse ran)."""
    notes = []
    stats = []
    stderr_log = open(os.path.join(work, "stderr.log"), "wb")
    reported = set()

    def one_batch(group, label, timeout):
        out_dir = os.path.join(work, label)
        os.mkdir(out_dir)
        cmd = [args.qlbrowse, "thumbnail", "--json", "-s", str(args.size), "-o", out_dir]
        cmd += [r.path for r in group]
        # A fresh thumbnail cache per invocation: no hits from earlier runs, no remembered failures
        # (which would hide a crash when a file is run again alone), nothing left in ~/.cache.
        # Workers of each invocation's own (no resident service): every batch is judged alone,
        # and no service outlives the check.
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache", label),
                   XDG_STATE_HOME=os.path.join(work, "state"), QLBROWSE_NO_SERVICE="1")
        res = run(cmd, timeout, env)
        rc, secs = res.rc, res.seconds
        stats.append(res)
        stderr_log.write(f"=== {label} rc={rc} {secs:.1f}s\n".encode() + res.err)
        by_name = {r.path: r for r in group}
        by_real = {os.path.realpath(r.path): r for r in group}
        for line in res.out.decode("utf-8", "replace").splitlines():
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                name = obj["file"]
            except (ValueError, KeyError, TypeError):
                notes.append(f"{label}: not a JSON result line: {line[:120]!r}")
                continue
            row = by_name.get(name) or by_real.get(os.path.realpath(name))
            if row is None:
                notes.append(f"{label}: result for a file that was not asked for: {name!r}")
                continue
            if row.result is not None:
                notes.append(f"{label}: two results for {row.rel}")
            row.result = obj
            if obj.get("output") and "error" not in obj:
                reported.add(os.path.realpath(obj["output"]))
        missing = [r for r in group if r.result is None]
        if args.verbose:
            log(f"  {label}: {len(group)} files, rc={rc}, {secs:.1f}s, {len(missing)} without a line")
        return rc, missing

    todo = [r for r in rows if os.path.exists(r.path)]
    for r in rows:
        if not os.path.exists(r.path):
            r.failure = "file missing from the corpus"
    groups = list(batches(todo, args.batch))
    for i, group in enumerate(groups):
        label = f"batch{i:03d}"
        log(f"qlbrowse: batch {i + 1}/{len(groups)} ({len(group)} files)")
        rc, missing = one_batch(group, label, args.timeout)
        if rc is None:
            notes.append(f"{label}: timed out after {args.timeout} s ({len(missing)} files unanswered)")
        elif rc < 0:
            notes.append(f"{label}: killed by {signal_name(-rc)}, {len(missing)} files unanswered")
        # Find which file is to blame: run each unanswered file on its own.
        for j, row in enumerate(missing):
            rc1, still = one_batch([row], f"{label}-single{j:03d}", args.single_timeout)
            if rc1 is None:
                row.hang = True
            elif rc1 < 0:
                row.crash = f"killed by {signal_name(-rc1)}"
            elif still:
                row.crash = f"no line printed (exit status {rc1})"
        if rc is not None and rc < 0 and not any(r.crash or r.hang for r in group):
            # The batch died but every file passes alone: still a crash, charged to the batch.
            group[0].crash = f"batch {label} killed by {signal_name(-rc)}; each file passes alone"
    outlived = [r.outlived for r in stats if r.outlived is not None and r.outlived > 0.1]
    if outlived:
        killed = sum(1 for r in stats if r.killed)
        notes.append(f"processes of qlbrowse's group (workers) outlived it in {len(outlived)}/{len(stats)} runs, "
                     f"by up to {max(outlived):.2f} s" + (f"; {killed} still ran after {Outcome.LINGER:.0f} s "
                                                          "and were killed" if killed else ""))
    litter = []
    for label in sorted(os.listdir(work)):
        folder = os.path.join(work, label)
        if label.startswith("batch") and os.path.isdir(folder):
            litter += [os.path.relpath(path, work) for path in litter_in(folder, reported)]
    worker_log = os.path.join(work, "state", "qlbrowse", "worker.log")
    if os.path.exists(worker_log):
        stderr_log.write(b"=== workers (XDG_STATE_HOME/qlbrowse/worker.log)\n")
        with open(worker_log, "rb") as f:
            shutil.copyfileobj(f, stderr_log)
    stderr_log.close()
    return litter, os.path.join(work, "stderr.log"), notes, sum(r.seconds for r in stats)


def judge(args, row, work):
    """Sets row.failure for ok rows; for the others only whether a line was printed matters."""
    if row.failure:
        return
    if row.hang:
        row.failure = "hang"
        return
    if row.crash:
        row.failure = "crash: " + row.crash
        return
    obj = row.result
    if obj is None:
        row.failure = "no result line"
        return
    if not row.must_thumbnail:
        return
    if "error" in obj:
        row.failure = f"error: {obj['error']}"
        return
    absent = [k for k in SUCCESS_KEYS if k not in obj]
    if absent:
        row.failure = f"result line lacks {', '.join(absent)}"
        return
    rep = obj["representation"]
    if rep != "thumbnail" and not (rep == "lowQuality" and args.accept_low_quality):
        row.failure = f"representation {rep} (source {obj.get('source')})"
        return
    output = obj["output"]
    if not os.path.realpath(output).startswith(os.path.realpath(work) + os.sep):
        row.failure = f"output {output} is outside the -o folder"
        return
    size = png_size(output)
    if isinstance(size, str):
        row.failure = size
        return
    row.png = size
    if (obj["width"], obj["height"]) != size:
        row.failure = f"JSON says {obj['width']}x{obj['height']}, the PNG is {size[0]}x{size[1]}"
        return
    row.failure = check_geometry(size, args.size, row.display)


# ---- peers ----------------------------------------------------------------------------------------

def peer_commands(row, out_dir, size):
    """The peer tools for this file, the one matching its type first: (name, argv, output path)."""
    vips = ("vipsthumbnail", ["vipsthumbnail", row.path, "-s", str(size), "-o", os.path.join(out_dir, "vips.png")],
            os.path.join(out_dir, "vips.png"))
    ffmpeg = ("ffmpegthumbnailer", ["ffmpegthumbnailer", "-s", str(size), "-c", "png", "-i", row.path,
                                    "-o", os.path.join(out_dir, "ffmpeg.png")], os.path.join(out_dir, "ffmpeg.png"))
    poppler = ("pdftoppm", ["pdftoppm", "-scale-to", str(size), "-singlefile", "-png", "-f", "1", row.path,
                            os.path.join(out_dir, "pdf")], os.path.join(out_dir, "pdf.png"))
    if row.mime == "application/pdf" or row.rel.lower().endswith(".pdf"):
        order = [poppler, vips, ffmpeg]
    elif row.mime.startswith(("video/", "audio/")):
        order = [ffmpeg, vips, poppler]
    else:
        order = [vips, ffmpeg, poppler]
    return [c for c in order if shutil.which(c[0])]


def run_peers_on(row, work, size, timeout):
    """Tries the peers in turn; the first one that writes a correct PNG handles the file."""
    out_dir = tempfile.mkdtemp(prefix="peer-", dir=work)
    tried = []
    for name, cmd, output in peer_commands(row, out_dir, size):
        rc = run(cmd, timeout).rc
        if rc is None:
            row.hang = True
            tried.append(f"{name}: timeout")
            continue
        if rc < 0:
            row.crash = f"{name} killed by {signal_name(-rc)}"
            tried.append(f"{name}: {signal_name(-rc)}")
            continue
        if rc != 0 or not os.path.exists(output):
            tried.append(f"{name}: exit {rc}")
            continue
        got = png_size(output)
        bad = got if isinstance(got, str) else check_geometry(got, size, row.display)
        if bad:
            tried.append(f"{name}: {bad}")
            continue
        row.png = got
        row.result = {"peer": name, "representation": "thumbnail"}
        break
    else:
        row.result = {"error": "; ".join(tried) or "no peer tool installed"}
    # The same rules as for qlbrowse: a crash or hang fails any row, a missing picture only ok rows.
    if row.hang:
        row.failure = "hang: " + "; ".join(tried)
    elif row.crash:
        row.failure = "crash: " + row.crash
    elif row.must_thumbnail and "error" in row.result:
        row.failure = row.result["error"]


def run_peers(args, rows, work):
    todo = [r for r in rows if os.path.exists(r.path)]
    for r in rows:
        if not os.path.exists(r.path):
            r.failure = "file missing from the corpus"
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.peer_jobs) as pool:
        futures = [pool.submit(run_peers_on, r, work, args.size, args.single_timeout) for r in todo]
        for i, f in enumerate(concurrent.futures.as_completed(futures)):
            f.result()
            if (i + 1) % 50 == 0:
                log(f"peers: {i + 1}/{len(todo)}")


# ---- report ---------------------------------------------------------------------------------------

def report(args, rows, litter, notes, elapsed, busy, stderr_log):
    kinds = sorted({r.kind for r in rows})
    print(f"{'kind':8} {'files':>6} {'ok rows':>8} {'ok pass':>8} {'failures':>9} {'others':>7} {'handled':>8}")
    for kind in kinds + ["all"]:
        sel = [r for r in rows if kind in ("all", r.kind)]
        ok = [r for r in sel if r.must_thumbnail]
        passed = [r for r in ok if not r.failure]
        others = [r for r in sel if not r.must_thumbnail]
        handled = [r for r in others if not r.failure]
        print(f"{kind:8} {len(sel):6} {len(ok):8} {len(passed):8} {len(ok) - len(passed):9} "
              f"{len(others):7} {len(handled):8}")

    failing = [r for r in rows if r.failure and (r.must_thumbnail or r.crash or r.hang or r.result is None)]
    if failing:
        print(f"\nfailing files ({len(failing)}):")
        for r in sorted(failing, key=lambda r: (r.kind, r.rel)):
            # Names are shown with repr-style escapes so a hostile name cannot drive the terminal.
            print(f"  {ascii(r.rel)[1:-1]}\t[{r.kind}/{r.expect}] {r.failure}")
    if litter:
        print(f"\nlitter left in the output folders ({len(litter)}):")
        for path in litter[:50]:
            print(f"  {ascii(path)[1:-1]}")
    if notes:
        print("\nnotes:")
        for n in notes[:50]:
            print(f"  {ascii(n)[1:-1]}")

    ok = [r for r in rows if r.must_thumbnail]
    passed = sum(1 for r in ok if not r.failure)
    pct = 100.0 * passed / len(ok) if ok else 0.0
    broken_ok = [r for r in rows if r.kind == "broken" and r.expect == "ok"]
    broken_ok_thumbs = sum(1 for r in broken_ok
                           if r.result and r.result.get("representation") in ("thumbnail", "lowQuality"))
    others = [r for r in rows if not r.must_thumbnail]
    handled = sum(1 for r in others if not r.failure)
    crashes = sum(1 for r in rows if r.crash)
    hangs = sum(1 for r in rows if r.hang)
    who = "peers" if args.peers else "corpus"
    print()
    print(f"time: {elapsed:.1f} s for {len(rows)} files ({1000 * elapsed / max(len(rows), 1):.0f} ms per file)"
          + (f"; qlbrowse ran {busy:.1f} s of it" if busy is not None else ""))
    if stderr_log:
        print(f"stderr of every run: {stderr_log}")
    print(f"(informational) broken files the manifest expects ok: {broken_ok_thumbs}/{len(broken_ok)} got a picture")
    print(f"{who}: {passed}/{len(ok)} ok files thumbnailed ({pct:.1f}%)")
    lead = f"all {len(others)}" if handled == len(others) else f"{handled}/{len(others)}"
    print(f"broken: {lead} handled, {crashes} crashes, {hangs} hangs, {len(litter)} litter")
    good = pct >= OK_TARGET and handled == len(others) and not crashes and not hangs and not litter
    return 0 if good else 1


def write_results(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
        out.writerow(["path", "kind", "expect", "status", "representation", "width", "height", "failure"])
        for r in rows:
            res = r.result or {}
            status = ("hang" if r.hang else "crash" if r.crash else "missing" if r.result is None
                      else "error" if "error" in res else "picture")
            rep = res.get("peer") or res.get("representation") or ""
            w, h = r.png or ("", "")
            out.writerow([r.rel, r.kind, r.expect, status, rep, w, h,
                          (r.failure or res.get("error") or "").replace("\t", " ").replace("\n", " ")])


def main():
    default_corpus = os.path.normpath(os.path.join(REPO, "..", "shared", "corpus"))
    default_tool = os.environ.get("QLBROWSE") or os.path.join(REPO, ".build", "release", "qlbrowse")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--corpus", default=default_corpus, help=f"corpus folder (default {default_corpus})")
    p.add_argument("--qlbrowse", default=default_tool, help="qlbrowse binary (default $QLBROWSE or "
                   ".build/release/qlbrowse)")
    p.add_argument("--size", type=int, default=256, help="thumbnail box (default 256)")
    p.add_argument("--batch", type=int, default=50, help="files per qlbrowse invocation (default 50)")
    p.add_argument("--timeout", type=float, default=300, help="seconds per invocation (default 300)")
    p.add_argument("--single-timeout", type=float, default=60,
                   help="seconds for one file run alone, and for each peer tool (default 60)")
    p.add_argument("--kind", action="append", help="only rows of this kind (repeatable)")
    p.add_argument("--accept-low-quality", action="store_true",
                   help="count a lowQuality representation (embedded preview, cover) as a thumbnail")
    p.add_argument("--peers", action="store_true",
                   help="measure vipsthumbnail / ffmpegthumbnailer / pdftoppm instead of qlbrowse")
    p.add_argument("--peer-jobs", type=int, default=os.cpu_count() or 2, help="parallel peer runs")
    p.add_argument("--results", metavar="TSV", help="write one line per file: path kind expect status "
                   "representation width height failure")
    p.add_argument("--keep", action="store_true", help="keep the output folder")
    p.add_argument("--verbose", "-v", action="store_true")
    args = p.parse_args()

    if not os.path.isfile(os.path.join(args.corpus, "MANIFEST.tsv")):
        p.error(f"no MANIFEST.tsv in {args.corpus}")
    rows = read_manifest(args.corpus)
    if args.kind:
        rows = [r for r in rows if r.kind in args.kind]
    if not rows:
        p.error("no rows selected")
    if not args.peers:
        tool = args.qlbrowse if os.sep in args.qlbrowse else shutil.which(args.qlbrowse)
        if not tool or not os.access(tool, os.X_OK):
            p.error(f"qlbrowse not found at {args.qlbrowse} (build it, or pass --qlbrowse / set QLBROWSE)")
        args.qlbrowse = os.path.abspath(tool)

    work = tempfile.mkdtemp(prefix="corpus-check-")
    start = time.monotonic()
    litter, notes, stderr_log, busy = [], [], None, None
    try:
        if args.peers:
            run_peers(args, rows, work)
        else:
            litter, stderr_log, notes, busy = run_qlbrowse(args, rows, work)
            for r in rows:
                judge(args, r, work)
        elapsed = time.monotonic() - start
        if not args.keep and stderr_log:
            keep_log = os.path.join(tempfile.gettempdir(), "corpus-check-stderr.log")
            shutil.copyfile(stderr_log, keep_log)
            stderr_log = keep_log
        status = report(args, rows, litter, notes, elapsed, busy, stderr_log)
        if args.results:
            write_results(args.results, rows)
    finally:
        if args.keep:
            print(f"outputs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
