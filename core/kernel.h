/* A kernel is a microbenchmark registered by its descriptor (like an fio ioengine); the core
 * never switches on kernel names. A case is a kernel plus one set of parameter values. */
#ifndef PMUCAL_KERNEL_H
#define PMUCAL_KERNEL_H
#include "base/stats.h"
#include "core/quantity.h"
#include <stdbool.h>
#include <stdint.h>

struct assembler;
struct site_map;

enum param_type {
    PARAM_SIZE,    /* bytes: "64", "4k", "2M", or a cache level L1|L2|L3|DRAM (well inside it) */
    PARAM_UINT,    /* whole number */
    PARAM_ENUM,    /* one of choices, "a|b|c" */
    PARAM_CPU,     /* OS CPU index, checked against the topology */
    PARAM_TEXT,    /* any text, spaces included (the kernel's setup checks it) */
};

struct param {
    const char *name;
    enum param_type type;
    const char *def;       /* default value, as text */
    const char *help;
    const char *choices;   /* PARAM_ENUM: "a|b|c" */
    /* PARAM_UINT, PARAM_SIZE: the domain, "LO..HI" with optional words after it: "pow2" (powers of
     * two only), "step N" (multiples of N), "levels" (cache level names too); HI may be "cpus", the
     * CPUs this process may run on. What setup accepts; a parameter sweep draws from it
     * (validate/sweep.h). NULL: not swept. Parsed by param_domain. */
    const char *range;
};

struct param_domain {
    uint64_t lo, hi, step;   /* step 1 unless declared */
    bool pow2, levels;
};
/* p's declared domain; -1 with err filled when the text is malformed or p declares none. */
int param_domain(const struct param *p, struct param_domain *d, char *err, size_t n);
/* Is x inside d (range, step, power of two)? */
bool param_domain_has(const struct param_domain *d, uint64_t x);

#define KERNEL_MAX_PARAMS 16

/* Instruction-set extensions a kernel (or one of its variants) may need (ISA_*, arch/isa.h).
 * A counter source that cannot execute some of them says so in its isa_limits (source.h). The
 * engine copies the source's limits into the case before setup; a kernel's setup asks
 *     if (!case_isa_usable(c, ISA_AVX512)) return CASE_SKIP;
 * which fills c->skip with the reason (the CPU lacks it, or the source cannot run it), so the
 * case becomes TAP SKIP lines instead of a crash. */

struct case_ {
    const struct kernel *kernel;
    char *value[KERNEL_MAX_PARAMS];   /* text of each parameter, defaults filled in */
    bool given[KERNEL_MAX_PARAMS];    /* named in the case's text, not a default */
    char *label;                      /* "walker size=L2 order=random": non-default values only */
    void *priv;                       /* the kernel's state, from setup */
    uint64_t warm_iters;              /* setup's advice: iterations that warm every line once */
    bool warm_in_parts;               /* loop() carries on where the last call stopped, so the
                                         warm-up may be cut into parts, a stop looked for between */
    uint64_t max_iters;               /* setup's limit (0 = none), e.g. fresh pages to touch */
    uint64_t iters_multiple;          /* setup's need (0 or 1 = none): iterations a multiple of this */
    uint64_t iters_lap;               /* setup's need (0 = none): loops longer than this many iterations
                                       * take whole multiples of it (a table read cyclically) */
    char skip[256];                   /* setup returned CASE_SKIP: the reason */
    char failed[512];                 /* loop() could not run the case (the user's code faulted or
                                       * never ended): why. The measurement stops at it and the
                                       * case fails with it; no figure comes from such loops. */
    uint64_t iters;                   /* chosen by the measurement core on the first group */
    uint64_t iters_fixed;             /* set before setup where loops take a fixed count (a simulating
                                       * source's, or --iters) rather than a timed one: 0 when timed */
    char detail[256];                 /* what setup really got, e.g. "page=2m-thp slots=8192" */
    unsigned isa_limits;              /* ISA_* the counter source cannot execute (set before setup) */
    const char *isa_limits_by;        /* that source's name, for the SKIP reason */
    bool simple_predictor;            /* the source's branch predictor is a textbook one (a simulator's):
                                       * models state mispredicts only where such a one is exact */
    /* Set by a kernel whose loop runs in a process of its own (the user's code, in its sandbox):
     * the caller's clock around loop() would add the trip there and back, so loop() leaves its
     * region's own ticks here; and each loop stops that process once at its end, a context switch
     * of its own making that is no one else's disturbance. */
    bool times_itself;
    uint64_t loop_ticks;
    unsigned loop_switches;
};

/* What doing something to a case came to: its setup (CASE_OK, CASE_SKIP with c->skip saying why,
 * CASE_ERROR after one message), its measurement (core/measure.h: CASE_OK, CASE_ERROR,
 * CASE_INTERRUPTED by a stop) and a calibration's case (penalties/fit.h: any of the four). One
 * vocabulary: each function returns the part of it that can happen to it, and a caller tests any
 * of them against any other. The other status words say other things: a verdict judges a point,
 * a penalty status a figure, a classify status an event, SOURCE_CONTINUE/DONE where a command
 * goes on (docs/glossary.md). */
enum case_outcome { CASE_OK = 0, CASE_SKIP = 1, CASE_ERROR = -1, CASE_INTERRUPTED = -2 };

/* A loop's ticks: the TSC read around it (t0, t1), or the region's own where the case times
 * itself. Called after the counters are off: under a simulator a load inside would be counted. */
static inline uint64_t case_loop_ticks(const struct case_ *c, uint64_t t0, uint64_t t1)
{
    return c->times_itself ? c->loop_ticks : t1 - t0;
}

