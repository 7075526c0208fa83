#!/bin/sh
# Golden job test: run BASE.job (with BASE.args if present) with JSON output
# and compare with BASE.json byte for byte. The simulator is deterministic and
# the report has no wall-clock fields, so nothing needs stripping.
# To refresh a golden file after an intended change: GOLDEN_UPDATE=1.
bin=$1; base=$2
args=""
[ -f "$base.args" ] && args=$(cat "$base.args")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086
"$bin" run --output-format=json $args "$base.job" >"$out" || exit 1
if [ -n "$GOLDEN_UPDATE" ]; then
	cp "$out" "$base.json"
	exit 0
fi
if ! cmp -s "$out" "$base.json"; then
	echo "golden mismatch for $base.job:"
	diff "$base.json" "$out" | head -40
	exit 1
fi
