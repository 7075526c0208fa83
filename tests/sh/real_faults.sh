#!/bin/sh
# Description: bad input and faults under --real (issue 15, part 5): each
# case exits non-zero with an error naming the job or the file and fio's
# errno as err=N, and leaves nothing outside the temp dir. Cases that need
# root (mounts, loop devices) say "SKIP case: reason" when they cannot run.
# Skipped (77) without io_uring (--real needs liburing and a kernel with it).
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
loopdev=""
cleanup() {
	for m in "$d"/ro "$d"/tiny "$d"/mnt; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null
	rm -rf "$d"
}
trap cleanup EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
n=0
printf '[a]\nrw=read\nsize=64k\nbs=4k\n' >probe.fio
timeout 30 "$BIN" run probe.fio --real >out 2>&1 || { echo "SKIP all: --real does not run here: $(head -1 out)"; exit 77; }
rm -f a.0.0

# expect_err JOB WORDS...: non-zero exit, and the error has every word
expect_err() {
	j=$1; shift
	timeout 60 "$BIN" run "$j" --real >out 2>err && fail "$j: exit 0 ($(cat out | head -3))"
	# under the ASan build a leak or a bad access on the error path shows here
	grep -q "Sanitizer" err && fail "$j: $(grep -A3 Sanitizer err | head -8)"
	for w in "$@"; do
		grep -qF -- "$w" err || fail "$j: '$w' not in: $(cat err)"
	done
	n=$((n + 1))
}

# a. files that cannot be opened or created (these fail for root too)
printf '[a]\nrw=read\nsize=1m\nbs=4k\ndirectory=nosuch\n' >a1.fio
expect_err a1.fio "a1.fio:" "job 'a'" "directory=nosuch" "err=2"
[ -e nosuch ] && fail "a1: nosuch was created"
echo x >somefile
printf '[a]\nrw=read\nsize=1m\nbs=4k\ndirectory=somefile\n' >a2.fio
expect_err a2.fio "a2.fio:" "directory=somefile" "Not a directory" "err=20"
printf '[a]\nrw=read\nsize=1m\nbs=4k\nfilename=somefile/x\n' >a3.fio
expect_err a3.fio "somefile/x" "err=20"
mkdir adir
printf '[a]\nrw=read\nsize=1m\nbs=4k\nfilename=adir\n' >a4.fio
expect_err a4.fio "'adir'" "is a directory" "err=21"
[ "$(ls adir)" = "" ] || fail "a4: something was written in adir"
if [ "$(id -u)" -eq 0 ] && mkdir ro && mount --bind ro ro 2>/dev/null &&
	mount -o remount,bind,ro ro 2>/dev/null; then
	printf '[a]\nrw=write\nsize=1m\nbs=4k\ndirectory=ro\n' >a5.fio
	# said before any file is made, with the job, its line and the option (issue 28)
	expect_err a5.fio "a5.fio:1: job 'a': directory=ro: the job writes" "Read-only file system" "err=30"
	umount ro
else
	echo "SKIP a5: a read-only bind mount needs root"
fi

# c. ENOSPC at layout: a 1 MiB tmpfs, files that do not fit
if [ "$(id -u)" -eq 0 ] && mkdir tiny && mount -t tmpfs -o size=1m tmpfs tiny 2>/dev/null; then
	printf '[a]\nrw=read\nsize=4m\nbs=4k\ndirectory=tiny\n' >c1.fio
	expect_err c1.fio "c1.fio:" "'tiny/a.0.0'" "4194304 bytes" "does not fit"
	[ "$(ls tiny)" = "" ] || fail "c1: left $(ls tiny)"
	# two jobs whose files fit the capacity one by one, not together
	printf '[global]\nrw=write\nbs=64k\ndirectory=tiny\nsize=600k\n[a]\n[b]\n' >c2.fio
	expect_err c2.fio "c2.fio:5" "job 'b'" "2 files"
	# fits the capacity, not the free space: the file system says ENOSPC
	head -c 700000 /dev/zero >tiny/other
	printf '[a]\nrw=write\nbs=64k\ndirectory=tiny\nsize=512k\n' >c3.fio
	expect_err c3.fio "'tiny/a.0.0'" "524288 bytes" "No space left" "err=28"
	[ "$(ls tiny)" = "other" ] || fail "c3: left $(ls tiny)"
	umount tiny
else
	echo "SKIP c: a tiny tmpfs needs root and mount"
fi

# d/e. EIO from a short read: the job's file is truncated during the run;
# O_DIRECT reads past the new end return 0 bytes, the job sees err=5 and
# the warning names the file and the offset. On a loaded machine the run may
# start late and lay the file out again after one truncation, so it is
# truncated every 0.25 s until the run ends (3 s of I/O, up to 60 s in all).
printf '[a]\nrw=randread\nsize=4m\nbs=4k\ndirect=1\ntime_based\nruntime=3\n' >e1.fio
timeout 60 "$BIN" run e1.fio --real >out 2>err || fail "e1 layout run: $(cat err)"
rm -f e1.done
( while [ ! -e e1.done ]; do sleep 0.25; truncate -s 0 a.0.0; done ) &
timeout 60 "$BIN" run e1.fio --real >out 2>err && { touch e1.done; wait; fail "e1: exit 0 after truncation"; }
touch e1.done
wait
grep -q "Sanitizer" err && fail "e1: $(grep -A3 Sanitizer err | head -8)"
grep -q "err= 5 (Input/output error)" out || fail "e1: no err= 5 in $(grep err= out)"
grep -q "short read of 'a.0.0' at offset [0-9]*:" err || fail "e1: no short-read warning: $(cat err)"
rm -f a.0.0
n=$((n + 1))

