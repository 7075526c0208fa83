#!/bin/sh
# Description: scripts/fio-examples-survey.sh sorts job files into the
# outcomes docs/fio-examples.md counts. Our own small job files, one per
# outcome: a job that runs; an unmodellable engine refused for one of its
# options (the engine is the reason the survey gives); a zoned job (device
# needed); a fio option iosched does not model, found again behind a second
# one when the first is removed; a bad value (error). A crash and a hang
# come from a wrapper around the binary that kills itself with SIGSEGV on
# the real run of one file and sleeps on another, since iosched itself must
# never do either.
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; sed 's/^/  out: /' "$dir/out"; exit 1; }

mkdir "$dir/jobs"
printf '[a]\nrw=read\nsize=1m\nbs=4k\n' >"$dir/jobs/runs.fio"
printf '[global]\nioengine=net\nport=8888\n[r]\nrw=read\nsize=1m\n' >"$dir/jobs/net.fio"
printf '[z]\nzonemode=zbd\nrw=write\nsize=1m\n' >"$dir/jobs/zoned.fio"
printf '[o]\nrw=read\nsize=1m\nlog_compression=1m\nlockmem=1m\n' >"$dir/jobs/option.fio"
printf '[e]\nrw=read\nsize=1m\nbs=4x\n' >"$dir/jobs/error.fio"
printf '# crashme\n[c]\nrw=read\nsize=1m\n' >"$dir/jobs/crash.fio"
printf '# hangme\n[h]\nrw=read\nsize=1m\n' >"$dir/jobs/hang.fio"

cat >"$dir/wrap" <<EOF
#!/bin/sh
for a; do f=\$a; done
case " \$* " in *" --parse-only "*) parse=1 ;; *) parse=0 ;; esac
grep -q hangme "\$f" 2>/dev/null && exec sleep 20
grep -q crashme "\$f" 2>/dev/null && [ \$parse = 0 ] && kill -SEGV \$\$
exec "$BIN" "\$@"
EOF
chmod +x "$dir/wrap"

IOSCHED_BIN=$dir/wrap SURVEY_TIMEOUT=2 bash scripts/fio-examples-survey.sh "$dir/jobs" >"$dir/out" 2>&1 ||
	fail "the survey exited $?"

expect() { # file, result
	grep -q "^$1 *$2 " "$dir/out" || grep -q "^$1 *$2\$" "$dir/out" || fail "$1 should be '$2'"
}
expect runs.fio runs
expect net.fio "refused: engine not modelled"
expect zoned.fio "refused: device needed"
expect option.fio "refused: option not modelled"
expect error.fio error
expect crash.fio crash
expect hang.fio hang
grep -q "(network: net) iosched: net.fio:2: option 'ioengine=net'" "$dir/out" || fail "net.fio: the engine class and iosched's message (the engine is named first)"
grep -q "blocking options: log_compression lockmem; stripped run: runs" "$dir/out" ||
	fail "option.fio: both blocking options, and the stripped copy runs"
grep -q "^  runs  *1\$" "$dir/out" || fail "summary: runs"
grep -q "^  crash  *1\$" "$dir/out" || fail "summary: crash"
grep -q "^  hang  *1\$" "$dir/out" || fail "summary: hang"
# net.fio is the only unmodellable file: 6 modellable, 1 of them runs
grep -q "modellable (engine and device a simulator can model): 6; of them run: 1 (16 %)" "$dir/out" ||
	fail "summary: modellable share"
echo PASS
