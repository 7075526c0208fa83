# iosched build. Plain make; `make V=1` shows full commands.
#
#   make            library, command line tool (./iosched), tests and benchmarks
#   make check      build and run every test (unit, golden jobs, examples, fuzz smoke)
#   make check-asan the same under AddressSanitizer and UBSan (build-asan/)
#   make bench      build and run the benchmarks in bench/
#   make clean

-include config.mk

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
CFLAGS_BASE = -std=c11 -D_GNU_SOURCE -g $(OPT) -Wall -Wextra -Wstrict-prototypes \
	      -Wwrite-strings -Wshadow=local -Iinclude -Isrc -MMD -MP
ifeq ($(WERROR),1)
CFLAGS_BASE += -Werror
endif
ALL_CFLAGS = $(CFLAGS_BASE) $(SAN) $(CFLAGS)
LDLIBS  += -lm

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
TEST_BINS  := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
HARNESS_OBJ := $(BUILD)/tests/harness.o
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)
LIB        := $(BUILD)/libiosched.a
BIN        := iosched
ifeq ($(BUILD),build)
BIN_OUT    := $(BIN)
else
BIN_OUT    := $(BUILD)/$(BIN)
endif

.PHONY: all lib cli tests benches check check-asan bench fuzz clean
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
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c $(HARNESS_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,CCLD,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(HARNESS_OBJ) $(LIB) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(call msg,CCLD,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(LIB) $(LDLIBS)

check: all
	@BUILD=$(BUILD) BIN=$(BIN_OUT) sh tests/run-tests.sh

check-asan:
	$(MAKE) BUILD=build-asan OPT=-O1 SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" check

bench: all
	@BUILD=$(BUILD) BIN=$(BIN_OUT) sh bench/run-bench.sh

FUZZ_CC ?= clang
fuzz: $(BUILD)/fuzz/fuzz_jobfile
$(BUILD)/fuzz/fuzz_jobfile: tests/fuzz/fuzz_jobfile.c $(LIB_SRCS)
	@mkdir -p $(dir $@)
	$(call msg,FUZZ,$<)
	$(Q)$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -Isrc -fsanitize=fuzzer,address,undefined \
		-o $@ $< $(LIB_SRCS) -lm

clean:
	rm -rf build build-asan $(BIN)

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(HARNESS_OBJ:.o=.d)
