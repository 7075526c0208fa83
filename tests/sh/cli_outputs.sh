#!/bin/sh
# Description: no command writes over its own input or writes two outputs
# into one file (issue 12, item 6): --output, --plot, --trace NAME (its
# NAME.blktrace.0), the write_*_log files and repro's --output-dir report
# are checked against the job files, their includes, the replayed trace
# and each other before anything is opened for writing; the message names
# both. Same file means same device and inode (a hard link, "./x") or, for
# a file not made yet, the same resolved name. The inputs are left intact.
# Also (issue 29): a blk-mq run under none, mq-deadline, kyber and bfq-6.12
# writes the normal, terse and JSON reports (blk_mq in the JSON only, the
# terse line as long as a legacy one), and compare takes the mq schedulers.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
top=$(pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f "$d/err" ] && sed 's/^/    /' "$d/err"; exit 1; }
printf '[j]\nrw=read\nsize=256k\n' >a.fio
printf '[j]\nrw=read\nsize=256k\ninclude inc.part\n' >b.fio
printf 'bs=4k\n' >inc.part
cp a.fio a.orig
cp inc.part inc.orig

# expect NEEDLE ARGS...: exit 2 with NEEDLE on stderr and nothing on stdout
expect() {
	needle=$1; shift
	"$BIN" "$@" >"$d/out" 2>"$d/err"
	st=$?
	[ "$st" -eq 2 ] || fail "'$*': exit $st, want 2"
	grep -qF -- "$needle" "$d/err" || fail "'$*': stderr lacks '$needle'"
	[ -s "$d/out" ] && fail "'$*': ran and printed a report"
	return 0
}

expect "--output 'a.fio' is the job file 'a.fio'" run a.fio --output a.fio
cmp -s a.fio a.orig || fail "run --output a.fio changed the job file"
expect "--output './a.fio' is the job file 'a.fio'" run a.fio --output ./a.fio
ln a.fio hard.fio
expect "--plot 'hard.fio' is the job file 'a.fio'" run a.fio --plot hard.fio
expect "--output 'inc.part' is the job file 'inc.part'" run b.fio --output inc.part
cmp -s inc.part inc.orig || fail "run --output over an include changed it"
expect "--output 'r.txt' and --plot 'r.txt' are the same file" run a.fio --output r.txt --plot r.txt
[ -e r.txt ] && fail "the refused run created r.txt"
mkdir sub
expect "--output 'sub/../r.txt' and --plot 'r.txt' are the same file" run a.fio --plot r.txt --output sub/../r.txt
expect "are the same file" compare a.fio --output c.txt --plot c.txt --schedulers noop
# write_bw_log= naming the job file's prefix: j_bw.1.log over the job file
printf '[j]\nrw=read\nsize=256k\nwrite_bw_log=j\n' >j_bw.1.log
cp j_bw.1.log log.orig
expect "write_bw_log of job 'j'" run j_bw.1.log
cmp -s j_bw.1.log log.orig || fail "the bw log overwrote the job file"
printf '[j]\nrw=read\nsize=256k\nwrite_bw_log=x\n' >logs.fio
expect "--output 'x_bw.1.log' and write_bw_log of job 'j'" run logs.fio --output x_bw.1.log
# write_iolog appends: over the report, the trace, the job file itself or
# a bw log it would interleave its lines with theirs
printf '[j]\nrw=read\nsize=256k\nwrite_iolog=out.txt\n' >wl.fio
expect "--output 'out.txt' and write_iolog of job 'j' (wl.fio:1) 'out.txt' are the same file" run wl.fio --output out.txt
[ -e out.txt ] && fail "the refused run created out.txt"
printf '[j]\nrw=read\nsize=256k\nwrite_iolog=tr.blktrace.0\n' >wt.fio
expect "--trace 'tr.blktrace.0' and write_iolog of job 'j'" run wt.fio --trace tr
printf '[j]\nrw=read\nsize=256k\nwrite_iolog=self.fio\n' >self.fio
cp self.fio self.orig
expect "write_iolog of job 'j' (self.fio:1) 'self.fio' is the job file 'self.fio'" run self.fio
cmp -s self.fio self.orig || fail "write_iolog appended to its own job file"
printf '[j]\nrw=read\nsize=256k\nwrite_iolog=x_bw.1.log\nwrite_bw_log=x\n' >wb.fio
expect "are the same file" run wb.fio
# an output that cannot be made is said before the run, not after the report
expect "--plot 'nodir/x.svg' cannot be created: 'nodir'" run a.fio --plot nodir/x.svg
expect "--output 'nodir/x' cannot be created: 'nodir'" run a.fio --output nodir/x
expect "--trace 'nodir/t.blktrace.0' cannot be created" run a.fio --trace nodir/t
expect "--output 'sub' is a directory" run a.fio --output sub
expect "--output 'a.fio/x' cannot be created: 'a.fio' is not a directory" compare a.fio --output a.fio/x --schedulers noop
# compare: every column would append its own log to the one file
printf '[j]\nrw=read\nsize=256k\nwrite_iolog=cmp.log\n' >cw.fio
expect "job 'j' sets write_iolog; the columns" compare cw.fio --schedulers noop,deadline
[ -e cmp.log ] && fail "the refused compare wrote cmp.log"
# logs of several jobs may share a file, as fio's do: not a clash
printf '[j]\nrw=read\nsize=256k\nwrite_bw_log=x\nper_job_logs=0\n[k]\nrw=read\nsize=256k\nwrite_bw_log=x\nper_job_logs=0\n' >shared.fio
"$BIN" run shared.fio >/dev/null 2>err || fail "two jobs logging into one file refused"

