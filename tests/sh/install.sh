#!/bin/sh
# Description: make install puts the command, the static and the shared
# library (soname libiosched.so.0), the headers, iosched.pc and both man
# pages under PREFIX (or DESTDIR/PREFIX); every example in examples/c
# builds against the installed library through pkg-config, dynamically
# (NEEDED libiosched.so.0) and statically, and runs; the shared library
# exports only ios_ names; the man pages render without warnings; make
# uninstall leaves nothing behind. Uses the normal build (build/), whatever
# BUILD the suite runs with: packaging is not what the sanitizers check.
top=$(pwd)
command -v cc >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 ||
	{ echo "SKIP: needs cc and pkg-config"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mk() { make -s --no-print-directory -C "$top" BUILD=build "$@"; }

p=$d/prefix
mk -j2 install PREFIX="$p" >"$d/make.log" 2>&1 || fail "make install: $(tail -20 "$d/make.log")"
for f in bin/iosched lib/libiosched.a lib/libiosched.so.0.1.0 lib/pkgconfig/iosched.pc \
	include/iosched/app.h share/man/man1/iosched.1 share/man/man3/libiosched.3; do
	[ -f "$p/$f" ] || fail "not installed: $f"
done
# what libiosched(3) points to: the docs and the C examples
for f in library.md real.md install.md; do
	[ -f "$p/share/doc/iosched/$f" ] || fail "not installed: share/doc/iosched/$f"
done
for src in examples/c/*.c; do
	cmp -s "$src" "$p/share/doc/iosched/examples/c/$(basename "$src")" || fail "not installed: $src"
done
grep -q "PREFIX/share/doc/iosched/examples/c/" man/libiosched.3 || fail "the man page does not name the installed examples"
# iosched.pc's URL: the installed guide, no placeholder domain
url=$(sed -n 's/^URL: //p' "$p/lib/pkgconfig/iosched.pc")
[ "$url" = "file://$p/share/doc/iosched/library.md" ] || fail "iosched.pc URL: $url"
[ -f "${url#file://}" ] || fail "iosched.pc URL names no file: $url"
[ "$(readlink "$p/lib/libiosched.so.0")" = libiosched.so.0.1.0 ] || fail "libiosched.so.0 link"
[ "$(readlink "$p/lib/libiosched.so")" = libiosched.so.0 ] || fail "libiosched.so link"
readelf -d "$p/lib/libiosched.so.0.1.0" | grep -q 'SONAME.*\[libiosched.so.0\]' || fail "soname"
"$p/bin/iosched" --version | grep -q "^iosched " || fail "installed iosched --version"
# every installed header compiles alone against the installed tree
for h in "$p"/include/iosched/*.h; do
	printf '#include <iosched/%s>\nint main(void) { return 0; }\n' "$(basename "$h")" >"$d/h.c"
	cc -std=c11 -Wall -Wextra -Werror -I"$p/include" -c "$d/h.c" -o "$d/h.o" 2>"$d/h.err" ||
		fail "header $(basename "$h") alone: $(head -5 "$d/h.err")"
done
# only the library's own names are exported
bad=$(nm -D --defined-only "$p/lib/libiosched.so.0.1.0" | awk '{ print $3 }' | grep -v '^_*ios_' | head -5)
[ -z "$bad" ] || fail "the shared library exports: $bad"

export PKG_CONFIG_PATH="$p/lib/pkgconfig"
pkg-config --exists iosched || fail "pkg-config does not find iosched"
[ "$(pkg-config --modversion iosched)" = "$(sed -n 's/^#define IOS_VERSION_STRING "\(.*\)"/\1/p' include/iosched/ios.h)" ] ||
	fail "iosched.pc version"
n=0
for src in examples/c/*.c; do
	b=$d/$(basename "$src" .c)
	# shellcheck disable=SC2046
	cc -Wall -Wextra -Werror "$src" -o "$b.dyn" $(pkg-config --cflags --libs iosched) 2>"$d/cc.err" ||
		fail "$src, shared: $(head -5 "$d/cc.err")"
	readelf -d "$b.dyn" | grep -q 'NEEDED.*\[libiosched.so.0\]' || fail "$src: not linked to libiosched.so.0"
	# static: the archive itself, then what pkg-config --static says it needs
	# shellcheck disable=SC2046
	cc -Wall -Wextra -Werror "$src" -o "$b.sta" $(pkg-config --cflags iosched) \
		"$p/lib/libiosched.a" $(pkg-config --static --libs iosched | sed 's/-liosched//') 2>"$d/cc.err" ||
		fail "$src, static: $(head -5 "$d/cc.err")"
	readelf -d "$b.sta" | grep -q 'libiosched' && fail "$src, static: still needs libiosched"
	LD_LIBRARY_PATH="$p/lib" "$b.dyn" >"$b.out1" 2>&1 || fail "$src (shared) failed: $(tail -5 "$b.out1")"
	"$b.sta" >"$b.out2" 2>&1 || fail "$src (static) failed: $(tail -5 "$b.out2")"
	cmp -s "$b.out1" "$b.out2" || fail "$src: shared and static runs differ"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no examples in examples/c"
# backup_idle prints a line per tenant with its bandwidth and I/O count
grep -q '^foreground .* MiB/s .*([1-9][0-9]* I/Os)$' "$d/backup_idle.out1" &&
	grep -q '^backup .* MiB/s .*([1-9][0-9]* I/Os)$' "$d/backup_idle.out1" ||
	fail "backup_idle printed: $(cat "$d/backup_idle.out1")"
for m in "$p/share/man/man1/iosched.1" "$p/share/man/man3/libiosched.3"; do
	groff -man -Tutf8 -ww "$m" >/dev/null 2>"$d/groff.err" || fail "groff $m"
	[ ! -s "$d/groff.err" ] || fail "$(basename "$m"): $(head -3 "$d/groff.err")"
done
mk uninstall PREFIX="$p" >"$d/make.log" 2>&1 || fail "make uninstall: $(tail -5 "$d/make.log")"
left=$(find "$p" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left: $left"

# DESTDIR: staged under DESTDIR, the paths inside name PREFIX
s=$d/stage
mk install PREFIX=/opt/ios DESTDIR="$s" >"$d/make.log" 2>&1 || fail "DESTDIR install: $(tail -5 "$d/make.log")"
[ -f "$s/opt/ios/lib/libiosched.so.0.1.0" ] || fail "DESTDIR: not staged"
grep -q '^prefix=/opt/ios$' "$s/opt/ios/lib/pkgconfig/iosched.pc" || fail "DESTDIR: .pc prefix"
mk uninstall PREFIX=/opt/ios DESTDIR="$s" >/dev/null 2>&1 || fail "DESTDIR uninstall"
[ -z "$(find "$s" -type f -o -type l)" ] || fail "DESTDIR uninstall left files"
echo "install: $n example(s) built shared and static against the installed library"
