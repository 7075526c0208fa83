#!/bin/sh
# Scaling in the number of processes (issue 16, items 1, 2 and 5).
#
# One job file: NJ psync readers of 4 KiB random blocks, direct, each in its
# own 1 MiB slice of one /dev/ file (filename=/dev/sdb, offset_increment=1m),
# NR requests each (number_ios; 32 by default). Every process does the same
# number of requests at 100 and at 10,000 processes, so the ratio of the
# costs per request is about scaling, not about the start-up being spread
# over fewer requests; and since the processes share one /dev/ file there
# are no per-process files, so all the memory counted is the processes'.
#
# For each device profile and scheduler (cfq also with slice_idle=0):
#   cost/req = CPU time (user+sys, wait4 in bench/rusage_run) / simulated
#              requests (the sum of total_ios in the JSON output), at 100
#              processes (median of REP100 runs) and at 10,000 (median of
#              REP10K runs); the ratio beside its target, <= 2x;
#   mem/proc = (peak RSS at 10,000 - peak RSS at 100) / 9,900, beside its
#              target, <= 4 KB.
# Then 100,000 processes (max_jobs) under noop on ssd: peak RSS, target
# < 1 GiB; and a trivial job (one 4 KiB read of a 4 KiB file, defaults):
# median CPU time of TRIV runs, target < 2 ms, whole and net of the process
# start (exec, dynamic loading: the median of as many `iosched --version`).
#
# The output format is FORMAT (json by default, the larger; "normal" for
# fio's text). Prints, never asserts. Environment: DEVICES ("hdd-2009 ssd";
# the hdd runs simulate long times and cost most, the other profiles are
# the same two models, hdd and ssd, with other parameters), SCHEDS, NR (32),
# BIG (10000), REP100 (5), REP10K (1), HUGE (100000; 0 skips it), TRIV (21),
# QUICK=1 (ssd only; noop, deadline, cfq both ways, bfq; 100k skipped),
# BIN (./iosched), BUILD (build).
if [ -n "$QUICK" ]; then
	DEVICES=${DEVICES:-ssd}
	SCHEDS=${SCHEDS:-"noop deadline cfq cfq:slice_idle=0 bfq"}
	HUGE=${HUGE:-0}
	TRIV=${TRIV:-11}
