#!/bin/sh
# Description: io.max end to end on blk-mq (issue 30 step 3,
# src/block/blk_throttle.c): two groups of 128 KiB libaio readers on
# ssd-nvme under none, one with io.max rbps=20971520 from a job file's
# exec_prerun, the other free: the limited job reads 19.5..20.5 MiB/s, the
# free one far more; the run no longer says io.max is unmodelled; two runs
# are byte-identical; with lab.kernel=6.6 (100 ms slices) the rate is the
# same limit.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/lim.fio" <<'JOB'
[global]
rw=read
bs=128k
ioengine=libaio
iodepth=4
direct=1
size=256m
runtime=3
time_based
[lim]
cgroup=lim
exec_prerun=echo 'rbps=20971520' > /sys/fs/cgroup/lim/io.max
[free]
cgroup=free
JOB
bw() { sed -n "/^$1:/,/BW=/s/.*BW=\([0-9.]*\)MiB.*/\1/p" "$2" | head -1; }
for k in 6.12 6.6; do
	"$BIN" run "$dir/lim.fio" --scheduler none --device ssd-nvme --set lab.kernel=$k \
		>"$dir/out" 2>"$dir/err" || { echo "$k: run failed:"; cat "$dir/err"; exit 1; }
	lim=$(bw lim "$dir/out"); free=$(bw free "$dir/out")
	awk -v l="$lim" -v f="$free" 'BEGIN { exit !(l >= 19.5 && l <= 20.5 && f > 200) }' || {
		echo "$k: lim ${lim} MiB/s (want 19.5..20.5), free ${free} MiB/s (want > 200)"
		cat "$dir/out"; exit 1; }
	if grep -q "not yet modelled: io.max" "$dir/err"; then
		echo "$k: the run still says io.max is not modelled:"; cat "$dir/err"; exit 1
	fi
done
"$BIN" run "$dir/lim.fio" --scheduler none --device ssd-nvme --output-format=json >"$dir/a" 2>/dev/null || exit 1
"$BIN" run "$dir/lim.fio" --scheduler none --device ssd-nvme --output-format=json >"$dir/b" 2>/dev/null || exit 1
cmp -s "$dir/a" "$dir/b" || { echo "two runs differ"; diff "$dir/a" "$dir/b" | head; exit 1; }
echo "io.max end to end: ok"
