#!/bin/sh
# Run a fuzzer for a bounded time over its seed corpus (copied, so the
# committed corpus is never modified). Fails on any crash. Without a corpus
# directory: the job-file fuzzer's (tests/fuzz/corpus and every job file).
bin=$1; secs=${2:-30}; corpus=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$corpus" ]; then
	cp "$corpus"/* "$work"/ 2>/dev/null
else
	cp tests/fuzz/corpus/* "$work"/ 2>/dev/null
	cp examples/*.fio examples/*/*.fio tests/jobs/*.fio "$work"/ 2>/dev/null
fi
if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$work/" "$work" >"$work/log" 2>&1; then
	grep -E "stat::number_of_executed_units|Done" "$work/log" | tail -2
	echo "fuzz-smoke: $(basename "$bin"): no crash in ${secs}s"
	echo "1 passed, 0 failed"
else
	tail -40 "$work/log"
	echo "fuzz-smoke: $(basename "$bin"): FAILED"
	echo "0 passed, 1 failed"
	exit 1
fi
