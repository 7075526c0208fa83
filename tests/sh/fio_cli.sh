#!/bin/sh
# Description: `iosched fio`, fio 3.33's command line (issue 14, item 1),
# and the same binary called "fio" through a symlink. The same job as a
# file and as flags gives the same bytes; options before the first --name
# are global and reach every job; --section, --parse-only, --showcmd,
# --version, --output, --output-format=normal,json; and the refusals: a
# fio option iosched does not model is named, one fio does not have is
# "unrecognized"; the pre-run lines, terse (--minimal) and json+; --readonly;
# fio's fixup notes and --warnings-fatal.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/    /' err; exit 1; }
mkdir bin && ln -s "$BIN" bin/fio
FIO=$d/bin/fio

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

# the same job as a file and as flags: byte-identical reports
printf '[global]\nrw=randread\nbs=4k\nsize=256k\n[a]\n[b]\niodepth=4\n' >g.fio
"$BIN" fio g.fio >file.txt 2>err || fail "job file run"
"$BIN" fio --rw=randread --bs=4k --size=256k --name=a --name=b --iodepth=4 >flags.txt 2>err ||
	fail "flags run"
cmp -s file.txt flags.txt || fail "file and flags differ"
grep -q '^a: (groupid=0' flags.txt && grep -q '^b: (groupid=0' flags.txt || fail "jobs a, b missing"
# fio's pre-run lines: one per job, the version, the process count
[ "$(sed -n '1,4p' file.txt | cut -c1-40)" = "$(printf 'a: (g=0): rw=randread, bs=(R) 4096B-4096\nb: (g=0): rw=randread, bs=(R) 4096B-4096\nfio-3.33\nStarting 2 processes')" ] ||
	fail "pre-run lines: $(sed -n '1,4p' file.txt)"
grep -q '^a: (g=0): .*ioengine=psync, iodepth=1$' file.txt && grep -q '^b: (g=0): .*iodepth=4$' file.txt ||
	fail "pre-run lines: engine and depth"
# after them iosched run's report for the same file, byte for byte
"$BIN" run g.fio >run.txt 2>err || fail "iosched run"
sed -n '/^$/,$p' file.txt >report.txt
cmp -s report.txt run.txt || fail "iosched fio and iosched run differ on one file"
# under the name fio, from PATH
PATH=$d/bin:$PATH fio --rw=randread --bs=4k --size=256k --name=a --name=b --iodepth=4 \
	>sym.txt 2>err || fail "run as fio"
cmp -s sym.txt flags.txt || fail "the fio symlink gives another report"

# globals before --name reach every job; options after a --name are that job's
"$BIN" fio --output-format=json --bs=8k --size=64k --name=a --name=b --iodepth=4 >j.txt 2>err ||
	fail "json run"
grep -A3 '"global options"' j.txt | grep -q '"bs" : "8k"' || fail "bs=8k is not global"
[ "$(grep -c '"iodepth" : "4"' j.txt)" -eq 1 ] || fail "iodepth=4 reached more than job b"
# --name=global: the options after it are global again, for the later jobs only
# (a: 15 blocks of 4k in 63k, as fio 3.33 does; the 16th would pass the end)
"$BIN" fio --size=63k --name=a --name=global --bs=3k --name=b >out 2>err || fail "--name=global"
[ "$(grep -o 'issued rwts: total=[0-9]*' out | tr '\n' ' ')" = \
	"issued rwts: total=15 issued rwts: total=21 " ] || fail "--name=global: a 4k, b 3k blocks"
expect 1 "<command line>:5: option 'bs=3x'" --name=a --size=64k --rw=randread --name=global --bs=3x --name=b
# the command-line jobs, then the first job file with no stonewall between
# them (one group), then a later file after an implicit stonewall
printf '[s]\nsize=64k\n' >one.fio
"$BIN" fio --name=x --size=64k - g.fio <one.fio >out 2>err || fail "flags + stdin + file"
[ "$(grep -o '^[a-z]*: (groupid=[0-9]*' out | tr '\n' ' ')" = \
	"x: (groupid=0 s: (groupid=0 a: (groupid=1 b: (groupid=1 " ] || fail "groups: $(grep groupid out)"

