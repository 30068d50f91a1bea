#!/usr/bin/env bash
# Usage: Tests/Fixtures/make-fixtures.sh OUTDIR
#
# Generates the small test fixtures for qlbrowse into OUTDIR with real tools (ImageMagick `convert`,
# ffmpeg, exiftool, qpdf, poppler-utils and ffprobe for checks, python3 stdlib for PDF/ZIP/DNG, zip,
# GNU tar and xz; bsdtar from libarchive-tools for the 7z, which is skipped without it).
# Nothing here is committed as a binary; tests run this script and refer to the files by name.
#
# Idempotent: when OUTDIR/.complete holds the sha256 of this script, nothing is done. Otherwise the
# files listed in an older OUTDIR/fixtures.tsv are removed and everything is made again.
# About 4 MB in total; 10-15 s on 2 cores.
#
# OUTDIR/fixtures.tsv lists every fixture, tab-separated, with a header line:
#   file  kind  display_w  display_h  expect  note
#   kind      image raw pdf video audio text doc archive broken (as in ../shared/corpus/MANIFEST.tsv)
#   display_* size as displayed (after EXIF orientation, display-matrix rotation and sample aspect
#             ratio; PDF page 1 in points; audio the cover; containers the embedded thumbnail/cover);
#             empty when there is no picture (text, audio without art) or none is expected
#   expect    ok | error | either (either: depends on the decoder, e.g. a partially decodable JPEG)
# One file name contains raw escape sequences (ESC ] 0 ; pwned BEL ESC [ 2 J .txt); do not cat the
# TSV to a terminal without sanitising it.
#
# Not made here: camera raw formats other than DNG (no free encoder exists; camera.dng is a minimal but
# complete DNG written byte by byte, checked with libraw/exiftool), and the huge images for memory
# benchmarks (see make-large.sh). image.heic / image.avif are made only when ImageMagick can write them.
set -euo pipefail

