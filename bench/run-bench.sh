#!/bin/sh
# Run every benchmark and print the figures. Every comparison is paired within
# this one run (the two sides alternate, the order rotating, median of the
# rounds) because the machines are shared and noisy; nothing is asserted.
# ROUNDS (default 5) is passed on to the paired scripts.
BUILD=${BUILD:-build}
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/sim_vs_fio.sh
echo
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/jobs_speedup.sh
echo
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/scale.sh
echo
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/marginal.sh
echo
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/mq_cost.sh
echo
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/nvme_rate.sh
for b in "$BUILD"/bench/*; do
	case $(basename "$b") in rusage_run|*.d|*.o) continue ;; esac
	[ -x "$b" ] || continue
	echo
	echo "== $(basename "$b") =="
	"$b"
done
echo
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/real_uring.sh
