#!/bin/sh
# Description: sweep merge --plot METRIC --plot-dir D on a partial 24-task
# grid (2 devices x 2 schedulers x 3 queue depths x 2 seeds): one SVG per
# axis (device, queue.nr_requests; the single job is not plotted, said),
# each well-formed XML (xmllint), each line's printed values equal to the
# merged table's medians at the held values (default the first, --at
# another), the held values in the title, a point with no seed done a gap
# named on stderr and in the plot. Bad input is refused with the allowed
# names: an unknown metric, an --at axis or value not in the plan, a plot
# dir that is a file or one of the plan's directories, --output onto a
# file of the plan (left as it was), --plot-dir or --at without --plot.
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
command -v xmllint >/dev/null 2>&1 || { echo "SKIP: no xmllint (Debian libxml2-utils)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/rw.fio" <<'JOB'
[global]
direct=1
ioengine=psync
bs=64k
size=64m
runtime=100ms
time_based
[reader]
rw=read
[writer]
rw=randwrite
JOB
cat >"$T/grid" <<'GRID'
job = rw.fio
schedulers = deadline, cfq
devices = hdd-2004, ssd
set queue.nr_requests = 4, 32, 128
seeds = 1-2
GRID
"$BIN" sweep plan "$T/grid" -o "$T/d" >/dev/null || fail "plan"
# every task but point 1 (hdd-2004, deadline, nr_requests 32: tasks 2 and 3)
for k in $(seq 0 23); do
	case $k in 2|3) continue ;; esac
	"$BIN" sweep run "$T/d" --task "$k" 2>/dev/null || fail "task $k"
done
"$BIN" sweep merge "$T/d" >"$T/table" 2>/dev/null || fail "merge"

# the medians of one table section, for SCHED on DEV, in nr_requests order ("-" dropped)
medians() {
	awk -v sec="$1" -v want="device=$2 scheduler=$3 " '
		$0 == sec { on = 1; next }
		on && /^$/ { exit }
		on && index($0, want) && $5 != "-" { print $5 }' "$T/table"
}
# the values printed in line N of an SVG (its last text is the legend)
values() {
	xmllint --xpath "//*[local-name()='g'][@id='line$2']/*[local-name()='text']/text()" "$1" |
		sed '$d'
}

P=$T/plots
"$BIN" sweep merge "$T/d" --plot aggregate_kib_s --plot-dir "$P" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "merge --plot"; }
[ "$(ls "$P" | sort | tr '\n' ' ')" = "aggregate_kib_s-by-device.svg aggregate_kib_s-by-queue.nr_requests.svg " ] ||
	fail "plots: $(ls "$P")"
grep -q 'note: axis job has one value: no plot of it' "$T/err" || { cat "$T/err"; fail "job note"; }
grep -q "aggregate_kib_s-by-queue.nr_requests.svg: missing (no seed done, a gap): scheduler=deadline queue.nr_requests=32" "$T/err" ||
	{ cat "$T/err"; fail "the gap on stderr"; }
