#!/bin/sh
# Description: the plots committed under docs/plots/ are what the code draws
# now (the timeline example in docs/logs-and-plots.md). To refresh one after
# an intended change: ./iosched run examples/intro.fio --plot docs/plots/intro-cfq.svg
BIN=${IOSCHED_BIN:-./iosched}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f docs/plots/intro-cfq.svg ] || { echo "run from the top of the source tree"; exit 1; }
"$BIN" run examples/intro.fio --plot "$tmp/intro-cfq.svg" >/dev/null || { echo "FAIL: run"; exit 1; }
if ! cmp -s "$tmp/intro-cfq.svg" docs/plots/intro-cfq.svg; then
	echo "FAIL: docs/plots/intro-cfq.svg is stale; regenerate it:"
	echo "  ./iosched run examples/intro.fio --plot docs/plots/intro-cfq.svg"
	exit 1
fi
grep -q "Who owned the disk" docs/plots/intro-cfq.svg || { echo "FAIL: no timeline"; exit 1; }
echo "docs/plots/intro-cfq.svg is current"
