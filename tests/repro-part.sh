#!/bin/sh
# One piece of make check's proof that docs/REPRODUCTION.md and
# docs/repro/*.svg are what the code produces now (issue 34: regenerating
# the whole report in one test took ~330 s of CPU, one worker's whole share
# of make check; the pieces run side by side in tests/pool.sh):
#
#   sh tests/repro-part.sh EXPERIMENT...
#
# runs `iosched repro` (the full run, every seed) on those experiments and
# holds what it writes against the committed files, byte for byte: the
# summary row and the section of each experiment against the committed row
# and section at that experiment's place in the report (the order of
# `iosched repro`'s list of experiments, which is the report's order), the
# lines between the summary and the first section, and every plot it writes
# against docs/repro/. An experiment that needs another's runs (m3 and m4-a1
# need a1's, m4-b1 b1's, v2-c4 v2-c4a's) is in the same piece as it: repro writes that
# one's section too. tests/repro-parts lists the pieces, one a line;
# tests/sh/repro.sh checks that they name every experiment once, that the
# committed report is exactly its pieces (top, rows, sections, one per
# experiment) and that its top is what the code writes. Run from the top of
# the tree. The whole report by hand: make seeds && git diff --exit-code docs/
BIN=${IOSCHED_BIN:-./iosched}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ $# -gt 0 ] || fail "usage: sh tests/repro-part.sh EXPERIMENT..."
[ -e docs/REPRODUCTION.md ] || fail "run from the top of the source tree"

# the experiments in the report's order, and this piece's place in it
known=$("$BIN" repro nosuch 2>&1 | sed -n 's/.*(known: \([^)]*\)).*/\1/p')
[ -n "$known" ] || fail "no list of experiments from '$BIN repro nosuch'"
want=" $* "
exps=""; places=""; i=0
for e in $known; do
	i=$((i + 1))
	case $want in *" $e "*) exps="$exps $e"; places="$places $i" ;; esac
done
for e in "$@"; do
	case " $known " in *" $e "*) ;; *) fail "'$e' is not an experiment (known: $known)" ;; esac
done

mkdir "$tmp/doc" "$tmp/new"
awk -v dir="$tmp/doc" -f "$here/repro-split.awk" docs/REPRODUCTION.md >/dev/null
# shellcheck disable=SC2086
"$BIN" repro --output-dir "$tmp/full" $exps >"$tmp/summary" || fail "iosched repro$exps"
set -- $(awk -v dir="$tmp/new" -f "$here/repro-split.awk" "$tmp/full/REPRODUCTION.md")
n=$(echo $exps | wc -w)
[ "$1" -eq "$n" ] && [ "$2" -eq "$n" ] ||
	fail "repro$exps wrote $1 summary rows and $2 sections, not $n of each"

stale() { # committed-file new-file what
	cmp -s "$1" "$2" && return 0
	diff -u "$1" "$2" | head -40
	fail "docs/REPRODUCTION.md is stale ($3): regenerate it with 'make seeds' and commit it"
}
stale "$tmp/doc/mid" "$tmp/new/mid" "the lines after the summary table"
k=0
for p in $places; do
	k=$((k + 1))
	e=$(echo $exps | cut -d' ' -f$k)
	[ -f "$tmp/doc/row.$p" ] && [ -f "$tmp/doc/sec.$p" ] ||
		fail "docs/REPRODUCTION.md has no row or section $p (for $e): regenerate it with 'make seeds'"
	stale "$tmp/doc/row.$p" "$tmp/new/row.$k" "$e's summary row"
	stale "$tmp/doc/sec.$p" "$tmp/new/sec.$k" "$e's section"
done
for f in $(cd "$tmp/full" && ls repro/*.svg 2>/dev/null); do
	cmp -s "$tmp/full/$f" "docs/$f" || {
		diff -u "docs/$f" "$tmp/full/$f" | head -40
		fail "docs/$f is stale: regenerate it with 'make seeds' and commit it"
	}
done
for e in $exps; do
	[ ! -e "docs/repro/$e.svg" ] || [ -e "$tmp/full/repro/$e.svg" ] ||
		fail "docs/repro/$e.svg is no longer generated: remove it"
done
echo "repro$exps: rows, sections and plots as committed"
tail -1 "$tmp/summary"
