# pmucal — one binary, bin/pmucal; every .c under the subsystem folders is part of it.
CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread -Ilib -Igenerators -MMD -MP
LDLIBS  += -lpfm -lhwloc -lm -pthread
SUBSYS  := lib microkernels validate generators penalties report
# SAN=1: AddressSanitizer + UBSan build in its own object folder, so it never mixes with the normal one.
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
OBJDIR  := build/san
BIN     := build/san/pmucal
else
OBJDIR  := build/opt
BIN     := bin/pmucal
endif
CFLAGS  += -I$(OBJDIR)/gen
SRCS    := $(foreach d,$(SUBSYS),$(wildcard $(d)/*.c))
OBJS    := $(SRCS:%.c=$(OBJDIR)/%.o)
UNIT    := $(patsubst tests/unit/%.c,$(OBJDIR)/tests/%,$(wildcard tests/unit/*.c))
LIBOBJS := $(filter-out $(OBJDIR)/lib/main.o,$(OBJS))

.PHONY: all deps run test bench clean fuzz fuzz-run FORCE
all: $(BIN) $(UNIT)

# The commit the binary is built from, for every run's manifest; rewritten only when it changes,
# so an unchanged tree rebuilds nothing.
$(OBJDIR)/gen/commit.h: FORCE
	@mkdir -p $(dir $@)
	@c=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); \
	if [ "$$c" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then c="$$c-dirty"; fi; \
	echo "#define PMUCAL_COMMIT \"$$c\"" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(OBJDIR)/lib/version.o: $(OBJDIR)/gen/commit.h

$(BIN): $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# Unit tests link the whole core except main(); constructors register kernels and commands as in the binary.
$(OBJDIR)/tests/%: tests/unit/%.c $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ivalidate $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

deps:
	@scripts/install-deps.sh

run: deps
	$(MAKE) all
	scripts/main-job.sh

test: deps
	$(MAKE) all
	rm -rf $(OBJDIR)/test-cache
	PMUCAL=$(BIN) PMUCAL_OBJDIR=$(OBJDIR) PMUCAL_CACHE_DIR=$(CURDIR)/$(OBJDIR)/test-cache prove tests/

bench: deps
	$(MAKE) all
	scripts/bench-measure.sh

# make fuzz: a libFuzzer harness (fuzz/fuzz_*.c) per parser, built with clang, ASan and UBSan into
# build/fuzz/; make fuzz-run [FUZZ_SECONDS=N] runs each N seconds (default 60) from the seed
# corpora in fuzz/corpus/ (scripts/fuzz.sh; tests/90-fuzz.t runs each a few seconds).
FUZZ_CC     ?= clang
FUZZ_DIR    := build/fuzz
# No -Werror here: the gcc build holds the warnings line; clang's extra ones must not stop a fuzz run.
FUZZ_CFLAGS := -O1 -g -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -pthread -Ilib -Igenerators -MMD -MP \
               -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -I$(OBJDIR)/gen
FUZZ_OBJS   := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(filter-out lib/main.c,$(SRCS)))
FUZZERS     := $(patsubst fuzz/%.c,$(FUZZ_DIR)/%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
fuzz: $(FUZZERS)
.SECONDARY: $(FUZZ_OBJS)
$(FUZZ_DIR)/lib/version.o: $(OBJDIR)/gen/commit.h

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

fuzz-run: fuzz
	scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf build bin

-include $(OBJS:.o=.d) $(UNIT:=.d) $(wildcard $(FUZZ_DIR)/*/*.d $(FUZZ_DIR)/*.d)
