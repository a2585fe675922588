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

.PHONY: all deps run test bench clean FORCE
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
	PMUCAL=$(BIN) PMUCAL_OBJDIR=$(OBJDIR) prove tests/

bench: deps
	$(MAKE) all
	scripts/bench-measure.sh

clean:
	rm -rf build bin

-include $(OBJS:.o=.d) $(UNIT:=.d)
