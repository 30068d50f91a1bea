#!/usr/bin/env bash
# Usage: Benchmarks/copy.sh            (RUNS=3, BENCH_DIR=/tmp/qlbrowse-bench)
#
# Copy throughput, side by side in one run: `qlbrowse files copy` (the browser's engine: a
# temporary per file, copy_file_range, metadata, an atomic rename) against `cp -r` and `rsync -a`,
# on one 1 GB file and on 10,000 files of 4 KB, between two folders of the same filesystem.
# Each tool copies into an empty folder; best of RUNS, order rotated; prints seconds, MB/s and
# qlbrowse's throughput as a fraction of cp's. Target: >= 0.9 x cp. Exit 1 when it is missed.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
QLBROWSE=${QLBROWSE:-$ROOT/.build/release/qlbrowse}
BENCH=${BENCH_DIR:-${TMPDIR:-/tmp}/qlbrowse-bench}/copy
RUNS=${RUNS:-3}
for tool in cp rsync; do command -v "$tool" >/dev/null || { echo "copy.sh: $tool is not installed (apt-get install $tool)"; exit 2; }; done
[ -x "$QLBROWSE" ] || { echo "copy.sh: build first (swift build -c release)"; exit 2; }

mkdir -p "$BENCH/big" "$BENCH/small"
[ -s "$BENCH/big/big.bin" ] || head -c 1000000000 /dev/urandom > "$BENCH/big/big.bin"
if [ "$(find "$BENCH/small" -type f | wc -l)" -ne 10000 ]; then
    rm -rf "$BENCH/small" && mkdir -p "$BENCH/small"
    for d in $(seq -w 0 99); do
        mkdir "$BENCH/small/d$d"
        for f in $(seq -w 0 99); do head -c 4096 /dev/urandom > "$BENCH/small/d$d/f$f"; done
    done
fi

now() { date +%s.%N; }
run() {  # tool source → seconds
    local tool=$1 source=$2 target="$BENCH/out-$1"
    rm -rf "$target" && mkdir -p "$target" && sync
    local start; start=$(now)
    case $tool in
        qlbrowse) "$QLBROWSE" files copy "$source" "$target" 2>/dev/null ;;
        cp) cp -r "$source" "$target/" ;;
        rsync) rsync -a "$source" "$target/" ;;
    esac
    echo "$(now) - $start" | bc
}

printf '%-28s %10s %10s %10s %12s\n' "task" "qlbrowse s" "cp s" "rsync s" "ql/cp speed"
status=0
for task in big small; do
    source="$BENCH/$task"
    bytes=$(du -sb "$source" | cut -f1)
    declare -A best=()
    for run in $(seq 1 "$RUNS"); do
        order=(qlbrowse cp rsync)
        [ $((run % 3)) -eq 1 ] && order=(cp rsync qlbrowse)
        [ $((run % 3)) -eq 2 ] && order=(rsync qlbrowse cp)
        for tool in "${order[@]}"; do
            seconds=$(run "$tool" "$source")
            if [ -z "${best[$tool]:-}" ] || [ "$(echo "$seconds < ${best[$tool]}" | bc)" = 1 ]; then best[$tool]=$seconds; fi
        done
    done
    ratio=$(echo "scale=2; ${best[cp]} / ${best[qlbrowse]}" | bc)
    label=$([ $task = big ] && echo "1 GB file" || echo "10,000 files of 4 KB")
    printf '%-28s %10.3f %10.3f %10.3f %11sx %s\n' "$label ($((bytes / 1000000)) MB)" "${best[qlbrowse]}" "${best[cp]}" "${best[rsync]}" "$ratio" \
        "$([ "$(echo "$ratio >= 0.9" | bc)" = 1 ] && echo PASS || echo FAIL)"
    [ "$(echo "$ratio >= 0.9" | bc)" = 1 ] || status=1
    unset best
done
rm -rf "$BENCH"/out-*
exit $status
