#!/bin/sh
# Description: --trace-mask is blktrace's -a: "all,-notify" leaves the
# scheduler's messages out and nothing else (so btt's report is readable),
# "issue,complete" keeps only D and C records (the kernel's act_log_check:
# a record is written when one of its categories is asked for), process
# notes stay so blkparse still names the processes; a bad name or a mask
# without --trace is refused with exit 2. Skips (77) without blkparse.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
top=$(pwd)
command -v blkparse >/dev/null 2>&1 || { echo "SKIP: no blkparse"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
job=$top/examples/intro.fio

"$BIN" run "$job" --trace full >/dev/null 2>err || fail "full: $(cat err)"
"$BIN" run "$job" --trace quiet --trace-mask all,-notify >/dev/null 2>err || fail "quiet: $(cat err)"
"$BIN" run "$job" --trace dc --trace-mask issue,complete >/dev/null 2>err || fail "dc: $(cat err)"
# blkparse's default format: field 6 is the action, 7 the RWBS
acts() { blkparse -q -i "$1" 2>/dev/null | awk 'NF >= 7 && $1 ~ /^[0-9]+,[0-9]+$/ { print $6 }' | sort | uniq -c; }
acts full >full.a
acts quiet >quiet.a
acts dc >dc.a
grep -q ' m$' full.a || fail "the full trace has no scheduler messages: $(cat full.a)"
grep -q ' m$' quiet.a && fail "all,-notify kept the messages: $(cat quiet.a)"
# every other action the same count in both
grep -v ' m$' full.a >full.nom
cmp -s full.nom quiet.a || fail "all,-notify changed other records: $(diff full.nom quiet.a)"
[ "$(awk '{ print $2 }' dc.a | sort | tr '\n' ' ')" = "C D " ] ||
	fail "issue,complete kept: $(cat dc.a)"
[ "$(grep ' D$' dc.a)" = "$(grep ' D$' full.a)" ] || fail "issue,complete lost D records"
# process notes kept: blkparse names the job's process
blkparse -i dc 2>/dev/null | grep -q "seq-reader\|fio" || fail "no process names in dc"
if command -v btt >/dev/null 2>&1; then
	btt -i quiet.blktrace.0 >btt.out 2>&1 || fail "btt on the quiet trace: $(head -5 btt.out)"
	grep -q "ALL" btt.out || fail "btt printed no summary"
fi
"$BIN" run "$job" --trace-mask issue >/dev/null 2>err
[ $? -eq 2 ] || fail "--trace-mask without --trace: not exit 2"
grep -q "there is no --trace to filter" err || fail "no reason: $(cat err)"
"$BIN" run "$job" --trace x --trace-mask isue >/dev/null 2>err
[ $? -eq 2 ] || fail "--trace-mask isue: not exit 2"
grep -q "unknown category 'isue' (did you mean 'issue'?)" err || fail "bad name: $(cat err)"
"$BIN" run "$job" --trace x --trace-mask all,-all >/dev/null 2>err
[ $? -eq 2 ] || fail "--trace-mask all,-all: not exit 2"
[ ! -e x.blktrace.0 ] || fail "a refused mask still created the trace"
echo "trace_mask: ok"
