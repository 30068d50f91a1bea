#!/usr/bin/env bash
# Usage: Tests/Package/package-test.sh [FIXTURES]
#
# Builds the Debian package with scripts/package and checks it the way a user without Swift gets it:
#   - dpkg-deb --info: Depends computed and sensible, Recommends/Suggests there, no maintainer
#     scripts, nothing named *swift* in the package, DEP-5 copyright naming every Depends package;
#   - unpacked into a temporary root (dpkg-deb -x): ldd on both programs finds every library and no
#     Swift library;
#   - that qlbrowse run with `env -i HOME=… PATH=/usr/bin:/bin` (no Swift, no LD_LIBRARY_PATH):
#     --version names the commit, thumbnails of a baseline JPEG (libjpeg), a progressive JPEG
#     (libvips), a PDF (poppler) and a video (libav) through the worker in usr/libexec/qlbrowse, `types`,
#     `cache stats`, `files copy`, and the browser in a detached tmux session with an installed
#     theme: it shows the folder, quits on q and exits 0;
#   - the manual page formats without warnings, the bash completion loads, lintian has no errors
#     (its warnings are printed).
# FIXTURES defaults to .fixtures/small (Tests/Fixtures/make-fixtures.sh makes it). Prints how long
# it took. Exit status 1 on the first failed check, with what failed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
fixtures=${1:-.fixtures/small}
started=$(date +%s)

fail() { printf 'package-test: FAIL: %s\n' "$*" >&2; exit 1; }
pass() { printf 'package-test: ok: %s\n' "$*" >&2; }
[[ -f $fixtures/landscape.jpg && -f $fixtures/progressive.jpg && -f $fixtures/doc.pdf && -f $fixtures/clip.mp4 ]] ||
    fail "no fixtures in $fixtures (run Tests/Fixtures/make-fixtures.sh $fixtures)"
fixtures=$(cd "$fixtures" && pwd)
command -v tmux >/dev/null || fail "tmux is missing (scripts/install-deps test)"

work=$(mktemp -d "${TMPDIR:-/tmp}/qlbrowse-package-test.XXXXXX")
socket=qlbrowse-package-test-$$
cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null || true
    # The resident thumbnail service the packaged qlbrowse started (it leads its own process group).
    local service
    service=$(cat "$work/run/qlbrowse/service.pid" 2>/dev/null) && kill -KILL -- "-$service" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# --- build --------------------------------------------------------------------------------------
deb=$(scripts/package --output "$work/dist" 2>"$work/package.log") || { cat "$work/package.log" >&2; fail "scripts/package failed"; }
[[ -f $deb && $deb == */qlbrowse_*_amd64.deb ]] || fail "scripts/package printed '$deb', not a .deb"
version=$(dpkg-deb -f "$deb" Version)
pass "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# --- control ------------------------------------------------------------------------------------
depends=$(dpkg-deb -f "$deb" Depends)
for library in libc6 libncursesw6 libchafa0 libjpeg62-turbo zlib1g libvips42 libpoppler-glib8 libavcodec59 libavformat59 libswscale6 libraw20 libmagic1 libarchive13 libturbojpeg0 libqpdf29; do
    grep -Eq "(^|, )$library( |,|$)" <<<"$depends" || fail "Depends lacks $library: $depends"
done
! grep -qi swift <<<"$depends" || fail "Depends names Swift: $depends"
# The release link packs relative relocations: the loader reads them from glibc 2.36 on.
grep -q 'libc6 (>= 2.36)' <<<"$depends" || fail "Depends must ask for libc6 (>= 2.36) (DT_RELR): $depends"
grep -q bubblewrap <<<"$(dpkg-deb -f "$deb" Recommends)" || fail "Recommends lacks bubblewrap"
grep -q ffmpegthumbnailer <<<"$(dpkg-deb -f "$deb" Suggests)" || fail "Suggests lacks ffmpegthumbnailer"
dpkg-deb --ctrl-tarfile "$deb" | tar -t | sed 's|^\./||' | grep -Ev '^(|control|md5sums)$' >"$work/scripts" &&
    fail "the package has maintainer scripts: $(tr '\n' ' ' <"$work/scripts")"
