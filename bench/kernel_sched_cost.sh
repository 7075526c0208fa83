#!/bin/sh
# The host CPU time of each blk-mq scheduler per I/O on the REAL kernel (Linux
# 6.x), relative to `none`: the measurement behind the lab.cpu.* defaults of
# docs/blk-mq.md (issue 29). This is not bench/mq_cost.sh, which measures the
# simulator's own cost per simulated request.
#
# A file in /dev/shm is attached to a loop device (direct I/O on), and fio
# reads it at random, 4 KiB, direct=1, once per engine (io_uring at iodepth
# QD, psync at 1). In each round every scheduler the kernel offers (none,
# mq-deadline, kyber, bfq if built) runs once, the order rotating by one place
# per round. A run's host CPU time is fio's own (usr + sys from its JSON,
# times the job's runtime) plus the on-CPU time of every kernel thread
# (children of kthreadd, /proc/PID/schedstat) over the run, per thread: the loop driver
# serves each request in a kworker, and completions (a scheduler's
# finish_request too) run there, so fio's time alone would miss them. Kernel
# threads of other work on the machine are counted as well: that is noise,
# and why the rounds are paired. Each scheduler's figure per round is its
# CPU per I/O minus that of `none` in the same round (loop's own work is in
# both and cancels) and its IOPS over none's; the medians over the rounds are
# printed with their range.
#
# Root is needed (losetup, the scheduler's sysfs file); without it, without
# fio, losetup or a loop device, the script says why and exits 0.
#
#   sh bench/kernel_sched_cost.sh       ROUNDS=5 RUNTIME=3 QD=32 SIZE=256
#   ENGINES=io_uring ROUNDS=9 sh bench/kernel_sched_cost.sh
ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-3}
QD=${QD:-32}
SIZE=${SIZE:-256}
. "$(dirname "$0")/lib.sh"
bench_count ROUNDS 1 1000
bench_count RUNTIME 1 3600
bench_count QD 1 4096
bench_count SIZE 16 65536
ENGINES=${ENGINES:-"io_uring psync"}
for e in $ENGINES; do
	case $e in io_uring | psync | libaio) ;; *)
		echo "$(basename "$0"): ENGINES='$ENGINES': each one of io_uring, psync, libaio" >&2
		exit 2 ;;
	esac
done

