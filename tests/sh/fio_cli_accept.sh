#!/bin/sh
# Description: issue 32 items 1-3 under `iosched fio`. fio 3.33's sync
# section (fsync/fdatasync latency with percentiles, text and JSON); notes
# for what fio itself prints nothing about go into the report (a notes line
# at the end of the text, iosched.notes in JSON), not to stderr, while
# `iosched run` keeps them on stderr; the options fio 3.33 accepts that were
# refused (disk_util, force_async, --idle-prof, --aux-path, ioengine=aio,
# size=N%); options of later fio releases refused naming the release; the
# capacity message; one version string ("fio-3.33") in JSON and terse.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/    /' err; exit 1; }

# expect STATUS NEEDLE ARGS...: `iosched fio ARGS` exits STATUS, NEEDLE on stderr
expect() {
	want=$1 needle=$2; shift 2
	"$BIN" fio "$@" >out 2>err
	st=$?
	[ "$st" -eq "$want" ] || fail "'fio $*': exit $st, want $want"
	grep -qF -- "$needle" err || fail "'fio $*': stderr lacks '$needle'"
	grep -q 'Sanitizer' err && fail "'fio $*': crashed"
	return 0
}
# quiet ARGS...: `iosched fio ARGS` exits 0 with nothing on stderr
quiet() {
	"$BIN" fio "$@" >out 2>err || fail "'fio $*': exit $?"
	[ -s err ] && fail "'fio $*': stderr is not empty"
	return 0
}

# --- item 1: the sync section, as fio 3.33 prints it (the etcd disk check) ---
etcd="--name=t --filename=/tmp/x --size=256k --bs=2300 --rw=write --ioengine=sync --fdatasync=1"
# shellcheck disable=SC2086
quiet $etcd
grep -q '^  fsync/fdatasync/sync_file_range:$' out || fail "no sync section"
grep -q '^    sync (usec): min=[0-9]*, max=' out || fail "no sync latency line"
grep -q '^    sync percentiles (usec):$' out || fail "no sync percentiles"
# shellcheck disable=SC2086
quiet $etcd --output-format=json
tr -d ' \n' <out >flat
grep -q '"sync":{"total_ios":[1-9][0-9]*,"lat_ns":{"min":[0-9]*,"max":[0-9]*,"mean":[0-9.]*,"stddev":[0-9.]*,"N":[1-9][0-9]*,"percentile":{"1.000000":[0-9]*,' flat ||
	fail "json sync object: $(grep -o '"sync":{[^}]*' flat)"
grep -q '"99.000000":[1-9]' flat || fail "json sync p99"
# as in fio: with clat_percentiles=0 the JSON has none, the text has them still
# shellcheck disable=SC2086
quiet $etcd --clat_percentiles=0 --output-format=json,normal
grep -q '^    sync percentiles (usec):$' out || fail "text sync percentiles with clat_percentiles=0"
tr -d ' \n' <out | grep -q '"N":[0-9]*,"percentile"' && fail "json percentiles with clat_percentiles=0"
# every engine that syncs: libaio with fsync=
quiet --name=t --size=256k --bs=4k --rw=write --ioengine=libaio --iodepth=4 --fsync=8
grep -q '^    sync percentiles' out || fail "libaio fsync: no sync percentiles"
# a job that never syncs prints no sync section, and an empty one in JSON
quiet --name=t --size=64k --rw=write --output-format=json,normal
grep -q 'fsync/fdatasync' out && fail "sync section without a sync"
tr -d ' \n' <out | grep -q '"sync":{"total_ios":0,"lat_ns":{"min":0,"max":0,"mean":0.000000,"stddev":0.000000,"N":0}}' ||
	fail "empty sync object"

# --- item 2: the lab's notes into the report, stderr as fio leaves it ---
quiet --eta-newline=1 --name=t --size=64k --zero_buffers --refill_buffers
# the notes at the end, then a blank line and the "simulated" line (item 7)
tail -n 4 out | head -n 1 | grep -q '^iosched: note: --eta-newline: a simulation prints no ETA line$' ||
	fail "text: the eta note is not at the end"
tail -n 3 out | head -n 1 | grep -q "^iosched: note: <command line>:2: job 't': refill_buffers, zero_buffers: " ||
	fail "text: the buffer note is not the last note"
tail -n 1 out | grep -q '^iosched: simulated on ' || fail "text: the simulated line is not last"
quiet --eta-newline=1 --name=t --size=64k --zero_buffers --output-format=json
tr -d '\n' <out | sed 's/  */ /g' >flat
grep -q '"iosched" : {.*"notes" : \[ "--eta-newline: a simulation prints no ETA line", "<command line>:2: job .t.: zero_buffers: ' flat ||
	fail "json: iosched.notes"
