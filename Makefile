# iosched build. Plain make; `make V=1` shows full commands.
#
#   make             the library and the command line tool (./iosched) only
#   make all         that, the unit tests and the benchmarks
#   make deps        install the Debian packages the build and tests need (root)
#   make check       every test: unit, golden jobs and examples, then the same
#                    under AddressSanitizer and UBSan, then a bounded fuzz run
#   make check-quick the tests of the normal build only
#   make check-asan  the tests under AddressSanitizer and UBSan (build-asan/)
#   make bench       build and run the benchmarks in bench/
#   make seeds       run the seed experiments under every scheduler and write
#                    docs/REPRODUCTION.md and docs/repro/*.svg (iosched repro)
#   make shared      the shared library, $(BUILD)/libiosched.so.0.1.0 (soname .so.0)
#   make install     PREFIX=/usr/local DESTDIR=: the command, the static and shared
#                    library, the headers, iosched.pc and the man pages (docs/install.md)
#   make uninstall   remove what install put there (same PREFIX and DESTDIR)
#   make man         rewrite man/libiosched.3's STRUCTURES AND CONSTANTS from the headers
#   make clean

-include config.mk

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
DEBUG   ?= -g
# the unit test programs' own code (the library they link keeps OPT): the
# sanitizer build compiles them at -O0, a quarter of the time at -O2, with the
# same checks (make check's time, issue 16)
TEST_OPT ?= $(OPT)
CFLAGS_BASE = -std=c11 -D_GNU_SOURCE $(DEBUG) $(OPT) -Wall -Wextra -Wstrict-prototypes \
	      -Wwrite-strings -Wshadow=local -Iinclude -Isrc -MMD -MP
ifeq ($(WERROR),1)
CFLAGS_BASE += -Werror
endif
# io_uring for --real (src/run/host_uring.c); without liburing --real says so
LIBURING_LIBS ?= $(shell pkg-config --libs liburing 2>/dev/null)
ifneq ($(strip $(LIBURING_LIBS)),)
CFLAGS_BASE += -DIOS_HAVE_LIBURING=1
endif
ALL_CFLAGS = $(CFLAGS_BASE) $(SAN) $(CFLAGS)
LDLIBS  += -lm -pthread $(LIBURING_LIBS)

ifeq ($(V),1)
Q =
msg = @true
else
Q = @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

