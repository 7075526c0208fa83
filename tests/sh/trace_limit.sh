#!/bin/sh
# Description: --trace is bounded (issue 28, item 8: it had no bound, 10 GB in
# 60 s). --trace-limit SIZE (default 1g, 0: none) cuts the trace at a record
# boundary, below SIZE, ending with a note that says so; the run and its
# report go on unchanged; stderr names the limit, the file, where it was cut
# and what was dropped; the exit status is 1 (run, replay, fio). A limit
# without --trace or a malformed one is refused with exit 2. blkparse, when
# installed, reads the cut trace to its note.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
top=$(pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/  stderr: /' err | head -5; exit 1; }
job=$top/examples/intro.fio
size() { wc -c <"$1" | tr -d ' '; }

"$BIN" run "$job" >plain.out 2>err || fail "intro.fio without --trace: exit $?"
"$BIN" run "$job" --trace full --trace-limit 0 >full.out 2>err || fail "--trace-limit 0: exit $?"
[ -s err ] && fail "--trace-limit 0: a message with no limit"
full=$(size full.blktrace.0)
[ "$full" -gt 200000 ] || fail "the whole trace is $full bytes: too small for a 64 KiB limit to cut"

"$BIN" run "$job" --trace cut --trace-limit 64k >cut.out 2>err
rc=$?
[ $rc = 1 ] || fail "run --trace-limit 64k: exit $rc, expected 1 (the trace asked for is incomplete)"
cut=$(size cut.blktrace.0)
[ "$cut" -le 65536 ] || fail "run --trace-limit 64k: the trace is $cut bytes, more than the 65536 allowed"
[ "$cut" -gt 60000 ] || fail "run --trace-limit 64k: the trace is $cut bytes, far below the 65536 allowed"
cmp -s cut.out plain.out || fail "run --trace-limit 64k: the report differs from the run's without --trace"
# the cut trace is the whole trace's first records, then the note
head -c $((cut - 48 - 96)) full.blktrace.0 >prefix
head -c $((cut - 48 - 96)) cut.blktrace.0 | cmp -s - prefix ||
	fail "run --trace-limit 64k: the trace is not the start of the whole one"
grep -q "iosched: trace cut at --trace-limit=65536 bytes" cut.blktrace.0 ||
	fail "run --trace-limit 64k: no note in the trace saying where it was cut"
grep -q "warning: --trace-limit=65536 bytes reached at [0-9.]* s of the run: cut.blktrace.0 holds what came before ($cut bytes, [0-9]* events), and [0-9]* records after it were dropped; the report covers the whole run, the trace does not (exit status 1" err ||
	fail "run --trace-limit 64k: no warning naming the limit, the file and what was dropped"
if command -v blkparse >/dev/null 2>&1; then
	blkparse -q -i cut 2>/dev/null | grep '^ *8,0 ' | tail -1 | grep -q "m   N iosched: trace cut at --trace-limit=65536 bytes" ||
		fail "blkparse does not read the cut trace to its note"
fi

# replay and fio take it too
"$BIN" replay full --trace rcut --trace-limit 32k >/dev/null 2>err
rc=$?
[ $rc = 1 ] || fail "replay --trace-limit 32k: exit $rc, expected 1"
[ "$(size rcut.blktrace.0)" -le 32768 ] || fail "replay --trace-limit 32k: trace over the limit"
grep -q "warning: --trace-limit=32768 bytes reached" err || fail "replay --trace-limit 32k: no warning"
"$BIN" fio --trace fcut --trace-limit=16k --name=x --rw=randread --size=8m >/dev/null 2>err
rc=$?
[ $rc = 1 ] || fail "fio --trace-limit=16k: exit $rc, expected 1"
[ "$(size fcut.blktrace.0)" -le 16384 ] || fail "fio --trace-limit=16k: trace over the limit"

# below the limit: nothing said, exit 0
"$BIN" run "$job" --trace big --trace-limit 1g >/dev/null 2>err || fail "--trace-limit 1g: exit $?"
cmp -s big.blktrace.0 full.blktrace.0 || fail "--trace-limit 1g: the trace differs from the unlimited one"

"$BIN" run "$job" --trace-limit 1m >/dev/null 2>err
[ $? = 2 ] || fail "--trace-limit without --trace: expected exit 2"
grep -q "there is no --trace to limit" err || fail "--trace-limit without --trace: no message"
"$BIN" run "$job" --trace x --trace-limit 1q >/dev/null 2>err
[ $? = 2 ] || fail "--trace-limit 1q: expected exit 2"
grep -q "\-\-trace-limit=1q: expected a size" err || fail "--trace-limit 1q: no message"
echo "trace_limit: 64k cut at $cut of $full bytes, exit 1, report unchanged"
