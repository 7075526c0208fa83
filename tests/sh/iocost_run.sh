#!/bin/sh
# Description: io.cost end to end on blk-mq (src/block/blk_iocost.c through
# its rq_qos, blk_iocost_rqos.c): two groups of two 4 KiB random
# readers each (QD16) on ssd-nvme under none. Without io.cost, or with
# io.cost.qos written but enable=0, they share the device evenly and the
# output is the same as without the file; with enable=1 and io.weight
# 500/100 group a gets 5/6 of the I/Os (hweight 500/600: both groups are
# vtime-bound at SSD_DFL's 8518 random reads a second, vrate starting at
# 100 %), and the aggregate is far below the device's; two runs are
# byte-identical.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/w.fio" <<'JOB'
[global]
rw=randread
bs=4k
direct=1
ioengine=libaio
iodepth=16
size=256m
runtime=1s
time_based
[a]
cgroup=a
numjobs=2
[b]
cgroup=b
numjobs=2
JOB
run() {
	"$BIN" run "$dir/w.fio" --device ssd-nvme --scheduler none --seed 1 "$@" 2>"$dir/err" || {
		echo "run $* failed:"; cat "$dir/err"; exit 1; }
}
# the I/O% of group $1 in the cgroup section, without the %
pct() { awk -v g="$1" '$1 == g && $5 ~ /%$/ { sub(/%/, "", $5); print $5 }' "$2"; }
total() { awk '$1 == "total" { print $3 }' "$1"; }

run >"$dir/none"
run --set cgroup.io.cost.qos=enable=0 --set cgroup.a.io.weight=500 --set cgroup.b.io.weight=100 \
	>"$dir/off"
# the cgroup v2 section echoes the files as written ("set  :"): the runs must
# agree on everything else
grep -v '^    set  :' "$dir/none" >"$dir/none.s"
grep -v '^    set  :' "$dir/off" >"$dir/off.s"
cmp -s "$dir/none.s" "$dir/off.s" || { echo "io.cost.qos enable=0 changed the run:"; diff "$dir/none.s" "$dir/off.s"; exit 1; }
run --set cgroup.io.cost.qos=enable=1 --set cgroup.a.io.weight=500 --set cgroup.b.io.weight=100 \
	>"$dir/on"
run --set cgroup.io.cost.qos=enable=1 --set cgroup.a.io.weight=500 --set cgroup.b.io.weight=100 \
	>"$dir/on2"
cmp -s "$dir/on" "$dir/on2" || { echo "io.cost runs differ"; exit 1; }
grep -q "not yet modelled: io.cost" "$dir/err" && { echo "io.cost still reported as not modelled"; exit 1; }
a0=$(pct a "$dir/none"); a1=$(pct a "$dir/on")
t0=$(total "$dir/none"); t1=$(total "$dir/on")
awk -v a0="$a0" -v a1="$a1" -v t0="$t0" -v t1="$t1" 'BEGIN {
	if (a0 < 45 || a0 > 55) { printf "without io.cost a has %s%%, want 45..55\n", a0; exit 1 }
	if (a1 < 80 || a1 > 86) { printf "io.cost 500:100: a has %s%%, want 80..86\n", a1; exit 1 }
	if (t1 > 0.5 * t0) { printf "io.cost aggregate %s I/Os vs %s without: want at most half\n", t1, t0; exit 1 }
}' || { cat "$dir/on"; exit 1; }
echo "io.cost 500:100 on ssd-nvme: a ${a1}% of $t1 I/Os (without: ${a0}% of $t0)"
