#!/bin/sh
# Description: blk-mq's 'none' runs a whole job end to end on the default
# device (O_DIRECT reads, async random reads at depth 4, buffered writes
# with writeback and fsync), every job moves data, and two runs with the
# same seed are byte-identical, in JSON and in the normal output.
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
for fmt in json normal; do
	"$BIN" run --scheduler none --seed 11 --output-format "$fmt" "$job" >"$a" || exit 1
	"$BIN" run --scheduler none --seed 11 --output-format "$fmt" "$job" >"$b" || exit 1
	if ! cmp -s "$a" "$b"; then
		echo "none ($fmt): two runs differ:"
		diff "$a" "$b" | head -20
		exit 1
	fi
done
# every job did I/O: no "io_bytes" : 0 for the direction it runs
"$BIN" run --scheduler none --seed 11 --output-format json "$job" >"$a" || exit 1
n=$(grep -c '"io_bytes" : [1-9]' "$a")
if [ "$n" -lt 3 ]; then
	echo "none: only $n directions with data moved:"
	grep '"io_bytes"' "$a"
	exit 1
fi
echo "none: runs end to end, identical twice"
