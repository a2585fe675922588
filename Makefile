# pmucal — one binary, bin/pmucal; every .c under the subsystem folders is part of it.
CC      ?= cc
# OPTFLAGS: optimisation and debug information, apart so that a sub-make can set them alone
# (the emulated hosts' builds leave -g out: a tenth of their compile time, two thirds of their binary).
OPTFLAGS ?= -O2 -g
CFLAGS  ?= $(OPTFLAGS)
CFLAGS  += -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread -I. -MMD -MP
# The folders, lowest floor first: each includes only headers of its own floor or those below
# ("base/json.h", from the tree's root). arch/$(ARCH) is the ISA behind arch/isa.h, the one the
# compiler targets (x86_64, aarch64 or riscv64: a native build on an Arm server takes arch/aarch64
# by itself), arch/$(ARCH)/kernels the kernels that exist on that ISA only.
ARCH    ?= $(firstword $(subst -, ,$(shell $(CC) -dumpmachine)))
SUBSYS  := base arch arch/$(ARCH) host core events sources generators microkernels arch/$(ARCH)/kernels runs validate penalties report cmd
# The three libraries, each a knob (1 = use it): PFM=0 builds without libpfm4 (events by the perf
# syntax and the vendor tables only), HWLOC=0 without hwloc (the topology from Linux's sysfs),
# ZLIB=0 without zlib (a .json.gz table is refused, saying why). Debian 12 has none of them for
# riscv64 (and libpfm4 knows no RISC-V PMU), so ARCH=riscv64 turns all three off unless told.
ifeq ($(ARCH),riscv64)
PFM     ?= 0
HWLOC   ?= 0
ZLIB    ?= 0
endif
PFM     ?= 1
HWLOC   ?= 1
ZLIB    ?= 1
$(foreach v,PFM HWLOC ZLIB,$(if $(filter-out 0 1,$($(v))),$(error $(v)='$($(v))': give $(v)=1 (use the library) or $(v)=0 (build without it))))
# Every compiler that builds the sources takes them (gcc here, clang for the fuzzers below).
LIB_DEFS := -DPMUCAL_PFM=$(PFM) -DPMUCAL_HWLOC=$(HWLOC) -DPMUCAL_ZLIB=$(ZLIB)
CFLAGS  += $(LIB_DEFS)
LDLIBS  += $(if $(filter 1,$(PFM)),-lpfm) $(if $(filter 1,$(HWLOC)),-lhwloc) $(if $(filter 1,$(ZLIB)),-lz) -lm -pthread
# The files that stand in for a library left out, and the files that need it (one of each pair).
LIB_OFF := $(if $(filter 1,$(PFM)),events/pfm_none.c) $(if $(filter 1,$(HWLOC)),host/topo_nohwloc.c,host/topo.c)
# Quiet by default (one short line per step); V=1 prints the full commands.
ifeq ($(V),1)
Q       :=
say     :=
else
Q       := @
say     = @printf '  %-6s %s\n' $(1) $(2);
endif
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
# What the user sets on make's command line reaches the shell as data, never as shell text: each
# recipe that takes a user's variable reads it from its environment ("$$VAR", quoted), where a
# target-specific export puts it (export_vars below); the build's own folders (OBJDIR, BIN, EMU_DIR) are make's targets too, which make
# cannot quote, so a character the shell would read in them is refused here. A '$' in a value is
# make's own (write $$ for a '$').
# export_vars TARGET, VAR...: the values, as make has them when the target runs, in its recipe's environment.
export_vars = $(foreach v,$(2),$(eval $(1): export $(v) := $$($(v))))
# Relative paths in IMAGE, MODULES, OUT and MATRIX_OUT start from the folder make was started in
# (PWD, as the shell that ran make set it; make -C does not change it), else from $(CURDIR). Only
# the recipes that take those paths get it: exported to every recipe, it would reach make test's
# scripts run from other folders.
PMUCAL_CALLER_DIR := $(if $(filter /%,$(firstword $(PWD))),$(PWD),$(CURDIR))
shell_chars := ; & | < > ` ' " \ ( ) * ? [ ] { } ! ~ $$ \#
build_path_ok = $(if $(or $(word 2,$($(1))),$(strip $(foreach c,$(shell_chars),$(findstring $c,$($(1)))))),$(error $(1)='$($(1))': a build folder holds no space nor any of $(shell_chars): give a plain path))
$(foreach v,OBJDIR BIN EMU_DIR EMU_RV_DIR,$(call build_path_ok,$(v)))
SRCS    := $(filter-out $(LIB_OFF),$(foreach d,$(SUBSYS),$(wildcard $(d)/*.c)))
OBJS    := $(SRCS:%.c=$(OBJDIR)/%.o)
# test_x86_*, test_rv_*: the x86 and RISC-V writers' golden rows, built where that writer is
# (arch/x86_64, arch/riscv64: both define the asm_* every ISA has).
UNIT    := $(patsubst tests/unit/%.c,$(OBJDIR)/tests/%,$(filter-out $(if $(filter x86_64,$(ARCH)),,tests/unit/test_x86_%) \
           $(if $(filter riscv64,$(ARCH)),,tests/unit/test_rv_%),$(wildcard tests/unit/*.c)))
LIBOBJS := $(filter-out $(OBJDIR)/cmd/main.o,$(OBJS))

.PHONY: all deps deps-run run test check docs-commands kernel-check kernel-matrix sweep sweep-emu bench bench-timing bench-walker bench-load bench-sample bench-roofline bench-calibrate clean fuzz fuzz-ubsan fuzz-run install uninstall emu FORCE
all: $(BIN) $(UNIT)

# The commit the binary is built from, for every run's manifest; rewritten only when it changes,
# so an unchanged tree rebuilds nothing.
$(OBJDIR)/gen/commit.h: FORCE
	@mkdir -p $(dir $@)
	@c=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); \
	if [ "$$c" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then c="$$c-dirty"; fi; \
	echo "#define PMUCAL_COMMIT \"$$c\"" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(OBJDIR)/base/version.o: $(OBJDIR)/gen/commit.h

$(BIN): $(OBJS)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CFLAGS) -c -o $@ $<

# Unit tests link the whole core except main(); constructors register kernels and commands as in the binary.
$(OBJDIR)/tests/%: tests/unit/%.c $(LIBOBJS)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# The Debian packages, by what needs them (scripts/install-deps.sh installs those missing, or says how).
# DEPS_RUN, what make run's job needs: the build (gcc, make, binutils; the three -dev libraries bring
# libpfm4, libhwloc15 and zlib1g, which the binary runs on), perl (TAP::Parser, in perl-modules, for
# scripts/tap-verdicts.pl) and gnuplot-nox (calibrate draws curve.svg with it). DEPS_TEST, the tests'
# tools beside those: valgrind (the sim source), jq, libtest-harness-perl (prove), hwloc
# (lstopo-no-graphics), linux-perf (the perfstat source), chromium (the report's screenshot test),
# clang and its runtime (the fuzzers), python3-jsonschema (the KCIDB check). DEPS_EMU, the emulated
# Arm and RISC-V hosts' (make emu, tests 72-74 and 77, kernel-check), left out with PMUCAL_TEST_EMU=0:
# the cross compilers, the :arm64 libraries, QEMU (qemu-system-misc holds 7.2's qemu-system-riscv64;
# qemu-user's qemu-riscv64 runs the RISC-V assembler's unit test here, tests/78), cpio, LAVA. Not settings: 'override' keeps a command line's
# value out of the recipes' shell text.
override DEPS_RUN  := gcc make binutils libpfm4-dev libhwloc-dev zlib1g-dev perl gnuplot-nox
override DEPS_TEST := valgrind jq libtest-harness-perl hwloc linux-perf chromium clang libclang-rt-dev python3-jsonschema
override DEPS_EMU  := qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross libpfm4-dev:arm64 libhwloc-dev:arm64 \
                      zlib1g-dev:arm64 cpio lava-common lava-dispatcher \
                      qemu-system-misc qemu-user gcc-riscv64-linux-gnu libc6-dev-riscv64-cross binutils-riscv64-linux-gnu

# make deps-run: what make run needs, nothing for the tests. make deps: all of it, Debian's arm64
# kernel for the emulated Arm host (scripts/emu-kernel.sh), and for the emulated RISC-V host trixie's
# riscv64 kernel and bookworm-backports' QEMU 10 and OpenSBI (scripts/emu-riscv-fetch.sh, into
# build/emu-riscv64/, installing nothing), all unless PMUCAL_TEST_EMU=0.
deps-run:
	@scripts/install-deps.sh $(DEPS_RUN)

deps:
	@scripts/install-deps.sh $(DEPS_RUN) $(DEPS_TEST) --emu $(DEPS_EMU)
	@[ "$${PMUCAL_TEST_EMU:-1}" = 0 ] || scripts/emu-kernel.sh
	@[ "$${PMUCAL_TEST_EMU:-1}" = 0 ] || scripts/emu-riscv-fetch.sh

run: deps-run
	$(MAKE) all
	scripts/main-job.sh

# One test file more than the CPUs at once: a file waits at times (a child's stop, a boot's end),
# and on 2 CPUs -j2 left 90 of its 970 s of files' wall time idle. The longest first (each 1-2 minutes
# beside others): started last, the emulated N1 and the fuzzers ran alone at the end and make test
# took 570 s instead of about 520. The emulated hosts first (one QEMU each, a core's worth for
# minutes, which nothing shortens), then by CPU seconds, most first (measured under -j2 on 2 CPUs):
# 90 84 cold (its build takes both cores a while), 36 62, 73 53, 55 51, 60 50, 51 36, 70 31, 15 29,
# 75 28, 57 26; the rest, under 22 each, by name.
# Not settings: 'override' keeps a command line's TESTS=... out of the recipe's shell text.
override TESTS_FIRST := $(wildcard tests/72-arch-emu-n1.t tests/77-arch-emu-riscv64.t tests/90-fuzz.t \
                 tests/36-runs-resume.t tests/73-scripts-kernel-check.t tests/55-sources-sim.t \
                 tests/60-validate-sim-sweep.t tests/51-penalties-calibrate.t tests/70-host-fixtures.t \
                 tests/15-readme.t tests/75-generators-sim-iside.t tests/57-generators-sim-exact.t)
override TESTS := $(TESTS_FIRST) $(filter-out $(TESTS_FIRST),$(sort $(wildcard tests/*.t)))

# The builds before the tests take both cores under a plain 'make test' (CI's: a cold build of all
# and emu is about 2 minutes of CPU, which -j1 spent on one core while the other idled); a -j on
# the command line is kept. Recursive: MAKEFLAGS holds -j only as the recipe runs.
TEST_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j2)
# At most 4: tests that pin to one CPU take the same one, and more files at once only queue there.
PROVE_JOBS = $(shell n=$$(nproc 2> /dev/null || echo 1); echo $$(( n < 3 ? n + 1 : 4 )))
test: deps
	$(MAKE) $(TEST_JOBS) all
	[ "$${PMUCAL_TEST_EMU:-1}" = 0 ] || $(MAKE) $(TEST_JOBS) emu
	rm -rf $(OBJDIR)/test-cache
	PMUCAL=$(BIN) PMUCAL_OBJDIR=$(OBJDIR) PMUCAL_CACHE_DIR="$$PWD/$(OBJDIR)/test-cache" \
	    PMUCAL_EMU_BIN=$(EMU_DIR)/pmucal PMUCAL_EMU_INIT=$(EMU_DIR)/emu-init \
	    PMUCAL_EMU_RV_BIN=$(EMU_RV_DIR)/pmucal PMUCAL_EMU_RV_INIT=$(EMU_RV_DIR)/emu-init prove -j$(PROVE_JOBS) --timer $(TESTS)

# make check: the C unit tests alone (tests/00-unit.t over build/*/tests/), in seconds: no emulator,
# no package installs. The quick loop while editing; make test before a commit. Its cache folder is
# kept (make test starts from an empty one): the unit tests that size a case by a cache level find
# this host's latency curve there after the first check, instead of measuring it each time.
check: all
	PMUCAL=$(BIN) PMUCAL_OBJDIR=$(OBJDIR) PMUCAL_CACHE_DIR="$$PWD/$(OBJDIR)/check-cache" prove tests/00-unit.t

# make docs-commands: docs/commands/pmucal-NAME.md, one page per command, written by the binary's
# --help (the option tables that make the man page and completion too); tests/16-docs-commands.t fails
# when a page differs from what this writes.
docs-commands: $(BIN)
	scripts/docs-commands.sh $(BIN) docs/commands

# make emu: pmucal for aarch64 (cross-built, ARCH=aarch64, in its own object folder; never
# sanitized) and the static /init of the emulated Neoverse N1 host that tests/72-arch-emu-n1.t boots
# (scripts/emu-run.sh). Needs gcc-aarch64-linux-gnu and libpfm4-dev:arm64, libhwloc-dev:arm64, zlib1g-dev:arm64.
EMU_CC  ?= aarch64-linux-gnu-gcc
EMU_DIR := build/aarch64
emu: emu-riscv64
	$(MAKE) SAN= ARCH=aarch64 CC=$(EMU_CC) OPTFLAGS=-O2 OBJDIR=$(EMU_DIR) BIN=$(EMU_DIR)/pmucal $(EMU_DIR)/pmucal $(EMU_DIR)/emu-init
# The emu-init of whichever ISA the sub-make builds (build/aarch64/, build/riscv64/): static, as /init.
build/%/emu-init: tests/emu/init.c
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) -static -O2 -std=gnu11 -Wall -Wextra -Werror -o $@ $<

# make emu-riscv64: pmucal for RISC-V (RV64GC, cross-built, static, ARCH=riscv64: without libpfm4,
# hwloc and zlib, which Debian 12 has no riscv64 form of) in its own object folder, and the static
# /init of the emulated RISC-V host (scripts/emu-run.sh with PMUCAL_EMU_ISA=riscv64), and the RISC-V
# assembler's golden rows (tests/unit/test_rv_asm.c, static: tests/78-arch-riscv64-encoder.t runs it
# under qemu-riscv64). Needs gcc-riscv64-linux-gnu only. qemu-riscv64 (qemu-user) runs the binary on
# this machine, without a PMU.
EMU_RV_CC  ?= riscv64-linux-gnu-gcc
EMU_RV_DIR := build/riscv64
.PHONY: emu-riscv64
emu-riscv64:
	$(MAKE) SAN= ARCH=riscv64 CC=$(EMU_RV_CC) OPTFLAGS=-O2 LDFLAGS=-static OBJDIR=$(EMU_RV_DIR) BIN=$(EMU_RV_DIR)/pmucal \
	    $(EMU_RV_DIR)/pmucal $(EMU_RV_DIR)/emu-init $(EMU_RV_DIR)/tests/test_rv_asm

# make kernel-check IMAGE=FILE [MODULES=DIR] | PACKAGE=NAME [ISA=ISA] [CPU=MODEL] [OUT=DIR] [TIMEOUT=S]
# [QEMU=FILE] [BIOS=FILE]: one Linux kernel booted on an emulated machine, pmucal's matrix run
# there, the run folders brought back (scripts/kernel-check.sh says the rest): an arm64 kernel on
# the emulated Neoverse N1, a riscv64 one on QEMU's RISC-V virt machine. ISA (aarch64 or riscv64)
# is the image's own (its boot header) or the package's (its name) unless given; the matching
# pmucal is built first (make emu or make emu-riscv64). make kernel-matrix [MATRIX_OUT=DIR]:
# Debian 12's arm64 Linux kernels (6.1.0-47 as baseline, 6.1.0-50, 6.12, their -rt and -cloud
# flavours, the baseline again and without a PMU) checked and compared, one table
# (scripts/kernel-matrix.sh). Neither is part of make test: minutes of emulation and downloads.
# Each variable reaches the script as one argument. KERNEL= is IMAGE='s old name, still taken
# with a note. Bad input is named by the script itself, after the build.
override kernel_check_args := $${IMAGE:+--image "$$IMAGE"} $${KERNEL:+--image "$$KERNEL"} $${MODULES:+--modules "$$MODULES"} \
    $${PACKAGE:+--package "$$PACKAGE"} $${ISA:+--isa "$$ISA"} $${CPU:+--cpu "$$CPU"} $${OUT:+--out "$$OUT"} \
    $${TIMEOUT:+--timeout "$$TIMEOUT"} $${QEMU:+--qemu "$$QEMU"} $${BIOS:+--bios "$$BIOS"}
$(call export_vars,kernel-check,IMAGE KERNEL MODULES PACKAGE ISA CPU OUT TIMEOUT QEMU BIOS PMUCAL_CALLER_DIR)
kernel-check: deps
	@isa=$$(scripts/kernel-check.sh --print-isa $(kernel_check_args) 2> /dev/null) || :; \
	if [ "$$isa" = riscv64 ]; then $(MAKE) all emu-riscv64; else $(MAKE) all emu; fi
	@[ -z "$$KERNEL" ] || echo "make kernel-check: note: KERNEL=FILE is now IMAGE=FILE" >&2
	scripts/kernel-check.sh $(kernel_check_args)

MATRIX_OUT ?= $(CURDIR)/results/kernel-matrix
$(call export_vars,kernel-matrix,MATRIX_OUT PMUCAL_CALLER_DIR)
kernel-matrix: deps
	$(MAKE) all emu
	scripts/kernel-matrix.sh "$$MATRIX_OUT"

bench: deps
	$(MAKE) all
	scripts/bench-measure.sh

# A long parameter sweep of every kernel's model under sim (make test runs 40 cases under one
# fixture): SWEEP_CASES drawn cases under each of SWEEP_HOSTS (fixtures, NAME+curve with its
# measured curve, 'this' for this machine), seed SWEEP_SEED (new each time, the next one for each
# further host; printed, so that a failure is drawn again with the same seed). About 1 s a case.
SWEEP_CASES ?= 1000
SWEEP_SEED ?= $(shell date +%s)
SWEEP_HOSTS ?= zen5-vm emr-vm+curve zen4 this
$(call export_vars,sweep,SWEEP_CASES SWEEP_SEED SWEEP_HOSTS)
sweep: all
	PMUCAL=$(BIN) PMUCAL_OBJDIR=$(OBJDIR) PMUCAL_SWEEP_CASES="$$SWEEP_CASES" PMUCAL_SWEEP_SEED="$$SWEEP_SEED" \
	    PMUCAL_SWEEP_HOSTS="$$SWEEP_HOSTS" prove -v tests/60-validate-sim-sweep.t

# The same on the emulated Neoverse N1, INST_RETIRED and CPU_CYCLES by the real PMU driver (make test
# boots it with 24 cases): EMU_SWEEP_CASES cases, seed SWEEP_SEED.
EMU_SWEEP_CASES ?= 300
$(call export_vars,sweep-emu,EMU_SWEEP_CASES SWEEP_SEED)
sweep-emu: all emu
	SWEEP_CASES="$$EMU_SWEEP_CASES" scripts/sweep-emu.sh $(EMU_DIR)/pmucal $(EMU_DIR)/emu-init

# Timing gates about this host now (latency against the vendor's figures, the closure, the curve's
# levels): they report how a shared machine behaves today, so they live here and not in make test.
bench-timing: deps
	$(MAKE) all
	rm -rf $(OBJDIR)/timing-cache
	PMUCAL=$(BIN) PMUCAL_OBJDIR=$(OBJDIR) PMUCAL_CACHE_DIR="$$PWD/$(OBJDIR)/timing-cache" prove tests/timing/

# Not part of make test (minutes, and it loads a CPU on purpose): calibrate and the walker levels
# quiet, beside a busy loop on the same CPU and on another; every penalty beside its quiet figure.
# pmucal roofline's ceilings beside likwid-bench and STREAM (built from public source at run time).
$(call export_vars,bench-roofline,RUNS)
bench-roofline: all
	scripts/bench-roofline.sh $${RUNS:+"$$RUNS"}

# Does the walker's order defeat this host's prefetchers? Its orders timed beside the latency curve
# (RUNS runs each; sizes as arguments: make bench-walker SIZES="8M 256M").
SIZES ?= L3 DRAM
$(call export_vars,bench-walker,SIZES)
bench-walker: deps
	$(MAKE) all
	set -f; PMUCAL=$(BIN) scripts/bench-walker-order.sh $$SIZES

bench-load: deps
	$(MAKE) all
	scripts/bench-load.sh

# Is every penalty the same from calibration to calibration here? RUNS whole calibrations (default
# 5), pinned: each penalty's figures, their spread against its allowed one, the closure; minutes.
$(call export_vars,bench-calibrate,RUNS)
bench-calibrate: deps
	$(MAKE) all
	PMUCAL=$(BIN) scripts/bench-calibrate.sh $${RUNS:+"$$RUNS"}

# The cost of one sample (software events): medians and spreads of several processes; minutes.
bench-sample: deps
	$(MAKE) all
	scripts/bench-sample.sh

# make install [PREFIX=/usr/local] [DESTDIR=staging] [EVENTDATA=dir]: the binary, pmucal(1)
# (generated by the binary from the tables --help prints), bash completion, and the data it finds
# beside itself in PREFIX/share/pmucal: expect/, scripts/, and eventdata/ (the core event tables
# the mapfiles name, from EVENTDATA, default the tree's own eventdata/; a note when it is not there).
# make uninstall removes exactly those (scripts/install-data.sh keeps the list).
PREFIX  ?= /usr/local
EVENTDATA ?= eventdata
DATADIR := $(DESTDIR)$(PREFIX)/share/pmucal
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1
COMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
$(call export_vars,install,DESTDIR PREFIX EVENTDATA DATADIR MANDIR COMPDIR)
$(call export_vars,uninstall,DESTDIR PREFIX DATADIR MANDIR COMPDIR)
$(OBJDIR)/pmucal.1: $(BIN)
	$(call say,MAN,$@)$(BIN) --man > $@.tmp && mv $@.tmp $@

install: $(BIN) $(OBJDIR)/pmucal.1
	$(call say,INSTALL,"$$DESTDIR$$PREFIX")install -d "$$DESTDIR$$PREFIX/bin" "$$MANDIR" "$$COMPDIR"
	$(Q)install -m 755 $(BIN) "$$DESTDIR$$PREFIX/bin/pmucal"
	$(Q)scripts/install-data.sh install "$$DATADIR" "$$EVENTDATA"
	$(Q)install -m 644 $(OBJDIR)/pmucal.1 "$$MANDIR/pmucal.1"
	$(Q)install -m 644 scripts/pmucal-completion.bash "$$COMPDIR/pmucal"

uninstall:
	$(call say,RM,"$$DESTDIR$$PREFIX")rm -f "$$DESTDIR$$PREFIX/bin/pmucal" "$$MANDIR/pmucal.1" "$$COMPDIR/pmucal"
	$(Q)scripts/install-data.sh uninstall "$$DATADIR"

# make fuzz: a libFuzzer harness (fuzz/fuzz_*.c) per parser, built with clang, ASan and UBSan into
# build/fuzz/ at FUZZ_OPT (-O1 -g); make fuzz-run [FUZZ_SECONDS=N] runs each N seconds (default 60)
# from the seed corpora in fuzz/corpus/ (scripts/fuzz.sh; tests/90-fuzz.t builds them at -O0,
# without -g, into build/fuzz-O0: 44 s of CPU against 54 with -g and -O1's 122, and runs each its
# seeds and a second).
comma       := ,
FUZZ_CC     ?= clang
FUZZ_DIR    := build/fuzz
# tests/90-fuzz.t gives its own (build/fuzz-O0): a target folder, as plain as OBJDIR must be.
$(call build_path_ok,FUZZ_DIR)
# No -Werror here: the gcc build holds the warnings line; clang's extra ones must not stop a fuzz run.
FUZZ_OPT    ?= -O1 -g
FUZZ_CFLAGS := $(FUZZ_OPT) -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -pthread -I. -MMD -MP \
               -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow \
               -fno-omit-frame-pointer -I$(OBJDIR)/gen $(LIB_DEFS)
FUZZ_OBJS   := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(filter-out cmd/main.c,$(SRCS)))
FUZZERS     := $(patsubst fuzz/%.c,$(FUZZ_DIR)/%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
fuzz: $(FUZZERS)
.SECONDARY: $(FUZZ_OBJS)
$(FUZZ_DIR)/base/version.o: $(OBJDIR)/gen/commit.h

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$<)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

$(call export_vars,fuzz-run,FUZZ_SECONDS)
fuzz-run: fuzz
	scripts/fuzz.sh "$$FUZZ_SECONDS"

# make fuzz-ubsan: the same harnesses with UBSan alone (float-cast-overflow included), no ASan, at
# -O2, into build/fuzz-ubsan/: the flavour for executions per second (ASan's allocator, its 0xbe
# fill and stack depot take a third of a run-folder harness's time). The ASan one stays what
# tests/90-fuzz.t runs. FUZZ_BUILD=build/fuzz-ubsan scripts/fuzz.sh SECONDS NAME runs it.
FUZZ_UB_DIR    := build/fuzz-ubsan
FUZZ_UB_CFLAGS := $(subst $(FUZZ_OPT),-O2 -g,$(subst address$(comma),,$(FUZZ_CFLAGS)))
FUZZ_UB_OBJS   := $(patsubst %.c,$(FUZZ_UB_DIR)/%.o,$(filter-out cmd/main.c,$(SRCS)))
fuzz-ubsan: $(patsubst fuzz/%.c,$(FUZZ_UB_DIR)/%,$(wildcard fuzz/fuzz_*.c))
.SECONDARY: $(FUZZ_UB_OBJS)
$(FUZZ_UB_DIR)/base/version.o: $(OBJDIR)/gen/commit.h

$(FUZZ_UB_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$<)$(FUZZ_CC) $(FUZZ_UB_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_UB_DIR)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_UB_OBJS)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(FUZZ_CC) $(FUZZ_UB_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_UB_OBJS) $(LDLIBS)

clean:
	rm -rf build bin

-include $(OBJS:.o=.d) $(UNIT:=.d) $(wildcard $(FUZZ_DIR)/*/*.d $(FUZZ_DIR)/*.d $(FUZZ_UB_DIR)/*/*.d $(FUZZ_UB_DIR)/*.d)
