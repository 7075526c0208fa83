#!/bin/sh
# Description: the output formats of issue 14, from fio's documentation
# (HOWTO "Terse output", --output-format). terse v3 is one line per job with
# 121 fields, plus 9 per disk (name, ios, merges, ticks, in_queue, util%),
# plus the description; the fields named below hold what the job did. A
# comma list prints each format once, in fio's order (terse, json, normal)
# and each part is byte for byte the format alone; plain run output is not
# changed by any of this. Bad lists are refused. With fio 3.33 installed,
# fio --minimal on the same null-engine job gives the same field count and
# the same deterministic fields (version, name, group, error, io KiB, the
# idle direction's fields, the percentile labels, IO depths, description).
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f "$d/err" ] && sed 's/^/    /' "$d/err"; exit 1; }

printf '[r]\nrw=read\nbs=4k\nsize=1m\n\n[w]\nrw=randwrite\nbs=8k\nsize=512k\ndescription=the writer\n' >dev.fio
sed 's/^\[\(.\)\]$/[\1]\nioengine=null/' dev.fio >null.fio

"$BIN" run dev.fio --output-format=terse >t.txt 2>err || fail "terse run"
[ "$(wc -l <t.txt)" -eq 2 ] || fail "terse: $(wc -l <t.txt) lines, want 2"
# one disk: 121 + 9 fields; the description adds one more
awk -F';' 'NR == 1 && NF != 130 { exit 1 } NR == 2 && NF != 131 { exit 1 }' t.txt ||
	fail "terse field counts: $(awk -F';' '{printf "%d ", NF}' t.txt)"
awk -F';' '$1 != 3 || $2 != "fio-3.33" || $5 != 0 { exit 1 }
	NR == 1 && ($3 != "r" || $4 != 0 || $6 != 1024 || $47 != 0) { exit 1 }
	NR == 2 && ($3 != "w" || $6 != 0 || $47 != 512 || $NF != "the writer") { exit 1 }
	$122 != "sda" || $NF !~ /%$/ && NR == 1 { exit 1 }' t.txt || fail "terse fields: $(cut -c1-80 t.txt)"
# the disk's ios in terse are the normal report's Disk stats line
"$BIN" run dev.fio >n.txt 2>err || fail "normal run"
ios=$(awk -F';' 'NR == 1 { print $123 "/" $124 }' t.txt)
grep -q "sda: ios=$ios," n.txt || fail "terse disk ios $ios not in the normal report"

# combinations: fio's order, each part as alone
"$BIN" run dev.fio --output-format=json >j.txt 2>err || fail "json run"
"$BIN" run dev.fio --output-format=json+ >jp.txt 2>err || fail "json+ run"
"$BIN" run dev.fio --output-format=normal >n2.txt 2>err || fail "normal run"
cmp -s n.txt n2.txt || fail "--output-format=normal differs from the default"
grep -q '"bins"' j.txt && fail "plain json has bins"
grep -q '"bins"' jp.txt || fail "json+ has no bins"
"$BIN" run dev.fio --output-format=normal,json >c1.txt 2>err || fail "normal,json"
cat j.txt n.txt | cmp -s - c1.txt || fail "normal,json is not json then normal"
"$BIN" run dev.fio --output-format=normal,json+,terse,json >c2.txt 2>err || fail "all"
cat t.txt jp.txt n.txt | cmp -s - c2.txt || fail "normal,json+,terse,json is not terse, json+, normal"
grep -q '^Starting\|^fio-3.33$' c2.txt && fail "run printed fio's pre-run lines"

for bad in xml "json," ",json" "terse,,json" "Normal" "json;terse"; do
	"$BIN" run dev.fio --output-format="$bad" >o.txt 2>err
	st=$?
	[ "$st" -eq 2 ] || fail "--output-format='$bad': exit $st, want 2"
	grep -q "allowed normal, json, json+, terse" err || fail "--output-format='$bad': message"
	[ -s o.txt ] && fail "--output-format='$bad' printed a report"
done

if ! fio --version 2>/dev/null | grep -qx 'fio-3.33'; then
	echo "  fio 3.33 not found: terse checked without it"
	exit 0
fi
"$BIN" run null.fio --output-format=terse >ours.txt 2>err || fail "null terse run"
fio --minimal --output=theirs.txt null.fio >/dev/null 2>err || fail "fio --minimal"
awk -F';' '{ printf "%d\n", NF }' ours.txt >nf1
awk -F';' '{ printf "%d\n", NF }' theirs.txt >nf2
cmp -s nf1 nf2 || fail "field counts: ours $(tr '\n' ' ' <nf1), fio $(tr '\n' ' ' <nf2)"
# deterministic fields: header and io KiB, the idle direction (all of it),
# the percentile labels, the IO depths (1=100%), the description
pick() {
	awk -F';' '{
		s = $1 ";" $2 ";" $3 ";" $4 ";" $5 ";" $6 ";" $47
		lo = (NR == 1) ? 47 : 6; hi = lo + 40
		for (i = lo; i <= hi; i++) s = s ";" $i
		for (i = 18; i <= 37; i++) { split($i, p, "="); s = s ";" p[1] }
		for (i = 59; i <= 78; i++) { split($i, p, "="); s = s ";" p[1] }
		for (i = 93; i <= 99; i++) s = s ";" $i
		if (NF > 121) s = s ";" $NF
		print s
	}' "$1"
}
pick ours.txt >p1
pick theirs.txt >p2
[ -s p1 ] && [ "$(wc -l <p1)" -eq 2 ] || fail "no terse lines to compare"
cmp -s p1 p2 || { diff p1 p2 | head -5; fail "deterministic terse fields differ from fio's"; }
exit 0
