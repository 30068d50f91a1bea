#!/usr/bin/env bash
# Usage: Benchmarks/thumbnails.sh [jpeg] [video] [pdf] [rss] [single] [preview]   (default: all)
#
# Side by side, in one run, on the same files, qlbrowse against the tools users would otherwise use:
#   jpeg   48 camera-sized JPEGs (4000x3000, ~5.5 MB, generated once into $BENCH_DIR/jpeg)
#          qlbrowse thumbnail -s 256 -o OUT --jobs 2 FILES...   vs
#          xargs -P2 -n 12 vipsthumbnail -s 256 -o OUT/%s.png
#   video  the corpus's video/ files plus the fixture videos: qlbrowse vs ffmpegthumbnailer -s 256
#   pdf    the corpus's pdf/ files with expect=ok plus doc.pdf: qlbrowse vs
#          pdftoppm -scale-to 256 -singlefile -png
#   rss    peak resident memory of `qlbrowse thumbnail --no-service` (its own worker, so that the
#          decoding is in the measured tree; the service's workers have the same limits) on
#          huge-100mp.jpg and huge-20000.png (Tests/Fixtures/make-large.sh), target <= 150 MB, with
#          vipsthumbnail for reference.
#   single one call per file, as a script or a file manager's hook calls it: 20 camera JPEGs (the
#          jpeg set), 20 PDFs (corpus pdf/ok), 20 videos (corpus video/ + fixtures), one
#          `qlbrowse thumbnail -s 256 -o OUT FILE` each, one after another, cold thumbnail cache, vs
#          `vipsthumbnail -s 256`, `pdftoppm -scale-to 256 -singlefile -png`, `ffmpegthumbnailer -s 256`
#          called the same way. Three qlbrowse rows per kind: "service cold" (no service running:
#          the first call starts it, every run), "service warm" (running before the first call),
#          and "--no-service" (workers of each call's own, as before the service). Then "cached":
#          the same 20 calls again with the thumbnails cached (target <= 10 ms a call, wall).
#   preview a previewer session: 20 calls of `qlbrowse preview FILE --size 80x24 --graphics symbols`
#          per kind (service cold) vs the pipelines previewers use (ranger's scope.sh, lf's wiki):
#          `chafa` on the image; `pdftoppm -f 1 -l 1 -scale-to-x 1920 -scale-to-y -1 -singlefile
#          -jpeg` then `chafa`; `ffmpegthumbnailer -s 0` then `chafa` (chafa --size 80x24
#          --format symbols; chafa 1.12 cannot read a pipe, so through a file as those set-ups do).
# The jpeg, video and pdf rows start qlbrowse's resident service afresh in each run (its start is
# in the time); every service the script starts runs from a runtime folder of its own and is
# stopped at the end. Peers run with the same parallelism as qlbrowse's --jobs (JOBS, default 2). Each pair runs RUNS
# times (default 2), order alternating, each run with empty output and thumbnail-cache folders
# (XDG_CACHE_HOME), and the best time counts. Prints a table: task, seconds for each, ratio
# qlbrowse/peer (target <= 1.0), PASS/FAIL, and how many thumbnails each wrote.
#
# Memory: GNU time's %M is the largest max-RSS among the command and the descendants it waited for
# (wait4 returns the child's RUSAGE_BOTH; checked: a parent that waits for a 300 MB child reports
# 317 MB, one that exits without waiting reports 10 MB). Decoding happens in qlbrowse-thumbnailer
# workers, so %M sees them only if qlbrowse reaps its workers. The script therefore also samples
# /proc (VmHWM of every process in the tree, as a child subreaper so that orphaned workers stay in
# the tree) and reports the largest single process, the peak sum of the tree, and workers still
# running after qlbrowse exited.
#
# Environment: QLBROWSE (default .build/release/qlbrowse in the repo), CORPUS (default
# ../shared/corpus), BENCH_DIR (generated inputs, default /tmp/qlbrowse-bench), JOBS, RUNS.
# Exit status: 1 if any line is FAIL, 2 if a tool is missing.
# shellcheck disable=SC2317,SC2016 # run_* are called through `timed`; sh -c scripts expand later
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
QLBROWSE=${QLBROWSE:-$ROOT/.build/release/qlbrowse}
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/qlbrowse-bench}
JOBS=${JOBS:-2}
RUNS=${RUNS:-2}
SIZE=256
RSS_TARGET_MB=150

