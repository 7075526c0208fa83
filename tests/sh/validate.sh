#!/bin/sh
# Description: iosched validate (issue 31) on a real DiskSim validation
# trace (the Barracuda excerpt in tests/data/disksim) against hdd-2004:
# the JSON parses and holds rms_demerit_ms, a positive finite number, equal
# to the text report's "rms demerit:" line; two runs print the same bytes;
# --plot draws both curves; an output over an input, a missing argument,
# both PATH.parv and --device, a bad trace line and a PATH.parv the device
# layer refuses are errors with exit 2 and a message naming the fault.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
top=$(pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/  stderr: /' err | head -5; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
trace=$top/tests/data/disksim/barracuda-head.trace

"$BIN" validate --device hdd-2004 "$trace" --output-format json >a.json 2>err ||
	fail "validate --output-format json: exit $?"
"$BIN" validate --device hdd-2004 "$trace" --output-format json >b.json 2>err || fail "second run: exit $?"
cmp -s a.json b.json || fail "two runs of the same trace differ"
python3 - a.json <<'PY' || fail "the JSON report"
import json, math, sys
j = json.load(open(sys.argv[1]))
x = j["rms_demerit_ms"]
assert isinstance(x, float) and math.isfinite(x) and x > 0, x
assert j["requests"] == 400 and j["reads"] == 264 and j["writes"] == 136, j
for side in ("measured", "simulated"):
    s = j[side]
    assert 0 < s["p10_ms"] <= s["p50_ms"] <= s["p90_ms"] <= s["p99_ms"] <= s["max_ms"], s
assert j["device"] == "hdd-2004"
PY
"$BIN" validate --device hdd-2004 "$trace" >a.txt 2>err || fail "text report: exit $?"
want=$(python3 -c 'import json,sys; print("rms demerit: %.3f ms" % json.load(open(sys.argv[1]))["rms_demerit_ms"])' a.json)
grep -qx "$want" a.txt || fail "the text report lacks '$want'"
grep -q "^  p99 " a.txt || fail "the text report lacks the p99 row"

"$BIN" validate --device hdd-2004 "$trace" --plot c.svg >/dev/null 2>err || fail "--plot: exit $?"
[ "$(grep -c '<polyline' c.svg)" = 2 ] || fail "--plot: not two curves"

refused() { # what, expected message part, command...
	what=$1; msg=$2; shift 2
	"$@" >out 2>err
	rc=$?
	[ $rc = 2 ] || fail "$what: exit $rc, expected 2"
	grep -q -- "$msg" err || fail "$what: no message with '$msg'"
}
cp "$trace" t.trace
refused "--output over the trace" "t.trace" "$BIN" validate --device hdd-2004 t.trace --output t.trace
cmp -s t.trace "$trace" || fail "--output over the trace changed it"
refused "--plot over the trace" "t.trace" "$BIN" validate --device hdd-2004 t.trace --plot t.trace
refused "no trace" "give PATH.parv and TRACE" "$BIN" validate --device hdd-2004
refused "both drives" "give one" "$BIN" validate x.parv t.trace --device hdd-2004
printf 'R Hit 1 8 100 200\nR Hit 2 8 -1 200\n' >bad.trace
refused "a negative time" "bad.trace:2: field 5, service time (us): negative time" \
	"$BIN" validate --device hdd-2004 bad.trace
printf 'R Hit 999999999999 8 100 200\n' >far.trace
refused "a block past the end" "far.trace:1: blocks 999999999999..1000000000006 past the end of device hdd-2004" \
	"$BIN" validate --device hdd-2004 far.trace
: >x.parv
refused "a PATH.parv" "x.parv" "$BIN" validate x.parv t.trace
exit 0
