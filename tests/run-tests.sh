#!/bin/sh
# Run every test: unit programs (exit 0 pass, 1 fail, 77 skip), each under a
# timeout, then the golden jobs and the example jobs. Ends with the line
# "N passed, N failed" (and skips), and exits non-zero if anything failed.
BUILD=${BUILD:-build}
BIN=${BIN:-./iosched}
TIMEOUT=${TEST_TIMEOUT:-300}
export IOSCHED_BIN=$BIN
pass=0; fail=0; skip=0
failed_list=""; skipped_list=""
outdir=$BUILD/test-logs
mkdir -p "$outdir"

run_one() { # name, command...
	name=$1; shift
	log="$outdir/$(echo "$name" | tr / _).log"
	timeout "$TIMEOUT" "$@" >"$log" 2>&1
	rc=$?
	case $rc in
	0) pass=$((pass+1)); printf 'PASS %s\n' "$name" ;;
	77) skip=$((skip+1)); skipped_list="$skipped_list $name"; printf 'SKIP %s\n' "$name" ;;
	124) fail=$((fail+1)); failed_list="$failed_list $name"; printf 'FAIL %s (timeout %ss)\n' "$name" "$TIMEOUT"; sed 's/^/    /' "$log" | tail -n 40 ;;
	*) fail=$((fail+1)); failed_list="$failed_list $name"; printf 'FAIL %s (exit %s)\n' "$name" "$rc"; sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
}

for t in "$BUILD"/tests/*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	case $t in *.o|*.d) continue ;; esac
	run_one "unit/$(basename "$t")" "$t"
done

# shell tests: tests/sh/NAME.sh (same exit codes as the unit programs)
for t in tests/sh/*.sh; do
	[ -f "$t" ] || continue
	run_one "sh/$(basename "$t" .sh)" sh "$t"
done

# golden jobs: tests/jobs/NNNN-name.job with NNNN-name.json (and optional
# NNNN-name.args holding extra command-line arguments)
for j in tests/jobs/*.job; do
	[ -f "$j" ] || continue
	base=${j%.job}
	[ -f "$base.json" ] || continue
	run_one "golden/$(basename "$base")" sh tests/golden.sh "$BIN" "$base"
done

# every example job runs (smoke test); examples may carry their own args
for j in examples/*.fio examples/*/*.fio; do
	[ -f "$j" ] || continue
	args=""
	[ -f "${j%.fio}.args" ] && args=$(cat "${j%.fio}.args")
	# shellcheck disable=SC2086
	run_one "example/$(echo "$j" | sed 's,^examples/,,; s,/,_,g')" sh -c "$BIN run $args '$j' >/dev/null"
done

echo
[ -n "$failed_list" ] && echo "failed:$failed_list"
[ -n "$skipped_list" ] && echo "skipped:$skipped_list"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
