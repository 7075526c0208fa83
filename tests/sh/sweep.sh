#!/bin/sh
# Description: iosched sweep end to end on a 12-task grid (2 schedulers x
# 2 queue depths x 3 seeds): plan writes a manifest whose inputs are named by
# their sha256 (sha256sum agrees) and refuses another plan's directory; run
# writes results/K.json (task by --task or SLURM_ARRAY_TASK_ID) whose report
# is byte for byte `iosched run`'s JSON, skips a task done, records a failed
# one; status counts done, failed and missing; merge works on a partial
# sweep and names what is missing, and the merged table of the tasks run
# one by one is byte-identical to that of the tasks run through GNU
# parallel (-j2, shuffled; that part skips with exit 77 without parallel).
# Bad results (does not parse, two for one task, another plan's, a name
# out of range) are errors that name the file.
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/rw.fio" <<'JOB'
[global]
direct=1
ioengine=psync
bs=64k
size=64m
runtime=200ms
time_based
[reader]
rw=read
[writer]
rw=write
JOB
cat >"$T/grid" <<'GRID'
# two schedulers, two queue depths, three seeds
job = rw.fio
schedulers = deadline, cfq:slice_idle=0
devices = hdd-2004
set queue.nr_requests = 32, 128
seeds = 1-3
GRID

"$BIN" sweep plan "$T/grid" -o "$T/a" >"$T/out" 2>&1 || { cat "$T/out"; fail "plan"; }
grep -q '12 tasks (4 points x 3 seeds)' "$T/out" || { cat "$T/out"; fail "plan's count"; }
sha=$(sha256sum <"$T/rw.fio" | cut -d' ' -f1)
[ -f "$T/a/inputs/$sha.fio" ] || fail "inputs/ not named by sha256: $(ls "$T/a/inputs")"
msha=$(sha256sum <"$T/a/manifest" | cut -d' ' -f1)
grep -q "manifest sha256 $msha" "$T/out" || fail "plan's manifest hash is not sha256sum's"
[ "$(grep -c '^task ' "$T/a/manifest")" = 12 ] || fail "12 task lines"
grep -q "^task 11	3	3	job=rw.fio device=hdd-2004 scheduler=cfq:slice_idle=0 queue.nr_requests=128	run inputs/$sha.fio --scheduler cfq --device hdd-2004 --set queue.nr_requests=128 --set slice_idle=0 --seed 3 --output-format json\$" "$T/a/manifest" ||
	{ tail -1 "$T/a/manifest"; fail "task 11's line"; }
# the same plan again: accepted, nothing rewritten; another plan: refused
"$BIN" sweep plan "$T/grid" -o "$T/a" >"$T/out" 2>&1 && grep -q 'the same plan' "$T/out" ||
	{ cat "$T/out"; fail "same plan again"; }
sed 's/1-3/1-2/' "$T/grid" >"$T/grid2"
"$BIN" sweep plan "$T/grid2" -o "$T/a" >"$T/out" 2>&1 && fail "another plan into a plan's dir"
grep -q 'holds another plan' "$T/out" || { cat "$T/out"; fail "another plan's message"; }
[ "$(sha256sum <"$T/a/manifest" | cut -d' ' -f1)" = "$msha" ] || fail "the manifest was rewritten"
mkdir "$T/full" && touch "$T/full/x"
"$BIN" sweep plan "$T/grid" -o "$T/full" >"$T/out" 2>&1 && fail "plan into a non-empty dir"
grep -q 'not empty and holds no manifest' "$T/out" || { cat "$T/out"; fail "non-empty dir message"; }

cp -r "$T/a" "$T/b"
# a partial sweep: tasks 0, 4 and 5 (one by SLURM_ARRAY_TASK_ID)
"$BIN" sweep run "$T/a" --task 0 2>"$T/err" || { cat "$T/err"; fail "run task 0"; }
SLURM_ARRAY_TASK_ID=4 "$BIN" sweep run "$T/a" 2>"$T/err" || { cat "$T/err"; fail "run task 4"; }
"$BIN" sweep run "$T/a" --task 5 || fail "run task 5"
[ -f "$T/a/results/4.json" ] || fail "SLURM_ARRAY_TASK_ID=4 wrote no results/4.json"
ls -A "$T/a/results" | grep -q '^\.' && fail "a temporary file left in results/"
# the report in the result is `iosched run`'s JSON, byte for byte (task 4:
# point 1, deadline with nr_requests 128, seed 2)
(cd "$T/a" && "$BIN" run "inputs/$sha.fio" --scheduler deadline --device hdd-2004 \
	--set queue.nr_requests=128 --seed 2 --output-format json) >"$T/run.json" ||
	fail "iosched run"
sed '1,3d;$d' "$T/a/results/4.json" | cmp -s - "$T/run.json" || fail "task 4's report differs from iosched run's"
head -1 "$T/a/results/4.json" | grep -q "\"manifest\": \"$msha\", \"task\": 4}" || fail "result header"
# done: skipped, the file untouched
before=$(sha256sum <"$T/a/results/0.json")
touch -d '2001-01-01' "$T/a/results/0.json"
"$BIN" sweep run "$T/a" --task 0 2>"$T/err" || fail "rerun of a done task"
grep -q 'done, skipped' "$T/err" || { cat "$T/err"; fail "rerun says nothing"; }
[ "$(stat -c %Y "$T/a/results/0.json")" = "$(date -d 2001-01-01 +%s)" ] || fail "done task rewritten"
[ "$(sha256sum <"$T/a/results/0.json")" = "$before" ] || fail "done task changed"
"$BIN" sweep status "$T/a" >"$T/out" || fail "status"
grep -q '12 tasks: done 3, failed 0, missing 9' "$T/out" || { cat "$T/out"; fail "status counts"; }
grep -q '^missing: 1 2 3 6 7 8 9 10 11$' "$T/out" || { cat "$T/out"; fail "status's missing list"; }
"$BIN" sweep merge "$T/a" >"$T/out" 2>"$T/err" || fail "partial merge"
grep -q 'done 3, failed none, missing 1-3, 6-11' "$T/out" || { cat "$T/out"; fail "merge's missing"; }
grep -q '9 of 12 tasks not done' "$T/err" || { cat "$T/err"; fail "merge's partial note"; }
grep -q 'scheduler=deadline queue.nr_requests=32 .*(1/3)$' "$T/out" || { cat "$T/out"; fail "1/3"; }
grep -q 'scheduler=deadline queue.nr_requests=128 .*(2/3)$' "$T/out" || { cat "$T/out"; fail "2/3"; }
grep -q 'scheduler=cfq:slice_idle=0 queue.nr_requests=128  *-  (0/3)$' "$T/out" || { cat "$T/out"; fail "0/3"; }

