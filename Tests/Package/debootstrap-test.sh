#!/usr/bin/env bash
# Usage: Tests/Package/debootstrap-test.sh DEB [ROOT] [FIXTURES]
#
# Installs the package with apt into a fresh Debian 12 root that has never seen Swift and uses it
# there (optional, by hand: not part of scripts/test; needs root and the network). ROOT (default
# /tmp/qlbrowse-bookworm) is made with `debootstrap --variant=minbase bookworm` when it does not
# exist yet ($DEBIAN_MIRROR, default http://deb.debian.org/debian), and kept for the next run.
# In the root: `apt-get install ./DEB tmux`, then as user 1000 (HOME=/home/tester, env -i): --version, thumbnails of a JPEG and a
# PDF, `types`, the browser in tmux (shows the folder, quits with status 0); then `apt-get purge
# qlbrowse` must leave the user's config, cache and trash as they were. /proc, /dev and /dev/pts
# are bind-mounted for the run and always unmounted.
set -euo pipefail
[[ $# -ge 1 && $1 != -h && $1 != --help ]] || { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
deb=$(readlink -f "$1")
target=${2:-/tmp/qlbrowse-bookworm}
fixtures=$(cd "${3:-$(dirname "$0")/../../.fixtures/small}" && pwd)

fail() { printf 'debootstrap-test: FAIL: %s\n' "$*" >&2; exit 1; }
pass() { printf 'debootstrap-test: ok: %s\n' "$*" >&2; }
[[ $(id -u) -eq 0 ]] || fail "needs root (debootstrap, chroot, mounts)"
[[ -f $deb ]] || fail "no package at $1"
[[ -f $fixtures/landscape.jpg && -f $fixtures/doc.pdf ]] || fail "no fixtures in $fixtures"

if [[ ! -x $target/usr/bin/apt-get ]]; then
    command -v debootstrap >/dev/null || fail "debootstrap is missing (apt-get install debootstrap)"
    debootstrap --variant=minbase bookworm "$target" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >/dev/null
fi
mounted=()
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}"; done
}
trap cleanup EXIT
for point in proc dev dev/pts; do
    mount --bind "/$point" "$target/$point"
    mounted+=("$target/$point")
done
in_root() { chroot "$target" "$@"; }
as_user() { chroot --userspec=1000:1000 "$target" env -i HOME=/home/tester PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }

[[ ! -e $target/opt/swift && -z $(find "$target/usr" -name 'libswift*' -print -quit) ]] ||
    fail "the root has Swift in it"
rm -rf "$target/tmp/qlbrowse-test" "$target/home/tester"
mkdir -p "$target/tmp/qlbrowse-test/out" "$target/tmp/qlbrowse-test/browse" "$target/home/tester"
cp "$deb" "$target/tmp/qlbrowse-test/"
cp "$fixtures/landscape.jpg" "$fixtures/doc.pdf" "$target/tmp/qlbrowse-test/"
cp "$fixtures/landscape.jpg" "$target/tmp/qlbrowse-test/browse/holiday-photo.jpg"

export DEBIAN_FRONTEND=noninteractive
in_root apt-get update -qq
in_root apt-get install -y -qq "/tmp/qlbrowse-test/$(basename "$deb")" tmux >"$target/tmp/qlbrowse-test/apt.log" 2>&1 ||
    { tail -20 "$target/tmp/qlbrowse-test/apt.log" >&2; fail "apt-get install failed"; }
chown -R 1000:1000 "$target/tmp/qlbrowse-test" "$target/home/tester"
pass "apt-get install: $(grep -c '^Setting up' "$target/tmp/qlbrowse-test/apt.log") packages set up"

said=$(as_user qlbrowse --version) || fail "qlbrowse --version failed"
pass "--version: $said"
for pair in landscape.jpg:libjpeg doc.pdf:poppler; do
    file=${pair%%:*} source=${pair#*:}
    line=$(as_user qlbrowse thumbnail --json -o /tmp/qlbrowse-test/out "/tmp/qlbrowse-test/$file") || fail "thumbnail $file: $line"
    grep -q "\"source\":\"$source\"" <<<"$line" || fail "thumbnail $file: expected source $source, got $line"
done
pass "thumbnails of a JPEG and a PDF"
as_user qlbrowse types --tsv | grep -q '^application/pdf' || fail "qlbrowse types lists no PDF"
pass "types"

socket=qlbrowse-debootstrap-$$
as_user tmux -L "$socket" -f /dev/null new-session -d -x 100 -y 30 \
    "TERM=screen-256color qlbrowse --graphics symbols /tmp/qlbrowse-test/browse; echo \$? >/tmp/qlbrowse-test/exit; sleep 60"
shown=no
for _ in $(seq 1 100); do
    as_user tmux -L "$socket" capture-pane -p 2>/dev/null | grep -q holiday-photo.jpg && { shown=yes; break; }
    sleep 0.1
done
[[ $shown == yes ]] || { as_user tmux -L "$socket" kill-server || true; fail "the browser did not show the folder"; }
as_user tmux -L "$socket" send-keys q
for _ in $(seq 1 50); do [[ -s $target/tmp/qlbrowse-test/exit ]] && break; sleep 0.1; done
as_user tmux -L "$socket" kill-server 2>/dev/null || true
[[ $(cat "$target/tmp/qlbrowse-test/exit" 2>/dev/null) == 0 ]] || fail "the browser did not exit 0 on q"
pass "the browser in tmux: showed the folder, exited 0 on q"

# Removal leaves what the user has alone.
mkdir -p "$target/home/tester/.config/qlbrowse" "$target/home/tester/.local/share/Trash/files"
printf 'theme = "light"\n' >"$target/home/tester/.config/qlbrowse/config.toml"
printf 'x\n' >"$target/home/tester/.local/share/Trash/files/kept.txt"
chown -R 1000:1000 "$target/home/tester"
before=$(cd "$target/home/tester" && find . -type f | sort | xargs sha256sum)
in_root apt-get purge -y -qq qlbrowse >/dev/null 2>&1 || fail "apt-get purge qlbrowse failed"
[[ ! -e $target/usr/bin/qlbrowse && ! -e $target/usr/libexec/qlbrowse ]] || fail "purge left the programs"
after=$(cd "$target/home/tester" && find . -type f | sort | xargs sha256sum)
[[ $before == "$after" ]] || fail "purge changed the user's files"
pass "purge removed the programs and left the user's $(wc -l <<<"$after") files (config, cache, trash) alone"
