#!/bin/sh
# Description: the schedulers on real files (--real, issue 15's tests), in
# a temporary directory on the disk the tests run on, 2 s per case:
# BE level 0 against level 7 sequential O_DIRECT readers of 1 GiB files (cfq, cfq-4.19:
# the higher level gets more; noop: about even), an RT reader against two
# BE readers (the RT one takes the disk), cgroups weighted 1000:250 under
# cfq-4.19 and bfq (about 4:1 in device time, from the run's Disk time
# figures), and an idle-class reader that gets the disk only once the BE
# reader stops (its bandwidth log). Measured figures: docs/real-measured.md.
# A shared disk moves the figures: each case gets up to 3 runs
# (IOS_REAL_TRIES) and passes on the first within its bound.
# Skipped (77) without io_uring, or where the directory has no O_DIRECT.
# The ratios are measured on this machine's disk; a sanitizer build measures
# the same ratios with the same code (its io_uring host is checked under the
# sanitizers by real_faults.sh and host_uring_faults).
if [ "${BUILD:-build}" != build ]; then
	echo "real_fairness: measured in the normal build only (BUILD=$BUILD)"
	exit 77
fi
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d /var/tmp/iosched-rf.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
printf '[a]\nrw=read\nsize=64k\nbs=4k\ndirect=1\n' >probe.fio
timeout 30 "$BIN" run probe.fio --real >out 2>&1 || { echo "SKIP: --real does not run here: $(head -1 out)"; exit 77; }

head_job() { # extra global lines...
	printf '[global]\nrw=read\nbs=64k\ndirect=1\nioengine=psync\nsize=256m\nruntime=2\ntime_based\n'
	for l in "$@"; do printf '%s\n' "$l"; done
}
# run JOB SCHED: JSON in JOB.SCHED.json
run() {
	timeout 60 "$BIN" run "$1" --real --scheduler "$2" --output-format json >"$1.$2.json" 2>err ||
		fail "$1 under $2: $(cat err)"
}
# field JSON N WHAT: job N's read bw (KiB/s), or its device time (ms)
bw() { tr -d ' \n' <"$1" | sed 's/"jobs":\[/\n/' | tail -1 | grep -o '"read":{[^}]*"bw":[0-9]*' |
	sed -n "$(($2 + 1))s/.*\"bw\"://p"; }
dev() { tr -d ' \n' <"$1" | sed 's/.*"disk_time":{//' | grep -o '"device_time_ns":[0-9]*' |
	sed -n "$(($2 + 1))s/.*://p"; }
io_kib() { tr -d ' \n' <"$1" | sed 's/"jobs":\[/\n/' | tail -1 | grep -o '"read":{[^}]*"io_kbytes":[0-9]*' |
	sed -n "$(($2 + 1))s/.*\"io_kbytes\"://p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 999) }'; }
between() { awk -v r="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(r >= lo && r <= hi) }'; }
report=""

# The disk and the 2 CPUs are shared with whatever else runs (other tests,
# other users): a copy or a CPU hog beside a case moves its ratio, as it did
# for bfq's cgroups (2.30 under load). Each case is run up to $TRIES times and
# passes when one run is within its bound; the report and any failure list
# every run's figure and name the bound. What the bounds are, and the figures
# on an idle machine: docs/real-measured.md.
TRIES=${IOS_REAL_TRIES:-3}
case $TRIES in '' | *[!0-9]* | 0) fail "IOS_REAL_TRIES=$TRIES: want a count of runs, 1 or more" ;; esac
# try NAME CASE ARGS...: run CASE ARGS up to $TRIES times; CASE sets $val (the
# figure) and $want (the bound, in words) and returns 0 within the bound. A
# case that can tell a disturbed disk from a broken scheduler sets $fallback
# to a command (with its $fallback_want) tried once the tries are used up.
try_case() {
	name=$1; shift
	seen=""
	i=1
	while [ "$i" -le "$TRIES" ]; do
		if "$@"; then
			report="$report $name=$val${seen:+ (earlier runs: $seen)}"
			return 0
		fi
		seen="$seen${seen:+, }$val"
		i=$((i + 1))
	done
	if [ -n "$fallback" ]; then
		if $fallback; then
			report="$report $name: disturbed ($seen in $TRIES runs, want $want), $val"
			return 0
		fi
		fail "$name: $seen in $TRIES runs, want $want in one of them; then $val, want $fallback_want"
	fi
	fail "$name: $seen in $TRIES runs, want $want in one of them"
}
fallback=""

# 1. BE 0 against BE 7, sequential, on files of 1 GiB: a time_based reader
# that wraps around its file seeks back to its start, and 2.6.31 reads one
# seek over 32 MiB as a seeky queue and stops idling for it (with 256 MiB
# files this disk gave 1.9 instead of 4.5: docs/real-measured.md,
# tests/unit/scenario_cfq_wrap_seek.c). A disk fast enough to wrap even
# these is held to the old bound, and the report says so.
{ head_job prioclass=2 size=1g; printf '[hi]\nprio=0\nfilename=f.s0\n[lo]\nprio=7\nfilename=f.s7\n'; } >seq.fio
seq_case() { # SCHED
	run seq.fio "$1"
	val=$(ratio "$(bw "seq.fio.$1.json" 0)" "$(bw "seq.fio.$1.json" 1)")
	lo=2.5 hi=100 want="BE0:BE7 bandwidth >= 2.5 (slices 180:40 ms)"
	case $1 in
	cfq)
		kib=$(io_kib seq.fio.cfq.json 0)
		if [ "${kib:-0}" -gt 1048576 ]; then
			val="$val(wrapped:${kib}KiB)" lo=1.5
			want="BE0:BE7 bandwidth >= 1.5 where the level 0 reader wraps around its file"
		fi ;;
	noop) lo=0.67 hi=1.5 want="BE0:BE7 bandwidth 0.67..1.5 (noop knows no levels)" ;;
	esac
	between "${val%%(*}" "$lo" "$hi"
}
for s in cfq cfq-4.19 noop; do
	try_case "seq-be0:be7/$s" seq_case $s