# no notes: no key, no line
quiet --name=t --size=64k --output-format=json,normal
grep -q '"notes"\|iosched: note' out && fail "notes without a note"
# terse alone has no place: stderr keeps them
"$BIN" fio --name=t --size=64k --zero_buffers --minimal >out 2>err || fail "terse run"
grep -q 'iosched: note: .*zero_buffers' err || fail "terse: the note is lost"
# a parser warning fio prints (fixup_options) stays on stderr
"$BIN" fio --name=x --rw=randread --bs=4k --blockalign=512 --size=64k >out 2>err || fail "blockalign"
grep -q "fio: Any use of blockalign= turns off randommap" err || fail "fio's warning left stderr"
grep -q "blockalign" out && fail "fio's warning in the report"
# iosched run keeps its notes on stderr, and its report has none
printf '[t]\nsize=64k\nzero_buffers\n' >z.fio
"$BIN" run z.fio --output-format=json,normal >out 2>err || fail "iosched run"
grep -q 'zero_buffers' err || fail "iosched run: the note left stderr"
grep -q '"notes"\|iosched: note' out && fail "iosched run: notes in the report"

# --- item 3: what fio 3.33 accepts, accepted ---
# ioengine=aio and linuxaio are libaio, as fio 3.33's __load_ioengine makes them
for e in aio linuxaio; do
	quiet --name=t --size=64k --ioengine=$e --iodepth=4 --output-format=normal
	grep -q '^t: (g=0): .*ioengine=libaio, iodepth=4$' out || fail "ioengine=$e is not libaio"
done
# options of later fio releases: refused, naming the release (exit 1)
expect 1 "option 'sprandom' comes from fio-3.41, later than the fio 3.33" --name=t --size=64k --sprandom=1
expect 1 "option 'spr_op' comes from fio-3.41" --name=t --size=64k --spr_op=0.1
expect 1 "option 'spr_num_regions' comes from fio-3.41" --name=t --size=64k --spr_num_regions=50
expect 1 "option 'fdp' comes from fio-3.34" --name=t --size=64k --fdp=1
expect 1 "option 'fdp_pli_select' comes from fio-3.36" --name=t --size=64k --fdp_pli_select=random
expect 1 "option 'steadystate_check_interval' comes from fio-3.35" --name=t --size=64k --steadystate_check_interval=1s
expect 1 "option 'random_sequence_stride' comes from fio's development tree after fio-3.42" \
	--name=t --size=64k --random_sequence_stride=4
printf '[t]\nsize=64k\nfdp=1\n' >later.fio
expect 1 "later.fio:3: option 'fdp' comes from fio-3.34" later.fio
# one version string: fio's in JSON and terse, iosched's under "iosched"
quiet --name=t --size=64k --output-format=json,terse
grep -q '^3;fio-3.33;t;' out || fail "terse version"
grep -q '^  "fio version" : "fio-3.33",$' out || fail "json fio version"
tr -d '\n' <out | grep -q '"iosched" : {    "version" : "[0-9]' || fail "json iosched.version"
# --- item 3: what fio 3.33 accepts, accepted ---
# disk_util=0 in every job: no "Disk stats" section, no JSON disk_util array
quiet --name=t --size=64k --disk_util=0
grep -q '^Disk stats' out && fail "disk_util=0 printed disk stats"
quiet --name=t --size=64k --disk_util=1
grep -q '^Disk stats (read/write):$' out || fail "disk_util=1 lost disk stats"
quiet --name=t --size=64k --disk_util=0 --name=u --size=64k --disk_util=1
grep -q '^Disk stats' out || fail "one job with disk_util=1 keeps the section"
quiet --name=t --size=64k --disk_util=0 --output-format=json
grep -q '"disk_util" : \[' out && fail "disk_util=0 kept the JSON array"
expect 1 "option 'disk_util=2': out of range, allowed 0..1" --name=t --size=64k --disk_util=2
# force_async: io_uring's, noted in the report
quiet --name=t --size=64k --ioengine=io_uring --force_async=4
grep -q '^iosched: note: .*force_async: .*worker threads (force_async)' out || fail "force_async note"
quiet --name=t --size=64k --ioengine=io_uring --force_async=0
grep -q 'force_async' out && fail "force_async=0 noted"
expect 1 "option 'force_async=4': an option of ioengine io_uring" --name=t --size=64k --force_async=4
expect 1 "option 'force_async=x': not a whole number" --name=t --size=64k --ioengine=io_uring --force_async=x
expect 1 "option 'force_async=-1': not a whole number" --name=t --size=64k --ioengine=io_uring --force_async=-1
# fixedbufs, registerfiles: io_uring's, CPU-side, noted (bare is 1, 0 is off)
quiet --name=t --size=64k --ioengine=io_uring --fixedbufs --registerfiles=1
grep -q "^iosched: note: .*job 't': fixedbufs, registerfiles: .*registered buffers and files" out ||
	fail "fixedbufs/registerfiles note"
