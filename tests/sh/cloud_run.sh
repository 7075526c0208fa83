#!/bin/sh
# Description: fio jobs run end to end on the cloud volume (--device cloud,
# EBS gp3 at its baseline: 3000 IOPS, 125 MiB/s) under blk-mq's none and
# mq-deadline and under the 2.6-era layer's noop, so both block layers drive
# it: 4 KiB random reads at iodepth 32 reach the 3000 IOPS limit and no more,
# 1 MiB sequential reads the 125 MiB/s limit and no more, whichever
# scheduler; the run says on stderr how the volume counted the requests; two
# runs with the same seed are byte-identical; on cloud-gp2 started with an
# empty burst balance the same random reads get the 300 IOPS baseline.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/rand.fio" <<'JOB'
[rand]
rw=randread
bs=4k
ioengine=libaio
iodepth=32
direct=1
size=1g
runtime=2
time_based
JOB
cat >"$dir/seq.fio" <<'JOB'
[seq]
rw=read
bs=1m
ioengine=libaio
iodepth=8
direct=1
size=4g
runtime=2
time_based
JOB
# fio's read line: the number after IOPS=, and after BW= when in MiB/s
field() {
	case $1 in
	1) sed -n 's/.*read: IOPS=\([0-9.k]*\),.*/\1/p' "$2" | head -1 ;;
	2) sed -n 's/.*read: IOPS=.*, BW=\([0-9.]*\)MiB\/s.*/\1/p' "$2" | head -1 ;;
	esac
}
for s in none mq-deadline noop; do
	"$BIN" run --device cloud --scheduler "$s" --seed 3 "$dir/rand.fio" >"$dir/out" 2>"$dir/err" || {
		echo "$s: random reads failed:"; cat "$dir/err"; exit 1; }
	iops=$(field 1 "$dir/out")
	case $iops in 299[0-9]|300[0-9]) ;; *)
		echo "$s: 4 KiB random reads at QD32 on cloud: IOPS=$iops, want 2990..3009"
		cat "$dir/out"; exit 1 ;;
	esac
	grep -q "sda (cloud): [0-9]* requests counted as [0-9]* volume I/Os" "$dir/err" || {
		echo "$s: no cloud note on stderr:"; cat "$dir/err"; exit 1; }
	"$BIN" run --device cloud --scheduler "$s" --seed 3 "$dir/seq.fio" >"$dir/out" 2>"$dir/err" || {
		echo "$s: sequential reads failed:"; cat "$dir/err"; exit 1; }
	bw=$(field 2 "$dir/out")
	case $bw in 12[45]|12[45].*) ;; *)
		echo "$s: 1 MiB sequential reads on cloud: BW=${bw}MiB/s, want 124..125.x"
		cat "$dir/out"; exit 1 ;;
	esac
	echo "$s: cloud 4k randread QD32 IOPS=$iops, 1M seq read ${bw} MiB/s"
done
# deterministic: the same seed gives the same bytes
for fmt in json normal; do
	"$BIN" run --device cloud-gp2 --scheduler mq-deadline --seed 5 --output-format "$fmt" \
		"$dir/rand.fio" >"$dir/a" 2>/dev/null || exit 1
	"$BIN" run --device cloud-gp2 --scheduler mq-deadline --seed 5 --output-format "$fmt" \
		"$dir/rand.fio" >"$dir/b" 2>/dev/null || exit 1
	cmp -s "$dir/a" "$dir/b" || { echo "cloud-gp2 ($fmt): two runs differ"; diff "$dir/a" "$dir/b" | head; exit 1; }
done
# gp2 with no credits left: the baseline, 3 IOPS per GiB of 100 GiB
"$BIN" run --device cloud-gp2 --set device.burst_balance_pct=0 --scheduler none "$dir/rand.fio" \
	>"$dir/out" 2>"$dir/err" || { cat "$dir/err"; exit 1; }
iops=$(field 1 "$dir/out")
case $iops in 29[5-9]|30[0-5]) ;; *)
	echo "cloud-gp2 without credits: IOPS=$iops, want 295..305"; cat "$dir/out"; exit 1 ;;
esac
grep -q "burst balance 0.0 %" "$dir/err" || { echo "no burst balance on stderr:"; cat "$dir/err"; exit 1; }
echo "cloud-gp2 without credits: IOPS=$iops (baseline 300)"
