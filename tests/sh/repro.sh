#!/bin/sh
# Description: iosched repro (the seed reproduction report).
#  - Bad input fails with a message and status 2: an unknown experiment
#    (naming the known ones), an unknown option, --jobs out of range.
#  - The output does not depend on the number of workers: two cheap
#    experiments with --quick, -j1 against -j2, JSON and Markdown.
#  - The committed report is never stale: every experiment regenerated in
#    full (every seed) gives docs/REPRODUCTION.md's rows and sections and
#    docs/repro/*.svg byte for byte, a line of tests/repro-parts at a time
#    (tests/repro-part.sh; in make check each line is a test of its own,
#    repro/..., on the pool's workers, and this test only checks that the
#    lines name every experiment once and that the committed report is
#    exactly their rows and sections under the top the code writes). The
#    sanitizer builds (BUILD other than "build") run the cheap experiments
#    a2 and c1 with --quick beside the b1 and b2 above, compared against
#    nothing: the repro code is the same for every experiment, the
#    schedulers and the stack under it have their own tests in both
#    builds, and the numbers are the normal build's. The full check by
#    hand: this test with REPRO_PARTS unset, or make seeds && git diff
#    --exit-code docs/
#  - The blk-mq scenarios (m1-m4, after the seed experiments): m2 gives the
#    same JSON with one worker and two; naming m4-b1 runs its base b1 too
#    and writes the verdict comparison. The full report's M sections add
#    about 23 s of CPU to the comparison above (measured 6 December 2026).
#  - The cgroup v2 scenarios (v2-c1, v2-c2, v2-c1-cloud, v2-c2-riops,
#    v2-c2-rewrite, after them): v2-c2 --quick writes its section with
#    C2.1's rows from the per-cgroup windows, v2-c2-riops C2.3's rate from
#    the group's I/Os. The full report's v2 sections add about 330 s of
#    CPU (v2-c1's 25 runs of 40 s on ssd-nvme are most of it; measured
#    6 December 2026).
BIN=${IOSCHED_BIN:-./iosched}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# bad input
"$BIN" repro nosuch >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown experiment: exit $rc"
grep -q "unknown experiment 'nosuch' (known: a1 a2 b1 b2 c1 d1" "$tmp/err" || { cat "$tmp/err"; fail "message"; }
[ -s "$tmp/out" ] && fail "unknown experiment: something on stdout"
"$BIN" repro --nosuch >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "unknown option '--nosuch'" "$tmp/err" || fail "unknown option: exit $rc"
"$BIN" repro -j0 b1 >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--jobs=0: allowed 1..256" "$tmp/err" || fail "-j0: exit $rc"
"$BIN" repro --output-format=xml >/dev/null 2>&1 && fail "--output-format=xml accepted"
[ -e docs/REPRODUCTION.md ] || fail "run from the top of the source tree"

# the same bytes with one worker and with two
"$BIN" repro --quick -j1 --output-format=json b1 b2 >"$tmp/j1.json" || fail "json -j1"
"$BIN" repro --quick -j2 --output-format=json b2 b1 >"$tmp/j2.json" || fail "json -j2"
cmp -s "$tmp/j1.json" "$tmp/j2.json" || fail "JSON differs between -j1 and -j2"
grep -q '"iosched_repro"' "$tmp/j1.json" && grep -q '"name": "b2"' "$tmp/j1.json" || fail "JSON content"
"$BIN" repro --quick -j1 --output-dir "$tmp/m1" b1 >"$tmp/s1" || fail "md -j1"
"$BIN" repro --quick -j2 --output-dir "$tmp/m2" b1 >"$tmp/s2" || fail "md -j2"
diff -r "$tmp/m1" "$tmp/m2" >/dev/null && cmp -s "$tmp/s1" "$tmp/s2" || fail "Markdown differs between -j1 and -j2"
grep -q '^b1 .* PASS ' "$tmp/s1" && grep -q 'criteria: ' "$tmp/s1" || { cat "$tmp/s1"; fail "summary"; }
grep -q '^!\[B1: .*](repro/b1.svg)$' "$tmp/m1/REPRODUCTION.md" || fail "plot link"
[ -s "$tmp/m1/repro/b1.svg" ] || fail "no plot"

# the blk-mq scenarios (docs/blk-mq-scenarios.md): m2 alone, and m4-b1,
# which compares with b1's verdicts and so runs b1 too, in both builds
"$BIN" repro --quick -j1 --output-format=json m2 >"$tmp/q1.json" || fail "m2 json -j1"
"$BIN" repro --quick -j2 --output-format=json m2 >"$tmp/q2.json" || fail "m2 json -j2"
cmp -s "$tmp/q1.json" "$tmp/q2.json" || fail "m2: JSON differs between -j1 and -j2"
grep -q '"id": "M2.4"' "$tmp/q1.json" || fail "m2: no criterion M2.4 in the JSON"
"$BIN" repro --quick --output-dir "$tmp/mq" m4-b1 >"$tmp/smq" || fail "repro m4-b1"
grep -q '^## B1: ' "$tmp/mq/REPRODUCTION.md" || fail "m4-b1 did not run its base b1"
grep -q '^## M4 (B1): ' "$tmp/mq/REPRODUCTION.md" || fail "no M4 (B1) section"
grep -q '^| M4.2 | `bfq-6.12:lab.fs=ext3` | ' "$tmp/mq/REPRODUCTION.md" || fail "no M4.2 row"
grep -q '^M4.1: every distinct criterion of `b1` on `noop` and on `none:lab.fs=ext3`' "$tmp/mq/REPRODUCTION.md" ||
	fail "no verdict comparison table"
