#!/bin/sh
# Description: fio's own json+ reader, fio_jsonplus_clat2csv (shipped with
# fio), turns our --output-format=json+ into one CSV per job with a data
# row per latency bucket, and its --validate mode reads the CSVs back and
# finds the same bins as the JSON. Skipped (77) without the tool or a
# python3 that has its 'six' module.
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
tool=$(command -v fio_jsonplus_clat2csv) || { echo "  fio_jsonplus_clat2csv not found"; exit 77; }
python3 -c 'import six' 2>/dev/null || { echo "  python3 with six not found"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; [ -f "$d/err" ] && sed 's/^/    /' "$d/err"; exit 1; }

printf '[r]\nrw=randread\nbs=4k\nsize=2m\n\n[w]\nrw=randwrite\ndirect=1\nbs=64k\nsize=2m\nlat_percentiles=1\n' >j.fio
"$BIN" run j.fio --output-format=json+ >out.json 2>err || fail "json+ run"
python3 "$tool" out.json out.csv >log 2>err || fail "fio_jsonplus_clat2csv"
python3 "$tool" --validate out.json out.csv >log 2>err || fail "fio_jsonplus_clat2csv --validate"
for k in 0 1; do
	f=out_job$k.csv
	[ -f "$f" ] || fail "no $f"
	head -1 "$f" | grep -q '^nsec, read_slat_ns_count' || fail "$f: header"
	rows=$(($(wc -l <"$f") - 1))
	[ "$rows" -ge 2 ] || fail "$f: $rows data rows"
done
# job 0 read 512 I/Os: the last read clat cumulative count is 512
last=$(awk -F', ' 'NR > 1 && $6 != "" { c = $6 } END { print c }' out_job0.csv)
[ "$last" = 512 ] || fail "read clat cumulative count $last, want 512"
exit 0
