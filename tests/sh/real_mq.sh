#!/bin/sh
# Description: the blk-mq schedulers on real files (issue 29, item 4): each
# of none, mq-deadline, mq-deadline-6.6, kyber and bfq-6.12 runs a direct
# libaio random-read job and a buffered write job through --real, exit 0,
# every requested I/O done (the disk-stats line counts them through the
# blk-mq queue), no error, the data written is on the file. Skipped (77)
# without io_uring.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
printf '[a]\nrw=read\nsize=64k\nbs=4k\n' >probe.fio
timeout 30 "$BIN" run probe.fio --real >out 2>&1 || { echo "SKIP all: --real does not run here: $(head -1 out)"; exit 77; }
n=0
for s in none mq-deadline mq-deadline-6.6 kyber bfq-6.12; do
	printf '[r]\nfilename=rf\nsize=4m\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=8\nnumber_ios=200\n' >r.fio
	timeout 60 "$BIN" run r.fio --real --scheduler "$s" >out 2>err || fail "$s read: exit $? ($(cat err))"
	grep -q "err= 0" out || fail "$s read: $(grep err= out)"
	grep -q "ios=200/0," out || fail "$s read: disk stats $(grep 'ios=' out)"
	printf '[w]\nfilename=wf\nsize=1m\nrw=write\nbs=64k\nend_fsync=1\n' >w.fio
	timeout 60 "$BIN" run w.fio --real --scheduler "$s" >out 2>err || fail "$s write: exit $? ($(cat err))"
	grep -q "err= 0" out || fail "$s write: $(grep err= out)"
	[ "$(wc -c <wf)" -eq 1048576 ] || fail "$s write: wf has $(wc -c <wf) bytes"
	rm -f wf
	n=$((n + 1))
done
# --real never charges the lab's CPU cost model (the machine's CPU does the
# work): with lab.cpu.model=measured the run is the plain one, every I/O a
# request of its own (the model's delays would let random reads merge)
printf '[r]\nfilename=rf\nsize=4m\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=8\nnumber_ios=200\n' >r.fio
timeout 60 "$BIN" run r.fio --real --scheduler mq-deadline --set lab.cpu.model=measured >out 2>err ||
	fail "cpu model: exit $? ($(cat err))"
grep -q "ios=200/0, merge=0/0" out || fail "cpu model under --real: disk stats $(grep 'ios=' out)"
echo "real_mq: ok ($n schedulers)"