# f. a block device: a loop device over a temp file
if [ "$(id -u)" -eq 0 ] && truncate -s 16m img && loopdev=$(losetup -f --show img 2>/dev/null); then
	ln=$(basename "$loopdev")
	printf '[a]\nrw=read\nsize=4m\nbs=4k\nfilename=%s\n' "$loopdev" >f1.fio
	timeout 60 "$BIN" run f1.fio --real >out 2>err || fail "f1: $(cat err)"
	grep -q "err= 0" out || fail "f1: no err= 0 in $(head -3 out)"
	grep -q "^ *$ln: ios=[1-9]" out || fail "f1: no diskstats of $ln: $(grep ios= out)"
	n=$((n + 1))
	if mkfs.ext4 -q "$loopdev" 2>/dev/null && mkdir mnt && mount "$loopdev" mnt 2>/dev/null; then
		printf '[a]\nrw=write\nsize=4m\nbs=4k\nfilename=%s\n' "$loopdev" >f2.fio
		expect_err f2.fio "'$loopdev'" "mounted" "allow_mounted_write"
		# allow_mounted_write=1 lets it through (past the file system's
		# superblock and journal: the throwaway ext4 still unmounts)
		printf '[a]\nrw=write\nsize=1m\noffset=12m\nbs=4k\nfilename=%s\nallow_mounted_write=1\n' "$loopdev" >f3.fio
		timeout 60 "$BIN" run f3.fio --real >out 2>err || fail "f3: $(cat err)"
		grep -q "err= 0" out || fail "f3: no err= 0 in $(head -3 out)"
		# one job of two that write without it: still refused
		printf '[a]\nrw=write\nsize=1m\noffset=12m\nbs=4k\nfilename=%s\nallow_mounted_write=1\n[b]\nrw=write\nsize=1m\noffset=13m\nbs=4k\nfilename=%s\n' "$loopdev" "$loopdev" >f4.fio
		expect_err f4.fio "'$loopdev'" "mounted" "allow_mounted_write"
		n=$((n + 1))
		umount mnt
		# a read of a mounted device is fine, as in fio
		timeout 60 "$BIN" run f1.fio --real >out 2>err || fail "f1 mounted: $(cat err)"
		n=$((n + 1))
	else
		echo "SKIP f2: mkfs.ext4 or mount of $loopdev failed"
	fi
else
	echo "SKIP f: losetup needs root and a free loop device"
fi

# g. what --real refuses, with the job's file:line and the reason
printf '[a]\nrw=write\nsize=64k\nbs=4k\nverify=crc32c\n' >g1.fio
expect_err g1.fio "g1.fio:" "job 'a'" "verify="
printf '[a]\nrw=write\nsize=64k\nbs=4k\nzonemode=zbd\n' >g2.fio
expect_err g2.fio "g2.fio:" "zonemode=zbd"
printf '[a]\nrw=read\nsize=64k\nbs=4k\nread_iolog=nosuch.log\n' >g3.fio
timeout 60 "$BIN" run g3.fio --real >out 2>err && fail "g3: exit 0"
grep -q "g3.fio:" err || fail "g3: no job file in $(cat err)"
n=$((n + 1))
printf '[a]\nioengine=filecreate\nnrfiles=4\nfilesize=4k\n' >g4.fio
expect_err g4.fio "g4.fio:" "ioengine"

# h. fio --readonly: no file is created or grown; an existing one is read
# and left as it was
timeout 60 "$BIN" fio --real --readonly --name=r --rw=read --size=1m --filename=h1 >out 2>err &&
	fail "h1: exit 0"
grep -qF "file 'h1': does not exist (err=2), and the run is read-only (read_only, the --readonly option): no file is created" err ||
	fail "h1: $(cat err)"
[ -e h1 ] && fail "h1: created under --readonly"
head -c 65536 /dev/urandom >h2
timeout 60 "$BIN" fio --real --readonly --name=r --rw=read --size=1m --filename=h2 >out 2>err &&
	fail "h2: exit 0"
grep -qF "file 'h2': 65536 bytes where the jobs need 1048576, and the run is read-only (read_only, the --readonly option): no file is grown" err ||
	fail "h2: $(cat err)"
[ "$(wc -c <h2)" -eq 65536 ] || fail "h2: grown under --readonly"
head -c 1048576 /dev/urandom >h3
sum=$(cksum <h3)
timeout 60 "$BIN" fio --real --readonly --name=r --rw=read --bs=64k --size=1m --filename=h3 \
	--output-format=json >h3.json 2>err || fail "h3: $(cat err)"
tr -d ' \n' <h3.json | grep -q '"read":{"io_bytes":1048576' || fail "h3: not all read"
[ "$(cksum <h3)" = "$sum" ] || fail "h3: changed under --readonly"
n=$((n + 3))

echo "real_faults: $n cases"
exit 0