# --section: only the named job sections run ([global] always applies)
printf '[global]\nsize=64k\n[a]\nrw=read\n[b]\nrw=write\n' >s.fio
"$BIN" fio --section=b s.fio >out 2>err || fail "--section"
grep -q '^b: (groupid' out || fail "--section=b did not run b"
grep -q '^a: (groupid' out && fail "--section=b ran a"
"$BIN" fio --section=a --section=b s.fio >out 2>err || fail "--section twice"
[ "$(grep -c ': (groupid' out)" -eq 2 ] || fail "--section=a --section=b: not both"
# fio's order rule for command-line jobs: a --section given before a --name
# skips that job, and the skipped job's options become global (as fio does)
"$BIN" fio --output-format=json --section=b --name=a --size=64k --name=b --rw=write >out 2>err ||
	fail "--section with command-line jobs"
[ "$(grep -c '"jobname"' out)" -eq 1 ] && grep -q '"jobname" : "b"' out || fail "--section=b: not b alone"
grep -A2 '"global options"' out | grep -q '"size" : "64k"' || fail "skipped job's size is not global"

# --parse-only: exit 0, nothing run or written; an error is still found
"$BIN" fio --parse-only --output=rep.txt s.fio >out 2>err || fail "--parse-only"
[ -s out ] && fail "--parse-only printed a report"
[ -e rep.txt ] && fail "--parse-only wrote --output"
expect 1 "<command line>:3: option 'bs=4x'" --parse-only --name=a --bs=4x

# --showcmd: the job file as fio's command line
"$BIN" fio --showcmd g.fio >out 2>err || fail "--showcmd"
[ "$(cat out)" = "fio --rw=randread --bs=4k --size=256k --name=a --name=b --iodepth=4 " ] ||
	fail "--showcmd printed '$(cat out)'"
printf '[global]\nblocksize=4k\n[a]\nreadwrite=read\ntime_based\n[global]\nbs=8k\n[b]\n' >al.fio
"$BIN" fio --showcmd --iodepth=2 al.fio >out 2>err || fail "--showcmd aliases"
[ "$(cat out)" = "fio --iodepth=2 --bs=4k --name=a --rw=read --time_based --iodepth=2 --bs=4k --bs=8k --name=b " ] ||
	fail "--showcmd (aliases, second [global]) printed '$(cat out)'"
"$BIN" fio --showcmd --section=b s.fio >out 2>err || fail "--showcmd --section"
[ "$(cat out)" = "fio --size=64k --name=b --rw=write " ] || fail "--showcmd --section: '$(cat out)'"

# --version, stdin, --output, both formats
[ "$("$FIO" --version)" = "fio-3.33 (iosched $("$BIN" --version | sed 's/^iosched //'))" ] ||
	fail "--version: '$("$FIO" --version)'"
"$FIO" - <g.fio >stdin.txt 2>err || fail "job file on stdin"
cmp -s stdin.txt file.txt || fail "stdin job differs from the file"
"$FIO" --output=rep.txt g.fio >out 2>err || fail "--output"
cmp -s rep.txt file.txt || fail "--output differs"
"$FIO" --output-format=normal,json g.fio >both.txt 2>err || fail "normal,json"
# fio's order: the pre-run lines (the count, then the layout lines), the
# JSON, a blank line, the normal report
[ "$(sed -n '/^Starting/,$p' both.txt | grep -v ': Laying out IO file' | sed -n 2p)" = "{" ] || fail "normal,json: json does not follow the pre-run lines (as in fio)"
[ "$(sed -n '/^}$/{n;p;n;p;q}' both.txt | tr '\n' '|')" = "|a: (groupid=0, jobs=1): err= 0: pid=1000: Thu Jan  1 00:00:00 1970|" ] ||
	fail "normal,json: one blank line, then the normal report"
# terse: --minimal (no pre-run lines), --terse-version, json+ with its bins
"$FIO" --minimal g.fio >t.txt 2>err || fail "--minimal"
[ "$(cut -d';' -f1-4 t.txt | tr '\n' ' ')" = "3;fio-3.33;a;0 3;fio-3.33;b;0 " ] || fail "--minimal: $(cut -c1-40 t.txt)"
"$FIO" --output-format=terse --terse-version=5 g.fio >t.txt 2>err || fail "--terse-version=5"
[ "$(cut -d';' -f1 t.txt | sort -u)" = "5" ] || fail "--terse-version=5: $(cut -c1-20 t.txt)"
"$FIO" --output-format=json+ g.fio >jp.txt 2>err || fail "json+"
grep -q '"bins" : {' jp.txt || fail "json+: no bins"
"$FIO" --cmdhelp=blocksize >out 2>err || fail "--cmdhelp"
grep -q 'bs: ' out && grep -q 'alias: blocksize' out || fail "--cmdhelp=blocksize: $(cat out)"
"$FIO" --enghelp >out 2>err && grep -q 'libaio' out || fail "--enghelp"
# the lab's options beside fio's
"$BIN" fio --scheduler=deadline --seed 3 g.fio >dl.txt 2>err || fail "--scheduler"
grep -q 'Scheduler stats (deadline)' dl.txt || fail "--scheduler=deadline not used"

