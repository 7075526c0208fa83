#!/bin/sh
# Run a list of tests on TEST_JOBS workers (default: the cores online) and
# report them in list order, ending with "N passed, N failed, N skipped".
#
#   sh tests/pool.sh LIST LOGDIR
#
# LIST has one test per line: NAME<tab>CHAIN<tab>COMMAND. COMMAND is a shell
# command (run by sh -c under a timeout); exit 0 passes, 77 skips, anything
# else fails. Tests whose CHAIN is not "-" run one after another on one
# worker, in list order: that is for tests that must not overlap (the ones
# that time real I/O on this machine's disk). Everything else may run at the
# same time as anything.
#
# Longest first: the work is sorted by the durations the last run recorded
# in LOGDIR/../test-times, or else by tests/test-times (committed, so a clean
# checkout starts well ordered); a test never timed counts as 10 s. The
# order changes only when tests run, never what they print or check.
list=$1; logdir=$2
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
# 900 s: repro/v2-c1 regenerates v2-c1's 25 runs (~315 s of CPU) and must
# finish on a loaded 2-core machine; a hang still fails, 15 minutes later
timeout_s=${TEST_TIMEOUT:-900}
here=$(dirname "$0")
mkdir -p "$logdir"
times=$(dirname "$logdir")/test-times
known=$times
[ -f "$known" ] || known=$here/test-times

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -f "$logdir"/*.rc "$logdir"/*.secs

# Units of work: a test alone, or a chain of tests. unit file = the list
# lines it runs; its weight = the sum of their known durations.
awk -F'\t' -v known="$known" -v work="$work" '
	BEGIN { while ((getline l < known) > 0) { split(l, f, " "); t[f[1]] = f[2] } }
	{
		u = ($2 == "-") ? "t" NR : "c_" $2
		if (!(u in w)) { order[++n] = u; w[u] = 0 }
		w[u] += ($1 in t) ? t[$1] : 10
		print > (work "/" u)
	}
	END { for (i = 1; i <= n; i++) printf "%.3f %s\n", w[order[i]], order[i] }
' "$list" | sort -k1,1nr -k2,2 | cut -d' ' -f2 > "$work/units"

# The worker: runs the tests of one unit and prints a line as each ends.
cat > "$work/unit.sh" <<'EOF'
logdir=$1; timeout_s=$2; unit=$3
while IFS='	' read -r name chain cmd; do
	f=$(echo "$name" | tr '/:' '__')
	start=$(date +%s.%N)
	timeout "$timeout_s" sh -c "$cmd" >"$logdir/$f.log" 2>&1 </dev/null
	rc=$?
	end=$(date +%s.%N)
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	echo "$rc" >"$logdir/$f.rc"
	echo "$secs" >"$logdir/$f.secs"
	case $rc in
	0) printf 'PASS %s (%ss)\n' "$name" "$secs" ;;
	77) printf 'SKIP %s\n' "$name" ;;
	124) printf 'FAIL %s (timeout %ss)\n' "$name" "$timeout_s" ;;
	*) printf 'FAIL %s (exit %s, %ss)\n' "$name" "$rc" "$secs" ;;
	esac
done < "$unit"
EOF
sed "s,^,$work/," "$work/units" |
	xargs -P "$jobs" -n 1 sh "$work/unit.sh" "$logdir" "$timeout_s"

# The report, in list order, and the durations for the next run's order.
pass=0; fail=0; skip=0; failed=""; skipped=""
: > "$work/times"
while IFS='	' read -r name chain cmd; do
	f=$(echo "$name" | tr '/:' '__')
	rc=$(cat "$logdir/$f.rc" 2>/dev/null || echo lost)
	[ -f "$logdir/$f.secs" ] && echo "$name $(cat "$logdir/$f.secs")" >>"$work/times"
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)); skipped="$skipped $name" ;;
	*)
		fail=$((fail + 1)); failed="$failed $name"
		echo
		echo "---- $name (exit $rc): last lines of $logdir/$f.log"
		tail -n 40 "$logdir/$f.log" 2>/dev/null | sed 's/^/    /'
		;;
	esac
done < "$list"
slowest=$(sort -k2,2nr "$work/times" | head -5 | awk '{ printf " %s %ss", $1, $2 }')
# keep the durations of tests this list did not run (another suite's)
if [ -f "$times" ]; then
	awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$work/times" "$times" >>"$work/times"
fi
sort "$work/times" >"$times"

echo
echo "slowest:$slowest"
[ -n "$failed" ] && echo "failed:$failed"
[ -n "$skipped" ] && echo "skipped:$skipped"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