echo "== kernel_sched_cost: host CPU per I/O of each scheduler on this kernel, 4k randread on loop over /dev/shm =="
skip() { echo "skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "not root (losetup and the scheduler's sysfs file need it)"
command -v fio >/dev/null 2>&1 || skip "fio is not installed"
command -v losetup >/dev/null 2>&1 || skip "losetup is not installed"
[ -d /dev/shm ] && [ -w /dev/shm ] || skip "/dev/shm is not writable"
[ -r /proc/self/schedstat ] || skip "no /proc/PID/schedstat (CONFIG_SCHED_INFO)"

img=$(mktemp /dev/shm/iosched-ksc.XXXXXX) || skip "cannot create a file in /dev/shm"
dev=
out=$(mktemp -d /tmp/iosched-ksc.XXXXXX) || { rm -f "$img"; skip "no temporary directory"; }
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -f "$img"
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
if ! dd if=/dev/zero of="$img" bs=1M count="$SIZE" status=none 2>/dev/null; then
	skip "could not fill $img"
fi
dev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null) ||
	dev=$(losetup -f --show "$img" 2>/dev/null) || { dev=; skip "no free loop device (losetup -f)"; }
sys=/sys/block/$(basename "$dev")/queue
[ -w "$sys/scheduler" ] || skip "$sys/scheduler is not writable"
scheds=none
for s in mq-deadline kyber bfq; do
	grep -qw -- "$s" "$sys/scheduler" && scheds="$scheds $s"
done
n_all=$(echo $scheds | wc -w)
[ "$n_all" -ge 2 ] || skip "the kernel offers no scheduler besides none ($(cat "$sys/scheduler"))"
dio=$(cat "/sys/block/$(basename "$dev")/loop/dio" 2>/dev/null)
echo "kernel $(uname -r), $(nproc) CPUs, $(fio --version), $dev (dio=${dio:-?}) over ${SIZE} MiB in /dev/shm"
echo "schedulers: $scheds; rounds $ROUNDS of ${RUNTIME} s each; load average $(cut -d' ' -f1-3 /proc/loadavg)"

# "PID NS": on-CPU ns of each kernel thread (its parent is kthreadd, pid 2)
kthreads_ns() {
	for d in /proc/[0-9]*; do
		read -r _ _ _ pp _ 2>/dev/null <"$d/stat" || continue
		[ "$pp" = 2 ] && read -r ns _ 2>/dev/null <"$d/schedstat" && echo "${d#/proc/} $ns"
	done
}
# the kernel threads' time between two snapshots: a thread that exited in
# between is left out (its time is gone), one born in between counts whole
kthreads_delta() {
	awk 'FNR == NR { a[$1] = $2; next } { d += $2 - (($1 in a) ? a[$1] : 0) }
		END { printf "%.0f\n", d }' "$1" "$2"
}
first() { sed -n "s/^ *\"$1\" : \\([0-9.]*\\),*\$/\\1/p" "$2" | head -1; }
key() { echo "$1" | tr -c 'a-zA-Z0-9\n' '_'; }

# run ENGINE SCHED -> "IOS FIO_NS KTHREAD_NS" into $out/one
run_one() {
	echo "$2" >"$sys/scheduler" || return 1
	qd=$QD
	[ "$1" = psync ] && qd=1
	kthreads_ns >"$out/k0"
	fio --name=ksc --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine="$1" \
		--iodepth="$qd" --time_based --runtime="$RUNTIME" --randrepeat=1 \
		--output-format=json --output="$out/fio.json" >/dev/null 2>"$out/fio.err" || return 1
	kthreads_ns >"$out/k1"
	k=$(kthreads_delta "$out/k0" "$out/k1")
	n=$(first total_ios "$out/fio.json")
	u=$(first usr_cpu "$out/fio.json")
	s=$(first sys_cpu "$out/fio.json")
	t=$(first job_runtime "$out/fio.json")
	[ -n "$n" ] && [ "$n" -gt 0 ] || return 1
	awk -v n="$n" -v u="$u" -v s="$s" -v t="$t" -v k="$k" \
		'BEGIN { printf "%d %.1f %.1f %.0f\n", n, (u + s) / 100 * t * 1e6 / n, k / n, n * 1000 / t }'
}

for eng in $ENGINES; do
	: >"$out/res"
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		set -- $scheds
		k=$(( (r - 1) % n_all ))
		while [ "$k" -gt 0 ]; do
			f=$1; shift; set -- "$@" "$f"; k=$((k - 1))
		done
		line="$eng round $r:"
		ok=1
		for s in "$@"; do
			if ! res=$(run_one "$eng" "$s"); then
				echo "$eng round $r: $s failed ($(head -c 200 "$out/fio.err")): round not counted"
				ok=
				break
			fi
			eval "r_$(key "$s")=\"$res\""
			line="$line $s $(echo "$res" | awk '{ printf "%.0f IOPS %.0f+%.0f ns", $4, $2, $3 }')"
		done
		if [ -n "$ok" ]; then
			echo "$line"
			for s in $scheds; do
				eval "v=\$r_$(key "$s")"
				echo "$s $v $r_none"
			done | awk '{ tot = $3 + $4; ntot = $7 + $8
				printf "%s %.1f %.1f %.1f %.0f %.1f %.1f %.4f\n", $1, $3, $4, tot, $5,
					tot - ntot, $3 - $7, $5 / $9 }' >>"$out/res"
		fi
		r=$((r + 1))
	done
	# columns: 1 sched, 2 fio ns, 3 kthread ns, 4 total ns, 5 IOPS, 6 total - none,
	# 7 fio - none, 8 IOPS / none's
	med() { awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$out/res" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
			else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	rng() { awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$out/res" | sort -g |
		awk -v f="$3" 'NR == 1 { lo = $1 } { hi = $1 } END { printf f "..." f, lo, hi }'; }
	qd=$QD
	[ "$eng" = psync ] && qd=1
	echo "$eng iodepth $qd, median of $(grep -c '^none ' "$out/res") rounds (range in brackets):"
	for s in $scheds; do
		printf "  %-12s %6.0f IOPS  host CPU %6.0f ns/IO (fio %5.0f + kernel threads %5.0f)" \
			"$s" "$(med "$s" 5)" "$(med "$s" 4)" "$(med "$s" 2)" "$(med "$s" 3)"
		if [ "$s" != none ]; then
			printf "  - none: %+5.0f ns [%s], fio side %+5.0f ns [%s], IOPS x%.2f [%s]" \
				"$(med "$s" 6)" "$(rng "$s" 6 %.0f)" "$(med "$s" 7)" "$(rng "$s" 7 %.0f)" \
				"$(med "$s" 8)" "$(rng "$s" 8 %.2f)"
		fi
		echo
	done
done
exit 0
