#!/bin/sh
# The simulator against fio's null engine on the same job with the same
# number of requests: bench/randread-qd32.fio (4 KiB random reads, iodepth
# 32, direct, number_ios=NR), run by `iosched run JOB --scheduler noop
# --device ssd` with ENGINE=libaio (so every request goes through the block
# layer, noop and the ssd model) and by `fio JOB` with ENGINE=null. The two
# alternate, the order rotating each round, and each is measured by its CPU
# time (user+sys of the process and its children, from wait4 in
# bench/rusage_run): simulated requests per CPU-second against fio-null I/Os
# per CPU-second. CPU time rather than wall time because the cores are shared
# and a busy neighbour stretches wall time more. Both counts include each
# tool's start-up (parsing, for fio forking its job process), which NR makes
# small. Prints every round, the median of the per-round ratios and the
# target; nothing is asserted. Environment: ROUNDS (5), NR (2000000), BIN
# (./iosched), BUILD (build).
ROUNDS=${ROUNDS:-5}
NR=${NR:-2000000}
. "$(dirname "$0")/lib.sh"
bench_count ROUNDS 1 1000
bench_count NR 1 1000000000
JOB=$(dirname "$0")/randread-qd32.fio
echo "== sim_vs_fio: 4k randread qd32, $NR requests: iosched (noop, ssd) vs fio --ioengine=null =="
if ! command -v fio >/dev/null 2>&1; then
	echo "skipped: fio is not installed"
	exit 0
fi
bench_need_tools
dir=$(mktemp -d /tmp/iosched-simfio.XXXXXX) || exit 0
trap 'rm -rf "$dir"' EXIT INT TERM
cd "$dir" || exit 0	# fio's null engine opens no file, but keep its cwd apart
case $JOB in /*) ;; *) JOB=$OLDPWD/$JOB ;; esac
case $BIN in /*) ;; *) BIN=$OLDPWD/$BIN ;; esac
case $RU in /*) ;; *) RU=$OLDPWD/$RU ;; esac
ios_of() { sed -n 's/^ *"total_ios" : \([0-9]*\),*$/\1/p' "$1" | head -1; }
cpu_of() { sed -n 's/^RUSAGE \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' "$1" | awk '{ printf "%.6f", $1 + $2 }'; }
# run sim|fio -> "REQUESTS CPU_SECONDS"
run() {
	case $1 in
	sim) ENGINE=libaio NR=$NR "$RU" "$BIN" run "$JOB" --scheduler noop --device ssd \
		--output-format json >out.json 2>ru ;;
	fio) ENGINE=null NR=$NR "$RU" fio "$JOB" --output-format=json >out.json 2>ru ;;
	esac
	echo "$(ios_of out.json) $(cpu_of ru)"
}
: >ratios
r=1
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then order="sim fio"; else order="fio sim"; fi
	for t in $order; do
		set -- $(run "$t")
		eval "n_$t=\${1:-0} c_$t=\${2:-0}"
	done
	if [ "$n_sim" != "$NR" ] || [ "$n_fio" != "$NR" ]; then
		echo "round $r: request counts differ (iosched $n_sim, fio $n_fio, wanted $NR): not counted"
		r=$((r + 1))
		continue
	fi
	awk -v r="$r" -v o="$order" -v n="$NR" -v cs="$c_sim" -v cf="$c_fio" 'BEGIN {
		if (cs <= 0 || cf <= 0) { printf "round %d: no CPU time measured\n", r; exit }
		printf "round %d (%s): iosched %.3f s CPU = %.2f M req/CPU-s, fio-null %.3f s CPU = %.2f M IO/CPU-s, ratio %.3f\n",
			r, o, cs, n / cs / 1e6, cf, n / cf / 1e6, cf / cs
		printf "%f %f %f\n", cf / cs, n / cs, n / cf >> "ratios" }'
	r=$((r + 1))
done
med() { cut -d' ' -f"$1" ratios | sort -g | awk '{ v[NR] = $1 } END {
	if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median of $(wc -l <ratios) rounds ($(fio --version)), load average $(cut -d' ' -f1-3 /proc/loadavg):"
printf "  iosched %.2f M simulated requests per CPU-second, fio-null %.2f M I/Os per CPU-second\n" \
	"$(awk -v v="$(med 2)" 'BEGIN { print v / 1e6 }')" "$(awk -v v="$(med 3)" 'BEGIN { print v / 1e6 }')"
printf "  ratio iosched/fio-null = %.2f (target >= 1.0, moonshot 2.0)\n" "$(med 1)"
exit 0
