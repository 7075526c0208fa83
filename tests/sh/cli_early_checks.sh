#!/bin/sh
# Description: input errors exit 2 and outputs are checked before anything
# runs (issue 28, items 6 and 7e). A job file with no job is refused with
# exit 2 by run and compare (iosched fio keeps fio 3.33's exit 1 and "No
# job(s) defined"); repro checks --output and --output-dir (a directory it
# can make with one mkdir, or a writable one) before its experiments run,
# not after them; after "--" every argument is a job file, one whose name
# starts with "-" included, for fio (getopt's rule) and run.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
top=$(pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f "$d/err" ] && sed 's/^/    /' "$d/err"; exit 1; }

# expect STATUS NEEDLE ARGS...: exit STATUS, NEEDLE on stderr, no report
expect() {
	want=$1 needle=$2; shift 2
	"$BIN" "$@" >"$d/out" 2>"$d/err"
	st=$?
	[ "$st" -eq "$want" ] || fail "'$*': exit $st, want $want"
	grep -qF -- "$needle" "$d/err" || fail "'$*': stderr lacks '$needle'"
	grep -q 'Sanitizer' "$d/err" && fail "'$*': crashed"
	[ -s "$d/out" ] && fail "'$*': printed a report"
	return 0
}

# 6a: no jobs
printf '[global]\nbs=4k\n' >nojobs.fio
printf '; only a comment\n' >empty.fio
for f in nojobs.fio empty.fio; do
	expect 2 "no jobs to run" run "$f"
	expect 2 "no jobs to run" compare "$f" --schedulers noop
	# fio 3.33 prints "No job(s) defined" and its usage, and exits 1
	expect 1 "no job(s) defined" fio "$f"
done

# 7e: after "--", "-weird.fio" is a job file, not the option --weird.fio
printf '[weird]\nrw=read\nsize=64k\n' >./-weird.fio
"$BIN" fio -- -weird.fio >out 2>err || fail "fio -- -weird.fio: exit $?"
grep -q '^weird: (groupid=0' out || fail "fio -- -weird.fio ran no job 'weird'"
[ -e ./--weird.fio ] && fail "fio -- -weird.fio made --weird.fio"
"$BIN" run -- -weird.fio >out 2>err || fail "run -- -weird.fio: exit $?"
grep -q '^weird: (groupid=0' out || fail "run -- -weird.fio ran no job 'weird'"
# before "--" it is still an option, as fio's getopt_long_only() reads it
expect 1 "weird.fio" fio -weird.fio

# 6b: repro's outputs, checked before its experiments run (from the top of
# the tree, where its seed jobs are); each refusal takes well under the
# seconds one experiment takes, and leaves nothing behind
cd "$top" || exit 1
exp=$(ls examples/seeds/*.fio | head -n 1)
exp=$(basename "$exp" .fio)
exp=${exp%%-*}
# A refusal within 15 s of wall time: `repro --quick` runs every experiment
# (a1 alone takes 3 s of CPU), and a refusal takes 0.2 s idle but 2 s under ASan on a loaded
# 2-core machine (every syscall waits for a CPU), so 15 s still tells
# "refused first" from "ran, then refused" without a busy neighbour failing it.
quick() { # STATUS NEEDLE ARGS...
	t0=$(date +%s)
	expect "$@"
	[ $(($(date +%s) - t0)) -le 15 ] || fail "'$*' took over 15 s (the bound) to refuse"
}
quick 2 "--output-dir '$d/no/dir' cannot be created: '$d/no'" repro --quick --output-dir "$d/no/dir"
[ -e "$d/no" ] && fail "repro made a directory it then refused"
quick 2 "--output '$d/no/x.txt' cannot be created" repro --quick --output "$d/no/x.txt" --output-dir "$d/r1"
[ -e "$d/r1" ] && fail "repro made --output-dir before refusing --output"
quick 2 "--output-dir '$d/nojobs.fio' is not a directory" repro --quick --output-dir "$d/nojobs.fio"
mkdir "$d/r2" "$d/r2/REPRODUCTION.md"
quick 2 "the report (--output-dir) '$d/r2/REPRODUCTION.md' is a directory" repro --quick --output-dir "$d/r2"
# json writes no files: --output-dir is not looked at, --output is
quick 2 "--output '$d/no/x.json' cannot be created" repro --quick --output-format json --output-dir "$d/no/dir" --output "$d/no/x.json"
if [ "$(id -u)" = 0 ] && [ -d /proc/self ]; then
	# root passes access(): the directory is made and taken away to know
	quick 2 "--output-dir '/proc/iosched-x' cannot be created (mkdir failed" repro --quick --output-dir /proc/iosched-x
	quick 2 "--output '/proc/iosched-x' cannot be created (creating it failed" run "$d/-weird.fio" --output /proc/iosched-x
fi
# one experiment still runs and writes its report into a directory made for it
"$BIN" repro "$exp" --quick --output-dir "$d/r3" >"$d/out" 2>"$d/err" || fail "repro $exp --quick: exit $?"
[ -s "$d/r3/REPRODUCTION.md" ] || fail "repro wrote no report"
echo ok
