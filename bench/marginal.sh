#!/bin/sh
# The cost of a request as a user pays it (issue 34, item 1): the marginal
# CPU time per simulated request, with start-up cancelled, at 100 processes
# against BIG (10,000) and, when asked, HUGE (100,000).
#
# Shapes (SHAPES, both by default):
#   own     each process reads its own 4 MiB file (size=4m, no filename:
#           the file system lays out one file per process);
#   shared  the processes share one /dev/ file, each in its own 1 MiB slice
#           (filename=/dev/sdb, size=1m, offset_increment=1m, as scale.sh).
# Both: 4 KiB random psync reads, direct, time_based, group_reporting=1 (the
# report is one group: what it costs is start-up-like and cancels anyway).
#
# For each device profile, scheduler and shape, ROUNDS rounds; in each, a
# SHORT-second and a LONG-second simulated run (order alternating per round)
# at 100 processes and at BIG, so every figure at BIG has its reference at
# 100 from the same round:
#   us/req@N  = (CPU(LONG) - CPU(SHORT)) / (requests(LONG) - requests(SHORT)),
#               CPU = user+sys from wait4 (bench/rusage_run), requests = the
#               JSON's total_ios; the median over the rounds;
#   ratio     = the median of the per-round ratios us/req@BIG / us/req@100,
#               with its min and max, beside the target (<= 1.5x at 10,000,
#               <= 2x at 100,000).
# Start-up per process: a 1 ms run (each process lays out its file, is created
# and issues about one request) at 100 and at BIG, alternating, ROUNDS times:
#   (CPU@BIG - CPU@100 - us/req@BIG * (requests@BIG - requests@100)) / (BIG - 100),
# beside its target (<= 20 us).
# Memory per process: (peak RSS@BIG - peak RSS@100) / (BIG - 100) of the SHORT
# runs; for the own shape, net of its file's metadata, measured as the same
# difference for one process with 100 and BIG 4 MiB files (nrfiles), beside
# the target (<= 4 KB).
# HUGE (0: skipped; e.g. 100000) runs once per line, paired with a 100-process
# round: memory > 500 MB and minutes of CPU. 100,000 own 4 MiB files are
# 400 GB, more than ssd's 120 GB: give the device room with SET (one
# --set NAME=VALUE for every run, the reference too), e.g.
# SET=device.capacity=1024.
#
# Prints, never asserts. Environment: DEVICES (ssd), SCHEDS (noop; e.g.
# "noop deadline cfq cfq:slice_idle=0 bfq"), SHAPES ("own shared"), SHORT
# (10), LONG (80), ROUNDS (3), BIG (10000), HUGE (0), SET (none), BIN
# (./iosched), BUILD (build).
DEVICES=${DEVICES:-ssd}
SCHEDS=${SCHEDS:-noop}
SHAPES=${SHAPES:-"own shared"}
SHORT=${SHORT:-10}
LONG=${LONG:-80}
ROUNDS=${ROUNDS:-3}
SMALL=100
BIG=${BIG:-10000}
HUGE=${HUGE:-0}
. "$(dirname "$0")/lib.sh"
bench_count SHORT 1 3600
bench_count LONG 2 36000
bench_count ROUNDS 1 1000
bench_count BIG 101 1048576
bench_count HUGE 0 1048576
if [ "$LONG" -le "$SHORT" ]; then
	echo "$(basename "$0"): LONG ($LONG) must exceed SHORT ($SHORT)" >&2
	exit 2
fi
echo "== marginal: 4 KiB psync random reads, direct, ${LONG} s minus ${SHORT} s simulated, $SMALL vs $BIG processes =="
bench_need_tools
dir=$(mktemp -d /tmp/iosched-marginal.XXXXXX) || exit 0
trap 'rm -rf "$dir"' EXIT INT TERM
for shape in own shared; do
	{
		echo "[global]"
		echo 'max_jobs=${NJ}'
		echo "rw=randread"
		echo "bs=4k"
		echo "ioengine=psync"
		echo "direct=1"
		echo "time_based=1"
		echo 'runtime=${RT}'
		echo "group_reporting=1"
		if [ $shape = own ]; then
			echo "size=4m"
		else
			echo "filename=/dev/sdb"
			echo "size=1m"
			echo "offset_increment=1m"
		fi
		echo "[reader]"
		echo 'numjobs=${NJ}'
	} >"$dir/$shape.fio"
