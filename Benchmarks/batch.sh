#!/usr/bin/env bash
# Usage: Benchmarks/batch.sh
#
# Batch thumbnailing, side by side in one run:
#   1. 240 camera-sized JPEGs (4000x3000): `qlbrowse thumbnail -r DIR --jobs 2` into an empty cache
#      vs `vipsthumbnail -s 256` over the same files with 2 processes. Target: ratio <= 1.0.
#   2. The same batch again, every file a cache hit, on 10,000 files. Target: >= 5,000 files/s.
#   3. What the worker processes cost: `qlbrowse thumbnail --no-service --no-cache --jobs 1` vs the same
#      decoding and PNG encoding in one process (`qlbrowse-thumbnailer --in-process`). Target: <= 10 %.
# Inputs are made once under $BENCH_DIR (default /tmp/qlbrowse-bench); the camera JPEGs come from
# Benchmarks/thumbnails.sh's generator (run it first, or this script runs it for the JPEGs).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
QLBROWSE=${QLBROWSE:-$ROOT/.build/release/qlbrowse}
WORKER=$(dirname "$QLBROWSE")/qlbrowse-thumbnailer
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/qlbrowse-bench}
[[ -d $BENCH_DIR/jpeg ]] || "$ROOT/Benchmarks/thumbnails.sh" jpeg >/dev/null 2>&1 || true
mapfile -t JPEGS < <(ls "$BENCH_DIR"/jpeg/*.jpg)
[[ ${#JPEGS[@]} -ge 40 ]] || { echo "batch.sh: no camera JPEGs in $BENCH_DIR/jpeg" >&2; exit 2; }

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l; }

# 1. 240 camera JPEGs (hard links of the 48 with other names: distinct files for the cache).
B240=$BENCH_DIR/batch240
if [[ ! -d $B240 ]]; then
    mkdir -p "$B240"
    for copy in 1 2 3 4 5; do for f in "${JPEGS[@]}"; do ln "$f" "$B240/c${copy}-$(basename "$f")"; done; done
fi
count=$(ls "$B240" | wc -l)
cache=$(mktemp -d); out=$(mktemp -d)
t0=$(now); XDG_CACHE_HOME=$cache "$QLBROWSE" thumbnail -r "$B240" --jobs 2 >/dev/null 2>&1 || true; t1=$(now)
t2=$(now); ls "$B240"/*.jpg | xargs -P2 -n 20 vipsthumbnail -s 256 -o "$out/%s.png" 2>/dev/null; t3=$(now)
q=$(elapsed "$t0" "$t1"); v=$(elapsed "$t2" "$t3")
ratio=$(echo "$q / $v" | bc -l)
printf '%-44s %8.3f s  vipsthumbnail %8.3f s  ratio %.2f  target <= 1.0  %s\n' "batch -r, $count camera JPEGs, empty cache" "$q" "$v" "$ratio" \
    "$( (( $(echo "$ratio <= 1.0" | bc -l) )) && echo PASS || echo FAIL)"
rm -rf "$cache" "$out"

# 2. 10,000 files, all cache hits.
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
best=""
for run in 1 2 3; do
    t0=$(now); XDG_CACHE_HOME=$cache "$QLBROWSE" thumbnail -r "$B10K" --jobs 2 >/dev/null 2>/tmp/qlb-batch-hits.txt || true; t1=$(now)
    s=$(elapsed "$t0" "$t1"); if [[ -z $best ]] || (( $(echo "$s < $best" | bc -l) )); then best=$s; fi
done
rate=$(echo "$count / $best" | bc -l)
printf '%-44s %8.3f s  %8.0f files/s  target >= 5000  %s   (%s)\n' "batch -r again, $count files, all cached" "$best" "$rate" \
    "$( (( $(echo "$rate >= 5000" | bc -l) )) && echo PASS || echo FAIL)" "$(tail -1 /tmp/qlb-batch-hits.txt)"

# 3. Worker overhead: pool and pipes vs in-process, one decoder each, same files.
out=$(mktemp -d)
bestq=""; besti=""
for run in 1 2 3; do
    t0=$(now); "$QLBROWSE" thumbnail --no-service --no-cache -t thumbnail --jobs 1 -o "$out" "${JPEGS[@]}" >/dev/null 2>&1 || true; t1=$(now)
    t2=$(now); "$WORKER" --in-process 256 "${JPEGS[@]}" >/dev/null 2>&1 || true; t3=$(now)
    q=$(elapsed "$t0" "$t1"); i=$(elapsed "$t2" "$t3")
    if [[ -z $bestq ]] || (( $(echo "$q < $bestq" | bc -l) )); then bestq=$q; fi
    if [[ -z $besti ]] || (( $(echo "$i < $besti" | bc -l) )); then besti=$i; fi
done
overhead=$(echo "($bestq / $besti - 1) * 100" | bc -l)
printf '%-44s %8.3f s  in-process %8.3f s  overhead %+.1f %%  target <= 10 %%  %s\n' "worker pool vs in-process, ${#JPEGS[@]} JPEGs" "$bestq" "$besti" "$overhead" \
    "$( (( $(echo "$overhead <= 10" | bc -l) )) && echo PASS || echo FAIL)"
rm -rf "$out"
