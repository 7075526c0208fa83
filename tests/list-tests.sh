#!/bin/sh
# Print the test list of one build for tests/pool.sh, a line per test:
# NAME<tab>CHAIN<tab>COMMAND.
#
#   sh tests/list-tests.sh BUILD BIN [PREFIX [ENV]]
#
# BUILD holds the unit test programs (BUILD/tests/*), BIN is the iosched
# binary the shell, golden and example tests run, PREFIX goes before every
# name ("asan:") and ENV before every command (variable assignments).
# Tests that time or load this machine's real disk share the chain "disk",
# so they never overlap one another, in this build or another.
build=$1; bin=$2; prefix=$3; env=$4
tab=$(printf '\t')
emit() { # name chain command
	printf '%s%s%s%s%s%s %s\n' "$prefix" "$1" "$tab" "$2" "$tab" "$env" "$3"
}
chain_of() {
	case $1 in
	sh/real_*|sh/fio_cli_real|sh/verify_fio_real|unit/host_uring*) echo disk ;;
	*) echo - ;;
	esac
}

for t in "$build"/tests/*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	case $t in *.o|*.d) continue ;; esac
	n=unit/$(basename "$t")
	emit "$n" "$(chain_of "$n")" "BUILD='$build' IOSCHED_BIN='$bin' '$t'"
done

# shell tests: tests/sh/NAME.sh (same exit codes as the unit programs)
for t in tests/sh/*.sh; do
	[ -f "$t" ] || continue
	n=sh/$(basename "$t" .sh)
	e=""
	# the report's pieces are tests of their own below
	[ "$n" = sh/repro ] && [ "$build" = build ] && e="REPRO_PARTS=pool "
	emit "$n" "$(chain_of "$n")" "${e}BUILD='$build' IOSCHED_BIN='$bin' sh '$t'"
done

# the committed reproduction report, a piece per line of tests/repro-parts
# (tests/repro-part.sh): the full runs side by side on the pool's workers
# instead of one ~330 s test. The normal build's only, as tests/sh/repro.sh's
# full comparison was: the numbers are that build's, and under ASan v2-c1
# alone would take most of an hour
if [ "$build" = build ] && [ -f tests/repro-parts ]; then
	grep -v '^#' tests/repro-parts | while read -r exps; do
		[ -n "$exps" ] || continue
		emit "repro/$(echo $exps | tr ' ' '+')" - \
			"BUILD='$build' IOSCHED_BIN='$bin' sh tests/repro-part.sh $exps"
	done
fi

# golden jobs: tests/jobs/NNNN-name.job with NNNN-name.json (and optional
# NNNN-name.args holding extra command-line arguments)
for j in tests/jobs/*.job; do
	[ -f "$j" ] || continue
	base=${j%.job}
	[ -f "$base.json" ] || continue
	emit "golden/$(basename "$base")" - "sh tests/golden.sh '$bin' '$base'"
done

# every example job runs (smoke test); examples may carry their own args
for j in examples/*.fio examples/*/*.fio; do
	[ -f "$j" ] || continue
	args=""
	[ -f "${j%.fio}.args" ] && args=$(cat "${j%.fio}.args")
	# the cgroup v2 scenarios are blk-mq's: their exec_prerun writes of
	# cgroup v2 files are refused on the single-queue default (cfq), as
	# the kernel has no v2 controllers there; repro runs them by column
	case $j in examples/cgroup-v2/*) args="$args --scheduler none" ;; esac
	# under the sanitizers (a PREFIX) the smoke run stops at 5 simulated
	# seconds: the whole job runs in the normal build, and c1's 40 s of
	# 310,000 reads a second took 38 s of CPU under ASan for no check the
	# first seconds do not make (its stop path is exercised instead)
	[ -n "$prefix" ] && args="$args --set lab.max_sim_time=5"
	emit "example/$(echo "$j" | sed 's,^examples/,,; s,/,_,g')" - \
		"'$bin' run $args '$j' >/dev/null"
done