# refusals
expect 1 "unrecognized option '--nosuch=1'" --name=a --nosuch=1
expect 1 "<command line>:2: fio option 'trim_backlog' is not modelled by iosched" --name=a --trim_backlog=8
expect 1 "--debug: a fio option that iosched does not model" --debug=io g.fio
expect 1 "--latency-log is deprecated. Use per-job latency log options" --latency-log g.fio
expect 1 "--output-format=xml: invalid output format" --output-format=xml g.fio
expect 1 "--terse-version=6:" --terse-version=6 g.fio
expect 1 "--status-interval=500us: status interval too small" --status-interval=500us g.fio
expect 1 "--status-interval=2x: failed parsing time" --status-interval=2x g.fio
expect 1 "can't use global as only section" --section=global g.fio
expect 1 "<command line>:2: option 'bs=': empty value" --name=a --bs=
expect 1 "no job given" --seed=1
expect 1 "no job(s) defined" --rw=read --size=1m
"$BIN" fio --parse-only >out 2>err || fail "--parse-only alone: exit $? (fio: 0)"

# --readonly: a job that writes or trims is refused while parsing, as fio's
# rw_verify refuses it (so --parse-only fails too); a reading job runs; a
# read_iolog replays its reads only, and says it skipped the writes
expect 1 "<command line>:2: job <w> writes or trims (rw=write), but the run is read-only (read_only, the --readonly option)" \
	--readonly --name=w --rw=write --size=1m
expect 1 "job <t> writes or trims (rw=randtrim)" --readonly --parse-only --name=t --rw=randtrim --size=1m
printf '[global]\nsize=1m\n[r]\nrw=read\n[w]\nrw=randrw\n' >ro.fio
expect 1 "ro.fio:5: job <w> writes or trims (rw=randrw)" --readonly ro.fio
"$BIN" fio --readonly --section=r ro.fio --output-format=json >ro.json 2>err || fail "--readonly, a reader"
tr -d ' \n' <ro.json | grep -q '"read":{"io_bytes":1048576' || fail "--readonly reader: not 1 MiB read"
printf 'fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb read 0 4096\n/dev/sdb write 8192 4096\n/dev/sdb read 4096 4096\n/dev/sdb write 16384 8192\n/dev/sdb close\n' >rw.iolog
"$BIN" fio --readonly --name=rp --read_iolog=rw.iolog --output-format=json >rp.json 2>err || fail "--readonly read_iolog"
# a note of the lab's (fio says nothing): in the JSON's iosched.notes, not on stderr
grep -q "rp: skips replay of 2 writes due to read-only" rp.json || fail "--readonly read_iolog: no note of the skipped writes"
[ -s err ] && fail "--readonly read_iolog: stderr is not empty"
tr -d ' \n' <rp.json | grep -q '"read":{"io_bytes":8192' || fail "--readonly read_iolog: reads not replayed"
tr -d ' \n' <rp.json | grep -q '"write":{"io_bytes":0,' || fail "--readonly read_iolog: writes replayed"
"$BIN" fio --name=rp --read_iolog=rw.iolog --output-format=json >rp2.json 2>err || fail "read_iolog"
tr -d ' \n' <rp2.json | grep -q '"write":{"io_bytes":12288,' || fail "read_iolog without --readonly: writes not replayed"
# fio's fixup_options notes: blockalign other than the block size turns a
# random job's map off (and says so; not for a sequential job, nor when it
# is the block size); with --warnings-fatal such a note refuses the run
"$BIN" fio --name=x --rw=randread --bs=4k --blockalign=512 --size=1m >out 2>err || fail "blockalign"
grep -q "job 'x': fio: Any use of blockalign= turns off randommap" err || fail "no blockalign note"
for a in "--rw=read --bs=4k --blockalign=512" "--rw=randread --bs=4k --blockalign=4k"; do
	"$BIN" fio --name=x $a --size=1m >out 2>err || fail "blockalign: $a"
	grep -q "blockalign" err && fail "a blockalign note for $a"
