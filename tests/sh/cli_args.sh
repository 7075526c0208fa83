#!/bin/sh
# Description: the command line is checked before anything runs or is
# written (issue 12, items 8-10): an option missing its value is an error
# that names it (it does not swallow the next option, and a trailing one
# does not run the job first); integers are decimal or 0x hex (08 is 8,
# 010 is ten, " -1" and "+1" are refused); "-" reads the job file from
# stdin, as fio does; a directory, /dev/zero or a file over 16 MiB given
# as a job file or an include is a clear error naming it, found without
# reading gigabytes first.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
printf '[j]\nrw=read\nsize=256k\n' >a.fio
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/    /' err; exit 1; }

# expect STATUS NEEDLE ARGS...: exit STATUS, NEEDLE on stderr, no crash
expect() {
	want=$1 needle=$2; shift 2
	"$BIN" "$@" >out 2>err
	st=$?
	[ "$st" -eq "$want" ] || fail "'$*': exit $st, want $want"
	grep -qF -- "$needle" err || fail "'$*': stderr lacks '$needle'"
	grep -q 'Sanitizer' err && fail "'$*': crashed"
	return 0
}

# 9: a missing value; the next option is not taken as one
expect 2 "--output: missing its value ('--seed' is the next option" run a.fio --output --seed 5
[ -e ./--seed ] && fail "--output --seed created a file named --seed"
expect 2 "--output: missing its value (it is the last argument)" run a.fio --output
[ -s out ] && fail "a trailing --output ran the job first"
expect 2 "--plot: missing its value" run a.fio --plot
expect 2 "--trace: missing its value" replay a.fio --trace --seed 1
expect 2 "--schedulers: missing its value" compare a.fio --schedulers --seed 1
expect 2 "--jobs: missing its value" compare a.fio --jobs --seed 1
expect 2 "--output-dir: missing its value" repro --output-dir --quick
expect 2 "--set: empty value" run a.fio --set=
expect 2 "list: unexpected argument '--foo'" list --foo
# the = form says the value is meant: a file named --x is written
"$BIN" run a.fio --output=--x >/dev/null 2>err || fail "--output=--x refused"
[ -s ./--x ] || fail "--output=--x wrote nothing"
rm -f ./--x

# 8: integers on the command line: decimal or 0x hex
"$BIN" run a.fio --seed 8 >s8 2>err || fail "--seed 8"
"$BIN" run a.fio --seed 08 >s08 2>err || fail "--seed 08 refused"
cmp -s s8 s08 || fail "--seed 08 is not --seed 8"
"$BIN" run a.fio --seed 0x8 >s0x8 2>err || fail "--seed 0x8 refused"
cmp -s s8 s0x8 || fail "--seed 0x8 is not --seed 8"
expect 2 "--seed= -1: expected a non-negative integer" run a.fio --seed " -1"
expect 2 "--seed=+1: expected a non-negative integer" run a.fio --seed +1
expect 2 "--seed=18446744073709551616: expected" run a.fio --seed 18446744073709551616
expect 2 "--jobs=08x: allowed 1..256" compare a.fio --jobs 08x
# tunables read decimal as sysfs does: 070 is seventy (out of range), not 56
expect 2 "device.heads=070: out of range" run a.fio --set device.heads=070
expect 2 "quantum=0x10: expected a decimal number" run a.fio --set quantum=0x10
expect 2 "quantum= 4: expected a decimal number, without leading blanks" run a.fio --set "quantum= 4"
"$BIN" run a.fio --set quantum=010 --output-format json >q010 2>err || fail "quantum=010"
"$BIN" run a.fio --set quantum=10 --output-format json >q10 2>err || fail "quantum=10"
cmp -s q010 q10 || fail "quantum=010 is not quantum=10"