quiet --name=t --size=64k --ioengine=io_uring --fixedbufs=0
grep -q 'fixedbufs' out && fail "fixedbufs=0 noted"
expect 1 "option 'fixedbufs': an option of ioengine io_uring" --name=t --size=64k --fixedbufs
expect 1 "option 'registerfiles=x': not a whole number" --name=t --size=64k --ioengine=io_uring --registerfiles=x
# write_barrier: fio 3.33 marks the writes, no engine reads the mark: noted
quiet --name=t --size=64k --rw=write --write_barrier=16
grep -q "^iosched: note: .*job 't': write_barrier: fio 3.33 marks every Nth write" out ||
	fail "write_barrier note"
quiet --name=t --size=64k --rw=write --write_barrier=0
grep -q 'write_barrier' out && fail "write_barrier=0 noted"
expect 1 "option 'write_barrier=-1': not a whole number" --name=t --size=64k --write_barrier=-1
# the note of a job after one with a tiobench profile option is kept
quiet --name=a --size=64k --threads=2 --name=b --size=64k --rw=write --write_barrier=4
grep -q "job 'b': write_barrier" out || fail "write_barrier note after a profile note"
# --idle-prof, --aux-path: host-side, noted
quiet --name=t --size=64k --idle-prof=system
grep -q '^iosched: note: --idle-prof=system: ' out || fail "idle-prof note"
quiet --name=t --size=64k --idle-prof=percpu
expect 1 "--idle-prof=bogus: incorrect idle-prof option" --name=t --size=64k --idle-prof=bogus
expect 1 "--idle-prof=calibrate: measures the host CPU" --name=t --size=64k --idle-prof=calibrate
quiet --name=t --size=64k --aux-path=/nonexistent/aux
grep -q '^iosched: note: --aux-path=/nonexistent/aux: ' out || fail "aux-path note"
expect 1 "--aux-path: empty value" --name=t --size=64k --aux-path=
# size=100%% reads as 100% (fio looks at the first '%'), in a file and a flag
printf '[t]\nfilename=/dev/sdb\nsize=100%%%%\nruntime=1\ntime_based\nrw=randread\n' >pct.fio
grep -q '^size=100%%$' pct.fio || fail "test setup: %% in the job file"
quiet pct.fio
quiet --name=t --filename=/dev/sdb --size=100%% --rw=randread --runtime=1 --time_based
expect 1 "unexpected '%%' after the percentage" --name=t --filename=/dev/sdb --size=100%%%
# past the simulated disk's end: the message names the capacity tunable
expect 1 "set it with --set device.capacity=SIZE" --name=t --filename=/dev/sdb --size=2T
quiet --name=t --filename=/dev/sdb --size=2T --set device.capacity=4T --rw=randread --runtime=1 --time_based
# cmdprio_bssplit's fifth field (the priority hint) is fio-3.36's
expect 1 "a fifth field (the priority hint) comes from fio-3.36" --name=t --size=64k \
	--ioengine=libaio --cmdprio_bssplit=4k/50/1/3/0
quiet --name=t --size=64k --ioengine=libaio --cmdprio_bssplit=4k/50/1/3
# the device's own notes (cloud limits) go into the report, not stderr
quiet --name=t --size=64k --rw=randread --device cloud
grep -q '^iosched: note: sda (cloud): [0-9]* requests counted as' out || fail "cloud note not in report"
"$BIN" run --device cloud pct.fio >out 2>err || fail "run --device cloud"
grep -q 'sda (cloud): [0-9]* requests counted as' err || fail "iosched run: cloud note off stderr"
# --- item 7: a newcomer's first minutes ---
# the report's last line says, once, that the run was simulated, where, with which seed
quiet --name=t --size=64k --device ssd --seed 7
[ "$(grep -c '^iosched: simulated on' out)" -eq 1 ] || fail "fio: not one simulated line"
tail -n 1 out | grep -q '^iosched: simulated on ssd under cfq, seed 7: ' || fail "fio: simulated line"
"$BIN" run --device ssd --seed 7 pct.fio >out 2>err || fail "run pct.fio"
tail -n 1 out | grep -q '^iosched: simulated on ssd under cfq, seed 7: ' || fail "run: simulated line"
quiet --name=t --size=64k --output-format=json
grep -q 'simulated on' out && fail "a JSON report got the simulated line"
# an unambiguous prefix is the option, as fio's getopt_long_only() takes it
quiet --name=t --size=64k --ioengin=libaio
grep -q '^iosched: note: --ioengin: taken as --ioengine' out || fail "prefix note"
expect 1 "unrecognized option '--ioengnie=libaio' (did you mean '--ioengine'?)" --name=t --size=64k --ioengnie=libaio
expect 1 "option '--iodept=4' is ambiguous; possibilities: '--iodepth'" --name=t --size=64k --iodept=4
expect 1 "unrecognized option '--zzzzqqq=1'" --name=t --size=64k --zzzzqqq=1
grep -q 'did you mean' err && fail "a wild guess for --zzzzqqq"
exit 0
