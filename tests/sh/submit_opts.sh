#!/bin/sh
# Description: fio 3.33's gtod_reduce, cmdprio and latency_target as the
# reports show them. gtod_reduce=1 (HOWTO: disable_lat, disable_clat,
# disable_slat, disable_bw_measurement) leaves the slat/clat/lat lines, the
# percentiles and the latency distribution out of the normal report and
# zeroes them in JSON and terse: with fio 3.33 installed, the job block has
# the same lines, the JSON the same keys and terse fields 10-41 the same
# bytes as fio's on the same null-engine job. cmdprio_percentage=20 gives
# about 20 % of the I/Os the realtime class (log_prio=1 lat log, 0x2000); the
# hdd with device.ncq_prio=1 serves them first (their mean latency well below
# the others'), without it the run says nothing honours them and the two
# means are alike. latency_target prints fio's "latency : target=..., depth="
# line with the depth found. Same inputs (offload at a Poisson rate too),
# same bytes.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f "$d/err" ] && sed 's/^/    /' "$d/err"; exit 1; }

# ---- gtod_reduce: the report's shape ----
printf '[global]\nbs=4k\ngtod_reduce=1\n[null]\nioengine=null\nsize=64m\nrw=randread\nnorandommap\n' >g.fio
"$BIN" fio g.fio >g.txt 2>err || fail "gtod_reduce run"
for bad in 'slat (' 'clat (' ' lat (' 'percentiles' 'lat (nsec)' 'lat (usec)'; do
	grep -qF "$bad" g.txt && fail "gtod_reduce: '$bad' printed"
done
grep -q "read: IOPS=" g.txt && grep -q "issued rwts: total=16384,0,0,0" g.txt &&
	grep -q "latency   : target=0, window=0, percentile=100.00%, depth=1" g.txt ||
	fail "gtod_reduce: the remaining lines"
"$BIN" fio --output-format=json g.fio >g.json 2>err || fail "gtod_reduce json"
"$BIN" fio --output-format=terse g.fio >g.t 2>err || fail "gtod_reduce terse"
[ "$(cut -d';' -f10-41 g.t)" = "0;0;0.000000;0.000000;0;0;0.000000;0.000000;$(printf '0%%=0;%.0s' $(seq 20))0;0;0.000000;0.000000" ] ||
	fail "terse: slat/clat/percentiles/lat not zero: $(cut -d';' -f10-41 g.t)"
if command -v jq >/dev/null 2>&1; then
	[ "$(jq '[.jobs[0].read | .slat_ns.N, .clat_ns.N, .lat_ns.N] | add' g.json)" = 0 ] ||
		fail "json: latency samples"
	jq -e '.jobs[0].read.clat_ns | has("percentile") | not' g.json >/dev/null ||
		fail "json: clat percentiles printed"
fi
shape() { sed -n '/groupid=/,/^Run status/p' "$1" | sed -E 's/[:=].*//; s/ +$//' | grep -v '^$'; }
if [ -x /usr/bin/fio ] && /usr/bin/fio --version 2>/dev/null | grep -q '^fio-3.33$'; then
	timeout -s KILL 30 /usr/bin/fio g.fio >f.txt 2>/dev/null || fail "fio g.fio"
	shape f.txt >f.shape
	shape g.txt >g.shape
	cmp -s f.shape g.shape || { diff f.shape g.shape; fail "gtod_reduce: report lines differ from fio's"; }
	timeout -s KILL 30 /usr/bin/fio --output-format=terse g.fio >f.t 2>/dev/null || fail "fio terse"
	[ "$(cut -d';' -f10-41 f.t)" = "$(cut -d';' -f10-41 g.t)" ] || fail "terse fields 10-41 differ from fio's"
	if command -v jq >/dev/null 2>&1; then
		timeout -s KILL 30 /usr/bin/fio --output-format=json g.fio >f.json 2>/dev/null
		keys='.jobs[0] | del(.["job options"]) | [paths(scalars) | map(tostring) | join(".")]'
		[ "$(jq -c "$keys" f.json)" = "$(jq -c "$keys" g.json)" ] || fail "json keys differ from fio's"
	fi
fi

# ---- cmdprio: the share of high-priority I/Os, and where they are honoured ----
cat >p.fio <<'EOF'
[randread]
filename=/dev/sda
direct=1
rw=randread
bs=4k
ioengine=libaio
iodepth=16
runtime=5
cmdprio_percentage=20
write_lat_log=prio
log_prio=1
EOF
means() { awk -F', ' '{ n[$5]++; s[$5] += $2 } END { printf "%d %d %.0f %.0f\n", n["0x2000"], n["0x0000"], s["0x2000"] / n["0x2000"], s["0x0000"] / n["0x0000"] }' prio_lat.1.log; }
"$BIN" fio --scheduler=noop --output=p.out p.fio 2>err || fail "cmdprio run"
# a note of the lab's: at the end of the report (fio prints nothing for it)
grep -q "cmdprio: the I/Os carry their own priority, but nothing here honours it" p.out ||
	fail "cmdprio: no note without ncq_prio"
set -- $(means)
[ $(( $1 * 100 / ($1 + $2) )) -ge 16 ] && [ $(( $1 * 100 / ($1 + $2) )) -le 24 ] ||
	fail "cmdprio_percentage=20: $1 of $(( $1 + $2 )) I/Os high"
[ $(( $3 * 10 )) -gt $(( $4 * 7 )) ] && [ $(( $3 * 7 )) -lt $(( $4 * 10 )) ] ||
	fail "not honoured, yet the means differ: high $3 ns, others $4 ns"
cp prio_lat.1.log first.log
"$BIN" fio --scheduler=noop --set device.ncq_prio=1 --output=/dev/null p.fio 2>err || fail "ncq_prio run"
grep -q "cmdprio" err && fail "ncq_prio=1: the note still printed"
set -- $(means)
[ $(( $3 * 3 )) -lt "$4" ] || fail "ncq_prio=1: high-priority mean $3 ns not well below $4 ns"
"$BIN" fio --scheduler=noop --output=/dev/null p.fio 2>/dev/null
cmp -s first.log prio_lat.1.log || fail "cmdprio: two runs differ"

# ---- latency_target: fio's latency line ----
printf '[l]\nfilename=/dev/sda\nrw=randread\ndirect=1\nioengine=libaio\niodepth=32\nruntime=30\nlatency_target=150ms\nlatency_window=500ms\nlatency_percentile=99\n' >l.fio
"$BIN" fio --scheduler=noop l.fio >l1.txt 2>err || fail "latency_target run"
grep -Eq "latency   : target=150000000, window=500000, percentile=99.00%, depth=([2-9]|[12][0-9]|3[01])$" l1.txt ||
	fail "latency line: $(grep 'latency   :' l1.txt)"
"$BIN" fio --scheduler=noop l.fio >l2.txt 2>/dev/null
cmp -s l1.txt l2.txt || fail "latency_target: two runs differ"

# ---- offload at a Poisson rate: the same bytes twice ----
printf '[o]\nfilename=/dev/sda\nrw=randread\ndirect=1\nioengine=libaio\niodepth=8\nio_submit_mode=offload\nrate_iops=100\nrate_process=poisson\nruntime=3\n' >o.fio
"$BIN" fio --output-format=json o.fio >o1.json 2>err || fail "offload run"
"$BIN" fio --output-format=json o.fio >o2.json 2>/dev/null
cmp -s o1.json o2.json || fail "offload: two runs differ"
exit 0
