#!/bin/sh
# The shape rules (docs/architecture.md): no source file over 1,500 lines,
# no function over 150 (data tables are not functions: they open with "= {"
# on their declaration line, functions with "{" alone on a line, kernel
# style), and every global symbol of libiosched.a carries the ios_ prefix
# (__ios_ for a caller-has-checked variant), so an application that links
# the library meets no name of ours outside that namespace.
BUILD=${BUILD:-build}
MAX_FILE=1500
MAX_FUNC=150
bad=0

files=$(ls src/*/*.c src/*/*.h include/iosched/*.h cli/*.c cli/*.h bench/*.c \
	tests/*.c tests/*.h tests/unit/*.c tests/unit/*.h tests/fuzz/*.c 2>/dev/null)

for f in $files; do
	n=$(wc -l < "$f")
	if [ "$n" -gt $MAX_FILE ]; then
		echo "$f: $n lines (limit $MAX_FILE)"
		bad=1
	fi
done

# A function body runs from a line that is exactly "{" to the next line
# that is exactly "}"; its name is the last identifier followed by "(" in
# the lines just above the "{".
long=$(awk -v max=$MAX_FUNC '
FNR == 1 { hdr = "" }
/^\{$/ { start = FNR; name = hdr; next }
/^\}/ && start {
	len = FNR - start + 1
	if (len > max)
		printf "%s:%d: %s is %d lines (limit %d)\n", FILENAME, start, name, len, max
	start = 0; next
}
!start {
	if ($0 ~ /^[A-Za-z_].*\(/ || $0 ~ /^[A-Za-z_]/) {
		s = $0; sub(/\(.*/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/)
		for (i = n; i > 0; i--) if (w[i] != "") { hdr = w[i]; break }
	}
}' $files)
if [ -n "$long" ]; then
	echo "$long"
	bad=1
fi

# (the sanitizers' own symbols, __odr_asan.NAME and the like, are theirs)
lib=$BUILD/libiosched.a
if [ -f "$lib" ] && command -v nm >/dev/null 2>&1; then
	syms=$(nm -g --defined-only "$lib" | awk 'NF == 3 && $3 !~ /^(__)?ios_/ && $3 !~ /^__(odr_)?asan/ && $3 !~ /^__(ubsan|sancov)/ { print $3 }' | sort -u)
	if [ -n "$syms" ]; then
		echo "global symbols of $lib without the ios_ prefix:"
		echo "$syms" | sed 's/^/  /'
		bad=1
	fi
else
	echo "no $lib (or no nm): symbol check skipped"
fi

[ $bad -eq 0 ] && echo "code shape: files <= $MAX_FILE lines, functions <= $MAX_FUNC, symbols ios_*"
exit $bad