struct kernel {
    const char *name, *summary;
    const struct param *params;                  /* terminated by {NULL} */
    int  (*setup)(struct case_ *c);              /* not measured; CASE_OK, CASE_SKIP or CASE_ERROR */
    void (*prepare)(struct case_ *c);            /* optional, before each loop, not measured */
    /* iters iterations of the kernel's loop body, the measured region, and nothing else */
    void (*loop)(struct case_ *c, uint64_t iters);
    void (*model)(const struct case_ *c, struct quantities *q);  /* expected per iteration */
    void (*teardown)(struct case_ *c);
    const char *const *matrix;   /* default validation cases, "p=v p=v" each; NULL-terminated */
    enum quantity_id per;        /* "cycles per <per_name>" in reports (e.g. Q_LD_ALL) */
    const char *per_name;
    /* Optional: more lines after 'pmucal run' prints a case's table (timing on the real CPU only),
     * e.g. a penalty derived from its cycles per iteration. The case is still set up. core_ghz:
     * the clock measured around that measurement (ns of a figure derived from these cycles). */
    void (*report)(struct case_ *c, const struct stats *cycles, double core_ghz, const struct quantities *q);
    /* Kernels that generate code: the assembler holding it (bytes and listing), for 'pmucal gen'. */
    const struct assembler *(*code)(const struct case_ *c);
    /* Optional: where the case's quantities happen (core/sites.h), after setup: the measured
     * loop's instructions with their per-iteration weights. -1 when this case cannot say. */
    int (*sites)(const struct case_ *c, struct site_map *m);
    /* Optional: the parameter a word without "name=" sets ('pmucal run code "imul %rax,%rax"'). */
    const char *bare_param;
};

/* file: the source file that defines the kernel, as the compiler named it (__FILE__,
 * "microkernels/walker.c"), for 'pmucal kernels' to say where a kernel lives. */
void kernel_register(const struct kernel *k, const char *file);
const struct kernel *kernel_find(const char *name);
/* The source file k was registered from, or "" for one never registered. */
const char *kernel_file(const struct kernel *k);
const struct kernel **kernel_list(void);       /* NULL-terminated, name order */

#define PMUCAL_KERNEL(var) \
    static void __attribute__((constructor)) register_kernel_##var(void) { kernel_register(&var, __FILE__); }

/* The case's model, with what follows from it (quantities_derive): every caller uses this. */
void case_model(const struct case_ *c, struct quantities *q);

/* Builds a case from "name=value" words. NULL with one clear message on an unknown parameter,
 * a bad value or a missing choice. */
struct case_ *case_new(const struct kernel *k, int nargs, char **args);
/* Same, from "p=v p=v" text as in a matrix row. */
struct case_ *case_from_text(const struct kernel *k, const char *text);
void case_free(struct case_ *c);

/* Typed accessors; the value was checked in case_new, so these cannot fail. */
const char *case_str(const struct case_ *c, const char *name);
uint64_t case_uint(const struct case_ *c, const char *name);
uint64_t case_size(const struct case_ *c, const char *name);
int case_cpu(const struct case_ *c, const char *name);
bool case_is(const struct case_ *c, const char *name, const char *value);
/* Was the parameter named in the case's text (not left at its default)? */
bool case_given(const struct case_ *c, const char *name);

/* Bytes for a cache level name, well inside it: L1 half of L1; L2, L3 the power of two at or
 * below the geometric mean of the level and the one below (128K for 32K/1M); DRAM 16 x the last
 * level, at least 256 MiB. 0 when the name is not a level or the machine lacks it. */
uint64_t level_size(const char *level);
/* The same for the levels of t (another host's, as a run recorded them). */
struct topo;
uint64_t level_size_of(const struct topo *t, const char *level);
/* What a case can keep in level l: the part the latency curve shows usable on real hardware (a
 * guest's share of an L3: topo.usable), the whole of a simulator's. */
uint64_t level_usable_size(const struct topo *t, int l);
/* Which data-cache level (1..3) a working set of this many bytes fits in, or 4 for DRAM. */
int level_of_size(uint64_t bytes);
/* The same for code (the instruction side): L1 half of L1I; L2 the power of two at or below the
 * geometric mean of L1I and L2; L3 likewise between L2 and L3; DRAM 2 x the last level, at least
 * 64 MiB (a cyclic stream twice the last level misses it under LRU, and code is generated, so
 * it is kept far smaller than the data side's DRAM size). 0 when not a level. */
uint64_t code_level_size(const char *level);
/* Which level (1..3, 4 = DRAM) holds code of this many bytes: L1I, then the unified levels. */
int code_level_of_size(uint64_t bytes);



/* The measuring CPU for what the case's text did not name: run_cpu and init_cpu become cpu, and a
 * writer_cpu left at its default becomes second (--cpus A,B) or, where second is -1 and it is now
 * the measuring CPU, another allowed one. */
void case_adopt_cpu(struct case_ *c, int cpu, int second);

/* The kernel's setup, or CASE_SKIP for a case needing a level or CPU the machine lacks. */
int case_setup(struct case_ *c);

/* Can the case use these ISA_* extensions, on this CPU and under its counter source? false
 * with c->skip filled (the setup then returns CASE_SKIP). */
bool case_isa_usable(struct case_ *c, unsigned isa);

bool kernel_has_param(const struct kernel *k, const char *name);
/* The CPU the measuring thread runs on: the case's run_cpu parameter where the kernel has one,
 * else the first allowed CPU. */
int case_run_cpu(const struct case_ *c);
#endif