done
expect 1 "fio: Any use of blockalign= turns off randommap (a parser warning: fatal with --warnings-fatal)" \
	--warnings-fatal --name=x --rw=randread --bs=4k --blockalign=512 --size=1m
expect 1 "time_based requires a runtime/timeout setting" --warnings-fatal --name=x --time_based --size=1m
"$BIN" fio --warnings-fatal --name=x --rw=randread --size=1m >out 2>err || fail "--warnings-fatal, no warning"
# the ETA options are checked as fio checks them and noted; --max-jobs,
# which fio 3.33 ignores, is noted too: the notes at the end of the report
# (fio prints nothing for them), stderr empty
expect_out() {
	needle=$1; shift
	"$BIN" fio "$@" >out 2>err || fail "'fio $*': exit $?"
	tail -n 3 out | grep -qF -- "iosched: note: $needle" || fail "'fio $*': the report lacks '$needle'"
	[ -s err ] && fail "'fio $*': stderr is not empty"
	return 0
}
expect_out "--eta-newline: a simulation prints no ETA line" --eta-newline=2 --name=x --size=64k
expect 1 "--eta-newline=500us: eta new line time too short" --eta-newline=500us --name=x --size=64k
expect 1 "--eta-interval=100ms: eta interval time too short (250msec min" --eta-interval=100ms --name=x --size=64k
expect_out "--eta-interval" --eta-interval=1s --name=x --size=64k
expect_out "--max-jobs=8: fio 3.33 ignores it" --max-jobs=8 --name=x --size=64k

# fio's "Laying out IO file" lines (setup_files): one per clone that first
# opens files the directory did not have, as fio 3.33 prints them; none for
# /dev/ or lab.file_size's pre-existing files, none in JSON
lay() { # ARGS...: the layout lines of `iosched fio ARGS` (fresh directory)
	rm -rf lay && mkdir lay && "$BIN" fio --directory=lay "$@" 2>err | grep 'Laying out'
}
[ "$(lay --name=r --rw=read --size=4m --bs=4k)" = "r: Laying out IO file (1 file / 4MiB)" ] ||
	fail "layout, one file: $(lay --name=r --rw=read --size=4m --bs=4k)"
[ "$(lay --name=w --rw=randwrite --size=4m --bs=4k --numjobs=2)" = "$(printf 'w: Laying out IO file (1 file / 4MiB)\nw: Laying out IO file (1 file / 4MiB)')" ] ||
	fail "layout, two clones"
[ "$(lay --name=r --rw=randread --size=8m --bs=4k --nrfiles=2)" = "r: Laying out IO files (2 files / total 8MiB)" ] ||
	fail "layout, two files"
[ "$(lay --name=r --rw=read --size=512k --bs=4k)" = "r: Laying out IO file (1 file / 0MiB)" ] ||
	fail "layout, under a MiB"
[ "$(lay --name=r --rw=read --size=4m --bs=4k --filename=x --numjobs=2)" = "r: Laying out IO file (1 file / 4MiB)" ] ||
	fail "layout, a shared file is laid out once"
[ -z "$(lay --name=r --rw=read --size=4m --bs=4k --output-format=json)" ] || fail "layout lines in JSON"
[ -z "$("$BIN" fio --name=d --rw=read --size=4m --bs=4k --filename=/dev/sdb 2>err | grep 'Laying out')" ] ||
	fail "layout line for a device"
# the same command lines under the real fio, when it is installed, give the same lines
if command -v fio >/dev/null 2>&1 && fio --version 2>/dev/null | grep -q '^fio-3.33$'; then
	for a in "--name=r --rw=read --size=4m --bs=4k" "--name=r --rw=randread --size=8m --bs=4k --nrfiles=2" \
		"--name=w --rw=write --size=2m --bs=64k --numjobs=2"; do
		rm -rf real && mkdir real
		# shellcheck disable=SC2086
		want=$(cd real && fio --directory=. $a 2>/dev/null | grep 'Laying out')
		# shellcheck disable=SC2086
		got=$(lay $a)
		[ "$got" = "$want" ] || fail "layout lines for '$a': ours '$got', fio's '$want'"
	done
fi
exit 0