! dpkg-deb -c "$deb" | grep -qi swift || fail "the package contains a file named *swift*"
pass "Depends: $depends"

# --- unpacked -----------------------------------------------------------------------------------
tree=$work/root
dpkg-deb -x "$deb" "$tree"
qlbrowse=$tree/usr/bin/qlbrowse
for program in "$qlbrowse" "$tree/usr/libexec/qlbrowse/qlbrowse-thumbnailer"; do
    [[ -x $program ]] || fail "$program is missing"
    libraries=$(env -i PATH=/usr/bin:/bin ldd "$program") || fail "ldd $program failed"
    ! grep -q "not found" <<<"$libraries" || fail "$program: $(grep "not found" <<<"$libraries" | tr '\n' ' ')"
    ! grep -qi swift <<<"$libraries" || fail "$program loads a Swift library: $(grep -i swift <<<"$libraries")"
done
for file in usr/share/man/man1/qlbrowse.1.gz usr/share/bash-completion/completions/qlbrowse \
    usr/share/zsh/vendor-completions/_qlbrowse usr/share/fish/vendor_completions.d/qlbrowse.fish \
    usr/share/qlbrowse/themes/default.theme usr/share/qlbrowse/themes/light.theme \
    usr/share/qlbrowse/themes/high-contrast.theme usr/share/doc/qlbrowse/README.md \
    usr/share/doc/qlbrowse/copyright usr/share/doc/qlbrowse/changelog.gz; do
    [[ -s $tree/$file ]] || fail "$file is missing or empty"