# replay: --trace X must not truncate the trace X being replayed
"$BIN" run a.fio --trace t >/dev/null 2>err || fail "run --trace t"
cp t.blktrace.0 t.orig
expect "--trace 't.blktrace.0' is the trace 't.blktrace.0'" replay t.blktrace.0 --trace t
expect "--trace 't.blktrace.0' is the trace 't.blktrace.0'" replay t --trace t
cmp -s t.blktrace.0 t.orig || fail "replay --trace truncated its input"
expect "--output 't.blktrace.0' is the trace" replay t --output t.blktrace.0
"$BIN" replay t --trace t2 --output rep.txt 2>err || fail "replay t --trace t2"
[ -s t2.blktrace.0 ] && [ -s rep.txt ] || fail "replay wrote no trace or report"

# a blk-mq run in each format (issue 29): the same report shapes as a legacy
# run's; the JSON adds iosched.blk_mq (queues, depths, the CPU map), the text
# and terse reports add nothing of their own (fio has no place for it)
printf '[r]\nrw=randread\nsize=4m\nbs=4k\ndirect=1\nioengine=libaio\niodepth=4\n' >mq.fio
for s in none mq-deadline kyber bfq-6.12; do
	"$BIN" run mq.fio --scheduler "$s" --device ssd-nvme --set lab.cpus=2 \
		--output-format json --output "mq-$s.json" 2>err || fail "run --scheduler $s json"
	grep -q '"nr_hw_queues" : 2,' "mq-$s.json" || fail "$s: JSON lacks blk_mq's 2 queues"
	grep -q '"hw_queue_depth" : 1023,' "mq-$s.json" || fail "$s: JSON lacks the depth"
	"$BIN" run mq.fio --scheduler "$s" --output-format terse --output "mq-$s.terse" 2>err ||
		fail "run --scheduler $s terse"
	"$BIN" run mq.fio --scheduler "$s" --output-format normal --output "mq-$s.txt" 2>err ||
		fail "run --scheduler $s normal"
	grep -q '^r: (groupid=0' "mq-$s.txt" || fail "$s: no fio job header in the normal output"
	grep -q 'blk_mq\|nr_hw_queues' "mq-$s.txt" "mq-$s.terse" && fail "$s: blk-mq fields outside the JSON"
