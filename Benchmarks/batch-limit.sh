#!/usr/bin/env bash
# Usage: Benchmarks/batch-limit.sh [decode] [cached]   (default: both)
#
# Batch thumbnailing against its limits, in one run, RUNS rounds (default 5), order alternating,
# medians and spreads of the ratios printed:
#   decode  200 camera JPEGs (4000x3000, Benchmarks/thumbnails.sh's, hard links with other names)
#           -> 256 px into an empty cache: `qlbrowse thumbnail -r DIR --jobs 2` against the bare
#           DCT-scaled decode, `djpeg -scale 1/8` over the same files with 2 processes (the
#           limit: no resize, no encoding, no writing), and `vipsthumbnail -s 256` with 2 processes.
#           Target: qlbrowse <= 1.2x the bare decode. Also the CPU seconds (user + system) of the
#           whole tree, with --no-service so that the workers are children that time(1) counts:
#           robust when other programs share the cores (a tree of more processes gets more of a
#           starved machine, which flatters wall-clock ratios).
#   cached  the same command on 10,000 files whose thumbnails are all cached. Target: >= 40,000 files/s.
# The resident service is started afresh for the run (its own runtime folder) and warm for every
# round, as for a user's second batch. Needs djpeg (libjpeg-turbo-progs) and vipsthumbnail
# (libvips-tools); installs them when missing and run as root.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
QLBROWSE=${QLBROWSE:-$ROOT/.build/release/qlbrowse}
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/qlbrowse-bench}
RUNS=${RUNS:-5}
TASKS=("$@")
[[ ${#TASKS[@]} -gt 0 ]] || TASKS=(decode cached)

need() {
    command -v "$1" >/dev/null 2>&1 && return 0
    [[ $(id -u) -eq 0 ]] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null 2>&1 || true
    command -v "$1" >/dev/null 2>&1 || { echo "missing: $1 (Debian package $2)" >&2; exit 2; }
}
need djpeg libjpeg-turbo-progs
need vipsthumbnail libvips-tools

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l; }
# Median and range of the numbers on standard input.
summary() { sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'; }

export XDG_RUNTIME_DIR
XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
trap 'kill "$(cat "$XDG_RUNTIME_DIR"/qlbrowse/service.pid 2>/dev/null)" 2>/dev/null || true; rm -rf "$XDG_RUNTIME_DIR"' EXIT

if [[ " ${TASKS[*]} " == *" decode "* ]]; then
    [[ -d $BENCH_DIR/jpeg ]] || "$ROOT/Benchmarks/thumbnails.sh" jpeg >/dev/null 2>&1 || true
    mapfile -t JPEGS < <(ls "$BENCH_DIR"/jpeg/*.jpg)
    B200=$BENCH_DIR/batch200
    if [[ ! -d $B200 ]]; then
        mkdir -p "$B200.part"
        n=0
        while ((n < 200)); do for f in "${JPEGS[@]}"; do ((n < 200)) && ln "$f" "$B200.part/c$n-$(basename "$f")"; n=$((n + 1)); done; done
        mv "$B200.part" "$B200"
    fi
    XDG_CACHE_HOME=$(mktemp -d) "$QLBROWSE" thumbnail -s 16 -o "$(mktemp -d)" "${JPEGS[0]}" >/dev/null 2>&1 || true  # the service, warm
    cat "$B200"/*.jpg >/dev/null                                                                               # the page cache, warm
    ratios_d=(); ratios_v=()
    printf '%-6s %10s %10s %10s %8s %8s\n' round qlbrowse djpeg vips q/djpeg q/vips
    for run in $(seq 1 "$RUNS"); do
        cache=$(mktemp -d); out=$(mktemp -d)
        run_q() { t0=$(now); XDG_CACHE_HOME=$cache "$QLBROWSE" thumbnail -r "$B200" --jobs 2 >/dev/null 2>&1 || true; q=$(elapsed "$t0" "$(now)"); }
        run_d() { t0=$(now); ls "$B200"/*.jpg | xargs -P2 -n 10 sh -c 'for f; do djpeg -scale 1/8 "$f" >/dev/null; done' _; d=$(elapsed "$t0" "$(now)"); }
        run_v() { t0=$(now); ls "$B200"/*.jpg | xargs -P2 -n 20 vipsthumbnail -s 256 -o "$out/%s.png"; v=$(elapsed "$t0" "$(now)"); }
        if ((run % 2)); then run_q; run_d; run_v; else run_v; run_d; run_q; fi
        made=$(find "$cache/thumbnails" -name '*.png' | wc -l)
        ratios_d+=("$(echo "$q / $d" | bc -l)"); ratios_v+=("$(echo "$q / $v" | bc -l)")
        printf '%-6s %9.3fs %9.3fs %9.3fs %8.2f %8.2f  (%d thumbnails)\n' "$run" "$q" "$d" "$v" "${ratios_d[-1]}" "${ratios_v[-1]}" "$made"
        rm -rf "$cache" "$out"
    done
    cpu_ratios=()
    for run in $(seq 1 "$RUNS"); do
        cache=$(mktemp -d)
        times=$(mktemp)
        /usr/bin/time -o "$times" -f '%U %S' env XDG_CACHE_HOME="$cache" "$QLBROWSE" thumbnail --no-service -r "$B200" --jobs 2 >/dev/null 2>&1 || true
        cq=$(awk '{ print $1 + $2 }' "$times")
        /usr/bin/time -o "$times" -f '%U %S' sh -c 'ls "$1"/*.jpg | xargs -P2 -n 10 sh -c '"'"'for f; do djpeg -scale 1/8 "$f" >/dev/null; done'"'"' _' _ "$B200"
        cd_=$(awk '{ print $1 + $2 }' "$times")
        rm -f "$times"
        cpu_ratios+=("$(echo "$cq / $cd_" | bc -l)")
        printf 'cpu %-2s %9.2fs %9.2fs %19.2f\n' "$run" "$cq" "$cd_" "${cpu_ratios[-1]}"
        rm -rf "$cache"
    done
    median=$(printf '%s\n' "${ratios_d[@]}" | summary)
    printf '200 camera JPEGs, CPU seconds (user+sys), qlbrowse --no-service/djpeg median (range) %s\n' "$(printf '%s\n' "${cpu_ratios[@]}" | summary)"
    printf '200 camera JPEGs -> 256 px, 2 processes: qlbrowse/djpeg -scale 1/8 median (range) %s  target <= 1.2  %s;  qlbrowse/vipsthumbnail %s\n' \
        "$median" "$( (($(echo "${median%% *} <= 1.2" | bc -l))) && echo PASS || echo FAIL)" "$(printf '%s\n' "${ratios_v[@]}" | summary)"
fi

if [[ " ${TASKS[*]} " == *" cached "* ]]; then
    B10K=$BENCH_DIR/batch10k
    if [[ ! -d $B10K ]]; then
        mkdir -p "$B10K"
        convert -size 64x48 plasma: "$B10K/seed.jpg"
        for i in $(seq -w 1 9999); do ln "$B10K/seed.jpg" "$B10K/p$i.jpg"; done
    fi
    count=$(ls "$B10K" | wc -l)
    cache=$BENCH_DIR/cache10k
    mkdir -p "$cache"
    XDG_CACHE_HOME=$cache "$QLBROWSE" thumbnail -r "$B10K" --jobs 2 >/dev/null 2>&1 || true
    rates=()
    for run in $(seq 1 "$RUNS"); do
        t0=$(now); XDG_CACHE_HOME=$cache "$QLBROWSE" thumbnail -r "$B10K" --jobs 2 >/dev/null 2>&1 || true
        rates+=("$(echo "$count / $(elapsed "$t0" "$(now)")" | bc -l)")
    done
    median=$(printf '%s\n' "${rates[@]}" | summary)
    printf 'thumbnail -r again, %d files all cached: files/s median (range) %s  target >= 40000  %s\n' "$count" "$median" \
        "$( (($(echo "${median%% *} >= 40000" | bc -l))) && echo PASS || echo FAIL)"
fi
