#!/usr/bin/env bash
# Usage: Tests/Fixtures/make-large.sh OUTDIR
#
# Makes the two huge images for memory benchmarks (not for the test suite):
#   huge-100mp.jpg   10000x10000 RGB JPEG, Q80 (about 4.5 MB)
#   huge-20000.png   20000x20000 RGB PNG, non-interlaced (about 31 MB; 1.2 GB of pixels when decoded)
# Both are smooth sine patterns, tiled from one 2000x2000 tile with libvips (`vips` from
# libvips-tools; ImageMagick would need gigabytes of memory for these). About 5 s on 2 cores.
# Idempotent: skipped when OUTDIR/.large-complete holds this script's sha256.
set -euo pipefail

if [[ $# -ne 1 || $1 == -h || $1 == --help ]]; then
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
OUT=$1
SELF=$(readlink -f "${BASH_SOURCE[0]}")
HASH=$(sha256sum "$SELF" | cut -d' ' -f1)
STAMP=$OUT/.large-complete
if [[ -f $STAMP && "$(cat "$STAMP")" == "$HASH" && -s $OUT/huge-100mp.jpg && -s $OUT/huge-20000.png ]]; then
    echo "make-large: $OUT is up to date"
    exit 0
fi
command -v vips >/dev/null 2>&1 || {
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libvips-tools >/dev/null 2>&1 || true
    fi
    command -v vips >/dev/null 2>&1 || { echo "make-large: vips is missing (Debian package libvips-tools)" >&2; exit 1; }
}

mkdir -p "$OUT"
rm -f "$STAMP"
S=$(mktemp -d "${TMPDIR:-/tmp}/qlb-large.XXXXXX")
trap 'rm -rf "$S"' EXIT

# tile(name, hfreq, vfreq): a 2000x2000 RGB tile of sine patterns (G mirrored, B a dimmer R; PNG-friendly).
tile() {
    vips sines "$S/s.v" 2000 2000 --hfreq "$2" --vfreq "$3"
    vips linear "$S/s.v" "$S/r.v" 120 128 --uchar
    vips flip "$S/r.v" "$S/g.v" horizontal
    vips linear "$S/r.v" "$S/b.v" 0.5 64 --uchar
    vips bandjoin "$S/r.v $S/g.v $S/b.v" "$S/$1.v"
    rm -f "$S/s.v" "$S/r.v" "$S/g.v" "$S/b.v"
}

SECONDS=0
tile jpgtile 3 2
vips replicate "$S/jpgtile.v" "$S/huge-100mp.jpg[Q=80,strip]" 5 5
mv "$S/huge-100mp.jpg" "$OUT/huge-100mp.jpg"
tile pngtile 4 3
vips replicate "$S/pngtile.v" "$S/huge-20000.png[compression=6,strip]" 10 10
mv "$S/huge-20000.png" "$OUT/huge-20000.png"
echo "$HASH" >"$STAMP"
for f in huge-100mp.jpg huge-20000.png; do
    printf 'make-large: %s\n' "$(vipsheader "$OUT/$f") $(du -h "$OUT/$f" | cut -f1)"
done
echo "make-large: done in ${SECONDS} s"
