#!/bin/sh
# The cost of one simulated request under each blk-mq scheduler (issue 29),
# paired against the single-queue noop on the same work.
#
# Every side runs bench/randread-qd32.fio (4 KiB random reads, iodepth 32,
# direct, NR requests, libaio) on ssd-nvme, and is measured by its CPU time
# (user + system, bench/rusage_run) divided by the requests it did. In each
# round every scheduler and the reference (noop, the single-queue layer) run
# once, the order rotating by one place per round, and each scheduler's ratio
# to the reference of the same round is kept; the medians over ROUNDS are
# printed. The cost includes the whole simulated path (task, block layer,
# scheduler, device model, reports), which is what a user pays per request;
# start-up is the same for every side and small at NR = 500,000.
#
#   sh bench/mq_cost.sh          ROUNDS=5 NR=500000
#   MQ="none kyber" sh bench/mq_cost.sh
ROUNDS=${ROUNDS:-5}
NR=${NR:-500000}
. "$(dirname "$0")/lib.sh"
bench_count ROUNDS 1 1000
bench_count NR 1 1000000000
JOB=$(dirname "$0")/randread-qd32.fio
MQ=${MQ:-"none mq-deadline kyber bfq-6.12"}
REF=noop

echo "== mq_cost: CPU per simulated request on ssd-nvme, 4k randread qd32, $NR requests; reference $REF (single-queue) =="
bench_need_tools
dir=$(mktemp -d /tmp/iosched-mqcost.XXXXXX) || exit 0
trap 'rm -rf "$dir"' EXIT INT TERM
case $JOB in /*) ;; *) JOB=$PWD/$JOB ;; esac
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $RU in /*) ;; *) RU=$PWD/$RU ;; esac
cd "$dir" || exit 0

# the schedulers this build has (a name it lacks is skipped with a line)
scheds=
for s in $MQ; do
	if "$BIN" list 2>/dev/null | grep -Eq "^  $s( |$)|\\(alias $s\\)"; then
		scheds="$scheds $s"
	else
		echo "skipped: $s is not in 'iosched list'"
	fi
done
all="$REF$scheds"
n_all=$(echo $all | wc -w)

ios_of() { sed -n 's/^ *"total_ios" : \([0-9]*\),*$/\1/p' "$1" | head -1; }
cpu_of() { sed -n 's/^RUSAGE \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' "$1" | awk '{ printf "%.6f", $1 + $2 }'; }
key() { echo "$1" | tr -c 'a-zA-Z0-9\n' '_'; }

: >results
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# rotate the order by one place per round
	set -- $all
	k=$(( (r - 1) % n_all ))
	while [ "$k" -gt 0 ]; do
		first=$1; shift; set -- "$@" "$first"; k=$((k - 1))
	done
	order="$*"
	line="round $r:"
	for s in $order; do
		ENGINE=libaio NR=$NR "$RU" "$BIN" run "$JOB" --scheduler "$s" --device ssd-nvme \
			--output-format json >out.json 2>ru
		n=$(ios_of out.json); c=$(cpu_of ru)
		if [ "$n" != "$NR" ]; then
			echo "round $r: $s did ${n:-no} requests, wanted $NR: round not counted"
			line=
			break
		fi
		eval "c_$(key "$s")=$c"
		line="$line $s $(awk -v c="$c" -v n="$NR" 'BEGIN { printf "%.0f", c / n * 1e9 }') ns"
	done
	if [ -n "$line" ]; then
		echo "$line"
		eval "cref=\$c_$(key $REF)"
		for s in $scheds; do
			eval "cs=\$c_$(key "$s")"
			awk -v s="$s" -v cs="$cs" -v cr="$cref" -v n="$NR" \
				'BEGIN { printf "%s %f %f\n", s, cs / n * 1e9, cs / cr }' >>results
		done
		awk -v cr="$cref" -v n="$NR" 'BEGIN { printf "ref %f 1\n", cr / n * 1e9 }' >>results
	fi
	r=$((r + 1))
done
med() { # name column
	awk -v s="$1" -v c="$2" '$1 == s { print $c }' results | sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { awk -v s="$1" -v c="$2" '$1 == s { print $c }' results | sort -g |
	awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }'; }
echo "median of $(grep -c '^ref ' results) rounds, load average $(cut -d' ' -f1-3 /proc/loadavg):"
printf "  %-12s %6.0f ns per request (single-queue reference)\n" "$REF" "$(med ref 2)"
for s in $scheds; do
	printf "  %-12s %6.0f ns per request, %.2fx noop (rounds %s)\n" "$s" "$(med "$s" 2)" \
		"$(med "$s" 3)" "$(range "$s" 3)"
done
exit 0
