#!/usr/bin/env bash
# Usage: scripts/make-demo.sh OUTDIR
#
# Makes a small demo folder for trying qlbrowse: one file of each supported kind with a friendly
# name (photos, a RAW, PDF, videos, music, code, e-book, comic, office and drawing files), plus one
# damaged photo and one password-protected PDF to show how failures look. Files come from
# Tests/Fixtures/make-fixtures.sh, run into a temporary folder; no huge or hostile files.
# Idempotent: when OUTDIR/.demo-complete matches both scripts, nothing is done. Files in OUTDIR
# that this script did not make are left alone.
#
#   scripts/make-demo.sh ~/qlbrowse-demo && qlbrowse ~/qlbrowse-demo
set -euo pipefail

if [[ $# -ne 1 || $1 == -h || $1 == --help ]]; then
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
OUT=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIXTURES=$HERE/../Tests/Fixtures/make-fixtures.sh
HASH=$(cat "${BASH_SOURCE[0]}" "$FIXTURES" | sha256sum | cut -d' ' -f1)
if [[ -f $OUT/.demo-complete && "$(cat "$OUT/.demo-complete")" == "$HASH" ]]; then
    echo "make-demo: $OUT is up to date"
    exit 0
fi

S=$(mktemp -d "${TMPDIR:-/tmp}/qlb-demo.XXXXXX")
trap 'rm -rf "$S"' EXIT
"$FIXTURES" "$S/fixtures" >/dev/null

# fixture name -> demo name; entries whose fixture was not made (e.g. HEIC without libheif) are skipped.
PICKS=(
    "landscape.jpg|Holiday photo.jpg"
    "portrait-exif6.jpg|Portrait (rotated by EXIF).jpg"
    "with-exif-thumb.jpg|Camera photo with EXIF thumbnail.jpg"
    "camera.dng|Camera RAW.dng"
    "image.heic|Phone photo.heic"
    "image.avif|Web picture.avif"
    "image.webp|Web picture.webp"
    "interlaced.png|Screenshot.png"
    "animated.gif|Animation.gif"
    "image.tiff|Scan.tiff"
    "image.bmp|Old bitmap.bmp"
    "image.svg|Logo.svg"
    "doc.pdf|Report.pdf"
    "encrypted.pdf|Password protected (secret).pdf"
    "clip.mp4|Video.mp4"
    "rotated.mp4|Phone video (rotated).mp4"
    "anamorphic.mkv|Widescreen video (anamorphic).mkv"
    "clip.webm|Web video.webm"
    "clip.mov|QuickTime movie.mov"
    "clip.avi|Old video.avi"
    "song-with-cover.mp3|Song with cover.mp3"
    "song-with-cover.flac|Lossless song.flac"
    "song-with-cover.m4a|Podcast.m4a"
    "tone.wav|Voice memo.wav"
    "tone.ogg|Ringtone.ogg"
    "hello.swift|hello.swift"
    "readme.md|README.md"
    "data.json|settings.json"
    "notes.txt|Notes (Latin-1).txt"
    "doc.odt|Letter.odt"
    "book.epub|Novel.epub"
    "book2.epub|Old novel (EPUB 2).epub"
    "comic.cbz|Comic.cbz"
    "model.3mf|3D model.3mf"
    "drawing.kra|Painting.kra"
    "drawing.ora|Painting.ora"
    "truncated.jpg|Damaged photo.jpg"
)

mkdir -p "$OUT"
rm -f "$OUT/.demo-complete"
n=0
for pick in "${PICKS[@]}"; do
    src=${pick%%|*} dest=${pick#*|}
    [[ -f $S/fixtures/$src ]] || continue
    cp -f -- "$S/fixtures/$src" "$OUT/$dest"
    n=$((n + 1))
done
echo "$HASH" >"$OUT/.demo-complete"
echo "make-demo: $n files in $OUT"