fi
DEVICES=${DEVICES:-"hdd-2009 ssd"}
SCHEDS=${SCHEDS:-"noop deadline anticipatory cfq cfq:slice_idle=0 cfq-2.6.33 cfq-4.19 bfq"}
NR=${NR:-32}
SMALL=100
BIG=${BIG:-10000}
REP100=${REP100:-5}
REP10K=${REP10K:-1}
HUGE=${HUGE:-100000}
TRIV=${TRIV:-21}
FORMAT=${FORMAT:-json}
. "$(dirname "$0")/lib.sh"
bench_count NR 1 1000000
bench_count BIG 1 1048576
bench_count REP100 1 1000
bench_count REP10K 1 1000
bench_count HUGE 0 1048576
bench_count TRIV 1 10000
echo "== scale: $NR 4 KiB psync random reads per process, $SMALL vs $BIG processes, --output-format $FORMAT =="
bench_need_tools
dir=$(mktemp -d /tmp/iosched-scale.XXXXXX) || exit 0
trap 'rm -rf "$dir"' EXIT INT TERM
cat >"$dir/job.fio" <<'EOF'
[global]
max_jobs=${NJ}
rw=randread
bs=4k
ioengine=psync
direct=1
filename=/dev/sdb
size=1m
offset_increment=1m
number_ios=${NR}
[reader]
numjobs=${NJ}
EOF
cat >"$dir/trivial.fio" <<'EOF'
[trivial]
rw=read
size=4k
EOF
med() { sort -g | awk '{ v[NR] = $1 } END {
	if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu_of() { sed -n 's/^RUSAGE \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' "$1" | awk '{ printf "%.6f", $1 + $2 }'; }
rss_of() { sed -n 's/^MAXRSS \([0-9]*\)$/\1/p' "$1"; }
# requests in the output: JSON's total_ios, or the text's "issued rwts: total=R,W,T,S"
reqs_of() {
	if [ "$FORMAT" = json ]; then
		sed -n 's/^ *"total_ios" : \([0-9]*\),*$/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }'
	else
		sed -n 's/^ *issued rwts: total=\([0-9]*\),\([0-9]*\),\([0-9]*\).*/\1 \2 \3/p' "$1" |
			awk '{ s += $1 + $2 + $3 } END { print s + 0 }'
	fi
}
# one N SCHED DEV -> "REQUESTS CPU_S RSS_KB"
one() {
	s=${2%%:*}
	set_arg=""
	case $2 in *:*) set_arg="--set ${2#*:}" ;; esac
	# shellcheck disable=SC2086
	NJ=$1 NR=$NR "$RU" "$BIN" run "$dir/job.fio" --scheduler "$s" --device "$3" $set_arg \
		--output-format "$FORMAT" >"$dir/out" 2>"$dir/ru"
	echo "$(reqs_of "$dir/out") $(cpu_of "$dir/ru") $(rss_of "$dir/ru")"
}
# measure N SCHED DEV REPS -> "REQUESTS MEDIAN_CPU MEDIAN_RSS"
measure() {
	: >"$dir/m"
	i=0
	while [ "$i" -lt "$4" ]; do
		one "$1" "$2" "$3" >>"$dir/m"
		i=$((i + 1))
	done
	echo "$(cut -d' ' -f1 "$dir/m" | med) $(cut -d' ' -f2 "$dir/m" | med) $(cut -d' ' -f3 "$dir/m" | med)"
}
printf "%-9s %-19s %11s %11s %7s %6s %9s %7s\n" device scheduler "us/req@$SMALL" "us/req@$BIG" ratio target "KB/proc" target
for dev in $DEVICES; do
	for sch in $SCHEDS; do
		set -- $(measure "$SMALL" "$sch" "$dev" "$REP100")
		n1=$1 c1=$2 r1=$3
		set -- $(measure "$BIG" "$sch" "$dev" "$REP10K")
		n2=$1 c2=$2 r2=$3
		awk -v d="$dev" -v s="$sch" -v n1="$n1" -v c1="$c1" -v r1="$r1" \
			-v n2="$n2" -v c2="$c2" -v r2="$r2" -v p1="$SMALL" -v p2="$BIG" 'BEGIN {
			if (n1 <= 0 || n2 <= 0 || c1 <= 0 || c2 <= 0) {
				printf "%-9s %-19s no measurement (requests %s / %s)\n", d, s, n1, n2; exit }
			u1 = c1 / n1 * 1e6; u2 = c2 / n2 * 1e6
			printf "%-9s %-19s %11.2f %11.2f %6.2fx %6s %9.2f %7s\n", d, s, u1, u2, u2 / u1,
				"<= 2x", (r2 - r1) / (p2 - p1), "<= 4 KB" }'
	done
done
if [ "$HUGE" -gt 0 ]; then
	set -- $(one "$HUGE" noop ssd)
	awk -v n="$1" -v c="$2" -v r="$3" -v p="$HUGE" 'BEGIN {
		printf "%d processes (noop, ssd): peak RSS %.0f MB (%.2f KB/process), %.1f s CPU, %d requests; target < 1 GiB (1074 MB)\n",
			p, r * 1024 / 1e6, r / p, c, n }'
fi
: >"$dir/t"
: >"$dir/v"
i=0
while [ "$i" -lt "$TRIV" ]; do
	# the job and the bare process start (--version) alternate
	"$RU" "$BIN" run "$dir/trivial.fio" >/dev/null 2>"$dir/ru"
	echo "$(cpu_of "$dir/ru")" >>"$dir/t"
	"$RU" "$BIN" --version >/dev/null 2>"$dir/ru"
	echo "$(cpu_of "$dir/ru")" >>"$dir/v"
	i=$((i + 1))
done
printf "trivial job (one 4 KiB read, defaults): median %.2f ms CPU of %d runs, %.2f ms net of the process start (iosched --version: %.2f ms); target < 2 ms\n" \
	"$(med <"$dir/t" | awk '{ print $1 * 1000 }')" "$TRIV" \
	"$(awk -v a="$(med <"$dir/t")" -v b="$(med <"$dir/v")" 'BEGIN { print (a - b) * 1000 }')" \
	"$(med <"$dir/v" | awk '{ print $1 * 1000 }')"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
exit 0
