#!/bin/sh
# Description: the public headers are usable from C++: each header under
# include/iosched compiles alone with g++ -Wall -Wextra -Werror, and a C++
# program including the umbrella header (iosched/ios.h) links against the
# library and runs an I/O through ios_app_*. Every header wraps its
# declarations in extern "C"; without that the program does not link (its
# calls get C++-mangled names). Skips (77) without g++.
BUILD=${BUILD:-build}
command -v g++ >/dev/null 2>&1 || { echo "SKIP: no g++"; exit 77; }
lib=$BUILD/libiosched.a
[ -f "$lib" ] || { echo "FAIL: no $lib (build the library first)"; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

n=0
for h in include/iosched/*.h; do
	b=$(basename "$h")
	printf '#include <iosched/%s>\nint main() { return 0; }\n' "$b" >"$d/h.cc"
	g++ -std=c++11 -Wall -Wextra -Werror -Iinclude -c "$d/h.cc" -o "$d/h.o" 2>"$d/err" ||
		fail "$b in C++: $(head -5 "$d/err")"
	grep -q 'extern "C"' "$h" || [ "$b" = ios.h ] || fail "$b has no extern \"C\" block"
	n=$((n + 1))
done

cat >"$d/app.cc" <<'CC'
#include <cstdio>
#include <iosched/ios.h>

static unsigned calls;

static void done(void *, int error, uint64_t)
{
	calls += error == 0;
}

int main()
{
	struct ios_app_config cfg = {};
	struct ios_app_tenant t = {};
	struct ios_err e = {};
	cfg.scheduler = "bfq";
	t.name = "cxx";
	t.ioprio_class = 2;
	struct ios_app *app = ios_app_open(&cfg, &e);
	if (!app) {
		std::printf("open: %s\n", e.msg);
		return 1;
	}
	int f = ios_app_add_file(app, "f", 1 << 20, 0, &e);
	int id = ios_app_tenant_add(app, &t, &e);
	if (f < 0 || id < 0 || ios_app_submit(app, id, f, IOS_APP_READ, 0, 4096, nullptr, 0,
					      done, nullptr, &e)) {
		std::printf("setup: %s\n", e.msg);
		return 1;
	}
	long n = ios_app_wait(app, 1, 0, &e);
	std::printf("%ld %u %d\n", n, calls, ios_sched_find("cfq-4.19") != nullptr);
	return ios_app_close(app) == 0 && n == 1 && calls == 1 ? 0 : 1;
}
CC
san=
nm "$lib" 2>/dev/null | grep -q __asan_init && san="-fsanitize=address,undefined"
# shellcheck disable=SC2046
g++ -std=c++11 -Wall -Wextra -Werror $san -Iinclude "$d/app.cc" -o "$d/app" "$lib" -lm -pthread \
	$(pkg-config --libs liburing 2>/dev/null) 2>"$d/err" || fail "C++ program: $(head -8 "$d/err")"
out=$("$d/app" 2>&1) || fail "C++ program ran: $out"
[ "$out" = "1 1 1" ] || fail "C++ program printed '$out', want '1 1 1'"
echo "ok: $n headers compile as C++; a C++ program links and runs an I/O"