done
"$BIN" run mq.fio --scheduler deadline --output-format terse --output legacy.terse 2>err || fail "deadline terse"
"$BIN" run mq.fio --scheduler deadline --output-format json --output legacy.json 2>err || fail "deadline json"
grep -q blk_mq legacy.json && fail "a legacy run's JSON has blk_mq"
n_legacy=$(awk -F';' '{ print NF }' legacy.terse)
n_mq=$(awk -F';' '{ print NF }' mq-kyber.terse)
[ "$n_legacy" = "$n_mq" ] || fail "terse: $n_mq fields under kyber, $n_legacy under deadline"
# compare with the blk-mq schedulers named, beside a legacy one: one column each
"$BIN" compare mq.fio --schedulers none,mq-deadline,kyber,bfq-6.12,deadline >cmp.txt 2>err ||
	fail "compare with the mq schedulers"
grep -q '^ *none  *mq-deadline  *kyber  *bfq-6.12  *deadline$' cmp.txt || fail "compare: columns"
"$BIN" compare mq.fio --schedulers kyber:read_lat_nsec=1000000,kyber >cmp2.txt 2>err ||
	fail "compare with a kyber tunable per column"

# cgroup v2 (blk-mq with groups): the text section and the JSON keys; an
# io.max riops group shows that rate and a throttle wait, its unlimited
# sibling none
cat >v2.fio <<'EOF2'
[global]
rw=randread
bs=4k
size=64m
runtime=1
time_based
[slow]
cgroup=slow
[fast]
cgroup=fast
EOF2
set -- --scheduler mq-deadline --device ssd-nvme --set "cgroup.slow.io.max=259:0 riops=200" v2.fio
"$BIN" run "$@" >v2.txt 2>err || fail "cgroup v2 run"
grep -q '^Cgroup v2 (mq-deadline' v2.txt || fail "cgroup v2: no text section"
grep -q 'set  : io.weight=100, io.max=rbps=max wbps=max riops=200 wiops=max' v2.txt ||
	fail "cgroup v2: settings line"
"$BIN" run --output-format=json "$@" >v2.json 2>err || fail "cgroup v2 json run"
if command -v python3 >/dev/null 2>&1; then
	python3 - v2.json <<'EOF2' || fail "cgroup v2: JSON keys or numbers"
import json, sys
d = json.load(open(sys.argv[1]))
g = {x["path"]: x for x in d["iosched"]["cgroup_v2"]["groups"]}
assert 190 <= g["slow"]["read"]["iops"] <= 210, g["slow"]["read"]
assert g["slow"]["settings"]["riops"] == 200
assert g["slow"]["waits"]["io_max"]["time_ns"] > 0
assert g["fast"]["waits"]["io_max"]["time_ns"] == 0
assert g["fast"]["read"]["iops"] > 1000
assert d["jobs"][0]["iosched"]["waits"]["io_max"]["count"] > 0
assert d["jobs"][1]["iosched"]["waits"]["io_max"]["count"] == 0
assert "clat_p99_ns" in g["slow"]["read"]
EOF2
fi

# repro (run from the top of the tree, where its seed jobs are): the report
# it writes under --output-dir, --output and the seed jobs are distinct
cd "$top" || exit 1
seed=$(ls examples/seeds/*.fio | head -n 1)
cp "$seed" "$d/seed.orig"
expect "the report (--output-dir) '$d/docs2/REPRODUCTION.md'" \
	repro --quick --output-dir "$d/docs2" --output "$d/docs2/REPRODUCTION.md"
[ -e "$d/docs2" ] && fail "repro made its output directory before refusing"
expect "--output '$seed' is the job file '$seed'" repro --quick --output "$seed" --output-dir "$d/docs3"
cmp -s "$seed" "$d/seed.orig" || fail "repro --output overwrote a seed job"
echo ok