grep -q '^m4-b1 kyber:lab.fs=ext3 .* \(PASS\|MISS\) ' "$tmp/smq" || { cat "$tmp/smq"; fail "m4-b1 summary"; }
[ -s "$tmp/mq/repro/m4-b1.svg" ] || fail "no m4-b1 plot"

# the cgroup v2 scenarios (docs/cgroup-v2-plan.md §10): v2-c2, one seed
"$BIN" repro --quick --output-dir "$tmp/cg" v2-c2 >"$tmp/scg" || fail "repro v2-c2"
grep -q '^## C2 (cgroup v2): ' "$tmp/cg/REPRODUCTION.md" || fail "no C2 section"
grep -q '^| C2.1 | `none:cgroup.lim.io.max=rbps=20971520` | .* | \*\*PASS\*\* |$' "$tmp/cg/REPRODUCTION.md" ||
	{ grep '^| C2' "$tmp/cg/REPRODUCTION.md"; fail "C2.1 row"; }
grep -q '^v2-c2 .* 20.0 MiB/s' "$tmp/scg" || { cat "$tmp/scg"; fail "v2-c2 summary"; }
# C2.3: a rate from the group's completed I/Os (riops=10, 26-jiffy floor at 250 Hz)
"$BIN" repro --quick --output-dir "$tmp/cgr" v2-c2-riops >"$tmp/scgr" || fail "repro v2-c2-riops"
grep -q '^| C2.3 | `none:lab.hz=250:cgroup.lim.io.max=riops=10` | .* | 9.62 IOPS[^|]*| \*\*PASS\*\* |$' \
	"$tmp/cgr/REPRODUCTION.md" || { grep '^| C2' "$tmp/cgr/REPRODUCTION.md"; fail "C2.3 row"; }

if [ "${BUILD:-build}" != build ]; then
	"$BIN" repro --quick --output-dir "$tmp/quick" a2 c1 >/dev/null || fail "repro --quick"
	echo "repro: a2, b1, b2, c1, m2, m4-b1 ran (--quick, $BUILD); every experiment and the full comparison run in the normal build"
	exit 0
fi

# The committed report is what the code produces now. tests/repro-part.sh
# regenerates a line of tests/repro-parts (every seed) and holds its rows,
# sections and plots against the committed ones at their places; make check
# runs each line as its own test (repro/..., tests/list-tests.sh, which sets
# REPRO_PARTS=pool), by hand they all run here. What is left to check here:
# that the pieces are the whole report.
known=$("$BIN" repro nosuch 2>&1 | sed -n 's/.*(known: \([^)]*\)).*/\1/p')
[ -n "$known" ] || fail "no list of experiments"
parts=$(grep -v '^#' tests/repro-parts)
for e in $known; do
	k=$(echo $parts | tr ' ' '\n' | grep -cx -- "$e")
	[ "$k" -eq 1 ] || fail "tests/repro-parts names $e $k times, not once"
done
for e in $parts; do
	case " $known " in *" $e "*) ;; *) fail "tests/repro-parts: '$e' is not an experiment" ;; esac
done
# one summary row and one section per experiment, and nothing else: the top,
# the rows and the sections are the whole file, byte for byte
mkdir "$tmp/doc"
set -- $(awk -v dir="$tmp/doc" -f tests/repro-split.awk docs/REPRODUCTION.md)
n=$(echo $known | wc -w)
[ "$1" -eq "$n" ] && [ "$2" -eq "$n" ] ||
	fail "docs/REPRODUCTION.md has $1 summary rows and $2 sections for $n experiments: regenerate it with 'make seeds'"
{
	cat "$tmp/doc/pre"
	i=1; while [ "$i" -le "$n" ]; do cat "$tmp/doc/row.$i"; i=$((i + 1)); done
	cat "$tmp/doc/mid"
	i=1; while [ "$i" -le "$n" ]; do cat "$tmp/doc/sec.$i"; i=$((i + 1)); done
} | cmp -s - docs/REPRODUCTION.md || fail "docs/REPRODUCTION.md is not its top, rows and sections"
# its top is what the code writes above a report of every kind (a seed,
# a blk-mq, a cgroup v2 experiment and DiskSim's drives; --quick adds its
# note to the version line, taken out here)
"$BIN" repro --quick --output-dir "$tmp/top" b1 m2 v2-c2-riops disksim >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "repro --quick for the top"; }
mkdir "$tmp/topdoc"
awk -v dir="$tmp/topdoc" -f tests/repro-split.awk "$tmp/top/REPRODUCTION.md" >/dev/null
sed 's/^\(iosched [^ ]*\.\) \*\*A quick run .*\*\*$/\1/' "$tmp/topdoc/pre" >"$tmp/topdoc/pre.full"
cmp -s "$tmp/topdoc/pre.full" "$tmp/doc/pre" || {
	diff -u "$tmp/doc/pre" "$tmp/topdoc/pre.full" | head -40
	fail "docs/REPRODUCTION.md's top is stale: regenerate it with 'make seeds' and commit it"
}
# a plot per experiment at most, named after it (repro-part.sh: each is
# the one its experiment writes)
for f in docs/repro/*.svg; do
	e=$(basename "$f" .svg)
	case " $known " in *" $e "*) ;; *) fail "$f is no experiment's plot: remove it" ;; esac
done
if [ "$REPRO_PARTS" = pool ]; then
	echo "repro: the report's $n experiments are in tests/repro-parts once each; make check's repro/* tests compare them"
	exit 0
fi
grep -v '^#' tests/repro-parts | while read -r exps; do
	[ -n "$exps" ] || continue
	# shellcheck disable=SC2086
	sh tests/repro-part.sh $exps || exit 1
done || fail "the committed report is stale (above)"
echo "repro: every experiment regenerated and compared"