done
cat >"$dir/files.fio" <<'EOF'
[files]
rw=randread
bs=4k
ioengine=psync
direct=1
time_based=1
runtime=1ms
nrfiles=${NF}
filesize=4m
size=${SZ}
EOF
med() { sort -g | awk '{ v[NR] = $1 } END {
	if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu_of() { sed -n 's/^RUSAGE \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' "$1" | awk '{ printf "%.6f", $1 + $2 }'; }
rss_of() { sed -n 's/^MAXRSS \([0-9]*\)$/\1/p' "$1"; }
reqs_of() { sed -n 's/^ *"total_ios" : \([0-9]*\),*$/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }'; }
# one SHAPE N RUNTIME SCHED DEV -> "REQUESTS CPU_S RSS_KB"
one() {
	s=${4%%:*}
	set_arg=""
	case $4 in *:*) set_arg="--set ${4#*:}" ;; esac
	[ -n "$SET" ] && set_arg="$set_arg --set $SET"
	# shellcheck disable=SC2086
	NJ=$2 RT=$3 "$RU" "$BIN" run "$dir/$1.fio" --scheduler "$s" --device "$5" $set_arg \
		--output-format json >"$dir/out" 2>"$dir/ru"
	echo "$(reqs_of "$dir/out") $(cpu_of "$dir/ru") $(rss_of "$dir/ru")"
}
# pair SHAPE N SCHED DEV ROUND -> "US_PER_REQ RSS_KB_SHORT" (SHORT and LONG, order by ROUND)
pair() {
	if [ $(($5 % 2)) = 1 ]; then order="$SHORT $LONG"; else order="$LONG $SHORT"; fi
	for rt in $order; do
		if [ "$rt" = "$SHORT" ]; then sres=$(one "$1" "$2" "$rt" "$3" "$4")
		else lres=$(one "$1" "$2" "$rt" "$3" "$4"); fi
	done
	echo "$sres $lres" | awk '{
		if ($4 <= $1 || $2 <= 0 || $5 <= 0) { print "nan " $3; exit }
		printf "%.6f %s\n", ($5 - $2) / ($4 - $1) * 1e6, $3 }'
}
# files N DEV -> peak RSS of one process with N 4 MiB files
files() {
	# shellcheck disable=SC2086
	NF=$1 SZ=$(($1 * 4))m "$RU" "$BIN" run "$dir/files.fio" --scheduler noop --device "$2" \
		${SET:+--set $SET} --output-format json >"$dir/out" 2>"$dir/ru"
	rss_of "$dir/ru"
}
# line DEV SCHED SHAPE N_BIG ROUNDS TARGET
line() {
	: >"$dir/r"
	i=1
	while [ "$i" -le "$5" ]; do
		if [ $((i % 2)) = 1 ]; then ns="$SMALL $4"; else ns="$4 $SMALL"; fi
		for n in $ns; do
			if [ "$n" = "$SMALL" ]; then a=$(pair "$3" "$n" "$2" "$1" "$i")
			else b=$(pair "$3" "$n" "$2" "$1" "$i"); fi
		done
		echo "$a $b" >>"$dir/r"
		i=$((i + 1))
	done
	u1=$(cut -d' ' -f1 "$dir/r" | med)
	u2=$(cut -d' ' -f3 "$dir/r" | med)
	m1=$(cut -d' ' -f2 "$dir/r" | med)
	m2=$(cut -d' ' -f4 "$dir/r" | med)
	ratios=$(awk '$1 > 0 { printf "%.4f\n", $3 / $1 }' "$dir/r" | sort -g)
	rmed=$(echo "$ratios" | med)
	rmin=$(echo "$ratios" | head -1)
	rmax=$(echo "$ratios" | tail -1)
	fkb=0
	[ "$3" = own ] && fkb=$(awk -v a="$(files "$SMALL" "$1")" -v b="$(files "$4" "$1")" -v n="$(($4 - SMALL))" \
		'BEGIN { printf "%.2f", (b - a) / n }')
	# start-up: 1 ms runs at 100 and at N_BIG, alternating
	: >"$dir/s"
	i=1
	while [ "$i" -le "$5" ]; do
		if [ $((i % 2)) = 1 ]; then
			a=$(one "$3" "$SMALL" 1ms "$2" "$1"); b=$(one "$3" "$4" 1ms "$2" "$1")
		else
			b=$(one "$3" "$4" 1ms "$2" "$1"); a=$(one "$3" "$SMALL" 1ms "$2" "$1")
		fi
		echo "$a $b" | cut -d' ' -f1,2,4,5 >>"$dir/s"
		i=$((i + 1))
	done
	su=$(awk -v u="$u2" -v nb="$4" -v ns="$SMALL" '{
		printf "%.4f\n", ($4 - $2 - u * 1e-6 * ($3 - $1)) / (nb - ns) * 1e6 }' "$dir/s" | med)
	awk -v d="$1" -v s="$2" -v sh="$3" -v nb="$4" -v t="$6" -v u1="$u1" -v u2="$u2" \
		-v rmed="$rmed" -v rmin="$rmin" -v rmax="$rmax" -v m1="$m1" -v m2="$m2" -v fkb="$fkb" \
		-v su="$su" -v ns="$SMALL" 'BEGIN {
		kb = (m2 - m1) / (nb - ns) - fkb
		printf "%-6s %-17s %-6s %7d %8.2f %8.2f %5.2fx (%.2f-%.2f) %-6s %8.1f %-7s %7.2f %-7s\n",
			d, s, sh, nb, u1, u2, rmed, rmin, rmax, t, su, "<= 20", kb, "<= 4 KB" }'
	[ "$3" = own ] && echo "       (own: net of ${fkb} KB of file metadata per file)"
}
printf "%-6s %-17s %-6s %7s %8s %8s %-17s %-6s %8s %-7s %7s %-7s\n" device scheduler shape procs \
	"us/r@$SMALL" "us/r@N" "ratio (min-max)" target "start us" target "KB/proc" target
for dev in $DEVICES; do
	for sch in $SCHEDS; do
		for shape in $SHAPES; do
			line "$dev" "$sch" "$shape" "$BIG" "$ROUNDS" "<= 1.5x"
			[ "$HUGE" -gt 0 ] && line "$dev" "$sch" "$shape" "$HUGE" 1 "<= 2x"
		done
	done
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
exit 0
