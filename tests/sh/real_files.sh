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

# c. unlink=1: the files are gone after the run (a named one and a derived
# one); unlink=0 leaves them
printf '[u]\nrw=write\nbs=4k\nsize=64k\nfilename=u.dat\nunlink=1\n[v]\nrw=read\nbs=4k\nsize=64k\nunlink=1\n[w]\nrw=write\nbs=4k\nsize=64k\nfilename=keep.dat\n' >c.fio
timeout 60 "$BIN" run c.fio --real >out 2>err || fail "c: exit $? ($(cat err))"
sanitizer err c
[ -e u.dat ] && fail "c: u.dat left with unlink=1"
[ -e v.0.0 ] && fail "c: v.0.0 left with unlink=1"
[ -e keep.dat ] || fail "c: keep.dat removed without unlink=1"
n=$((n + 1))

# d. a job that would write or grow an input: refused before any I/O, exit 2
# expect_refused JOBFILE WORDS... (and the job files are left as they were)
expect_refused() {
	j=$1; shift
	for f in *.fio; do cksum "$f"; done >sums
	timeout 60 "$BIN" run $j --real >out 2>err
	rc=$?
	[ $rc -eq 2 ] || fail "d $j: exit $rc, want 2 ($(cat err))"
	sanitizer err "d $j"
	for w in "$@"; do
		grep -qF -- "$w" err || fail "d $j: '$w' not in: $(cat err)"
	done
	for f in *.fio; do cksum "$f"; done | cmp -s - sums || fail "d $j: a job file changed"
	n=$((n + 1))
}
printf '[a]\nrw=write\nbs=4k\nsize=64k\nfilename=d1.fio\n' >d1.fio
expect_refused d1.fio "d1.fio:1: job 'a': filename=d1.fio is the job file 'd1.fio'" \
	"refusing to overwrite an input"
# another job file of the command line, by another name (device and inode)
mkdir sub
printf '[b]\nrw=randwrite\nbs=4k\nsize=64k\nfilename=sub/../d3.fio\n' >d2.fio
printf '[c]\nrw=read\nbs=4k\nsize=4k\n' >d3.fio
expect_refused "d2.fio d3.fio" "d2.fio:1: job 'b': filename=sub/../d3.fio is the job file 'd3.fio'"
# a read job is refused too when it would grow the file to its size=
printf '[a]\nrw=read\nbs=4k\nsize=64k\nfilename=d4.fio\n' >d4.fio
expect_refused d4.fio "d4.fio:1: job 'a'" "would grow it"
# an include
printf 'rw=write\nbs=4k\nsize=64k\nfilename=inc.fio\n' >inc.fio
printf '[a]\ninclude inc.fio\n' >d5.fio
expect_refused d5.fio "filename=inc.fio is the job file 'inc.fio'"
rm -f inc.fio

echo "real_files: $n cases"
exit 0