TASKS=("$@")
[[ ${#TASKS[@]} -gt 0 ]] || TASKS=(jpeg video pdf rss single preview)
for t in "${TASKS[@]}"; do
    case $t in
    jpeg | video | pdf | rss | single | preview) ;;
    *)
        sed -n '2,/^set -euo/{/^set -euo/d;/^# shellcheck/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
        exit 2
        ;;
    esac
done
want() { [[ " ${TASKS[*]} " == *" $1 "* ]]; }

say() { printf '%s\n' "$*" >&2; }
need() {
    command -v "$1" >/dev/null 2>&1 && return 0
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing $2"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null 2>&1 || true
    fi
    command -v "$1" >/dev/null 2>&1 || { say "missing: $1 (Debian package $2)"; exit 2; }
}
[[ -x /usr/bin/time ]] || need /usr/bin/time time
need vips libvips-tools
need vipsthumbnail libvips-tools
need ffmpegthumbnailer ffmpegthumbnailer
need pdftoppm poppler-utils
need chafa chafa
[[ $QLBROWSE == /* ]] || QLBROWSE=$PWD/$QLBROWSE
[[ -x $QLBROWSE ]] || { say "qlbrowse not found at $QLBROWSE (build with swift build -c release, or set QLBROWSE)"; exit 2; }
PY=/usr/bin/python3
[[ -x $PY ]] || PY=$(command -v python3)

W=$(mktemp -d "${TMPDIR:-/tmp}/qlb-bench.XXXXXX")
# qlbrowse's resident service runs from a runtime folder of this script's own, so that every
# service it starts is known and stopped (with its workers: it leads its own process group).
SVC=$W/run
service_stop() {
    local pid
    pid=$(cat "$SVC/qlbrowse/service.pid" 2>/dev/null) || return 0
    kill -KILL -- "-$pid" 2>/dev/null || true
    rm -rf "$SVC"
}
service_fresh() { service_stop; mkdir -p "$SVC" && chmod 700 "$SVC"; }
ql() { XDG_RUNTIME_DIR=$SVC XDG_STATE_HOME=$W/state "$QLBROWSE" "$@"; }
trap 'service_stop; rm -rf "$W"' EXIT
LOG=$W/stderr.log
mkdir -p "$BENCH_DIR"

# ---- inputs ----------------------------------------------------------------------------------------
make_jpegs() { # 4 plasma-based 4000x3000 bases with sensor-like noise, 12 variants each
    local dir=$BENCH_DIR/jpeg
    [[ -f $dir/.complete && $(find "$dir" -name 'cam-*.jpg' | wc -l) -eq 48 ]] && return 0
    say "generating 48 camera-sized JPEGs into $dir (once)"
    rm -rf "$dir" && mkdir -p "$dir"
    local b
    for b in 0 1 2 3; do
        (
            t=$(mktemp -d "$W/base.XXXXXX")
            convert -seed $((b + 7)) -size 1000x750 plasma:fractal -depth 8 "$t/p.png"
            vips resize "$t/p.png" "$t/r.v" 4 --kernel cubic
            vips gaussnoise "$t/n.v" 4000 3000 --sigma 10 --mean 0 --seed "$b"
            vips add "$t/r.v" "$t/n.v" "$t/a.v"
            vips cast "$t/a.v" "$t/c.v" uchar
            vips jpegsave "$t/c.v" "$dir/cam-${b}00.jpg" --Q 90
            rm -rf "$t"
        ) &
        [[ $b -eq 1 ]] && wait
    done
    wait
    # Variants cam-BOT.jpg: base B, orientation O {as is, mirrored, flipped, rotated 180},
    # tone T {as is, darker, brighter}.
    for b in 0 1 2 3; do
        local src=$dir/cam-${b}00.jpg
        printf '%s\n' "flip $src $dir/cam-${b}10.jpg[Q=90] horizontal" "flip $src $dir/cam-${b}20.jpg[Q=90] vertical" \
            "rot $src $dir/cam-${b}30.jpg[Q=90] d180"
    done | xargs -P"$JOBS" -L1 vips
    local f
    for f in "$dir"/cam-??0.jpg; do
        printf '%s\n' "linear $f ${f%0.jpg}1.jpg[Q=90] 0.8 0 --uchar" "linear $f ${f%0.jpg}2.jpg[Q=90] 1.15 8 --uchar"
    done | xargs -P"$JOBS" -L1 vips
    [[ $(find "$dir" -name 'cam-*.jpg' | wc -l) -eq 48 ]] || { say "expected 48 JPEGs in $dir"; exit 1; }
    touch "$dir/.complete"
}

FIXTURES=$BENCH_DIR/fixtures
need_fixtures() { "$ROOT/Tests/Fixtures/make-fixtures.sh" "$FIXTURES" >/dev/null 2>>"$LOG"; }

# ---- timing ----------------------------------------------------------------------------------------
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
OUT_GLOB='*.png' # what counts as one result in an output folder
count_png() { find "$1" -type f -name "$OUT_GLOB" -size +0 | wc -l; }

run_qlbrowse() { # OUT FILES...   (a fresh service each run: its start is part of the time)
    local out=$1
    shift
    service_fresh
    XDG_CACHE_HOME=$out.cache ql thumbnail -s "$SIZE" -o "$out" --jobs "$JOBS" "$@"
}
run_vipsthumbnail() {
    local out=$1
    shift
    printf '%s\0' "$@" | XDG_CACHE_HOME=$out.cache xargs -0 -P"$JOBS" -n 12 vipsthumbnail -s "$SIZE" -o "$out/%s.png"
}
run_ffmpegthumbnailer() {
    local out=$1
    shift
    printf '%s\0' "$@" | XDG_CACHE_HOME=$out.cache xargs -0 -P"$JOBS" -n 1 \
        sh -c 'ffmpegthumbnailer -s "$0" -i "$2" -o "$1/$(basename "$2").png"' "$SIZE" "$out"
}
run_pdftoppm() {
    local out=$1
    shift
    printf '%s\0' "$@" | XDG_CACHE_HOME=$out.cache xargs -0 -P"$JOBS" -n 1 \
        sh -c 'pdftoppm -scale-to "$0" -singlefile -png "$2" "$1/$(basename "$2")"' "$SIZE" "$out"
}

# timed OUT CMD... -> sets T (seconds) and N (PNG files written); failures of single files are fine.
timed() {
    local out=$1
    shift
    rm -rf "$out" "$out.cache"
    mkdir -p "$out" "$out.cache"
    local s e
    s=$(now)
    "$@" "$out" "${FILES[@]}" >/dev/null 2>>"$LOG" || true
    e=$(now)
    T=$(elapsed "$s" "$e")
    N=$(count_png "$out")
}

ROWS=()
FAILED=0
QL_RUN=run_qlbrowse # the qlbrowse side of `pair`
QL_PREPARE=:        # run before each timed qlbrowse run, not timed
pair() { # TASK PEER_NAME PEER_FUNCTION   (files in FILES)
    local task=$1 peer=$2 fn=$3 r ql="" pe="" nql=0 npe=0
    say "$task: ${#FILES[@]} files, $RUNS runs"
    for ((r = 1; r <= RUNS; r++)); do
        if ((r % 2)); then
            $QL_PREPARE && timed "$W/ql" "$QL_RUN" && ql=$(min "$ql" "$T") nql=$N
            timed "$W/peer" "$fn" && pe=$(min "$pe" "$T") npe=$N
        else
            timed "$W/peer" "$fn" && pe=$(min "$pe" "$T") npe=$N
            $QL_PREPARE && timed "$W/ql" "$QL_RUN" && ql=$(min "$ql" "$T") nql=$N
        fi
    done
    local ratio verdict
    ratio=$(awk -v a="$ql" -v b="$pe" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 99 }')
    verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.0) ? "PASS" : "FAIL" }')
    [[ $verdict == PASS ]] || FAILED=1
    ROWS+=("$(printf '%-34s %5d %10.3f %10.3f %6s %7s %6s   %d/%d (%s)' "$task" "${#FILES[@]}" "$ql" "$pe" \
        "$ratio" "<=1.0" "$verdict" "$nql" "$npe" "$peer")")
}

# ---- one call per file, previewer sessions --------------------------------------------------------
each_qlbrowse() { # OUT FILES...: one call each; the caller chose the state of the service
    local out=$1 f
    shift
    for f in "$@"; do XDG_CACHE_HOME=$out.cache ql thumbnail -s "$SIZE" -o "$out" "$f"; done
}
each_qlbrowse_cold() { service_fresh && each_qlbrowse "$@"; }
each_qlbrowse_own() {
    local out=$1 f
    shift
    for f in "$@"; do XDG_CACHE_HOME=$out.cache ql thumbnail --no-service -s "$SIZE" -o "$out" "$f"; done
}
service_warm() { # a running service whose workers have decoded a file, and nothing of FILES cached
    service_fresh
    XDG_CACHE_HOME=$W/warm.cache ql thumbnail -s "$SIZE" -o "$W" "$FIXTURES/landscape.jpg" >/dev/null 2>>"$LOG"
    rm -rf "$W/warm.cache" "$W/landscape.jpg.png"
}
each_vipsthumbnail() {
    local out=$1 f
    shift
    for f in "$@"; do vipsthumbnail -s "$SIZE" -o "$out/%s.png" "$f"; done
}
each_pdftoppm() {
    local out=$1 f
    shift
    for f in "$@"; do pdftoppm -scale-to "$SIZE" -singlefile -png "$f" "$out/$(basename "$f")"; done
}
each_ffmpegthumbnailer() {
    local out=$1 f
    shift
    for f in "$@"; do ffmpegthumbnailer -s "$SIZE" -i "$f" -o "$out/$(basename "$f").png"; done
}
single_kind() { # LABEL PEER PEER_FUNCTION   (files in FILES)
    local label=$1 peer=$2 fn=$3
    QL_RUN=each_qlbrowse_cold pair "$label, 1 call each, service cold" "$peer" "$fn"
    QL_PREPARE=service_warm QL_RUN=each_qlbrowse pair "$label, 1 call each, service warm" "$peer" "$fn"
    QL_RUN=each_qlbrowse_own pair "$label, 1 call each, --no-service" "$peer" "$fn"
    # Cached: the same calls again, every thumbnail in the cache (made by the last run above).
    local out=$W/cached s e ms verdict
    service_warm
    rm -rf "$out" "$out.cache" && mkdir -p "$out" "$out.cache"
    each_qlbrowse "$out" "${FILES[@]}" >/dev/null 2>>"$LOG" || true
    s=$(now)
    each_qlbrowse "$out" "${FILES[@]}" >/dev/null 2>>"$LOG" || true
    e=$(now)
    ms=$(awk -v a="$s" -v b="$e" -v n="${#FILES[@]}" 'BEGIN { printf "%.1f", (b - a) * 1000 / n }')
    verdict=$(awk -v m="$ms" 'BEGIN { print (m <= 10) ? "PASS" : "FAIL" }')
    [[ $verdict == PASS ]] || FAILED=1
    CACHED_ROWS+=("$(printf '%-34s %5d calls   %6s ms a call (wall)   target <= 10 ms   %s' "$label, cached" "${#FILES[@]}" "$ms" "$verdict")")
}
CACHED_ROWS=()

PREVIEW_SIZE=80x24
preview_qlbrowse() { # a session: the first call finds no service
    local out=$1 f
    shift
    service_fresh
    for f in "$@"; do
        XDG_CACHE_HOME=$out.cache ql preview "$f" --size "$PREVIEW_SIZE" --graphics symbols >"$out/$(basename "$f").txt"
    done
}
preview_chafa() {
    local out=$1 f
    shift
    for f in "$@"; do chafa --size "$PREVIEW_SIZE" --format symbols "$f" >"$out/$(basename "$f").txt"; done
}
preview_pdftoppm_chafa() { # ranger's scope.sh: page 1 at 1920 wide as JPEG, then the viewer
    local out=$1 f
    shift
    for f in "$@"; do
        pdftoppm -f 1 -l 1 -scale-to-x 1920 -scale-to-y -1 -singlefile -jpeg "$f" "$out/page" &&
            chafa --size "$PREVIEW_SIZE" --format symbols "$out/page.jpg" >"$out/$(basename "$f").txt"
    done
}
preview_ffmpegthumbnailer_chafa() { # ranger's scope.sh: a full-size frame, then the viewer
    local out=$1 f
    shift
    for f in "$@"; do
        ffmpegthumbnailer -i "$f" -o "$out/frame.png" -s 0 &&
            chafa --size "$PREVIEW_SIZE" --format symbols "$out/frame.png" >"$out/$(basename "$f").txt"
    done
}

# ---- memory ----------------------------------------------------------------------------------------
cat >"$W/rss.py" <<'PY'
"""rss.py TIMEFILE CMD...: run CMD under /usr/bin/time -f %M, sampling /proc every 10 ms.
Prints: time_kb largest_kb largest_name tree_peak_kb leftover_processes"""
import ctypes, os, signal, subprocess, sys, time

libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphaned workers stay our descendants
timefile, cmd = sys.argv[1], sys.argv[2:]
p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", timefile] + cmd,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
me = os.getpid()

def tree():
    """Live (not zombie) descendants of this process."""
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
        except OSError:
            continue
        state, ppid = s[s.rindex(")") + 2:].split()[:2]
        if state != "Z":
            kids.setdefault(int(ppid), []).append(int(d))
    out, stack = [], list(kids.get(me, []))
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack += kids.get(pid, [])
    return out

hwm, tree_peak = {}, 0
def sample():
    global tree_peak
    total = 0
    pids = tree()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                st = dict(l.split(":", 1) for l in f.read().splitlines() if ":" in l)
        except (OSError, ValueError):
            continue
        name = st.get("Name", "?").strip()
        if name == "time":
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                name = os.path.basename(f.read().split(b"\0")[0].decode(errors="replace")) or name
        except OSError:
            pass
        rss = int(st.get("VmRSS", "0 kB").split()[0])
        peak = int(st.get("VmHWM", "0 kB").split()[0])
        total += rss
        if peak > hwm.get(pid, ("", 0))[1]:
            hwm[pid] = (name, peak)
    tree_peak = max(tree_peak, total)
    return pids

while p.poll() is None:
    sample()
    time.sleep(0.01)
# Workers still running after the command exited: keep sampling them for up to 10 s, then kill.
left = [pid for pid in sample() if pid != p.pid]
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        break
    if not [pid for pid in sample() if pid != p.pid]:
        break
    time.sleep(0.01)
for pid in tree():
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
while True:  # reap what we inherited
    try:
        if os.waitpid(-1, 0)[0] <= 0:
            break
    except ChildProcessError:
        break
with open(timefile) as f:
    time_kb = int(f.read().split()[-1])
name, largest = max(hwm.values(), key=lambda v: v[1], default=("-", 0))
print(time_kb, largest, name, tree_peak, len(left))
PY

RSS_ROWS=()
rss_line() { # LABEL FILE
    local label=$1 file=$2 out=$W/rss-out tk lk ln tp left verdict peak_mb
    rm -rf "$out" "$out.cache" && mkdir -p "$out" "$out.cache"
    tk=0 lk=0 ln=- tp=0 left=0
    read -r tk lk ln tp left < <(XDG_CACHE_HOME=$out.cache "$PY" "$W/rss.py" "$W/time.txt" \
        "$QLBROWSE" thumbnail --no-service -s "$SIZE" -o "$out" "$file") || true
    peak_mb=$(((tk > lk ? tk : lk) / 1024))
    verdict=$([[ $peak_mb -le $RSS_TARGET_MB ]] && echo PASS || echo FAIL)
    [[ $verdict == PASS ]] || FAILED=1
    local wrote
    wrote=$(find "$out" -maxdepth 1 -name '*.png' | wc -l)
    RSS_ROWS+=("$(printf '%-20s qlbrowse peak RSS %5d MB (time %%M %d MB; largest sampled %s %d MB; tree sum %d MB)  target <= %d MB  %s  [%d png%s]' \
        "$label" "$peak_mb" $((tk / 1024)) "$ln" $((lk / 1024)) $((tp / 1024)) "$RSS_TARGET_MB" "$verdict" "$wrote" \
        "$([[ $left -gt 0 ]] && echo ", $left worker(s) still running after qlbrowse exited")")")
    rm -rf "$out" && mkdir -p "$out"
    tk=0 lk=0
    read -r tk lk ln tp left < <("$PY" "$W/rss.py" "$W/time.txt" vipsthumbnail -s "$SIZE" -o "$out/%s.png" "$file") || true
    RSS_ROWS+=("$(printf '%-20s vipsthumbnail peak RSS %5d MB (reference)' "$label" $(((tk > lk ? tk : lk) / 1024)))")
}

# ---- run -------------------------------------------------------------------------------------------
START=$(now)
if want jpeg; then
    make_jpegs
    FILES=("$BENCH_DIR"/jpeg/cam-*.jpg)
    pair "camera JPEG 4000x3000" vipsthumbnail run_vipsthumbnail
fi
if want video || want pdf; then need_fixtures; fi
if want video; then
    FILES=()
    [[ -d $CORPUS/video ]] && for f in "$CORPUS"/video/*; do [[ -f $f ]] && FILES+=("$f"); done
    for f in clip.mp4 clip.mkv clip.mov clip.avi clip.webm rotated.mp4 anamorphic.mkv; do FILES+=("$FIXTURES/$f"); done
    pair "video (corpus + fixtures)" ffmpegthumbnailer run_ffmpegthumbnailer
fi
if want pdf; then
    FILES=()
    if [[ -f $CORPUS/MANIFEST.tsv ]]; then
        while IFS= read -r rel; do FILES+=("$CORPUS/$rel"); done < <(awk -F'\t' 'NR > 1 && $7 == "pdf" && $8 == "ok" { print $1 }' "$CORPUS/MANIFEST.tsv")
    fi
    FILES+=("$FIXTURES/doc.pdf")
    pair "PDF page 1 (corpus ok + fixture)" pdftoppm run_pdftoppm
fi
if want single || want preview; then
    make_jpegs
    need_fixtures
    JPEG20=("$BENCH_DIR"/jpeg/cam-*.jpg)
    JPEG20=("${JPEG20[@]:0:20}")
    PDF20=()
    if [[ -f $CORPUS/MANIFEST.tsv ]]; then
        while IFS= read -r rel; do PDF20+=("$CORPUS/$rel"); done < <(awk -F'\t' 'NR > 1 && $7 == "pdf" && $8 == "ok" { print $1 }' "$CORPUS/MANIFEST.tsv")
    fi
    PDF20+=("$FIXTURES/doc.pdf")
    PDF20=("${PDF20[@]:0:20}")
    VIDEO20=()
    if [[ -f $CORPUS/MANIFEST.tsv ]]; then
        while IFS= read -r rel; do VIDEO20+=("$CORPUS/$rel"); done < <(awk -F'\t' 'NR > 1 && $7 == "video" && $8 == "ok" { print $1 }' "$CORPUS/MANIFEST.tsv")
    fi
    for f in clip.mp4 clip.mkv clip.mov clip.avi clip.webm rotated.mp4 anamorphic.mkv; do VIDEO20+=("$FIXTURES/$f"); done
    VIDEO20=("${VIDEO20[@]:0:20}")
fi
if want single; then
    FILES=("${JPEG20[@]}") && single_kind "camera JPEG" vipsthumbnail each_vipsthumbnail
    FILES=("${PDF20[@]}") && single_kind "PDF" pdftoppm each_pdftoppm
    FILES=("${VIDEO20[@]}") && single_kind "video" ffmpegthumbnailer each_ffmpegthumbnailer
fi
if want preview; then
    OUT_GLOB='*.txt'
    FILES=("${JPEG20[@]}") && QL_RUN=preview_qlbrowse pair "preview session, camera JPEG" chafa preview_chafa
    FILES=("${PDF20[@]}") && QL_RUN=preview_qlbrowse pair "preview session, PDF" "pdftoppm+chafa" preview_pdftoppm_chafa
    FILES=("${VIDEO20[@]}") && QL_RUN=preview_qlbrowse pair "preview session, video" "ffmpegthumbnailer+chafa" preview_ffmpegthumbnailer_chafa
    OUT_GLOB='*.png'
fi
if want rss; then
    "$ROOT/Tests/Fixtures/make-large.sh" "$BENCH_DIR/large" >/dev/null 2>>"$LOG"
    rss_line huge-100mp.jpg "$BENCH_DIR/large/huge-100mp.jpg"
    rss_line huge-20000.png "$BENCH_DIR/large/huge-20000.png"
fi

echo
echo "qlbrowse: $QLBROWSE   jobs: $JOBS   runs: $RUNS (best)   box: $SIZE px   $(nproc) cores"
if [[ ${#ROWS[@]} -gt 0 ]]; then
    printf '%-34s %5s %10s %10s %6s %7s %6s   %s\n' task files "qlbrowse s" "peer s" ratio target result "thumbnails ql/peer"
    printf '%s\n' "${ROWS[@]}"
fi
[[ ${#CACHED_ROWS[@]} -eq 0 ]] || printf '%s\n' "" "${CACHED_ROWS[@]}"
[[ ${#RSS_ROWS[@]} -eq 0 ]] || printf '%s\n' "" "${RSS_ROWS[@]}"
echo
echo "total $(elapsed "$START" "$(now)") s; stderr of all runs: $BENCH_DIR/last-stderr.log"
cp "$LOG" "$BENCH_DIR/last-stderr.log" 2>/dev/null || true
exit "$FAILED"
