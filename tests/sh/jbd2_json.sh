#!/bin/sh
# Description: the run reports ext4's journal (JSON iosched.jbd2, from
# src/fs/jbd2.c's counters) so a dsync writer's costs per write come from
# the report: 256 O_DSYNC appends of 4 KiB to a new file on ext4 give one
# commit (started by the sync write), one unwritten conversion and one
# commit block per write, and at least one log block per commit; a run on
# ext3 has no "jbd2" key.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf '[dd]\nfilename=dd.dat\nrw=write\nbs=4k\nsize=1m\nioengine=sync\nsync=dsync\nfallocate=none\n' \
	>"$dir/dd.fio"
"$BIN" run "$dir/dd.fio" --scheduler none --device ssd-nvme --set lab.fs=ext4 \
	--output-format json >"$dir/ext4.json" 2>/dev/null || fail "ext4 run"
"$BIN" run "$dir/dd.fio" --scheduler none --device ssd-nvme --set lab.fs=ext3 \
	--output-format json >"$dir/ext3.json" 2>/dev/null || fail "ext3 run"
python3 - "$dir/ext4.json" "$dir/ext3.json" <<'PY' || fail "counters"
import json, sys
e4 = json.load(open(sys.argv[1]))
w = e4["jobs"][0]["write"]["total_ios"]
j = e4["iosched"]["jbd2"]
assert w == 256, w
assert j["commits"] == w and j["commits_sync"] == w, j
assert j["conversions"] == w and j["commit_blocks"] == w, j
assert j["log_blocks"] + j["desc_blocks"] >= j["commits"], j
assert "jbd2" not in json.load(open(sys.argv[2]))["iosched"]
PY
echo "PASS: 256 dsync appends, one commit, conversion and commit block each"
