#!/bin/sh
# Description: fio's error handling and a full filesystem through the
# command line (docs/jobfiles.md "Errors"). The shapes are fio 3.33's, as it
# prints them for the same jobs on an 8 MiB tmpfs: a job that continued past
# errors has err=<first error> in its job line, an "errors    : total=N,
# first_error=28/<No space left on device>" line after "issued rwts", and
# "total_err" / "first_error" in JSON just before "latency_depth" (neither
# without continue_on_error); terse adds ";N;28" before the description.
# fill_device ends with err= 0 after one "io_u error" line on stderr. Same
# inputs, same bytes.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/    /' err; exit 1; }
SET="--set device.capacity=1GiB --set lab.max_sim_time=100"

printf '[w]\ndirectory=/scratch\nrw=write\nbs=64k\nsize=2g\nioengine=psync\n' >over.fio
printf 'continue_on_error=write\nignore_error=,ENOSPC\n' | cat over.fio - >cont.fio
printf '[fill]\ndirectory=/scratch\nfilename=datafile.tmp\nrw=write\nbs=64k\nfill_device=1\n' >fill.fio

# stopped by ENOSPC: err=28, no errors line, non-zero exit as fio
"$BIN" fio $SET over.fio >out 2>err && fail "over.fio: exit 0"
grep -q '^w: (groupid=0, jobs=1): err=28 (No space left on device)' out || fail "over: err line"
grep -q 'errors    :' out && fail "over: errors line without continue_on_error"
grep -q 'fio: io_u error on file /scratch/w.0.0: No space left on device: write offset=' err ||
	fail "over: no io_u error line"

# went on past ENOSPC: the whole size issued, the failures counted
"$BIN" fio $SET cont.fio >out 2>err
grep -q 'err=28 (No space left on device)' out || fail "cont: err line"
grep -q 'issued rwts: total=0,32768,0,0' out || fail "cont: issued"
grep -A1 'issued rwts' out | grep -q '^     errors    : total=16678, first_error=28/<No space left on device>$' ||
	fail "cont: errors line"
grep -q 'io_u error' err && fail "cont: non-fatal errors printed without error_dump"
printf 'error_dump=1\n' | cat cont.fio - >dump.fio
"$BIN" fio $SET dump.fio >/dev/null 2>err
[ "$(grep -c 'fio: io_u error' err)" -eq 20 ] || fail "dump: 20 lines"
grep -q '16658 more io_u error lines not printed' err || fail "dump: the rest counted"

"$BIN" fio $SET --output-format=json cont.fio >out.json 2>err
grep -q '"error" : 28,' out.json || fail "json error"
grep -A2 '"total_err" : 16678,' out.json | grep -q '"first_error" : 28,' || fail "json fields"
grep -A3 '"first_error"' out.json | grep -q '"latency_depth"' || fail "json order"
"$BIN" fio $SET --output-format=json over.fio >o2.json 2>/dev/null
grep -q total_err o2.json && fail "json total_err without continue_on_error"
"$BIN" fio $SET --minimal cont.fio >out 2>/dev/null
tail -c 20 out | grep -q ';16678;28$' || fail "terse tail: $(tail -c 20 out)"

# fill_device: everything that is free, then a clean end
"$BIN" fio $SET fill.fio >out 2>err || fail "fill: exit"
grep -q 'err= 0' out || fail "fill: err"
grep -q 'issued rwts: total=0,16091,0,0' out || fail "fill: issued"
[ "$(grep -c 'io_u error on file /scratch/datafile.tmp: No space left' err)" -eq 1 ] ||
	fail "fill: one io_u error line"

# deterministic
"$BIN" fio $SET cont.fio >a 2>/dev/null; "$BIN" fio $SET cont.fio >b 2>/dev/null
cmp -s a b || fail "cont.fio: two runs differ"

# bad values: the option, the line and what is allowed
printf '[j]\nrw=read\nsize=1m\nignore_error=,ENOSPACE\n' >bad.fio
"$BIN" fio bad.fio >out 2>err && fail "bad: exit 0"
grep -q "bad.fio:4: option 'ignore_error=,ENOSPACE': write list: unknown error 'ENOSPACE'" err ||
	fail "bad: message"
exit 0