# 9: "-" is the job file on stdin
"$BIN" run - <a.fio >stdin.out 2>err || fail "run - <a.fio"
"$BIN" run a.fio >file.out 2>err || fail "run a.fio"
cmp -s stdin.out file.out || fail "run - differs from run a.fio"
expect 2 "'-' (the job file on stdin) given twice" run - - <a.fio
"$BIN" compare - --schedulers noop,cfq <a.fio >out 2>err || fail "compare - <a.fio"
grep -q "^iosched compare: -" out || fail "compare - printed no table"
# only the job file itself comes from stdin: 'include -' is a file named '-'
printf '[j]\nrw=read\nsize=256k\ninclude -\n' >incdash.fio
expect 2 "incdash.fio:4: include '-': cannot read it (No such file or directory)" run incdash.fio <a.fio

# 9, 10: a directory, /dev/zero, a large file; as a job file and as an include
mkdir dir
expect 2 "dir: is a directory, not a job file" run dir
printf '[j]\nrw=read\nsize=256k\ninclude dir\n' >incdir.fio
expect 2 "incdir.fio:4: include 'dir': is a directory, not a job file" run incdir.fio
if [ -c /dev/zero ]; then
	expect 2 "/dev/zero: larger than 16 MiB, too large for a job file" run /dev/zero
	printf '[j]\nrw=read\nsize=256k\ninclude /dev/zero\n' >inczero.fio
	expect 2 "inczero.fio:4: include '/dev/zero': larger than 16 MiB" run inczero.fio
fi
# a sparse 17 MiB file: refused by its size, without reading it
dd if=/dev/zero of=big.fio bs=1 count=0 seek=17825792 2>/dev/null
expect 2 "big.fio: larger than 16 MiB, too large for a job file" run big.fio

# 10: nrfiles= checked before ten million files are allocated (the old code
# took 100 s and 9.8 GB to say that no size was given); the timeout keeps a
# regression from eating the machine
printf '[j]\nrw=read\nnrfiles=10000000\n' >nosize.fio
timeout 20 "$BIN" run nosize.fio >out 2>err
st=$?
[ "$st" -eq 2 ] || fail "nrfiles=10000000 without size: exit $st, want 2 (124: timed out)"
grep -qF "nosize.fio:1: job 'j': file 'j.0.0' does not exist and no size was given" err ||
	fail "nrfiles=10000000 without size: wrong message"
printf '[j]\nrw=read\nsize=100g\nnrfiles=10000000\n' >many.fio
timeout 20 "$BIN" run many.fio >out 2>err
[ $? -eq 2 ] || fail "nrfiles=10000000: not refused in time"
grep -qF "many.fio:4: job 'j': nrfiles=10000000: 10000000 files in all" err ||
	fail "nrfiles=10000000: wrong message"
grep -qF "more than the 262144 one run simulates" err || fail "nrfiles=10000000: no limit named"
# a 1 GiB ext3 has 65525 free inodes: 100000 files cannot fit, whatever their size
printf '[j]\nrw=read\nsize=900m\nnrfiles=100000\n' >inodes.fio
timeout 20 "$BIN" run inodes.fio --set device.capacity=1 >out 2>err
[ $? -eq 2 ] || fail "nrfiles=100000 on 1 GiB: not refused"
grep -qF "more than lab.fs=ext3 on device 'hdd-2009' (1073741824 bytes) can hold: 65525 (its free inodes)" err ||
	fail "nrfiles=100000 on 1 GiB: wrong message"
printf '[j]\nrw=read\nsize=900m\nnrfiles=2000\n' >raw.fio
timeout 20 "$BIN" run raw.fio --set device.capacity=1 --set lab.fs=raw >out 2>err
[ $? -eq 2 ] || fail "nrfiles=2000 on raw 1 GiB: not refused"
grep -qF "can hold: 1024 (one lab.file_align extent each)" err || fail "raw: wrong message"
# within the limits, many files still run
printf '[j]\nrw=read\nsize=4m\nnrfiles=1000\n' >ok.fio
timeout 60 "$BIN" run ok.fio >out 2>err || fail "nrfiles=1000 size=4m refused"
echo ok