# task numbers: out of range, not a number, none
for k in 12 -1 x; do
	"$BIN" sweep run "$T/a" --task "$k" >"$T/out" 2>&1 && fail "--task $k accepted"
	grep -q 'allowed 0\.\.11' "$T/out" || { cat "$T/out"; fail "--task $k message"; }
done
env -u SLURM_ARRAY_TASK_ID "$BIN" sweep run "$T/a" >"$T/out" 2>&1 && fail "no task accepted"
grep -q 'no --task K and no SLURM_ARRAY_TASK_ID' "$T/out" || fail "no task message"

# a failing task: K.failed, counted
cp -r "$T/b" "$T/c"
chmod u+w "$T/c/inputs/$sha.fio" && echo '# changed' >>"$T/c/inputs/$sha.fio"
"$BIN" sweep run "$T/c" --task 1 >"$T/out" 2>&1 && fail "a changed input ran"
grep -q 'the input changed after the plan' "$T/out" || { cat "$T/out"; fail "changed input message"; }
[ -f "$T/c/results/1.failed" ] || fail "no results/1.failed"
"$BIN" sweep status "$T/c" | grep -q 'done 0, failed 1, missing 11' || fail "failed count"

# bad results: each an error naming the file
cp "$T/a/results/0.json" "$T/a/results/00.json"
"$BIN" sweep merge "$T/a" >"$T/out" 2>&1 && fail "two results for one task"
grep -q 'two results for task 0: .*results/0*.json and .*results/0*.json' "$T/out" || { cat "$T/out"; fail "two results message"; }
rm "$T/a/results/00.json"
echo '{"sweep": 1}' >"$T/a/results/7.json"
"$BIN" sweep merge "$T/a" >"$T/out" 2>&1 && fail "a result that does not parse"
grep -q 'results/7.json:1: not a sweep result' "$T/out" || { cat "$T/out"; fail "parse message"; }
sed "1s/$msha/$(echo x | sha256sum | cut -d' ' -f1)/" "$T/a/results/0.json" >"$T/a/results/7.json"
"$BIN" sweep status "$T/a" >"$T/out" 2>&1 && fail "another plan's result"
grep -q 'results/7.json:1: made for another plan' "$T/out" || { cat "$T/out"; fail "stale message"; }
cp "$T/a/results/0.json" "$T/a/results/7.json"
"$BIN" sweep merge "$T/a" >"$T/out" 2>&1 && fail "task 0's result named 7"
grep -q 'results/7.json:1: the result of task 0 under the name of task 7' "$T/out" || { cat "$T/out"; fail "misnamed message"; }
mv "$T/a/results/7.json" "$T/a/results/12.json"
"$BIN" sweep merge "$T/a" >"$T/out" 2>&1 && fail "a result of no task"
grep -q 'results/12.json: no such task' "$T/out" || { cat "$T/out"; fail "range message"; }
rm "$T/a/results/12.json"

# the whole grid one by one, then through GNU parallel: the same bytes
i=0
while [ $i -lt 12 ]; do
	"$BIN" sweep run "$T/a" --task $i 2>/dev/null || fail "serial task $i"
	i=$((i + 1))
done
"$BIN" sweep status "$T/a" | grep -q 'done 12, failed 0, missing 0' || fail "serial: not all done"
"$BIN" sweep merge "$T/a" >"$T/serial.txt" 2>"$T/err" || fail "serial merge"
[ -s "$T/err" ] && { cat "$T/err"; fail "a full merge says something on stderr"; }
"$BIN" sweep merge "$T/a" --output-format json >"$T/serial.json" || fail "serial merge json"
grep -q '"done": 12,' "$T/serial.json" && grep -q '"missing": \[\],' "$T/serial.json" || fail "json counts"
if ! command -v parallel >/dev/null 2>&1; then
	echo "SKIP: GNU parallel is not installed (Debian package 'parallel'): the serial part passed"
	exit 77
fi
seq 0 11 | sort -r | parallel -j2 "$BIN" sweep run "$T/b" --task {} 2>"$T/err" ||
	{ cat "$T/err"; fail "parallel"; }
"$BIN" sweep merge "$T/b" >"$T/par.txt" || fail "parallel merge"
"$BIN" sweep merge "$T/b" --output-format json >"$T/par.json" || fail "parallel merge json"
cmp "$T/serial.txt" "$T/par.txt" || fail "serial and parallel text merges differ"
cmp "$T/serial.json" "$T/par.json" || fail "serial and parallel JSON merges differ"
for k in $(seq 0 11); do
	cmp -s "$T/a/results/$k.json" "$T/b/results/$k.json" || fail "task $k's result differs"
done
echo "PASS: 12 tasks serial and through GNU parallel, merges byte-identical"
