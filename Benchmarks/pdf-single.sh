#!/usr/bin/env bash
# Usage: RUNS=5 Benchmarks/pdf-single.sh
#
# The fixed cost of one call on a tiny PDF (issue 27: a client's fixed cost <= 3 ms, ratio <= 1.0):
# the corpus's PDFs with expect=ok under 20 KB, one `qlbrowse thumbnail -s 256 -o OUT FILE` each,
# the resident service warm (running, its workers have made a thumbnail) and the thumbnail cache
# empty, against `pdftoppm -scale-to 256 -singlefile -png FILE OUT` called the same way. RUNS
# rounds (default 5), the order alternating; prints each round's seconds per call and the ratio
# qlbrowse/pdftoppm, then the median (range) of the ratios.
#
# Environment: QLBROWSE (default .build/release/qlbrowse), CORPUS (default ../shared/corpus), RUNS.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
QLBROWSE=${QLBROWSE:-$ROOT/.build/release/qlbrowse}
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
RUNS=${RUNS:-5}
W=$(mktemp -d /tmp/qlb-pdf-single.XXXXXX)
SVC=$W/run
mkdir -m 700 "$SVC"
ql() { XDG_RUNTIME_DIR=$SVC XDG_STATE_HOME=$W/state "$QLBROWSE" "$@"; }
stop() {
    if [[ -f $SVC/qlbrowse/service.pid ]]; then kill -- "-$(cat "$SVC/qlbrowse/service.pid")" 2>/dev/null || true; fi
    rm -rf "$W"
}
trap stop EXIT

FILES=()
while IFS= read -r rel; do
    [[ $(stat -c %s "$CORPUS/$rel") -lt 20000 ]] && FILES+=("$CORPUS/$rel")
done < <(awk -F'\t' 'NR > 1 && $7 == "pdf" && $8 == "ok" { print $1 }' "$CORPUS/MANIFEST.tsv")
now() { date +%s.%N; }

run_qlbrowse() {
    local out=$W/ql f
    rm -rf "$out" "$out.cache" && mkdir -p "$out"
    for f in "${FILES[@]}"; do XDG_CACHE_HOME=$out.cache ql thumbnail -s 256 -o "$out" "$f" >/dev/null 2>&1 || true; done
}
run_pdftoppm() {
    local out=$W/pp f
    rm -rf "$out" && mkdir -p "$out"
    for f in "${FILES[@]}"; do pdftoppm -scale-to 256 -singlefile -png "$f" "$out/$(basename "$f")" 2>/dev/null || true; done
}
timed() { local s e; s=$(now); "$1"; e=$(now); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", b - a }'; }

# The service started and warm: one thumbnail made, then nothing of FILES cached.
XDG_CACHE_HOME=$W/warm.cache ql thumbnail -s 256 -o "$W" "${FILES[0]}" >/dev/null 2>&1
echo "${#FILES[@]} PDFs under 20 KB, one call each, service warm, $(nproc) cores"
printf '%-6s %16s %16s %8s\n' round "qlbrowse ms/call" "pdftoppm ms/call" ratio
RATIOS=()
for ((round = 1; round <= RUNS; round++)); do
    if ((round % 2)); then q=$(timed run_qlbrowse); p=$(timed run_pdftoppm); else p=$(timed run_pdftoppm); q=$(timed run_qlbrowse); fi
    ratio=$(awk -v q="$q" -v p="$p" 'BEGIN { printf "%.2f", q / p }')
    RATIOS+=("$ratio")
    awk -v r="$round" -v q="$q" -v p="$p" -v n="${#FILES[@]}" -v x="$ratio" 'BEGIN { printf "%-6s %16.1f %16.1f %8s\n", r, q * 1000 / n, p * 1000 / n, x }'
done
printf '%s\n' "${RATIOS[@]}" | sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "qlbrowse/pdftoppm per call: median %.2f (%.2f-%.2f)  target <= 1.0  %s\n", m, v[1], v[NR], (m <= 1.0) ? "PASS" : "FAIL" }'