done

# 2. an RT reader against two BE readers: cfq serves RT first, always
{ head_job; printf '[rt]\nprioclass=1\nprio=4\nfilename=f.hi\n[be1]\nprioclass=2\nfilename=f.lo\n'
  printf '[be2]\nprioclass=2\nfilename=f.lo2\n'; } >rt.fio
rt_case() {
	run rt.fio cfq
	val=$(awk -v a="$(bw rt.fio.cfq.json 0)" -v b="$(bw rt.fio.cfq.json 1)" -v c="$(bw rt.fio.cfq.json 2)" \
		'BEGIN { printf "%.3f", a / (a + b + c) }')
	want="the RT reader's share of the bandwidth >= 0.9"
	between "$val" 0.9 1
}
try_case rt-share rt_case

# 3. cgroups 1000:250: device time about 4:1 (cfq-4.19 3.6-3.8, bfq 2.7-3.5
# on this machine, idle). Under a dd writer and a CPU hog beside it, the
# ratios went anywhere from 0.4 to 10 (bfq 0.43-2.09, cfq-4.19 1.9-10.0,
# 5 December): the device time of a request includes its wait behind the
# other work's I/O in the host's queue, and an 8 ms idle window is missed
# when iosched's thread waits for a CPU. When all tries miss, the weights
# are compared with themselves: three runs at equal weights alternated with
# three at 1000:250, and the median bandwidth ratio at 1000:250 must be at
# least 1.3 times that at equal weights (under that load: 1.4-2.1 and
# 2.0-5.9 against about 1).
{ head_job; printf '[a]\ncgroup=a\ncgroup_weight=1000\nfilename=f.hi\n'
  printf '[b]\ncgroup=b\ncgroup_weight=250\nfilename=f.lo\n'; } >cg.fio
{ head_job; printf '[a]\ncgroup=a\ncgroup_weight=1000\nfilename=f.hi\n'
  printf '[b]\ncgroup=b\ncgroup_weight=1000\nfilename=f.lo\n'; } >cgeq.fio
cg_case() { # SCHED
	run cg.fio "$1"
	val=$(ratio "$(dev "cg.fio.$1.json" 0)" "$(dev "cg.fio.$1.json" 1)")
	want="cgroups 1000:250 device time 2.5..6 (about 4:1)"
	between "$val" 2.5 6
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
cg_against_equal() { # SCHED
	w="" e=""
	for _ in 1 2 3; do
		run cgeq.fio "$1"
		e="$e $(ratio "$(bw "cgeq.fio.$1.json" 0)" "$(bw "cgeq.fio.$1.json" 1)")"
		run cg.fio "$1"
		w="$w $(ratio "$(bw "cg.fio.$1.json" 0)" "$(bw "cg.fio.$1.json" 1)")"
	done
	# shellcheck disable=SC2086
	mw=$(median3 $w) me=$(median3 $e)
	val="bandwidth a:b median $mw at 1000:250 (runs$w), $me at equal weights (runs$e)"
	awk -v a="$mw" -v b="$me" 'BEGIN { exit !(a >= 1.3 * b) }'
}
fallback_want="the median at 1000:250 >= 1.3 x the median at equal weights"
for s in cfq-4.19 bfq; do
	fallback="cg_against_equal $s"
	try_case "cgroup-1000:250-time/$s" cg_case $s
done
fallback=""

# 4. idle class: nothing while the BE reader runs (1.5 s), the disk after
{ printf '[global]\nrw=read\nbs=64k\ndirect=1\nioengine=psync\nsize=256m\ntime_based\n'
  printf 'write_bw_log=bw\nlog_avg_msec=250\n[be]\nprioclass=2\nruntime=1500ms\nfilename=f.hi\n'
  printf '[idle]\nprioclass=3\nruntime=3\nfilename=f.lo\n'; } >idle.fio
idle_case() {
	rm -f bw_bw.*.log
	run idle.fio cfq
	[ -s bw_bw.2.log ] || fail "no bandwidth log of the idle job"
	# windows ending by 1.5 s against those from 1.75 s on (KiB/s, averaged)
	during=$(awk -F, '$1 + 0 <= 1500 { s += $2; n++ } END { printf "%.0f", n ? s / n : 0 }' bw_bw.2.log)
	after=$(awk -F, '$1 + 0 >= 1750 { s += $2; n++ } END { printf "%.0f", n ? s / n : 0 }' bw_bw.2.log)
	val="${during}KiB/s-during/${after}KiB/s-after"
	want="the idle reader's KiB/s while the BE reader runs under 5 % of its KiB/s after, and more than 0 after"
	[ "$after" -gt 0 ] && awk -v a="$during" -v b="$after" 'BEGIN { exit !(a < 0.05 * b) }'
}
try_case idle idle_case
echo "real_fairness:$report"