done
copyright=$tree/usr/share/doc/qlbrowse/copyright
[[ $(head -1 "$copyright") == "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ]] ||
    fail "the copyright file is not DEP-5"
for package in $(tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/ .*//'); do
    grep -q "^   $package " "$copyright" || fail "the copyright file does not name $package's licence"
done
grep -q "^License: GPL-3+" "$copyright" || fail "the copyright file does not name qlbrowse's own licence (GPL-3+)"
pass "unpacked: both programs find their libraries, none of them Swift"

# --- run it as a user without Swift --------------------------------------------------------------
# The worker must come from usr/libexec/qlbrowse in the tree, not from PATH.
! env -i PATH=/usr/bin:/bin sh -c 'command -v qlbrowse-thumbnailer' >/dev/null ||
    fail "a qlbrowse-thumbnailer on /usr/bin:/bin would hide whether the packaged one is found"
home=$work/home
mkdir -p "$home" "$work/out" "$work/browse" "$work/run"
chmod 700 "$work/run"
run() { env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR="$work/run" "$@"; }

commit=unknown
git rev-parse --git-dir >/dev/null 2>&1 && commit=$(git rev-parse --short=12 HEAD)
said=$(run "$qlbrowse" --version) || fail "qlbrowse --version failed"
[[ $said == "$version (commit $commit"* ]] || fail "qlbrowse --version says '$said', expected '$version (commit $commit…)'"
pass "--version: $said"

for pair in landscape.jpg:libjpeg progressive.jpg:vips doc.pdf:poppler clip.mp4:libav; do
    file=${pair%%:*} source=${pair#*:}
    line=$(run "$qlbrowse" thumbnail --json -s 128 -o "$work/out" "$fixtures/$file" 2>"$work/stderr") ||
        fail "thumbnail $file: $(cat "$work/stderr") $line"
    grep -q "\"source\":\"$source\"" <<<"$line" || fail "thumbnail $file: expected source $source, got $line"
    [[ $(head -c 8 "$work/out/$file.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
        fail "thumbnail $file: $work/out/$file.png is not a PNG"
done
pass "thumbnails of a baseline JPEG, a progressive JPEG, a PDF and a video through the packaged worker (libvips and libav opened at first use)"
[[ -S $work/run/qlbrowse/service.sock ]] || fail "the thumbnails did not go through the resident service"
grep -q "listening" "$home/.local/state/qlbrowse/service.log" || fail "the service's log says nothing: $(cat "$home/.local/state/qlbrowse/service.log")"
line=$(run "$qlbrowse" thumbnail --no-service --json -s 128 -o "$work/out" "$fixtures/doc.pdf" 2>"$work/stderr") ||
    fail "thumbnail --no-service: $(cat "$work/stderr") $line"
pass "the resident service (started by the packaged qlbrowse, found its worker) and --no-service"

run "$qlbrowse" types --tsv >"$work/types" || fail "qlbrowse types failed"
grep -q "^application/pdf" "$work/types" || fail "qlbrowse types lists no application/pdf"
run "$qlbrowse" cache stats >/dev/null || fail "qlbrowse cache stats failed"
cp "$fixtures/landscape.jpg" "$work/browse/holiday-photo.jpg"
printf 'hello\n' >"$work/browse/notes.txt"
mkdir "$work/copies"
run "$qlbrowse" files copy "$work/browse/notes.txt" "$work/copies" >/dev/null 2>&1 || fail "qlbrowse files copy failed"
cmp -s "$work/browse/notes.txt" "$work/copies/notes.txt" || fail "qlbrowse files copy did not copy"
pass "types, cache stats, files copy"

# The browser, in a detached tmux session, with a theme that only the package provides (its
# thumbnails go to the service of this test's runtime folder, which the cleanup stops).
tmux -L "$socket" -f /dev/null new-session -d -x 100 -y 30 \
    "env -i HOME='$home' PATH=/usr/bin:/bin LANG=C.UTF-8 TERM=screen-256color XDG_RUNTIME_DIR='$work/run' '$qlbrowse' --theme high-contrast --graphics symbols '$work/browse' 2>'$work/browser.err'; echo \$? >'$work/browser.exit'; sleep 60"
shown=no
for _ in $(seq 1 100); do
    if tmux -L "$socket" capture-pane -p 2>/dev/null | grep -q "holiday-photo.jpg"; then shown=yes; break; fi
    [[ -f $work/browser.exit ]] && break
    sleep 0.1
done
[[ $shown == yes ]] || fail "the browser did not show the folder in 10 s: $(tmux -L "$socket" capture-pane -p 2>/dev/null) $(cat "$work/browser.err" 2>/dev/null)"
tmux -L "$socket" send-keys q
for _ in $(seq 1 50); do [[ -s $work/browser.exit ]] && break; sleep 0.1; done
[[ -s $work/browser.exit ]] || fail "the browser did not quit within 5 s of q"
[[ $(cat "$work/browser.exit") == 0 ]] || fail "the browser exited $(cat "$work/browser.exit"): $(cat "$work/browser.err")"
pass "the browser opened the folder in tmux and quit with status 0"

# --- documentation and lint ---------------------------------------------------------------------
warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$tree/usr/share/man/man1/qlbrowse.1.gz" 2>&1 >/dev/null)
[[ -z $warnings ]] || fail "man reports warnings: $warnings"
LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$tree/usr/share/man/man1/qlbrowse.1.gz" 2>/dev/null | grep -q "Quick Look" || fail "the manual page lacks the key table"
bash -c "source '$tree/usr/share/bash-completion/completions/qlbrowse' && complete -p qlbrowse" >/dev/null ||
    fail "the bash completion does not register qlbrowse"
pass "manual page without warnings, bash completion loads"

if command -v lintian >/dev/null; then
    lintian --suppress-tags-from-file /dev/null "$deb" >"$work/lintian" 2>/dev/null || true
    ! grep -q '^E:' "$work/lintian" || fail "lintian errors: $(grep '^E:' "$work/lintian")"
    pass "lintian: no errors, $(grep -c '^W:' "$work/lintian" || true) warnings$(grep '^W:' "$work/lintian" | sed 's/^/; /' | tr -d '\n')"
else
    fail "lintian is missing (scripts/install-deps package)"
fi
printf 'package-test: all passed in %d s\n' "$(($(date +%s) - started))" >&2
