#!/bin/sh
# The cost of a sweep (issue 33, item 5): plan, run and merge grids of
# tasks that each simulate a few milliseconds, and print
#   plan      wall time of `sweep plan` (the grid checked, the manifest written)
#   run       wall time of all tasks, JOBS at a time, by RUNNER: xargs
#             (xargs -P, the default: the lightest), parallel (GNU
#             parallel -j; a perl process a task, ~3x the wall time on a
#             loaded 2-core machine) or loop (one at a time); per task:
#             wall x JOBS / tasks (a core's time; process start included),
#             and the part of it spent on the manifest (a done task rerun)
#   merge     wall time and peak resident set of `sweep merge` (GNU
#             /usr/bin/time's %M when there, else bench/rusage_run's MAXRSS)
#   results   the size of DIR/results
# for each grid size of SIZES ("1000 10000"): 4 schedulers x 2 devices x
# 25 queue depths x S seeds, S = size / 200. Comparing the sizes shows how
# merge grows with N. Prints, never asserts. Environment: SIZES, JOBS (2),
# RUNNER (xargs), RUN (all: every task; task0: task 0 only, for the plan,
# the done task's cost and a partial merge of a plan too large to run here),
# BIN (./iosched), BUILD (build), KEEP=1 (leave the directories, path printed).
BUILD=${BUILD:-build}
BIN=${BIN:-./iosched}
SIZES=${SIZES:-"1000 10000"}
JOBS=${JOBS:-2}
RUNNER=${RUNNER:-xargs}
RUN=${RUN:-all}
case $RUN in all|task0) ;; *) echo "sweep_scale.sh: RUN=$RUN: allowed all, task0" >&2; exit 2 ;; esac
. "$(dirname "$0")/lib.sh"
bench_count JOBS 1 256
for n in $SIZES; do
	N=$n
	bench_count N 200 1000000
	[ $((n % 200)) = 0 ] || { echo "sweep_scale.sh: SIZES: $n is not a multiple of 200" >&2; exit 2; }
done
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
RU=$PWD/$BUILD/bench/rusage_run
echo "== sweep scale: grids of $SIZES tiny tasks, $JOBS at a time =="
if [ ! -x "$BIN" ]; then
	echo "skipped: $BIN not built (make all)"
	exit 0
fi
T=$(mktemp -d)
[ -n "$KEEP" ] && echo "directories kept in $T" || trap 'rm -rf "$T"' EXIT

# wall seconds of "$@", stdout and stderr to $T/out
now() { date +%s.%N; }
wall() {
	t0=$(now)
	"$@" >"$T/out" 2>&1
	st=$?
	echo "$t0 $(now)" | awk '{ printf "%.3f", $2 - $1 }'
	return $st
}
# peak resident set (KiB) of "$@"
peak_kb() {
	if /usr/bin/time -f 'MAXRSS %M' true >/dev/null 2>&1; then
		/usr/bin/time -f 'MAXRSS %M' "$@" 2>&1 >/dev/null | sed -n 's/^MAXRSS //p' | tail -1
	elif [ -x "$RU" ]; then
		"$RU" "$@" 2>&1 >/dev/null | sed -n 's/^MAXRSS //p' | tail -1
	else
		echo "?"
	fi
}

cat >"$T/tiny.fio" <<'JOB'
[tiny]
rw=randread
bs=4k
size=1m
direct=1
ioengine=psync
runtime=5ms
time_based
JOB
for n in $SIZES; do
	D=$T/s$n
	cat >"$T/grid$n" <<GRID
job = tiny.fio
schedulers = noop, deadline, cfq, bfq
devices = hdd-2009, ssd
set queue.nr_requests = $(seq -s ', ' 4 4 100)
seeds = 1-$((n / 200))
GRID
	tp=$(wall "$BIN" sweep plan "$T/grid$n" -o "$D") || { cat "$T/out"; exit 1; }
	case $RUN:$RUNNER in
	task0:*)
		how="task 0 alone (RUN=task0)"
		tr=$(wall "$BIN" sweep run "$D" --task 0) ;;
	*:parallel)
		how="GNU parallel -j$JOBS"
		tr=$(wall sh -c "seq 0 $((n - 1)) | parallel -j$JOBS '$BIN' sweep run '$D' --task {}") ;;
	*:loop)
		how="a shell loop"
		tr=$(wall sh -c "i=0; while [ \$i -lt $n ]; do '$BIN' sweep run '$D' --task \$i || exit 1; i=\$((i + 1)); done") ;;
	*)
		how="xargs -P$JOBS"
		tr=$(wall sh -c "seq 0 $((n - 1)) | xargs -P$JOBS -I{} '$BIN' sweep run '$D' --task {}") ;;
	esac || { tail -5 "$T/out"; exit 1; }
	"$BIN" sweep status "$D" | head -1
	# a done task: the manifest read, its line parsed, the hash taken, then skipped
	to=$(wall sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do '$BIN' sweep run '$D' --task 0; done")
	# its CPU (user + sys, load-independent): with the plan's stamp, and without it
	# (the task then hashes the whole manifest: the cost before the stamp)
	cpu_ms() {
		[ -x "$RU" ] || { echo "?"; return; }
		"$RU" "$BIN" sweep run "$D" --task 0 2>&1 >/dev/null |
			awk '/^RUSAGE/ { printf "%.1f", 1000 * ($2 + $3) }'
	}
	c1=$(cpu_ms); c1b=$(cpu_ms)
	mv "$D/manifest.sha256" "$D/stamp.away"
	c0=$(cpu_ms); c0b=$(cpu_ms)
	mv "$D/stamp.away" "$D/manifest.sha256"
	cv="?"
	[ -x "$RU" ] && cv=$("$RU" "$BIN" --version 2>&1 >/dev/null |
		awk '/^RUSAGE/ { printf "%.1f", 1000 * ($2 + $3) }')
	tm=$(wall "$BIN" sweep merge "$D" --output "$T/merged$n.txt") || { cat "$T/out"; exit 1; }
	kb=$(peak_kb "$BIN" sweep merge "$D" --output "$T/merged$n.txt")
	echo "$n tasks ($((n / 200)) seeds x 200 points):"
	echo "  plan   ${tp} s (manifest $(wc -c <"$D/manifest") bytes)"
	[ "$RUN" = all ] && per=$(echo "$tr $JOBS $n" | awk '{ printf "%.1f", 1000 * $1 * $2 / $3 }') ||
		per=$(echo "$tr" | awk '{ printf "%.1f", 1000 * $1 }')
	echo "  run    ${tr} s through $how; $per ms a task (core time, process start included)"
	echo "         of which the manifest (a done task skipped): $(echo "$to" | awk '{ printf "%.1f", 100 * $1 }') ms wall"
	echo "  done task CPU: ${c1} / ${c1b} ms with the stamp, ${c0} / ${c0b} ms without (the whole manifest hashed); iosched --version ${cv} ms"
	echo "  merge  ${tm} s, peak RSS ${kb} KiB; results/ $(du -sk "$D/results" | cut -f1) KiB"
done