LIB_SRCS   := $(sort $(wildcard src/*/*.c))
LIB_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_SRCS   := $(sort $(wildcard cli/*.c))
CLI_OBJS   := $(CLI_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS  := $(sort $(wildcard tests/unit/*.c))
# The unit tests are one program (tests/multicall.c): each tests/unit/NAME.c
# compiled with its main renamed t_main_NAME, all linked once into
# BUILD/tests/obj/iosched-tests, and BUILD/tests/NAME a symlink to it that
# runs that test alone in its own process. Linking each test against the
# static library was 62 s of the normal build's 101 s of CPU for its 223 test
# programs, more than compiling them; one link takes about a second (issue 34)
TEST_NAMES := $(TEST_SRCS:tests/unit/%.c=%)
# TEST_CODE_BUILD=DIR links the test code (the tests, the harness, the
# table of tests) that the build in DIR compiled, made there first, with
# this build's library: make check's sanitizer build takes the normal
# build's, so the test code is compiled once, not sanitized, and the
# library under test is (issue 34: 55 s of CPU less). make check-asan
# compiles its own, sanitized.
TEST_CODE_BUILD ?= $(BUILD)
TEST_OBJS  := $(TEST_NAMES:%=$(TEST_CODE_BUILD)/tests/obj/%.o)
TEST_PROGS := $(BUILD)/tests/obj/progs.h
TEST_MULTI := $(BUILD)/tests/obj/iosched-tests
TEST_BINS  := $(TEST_NAMES:%=$(BUILD)/tests/%)
HARNESS_OBJ := $(TEST_CODE_BUILD)/tests/harness.o
TEST_MAIN_OBJ := $(TEST_CODE_BUILD)/tests/obj/multicall.o
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)
LIB        := $(BUILD)/libiosched.a
# the shared library: the same sources, position-independent, in their own objects
VERSION    := $(shell sed -n 's/^\#define IOS_VERSION_STRING "\(.*\)"/\1/p' include/iosched/ios.h)
SONAME     := libiosched.so.0
PIC_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o)
SHLIB      := $(BUILD)/libiosched.so.$(VERSION)
PC         := $(BUILD)/iosched.pc
BIN        := iosched
ifeq ($(BUILD),build)
BIN_OUT    := $(BIN)
else
BIN_OUT    := $(BUILD)/$(BIN)
endif

.PHONY: default all lib cli tests benches deps check check-quick check-asan fuzz-smoke bench fuzz \
	seeds clean shared install uninstall man FORCE
# A newcomer's `make` builds what the first run needs (issue 32 item 7): the
# tests and benchmarks, 180 more programs to link, come with `make all` and
# every `make check*`.
default: lib cli
	@echo "built ./$(BIN_OUT); 'make all' builds the tests and benchmarks too, 'make check' runs every test"
all: lib cli tests benches

lib: $(LIB)
cli: $(BIN_OUT)
tests: $(TEST_BINS)
benches: $(BENCH_BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN_OUT): $(CLI_OBJS) $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(BUILD)/tests/harness.o: tests/harness.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_OPT) -Itests -c $< -o $@

$(BUILD)/tests/obj/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_OPT) -Itests -Dmain=t_main_$* -c $< -o $@

# the list of tests, rewritten only when a test is added or removed
$(TEST_PROGS): FORCE
	@mkdir -p $(dir $@)
	@printf 'T_PROG(%s)\n' $(TEST_NAMES) >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/tests/obj/multicall.o: tests/multicall.c $(TEST_PROGS)
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_OPT) -I$(BUILD)/tests/obj -c $< -o $@

$(TEST_MULTI): $(TEST_MAIN_OBJ) $(TEST_OBJS) $(HARNESS_OBJ) $(LIB)
	$(call msg,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_OPT) -o $@ $(TEST_MAIN_OBJ) $(TEST_OBJS) \
		$(HARNESS_OBJ) $(LIB) $(LDLIBS)

$(TEST_BINS): $(BUILD)/tests/%: $(TEST_MULTI)
	$(Q)ln -sfn obj/iosched-tests $@

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,CCLD,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(LIB) $(LDLIBS)

deps:
	@sh scripts/install-deps.sh

check:
	@MAKE="$(MAKE)" sh tests/check-all.sh

check-quick: all
	@BUILD=$(BUILD) BIN=$(abspath $(BIN_OUT)) TEST_ENV="$(TEST_ENV)" sh tests/run-tests.sh

ASAN_VARS = BUILD=build-asan OPT=-O2 DEBUG=-g1 TEST_OPT=-O0 SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
check-asan:
	$(MAKE) $(ASAN_VARS) TEST_ENV="ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1" check-quick

FUZZ_SECONDS ?= 30
fuzz-smoke: fuzz
	@sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/fuzz_jobfile $(FUZZ_SECONDS)
	@sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/fuzz_trace $(FUZZ_SECONDS) tests/fuzz/corpus-trace
	@sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/fuzz_settings $(FUZZ_SECONDS) tests/fuzz/corpus-settings
	@sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/fuzz_replay $(FUZZ_SECONDS) tests/fuzz/corpus-replay
	@sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/fuzz_disksim $(FUZZ_SECONDS) tests/fuzz/corpus-disksim
	@sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/fuzz_disksim_trace $(FUZZ_SECONDS) tests/fuzz/corpus-disksim-trace
	@sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/fuzz_sweep_grid $(FUZZ_SECONDS) tests/fuzz/corpus-sweep

seeds: cli
	./$(BIN_OUT) repro

bench: all
	@BUILD=$(BUILD) BIN=$(abspath $(BIN_OUT)) sh bench/run-bench.sh

# The library is compiled once for all fuzzers (instrumented, not linked
# with libFuzzer's main), then each target links against it.
FUZZ_CC ?= clang
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE $(DEBUG) -O1 -Iinclude -Isrc
FUZZ_TARGETS := fuzz_jobfile fuzz_trace fuzz_settings fuzz_replay fuzz_disksim \
		fuzz_disksim_trace fuzz_sweep_grid
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
fuzz: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c $< -o $@
$(BUILD)/fuzz/libiosched-fuzz.a: $(FUZZ_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/fuzz/libiosched-fuzz.a
	@mkdir -p $(dir $@)
	$(call msg,FUZZ,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-o $@ $< $(BUILD)/fuzz/libiosched-fuzz.a -lm

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC-PIC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -c $< -o $@
# only the ios_ names are the library's (STYLE: every global is ios_-prefixed)
$(SHLIB): $(PIC_OBJS)
	$(call msg,SHLIB,$@)
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) $(SAN) $(LDFLAGS) -o $@ $(PIC_OBJS) $(LDLIBS)
shared: $(SHLIB)

$(PC): iosched.pc.in include/iosched/ios.h Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		-e 's|@DOCDIR@|$(DOCDIR)|' \
		-e 's|@REQUIRES_PRIVATE@|$(if $(strip $(LIBURING_LIBS)),liburing,)|' $< >$@

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DOCDIR     ?= $(PREFIX)/share/doc/iosched
HEADERS    := $(sort $(wildcard include/iosched/*.h))
# what libiosched(3) points to: the library's guide, real mode, installing, the C examples
DOCS       := docs/library.md docs/real.md docs/install.md
EXAMPLES_C := $(sort $(wildcard examples/c/*.c))
# the .pc names PREFIX's paths, so it is remade for each install
install: $(LIB) $(SHLIB) $(BIN_OUT)
	@rm -f $(PC) && $(MAKE) --no-print-directory $(PC)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/iosched \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(DOCDIR)/examples/c
	install -m 755 $(BIN_OUT) $(DESTDIR)$(BINDIR)/iosched
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libiosched.a
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/libiosched.so.$(VERSION)
	ln -sf libiosched.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libiosched.so
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/iosched/
	install -m 644 $(PC) $(DESTDIR)$(PKGCONFIGDIR)/iosched.pc
	install -m 644 man/iosched.1 $(DESTDIR)$(MANDIR)/man1/iosched.1
	install -m 644 man/libiosched.3 $(DESTDIR)$(MANDIR)/man3/libiosched.3
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	install -m 644 $(EXAMPLES_C) $(DESTDIR)$(DOCDIR)/examples/c/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/iosched $(DESTDIR)$(LIBDIR)/libiosched.a \
		$(DESTDIR)$(LIBDIR)/libiosched.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libiosched.so $(DESTDIR)$(PKGCONFIGDIR)/iosched.pc \
		$(DESTDIR)$(MANDIR)/man1/iosched.1 $(DESTDIR)$(MANDIR)/man3/libiosched.3 \
		$(HEADERS:include/iosched/%=$(DESTDIR)$(INCLUDEDIR)/iosched/%) \
		$(DOCS:docs/%=$(DESTDIR)$(DOCDIR)/%) \
		$(EXAMPLES_C:examples/c/%=$(DESTDIR)$(DOCDIR)/examples/c/%)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/iosched $(DESTDIR)$(DOCDIR)/examples/c \
		$(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) 2>/dev/null

FORCE:

man:
	python3 scripts/man-api.py man/libiosched.3

clean:
	rm -rf build build-asan $(BIN)

# a test's own .d: a change to a header it includes (tests/*.h,
# tests/unit/*.h, src/...) recompiles it
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(HARNESS_OBJ:.o=.d) $(FUZZ_LIB_OBJS:.o=.d) \
	$(PIC_OBJS:.o=.d) $(TEST_OBJS:.o=.d) \
	$(TEST_MAIN_OBJ:.o=.d) $(BENCH_BINS:=.d)
