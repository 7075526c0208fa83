#!/bin/sh
# Description: src/lib/ depends only on the C library and on lib's own
# headers (the layering rule: lib/ may not include core, sched, ...). Every lib
# source and every lib header is compiled against a copy of include/ that
# holds nothing but the lib headers, so a direct or transitive include of
# any other iosched header (err.h, ios.h, ...) or of src/ fails the build.
CC=${CC:-cc}
LIB_HEADERS="rbtree.h btree.h list.h rand.h strmap.h sha256.h"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/include/iosched"
for h in $LIB_HEADERS; do
	cp "include/iosched/$h" "$dir/include/iosched/$h" || exit 1
done
fail=0
check() { # what, file to compile
	if ! "$CC" -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fsyntax-only \
		-I"$dir/include" "$2" >"$dir/log" 2>&1; then
		echo "FAIL: $1 needs more than the C library and lib's headers:"
		sed 's/^/    /' "$dir/log" | head -n 20
		fail=1
	fi
}
n=0
for c in src/lib/*.c; do
	check "$c" "$c"
	n=$((n + 1))
done
for h in $LIB_HEADERS; do
	# each header on its own: it includes what it uses, and only lib's
	printf '#include "iosched/%s"\n' "$h" >"$dir/h_$h.c"
	check "include/iosched/$h" "$dir/h_$h.c"
done
# Nor name one at all, even in dead #if code or where a system header of
# the same name (glibc has <err.h>) would hide it from the compiler.
bad=$(cd include/iosched && grep -n '#[[:space:]]*include[[:space:]]*"' $LIB_HEADERS |
	grep -v -e '"rbtree.h"' -e '"btree.h"' -e '"list.h"' -e '"rand.h"' -e '"strmap.h"' \
		-e '"sha256.h"')
bad2=$(grep -n '#[[:space:]]*include[[:space:]]*"' src/lib/*.c |
	grep -v -e '"iosched/rbtree.h"' -e '"iosched/btree.h"' -e '"iosched/list.h"' \
		-e '"iosched/rand.h"' -e '"iosched/strmap.h"' -e '"iosched/sha256.h"')
if [ -n "$bad$bad2" ]; then
	echo "FAIL: lib includes non-lib headers:"
	printf '%s\n%s\n' "$bad" "$bad2" | grep . | sed 's/^/    /'
	fail=1
fi
[ "$n" -gt 0 ] || { echo "FAIL: no lib sources found"; exit 1; }
[ "$fail" -eq 0 ] && echo "ok: $n lib sources and 5 lib headers build with lib's headers alone"
exit "$fail"
