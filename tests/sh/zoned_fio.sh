#!/bin/sh
# Description: fio job files for zoned disks through `iosched fio` (our own
# jobs, shaped like fio's zbd examples): a /dev/ name on --device smr-hm is
# the simulated zoned disk; random writes at the write pointers print fio's
# "; N zone resets" on the write line, the same bytes twice; a sequential
# reader on a fresh disk reads nothing (read_beyond_wp=0) and a prefilled
# disk everything; zonemode=zbd on the conventional default disk emulates
# zones with zonesize= and refuses a job without it; a job without
# zonemode=zbd stops at its first EIO with fio's messages; the queue reports
# the zoned model.
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; [ -f "$dir/out" ] && sed 's/^/  out: /' "$dir/out" | head -30; exit 1; }
SMALL="--set device.capacity=2GiB --set device.zone_size=64MiB --set device.conv_zones=2"
cd "$dir" || exit 1

cat >rand.fio <<'EOF'
[global]
rw=randwrite
zonemode=zbd
max_open_zones=4
bs=512k
direct=1
size=1g
io_size=2g
offset=128m
group_reporting
[dev]
filename=/dev/sdj
ioengine=psync
numjobs=2
EOF
"$BIN" fio --device smr-hm $SMALL rand.fio >a.out 2>a.err || { cp a.err out; fail "rand.fio exited $?"; }
"$BIN" fio --device smr-hm $SMALL rand.fio >b.out 2>b.err || fail "rand.fio (second run)"
cmp -s a.out b.out || { diff a.out b.out >out; fail "two runs differ"; }
cp a.out out
grep -q "err= 0" a.out || fail "rand.fio: an error"
# 2 jobs x 2 GiB into 16 zones of 64 MiB: 64 zone fills, at least 48 of them on a full zone
n=$(sed -n 's/.*write: IOPS=.*(4096MiB\/[0-9]*msec); \([0-9]*\) zone resets$/\1/p' a.out)
[ -n "$n" ] || fail "rand.fio: no '4096MiB ...; N zone resets' write line"
[ "$n" -ge 48 ] && [ "$n" -le 64 ] || fail "rand.fio: $n zone resets, expected 48..64"
grep -q "writes refused" a.err && { cp a.err out; fail "the device refused a write"; }

cat >seqread.fio <<'EOF'
[r]
rw=read
bs=256k
direct=1
zonemode=zbd
zonesize=64M
read_beyond_wp=0
filename=/dev/sdd
offset=192m
size=256m
ioengine=libaio
iodepth=16
EOF
"$BIN" fio --device smr-hm $SMALL seqread.fio >out 2>&1 || fail "seqread.fio exited $?"
grep -q "read:" out && fail "seqread.fio: a fresh disk has nothing to read below the write pointers"
"$BIN" fio --device smr-hm $SMALL --set device.prefill=1 seqread.fio >out 2>&1 ||
	fail "seqread.fio (prefill) exited $?"
grep -q "read: IOPS=.*(256MiB/" out || fail "seqread.fio (prefill): 256 MiB read"
sed 's/read_beyond_wp=0/read_beyond_wp=1/' seqread.fio >beyond.fio
"$BIN" fio --device smr-hm $SMALL beyond.fio >out 2>&1 || fail "beyond.fio exited $?"
grep -q "read: IOPS=.*(256MiB/" out || fail "read_beyond_wp=1: 256 MiB of zeroes"

# the default disk is conventional: zones are emulated, zonesize is required
"$BIN" fio --set lab.max_sim_time=2 rand.fio >out 2>&1 && fail "no zonesize on a conventional disk"
grep -q "needs zonesize=" out || fail "the message names zonesize="
sed 's/^zonemode=zbd/zonemode=zbd\nzonesize=64m/' rand.fio >emu.fio
"$BIN" fio emu.fio >out 2>&1 || fail "emulated zones exited $?"
grep -q "err= 0" out || fail "emulated zones: an error"
grep -q "zone resets$" out || fail "emulated zones: the write line"

# without zonemode=zbd a random writer hits a write pointer error at once
printf '[w]\nfilename=/dev/sdb\nrw=randwrite\nbs=64k\ndirect=1\noffset=128m\nsize=256m\n' >plain.fio
# fio exits 1 after a job error
"$BIN" fio --device smr-hm $SMALL plain.fio >out 2>&1 && fail "plain.fio exited 0"
grep -q "err= 5 (Input/output error)" out || fail "plain.fio: err= 5"
grep -q "fio: io_u error on file /dev/sdb: Input/output error: write offset=" out ||
	fail "plain.fio: fio's io_u error line"
grep -q "consider --zonemode=zbd" out || fail "plain.fio: fio's zbd hint"

# the queue knows
"$BIN" list 2>&1 | grep -q "queue.zoned .*none|host-managed" || fail "iosched list: queue.zoned"
echo PASS
