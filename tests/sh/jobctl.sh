#!/bin/sh
# Description: fio's job control through `iosched fio` (issue 14): the
# --status-interval reports (one every interval of simulated time, then the
# final one; normal and JSON), the steady-state block's shape beside the
# real fio 3.33 on a comparable null job (skipped where fio 3.33 is not
# installed), the tiobench options' note (and a typo of one refused),
# flow_watermark's deprecation note, a file that does not exist and has no
# size refused, and byte-identical output run to run.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/    /' err; exit 1; }

# --status-interval: 2.5 s of simulated time, every second: reports at 1 s, 2 s and the end
printf '[si]\nioengine=null\nsize=1g\nbs=4k\nrw=read\ntime_based\nruntime=2500ms\nrate_iops=100\n' >si.fio
"$BIN" fio --status-interval=1 si.fio >si.txt 2>err || fail "--status-interval=1"
[ "$(grep -c '^Run status group 0 (all jobs):' si.txt)" -eq 3 ] || fail "normal: $(grep -c 'Run status' si.txt) reports, want 3"
[ "$(grep -c '^fio-3.33$' si.txt)" -eq 1 ] || fail "normal: the pre-run lines once"
[ "$(grep -o 'io=[0-9]*KiB' si.txt | tr '\n' ' ')" = "io=400KiB io=800KiB io=1000KiB " ] ||
	fail "normal: the reports' io: $(grep -o 'io=[0-9]*KiB' si.txt | tr '\n' ' ')"
"$BIN" fio --status-interval=500ms --output-format=json si.fio >si.json 2>err || fail "json"
[ "$(grep -c '"fio version"' si.json)" -eq 6 ] || fail "json: $(grep -c '"fio version"' si.json) reports, want 6"
"$BIN" fio --status-interval=500ms --output-format=json si.fio >si2.json 2>err || fail "json again"
cmp -s si.json si2.json || fail "--status-interval: two runs differ"
# an interval longer than the run: the final report only, as without it
"$BIN" fio --status-interval=1h si.fio >long.txt 2>err || fail "--status-interval=1h"
"$BIN" fio si.fio >plain.txt 2>err || fail "plain run"
cmp -s long.txt plain.txt || fail "--status-interval=1h differs from no interval"
# --eta stays a note, in the report (fio prints nothing for it)
"$BIN" fio --eta=always si.fio >eta.txt 2>err || fail "--eta=always"
grep -q "^iosched: note: --eta=always" eta.txt || fail "--eta=always: no note"

# steady state: normal line and JSON block
printf '[ss]\nioengine=null\nsize=1g\nbs=4k\nrw=read\ntime_based\nruntime=30\nrate_iops=1000\nss=iops:5%%\nss_dur=3s\nss_ramp=1s\n' >ss.fio
"$BIN" fio ss.fio >ss.txt 2>err || fail "steady state run"
grep -q '^  steadystate  : attained=yes, bw=4000KiB/s (4000kB/s), iops=1000, iops mean dev=0.000%$' ss.txt ||
	fail "steadystate line: $(grep steadystate ss.txt)"
grep -q '(15.6MiB/4000msec)' ss.txt || fail "the job did not end at 4 s: $(grep 'read:' ss.txt)"
"$BIN" fio --output-format=json ss.fio >ss.json 2>err || fail "steady state json"
# the block's keys in order, and its value shapes
shape() {
	sed -n '/"steadystate" : {/,/^      }/p' "$1" | sed -e 's/: "[a-z_]*:[0-9.]*%*"/: STR/' \
		-e 's/: "-*[0-9.]*%*"/: NUM/' -e 's/: -*[0-9][0-9.]*/: NUM/' -e 's/^ *[0-9][0-9]*,*$/N/'
}
shape ss.json >got.shape
grep -q '"ss" : "iops:5.000000%"' ss.json || fail "json ss: $(grep '"ss"' ss.json)"
if command -v fio >/dev/null 2>&1 && [ "$(fio --version 2>/dev/null)" = "fio-3.33" ]; then
	fio --output-format=json ss.fio >fio.json 2>/dev/null || fail "the real fio"
	shape fio.json >want.shape
	cmp -s want.shape got.shape || fail "steadystate block: $(diff want.shape got.shape)"
	fio ss.fio 2>/dev/null | grep '^  steadystate  :' | sed 's/[0-9][0-9.]*/N/g' >want.line
	grep '^  steadystate  :' ss.txt | sed 's/[0-9][0-9.]*/N/g' >got.line
	cmp -s want.line got.line || fail "steadystate line: fio '$(cat want.line)', iosched '$(cat got.line)'"
fi

# tiobench's options: accepted with a note; a typo is an unknown option
printf '[a]\nioengine=null\nsize=64k\nthreads=1\n' >t.fio
"$BIN" fio t.fio >t.txt 2>err || fail "threads=1"
grep -q "threads: options of fio's tiobench profile, no effect without --profile=tiobench" t.txt ||
	fail "threads=1: no note"
printf '[a]\nioengine=null\nsize=64k\nthreadz=1\n' >tz.fio
"$BIN" fio tz.fio >/dev/null 2>err && fail "threadz=1 accepted"
grep -q "unknown option 'threadz'" err || fail "threadz=1: message"
printf '[a]\nioengine=null\nsize=64k\nflow_watermark=3\n' >fw.fio
"$BIN" fio fw.fio >fw.txt 2>err || fail "flow_watermark"
grep -q "option flow_watermark is deprecated" fw.txt || fail "flow_watermark: no note"

# as fio: a file that does not exist, with no size, is refused
printf '[f]\nfilename=nofile\nrw=read\nflow=2\n' >b.fio
"$BIN" fio b.fio >/dev/null 2>err && fail "a missing file without size ran"
grep -q "does not exist and no size was given" err || fail "missing file: message"
exit 0
