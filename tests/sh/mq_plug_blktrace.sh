#!/bin/sh
# Description: the blk-mq plug in a whole run, read back with the real
# blkparse. A libaio job at iodepth=32 submitting in batches of 32
# (io_submit plugs batches of more than 2 iocbs, fs/aio.c) under 'none' on
# ssd-nvme: its --trace has P and U records, as many of each, every U
# names the task and carries the requests flushed (32, or fewer when
# bios merged in the plug); on hdd-2009 cut to 16 tags the 17th bio finds
# no tag and the task's sleep flushes the plug: UT 16. The same job under
# noop (the single-queue layer, no plug) has no P or U at all. fio's
# default iodepth_batch_submit=1 makes one-iocb io_submits: no io_submit
# plug, only the O_DIRECT path's own around each I/O (iomap): U 1.
# Skips (77) without blkparse.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
command -v blkparse >/dev/null 2>&1 || { echo "SKIP: no blkparse (install blktrace to run this test)"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cat >batch.fio <<'JOB'
[global]
runtime=100ms
time_based
size=64m
direct=1
[aio]
ioengine=libaio
rw=randread
bs=4k
iodepth=32
iodepth_batch_submit=32
iodepth_batch_complete_min=32
JOB
sed '/iodepth_batch/d' batch.fio >single.fio

"$BIN" run batch.fio --scheduler none --device ssd-nvme --seed 3 --trace nvme >/dev/null 2>err ||
	fail "none on ssd-nvme: $(cat err)"
blkparse -i nvme >nvme.txt 2>blkparse.err || fail "blkparse: $(cat blkparse.err)"
# default format: field 6 is the action, 7 the RWBS, 8 the process, 9 the depth
acts() { awk 'NF >= 7 && $1 ~ /^[0-9]+,[0-9]+$/ { print $6 }' "$1" | sort | uniq -c; }
acts nvme.txt >nvme.a
np=$(awk '$2 == "P" { print $1 }' nvme.a)
nu=$(awk '$2 == "U" { print $1 }' nvme.a)
[ -n "$np" ] && [ "$np" -gt 0 ] || fail "no P records: $(cat nvme.a)"
[ "$np" = "$nu" ] || fail "P ($np) and U ($nu) differ: $(cat nvme.a)"
grep -q ' UT$' nvme.a && fail "UT on a device with tags to spare: $(cat nvme.a)"
awk '$1 ~ /^[0-9]+,[0-9]+$/ && $6 == "P" && !($7 == "N" && $8 == "[aio]") { bad = 1 }
     END { exit bad }' nvme.txt || fail "a P record is not 'P N [aio]'"
awk '$1 ~ /^[0-9]+,[0-9]+$/ && $6 == "U" { if ($8 != "[aio]" || $9 < 1 || $9 > 32) bad = 1; if ($9 == 32) full++ }
     END { exit bad || !full }' nvme.txt || fail "U depths not 1..32 with some 32: $(grep ' U ' nvme.txt | head -5)"

"$BIN" run batch.fio --scheduler none --seed 3 --set device.hw_queue_depth=16 --trace hdd \
	>/dev/null 2>err || fail "none on hdd: $(cat err)"
blkparse -i hdd >hdd.txt 2>/dev/null || fail "blkparse hdd"
awk '$1 ~ /^[0-9]+,[0-9]+$/ && $6 == "UT" && $9 == 16 { ok = 1 } END { exit !ok }' hdd.txt ||
	fail "no 'UT ... 16' on hdd-2009 with 16 tags: $(grep ' UT ' hdd.txt | head -3)"

"$BIN" run single.fio --scheduler none --device ssd-nvme --seed 3 --trace one >/dev/null 2>err ||
	fail "batch 1: $(cat err)"
blkparse -i one >one.txt 2>/dev/null || fail "blkparse one"
# one iocb per io_submit: no io_submit plug, but iomap's around each I/O's bio: U 1 each
awk '$1 ~ /^[0-9]+,[0-9]+$/ && $6 == "U" { n++; if ($9 != 1) bad = 1 } END { exit bad || !n }' one.txt ||
	fail "one-iocb io_submits: U depths not all 1: $(grep ' U ' one.txt | sort -k9 -n | tail -3)"

"$BIN" run batch.fio --scheduler noop --device ssd-nvme --seed 3 --trace legacy >/dev/null 2>err ||
	fail "noop: $(cat err)"
blkparse -i legacy >legacy.txt 2>/dev/null || fail "blkparse legacy"
acts legacy.txt | grep -q ' \(P\|U\|UT\)$' && fail "the single-queue layer plugged: $(acts legacy.txt)"
echo "mq_plug_blktrace: ok"
