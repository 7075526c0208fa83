#!/bin/sh
# make check: the normal build's tests, the same tests under AddressSanitizer
# and UBSan, and bounded fuzz runs (FUZZ_SECONDS each, default 30) of the
# job-file parser, the trace readers, --set values with a tiny run under every
# scheduler, and text traces replayed under CFQ and BFQ. Prints one total
# "N passed, N failed" line at the end and fails if anything failed.
MAKE=${MAKE:-make}
total_p=0; total_f=0; total_s=0; status=0
tally() { # log file
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
	p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	s=$(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	total_p=$((total_p + ${p:-0})); total_f=$((total_f + ${f:-0})); total_s=$((total_s + ${s:-0}))
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== normal build =="
if ! $MAKE -s all; then echo "build failed"; echo "0 passed, 1 failed"; exit 1; fi
BIN=$(pwd)/iosched sh tests/run-tests.sh | tee "$log" || status=1
tally "$log"

echo "== AddressSanitizer + UBSan build =="
if $MAKE -s BUILD=build-asan OPT=-O1 \
	SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" all; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		BUILD=build-asan BIN=$(pwd)/build-asan/iosched sh tests/run-tests.sh | tee "$log" || status=1
	tally "$log"
else
	echo "asan build failed"; total_f=$((total_f + 1)); status=1
fi

echo "== fuzz smoke =="
if $MAKE -s fuzz; then
	sh tests/fuzz/run-fuzz.sh build/fuzz/fuzz_jobfile "${FUZZ_SECONDS:-30}" | tee "$log" || status=1
	tally "$log"
	sh tests/fuzz/run-fuzz.sh build/fuzz/fuzz_trace "${FUZZ_SECONDS:-30}" tests/fuzz/corpus-trace \
		| tee "$log" || status=1
	tally "$log"
	# --set values and tunables, then a tiny run under every scheduler and profile
	sh tests/fuzz/run-fuzz.sh build/fuzz/fuzz_settings "${FUZZ_SECONDS:-30}" \
		tests/fuzz/corpus-settings | tee "$log" || status=1
	tally "$log"
	# blkparse text and fio iologs replayed under CFQ and BFQ
	sh tests/fuzz/run-fuzz.sh build/fuzz/fuzz_replay "${FUZZ_SECONDS:-30}" \
		tests/fuzz/corpus-replay | tee "$log" || status=1
	tally "$log"
else
	echo "fuzz build failed"; total_f=$((total_f + 1)); status=1
fi

echo
echo "all builds: $total_p passed, $total_f failed, $total_s skipped"
echo "$total_p passed, $total_f failed"
[ "$status" -eq 0 ] && [ "$total_f" -eq 0 ]
