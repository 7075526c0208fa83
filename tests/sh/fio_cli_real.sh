#!/bin/sh
# Description: `iosched fio` beside the real fio 3.33, where their outputs
# can be compared without running I/O: --showcmd prints the same command
# line for the same job files (with command-line globals, --section, a
# second [global], aliases and bare flags), and --parse-only and an
# option fio does not have exit alike. Skipped (77) without fio 3.33.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
command -v fio >/dev/null 2>&1 || exit 77
[ "$(fio --version 2>/dev/null)" = "fio-3.33" ] || exit 77
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

printf '[global]\nrw=randread\nbs=4k\n[a]\nsize=1m\n[b]\niodepth=4\n' >j.fio
printf '[global]\nrw=randread\n[a]\nsize=1m\ntime_based\n[global]\nbs=8k\n[b]\niodepth=4\n' >k.fio
printf '[global]\nblocksize=4k\n[a]\nreadwrite=read\n[global]\nbs=8k\n[b]\n' >al.fio
n=0
for args in "j.fio" "k.fio" "al.fio" "k.fio j.fio" "--section=b k.fio" "--iodepth=2 al.fio" \
	"--section=a --section=b k.fio" "--name=x --size=1m j.fio" "--bs 8k j.fio"; do
	# shellcheck disable=SC2086
	fio --showcmd $args >want 2>/dev/null
	# shellcheck disable=SC2086
	"$BIN" fio --showcmd $args >got 2>err || fail "iosched fio --showcmd $args: $(cat err)"
	cmp -s want got || fail "--showcmd $args: fio '$(cat want)', iosched '$(cat got)'"
	n=$((n + 1))
done
# exit statuses of --parse-only: a good job, an option fio does not have
for args in "j.fio" "--name=a --rw=read --size=1m" "--name=a --nosuch=1" "--direct j.fio" \
	"--rw=read" "" "--section=global j.fio" "--name=a --bs="; do
	# shellcheck disable=SC2086
	fio --parse-only $args >/dev/null 2>&1
	want=$?
	# shellcheck disable=SC2086
	"$BIN" fio --parse-only $args >/dev/null 2>&1
	got=$?
	[ "$want" -eq "$got" ] || fail "--parse-only $args: fio exit $want, iosched $got"
	n=$((n + 1))
done
# job order and groups of command-line jobs, stdin and a later file (fio runs
# them on small files here: 64 KiB per job, null engine where it can)
printf '[global]\nsize=64k\nioengine=null\n[a]\n[b]\n' >g.fio
printf '[s]\nsize=64k\nioengine=null\n' >one.fio
fio --minimal --name=x --size=64k --ioengine=null - g.fio <one.fio 2>/dev/null |
	cut -d';' -f3,4 | tr '\n' ' ' >want
"$BIN" fio --name=x --size=64k --ioengine=null - g.fio <one.fio 2>/dev/null |
	sed -n 's/^\([a-z]*\): (groupid=\([0-9]*\),.*/\1;\2/p' | tr '\n' ' ' >got
cmp -s want got || fail "jobs and groups: fio '$(cat want)', iosched '$(cat got)'"
n=$((n + 1))
echo "fio_cli_real: $n comparisons with fio 3.33 agree"
exit 0
