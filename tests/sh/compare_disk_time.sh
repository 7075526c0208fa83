#!/bin/sh
# Description: compare shows who had the disk (issue 17): per job the
# device share and the scheduler's charged share ('-' where it charges
# none), Jain's index over the device shares, and Moyer's table on disk
# time after the one on bytes; JSON carries the same. Two sequential
# readers at BE 0 and BE 7 under cfq get about their slices, 180:40 ms,
# so BE 0 has about 80 % of the time; noop gives each about half.
BIN=${IOSCHED_BIN:-./iosched}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$d/two.fio" <<'JOB'
[global]
rw=read
bs=64k
direct=1
ioengine=psync
size=1g
runtime=4
time_based
prioclass=2
[hi]
prio=0
[lo]
prio=7
JOB
"$BIN" compare "$d/two.fio" --schedulers noop,cfq >"$d/out" 2>"$d/err" || fail "compare: $(cat "$d/err")"
# the row under a block title: "  hi   49.9%   80.2%"
row() { awk -v t="$1" -v j="$2" '$0 == t { on = 1; next } on && $1 == j { print; exit } on && !/^  / { on = 0 }' "$d/out"; }
dev=$(row "disk time, device share" hi)
chg=$(row "disk time, charged share" hi)
[ -n "$dev" ] && [ -n "$chg" ] || fail "no disk time blocks: $(cat "$d/out")"
set -- $dev
noop=${2%\%}; cfq=${3%\%}
awk -v n="$noop" -v c="$cfq" 'BEGIN { exit !(n > 40 && n < 60 && c > 75 && c < 86) }' ||
	fail "device share of hi: noop $noop%, cfq $cfq% (want about 50 and 80)"
set -- $chg
[ "$2" = "-" ] || fail "noop charged share is '$2', want '-'"
awk -v c="${3%\%}" 'BEGIN { exit !(c > 75 && c < 86) }' || fail "cfq charged share of hi: $3"
grep -q "^  Jain's index (time) " "$d/out" || fail "no Jain's index (time)"
grep -q "^total disk time (device share): [0-9]* ms$" "$d/out" || fail "no Moyer table on time"
grep -q "^class prio   ideal ms     had ms  %diff  job$" "$d/out" || fail "no time table header"
"$BIN" compare "$d/two.fio" --schedulers noop,cfq --output-format json >"$d/json" 2>"$d/err" ||
	fail "compare json: $(cat "$d/err")"
grep -q '"jain_index_device_time": ' "$d/json" || fail "json: no jain_index_device_time"
grep -q '"disk_time_ns": null' "$d/json" || fail "json: noop's disk_time_ns is not null"
[ "$(grep -c '"device_time_share": ' "$d/json")" -eq 4 ] || fail "json: device_time_share not per job"
echo "compare_disk_time: ok (hi: noop $noop%, cfq $cfq% of the device)"
