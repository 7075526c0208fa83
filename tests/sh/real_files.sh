#!/bin/sh
# Description: --real and the files a job names (issue 28, item 3): a
# buffered read of a file whose size is not a multiple of 4 KiB reads to
# the end without a false err=5; a read job opens its file O_RDONLY, so an
# immutable file (chattr +i, which refuses writes even to root) is read;
# unlink=1 removes the job's files; a job whose filename= is an input (its
# own job file, another job file of the command line) is refused, exit 2,
# naming the job file, line and option, and the input is left as it was.
# Skipped (77) without io_uring.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
cleanup() {
	chattr -i "$d"/imm 2>/dev/null
	rm -rf "$d"
}
trap cleanup EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
n=0
printf '[a]\nrw=read\nsize=64k\nbs=4k\n' >probe.fio
timeout 30 "$BIN" run probe.fio --real >out 2>&1 || { echo "SKIP all: --real does not run here: $(head -1 out)"; exit 77; }
rm -f a.0.0
sanitizer() { grep -q "Sanitizer" "$1" && fail "$2: $(grep -A3 Sanitizer "$1" | head -8)"; }

# a. a 10000-byte file: the page cache reads its last page whole; the
# kernel gives 1808 bytes there, which is the end of the file, not an error
for direct in 0 1; do
	head -c 10000 /dev/urandom >ten
	sum=$(cksum <ten)
	printf '[a]\nrw=read\nbs=4k\nsize=10000\nfilename=ten\ndirect=%s\n' $direct >a.fio
	timeout 60 "$BIN" run a.fio --real >out 2>err || fail "a direct=$direct: exit $? ($(cat err))"
	sanitizer err "a direct=$direct"
	grep -q "err= 0" out || fail "a direct=$direct: $(grep err= out)"
	grep -q "short read" err && fail "a direct=$direct: a warning: $(cat err)"
	[ "$(cksum <ten)" = "$sum" ] || fail "a direct=$direct: the file changed"
	n=$((n + 1))
done
# a file cut during the run is still a fault (tests/sh/real_faults.sh, e1)

# b. an immutable file: read, not opened for writing
head -c 65536 /dev/urandom >imm
if chattr +i imm 2>/dev/null; then
	printf '[a]\nrw=read\nbs=4k\nsize=64k\nfilename=imm\n' >b.fio
	timeout 60 "$BIN" run b.fio --real --output-format=json >out 2>err ||
		fail "b: exit $? ($(cat err))"
	sanitizer err b
	tr -d ' \n' <out | grep -q '"read":{"io_bytes":65536' || fail "b: not all read: $(cat err)"
	chattr -i imm
	n=$((n + 1))
else
	echo "SKIP b: chattr +i does not work on this file system"
fi
