#!/bin/sh
# NVMe rates (issue 34, item 2): ten million 4 KiB random reads on a
# 1M-IOPS device under the blk-mq schedulers in MQ (none, mq-deadline), the
# CPU time each takes beside the 5 s target, and the same job under fio's
# null engine, paired.
#
# The device is ssd-nvme made faster so that it serves about 1.2 million
# reads per simulated second: 16 channels x 8 dies, a 30 us page read, an
# 8000 MB/s host link and no per-command controller time (as given, the
# profile serves about 330,000: 3 us per command, one at a time). The job
# (written by the script): 8 jobs of libaio at iodepth 128, direct, NR
# (1,250,000) requests each, group_reporting; iosched runs it with
# ENGINE=libaio on the simulated device, fio with ENGINE=null, so both do the
# same JOBS x NR requests (checked in the JSON's total_ios; a round where a
# count differs is not counted). Each run's CPU time is user+sys of the
# process and its children (wait4, bench/rusage_run; fio's jobs are child
# processes).
#
# Each of ROUNDS (5) rounds runs every scheduler and fio once, the order
# rotating by one place a round. Printed: every run; per scheduler the median
# CPU seconds (min-max) beside the target (<= 5 s), the simulated time and
# rate, and the median of the per-round ratios fio CPU / iosched CPU with the
# min and max, beside the target (>= 1.5x, moonshot 2x). Prints, never
# asserts. Environment: ROUNDS, NR, MQ ("none mq-deadline"), BIN (./iosched),
# BUILD (build).
ROUNDS=${ROUNDS:-5}
NR=${NR:-1250000}
MQ=${MQ:-"none mq-deadline"}
JOBS=8
. "$(dirname "$0")/lib.sh"
bench_count ROUNDS 1 1000
bench_count NR 1 1000000000
DEV="--device ssd-nvme --set device.channels=16 --set device.ways=8 --set device.t_read_us=30"
DEV="$DEV --set device.interface_mbps=8000 --set device.cmd_overhead_us=0"
echo "== nvme_rate: $JOBS x $NR 4 KiB random reads, qd 128, on ssd-nvme at ~1.2M IOPS: $MQ vs fio --ioengine=null =="
bench_need_tools
if ! command -v fio >/dev/null 2>&1; then
	echo "note: fio is not installed: the iosched side only"
	fio=""
else
	fio=fio
fi
dir=$(mktemp -d /tmp/iosched-nvme.XXXXXX) || exit 0
trap 'rm -rf "$dir"' EXIT INT TERM
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $RU in /*) ;; *) RU=$PWD/$RU ;; esac
cd "$dir" || exit 0	# fio's null engine opens no file, but keep its cwd apart
cat >job.fio <<EOF
[global]
rw=randread
bs=4k
ioengine=\${ENGINE}
iodepth=128
direct=1
size=8g
number_ios=\${NR}
group_reporting=1
[nvme]
numjobs=$JOBS
EOF
want=$((JOBS * NR))
ios_of() { sed -n 's/^ *"total_ios" : \([0-9]*\),*$/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }'; }
cpu_of() { sed -n 's/^RUSAGE \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' "$1" | awk '{ printf "%.6f", $1 + $2 }'; }
# the simulated run time in s: the read direction's runtime (ms) in the JSON
simt_of() { sed -n 's/^ *"runtime" : \([0-9]*\),*$/\1/p' "$1" | sort -g | tail -1 | awk '{ print $1 / 1000 }'; }
# run SIDE -> "REQUESTS CPU_S SIM_S" (SIDE: fio or a scheduler)
run() {
	if [ "$1" = fio ]; then
		ENGINE=null NR=$NR "$RU" fio job.fio --output-format=json >out.json 2>ru
		echo "$(ios_of out.json) $(cpu_of ru) 0"
	else
		# shellcheck disable=SC2086
		ENGINE=libaio NR=$NR "$RU" "$BIN" run job.fio --scheduler "$1" $DEV \
			--output-format json >out.json 2>ru
		echo "$(ios_of out.json) $(cpu_of ru) $(simt_of out.json)"
	fi
}
sides="$MQ $fio"
: >runs
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# rotate the order by one place a round
	set -- $sides
	k=1
	while [ "$k" -lt "$r" ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for s in "$@"; do
		set -- $(run "$s")
		if [ "$1" != "$want" ]; then
			echo "round $r: $s did $1 requests, wanted $want: not counted"
			continue
		fi
		echo "round $r: $s $2 s CPU ($(awk -v n="$1" -v c="$2" 'BEGIN { printf "%.2f", n / c / 1e6 }') M req/CPU-s)"
		echo "$r $s $2 $3" >>runs
	done
	r=$((r + 1))
done
spread() { sort -g | awk '{ v[NR] = $1 } END {
	if (NR == 0) { print "none"; exit }
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%.2f (%.2f-%.2f)\n", m, v[1], v[NR] }'; }
echo "medians of $ROUNDS rounds (min-max), load average $(cut -d' ' -f1-3 /proc/loadavg):"
for s in $MQ; do
	cpu=$(awk -v s="$s" '$2 == s { print $3 }' runs | spread)
	simt=$(awk -v s="$s" '$2 == s { print $4 }' runs | spread)
	printf "  %-12s %s s CPU for %d requests, target <= 5 s; simulated %s s\n" "$s" "$cpu" "$want" "$simt"
	if [ -n "$fio" ]; then
		ratio=$(awk -v s="$s" '$2 == s { c[$1] = $3 } $2 == "fio" { f[$1] = $3 }
			END { for (r in c) if (r in f && c[r] > 0) print f[r] / c[r] }' runs | spread)
		printf "  %-12s fio-null CPU / iosched CPU = %s, target >= 1.5x (moonshot 2x)\n" "$s" "$ratio"
	fi
done
[ -n "$fio" ] && printf "  %-12s %s s CPU ($(fio --version))\n" fio-null "$(awk '$2 == "fio" { print $3 }' runs | spread)"
exit 0
