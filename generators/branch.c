/* branch: generated code whose branches follow a chosen pattern, so the predictor's hits and
 * misses are known: conditional branches (always, never, alternating, period-N, seeded random)
 * at a chosen density and count; unconditional jump chains in random order (BTB pressure);
 * indirect jumps over N targets, predictable or random.
 *
 * Conditional branches read their outcomes from a table of bits indexed by the iteration
 * (counter & mask), so every pattern runs the very same instructions and only the outcomes differ:
 * cycles(random) - cycles(never) over the mispredicts is the cost of one. Each branch jumps to
 * the instruction after it, so taken or not the same instructions follow: inst is exact for
 * every pattern. The ISA writes the code (arch/isa.h: x86's bt/jb, A64's tbnz). */
#include "base/rng.h"
#include "base/util.h"
#include "core/bpred.h"
#include "core/lru.h"
#include "generators/codegen.h"
#include "host/geometry.h"
#include "host/topo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum bkind { COND, UNCOND, INDIRECT };
enum bpattern { TAKEN, NEVER, ALTERNATE, PERIOD, RANDOM };

struct branch {
    struct gen g;
    enum bkind kind;
    enum bpattern pattern;
    uint64_t branches, period, targets, slots, words;
    uint64_t *table;          /* cond: outcome bits, words per slot; indirect: target addresses */
    double taken_fraction;    /* over the whole table */
    uint64_t body_insn;       /* instructions of one iteration before its loop test, counted as written */
    struct shape_counts loop; /* the loop test's counts as written (indirect: their mean over the table) */
    uint64_t density;
    uint64_t *branch_at;      /* cond: each branch's code offset, the loop test's last (isa_branch_cond) */
    double sim_mispred;       /* cond under a source with the simulated predictor (core/bpred.h): its steady
                                 mispredicts per iteration; NAN when that is not determined */
    int sim_laps;             /* laps it took to settle */
};

