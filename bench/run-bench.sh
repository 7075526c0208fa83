#!/bin/sh
# Run every benchmark and print the figures. Ratios are taken within this one
# run because the machines are shared and noisy; nothing is asserted.
BUILD=${BUILD:-build}
echo "== (a) simulator throughput vs fio --ioengine=null, same job =="
sim=$("$BUILD/bench/sim_throughput" 10 noop ssd)
echo "$sim" | grep -v '^SIM_'
simrate=$(echo "$sim" | sed -n 's/^SIM_REQ_PER_SEC=//p')
if command -v fio >/dev/null 2>&1; then
	best=0
	for rep in 1 2 3; do
		iops=$(fio --name=randread-qd32 --ioengine=null --rw=randread --bs=4k --iodepth=32 \
			--size=8g --runtime=3 --time_based --output-format=json 2>/dev/null |
			sed -n 's/^ *"iops" : \([0-9.]*\),*$/\1/p' | head -1)
		best=$(awk -v a="$best" -v b="${iops:-0}" 'BEGIN { print (b > a) ? b : a }')
	done
	echo "fio-null: 4k randread qd32, best of 3: $best IOPS ($(fio --version))"
	awk -v s="$simrate" -v f="$best" 'BEGIN { if (f > 0) printf "ratio sim/fio-null = %.3f (target >= 0.25)\n", s / f }'
else
	echo "fio not installed: no ratio"
fi
for b in "$BUILD"/bench/*; do
	case $(basename "$b") in sim_throughput|rusage_run|*.d|*.o) continue ;; esac
	[ -x "$b" ] || continue
	echo
	echo "== $(basename "$b") =="
	"$b"
done
echo
BUILD=$BUILD BIN=${BIN:-./iosched} sh bench/real_uring.sh
