#!/bin/sh
# Description: the plan's stamp (DIR/manifest.sha256, docs/sweep.md): plan
# writes the manifest's sha256 and size; a task takes the hash from it only
# while the manifest is unchanged since (same size, mtime older than the
# stamp's), so a forged stamp is used on an untouched manifest and ignored
# on a touched one; a manifest edited after the plan gives results stamped
# with the edited hash, which merge then refuses once the manifest is
# restored. And plan refuses a grid whose manifest is over the 64 MiB a
# task may read, naming the grid file and the limit.
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
command -v sha256sum >/dev/null 2>&1 || { echo "SKIP: no sha256sum"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
head1() { sed -n '1s/^{"sweep": {"manifest": "\([0-9a-f]*\)".*/\1/p' "$1"; }

cat >"$T/r.fio" <<'JOB'
[r]
rw=randread
bs=4k
size=4m
runtime=20ms
time_based
JOB
printf 'job = r.fio\nschedulers = noop\nseeds = 1-4\n' >"$T/grid"
"$BIN" sweep plan "$T/grid" -o "$T/a" >"$T/out" 2>&1 || { cat "$T/out"; fail "plan"; }
msha=$(sha256sum <"$T/a/manifest" | cut -d' ' -f1)
size=$(wc -c <"$T/a/manifest" | tr -d ' ')
[ "$(cat "$T/a/manifest.sha256")" = "$msha $size" ] || fail "stamp: $(cat "$T/a/manifest.sha256")"
"$BIN" sweep run "$T/a" --task 0 >"$T/out" 2>&1 || { cat "$T/out"; fail "task 0"; }
[ "$(head1 "$T/a/results/0.json")" = "$msha" ] || fail "task 0's hash is not the manifest's"

# the stamp is what a task reads on an untouched manifest: a forged one shows it
fake=$(echo forged | sha256sum | cut -d' ' -f1)
cp -p "$T/a/manifest.sha256" "$T/stamp"
touch -d '2020-01-01 00:00' "$T/a/manifest"
echo "$fake $size" >"$T/a/manifest.sha256"
"$BIN" sweep run "$T/a" --task 1 >"$T/out" 2>&1 || { cat "$T/out"; fail "task 1"; }
[ "$(head1 "$T/a/results/1.json")" = "$fake" ] || fail "the stamp was not used"
# ... and not once the manifest is touched after it (mtime not older than the stamp's)
touch "$T/a/manifest"
"$BIN" sweep run "$T/a" --task 2 >"$T/out" 2>&1 || { cat "$T/out"; fail "task 2"; }
[ "$(head1 "$T/a/results/2.json")" = "$msha" ] || fail "a touched manifest's stamp was trusted"
rm "$T/a/results/1.json"
cp -p "$T/stamp" "$T/a/manifest.sha256"

# edited after the plan (same size, still a manifest), a task run, then restored
cp -p "$T/a/manifest" "$T/manifest.orig"
sed 's/--seed 4 /--seed 9 /' "$T/a/manifest" >"$T/m" && cat "$T/m" >"$T/a/manifest"
cmp -s "$T/a/manifest" "$T/manifest.orig" && fail "the edit did not change the manifest"
esha=$(sha256sum <"$T/a/manifest" | cut -d' ' -f1)
"$BIN" sweep run "$T/a" --task 3 >"$T/out" 2>&1 || { cat "$T/out"; fail "task 3"; }
[ "$(head1 "$T/a/results/3.json")" = "$esha" ] || fail "an edited manifest's task took the stamp"
cp -p "$T/manifest.orig" "$T/a/manifest"
"$BIN" sweep merge "$T/a" >"$T/out" 2>&1 && fail "merge read a result of an edited manifest"
grep -q 'results/3.json:1: made for another plan' "$T/out" || { cat "$T/out"; fail "merge's message"; }
rm "$T/a/results/3.json"
"$BIN" sweep run "$T/a" --task 3 >"$T/out" 2>&1 || { cat "$T/out"; fail "task 3 again"; }
[ "$(head1 "$T/a/results/3.json")" = "$msha" ] || fail "task 3's hash after the restore"
"$BIN" sweep merge "$T/a" >"$T/out" 2>&1 || { cat "$T/out"; fail "merge of the restored plan"; }
grep -q 'missing 1' "$T/out" || { cat "$T/out"; fail "merge: task 1 missing"; }

# a plan whose manifest no task could read (over 64 MiB): refused, nothing written
printf 'job = r.fio\nschedulers = noop, deadline, cfq, bfq\nseeds = 0-99999\n' >"$T/big"
"$BIN" sweep plan "$T/big" -o "$T/b" >"$T/out" 2>&1 && fail "a 400,000-task plan over 64 MiB"
grep -q "sweep plan: $T/big: 400000 tasks make a .*-byte manifest, more than the 64 MiB" "$T/out" ||
	{ cat "$T/out"; fail "the size refusal's message"; }
[ ! -e "$T/b" ] || fail "a refused plan wrote $T/b"
exit 0
