#!/bin/sh
# Description: --plot-by (run, compare) chooses what a plot's line is.
#  - An unknown value is refused with status 2 and the allowed values,
#    before anything runs.
#  - auto: twelve jobs in two cgroups are drawn as two lines, one per
#    cgroup, labelled "/a (6 jobs)", and the subtitle says so; job draws
#    every job; class draws one line per ioprio class and level.
#  - The plot is the same bytes run twice and with --jobs 1 and 2, and
#    the report beside it does not change with --plot or --plot-by.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f err ] && sed 's/^/    /' err; exit 1; }
printf '[global]\ndirect=1\nsize=2m\nbs=16k\nrw=randread\nruntime=1\ntime_based\n[a]\ncgroup=a\nnumjobs=6\nprio=2\n[b]\ncgroup=b\nnumjobs=6\nprio=6\n' >g.fio

"$BIN" run g.fio --plot x.svg --plot-by jobs >out 2>err; st=$?
[ "$st" -eq 2 ] || fail "--plot-by jobs: exit $st"
grep -qF -- "--plot-by=jobs: allowed auto, job, cgroup, class" err || fail "--plot-by jobs: message"
[ -e x.svg ] || [ -s out ] && fail "--plot-by jobs: ran"
"$BIN" compare g.fio --plot x.svg --plot-by=Cgroups >/dev/null 2>err; st=$?
[ "$st" -eq 2 ] && grep -qF "allowed auto, job, cgroup, class" err || fail "compare --plot-by: exit $st"

S=cfq-4.19,bfq
"$BIN" compare g.fio --schedulers $S --jobs 1 --plot p1.svg >r1 || fail "compare -j1"
"$BIN" compare g.fio --schedulers $S --jobs 2 --plot p2.svg >r2 || fail "compare -j2"
"$BIN" compare g.fio --schedulers $S --jobs 2 --plot p3.svg >/dev/null || fail "compare again"
"$BIN" compare g.fio --schedulers $S --plot-by job --plot pj.svg >r3 || fail "compare job"
"$BIN" compare g.fio --schedulers $S >r4 || fail "compare without a plot"
cmp -s p1.svg p2.svg && cmp -s p1.svg p3.svg || fail "the plot differs between runs or --jobs"
cmp -s r1 r2 && cmp -s r1 r3 && cmp -s r1 r4 || fail "the report changes with --plot or --plot-by"
grep -q '>/a (6 jobs)<' p1.svg && grep -q '>/b (6 jobs)<' p1.svg || fail "no cgroup lines"
grep -q '>a\.0<' p1.svg && fail "auto drew jobs"
grep -qF 'one line per cgroup (2 for 12 jobs; --plot-by auto)' p1.svg || fail "subtitle"
grep -q 'Bandwidth per cgroup' p1.svg || fail "panel title"
grep -q '>b\.5<' pj.svg && ! grep -q '(6 jobs)' pj.svg || fail "--plot-by job"

"$BIN" run g.fio --plot c.svg --plot-by class >rc 2>/dev/null || fail "run --plot-by class"
grep -q '>BE2 (6 jobs)<' c.svg && grep -q '>BE6 (6 jobs)<' c.svg || fail "class lines"
grep -qF 'one line per class and level (2 for 12 jobs; --plot-by class)' c.svg || fail "class subtitle"
"$BIN" run g.fio >rn 2>/dev/null || fail "run"
cmp -s rc rn || fail "run's report changes with --plot"
echo "plot_by: refused values, auto/job/class lines, same bytes with -j1 and -j2"