static const struct param branch_params[] = {
    {"kind", PARAM_ENUM, "cond", "cond: conditional branches; uncond: a chain of direct jumps; indirect: one "
     "jump through a table over 'targets' targets", "cond|uncond|indirect", NULL},
    {"pattern", PARAM_ENUM, "taken", "outcomes: taken, never, alternate, period (taken once every 'period'), random "
     "(seeded, fair); indirect: taken = one target, period = the targets in turn, random = a random target",
     "taken|never|alternate|period|random", NULL},
    {"period", PARAM_UINT, "4", "pattern=period: a power of two, 2..1024", NULL, "2..1024 pow2"},
    {"branches", PARAM_UINT, "8", "distinct conditional branches or chained jumps per iteration, 1..16384 "
     "(thousands overflow the BTB)", NULL, "1..16384"},
    {"density", PARAM_ENUM, "2", "branches per 64 bytes of code", "1|2|4", NULL},
    {"order", PARAM_ENUM, "random", "kind=uncond: the order the chain visits its jumps in memory", "linear|random", NULL},
    {"targets", PARAM_UINT, "4", "kind=indirect: distinct targets, 2..4096", NULL, "2..4096"},
    {"seed", PARAM_UINT, "1", "seed of the random outcomes, order and targets", NULL, "0..4294967295"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

/* Table entries per slot chosen so the table is 256 KiB: a random pattern repeats only after
 * 32768 x 64 outcomes per word, far beyond what any predictor can memorize. */
#define TABLE_BYTES (256u << 10)

static int pattern_of(const struct case_ *c)
{
    static const char *const names[] = {"taken", "never", "alternate", "period", "random"};
    for (int i = 0; i < 5; i++)
        if (case_is(c, "pattern", names[i]))
            return i;
    return TAKEN;
}

static bool outcome(const struct branch *b, uint64_t slot, struct rng *r)
{
    switch (b->pattern) {
    case TAKEN: return true;
    case NEVER: return false;
    case ALTERNATE: return slot & 1;
    case PERIOD: return slot % b->period == 0;
    case RANDOM: return rng_next(r) >> 63;
    }
    return false;
}

/* One lap of the table through the simulated predictor, as the code runs it: the iteration
 * counter counts down, so the slots are visited from the last to the first; in each, the
 * branches in order, then the loop test (taken). Each branch jumps to the next instruction, so the
 * predictor sees its outcome inverted (bpred.h). */
static uint64_t predictor_lap(struct bpred_cond *p, const void *arg)
{
    const struct branch *b = arg;
    uintptr_t base = (uintptr_t)b->g.code.base;
    uint64_t miss = 0;
    for (uint64_t s = b->slots; s-- > 0;) {
        const uint64_t *slot = b->table + s * b->words;
        for (uint64_t j = 0; j < b->branches; j++)
            miss += bpred_cond_step(p, base + b->branch_at[j], !(slot[j / 64] >> (j % 64) & 1));
        miss += bpred_cond_step(p, base + b->branch_at[b->branches], true);
    }
    return miss;
}

#define PREDICTOR_MAX_LAPS 64

static void simulate_predictor(struct branch *b)
{
    double lap = bpred_cond_steady(predictor_lap, b, isa_insn_align_bits, PREDICTOR_MAX_LAPS, &b->sim_laps);
    b->sim_mispred = lap < 0 ? NAN : lap / (double)b->slots;
}

static int branch_setup(struct case_ *c)
{
    struct branch *b = xcalloc(1, sizeof(*b));
    c->priv = b;
    b->kind = case_is(c, "kind", "uncond") ? UNCOND : case_is(c, "kind", "indirect") ? INDIRECT : COND;
    b->pattern = pattern_of(c);
    b->branches = case_uint(c, "branches");
    b->period = case_uint(c, "period");
    b->targets = case_uint(c, "targets");
    b->density = case_uint(c, "density");
    if (b->branches < 1 || b->branches > 16384) {
        pm_error("branch: branches=%s must be 1..16384", case_str(c, "branches"));
        return CASE_ERROR;
    }
    if (b->pattern == PERIOD && (b->period < 2 || b->period > 1024 || (b->period & (b->period - 1)))) {
        pm_error("branch: period=%s must be a power of two from 2 to 1024 (the table of outcomes repeats "
                 "every power-of-two iterations)", case_str(c, "period"));
        return CASE_ERROR;
    }
    if (b->kind == INDIRECT && (b->targets < 2 || b->targets > 4096)) {
        pm_error("branch: targets=%s must be 2..4096", case_str(c, "targets"));
        return CASE_ERROR;
    }
    if (b->kind == INDIRECT && (b->pattern == NEVER || b->pattern == ALTERNATE)) {
        pm_error("branch: kind=indirect takes pattern=taken (one target), period (the targets in turn) or random");
        return CASE_ERROR;
    }
    if (b->kind == UNCOND && b->pattern != TAKEN) {
        pm_error("branch: kind=uncond jumps are always taken; drop pattern=%s (order= chooses linear or random)",
                 case_str(c, "pattern"));
        return CASE_ERROR;
    }
    uint64_t code_bytes = b->kind == INDIRECT ? b->targets * 64 + 4096 : b->branches * (64 / b->density) + 4096;
    if (code_bytes > isa_branch_max_bytes) {
        pm_error("branch: branches=%s density=%s make about %s of code, more than this ISA's loop branch reaches back "
                 "(%s); lower branches or raise density", case_str(c, "branches"), case_str(c, "density"),
                 fmt_size(code_bytes), fmt_size(isa_branch_max_bytes));
        return CASE_ERROR;
    }
    struct assembler *as = &b->g.as;
    gen_init(&b->g, b->branches * 64 + 4096);
    int body = asm_label(as), test = asm_label(as);
    int *target_labels = NULL;
    struct loop_test *target_loop = NULL;
    struct rng r;
    rng_seed(&r, case_uint(c, "seed"));
    if (b->kind == COND) {
        b->words = (b->branches + 63) / 64;
        b->slots = TABLE_BYTES / 8 / (uint64_t)(1ull << log2_ceil(b->words));
        b->table = xcalloc(b->slots * (1ull << log2_ceil(b->words)), 8);
        uint64_t ones = 0, stride = 1ull << log2_ceil(b->words);
        b->words = stride;   /* entry size rounded to a power of two for the shift */
        /* Every word is stored, its bits or none: a table never written (pattern=never) would read
         * from the kernel's one zero page, in L1, where the other patterns' stream from L2. */
        for (uint64_t s = 0; s < b->slots; s++)
            for (uint64_t w = 0; w < stride; w++) {
                uint64_t word = 0;
                for (uint64_t j = 64 * w; j < b->branches && j < 64 * (w + 1); j++)
                    if (outcome(b, s, &r)) {
                        word |= 1ull << (j % 64);
                        ones++;
                    }
                b->table[s * stride + w] = word;
            }
        b->taken_fraction = (double)ones / (double)(b->slots * b->branches);
        b->branch_at = xmalloc((b->branches + 1) * sizeof(*b->branch_at));
        struct loop_test lt;
        b->body_insn = isa_branch_cond(as, body, test, b->branches, b->density, b->slots, b->words * 8, b->branch_at, &lt);
        b->loop = gen_loop_test_counts(lt);
    } else if (b->kind == UNCOND) {
        uint64_t n = b->branches, spacing = 64 / b->density;
        asm_comment(as, "%llu jumps %llu bytes apart, visited in %s order; the filler after each is never run",
                     (unsigned long long)n, (unsigned long long)spacing, case_str(c, "order"));
        struct loop_test lt;
        b->body_insn = gen_jump_chain(as, body, test, n, spacing, case_is(c, "order", "random"), case_uint(c, "seed"),
                                      &lt);
        b->loop = gen_loop_test_counts(lt);
    } else {
        b->slots = TABLE_BYTES / 8;
        b->table = xcalloc(b->slots, 8);
        target_labels = xmalloc(b->targets * sizeof(int));
        for (uint64_t t = 0; t < b->targets; t++)
            target_labels[t] = asm_label(as);
        target_loop = xmalloc(b->targets * sizeof(*target_loop));
        b->body_insn = isa_branch_indirect(as, body, test, b->slots, b->targets, target_labels, target_loop);
    }
    int entry = isa_asm_entry(as, test);
    if (b->table)
        c->iters_lap = b->slots;
    if (gen_map(&b->g, entry, false, "branch")) {
        free(target_labels);
        free(target_loop);
        return CASE_ERROR;
    }
    if (b->kind == INDIRECT) {   /* absolute addresses, known only now */
        uint64_t hits0 = 0;
        for (uint64_t s = 0; s < b->slots; s++) {
            uint64_t t = b->pattern == TAKEN ? 0 : b->pattern == PERIOD ? s % b->targets : rng_below(&r, b->targets);
            hits0 += t == 0;
            b->table[s] = (uint64_t)(uintptr_t)(b->g.code.base + asm_label_offset(as, target_labels[t]));
            /* a target far from the body tests in the long form (arch/assembler.h) */
            struct shape_counts l = gen_loop_test_counts(target_loop[t]);
            b->loop.inst += l.inst;
            b->loop.cond_taken += l.cond_taken;
            b->loop.cond_ntaken += l.cond_ntaken;
            b->loop.uncond += l.uncond;
        }
        double per = 1.0 / (double)b->slots;
        b->loop.inst *= per;
        b->loop.cond_taken *= per;
        b->loop.cond_ntaken *= per;
        b->loop.uncond *= per;
        b->taken_fraction = (double)hits0 / (double)b->slots;
        free(target_labels);
        free(target_loop);
    }
    c->warm_iters = b->slots;
    if (b->kind == COND && c->simple_predictor) {
        simulate_predictor(b);
        c->warm_iters = b->slots * (uint64_t)(b->sim_laps + 1);   /* the predictor settled, as the model's */
    }
    snprintf(c->detail, sizeof(c->detail), "code=%s inst/iter=%.10g table=%s",
             fmt_size(b->g.code.size), (double)b->body_insn + b->loop.inst,
             b->table ? fmt_size(b->kind == COND ? b->slots * b->words * 8 : b->slots * 8) : "none");
    return CASE_OK;
}

static void branch_loop(struct case_ *c, uint64_t iters)
{
    struct branch *b = c->priv;
    b->g.entry(iters, b->table);
}

/* The table is read one entry an iteration, in order: a lap of it visits each line read once,
 * and a line misses a warm LRU cache when its set holds more of the table's lines than ways, the
 * last level seeing only D1's misses (lru.h). A conditional slot is a power of two of words of
 * which only the branches' words are read: the lines beyond them are never touched; the table
 * need not start on a line, so a slot may share its first line with the one before (each line is
 * counted once: 'branches=906' read 2 D1 misses an iteration where 3 were counted). */
struct table_lines {
    uintptr_t from;
    uint64_t slots, slot_bytes, read_bytes;
};

static void add_table_lines(struct lru_count *lc, const void *walk)
{
    const struct table_lines *l = walk;
    uintptr_t next = 0;   /* the first line no slot has added: a slot may start in the last one's line */
    for (uint64_t s = 0; s < l->slots; s++) {
        uintptr_t a = l->from + s * l->slot_bytes, first = a & ~(uintptr_t)63, end = a + l->read_bytes;
        if (first < next)
            first = next;
        if (end > first)
            lru_count_add_lines(lc, first, (end - first + 63) / 64);
        next = (end + 63) & ~(uintptr_t)63;
    }
}

static void table_misses(const struct branch *b, struct quantities *q)
{
    q->v[Q_D1_MISS_WARM] = q->v[Q_LL_MISS_WARM] = 0;
    if (!b->table)
        return;
    struct table_lines l = {.from = (uintptr_t)b->table, .slots = b->slots, .slot_bytes = 8, .read_bytes = 8};
    if (b->kind == COND) {
        l.slot_bytes = 8 * b->words;
        l.read_bytes = 8 * ((b->branches + 63) / 64);
    }
    if (l.read_bytes == l.slot_bytes || l.slot_bytes < 64) {   /* every line read: one run of them */
        l.read_bytes = l.slot_bytes * l.slots;
        l.slots = 1;
    }
    uint64_t d1, ll;
    lru_count_walk(topo_get(), add_table_lines, &l, &d1, &ll);
    q->v[Q_D1_MISS_WARM] = (double)d1 / (double)b->slots;   /* a lap is 'slots' iterations */
    q->v[Q_LL_MISS_WARM] = (double)ll / (double)b->slots;
}

static void branch_model(const struct case_ *c, struct quantities *q)
{
    const struct branch *b = c->priv;
    gen_model_base(q);
    q->v[Q_INST] = (double)b->body_insn;
    table_misses(b, q);
    double n = (double)b->branches;
    if (b->kind == COND) {
        uint64_t loads = (b->branches + 63) / 64;
        q->v[Q_LD_ALL] = (double)loads;
        q->v[Q_BYTES_READ] = 8.0 * (double)loads;
        q->v[Q_BR_COND] = n;
        /* Exact for the fixed patterns over any whole number of periods; for random, exact over
         * the table's length and expected (fair bits) otherwise. */
        q->v[Q_BR_COND_TAKEN] = n * b->taken_fraction;
        q->v[Q_BR_COND_NTAKEN] = n * (1 - b->taken_fraction);
        q->v[Q_BR_ALL] = n;
        if (c->simple_predictor)
            q->v[Q_BR_MISPRED] = b->sim_mispred;   /* the simulated predictor's own steady state (bpred.h) */
        else if (b->pattern == TAKEN || b->pattern == NEVER)
            q->v[Q_BR_MISPRED] = 0;
        else if (b->pattern == RANDOM)
            q->v[Q_BR_MISPRED] = n * 0.5;   /* fair independent bits: no predictor beats chance */
        else if ((b->pattern == ALTERNATE ? 2 : b->period) * (b->branches + 1) <= 512)
            q->v[Q_BR_MISPRED] = 0;         /* the pattern fits a global history a modern predictor keeps */
        else
            q->v[Q_BR_MISPRED] = NAN;       /* beyond that it depends on the predictor */
    } else if (b->kind == UNCOND) {
        q->v[Q_BR_UNCOND] = n;
        q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = 0;
        q->v[Q_BR_ALL] = n;
        q->v[Q_BR_MISPRED] = 0;   /* a jump missing the BTB is re-steered at decode, not mispredicted at retire */
    } else {
        q->v[Q_LD_ALL] = 1;       /* the jump's target is read from memory (x86's jmp *(%rax), A64's ldr) */
        q->v[Q_BYTES_READ] = 8;
        q->v[Q_BR_INDIRECT] = 1;
        q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = 0;
        q->v[Q_BR_ALL] = 1;
        /* A last-target table (the simulated one's, bpred.h) misses each change of target: none
         * for one target (pattern=taken), every jump of the cycling sequence, the table's own
         * changes for random targets. A modern predictor learns the cycle (its history tells the
         * targets apart); for fair random targets none beats chance. */
        if (c->simple_predictor)
            q->v[Q_BR_MISPRED] = (double)bpred_indirect_lap(b->table, b->slots) / (double)b->slots;
        else
            q->v[Q_BR_MISPRED] = b->pattern == RANDOM ? 1.0 - 1.0 / (double)b->targets : 0;
        q->v[Q_BR_COND_MISPRED] = 0;   /* the loop branch */
    }
    gen_model_loop_test(&b->loop, q);
}

static void branch_teardown(struct case_ *c)
{
    struct branch *b = c->priv;
    if (b) {
        gen_free(&b->g);
        free(b->table);
        free(b->branch_at);
    }
    free(b);
    c->priv = NULL;
}

static const struct assembler *branch_code(const struct case_ *c)
{
    const struct branch *b = c->priv;
    return &b->g.as;
}

static const char *const branch_matrix[] = {
    "pattern=taken",
    "pattern=never",
    "pattern=alternate",
    "pattern=period period=8",
    "pattern=random",
    "pattern=taken branches=4096 density=4",
    "kind=uncond branches=64",
    "kind=uncond branches=8192 density=4",
    "kind=indirect pattern=period targets=4",
    "kind=indirect pattern=random targets=4",
    NULL,
};

static const struct kernel branch_kernel = {
    .name = "branch",
    .summary = "generated branches with known outcomes: conditional patterns, jump chains, indirect jumps",
    .params = branch_params,
    .setup = branch_setup,
    .loop = branch_loop,
    .model = branch_model,
    .teardown = branch_teardown,
    .matrix = branch_matrix,
    .per = Q_BR_ALL,
    .per_name = "branch",
    .code = branch_code,
};
PMUCAL_KERNEL(branch_kernel)
