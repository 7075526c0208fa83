#!/bin/sh
# Description: the same job, options and seed give byte-identical output
# across processes (so nothing depends on addresses, ASLR or the wall clock),
# under every scheduler, for a job that mixes O_DIRECT reads, buffered writes
# with writeback, and fsync.
BIN=${IOSCHED_BIN:-./iosched}
job=$(mktemp)
a=$(mktemp)
b=$(mktemp)
trap 'rm -f "$job" "$a" "$b"' EXIT
cat >"$job" <<'JOB'
[global]
runtime=1
time_based
size=64m
[direct-reader]
rw=read
bs=64k
direct=1
[random-reader]
rw=randread
bs=4k
direct=1
ioengine=libaio
iodepth=4
[buffered-writer]
rw=write
bs=16k
fsync=64
JOB
for s in noop deadline anticipatory cfq cfq-2.6.33 cfq-4.19 bfq; do
	for fmt in json normal; do
		"$BIN" run --scheduler "$s" --seed 11 --output-format "$fmt" "$job" >"$a" || exit 1
		"$BIN" run --scheduler "$s" --seed 11 --output-format "$fmt" "$job" >"$b" || exit 1
		if ! cmp -s "$a" "$b"; then
			echo "$s ($fmt): two runs differ:"
			diff "$a" "$b" | head -20
			exit 1
		fi
	done
	echo "$s: identical"
done
