#!/bin/sh
# Description: `iosched sweep parallel` on a 6-task grid: the printed line
# is `seq 0 5 | parallel [--jobs N] [--sshlogin HOSTS] BIN sweep run DIR
# --task {}` with absolute paths; --run execs GNU parallel, whose merged
# result is byte-identical to the same grid run one task at a time and
# merged; a rerun after a partial sweep leaves the done tasks' results
# untouched (sweep run skips them) and runs only the rest, also through
# parallel's --sshlogin ':' (this machine by parallel's remote path); a
# failing task makes --run exit non-zero (parallel's status passed
# through). Bad input: an unknown flag, a DIR that is not a plan, --jobs 0
# and x, an --sshlogin with a blank, --run without parallel in PATH. Skips
# (77) without GNU parallel after the parts that do not need it.
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$PWD
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cp "$ROOT/tests/jobs/0001-deadline-read-write.job" "$T/rw.fio" 2>/dev/null ||
	fail "no tests/jobs/0001-deadline-read-write.job (run from the repository root)"
cat >"$T/grid" <<'GRID'
job = rw.fio
schedulers = deadline, cfq:slice_idle=0, noop
seeds = 1-2
GRID
"$BIN" sweep plan "$T/grid" -o "$T/a" >/dev/null || fail "plan"
cp -r "$T/a" "$T/serial"
cp -r "$T/a" "$T/ssh"
cp -r "$T/a" "$T/bad"
A=$(cd "$T/a" && pwd -P)

bad() { # what expected-text args...
	what=$1; want=$2; shift 2
	"$BIN" sweep parallel "$@" >"$T/out" 2>&1 && fail "$what accepted"
	grep -q -- "$want" "$T/out" || { cat "$T/out"; fail "$what: no '$want'"; }
}
bad "an unknown flag" "unknown option '--nosuch'" "$T/a" --nosuch
bad "a DIR that is not a plan" "not a sweep directory" "$T"
bad "no DIR" "give the sweep's DIR"
bad "--jobs 0" "jobs=0: .*from 1 to 100000" "$T/a" --jobs 0
bad "--jobs x" "jobs=x" "$T/a" --jobs x
bad "--sshlogin 'a b'" "no blanks or quotes" "$T/a" --sshlogin "a b"
mkdir "$T/nobin"
PATH="$T/nobin" "$BIN" sweep parallel "$T/a" --run >"$T/out" 2>&1 && fail "--run without parallel"
grep -q "parallel is not in PATH" "$T/out" || { cat "$T/out"; fail "--run without parallel: message"; }

# the printed line
"$BIN" sweep parallel "$T/a" >"$T/out" || fail "print"
[ "$(cat "$T/out")" = "seq 0 5 | parallel $BIN sweep run $A --task '{}'" ] || { cat "$T/out"; fail "the line"; }
"$BIN" sweep parallel "$T/a" --jobs 3 --sshlogin 2/h1,h2 >"$T/out" || fail "print with hosts"
[ "$(cat "$T/out")" = "seq 0 5 | parallel --jobs 3 --sshlogin 2/h1,h2 $BIN sweep run $A --task '{}'" ] ||
	{ cat "$T/out"; fail "the line with --jobs and --sshlogin"; }

# serial reference
for k in 0 1 2 3 4 5; do
	"$BIN" sweep run "$T/serial" --task $k 2>/dev/null || fail "serial task $k"
done
"$BIN" sweep merge "$T/serial" >"$T/serial.txt" || fail "serial merge"
"$BIN" sweep merge "$T/serial" --output-format json >"$T/serial.json" || fail "serial merge json"

if ! command -v parallel >/dev/null 2>&1 || ! parallel --version 2>/dev/null | grep -q '^GNU parallel'; then
	echo "SKIP: GNU parallel is not installed (Debian package 'parallel'); the other parts passed"
	exit 77
fi
# the printed line, run by sh, does the sweep
sh -c "$(cat "$T/out" | sed 's/--sshlogin 2\/h1,h2 //')" 2>"$T/err" || { cat "$T/err"; fail "the printed line"; }
"$BIN" sweep merge "$T/a" >"$T/printed.txt" || fail "merge of the printed line's run"
cmp "$T/serial.txt" "$T/printed.txt" || fail "printed line's merge differs from serial"

# --run, from a partial sweep: tasks 1 and 4 done before, left as they were
rm -rf "$T/a" && cp -r "$T/ssh" "$T/a"
for k in 1 4; do
	"$BIN" sweep run "$T/a" --task $k 2>/dev/null || fail "task $k before --run"
	touch -d 2001-01-01 "$T/a/results/$k.json"
done
"$BIN" sweep parallel "$T/a" --jobs 2 --run >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "--run"; }
[ "$(grep -c 'done, skipped' "$T/err")" = 2 ] || { cat "$T/err"; fail "--run: not exactly the 2 done tasks skipped"; }
for k in 1 4; do
	[ "$(stat -c %Y "$T/a/results/$k.json")" = "$(date -d 2001-01-01 +%s)" ] || fail "done task $k rerun"
done
"$BIN" sweep merge "$T/a" >"$T/par.txt" || fail "--run merge"
"$BIN" sweep merge "$T/a" --output-format json >"$T/par.json" || fail "--run merge json"
cmp "$T/serial.txt" "$T/par.txt" || fail "--run's merge differs from serial"
cmp "$T/serial.json" "$T/par.json" || fail "--run's JSON merge differs from serial"

# --sshlogin ':' is this machine through parallel's sshlogin path
"$BIN" sweep parallel "$T/ssh" --sshlogin : --run 2>"$T/err" || { cat "$T/err"; fail "--sshlogin : --run"; }
"$BIN" sweep merge "$T/ssh" >"$T/ssh.txt" || fail "--sshlogin merge"
cmp "$T/serial.txt" "$T/ssh.txt" || fail "--sshlogin's merge differs from serial"

# a failing task (its input changed after the plan): parallel's status, 1 failed job
sha=$(sha256sum <"$T/rw.fio" | cut -d' ' -f1)
chmod u+w "$T/bad/inputs/$sha.fio" && echo '# changed' >>"$T/bad/inputs/$sha.fio"
"$BIN" sweep parallel "$T/bad" --jobs 2 --run >/dev/null 2>"$T/err"
st=$?
[ $st = 6 ] || { tail -3 "$T/err"; fail "--run with 6 failing tasks exited $st, not parallel's 6"; }
echo "PASS: sweep parallel: printed line, --run (partial, --sshlogin :) merges byte-identical to serial; bad input refused"
