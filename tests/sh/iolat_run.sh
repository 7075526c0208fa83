#!/bin/sh
# Description: io.latency end to end (docs/cgroup-v2-plan.md §10 C3, on a
# shorter run): a QD1 random reader in cgroup fg beside four random writers
# at iodepth 32 in its sibling bg, on ssd-nvme under none. The target is
# twice fg's p90 alone, rounded up to 10 us. With it the run's io.latency
# note shows bg's depth halved step by step from the queue's 1023, bg does
# fewer I/Os and fg's p90 is lower than without it; "target=max" installs
# the policy but changes no number; two runs are byte-identical.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/c3.fio" <<'JOB'
[global]
filename=/dev/nvme0n1
size=64g
direct=1
bs=4k
runtime=5
time_based=1

[fg]
rw=randread
ioengine=psync
iodepth=1
cgroup=fg

[bg]
rw=randwrite
ioengine=libaio
iodepth=32
numjobs=4
cgroup=bg
JOB
sed '/^\[bg\]/,$d' "$dir/c3.fio" >"$dir/alone.fio"
run() {
	out=$1
	shift
	"$BIN" run --device ssd-nvme --scheduler none --set lab.cpus=1 --output-format json \
		"$@" >"$dir/$out.json" 2>"$dir/$out.err" || { echo "run $out failed:"; cat "$dir/$out.err"; exit 1; }
}
# fg's read p90 in us, and group @2's total I/Os
p90() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
j=[j for j in d["jobs"] if j["jobname"]=="fg"][0]
print(j["read"]["clat_ns"]["percentile"]["90.000000"] // 1000)' "$dir/$1.json"
}
ios() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(sum(j["write"]["total_ios"] for j in d["jobs"] if j["jobname"]==sys.argv[2]))' "$dir/$1.json" "$2"
}
run alone "$dir/alone.fio"
alone=$(p90 alone)
target=$(( (2 * alone + 9) / 10 * 10 ))
run without "$dir/c3.fio"
run with "$dir/c3.fio" --set "cgroup.fg.io.latency=target=$target"
run max "$dir/c3.fio" --set "cgroup.fg.io.latency=target=max"
p_without=$(p90 without)
p_with=$(p90 with)
bg_without=$(ios without bg)
bg_with=$(ios with bg)
echo "fg p90 alone ${alone} us, target ${target} us; without io.latency: fg p90 ${p_without} us," \
	"bg ${bg_without} writes; with it: fg p90 ${p_with} us, bg ${bg_with} writes"
[ "$p_without" -gt "$target" ] || { echo "the target is met without io.latency: nothing to show"; exit 1; }
grep -q "io.latency: fg (target $target us): [0-9]* windows, [0-9]* bad; bg: depth 511 at [0-9.]* s, 255 at" \
	"$dir/with.err" || { echo "no io.latency note with bg's halvings:"; cat "$dir/with.err"; exit 1; }
[ "$bg_with" -lt "$bg_without" ] || { echo "bg was not slowed"; exit 1; }
# the JSON's cgroup section lists bg's depth changes as the note does (ios_iolat_depths)
python3 -c 'import json,re,sys
d=json.load(open(sys.argv[1]))
cg={c["path"].strip("/"): c for c in d["iosched"]["cgroup_v2"]["groups"]}
ds=cg["bg"].get("latency_depths")
note=re.search(r"bg: depth (.*?);", open(sys.argv[2]).read()).group(1)
want=[(int(x.split(" at ")[0]), float(x.split(" at ")[1][:-2])) for x in note.split(", ")]
got=[(x["depth"], round(x["at_ns"] / 1e9, 3)) for x in ds]
sys.exit(not ds or got[:len(want)] != want or ds[0]["depth"] != 511 or "latency_depths" in cg["fg"])' \
	"$dir/with.json" "$dir/with.err" || { echo "JSON latency_depths differ from the note"; exit 1; }
[ "$p_with" -lt "$p_without" ] || { echo "fg's p90 did not fall"; exit 1; }
# target=max: the policy is there but no group has a target: the same numbers
python3 -c 'import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
strip=lambda d: [(j["jobname"], j["read"]["total_ios"], j["write"]["total_ios"], j["read"]["clat_ns"]["mean"]) for j in d["jobs"]]
sys.exit(strip(a) != strip(b))' "$dir/without.json" "$dir/max.json" || { echo "target=max changed the run"; exit 1; }
grep -q "io.latency:" "$dir/max.err" && { echo "io.latency note without a target:"; cat "$dir/max.err"; exit 1; }
# deterministic
run again "$dir/c3.fio" --set "cgroup.fg.io.latency=target=$target"
cmp -s "$dir/with.json" "$dir/again.json" || { echo "two runs differ"; exit 1; }
cmp -s "$dir/with.err" "$dir/again.err" || { echo "two runs' notes differ"; exit 1; }
exit 0
