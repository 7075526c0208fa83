#!/bin/sh
# Description: zonemode=zbd on the conventional default disk (zones
# emulated, fio's init_zone_info) holds memory for the zones a run changes,
# not for every zone of the disk. With zonesize=4k the 500 GB hdd-2009 has
# 122 million zones; fio, and iosched before issue 28, allocated them all up
# front: 11.4 GB and 47 s to write 1 MiB, and "out of memory" (a 48 GB
# allocation) for zonesize=512. Each case here runs under a 256 MiB
# address-space limit (ulimit -v; the binary itself needs about 10 MiB) and
# 60 s of wall time, and must do its I/O: a sequential 1 MiB writer, random
# writers then random and sequential readers over the whole disk (the reads
# look for written zones across 122 million zones), and 512-byte zones.
# The sanitizer builds reserve terabytes of address space: skipped there.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
LIMIT_KB=262144
fail() { echo "FAIL: $*"; sed 's/^/  stderr: /' "$dir/err" | head -20; exit 1; }
if [ "${BUILD:-build}" != build ]; then
	echo "zbd_memory: skipped under $BUILD (ulimit -v and the sanitizers do not mix)"
	exit 0
fi
run() { # name, expected bytes written, bytes read (python check), job text
	printf '%b' "$4" >"$dir/$1.fio"
	(
		ulimit -v $LIMIT_KB || exit 99
		timeout 60 "$BIN" run "$dir/$1.fio" --output-format json >"$dir/$1.json" 2>"$dir/err"
	)
	rc=$?
	[ "$rc" -eq 99 ] && { echo "zbd_memory: skipped (ulimit -v refused)"; exit 0; }
	[ "$rc" -eq 124 ] && fail "$1: no end within 60 s"
	[ "$rc" -eq 0 ] || fail "$1: exit $rc under a ${LIMIT_KB} KiB address-space limit" \
		"(memory must follow the zones written, not the disk's zone count)"
	got=$(python3 -c "import json,sys
d=json.load(open(sys.argv[1]))
print(sum(j['write']['io_bytes'] for j in d['jobs']), sum(j['read']['io_bytes'] for j in d['jobs']))" \
		"$dir/$1.json")
	[ "$got" = "$2 $3" ] || fail "$1: wrote/read '$got' bytes, want '$2 $3'"
}
G='[global]\nfilename=/dev/sda\nzonemode=zbd\ndirect=1\n'
run seq4k 1048576 0 "$G"'zonesize=4k\n[w]\nrw=write\nbs=4k\nsize=1m\n'
run rand4k 1048576 2097152 "$G"'zonesize=4k\nbs=4k\nio_size=1m\n[w]\nrw=randwrite\nmax_open_zones=4\n[r]\nstonewall\nrw=randread\n[s]\nstonewall\nrw=read\n'
run zone512 65536 0 "$G"'zonesize=512\n[w]\nrw=write\nbs=512\nsize=64k\n'
echo "zbd_memory: 4 KiB and 512-byte zones on a 500 GB disk within ${LIMIT_KB} KiB of address space"
