#!/bin/sh
# Description: issue 32's survey kept in the tree. Every input in
# tests/data/fio-survey (a job file, NAME.fio, or a one-liner's arguments,
# NAME.cmd) is run through `iosched fio` as its users run it, in a fresh
# directory, and its outcome is checked against its header:
#   # kind: KIND            the kind of public source it stands for
#   # expect: runs          exit 0, nothing on stderr (wrappers such as
#                           kubestr take stderr for a failure), and the
#                           JSON parses when --output-format is json or json+
#   # expect: refused: W..  exit 1, every word W on stderr, no crash
#   # args: ARGS            (job files) the arguments its wrapper passes
#   # env: VAR=VALUE...     (job files) the environment its wrapper sets
# Prints a table, kind -> runs / refused, and the totals (docs/fio-cli.md,
# "The survey").
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
data=$(pwd)/tests/data/fio-survey
[ -d "$data" ] || { echo "FAIL: no $data (run from the tree's top)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
n=0
: >"$tmp/tally"
to=""
command -v timeout >/dev/null 2>&1 && to="timeout 60"

# json_later FILE: FILE is to hold one or more JSON objects (one per
# report), each with jobs; kept and checked at the end by json_check, in
# one python3 (a start costs ~0.3 s here, one per input was a third of
# the test)
mkdir "$tmp/json"
json_later() { cp "$1" "$tmp/json/$name"; }
# json_check: prints the name of each kept report that does not parse
json_check() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, os, sys
for f in sorted(os.listdir(sys.argv[1])):
    s = open(os.path.join(sys.argv[1], f)).read(); d = json.JSONDecoder(); i = 0; n = 0
    try:
        while True:
            while i < len(s) and s[i].isspace(): i += 1
            if i == len(s): break
            o, i = d.raw_decode(s, i); n += 1
            assert "jobs" in o and o["jobs"], "no jobs"
        assert n
    except Exception:
        print(f)' "$tmp/json"
	elif command -v jq >/dev/null 2>&1; then
		for f in "$tmp/json"/*; do
			[ -f "$f" ] || continue
			jq -e '.jobs' "$f" >/dev/null 2>&1 || basename "$f"
		done
	fi
}
hdr() { sed -n "s/^# $1: *//p" "$2" | head -n 1; }
no() { echo "FAIL: $name: $*"; sed 's/^/    stderr: /' "$tmp/run/err" | head -n 5; bad=1; }

for f in "$data"/*.fio "$data"/*.cmd; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	kind=$(hdr kind "$f")
	want=$(hdr expect "$f")
	if [ -z "$kind" ] || [ -z "$want" ]; then
		echo "FAIL: $name: no '# kind:' or '# expect:' line"; bad=1; continue
	fi
	n=$((n + 1))
	rm -rf "$tmp/run"; mkdir "$tmp/run"
	case $f in
	*.cmd) args=$(grep -v '^#' "$f" | tr '\n' ' '); envs="" ;;
	*) args="$(hdr args "$f") '$f'"; envs=$(hdr env "$f") ;;
	esac
	# shellcheck disable=SC2086
	(cd "$tmp/run" && eval "env $envs $to \"\$BIN\" fio $args" >out 2>err)
	st=$?
	if grep -q 'Sanitizer\|runtime error' "$tmp/run/err" || [ $st -ge 124 ]; then
		no "crashed or timed out (exit $st)"; continue
	fi
	case $want in
	runs)
		[ $st -eq 0 ] || { no "exit $st, expected to run"; continue; }
		[ -s "$tmp/run/err" ] && { no "ran, but wrote to stderr"; continue; }
		case " $args " in
		*" --output-format=json "*|*" --output-format=json+ "*)
			out=$tmp/run/out
			o=$(echo " $args " | sed -n 's/.* --output=\([^ ]*\) .*/\1/p')
			[ -n "$o" ] && out=$tmp/run/$o
			json_later "$out"
			;;
		esac
		outcome=runs ;;
	refused:*)
		[ $st -eq 1 ] || { no "exit $st, expected a refusal (exit 1)"; continue; }
		for w in ${want#refused:}; do
			grep -qF -- "$w" "$tmp/run/err" || { no "stderr lacks '$w'"; continue 2; }
		done
		outcome=refused ;;
	*) echo "FAIL: $name: unknown expectation '$want'"; bad=1; continue ;;
	esac
	printf '%s\t%s\n' "$kind" "$outcome" >>"$tmp/tally"
done

for j in $(json_check); do
	echo "FAIL: $j: the JSON report does not parse"; bad=1
done
[ "$n" -ge 40 ] || { echo "FAIL: $n inputs, the survey keeps at least 40"; bad=1; }
printf '%-30s %5s %8s\n' kind runs refused
sort "$tmp/tally" | awk -F'\t' '
	{ if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } c[$1, $2]++; t[$2]++ }
	END {
		for (i = 1; i <= k; i++)
			printf "%-30s %5d %8d\n", order[i], c[order[i], "runs"], c[order[i], "refused"]
		printf "%-30s %5d %8d\n", "total", t["runs"], t["refused"]
	}'
[ $bad -eq 0 ] || exit 1
echo "PASS ($n inputs)"