xmllint --noout "$P"/*.svg || fail "an SVG does not parse"
Q=$P/aggregate_kib_s-by-queue.nr_requests.svg
grep -q 'held: job=rw.fio, device=hdd-2004<' "$Q" || fail "held values in the title"
grep -q 'missing (no seed done, a gap): 1 point: scheduler=deadline queue.nr_requests=32<' "$Q" ||
	fail "the gap in the plot"
[ "$(values "$Q" 1)" = "$(medians 'aggregate (KiB/s)' hdd-2004 deadline)" ] ||
	fail "deadline's line: $(values "$Q" 1) vs $(medians 'aggregate (KiB/s)' hdd-2004 deadline)"
[ "$(values "$Q" 1 | wc -l)" = 2 ] || fail "the gap is drawn"
[ "$(values "$Q" 2)" = "$(medians 'aggregate (KiB/s)' hdd-2004 cfq)" ] || fail "cfq's line"
[ "$(values "$Q" 2 | wc -l)" = 3 ] || fail "cfq has three points"
# the polyline breaks at the gap: deadline's line is two pieces, the first a single point
[ "$(xmllint --xpath "count(//*[local-name()='g'][@id='line1']/*[local-name()='polyline'])" "$Q")" = 2 ] ||
	fail "deadline's line is not broken at the gap"

# --at: another held value; the device plot held at nr_requests=128
"$BIN" sweep merge "$T/d" --plot clat_max_ms --plot-dir "$P" --at device=ssd \
	--at queue.nr_requests=128 >/dev/null 2>"$T/err" || { cat "$T/err"; fail "--at"; }
Q=$P/clat_max_ms-by-queue.nr_requests.svg
xmllint --noout "$Q" "$P/clat_max_ms-by-device.svg" || fail "--at's SVGs do not parse"
grep -q 'held: job=rw.fio, device=ssd<' "$Q" || fail "--at device=ssd not in the title"
grep -q 'held: job=rw.fio, queue.nr_requests=128<' "$P/clat_max_ms-by-device.svg" || fail "--at nr"
grep -q 'missing' "$Q" && fail "ssd has no gap"
[ "$(values "$Q" 1)" = "$(medians 'clat max (ms)' ssd deadline)" ] || fail "--at: deadline's line"
[ "$(values "$Q" 2)" = "$(medians 'clat max (ms)' ssd cfq)" ] || fail "--at: cfq's line"

# bad input
bad() {	# WANT ARGS...: refused with exit 2 and WANT on stderr
	want=$1; shift
	"$BIN" sweep merge "$T/d" "$@" >/dev/null 2>"$T/err"; st=$?
	[ $st = 2 ] || fail "$* : exit $st, not 2"
	grep -q -- "$want" "$T/err" || { cat "$T/err"; fail "$*: no '$want'"; }
}
bad '--plot nope: no such metric (allowed: aggregate_kib_s, jain_bw, min_max_bw, finish_s, finish_spread, clat_max_ms, clat_p99_ms)' \
	--plot nope --plot-dir "$P"
bad "--at bogus=1: no axis 'bogus' in the plan (its axes: job, device, queue.nr_requests)" \
	--plot finish_s --plot-dir "$P" --at bogus=1
bad "--at device=floppy: 'floppy' is not a value of axis device (its values: hdd-2004, ssd)" \
	--plot finish_s --plot-dir "$P" --at device=floppy
bad "--at scheduler=cfq: the schedulers are the plot's lines" --plot finish_s --plot-dir "$P" --at scheduler=cfq
bad "--at device: expected AXIS=VALUE" --plot finish_s --plot-dir "$P" --at device
touch "$T/file"
bad "--plot-dir $T/file: exists and is not a directory" --plot finish_s --plot-dir "$T/file"
bad "is the plan's results: refused" --plot finish_s --plot-dir "$T/d/results"
bad "is the plan's directory: refused" --plot finish_s --plot-dir "$T/d/"
bad "--plot-dir without --plot METRIC" --plot-dir "$P"
bad "--at without --plot METRIC" --at device=ssd
bad "--plot finish_s: give --plot-dir D" --plot finish_s
before=$(sha256sum <"$T/d/manifest")
bad "--output $T/d/manifest: is a file of the plan" --output "$T/d/manifest"
[ "$(sha256sum <"$T/d/manifest")" = "$before" ] || fail "the manifest was written over"
before=$(sha256sum <"$T/d/results/0.json")
(cd "$T/d/results" && "$BIN" sweep merge .. --output 0.json >/dev/null 2>"$T/err") && fail "--output a result"
grep -q 'is a file of the plan' "$T/err" || { cat "$T/err"; fail "--output a result's message"; }
[ "$(sha256sum <"$T/d/results/0.json")" = "$before" ] || fail "a result was written over"
[ -e "$P/finish_s-by-device.svg" ] && fail "a refused merge wrote a plot"
echo "PASS: one SVG per axis, lines equal to the merged table, --at, gaps, bad input refused"
