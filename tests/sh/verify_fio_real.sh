#!/bin/sh
# Description: verify= beside the real fio 3.33, run on small files in a
# temporary directory: the same write+verify jobs issue the same reads and
# writes (fio's "issued rwts" line: verify reads in the read direction;
# backlog; loops, a verify phase after each; norandommap's sorted log; io_size beyond size, where the
# bytes the verify reads bring end the job; a read-only verify job after a
# writer), and a block overwritten with zeros, or two chunks of a block
# overwritten by a job without verify, give fio's messages and err= word
# for word (with and without verify_fatal). Skipped (77) without fio 3.33.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
command -v fio >/dev/null 2>&1 || exit 77
[ "$(fio --version 2>/dev/null)" = "fio-3.33" ] || exit 77
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# the lines both print the same way: issued counts, fio's verify messages, err= codes
summary() {
	grep -E '^ +issued rwts|^verify: |^[a-z0-9]+: verify failed|: \(groupid=' "$1" |
		sed -e 's/^iosched: warning: //' -e 's/^\(.*err=[ 0-9]*\).*/\1/'
}

# compare NAME JOBTEXT: the job file run by both, its summaries equal
compare() {
	printf "$2" >"$1.fio"
	rm -f f
	fio "$1.fio" >fio.out 2>&1
	rm -f f
	"$BIN" fio "$1.fio" >ios.out 2>&1
	summary fio.out >want
	sed 's/^iosched: warning: //' ios.out >ios2.out
	summary ios2.out >got
	[ -s want ] || fail "$1: fio printed nothing to compare: $(cat fio.out)"
	cmp -s want got || fail "$1: fio
$(cat want)
iosched
$(cat got)"
}

J='[j]\nfilename=f\nbs=4k\nsize=256k\nverify=crc32c\n'
compare write "${J}rw=write\n"
compare number-ios "${J}rw=write\nnumber_ios=3\nverify_backlog=2\n"
compare randwrite-aio "${J}rw=randwrite\ndirect=1\nioengine=libaio\niodepth=8\n"
compare backlog "${J}rw=write\nverify_backlog=16\n"
compare backlog-batch "${J}rw=randwrite\nverify_backlog=16\nverify_backlog_batch=8\n"
compare loops "${J}rw=randwrite\nloops=2\n"
compare backlog-loops "${J}rw=write\nverify_backlog=4\nloops=3\n"
compare io-size "${J}rw=write\nio_size=512k\n"
compare io-size2 "${J}rw=write\nio_size=800k\n"
compare interval "${J}rw=write\nbs=8k\nverify_interval=1k\n"
# no random map: the log keeps each block's newest write (4m over 64 blocks writes them all)
compare norandommap "${J}rw=randwrite\nnorandommap=1\nio_size=4m\n"
compare norandommap-aio "${J}rw=randwrite\nnorandommap=1\nio_size=4m\nioengine=libaio\niodepth=4\n"
compare backlog-batch-aio "${J}rw=randwrite\nioengine=libaio\niodepth=4\nverify_backlog=8\nverify_backlog_batch=2\nloops=2\n"
compare meta "${J}rw=write\nverify=meta\nverify_pattern=0xaa55\nverify_interval=512\n"
compare two-phases '[global]\nfilename=f\nbs=64k\nverify=meta\nverify_pattern=0xaa555aa5\nverify_interval=512\n[w]\nrw=write\nsize=4m\ndo_verify=0\n[v]\nstonewall\nrw=read\nsize=4m\n'
compare zeroed '[w]\nfilename=f\nrw=write\nbs=4k\nsize=64k\ndirect=1\nverify=crc32c\ndo_verify=0\n[z]\nstonewall\nfilename=f\nrw=write\nbs=4k\noffset=12k\nnumber_ios=1\nzero_buffers=1\ndirect=1\n[v]\nstonewall\nfilename=f\nrw=read\nbs=4k\nsize=64k\ndirect=1\nverify=crc32c\n'
C='[w]\nfilename=f\nrw=write\nbs=4k\nsize=4k\ndirect=1\nverify=crc32c\nverify_interval=1k\ndo_verify=0\n[x]\nstonewall\nfilename=f\nrw=write:1536\nbs=512\noffset=512\nnumber_ios=2\ndirect=1\n[v]\nstonewall\nfilename=f\nrw=read\nbs=4k\nsize=4k\ndirect=1\nverify=crc32c\nverify_interval=1k\n'
compare chunks "$C"
compare chunks-fatal "${C}verify_fatal=1\n"
grep -q 'err=84' got || fail "chunks-fatal: no err=84"
exit 0
