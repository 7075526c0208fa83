#!/bin/sh
# Description: iosched compare runs every seed example (examples/seeds/*.fio,
# with the extra options of its .args file, as the example smoke tests use
# them) under a few schedulers: exit 0, one column per scheduler, every job
# of the file a row, the summary metrics present, nothing on stderr but
# warnings (the cgroup examples' group options under deadline, which has
# no groups: the warnings must then name that column).
BIN=${IOSCHED_BIN:-./iosched}
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
n=0
for j in examples/seeds/*.fio; do
	[ -f "$j" ] || continue
	args=""
	[ -f "${j%.fio}.args" ] && args=$(cat "${j%.fio}.args")
	# shellcheck disable=SC2086
	if ! "$BIN" compare $args "$j" --schedulers deadline,cfq,cfq:fairness=1 -j2 >"$out" 2>"$err"; then
		echo "$j: compare failed:"; cat "$err"; exit 1
	fi
	if grep -qv '^iosched: warning: ' "$err"; then
		echo "$j: stderr has more than warnings:"; cat "$err"; exit 1
	fi
	if grep -q '^cgroup=' "$j" && ! grep -q "^iosched: warning: deadline: .*cgroup=.* has no effect" "$err"; then
		echo "$j: no warning that deadline ignores cgroup="; cat "$err"; exit 1
	fi
	grep -q '^ *deadline  *cfq  *cfq:fairness=1$' "$out" || { echo "$j: no column header"; cat "$out"; exit 1; }
	for m in "aggregate (KiB/s)" "Jain's index (bw)" "min/max bw" "finish spread" "clat p99 (ms)"; do
		grep -qF "  $m " "$out" || { echo "$j: no '$m' row"; cat "$out"; exit 1; }
	done
	# every [section] but [global] is a job row under "bandwidth"
	for s in $(sed -n 's/^\[\([^]]*\)\]$/\1/p' "$j" | grep -v '^global$'); do
		sed -n '/^bandwidth/,/^finish/p' "$out" | grep -q "^  $s " ||
			{ echo "$j: no row for job $s"; cat "$out"; exit 1; }
	done
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no seed examples found"; exit 1; }
echo "$n seed examples compared"