if [[ $# -ne 1 || $1 == -h || $1 == --help ]]; then
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
    exit 2
fi

OUT=$1
SELF=$(readlink -f "${BASH_SOURCE[0]}")
HASH=$(sha256sum "$SELF" | cut -d' ' -f1)
if [[ -f $OUT/.complete && "$(cat "$OUT/.complete")" == "$HASH" ]]; then
    echo "make-fixtures: $OUT is up to date"
    exit 0
fi

log() { printf 'make-fixtures: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# --- tools -------------------------------------------------------------------------------------
install_pkg() { # command package
    command -v "$1" >/dev/null 2>&1 && return 0
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        log "installing $2"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null 2>&1 ||
            { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null 2>&1; } ||
            die "could not install $2"
    fi
    command -v "$1" >/dev/null 2>&1 || die "$1 is missing (Debian package $2)"
}
install_pkg zip zip
install_pkg qpdf qpdf
for t in convert identify ffmpeg ffprobe exiftool pdfinfo sha256sum; do
    command -v "$t" >/dev/null 2>&1 || die "$t is missing (imagemagick ffmpeg libimage-exiftool-perl poppler-utils)"
done
PY=/usr/bin/python3
[[ -x $PY ]] || PY=$(command -v python3) || die "python3 is missing"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT/.complete"
# Remove what an older version of this script made (only names it listed, never anything else).
if [[ -f $OUT/fixtures.tsv ]]; then
    tail -n +2 "$OUT/fixtures.tsv" | cut -f1 | while IFS= read -r f; do
        [[ -n $f && $f != */* ]] && rm -f -- "$OUT/$f"
    done
    rm -f "$OUT/fixtures.tsv"
fi

S=$(mktemp -d "${TMPDIR:-/tmp}/qlb-fixtures.XXXXXX")
trap 'rm -rf "$S"' EXIT

ROWS=()
row() { # file kind display_w display_h expect note
    [[ -e $OUT/$1 ]] || die "fixture $1 was not made"
    ROWS+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s' "$@")")
}

# ImageMagick options for 8-bit PNGs without date/time chunks (repeated runs give the same bytes).
# shellcheck disable=SC2054 # the commas belong to the ImageMagick option
PNGOPTS=(-depth 8 -define png:exclude-chunks=date,time +set date:create +set date:modify)

# scene W H -> ImageMagick arguments for a non-flat picture with shapes (no fonts needed)
scene() {
    local w=$1 h=$2
    printf '%s\n' -size "${w}x${h}" "gradient:#1e3c72-#7fb3d5" \
        -fill '#f4d03f' -draw "circle $((w / 4)),$((h / 3)) $((w / 4 + w / 9)),$((h / 3))" \
        -fill '#c0392b' -draw "rectangle $((w / 2)),$((h / 2)) $((w * 9 / 10)),$((h * 9 / 10))" \
        -fill '#27ae60' -draw "polygon $((w / 10)),$((h * 9 / 10)) $((w * 2 / 5)),$((h * 9 / 10)) $((w / 4)),$((h * 11 / 20))" \
        -stroke white -strokewidth "$(((w + 399) / 400))" -draw "line 0,0 $((w - 1)),$((h - 1))" -stroke none \
        -alpha off -depth 8
}
scene_args() { mapfile -t SCENE < <(scene "$1" "$2"); }

log "images"
convert -seed 42 -size 640x480 plasma:fractal -blur 0x1 \
    -fill '#c0392b' -draw 'rectangle 420,300 600,440' -fill '#f4d03f' -draw 'circle 160,160 220,160' \
    -strip -quality 85 "$OUT/landscape.jpg"
row landscape.jpg image 640 480 ok "plasma + shapes, baseline JPEG"
convert "$OUT/landscape.jpg" -interlace JPEG -quality 85 "$OUT/progressive.jpg"
row progressive.jpg image 640 480 ok "progressive JPEG (decoded by libvips, not the baseline fast path)"
convert "$OUT/landscape.jpg" -colorspace CMYK -quality 85 "$OUT/cmyk.jpg"
row cmyk.jpg image 640 480 ok "CMYK JPEG (decoded by libvips, not the baseline fast path)"

# Upright 480x640 picture with a red band along its top edge, stored rotated 90 degrees
# counter-clockwise (640x480) with EXIF Orientation 6 ("rotate 90 CW to display").
scene_args 480 640
convert "${SCENE[@]}" -fill '#ff0000' -draw 'rectangle 0,0 479,63' -rotate -90 -strip -quality 85 "$OUT/portrait-exif6.jpg"
exiftool -q -overwrite_original -Orientation#=6 "$OUT/portrait-exif6.jpg"
row portrait-exif6.jpg image 480 640 ok "stored 640x480, EXIF Orientation 6; displayed upright the top 64 rows are red"

scene_args 1600 1200
convert "${SCENE[@]}" -strip -quality 85 "$OUT/with-exif-thumb.jpg"
convert "$OUT/with-exif-thumb.jpg" -resize 160x120 -strip -quality 80 "$S/exif-thumb.jpg"
exiftool -q -overwrite_original -Make=qlbrowse -Model='Fixture Camera' \
    "-ThumbnailImage<=$S/exif-thumb.jpg" "$OUT/with-exif-thumb.jpg"
row with-exif-thumb.jpg image 1600 1200 ok "EXIF IFD1 thumbnail 160x120 (same picture scaled down)"

convert -size 300x200 'gradient:#ff0000-#0000ff' -fill '#00ff00' -draw 'circle 150,100 190,100' \
    "${PNGOPTS[@]}" -depth 16 "PNG48:$OUT/rgb16.png"
row rgb16.png image 300 200 ok "16-bit RGB PNG"

scene_args 300 200
convert "${SCENE[@]}" -colors 16 "${PNGOPTS[@]}" "PNG8:$OUT/palette.png"
row palette.png image 300 200 ok "8-bit palette PNG, 16 colours"

convert "${SCENE[@]}" -interlace PNG "${PNGOPTS[@]}" "PNG24:$OUT/interlaced.png"
row interlaced.png image 300 200 ok "Adam7 interlaced PNG"

convert -delay 50 -loop 0 \
    \( -size 200x100 'xc:#c0392b' -fill white -draw 'circle 40,50 70,50' \) \
    \( -size 200x100 'xc:#27ae60' -fill white -draw 'circle 100,50 130,50' \) \
    \( -size 200x100 'xc:#2980b9' -fill white -draw 'circle 160,50 190,50' \) \
    "$OUT/animated.gif"
row animated.gif image 200 100 ok "3 frames: red, green, blue, a white disc moving right"
# The same three frames as APNG and animated WebP (libav reads APNG but cannot time it; it cannot
# read animated WebP at all).
ffmpeg -v error -y -i "$OUT/animated.gif" -plays 0 -f apng "$OUT/animated.png"
row animated.png image 200 100 ok "APNG, the GIF's 3 frames, 0.5 s each"
ffmpeg -v error -y -i "$OUT/animated.gif" -c:v libwebp -lossless 1 -loop 0 "$OUT/animated.webp"
row animated.webp image 200 100 ok "animated WebP, the GIF's 3 frames, 0.5 s each"

scene_args 400 300
convert "${SCENE[@]}" -quality 80 "$OUT/image.webp"
row image.webp image 400 300 ok "lossy WebP"
convert "${SCENE[@]}" -compress lzw "$OUT/image.tiff"
row image.tiff image 400 300 ok "RGB TIFF, LZW"
convert "${SCENE[@]}" "BMP3:$OUT/image.bmp"
row image.bmp image 400 300 ok "24-bit BMP (v3 header)"

cat >"$OUT/image.svg" <<'SVG'
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1e3c72"/>
      <stop offset="1" stop-color="#7fb3d5"/>
    </linearGradient>
  </defs>
  <rect width="200" height="100" fill="url(#sky)"/>
  <circle cx="50" cy="33" r="22" fill="#f4d03f"/>
  <rect x="100" y="50" width="80" height="40" fill="#c0392b" stroke="#ffffff" stroke-width="2"/>
  <polygon points="20,90 80,90 50,55" fill="#27ae60"/>
  <path d="M0,0 L200,100" stroke="#ffffff" stroke-width="1"/>
</svg>
SVG
row image.svg image 200 100 ok "hand-written SVG with a gradient and shapes"

# HEIC and AVIF only when this ImageMagick has a libheif that can encode them.
# The list is read whole first: `convert … | grep -q` under pipefail fails when grep stops reading
# at its match and convert dies of SIGPIPE, which a busy machine made happen (CI lost image.heic so).
formats=$(convert -list format 2>/dev/null || true)
for fmt in heic avif; do
    if grep -qiE "^ *${fmt}\*? +[a-z0-9]+ +rw" <<<"$formats"; then
        # This ImageMagick says it writes the format: a failure is tried again, then is an error,
        # never a set marked complete without the file (a loaded machine once lost image.heic so,
        # and the suites that use it failed later with a missing file).
        for attempt in 1 2 3; do
            convert "${SCENE[@]}" -quality 60 "$S/image.$fmt" 2>"$S/convert-$fmt.log" && [[ -s $S/image.$fmt ]] && break
            rm -f "$S/image.$fmt"
        done
        if [[ ! -s $S/image.$fmt ]]; then
            echo "make-fixtures: ImageMagick lists $fmt as writable but could not write it: $(tail -n 3 "$S/convert-$fmt.log")" >&2
            exit 1
        fi
        mv "$S/image.$fmt" "$OUT/image.$fmt"
        row "image.$fmt" image 400 300 ok "${fmt^^} written by ImageMagick/libheif"
    fi
done

# Pictures that go inside documents, containers and the DNG.
convert -size 128x180 'gradient:#fdfefe-#aab7b8' -fill '#2c3e50' -draw 'rectangle 12,16 116,28' \
    -draw 'rectangle 12,40 100,46' -draw 'rectangle 12,54 110,60' -draw 'rectangle 12,68 90,74' \
    "${PNGOPTS[@]}" "$S/odt-thumb.png"
convert -size 300x450 'gradient:#6c3483-#f5b041' -fill white -draw 'rectangle 30,60 270,130' \
    -fill '#1b2631' -draw 'circle 150,300 150,230' -quality 85 -strip "$S/epub3-cover.jpg"
convert -size 320x480 'gradient:#117a65-#d4efdf' -fill '#922b21' -draw 'rectangle 40,40 280,120' \
    -quality 85 -strip "$S/epub2-cover.jpg"
PAGE_COLOURS=('#e74c3c' '#3498db' '#2ecc71')
for i in 1 2 3; do
    convert -size 200x300 "xc:#fdfefe" -fill black -draw 'rectangle 8,8 191,145' -draw 'rectangle 8,154 191,291' \
        -fill "${PAGE_COLOURS[i - 1]}" -draw "circle $((40 * i + 20)),76 $((40 * i + 45)),76" \
        -quality 80 -strip "$S/page0$i.jpg"
done
convert -size 200x150 'gradient:#d5d8dc-#566573' -fill '#e67e22' \
    -draw 'polygon 100,20 170,60 170,110 100,140 30,110 30,60' "${PNGOPTS[@]}" "$S/3mf-thumb.png"
scene_args 800 600
convert "${SCENE[@]}" "${PNGOPTS[@]}" "$S/merged.png"
convert "$S/merged.png" -resize 256x192 "${PNGOPTS[@]}" "$S/preview256.png"
convert -size 300x300 'gradient:#c0392b-#8e44ad' -fill white -draw 'circle 150,150 150,60' \
    -fill '#1b2631' -draw 'circle 150,150 150,135' -quality 85 -strip "$S/cover.jpg"
convert -size 240x240 'gradient:#f1c40f-#16a085' -fill '#1b2631' -draw 'rectangle 60,60 180,180' \
    "${PNGOPTS[@]}" "$S/cover.png"
# DNG inputs: a 320x240 scene as raw RGB bytes, its 160x120 thumbnail and a JPEG preview.
scene_args 320 240
convert "${SCENE[@]}" -depth 8 "rgb:$S/dng-scene.rgb"
convert "${SCENE[@]}" -resize 160x120 -depth 8 "rgb:$S/dng-thumb.rgb"
convert "${SCENE[@]}" -sampling-factor 2x2 -quality 85 -strip "$S/dng-preview.jpg"

log "documents, text, containers, raw, hostile files"
"$PY" - "$OUT" "$S" <<'PY'
import colorsys, os, random, struct, sys, zipfile, zlib

OUT, S = sys.argv[1], sys.argv[2]
def out(name): return os.path.join(OUT, name)
def scratch(name):
    with open(os.path.join(S, name), "rb") as f:
        return f.read()

# ---- PDF: 2 letter pages, text in the standard Helvetica font (no embedding needed) -----------
DOC_PAGES = [
    ("qlbrowse fixture", "Page 1 of 2", (0.16, 0.32, 0.62),
     ["A minimal hand-written PDF 1.4 document.", "Two US Letter pages, 612 x 792 points.",
      "Text uses the standard Helvetica font."]),
    ("Second page", "Page 2 of 2", (0.75, 0.22, 0.17),
     ["Thumbnailers render page 1 only.", "This page is red so a wrong page is easy to spot."]),
]
def make_pdf(path, pages=DOC_PAGES):
    objs = {}
    objs[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = []
    n = 4
    for title, sub, (r, g, b), lines in pages:
        page, content = n, n + 1
        n += 2
        kids.append(page)
        ops = [f"{r} {g} {b} rg 54 612 504 126 re f",
               "BT /F1 36 Tf 1 1 1 rg 78 664 Td (%s) Tj ET" % title,
               f"{r} {g} {b} rg 54 90 504 8 re f",
               "BT /F1 16 Tf 0 0 0 rg 72 570 Td (%s) Tj" % sub]
        for line in lines:
            ops.append("0 -26 Td (%s) Tj" % line)
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objs[content] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
        objs[page] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                      b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content)
    objs[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    objs[3] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    info = n
    objs[info] = b"<< /Title (qlbrowse test document) /Producer (make-fixtures.sh) >>"
    data = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for num in sorted(objs):
        offsets[num] = len(data)
        data += b"%d 0 obj\n" % num + objs[num] + b"\nendobj\n"
    xref = len(data)
    count = max(objs) + 1
    data += b"xref\n0 %d\n0000000000 65535 f \n" % count
    for num in range(1, count):
        data += b"%010d 00000 n \n" % offsets[num]
    data += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (count, info, xref)
    with open(path, "wb") as f:
        f.write(data)

make_pdf(out("doc.pdf"))
# 12 pages for paging previews: each page's band has its own colour (hue k/12).
make_pdf(out("pages12.pdf"), [
    ("Page %d" % k, "Page %d of 12" % k, tuple(round(c, 3) for c in colorsys.hsv_to_rgb((k - 1) / 12, 0.8, 0.8)),
     ["Each page of this document has a band of its own colour."])
    for k in range(1, 13)])
with open(out("broken.pdf"), "wb") as f:
    f.write(open(out("doc.pdf"), "rb").read()[:300])
with open(out("notreally.pdf"), "w") as f:
    f.write("This is a plain text file with a .pdf extension.\nIt is not a PDF document.\n")

# ---- text --------------------------------------------------------------------------------------
swift = """// hello.swift: a small program for text previews.
import Foundation

/// A greeting for one person.
struct Greeting {
    let name: String
    let excited: Bool

    /// The text to print.
    var text: String {
        let mark = excited ? "!" : "."
        return "Hello, \\(name)\\(mark)"
    }
}

enum Mood: CaseIterable {
    case calm, cheerful, sleepy
}

func greetings(for names: [String]) -> [Greeting] {
    names.enumerated().map { index, name in
        Greeting(name: name, excited: index.isMultiple(of: 2))
    }
}

let names = CommandLine.arguments.dropFirst()
for greeting in greetings(for: Array(names.isEmpty ? ["world"] : names)) {
    print(greeting.text)
}
print("Moods: \\(Mood.allCases.count)")
"""
assert swift.count("\n") == 30, swift.count("\n")
open(out("hello.swift"), "w").write(swift)

open(out("readme.md"), "w").write("""# Fixture README

This Markdown file is a **text** fixture for qlbrowse.

## List

- one item
- two items with `code`
- a [link](https://example.org)

```sh
qlbrowse thumbnail readme.md
```

| column | value |
|--------|-------|
| a      | 1     |
""")

open(out("data.json"), "w").write("""{
  "name": "qlbrowse",
  "kind": "fixture",
  "numbers": [1, 2, 3.5, -4e3],
  "nested": {"ok": true, "nothing": null, "text": "caf\\u00e9"},
  "list": [{"id": 1}, {"id": 2}]
}
""")

with open(out("notes.txt"), "wb") as f:
    f.write("Notes in ISO-8859-1 (Latin-1), not UTF-8.\n"
            "Café, crème brûlée, naïve façade, Ångström, Straße, señor, déjà vu.\n"
            "Prices: 5 € is not in Latin-1, so it is written as EUR; 10 £, 3 ¥, 100 °C, ± 2 µm.\n"
            .replace("€", "EUR").encode("latin-1"))

with open(out("crlf.txt"), "wb") as f:
    f.write(b"This file uses Windows line endings.\r\nSecond line.\r\n\r\nFourth line after an empty one.\r\n")

ESC, BEL = "\x1b", "\x07"
with open(out("with-escapes.txt"), "wb") as f:
    f.write(("Plain text before the escapes.\n"
             f"title change: {ESC}]0;pwned{BEL} screen clear: {ESC}[2J end\n"
             f"colour: {ESC}[31mred{ESC}[0m, cursor home: {ESC}[H, OSC 52 clipboard: {ESC}]52;c;cHduZWQ={BEL}\n"
             f"backspaces: abc\b\b\bXYZ, carriage return: hidden\rshown, C1 CSI: \u009b2J\n"
             "Plain text after the escapes.\n").encode("utf-8"))

with open(out(f"{ESC}]0;pwned{BEL}{ESC}[2J.txt"), "w") as f:
    f.write("The name of this file contains escape sequences; it must be shown escaped.\n")

# ---- ZIP containers ------------------------------------------------------------------------------
DATE = (2024, 1, 1, 12, 0, 0)
def zadd(z, name, data, stored=False):
    info = zipfile.ZipInfo(name, date_time=DATE)
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    z.writestr(info, data)

def mimetype_zip(path, mimetype):
    z = zipfile.ZipFile(path, "w")
    zadd(z, "mimetype", mimetype, stored=True)  # first, stored, no extra field
    return z

with mimetype_zip(out("doc.odt"), "application/vnd.oasis.opendocument.text") as z:
    zadd(z, "content.xml", """<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3">
  <office:body><office:text>
    <text:h text:outline-level="1">qlbrowse fixture</text:h>
    <text:p>An OpenDocument text with a 128x180 thumbnail.</text:p>
  </office:text></office:body>
</office:document-content>
""")
    zadd(z, "meta.xml", """<?xml version="1.0" encoding="UTF-8"?>
<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3">
  <office:meta><dc:title>qlbrowse fixture</dc:title></office:meta>
</office:document-meta>
""")
    zadd(z, "Thumbnails/thumbnail.png", scratch("odt-thumb.png"))
    zadd(z, "META-INF/manifest.xml", """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
  <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text" manifest:version="1.3"/>
  <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
  <manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/>
  <manifest:file-entry manifest:full-path="Thumbnails/thumbnail.png" manifest:media-type="image/png"/>
</manifest:manifest>
""")

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
"""
def xhtml(title, body):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>{title}</title></head>
<body>{body}</body>
</html>
"""

with mimetype_zip(out("book.epub"), "application/epub+zip") as z:
    zadd(z, "META-INF/container.xml", CONTAINER)
    zadd(z, "OEBPS/content.opf", """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:7d0b2c4e-5a43-4f0a-9d4e-2f1f0c9a0001</dc:identifier>
    <dc:title>qlbrowse EPUB 3 fixture</dc:title>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2024-01-01T12:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="ch1" href="chapter1.xhtml" media-type="application/xhtml+xml"/>
    <item id="cover-img" properties="cover-image" href="cover.jpg" media-type="image/jpeg"/>
  </manifest>
  <spine>
    <itemref idref="ch1"/>
  </spine>
</package>
""")
    zadd(z, "OEBPS/nav.xhtml", xhtml("Contents",
        '<nav epub:type="toc"><ol><li><a href="chapter1.xhtml">Chapter 1</a></li></ol></nav>'))
    zadd(z, "OEBPS/chapter1.xhtml", xhtml("Chapter 1", "<h1>Chapter 1</h1><p>Once upon a time.</p>"))
    zadd(z, "OEBPS/cover.jpg", scratch("epub3-cover.jpg"))

with mimetype_zip(out("book2.epub"), "application/epub+zip") as z:
    zadd(z, "META-INF/container.xml", CONTAINER)
    zadd(z, "OEBPS/content.opf", """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:identifier id="uid">urn:uuid:7d0b2c4e-5a43-4f0a-9d4e-2f1f0c9a0002</dc:identifier>
    <dc:title>qlbrowse EPUB 2 fixture</dc:title>
    <dc:language>en</dc:language>
    <meta name="cover" content="cover-id"/>
  </metadata>
  <manifest>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="ch1" href="text/chapter1.xhtml" media-type="application/xhtml+xml"/>
    <item id="cover-id" href="images/cover.jpg" media-type="image/jpeg"/>
  </manifest>
  <spine toc="ncx">
    <itemref idref="ch1"/>
  </spine>
</package>
""")
    zadd(z, "OEBPS/toc.ncx", """<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <head><meta name="dtb:uid" content="urn:uuid:7d0b2c4e-5a43-4f0a-9d4e-2f1f0c9a0002"/></head>
  <docTitle><text>qlbrowse EPUB 2 fixture</text></docTitle>
  <navMap><navPoint id="p1" playOrder="1"><navLabel><text>Chapter 1</text></navLabel>
    <content src="text/chapter1.xhtml"/></navPoint></navMap>
</ncx>
""")
    zadd(z, "OEBPS/text/chapter1.xhtml", xhtml("Chapter 1", "<h1>Chapter 1</h1><p>It was a dark night.</p>"))
    zadd(z, "OEBPS/images/cover.jpg", scratch("epub2-cover.jpg"))

# AppleDouble resource fork as written by macOS Finder into __MACOSX/ (named .jpg, not a JPEG).
appledouble = (struct.pack(">II16sH", 0x00051607, 0x00020000, b"Mac OS X        ", 1)
               + struct.pack(">III", 9, 0x32 - 6, 32)).ljust(0x32 - 6, b"\0") + b"JPEGprvw" + bytes(24)
with zipfile.ZipFile(out("comic.cbz"), "w") as z:
    zadd(z, "__MACOSX/._page01.jpg", appledouble)
    for i in (1, 2, 3):
        zadd(z, f"page0{i}.jpg", scratch(f"page0{i}.jpg"), stored=True)

with zipfile.ZipFile(out("model.3mf"), "w") as z:
    zadd(z, "[Content_Types].xml", """<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
  <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
  <Default Extension="png" ContentType="image/png"/>
</Types>
""")
    zadd(z, "_rels/.rels", """<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
  <Relationship Target="/Metadata/thumbnail.png" Id="rel1" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"/>
</Relationships>
""")
    zadd(z, "3D/3dmodel.model", """<?xml version="1.0" encoding="UTF-8"?>
<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">
  <resources>
    <object id="1" type="model">
      <mesh>
        <vertices>
          <vertex x="0" y="0" z="0"/><vertex x="10" y="0" z="0"/>
          <vertex x="5" y="8.66" z="0"/><vertex x="5" y="2.89" z="8.16"/>
        </vertices>
        <triangles>
          <triangle v1="0" v2="2" v3="1"/><triangle v1="0" v2="1" v3="3"/>
          <triangle v1="1" v2="2" v3="3"/><triangle v1="2" v2="0" v3="3"/>
        </triangles>
      </mesh>
    </object>
  </resources>
  <build><item objectid="1"/></build>
</model>
""")
    zadd(z, "Metadata/thumbnail.png", scratch("3mf-thumb.png"))

with mimetype_zip(out("drawing.kra"), "application/x-krita") as z:
    zadd(z, "maindoc.xml", """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE DOC PUBLIC '-//KDE//DTD krita 2.0//EN' 'http://www.calligra.org/DTD/krita-2.0.dtd'>
<DOC xmlns="http://www.calligra.org/DTD/krita" syntaxVersion="2" editor="Krita" kritaVersion="5.1.5">
  <IMAGE name="fixture" mime="application/x-kra" width="800" height="600" colorspacename="RGBA" x-res="300" y-res="300">
    <layers/>
  </IMAGE>
</DOC>
""")
    zadd(z, "documentinfo.xml", """<?xml version="1.0" encoding="UTF-8"?>
<document-info xmlns="http://www.calligra.org/DTD/document-info"><about><title>fixture</title></about></document-info>
""")
    zadd(z, "preview.png", scratch("preview256.png"))
    zadd(z, "mergedimage.png", scratch("merged.png"))

with mimetype_zip(out("drawing.ora"), "image/openraster") as z:
    zadd(z, "stack.xml", """<?xml version="1.0" encoding="UTF-8"?>
<image version="0.0.5" w="800" h="600">
  <stack>
    <layer name="background" src="data/layer0.png" x="0" y="0" opacity="1.0" visibility="visible"/>
  </stack>
</image>
""")
    zadd(z, "data/layer0.png", scratch("merged.png"))
    zadd(z, "Thumbnails/thumbnail.png", scratch("preview256.png"))
    zadd(z, "mergedimage.png", scratch("merged.png"))

# ---- DNG: IFD0 = 160x120 RGB thumbnail, SubIFD 1 = 320x240 12-bit RGGB mosaic (uncompressed),
#      SubIFD 2 = 320x240 JPEG preview. Colour: camera space = linear sRGB, D65.
BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, SRATIONAL = 1, 2, 3, 4, 5, 7, 10
SIZES = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, UNDEFINED: 1, SRATIONAL: 8}

class Tiff:
    def __init__(self):
        self.buf = bytearray(b"II*\0\0\0\0\0")
    def align(self):
        if len(self.buf) % 2:
            self.buf += b"\0"
    def blob(self, data):
        self.align()
        off = len(self.buf)
        self.buf += data
        return off
    def ifd(self, entries):
        """entries: {tag: (type, values)}; returns the IFD's offset."""
        def pack(typ, vals):
            if typ == ASCII:
                return vals.encode("ascii") + b"\0", len(vals) + 1
            if typ in (BYTE, UNDEFINED):
                return bytes(vals), len(vals)
            if typ in (RATIONAL, SRATIONAL):
                fmt = "<ii" if typ == SRATIONAL else "<II"
                return b"".join(struct.pack(fmt, n, d) for n, d in vals), len(vals)
            return b"".join(struct.pack("<H" if typ == SHORT else "<I", v) for v in vals), len(vals)
        self.align()
        start = len(self.buf)
        extra_at = start + 2 + 12 * len(entries) + 4
        table, extra = bytearray(struct.pack("<H", len(entries))), bytearray()
        for tag in sorted(entries):
            typ, vals = entries[tag]
            data, count = pack(typ, vals)
            if len(data) <= 4:
                table += struct.pack("<HHI", tag, typ, count) + data.ljust(4, b"\0")
            else:
                if (extra_at + len(extra)) % 2:
                    extra += b"\0"
                table += struct.pack("<HHII", tag, typ, count, extra_at + len(extra))
                extra += data
        table += b"\0\0\0\0"
        self.buf += table + extra
        return start

W, H, TW, TH = 320, 240, 160, 120
rgb = scratch("dng-scene.rgb")
assert len(rgb) == W * H * 3
lin = [round((v / 255) ** 2.2 * 4095) for v in range(256)]
cfa = bytearray(W * H * 2)
for y in range(H):
    for x in range(W):
        c = (0, 1, 1, 2)[(y % 2) * 2 + (x % 2)]          # RGGB
        struct.pack_into("<H", cfa, (y * W + x) * 2, lin[rgb[(y * W + x) * 3 + c]])
thumb, preview = scratch("dng-thumb.rgb"), scratch("dng-preview.jpg")
assert len(thumb) == TW * TH * 3

t = Tiff()
raw_off, thumb_off, prev_off = t.blob(bytes(cfa)), t.blob(thumb), t.blob(preview)
raw_ifd = t.ifd({
    254: (LONG, [0]), 256: (LONG, [W]), 257: (LONG, [H]), 258: (SHORT, [16]), 259: (SHORT, [1]),
    262: (SHORT, [32803]), 273: (LONG, [raw_off]), 277: (SHORT, [1]), 278: (LONG, [H]),
    279: (LONG, [len(cfa)]), 284: (SHORT, [1]),
    33421: (SHORT, [2, 2]), 33422: (BYTE, [0, 1, 1, 2]), 50710: (BYTE, [0, 1, 2]), 50711: (SHORT, [1]),
    50713: (SHORT, [1, 1]), 50714: (LONG, [0]), 50717: (LONG, [4095]),
    50719: (LONG, [0, 0]), 50720: (LONG, [W, H]),
})
prev_ifd = t.ifd({
    254: (LONG, [1]), 256: (LONG, [W]), 257: (LONG, [H]), 258: (SHORT, [8, 8, 8]), 259: (SHORT, [7]),
    262: (SHORT, [6]), 273: (LONG, [prev_off]), 277: (SHORT, [3]), 278: (LONG, [H]),
    279: (LONG, [len(preview)]), 284: (SHORT, [1]), 530: (SHORT, [2, 2]), 50970: (LONG, [2]),
})
xyz_to_cam = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
ifd0 = t.ifd({
    254: (LONG, [1]), 256: (LONG, [TW]), 257: (LONG, [TH]), 258: (SHORT, [8, 8, 8]), 259: (SHORT, [1]),
    262: (SHORT, [2]), 271: (ASCII, "qlbrowse"), 272: (ASCII, "Fixture DNG"), 273: (LONG, [thumb_off]),
    274: (SHORT, [1]), 277: (SHORT, [3]), 278: (LONG, [TH]), 279: (LONG, [len(thumb)]), 284: (SHORT, [1]),
    305: (ASCII, "make-fixtures.sh"), 330: (LONG, [raw_ifd, prev_ifd]),
    50706: (BYTE, [1, 4, 0, 0]), 50707: (BYTE, [1, 1, 0, 0]), 50708: (ASCII, "qlbrowse Fixture DNG"),
    50721: (SRATIONAL, [(round(v * 10000), 10000) for v in xyz_to_cam]),
    50728: (RATIONAL, [(1, 1)] * 3), 50778: (SHORT, [21]),
})
struct.pack_into("<I", t.buf, 4, ifd0)
open(out("camera.dng"), "wb").write(t.buf)

# ---- hostile -------------------------------------------------------------------------------------
# A valid signature and IHDR (300x200 RGB) so sniffing says PNG, then an IDAT of random bytes with a
# correct CRC (the inflater is what fails), and no IEND.
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
with open(out("garbage.png"), "wb") as f:
    rnd = random.Random(1234)
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 300, 200, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", bytes(rnd.getrandbits(8) for _ in range(4096))))
open(out("empty.jpg"), "wb").close()

# One entry that inflates to 1 GiB of zeros (about 1 MB compressed), named like a comic page.
info = zipfile.ZipInfo("page01.jpg", date_time=DATE)
info.compress_type = zipfile.ZIP_DEFLATED
with zipfile.ZipFile(out("zipbomb.cbz"), "w", compresslevel=1) as z:
    with z.open(info, "w") as f:
        zeros = bytes(1 << 20)
        for _ in range(1024):
            f.write(zeros)
PY

pdfinfo "$OUT/doc.pdf" 2>/dev/null | grep '^Pages: *2$' >/dev/null || die "poppler does not read doc.pdf as 2 pages"
row doc.pdf pdf 612 792 ok "hand-written PDF 1.4, 2 Letter pages, Helvetica text; page 2 is red"
pdfinfo "$OUT/pages12.pdf" 2>/dev/null | grep '^Pages: *12$' >/dev/null || die "poppler does not read pages12.pdf as 12 pages"
row pages12.pdf pdf 612 792 ok "hand-written PDF 1.4, 12 Letter pages, each with a band of its own colour"
qpdf --encrypt secret owner 256 -- "$OUT/doc.pdf" "$OUT/encrypted.pdf"
if pdfinfo "$OUT/encrypted.pdf" >/dev/null 2>&1 || ! pdfinfo -upw secret "$OUT/encrypted.pdf" >/dev/null 2>&1; then
    die "encrypted.pdf does not behave as a user-password PDF"
fi
row encrypted.pdf pdf 612 792 error "AES-256 (R6), user password 'secret', owner password 'owner'"
row broken.pdf broken '' '' error "first 300 bytes of doc.pdf"
row notreally.pdf broken '' '' either "plain text named .pdf (a text preview or a clean error)"

row hello.swift text '' '' ok "30 lines of Swift"
row readme.md text '' '' ok "Markdown"
row data.json text '' '' ok "JSON"
row notes.txt text '' '' ok "ISO-8859-1 with accents (not valid UTF-8)"
row crlf.txt text '' '' ok "CRLF line endings"
row with-escapes.txt text '' '' ok "raw OSC/CSI/C1 escape sequences, backspaces and CR in the text"
EVIL=$'\e]0;pwned\a\e[2J.txt'
row "$EVIL" text '' '' ok "file NAME contains ESC ] 0 ; pwned BEL ESC [ 2 J"

row doc.odt doc 128 180 ok "mimetype stored first; Thumbnails/thumbnail.png 128x180"
row book.epub doc 300 450 ok "EPUB 3, manifest item properties=cover-image, OEBPS/cover.jpg 300x450"
row book2.epub doc 320 480 ok "EPUB 2, <meta name=cover content=cover-id>, OEBPS/images/cover.jpg 320x480"
row comic.cbz doc 200 300 ok "__MACOSX/._page01.jpg first (AppleDouble junk), then page01..03.jpg 200x300"
row model.3mf doc 200 150 ok "3MF with Metadata/thumbnail.png 200x150"
row drawing.kra doc 800 600 ok "Krita: mimetype, preview.png 256x192, mergedimage.png 800x600"
row drawing.ora doc 800 600 ok "OpenRaster: mimetype, stack.xml, Thumbnails/thumbnail.png 256x192, mergedimage.png 800x600"
row camera.dng raw 320 240 ok "hand-built DNG 1.4: IFD0 RGB thumbnail 160x120, raw RGGB 320x240 12-bit, JPEG preview 320x240"

head -c 2000 "$OUT/landscape.jpg" >"$OUT/truncated.jpg"
row truncated.jpg broken 640 480 either "first 2000 bytes of landscape.jpg (header intact, most scans missing)"
row garbage.png broken '' '' error "PNG signature and IHDR 300x200, then an IDAT of 4 KiB random bytes, no IEND (libvips with fail_on=none returns a blank 300x200 image: that is not a thumbnail)"
row empty.jpg broken '' '' error "0 bytes"
row zipbomb.cbz broken '' '' error "page01.jpg inflates to 1 GiB of zeros (about 1 MB compressed)"

log "video"
FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)
X264=(-c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p)
# 1 s of black, then 4 s of testsrc, with a 440 Hz tone.
"${FF[@]}" -f lavfi -i "color=c=black:s=320x240:r=25:d=1[a];testsrc=s=320x240:r=25:d=4[b];[a][b]concat=n=2:v=1:a=0" \
    -f lavfi -i "sine=f=440:d=5" "${X264[@]}" -c:a aac -b:a 48k -shortest -movflags +faststart "$OUT/clip.mp4"
row clip.mp4 video 320 240 ok "H.264 + AAC, 5 s; the first second is black"
"${FF[@]}" -i "$OUT/clip.mp4" -map 0 -c copy "$OUT/clip.mkv"
row clip.mkv video 320 240 ok "clip.mp4 remuxed to Matroska"
"${FF[@]}" -i "$OUT/clip.mp4" -map 0 -c copy "$OUT/clip.mov"
row clip.mov video 320 240 ok "clip.mp4 remuxed to QuickTime"
"${FF[@]}" -i "$OUT/clip.mp4" -c:v mpeg4 -q:v 6 -c:a libmp3lame -b:a 64k "$OUT/clip.avi"
row clip.avi video 320 240 ok "MPEG-4 Part 2 + MP3 in AVI"
"${FF[@]}" -i "$OUT/clip.mp4" -c:v libvpx -deadline realtime -cpu-used 8 -b:v 200k -c:a libvorbis -q:a 1 "$OUT/clip.webm"
row clip.webm video 320 240 ok "VP8 + Vorbis in WebM"
# A realtime encoder's WebM: one keyframe (at the start, black), the format's duration but none per
# stream; and the same streamed through a pipe, so the file has no duration at all (issue 23).
BLACK_LEAD=(-f lavfi -i "color=c=black:s=320x240:r=25:d=0.5[a];testsrc=s=320x240:r=25:d=4.5[b];[a][b]concat=n=2:v=1:a=0"
    -f lavfi -i "sine=f=440:d=5" -shortest -c:v libvpx -deadline realtime -cpu-used 8 -b:v 300k -c:a libvorbis -q:a 1)
"${FF[@]}" "${BLACK_LEAD[@]}" "$OUT/black-lead.webm"
row black-lead.webm video 320 240 ok "VP8 realtime + Vorbis, 5 s, one keyframe; the first half second is black"
BLACK_LEAD[3]="color=c=black:s=320x240:r=25:d=2[a];testsrc=s=320x240:r=25:d=3[b];[a][b]concat=n=2:v=1:a=0"
"${FF[@]}" "${BLACK_LEAD[@]}" -f webm - >"$OUT/black-lead-streamed.webm"
row black-lead-streamed.webm video 320 240 ok "as black-lead.webm with 2 s of black, written to a pipe: no duration anywhere"
# FFmpeg 5.1 cannot write -display_rotation (6.0+), and "-metadata:s:v rotate=90" while encoding is
# ignored; remuxing with -c copy and the rotate tag makes the mov muxer write a tkhd display matrix
# (ffprobe: side_data "Display Matrix", rotation 90 in 5.1 -- the sign differs between versions).
"${FF[@]}" -f lavfi -i "testsrc=s=320x240:r=25:d=3" "${X264[@]}" "$S/unrotated.mp4"
"${FF[@]}" -i "$S/unrotated.mp4" -c copy -metadata:s:v:0 rotate=90 "$OUT/rotated.mp4"
ffprobe -v error -select_streams v:0 -show_entries stream_side_data=rotation -of csv=p=0 "$OUT/rotated.mp4" |
    grep -qE '^-?90$' || die "rotated.mp4 has no 90 degree display matrix"
row rotated.mp4 video 240 320 ok "coded 320x240, display matrix 90 degrees (displays portrait)"
"${FF[@]}" -f lavfi -i "testsrc=s=320x240:r=25:d=2" -vf setsar=2/1 "${X264[@]}" "$OUT/anamorphic.mkv"
row anamorphic.mkv video 640 240 ok "coded 320x240, sample aspect ratio 2:1"
# For seeking: 20 s of 1080p with ffmpeg's default GOP (keyframes 10 s apart, as in most files).
"${FF[@]}" -f lavfi -i "testsrc=s=1920x1080:r=25:d=20" -c:v libx264 -preset veryfast -crf 40 -pix_fmt yuv420p \
    -movflags +faststart "$OUT/long-1080p.mp4"
row long-1080p.mp4 video 1920 1080 ok "H.264 1920x1080, 20 s of testsrc (its counter changes every second), keyframes at 0 and 10 s"

log "audio"
ENVELOPE="sin(2*PI*440*t)*(0.1+0.85*abs(sin(PI*1.5*t)))"
"${FF[@]}" -f lavfi -i "sine=f=440:d=2" -i "$S/cover.jpg" -map 0 -map 1 -c:a libmp3lame -b:a 64k -c:v copy \
    -id3v2_version 3 -metadata title='Fixture song' -metadata:s:v title='Album cover' \
    -metadata:s:v comment='Cover (front)' -disposition:v:0 attached_pic "$OUT/song-with-cover.mp3"
row song-with-cover.mp3 audio 300 300 ok "MP3, ID3v2.3 APIC front cover JPEG 300x300"
"${FF[@]}" -f lavfi -i "sine=f=440:d=2" -i "$S/cover.png" -map 0 -map 1 -c:a flac -c:v copy \
    -metadata:s:v comment='Cover (front)' -disposition:v:0 attached_pic "$OUT/song-with-cover.flac"
row song-with-cover.flac audio 240 240 ok "FLAC, METADATA_BLOCK_PICTURE PNG 240x240"
"${FF[@]}" -f lavfi -i "sine=f=440:d=2" -i "$S/cover.jpg" -map 0 -map 1 -c:a aac -b:a 48k -c:v copy \
    -disposition:v:0 attached_pic "$OUT/song-with-cover.m4a"
row song-with-cover.m4a audio 300 300 ok "AAC in MP4, covr atom JPEG 300x300"
"${FF[@]}" -f lavfi -i "aevalsrc=$ENVELOPE:s=22050:d=2" -c:a pcm_s16le "$OUT/tone.wav"
row tone.wav audio '' '' ok "2 s 440 Hz sine with a pulsing envelope, no art (waveform)"
"${FF[@]}" -f lavfi -i "aevalsrc=$ENVELOPE:s=22050:d=2" -c:a libvorbis -q:a 2 "$OUT/tone.ogg"
row tone.ogg audio '' '' ok "Vorbis, same tone, no art (waveform)"
# No tags, no art, in containers sniffed as video: MP4 with the generic "isom" brand (what most
# tools other than iTunes write) and ASF.
"${FF[@]}" -f lavfi -i "aevalsrc=$ENVELOPE:s=22050:d=2" -map_metadata -1 -fflags +bitexact -c:a aac -b:a 48k -f mp4 "$OUT/untagged.m4a"
row untagged.m4a audio '' '' ok "AAC in MP4 (isom brand), no tags, no art (waveform)"
"${FF[@]}" -f lavfi -i "aevalsrc=$ENVELOPE:s=22050:d=2" -map_metadata -1 -c:a wmav2 -b:a 64k "$OUT/tone.wma"
row tone.wma audio '' '' ok "WMA v2 in ASF, no tags, no art (waveform)"

log "archives"
# A small tree put into archives of several formats; the tests list them back. Fixed times (UTC).
T=$S/tree
mkdir -p "$T/docs" "$T/pics" "$T/empty"
printf 'Read me first.\n' >"$T/readme.txt"
printf '# Notes\n\nSome notes for the archive listing.\n' >"$T/docs/notes.md"
cp "$OUT/landscape.jpg" "$T/pics/landscape.jpg"
ln -s readme.txt "$T/link"
find "$T" -exec touch -h -d '2024-01-01 12:00:00 UTC' {} +
(cd "$T" && zip -qry "$OUT/members.zip" readme.txt docs pics link empty)
row members.zip archive '' '' error "zip of readme.txt, docs/notes.md, pics/landscape.jpg, link -> readme.txt, empty/ (all 2024-01-01 12:00 UTC)"
tar -C "$T" --owner=0 --group=0 --sort=name -cJf "$OUT/members.tar.xz" readme.txt docs pics link empty
row members.tar.xz archive '' '' error "the same tree as members.zip, GNU tar + xz"
if command -v bsdtar >/dev/null 2>&1; then
    (cd "$T" && bsdtar --format 7zip -cf "$OUT/members.7z" readme.txt docs pics link empty)
    row members.7z archive '' '' error "the same tree as members.zip, 7-Zip written by bsdtar"
fi
head -c 3000 "$OUT/members.tar.xz" >"$OUT/truncated.tar.xz"
row truncated.tar.xz broken '' '' error "first 3000 bytes of members.tar.xz (the xz stream ends early)"
head -c 700 "$OUT/members.zip" >"$OUT/truncated.zip"
row truncated.zip broken '' '' error "first 700 bytes of members.zip (no central directory)"
"$PY" - "$OUT/many-members.zip" <<'PY'
import sys, zipfile
# 12,000 empty members: more than a listing shows at once.
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
    for i in range(12000):
        z.writestr(zipfile.ZipInfo("m/%05d" % i, date_time=(2024, 1, 1, 12, 0, 0)), b"")
PY
row many-members.zip archive '' '' error "12,000 empty members m/00000..m/11999"

{
    printf 'file\tkind\tdisplay_w\tdisplay_h\texpect\tnote\n'
    printf '%s\n' "${ROWS[@]}"
} >"$OUT/fixtures.tsv"
echo "$HASH" >"$OUT/.complete"
log "done: ${#ROWS[@]} fixtures, $(du -sh "$OUT" | cut -f1) in $OUT"
