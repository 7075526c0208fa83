# Sourced by the benchmark scripts: their environment settings, checked, so
# that a mistyped count stops the script with a message instead of running
# zero rounds or printing a median of nothing.
#
#   bench_count NAME LO HI   the variable NAME holds a whole number in [LO, HI]
bench_count() {
	eval "v=\${$1}"
	case $v in
	'' | *[!0-9]*) ;;
	*) [ "$v" -ge "$2" ] && [ "$v" -le "$3" ] && return 0 ;;
	esac
	echo "$(basename "$0"): $1='$v': want a whole number from $2 to $3" >&2
	exit 2
}
