#!/bin/sh
# Parallelism of `iosched compare` and `iosched repro`: each runs with
# --jobs 1 and with --jobs 2, the same work, alternating (the order rotating
# each round), wall time (this is about using the second core, so CPU time
# would not show it). Prints every round, the median of the per-round
# speedups beside the target, and the load average before and after: the
# figure means something only on an otherwise idle machine with at least 2
# cores. compare has 5 equal columns (noop five times on
# bench/randread-qd32.fio with NR requests), so 2 workers can at best run
# 3 column-times for 5 (1.67x); repro --quick has many more, unequal, runs.
# Also checks that both outputs are the same bytes. Nothing is asserted.
# Environment: ROUNDS (5), NR (400000), REPRO=0 skips repro (about 40 s a
# round), BIN (./iosched).
ROUNDS=${ROUNDS:-5}
NR=${NR:-400000}
. "$(dirname "$0")/lib.sh"
bench_count ROUNDS 1 1000
bench_count NR 1 1000000000
BIN=${BIN:-./iosched}
JOB=$(dirname "$0")/randread-qd32.fio
echo "== jobs_speedup: iosched compare and repro, --jobs 2 against --jobs 1 (wall time) =="
if [ ! -x "$BIN" ]; then
	echo "skipped: $BIN not built (make all)"
	exit 0
fi
echo "cores online: $(getconf _NPROCESSORS_ONLN); load average before: $(cut -d' ' -f1-3 /proc/loadavg) (the machine must be idle)"
dir=$(mktemp -d /tmp/iosched-jobs.XXXXXX) || exit 0
trap 'rm -rf "$dir"' EXIT INT TERM
now() { date +%s.%N; }
# one KIND JOBS -> wall seconds; output in $dir/KIND.JOBS
one() {
	rm -rf "$dir/$1.$2"
	mkdir -p "$dir/$1.$2"
	t0=$(now)
	case $1 in
	compare) ENGINE=libaio NR=$NR "$BIN" compare "$JOB" --device ssd \
		--schedulers noop,noop,noop,noop,noop --jobs "$2" >"$dir/$1.$2/out" 2>&1 ;;
	repro) "$BIN" repro --quick --jobs "$2" --output-dir "$dir/$1.$2" \
		>"$dir/$1.$2/out" 2>&1 ;;
	esac
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
med() { sort -g "$1" | awk '{ v[NR] = $1 } END {
	if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
kinds=compare
[ "${REPRO:-1}" = 1 ] && kinds="compare repro"
for kind in $kinds; do
	: >"$dir/$kind.sp"
	same=yes
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		if [ $((r % 2)) = 1 ]; then order="1 2"; else order="2 1"; fi
		for j in $order; do
			eval "t$j=$(one "$kind" "$j")"
		done
		diff -r "$dir/$kind.1" "$dir/$kind.2" >/dev/null || same=no
		awk -v k="$kind" -v r="$r" -v o="$order" -v a="$t1" -v b="$t2" 'BEGIN {
			printf "%s round %d (jobs %s): --jobs 1 %.2f s, --jobs 2 %.2f s, speedup %.2f\n",
				k, r, o, a, b, a / b; printf "%f\n", a / b >> "'"$dir/$kind.sp"'" }'
		r=$((r + 1))
	done
	printf "%s: median speedup of %d rounds = %.2f (target 1.6x); outputs identical: %s\n" \
		"$kind" "$ROUNDS" "$(med "$dir/$kind.sp")" "$same"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit 0
