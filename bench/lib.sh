# Sourced by the benchmark scripts: their environment settings, checked, so
# that a mistyped count stops the script with a message instead of running
# zero rounds or printing a median of nothing.
#
#   bench_count NAME LO HI   the variable NAME holds a whole number in [LO, HI]
#   bench_need_tools         $BIN and $RU are built, or the script says it
#                            skipped and exits 0
#
# Sourcing it also sets the defaults every script shares: BUILD (build),
# BIN (./iosched) and RU, BUILD's rusage_run (a child's CPU time and peak RSS).
BUILD=${BUILD:-build}
BIN=${BIN:-./iosched}
RU=$BUILD/bench/rusage_run
bench_count() {
	eval "v=\${$1}"
	case $v in
	'' | *[!0-9]*) ;;
	*) [ "$v" -ge "$2" ] && [ "$v" -le "$3" ] && return 0 ;;
	esac
	echo "$(basename "$0"): $1='$v': want a whole number from $2 to $3" >&2
	exit 2
}

bench_need_tools() {
	[ -x "$RU" ] && [ -x "$BIN" ] && return 0
	echo "skipped: $RU or $BIN not built (make all)"
	exit 0
}
