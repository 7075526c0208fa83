#!/bin/sh
# The same 4 KiB random-read job at iodepth 32 on the same file: fio's own
# io_uring engine, iosched --real under noop and under bfq, alternating in one
# run (the order rotates each round) because the disk and the cores are shared
# and drift. Prints IOPS, the per-round ratios and their median beside the
# targets, and CPU (user+sys, from wait4 of each process) per I/O. Nothing is
# asserted. Environment: ROUNDS (5), RUNTIME (3 s), SIZE (1g), BIN (./iosched),
# BUILD (build), EXTRA=1 also runs bfq with queue.rotational=0 as an extra line.
ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-3}
. "$(dirname "$0")/lib.sh"
bench_count ROUNDS 1 1000
bench_count RUNTIME 1 3600
SIZE=${SIZE:-1g}
echo "== real_uring: 4k randread qd32 direct, fio io_uring vs iosched --real =="
if ! command -v fio >/dev/null 2>&1; then
	echo "skipped: fio is not installed"
	exit 0
fi
bench_need_tools
dir=$(mktemp -d /var/tmp/iosched-rbench.XXXXXX) || exit 0
trap 'rm -rf "$dir"' EXIT INT TERM
f=$dir/rr.dat
cat >"$dir/job.fio" <<JOB
[rr]
filename=$f
size=$SIZE
rw=randread
bs=4k
iodepth=32
direct=1
ioengine=io_uring
time_based
runtime=$RUNTIME
JOB
# Lay the file out once, with fio, before any timed run.
if ! fio --name=layout --filename="$f" --size="$SIZE" --rw=write --bs=1m --direct=1 \
	--ioengine=psync --output=/dev/null >/dev/null 2>&1; then
	echo "skipped: could not lay out $f"
	exit 0
fi
# A tiny untimed job tells whether this iosched can do --real at all.
printf '[probe]\nfilename=%s/probe.dat\nsize=64k\nrw=read\nbs=4k\ndirect=1\n' "$dir" \
	>"$dir/probe.fio"
if ! "$BIN" run "$dir/probe.fio" --real --scheduler noop >/dev/null 2>"$dir/probe.err" &&
	grep -qi liburing "$dir/probe.err"; then
	echo "skipped: iosched was built without liburing (--real unavailable)"
	exit 0
fi
iops_of() { sed -n 's/^ *"iops" : \([0-9.]*\),*$/\1/p' "$1" | head -1; }
cpu_of() { sed -n 's/^RUSAGE \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' "$1" | awk '{ print $1 + $2 }'; }
# run TOOL -> "IOPS CPU_US_PER_IO"
run() {
	case $1 in
	fio) "$RU" fio "$dir/job.fio" --output-format=json >"$dir/out.json" 2>"$dir/ru" ;;
	noop) "$RU" "$BIN" run "$dir/job.fio" --real --scheduler noop --output-format=json \
		>"$dir/out.json" 2>"$dir/ru" ;;
	bfq) "$RU" "$BIN" run "$dir/job.fio" --real --scheduler bfq --output-format=json \
		>"$dir/out.json" 2>"$dir/ru" ;;
	bfq-nonrot) "$RU" "$BIN" run "$dir/job.fio" --real --scheduler bfq \
		--set queue.rotational=0 --output-format=json >"$dir/out.json" 2>"$dir/ru" ;;
	esac
	iops=$(iops_of "$dir/out.json")
	cpu=$(cpu_of "$dir/ru")
	awk -v i="${iops:-0}" -v c="${cpu:-0}" -v t="$RUNTIME" \
		'BEGIN { n = i * t; printf "%.0f %.2f\n", i, (n > 0) ? c * 1e6 / n : 0 }'
}
tools="fio noop bfq"
[ "${EXTRA:-0}" = 1 ] && tools="$tools bfq-nonrot"
ratios=$dir/ratios
: >"$ratios"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# rotate the order so that no tool always runs first
	order=$tools
	k=1
	while [ "$k" -lt "$r" ]; do
		set -- $order
		first=$1
		shift
		order="$* $first"
		k=$((k + 1))
	done
	line="round $r:"
	for t in $order; do
		set -- $(run "$t")
		eval "iops_$(echo "$t" | tr - _)=$1 cpu_$(echo "$t" | tr - _)=$2"
		line="$line $t=$1 IOPS (${2} us CPU/IO)"
	done
	echo "$line"
	awk -v f="$iops_fio" -v n="$iops_noop" -v b="$iops_bfq" -v x="${iops_bfq_nonrot:-0}" \
		-v cf="$cpu_fio" -v cn="$cpu_noop" -v cb="$cpu_bfq" -v cx="${cpu_bfq_nonrot:-0}" \
		'BEGIN { if (f > 0) printf "%f %f %f %s %s %s %s\n", n / f, b / f, x / f, cf, cn, cb, cx }' \
		>>"$ratios"
	r=$((r + 1))
done
med() { cut -d' ' -f"$1" "$ratios" | sort -g | awk '{ v[NR] = $1 } END {
	if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median of $ROUNDS rounds ($(fio --version), runtime ${RUNTIME}s, file $SIZE):"
printf "  noop/fio = %.2f (target >= 0.8)\n" "$(med 1)"
printf "  bfq/fio  = %.2f (target >= 0.7)\n" "$(med 2)"
[ "${EXTRA:-0}" = 1 ] &&
	printf "  extra, bfq with queue.rotational=0: bfq/fio = %.2f (no target)\n" "$(med 3)"
printf "  CPU per I/O: fio %.2f us, iosched noop %.2f us, iosched bfq %.2f us\n" \
	"$(med 4)" "$(med 5)" "$(med 6)"
[ "${EXTRA:-0}" = 1 ] && printf "  CPU per I/O, bfq rotational=0: %.2f us\n" "$(med 7)"
exit 0
