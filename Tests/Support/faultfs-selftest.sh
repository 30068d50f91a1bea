#!/bin/bash
# Shows that faultfs really is slow, hangs, fails and vanishes the way a dying USB stick or SMB
# share does, and that faultfs_ctl.py always cleans up. Needs root (or FUSE rights) and fusepy.
# usage: Tests/Support/faultfs-selftest.sh
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CTL=("/usr/bin/python3" "$HERE/faultfs_ctl.py")
W=$(mktemp -d /tmp/faultfs-selftest.XXXXXX)
SRC=$W/src MNT=$W/mnt
passed=0 failed=0

cleanup() {
    # Unmount before removing anything: rm -r through a live mount would walk into the source
    # (or block forever on a hung one).
    if "${CTL[@]}" unmount "$MNT"; then
        rm -rf --one-file-system "$W"
    else
        echo "cleanup: $MNT still mounted, left $W" >&2
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # so an interrupted run still cleans up

check() {  # check DESCRIPTION COMMAND...: counts and prints, never stops the run
    if "${@:2}"; then passed=$((passed + 1)); echo "  ok: $1"
    else failed=$((failed + 1)); echo "  FAILED: $1"; fi
}
ms() { echo $(( $(date +%s%N) / 1000000 )); }
# The errno a stat of $1 gets, by name (only for mounts that are not hung).
errno_of() {
    /usr/bin/python3 -c 'import errno, os, sys
try: os.stat(sys.argv[1]); print("OK")
except OSError as e: print(errno.errorcode[e.errno])' "$1"
}
state_of() { awk '{print $3}' "/proc/$1/stat" 2>/dev/null || echo gone; }
running() { kill -0 "$1" 2>/dev/null; }
mounted() { grep -q " $MNT " /proc/self/mountinfo; }
fresh_mount() { echo "daemon pid $("${CTL[@]}" mount "$SRC" "$MNT")"; }

mkdir -p "$SRC/slow" "$SRC/many"
echo hello > "$SRC/a.txt"
echo slow > "$SRC/slow/b.txt"
for i in $(seq -w 1 3000); do : > "$SRC/many/f$i.txt"; done
head -c 2M /dev/zero > "$SRC/big.bin"

echo "== mount"
fresh_mount
line=$(grep " $MNT " /proc/self/mountinfo)
echo "  mountinfo: $line"
fstype=$(awk '{for (i = 1; i <= NF; i++) if ($i == "-") print $(i + 1)}' <<< "$line")
check "fstype is fuse.faultfs (got $fstype)" test "$fstype" = fuse.faultfs
check "ls shows the source" test "$(ls "$MNT" | tr '\n' ' ')" = "a.txt big.bin many slow "
check "cat reads" test "$(cat "$MNT/a.txt")" = hello

echo "== passthrough writes"
echo written > "$MNT/new.txt"
mkdir "$MNT/dir"; mv "$MNT/new.txt" "$MNT/dir/moved.txt"; chmod 600 "$MNT/dir/moved.txt"
truncate -s 3 "$MNT/dir/moved.txt"; touch -d 2001-02-03 "$MNT/dir/moved.txt"
check "create, write, rename, chmod, utimens, truncate reach the source" \
    test "$(cat "$SRC/dir/moved.txt") $(stat -c '%a %y' "$SRC/dir/moved.txt" | cut -c1-14)" \
    = "wri 600 2001-02-03"
rm "$MNT/dir/moved.txt"; rmdir "$MNT/dir"
check "unlink, rmdir reach the source" test ! -e "$SRC/dir"
check "statfs answers" test "$(stat -f -c %b "$MNT")" -gt 0

echo "== latency_ms=100"
"${CTL[@]}" set "$MNT" latency_ms=100
TIMEFORMAT="  time ls: %R s"; time ls "$MNT" > /dev/null
t0=$(ms); stat "$MNT/a.txt" > /dev/null; t=$(( $(ms) - t0 ))
check "stat took ${t} ms (>= 100)" test "$t" -ge 100
"${CTL[@]}" clear "$MNT"

echo "== readdir_delay_ms=30 on 3000 entries"
"${CTL[@]}" set "$MNT" readdir_delay_ms=30
read -r first total count < <(/usr/bin/python3 -c 'import os, sys, time
t0 = time.monotonic(); first = None; n = 0
for e in os.scandir(sys.argv[1]):
    n += 1; first = first or time.monotonic() - t0
print(int(first * 1000), int((time.monotonic() - t0) * 1000), n)' "$MNT/many")
echo "  first entry after ${first} ms, all $count after ${total} ms"
check "listing streams: slow in total, first entries early" \
    test "$total" -ge 850 -a "$first" -lt $((total / 2)) -a "$count" -eq 3000
"${CTL[@]}" clear "$MNT"

echo "== read_delay_ms=50 on a 2 MiB file"
"${CTL[@]}" set "$MNT" read_delay_ms=50
t0=$(ms); cat "$MNT/big.bin" > /dev/null; t=$(( $(ms) - t0 ))
check "copy took ${t} ms (16 reads of 128 KiB: >= 800)" test "$t" -ge 800
"${CTL[@]}" clear "$MNT"

echo "== hang with hang_paths=[\"/slow\"], then cleared"
"${CTL[@]}" set "$MNT" hang=true 'hang_paths=["/slow"]'
timeout 2 stat "$MNT/slow/b.txt" > /dev/null 2>&1 & tpid=$!
stat "$MNT/slow/b.txt" > "$W/plain.out" 2>&1 & ppid=$!
sleep 1
spid=$(pgrep -P "$tpid" || true)
check "timeout 2 stat still stuck after 1 s (stat state ${spid:+$(state_of "$spid")})" running "$tpid"
check "other paths still answer meanwhile" test "$(cat "$MNT/a.txt")" = hello
sleep 1.5
check "timeout's SIGTERM at 2 s did not free it (stat state $(state_of "$spid"))" running "$spid"
"${CTL[@]}" set "$MNT" hang=false
sleep 0.3
check "after clearing, the timeout call has finished" bash -c "! kill -0 $tpid 2>/dev/null"
rc=0; wait "$ppid" || rc=$?
check "after clearing, the plain stat succeeded (rc $rc)" test "$rc" -eq 0
wait "$tpid" || true
"${CTL[@]}" clear "$MNT"

echo "== eio"
"${CTL[@]}" set "$MNT" eio=true
err=$(cat "$MNT/a.txt" 2>&1 || true)
echo "  cat: $err; stat: $(errno_of "$MNT/a.txt"); ls mountpoint: $(errno_of "$MNT")"
check "cat fails with Input/output error" grep -q "Input/output error" <<< "$err"
"${CTL[@]}" set "$MNT" 'eio_paths=["/slow"]'
check "with eio_paths only /slow fails" \
    test "$(errno_of "$MNT/a.txt") $(errno_of "$MNT/slow/b.txt")" = "OK EIO"
"${CTL[@]}" clear "$MNT"

echo "== hang everywhere, then the connection aborted"
"${CTL[@]}" set "$MNT" hang=true
timeout 2 stat "$MNT/a.txt" > /dev/null 2>&1 & tpid=$!
stat "$MNT/a.txt" > "$W/plain.out" 2>&1 & ppid=$!
sleep 1
check "both calls still stuck after 1 s" running "$tpid"
check "plain stat too" running "$ppid"
"${CTL[@]}" abort "$MNT"
rc=0; wait "$ppid" || rc=$?
echo "  stuck stat ended with rc $rc: $(cat "$W/plain.out")"
check "the stuck call finished with ENOTCONN" grep -q "Transport endpoint is not connected" "$W/plain.out"
wait "$tpid" || true
echo "  new calls: $(errno_of "$MNT/a.txt"); mount still listed: $(mounted && echo yes || echo no)"
check "new calls get ENOTCONN" test "$(errno_of "$MNT/a.txt")" = ENOTCONN
"${CTL[@]}" unmount "$MNT"
check "unmount after abort leaves no mount" bash -c "! grep -q ' $MNT ' /proc/self/mountinfo"

echo "== vanish=true (daemon exits)"
fresh_mount
exec 3< "$MNT/a.txt"
"${CTL[@]}" set "$MNT" vanish=true
sleep 0.3
echo "  stat: $(errno_of "$MNT/a.txt"); mountpoint: $(errno_of "$MNT");" \
    "open file: $(cat <&3 2>&1 | head -1 || true); mount still listed: $(mounted && echo yes || echo no)"
check "callers get ENOTCONN" test "$(errno_of "$MNT/a.txt")" = ENOTCONN
check "daemon is gone" test -z "$(pgrep -f "faultfs.py $SRC $MNT" || true)"
exec 3<&-
"${CTL[@]}" unmount "$MNT"

echo "== vanish=lazy (detached behind our back)"
fresh_mount
exec 3< "$MNT/a.txt"
"${CTL[@]}" set "$MNT" vanish=lazy
sleep 0.3
echo "  stat: $(errno_of "$MNT/a.txt"); mountpoint: $(errno_of "$MNT");" \
    "open file: $(cat <&3 2>&1 | head -1 || true); mount still listed: $(mounted && echo yes || echo no)"
check "paths under it get ENOENT" test "$(errno_of "$MNT/a.txt")" = ENOENT
check "mount is gone from mountinfo" bash -c "! grep -q ' $MNT ' /proc/self/mountinfo"
exec 3<&-
sleep 0.5
check "daemon exits once the last open file closes" \
    test -z "$(pgrep -f "faultfs.py $SRC $MNT" || true)"

echo "== unmount"
fresh_mount
"${CTL[@]}" set "$MNT" hang=true
stat "$MNT/a.txt" > /dev/null 2>&1 & ppid=$!
sleep 0.3
"${CTL[@]}" unmount "$MNT"
"${CTL[@]}" unmount "$MNT"
wait "$ppid" || true
check "unmount of a hung mount (twice) leaves nothing in mountinfo" \
    bash -c "! grep -q '$W' /proc/self/mountinfo"
check "and no daemon" test -z "$(pgrep -f "faultfs.py $SRC" || true)"

echo "faultfs: $passed passed, $failed failed"
test "$failed" -eq 0
