#!/bin/sh
# Description: --real refuses a directory= its jobs cannot use before any
# file is made, naming the job file, line, job and option (issue 28, items
# 7f and 7g): a kernel interface (/proc, /sys) is not a file system's
# directory (it gave "a device of 0 bytes is too small for the raw
# layout"; fio fails to open the files with err=2), and a directory a
# writing job cannot write into is said with the job (it gave a "cannot
# create" naming only the file). A reading job may use a read-only one.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'chmod -R u+w "$d" 2>/dev/null; rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/    /' err; exit 1; }

expect() { # NEEDLE JOBFILE
	"$BIN" run --real "$2" >out 2>err
	st=$?
	[ "$st" -eq 2 ] || fail "$2: exit $st, want 2"
	grep -qF -- "$1" err || fail "$2: stderr lacks '$1'"
	[ -s out ] && fail "$2: ran"
	return 0
}

[ -d /proc/self ] || { echo "no /proc"; exit 77; }
# a build without liburing refuses every --real run before it reads directory=
printf '[p]\nrw=read\nsize=4k\n' >probe.fio
if "$BIN" run --real probe.fio 2>&1 | grep -q 'built without liburing'; then
	echo "SKIP: this iosched was built without liburing"
	exit 77
fi
printf '[global]\nsize=64k\n[w]\nrw=write\ndirectory=/proc\n' >proc.fio
expect "proc.fio:3: job 'w': directory=/proc: not a regular file system's directory (it is proc" proc.fio
printf '[r]\nrw=read\nsize=64k\ndirectory=/proc/self\n' >procr.fio
expect "procr.fio:1: job 'r': directory=/proc/self: not a regular file system's directory" procr.fio
if [ -d /sys/kernel ]; then
	printf '[w]\nrw=write\nsize=64k\ndirectory=/sys/kernel\n' >sys.fio
	expect "directory=/sys/kernel: not a regular file system's directory (it is sysfs" sys.fio
fi
# a directory without write permission: root writes anyway, so only as a user
if [ "$(id -u)" != 0 ]; then
	mkdir ro && chmod 555 ro
	printf '[w]\nrw=write\nsize=64k\ndirectory=ro\n' >ro.fio
	expect "ro.fio:1: job 'w': directory=ro: the job writes, and its files cannot be made or written there: Permission denied" ro.fio
	chmod 755 ro
	"$BIN" run --real ro.fio >/dev/null 2>err || fail "ro.fio once writable"
	chmod 555 ro
	printf '[r]\nrw=read\nsize=64k\ndirectory=ro\nfilename=w.0.0\n' >ror.fio
	"$BIN" run --real ror.fio >/dev/null 2>err || fail "a reader refused a read-only directory"
fi
echo ok
