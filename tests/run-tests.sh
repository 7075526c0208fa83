#!/bin/sh
# Run every test of one build (make check-quick): unit programs (exit 0
# pass, 1 fail, 77 skip), shell tests, golden jobs and example jobs, each
# under a timeout, TEST_JOBS at a time (default: the cores online), longest
# first. Ends with "N passed, N failed, N skipped" and exits non-zero if
# anything failed. Logs: BUILD/test-logs/.
BUILD=${BUILD:-build}
BIN=${BIN:-./iosched}
list=$(mktemp)
trap 'rm -f "$list"' EXIT
sh tests/list-tests.sh "$BUILD" "$BIN" "" "$TEST_ENV" >"$list"
sh tests/pool.sh "$list" "$BUILD/test-logs"
