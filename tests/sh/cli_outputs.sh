#!/bin/sh
# Description: no command writes over its own input or writes two outputs
# into one file (issue 12, item 6): --output, --plot, --trace NAME (its
# NAME.blktrace.0), the write_*_log files and repro's --output-dir report
# are checked against the job files, their includes, the replayed trace
# and each other before anything is opened for writing; the message names
# both. Same file means same device and inode (a hard link, "./x") or, for
# a file not made yet, the same resolved name. The inputs are left intact.
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
