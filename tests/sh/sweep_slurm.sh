#!/bin/sh
# Description: `iosched sweep slurm --submit` on a real single-node Slurm
# started here on localhost (munged and slurmctld/slurmd with a generated
# slurm.conf in a temporary directory, their own ports and sockets): the
# 6-task grid runs as a job array, in two arrays because the test sets
# MaxArraySize to 4 (the chunking with the task offset, and the chunks
# chained under --max-running), every task's output file is under
# DIR/slurm/, and the merge is byte-identical to the merge of the same grid
# run one task at a time. Bad input to sweep slurm: an unknown flag, a DIR
# that is not a plan, --max-running 0 and x, a bad --time, a script path that
# exists with other bytes (refused, the file unchanged), the same script
# again (said, not rewritten), --submit without sbatch in PATH. Skips (77)
# when not root, when slurm-wlm or munge is missing, or when the daemons do
# not start (their log's tail is printed); the bad-input part runs anyway.
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$PWD
T=$(mktemp -d)
PIDS=""
jobs=""
cleanup() {
	# our jobs first (their slurmstepd would outlive slurmd), then our daemons
	[ -n "$jobs" ] && scancel $jobs 2>/dev/null && sleep 1
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$p" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

cp "$ROOT/tests/jobs/0001-deadline-read-write.job" "$T/rw.fio" 2>/dev/null ||
	fail "no tests/jobs/0001-deadline-read-write.job (run from the repository root)"
cat >"$T/grid" <<'GRID'
job = rw.fio
schedulers = deadline, cfq:slice_idle=0, noop
seeds = 1-2
GRID
"$BIN" sweep plan "$T/grid" -o "$T/a" >/dev/null || fail "plan"
cp -r "$T/a" "$T/serial"

# ---- bad input (no Slurm needed) ----
bad() { # what expected-text args...
	what=$1; want=$2; shift 2
	"$BIN" sweep slurm "$@" >"$T/out" 2>&1 && fail "$what accepted"
	grep -q -- "$want" "$T/out" || { cat "$T/out"; fail "$what: no '$want'"; }
}
bad "an unknown flag" "unknown option '--nosuch'" "$T/a" --nosuch
bad "a DIR that is not a plan" "not a sweep directory" "$T"
bad "--max-running 0" "max-running" "$T/a" --max-running 0
bad "--max-running x" "max-running" "$T/a" --max-running x
bad "--max-array-size 0" "max-array-size" "$T/a" --max-array-size 0
bad "--time 1:2:3:4" "allowed MIN, MIN:SEC" "$T/a" --time 1:2:3:4
bad "--partition 'a b'" "a character Slurm names do not hold" "$T/a" --partition "a b"
bad "-o inside results/" "inside the sweep's results/" "$T/a" -o "$T/a/results/x.sbatch"
echo "something else" >"$T/taken.sbatch"
bad "-o over a file" "exists with other content: refused" "$T/a" -o "$T/taken.sbatch"
[ "$(cat "$T/taken.sbatch")" = "something else" ] || fail "the existing file was changed"
"$BIN" sweep slurm "$T/a" --max-array-size 4 -o "$T/s1.sbatch" >"$T/out" 2>&1 || { cat "$T/out"; fail "slurm"; }
grep -q '6 tasks in 2 array jobs of at most 4 (MaxArraySize 4: --max-array-size)' "$T/out" ||
	{ cat "$T/out"; fail "chunk count"; }
grep -q "^sbatch --parsable --array=0-1 $T/s1.sbatch 4\$" "$T/out" || { cat "$T/out"; fail "second chunk's line"; }
"$BIN" sweep slurm "$T/a" --max-array-size 4 -o "$T/s1.sbatch" >"$T/out" 2>&1 || fail "same script again"
grep -q 'the same script was there: not rewritten' "$T/out" || { cat "$T/out"; fail "same script: not said"; }
# the script runs task first + index, and refuses to run outside an array
SLURM_ARRAY_TASK_ID=1 sh "$T/s1.sbatch" 4 >"$T/out" 2>&1 || { cat "$T/out"; fail "script by hand"; }
[ -f "$T/a/results/5.json" ] || fail "the script with offset 4, index 1 did not run task 5"
rm "$T/a/results/5.json"
env -u SLURM_ARRAY_TASK_ID sh "$T/s1.sbatch" >"$T/out" 2>&1 && fail "script outside an array"
grep -q 'not a Slurm array task' "$T/out" || fail "script outside an array: message"
mkdir "$T/nobin"
PATH="$T/nobin" "$BIN" sweep slurm "$T/a" --submit -o "$T/s2.sbatch" >"$T/out" 2>&1 && fail "--submit without sbatch"
grep -q 'sbatch is not in PATH' "$T/out" || { cat "$T/out"; fail "--submit without sbatch: message"; }

# ---- the serial reference ----
for k in 0 1 2 3 4 5; do
	"$BIN" sweep run "$T/serial" --task $k 2>/dev/null || fail "serial task $k"
done
"$BIN" sweep merge "$T/serial" >"$T/serial.txt" || fail "serial merge"

# ---- a single-node Slurm ----
[ "$(id -u)" = 0 ] || skip "not root (a private slurmctld/slurmd needs root); the bad-input part passed"
for p in munged slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
	command -v $p >/dev/null 2>&1 || skip "no $p (Debian packages slurm-wlm and munge); the bad-input part passed"
done
S=$T/slurm
mkdir -p "$S/state" "$S/spool" "$S/munge"
chmod 700 "$S/munge"
dd if=/dev/urandom of="$S/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$S/munge/key"
munged --foreground --force --socket="$S/munge/sock" --key-file="$S/munge/key" \
	--pid-file="$S/munge/pid" --log-file="$S/munge/log" --seed-file="$S/munge/seed" \
	>"$S/munge/out" 2>&1 &
PIDS="$PIDS $!"
i=0
while [ ! -S "$S/munge/sock" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$S/munge/sock" ] || { tail -5 "$S/munge/out" "$S/munge/log"; skip "munged did not start (above)"; }
# ports of our own, away from a Slurm this machine may run
port=$((17000 + $$ % 2000))
cpus=$(nproc)
host=$(hostname)
cat >"$S/slurm.conf" <<CONF
ClusterName=iosched-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool/%n
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MaxArraySize=4
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
MpiDefault=none
SwitchType=switch/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$S/slurm.conf"
slurmctld -D -f "$S/slurm.conf" >"$S/slurmctld.out" 2>&1 &
PIDS="$PIDS $!"
slurmd -D -f "$S/slurm.conf" >"$S/slurmd.out" 2>&1 &
PIDS="$PIDS $!"
# the node idle within 30 s
i=0
until sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		for f in slurmctld.out slurmctld.log slurmd.out slurmd.log; do
			[ -f "$S/$f" ] && { echo "== $f"; tail -8 "$S/$f"; }
		done
		skip "the single-node Slurm did not come up within 30 s (logs above)"
	fi
	sleep 0.5
done

# MaxArraySize 4 from `scontrol show config`: 6 tasks in two chained arrays
"$BIN" sweep slurm "$T/a" --submit --partition test --time 5 --max-running 2 >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "sweep slurm --submit"; }
cat "$T/out"
grep -q '6 tasks in 2 array jobs of at most 4 (MaxArraySize 4: scontrol show config)' "$T/out" ||
	fail "MaxArraySize not read from scontrol"
[ "$(grep -c '^submitted job [0-9]*: tasks' "$T/out")" = 2 ] || fail "two submitted jobs"
grep -q '^#SBATCH --array=0-3%2$' "$T/a/slurm/sweep.sbatch" || fail "the script's --array"
grep -q '^#SBATCH --partition=test$' "$T/a/slurm/sweep.sbatch" || fail "the script's --partition"
jobs=$(sed -n 's/^submitted job \([0-9]*\):.*/\1/p' "$T/out")
# wait, bounded: 120 s for 6 tasks of well under a second each
i=0
while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
	i=$((i + 1))
	[ $i -gt 240 ] && { squeue; tail -5 "$S/slurmctld.log"; fail "the jobs ($jobs) not done within 120 s"; }
	sleep 0.5
done
"$BIN" sweep status "$T/a" >"$T/out" || fail "status"
grep -q '6 tasks: done 6, failed 0, missing 0' "$T/out" || {
	cat "$T/out"; ls "$T/a/slurm"; tail -n 5 "$T/a/slurm"/*.err; fail "not every task done under Slurm"; }
for j in $jobs; do
	ls "$T/a/slurm/${j}_"*.out >/dev/null 2>&1 || fail "no DIR/slurm/${j}_*.out"
done
n=$(cat "$T/a/slurm"/*.out | grep -c '^iosched sweep task [0-5] ')
[ "$n" = 6 ] || fail "6 task lines in the .out files, not $n"
"$BIN" sweep merge "$T/a" >"$T/slurm.txt" || fail "merge"
cmp "$T/serial.txt" "$T/slurm.txt" || fail "the Slurm merge differs from the serial one"
echo "PASS: 6 tasks through a single-node Slurm in 2 array jobs (MaxArraySize 4), merge byte-identical to serial"
