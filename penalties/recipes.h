/* Penalty recipes: one row a penalty. A penalty is the cost of one occurrence of an issue:
 * (cycles per iteration of the issue case - of the control case) / (occurrences in the issue
 * case - in the control case). Without a control the whole cost per occurrence is the figure
 * (a latency or a reciprocal throughput). */
#ifndef PMUCAL_RECIPES_H
#define PMUCAL_RECIPES_H
#include "host/uarch.h"
#include <stdbool.h>

enum domain { DOMAIN_CORE, DOMAIN_MEMORY };

/* How far a figure's passes may spread and it still be a constant: what its consumers need of it
 * and what the figure can give. Not its domain (the unit it is constant in): an L3 hit is counted
 * in core cycles but varies as the memory hierarchy does.
 * - core: the core's own pipeline and private caches (L1 and L2 hits, branches, divides, assists)
 *   repeat to a fraction of a percent from pass to pass: 2% (CAL_SPREAD_CORE).
 * - hierarchy: the shared levels beyond them (L3, DRAM, page walks, instruction fetch from L3 or
 *   DRAM) move with page placement and, in a guest, with its share of the L3 (issue 47's Zen 5
 *   guest: DRAM 154.64 .. 158.84 ns over five passes). The event counts they are multiplied by
 *   are good to about 3% (Kruse's L2_miss_impact), so a latency known to 3% adds no more:
 *   3% (CAL_SPREAD_HIERARCHY). */
enum spread_class { SPREAD_CORE, SPREAD_HIERARCHY };
#define CAL_SPREAD_CORE 0.02
#define CAL_SPREAD_HIERARCHY 0.03

struct recipe {
    const char *name;         /* lower_snake: penalties.json key, PREFIX_NAME_CYCLES in the C header */
    const char *brief;        /* one line: what one occurrence is */
    const char *issue;        /* case text "KERNEL p=v ..." */
    const char *control;      /* case text, or NULL: the issue case's cost per occurrence, whole */
    const char *occurrence;   /* quantity the models state, e.g. "ld.l2" (pmucal quantities) */
    enum domain domain;       /* core: constant in core cycles; memory: constant in time */
    const char *group;        /* metric group the perf-metrics emitter sums it into, or NULL */
    const char *operands;     /* data-dependent instructions: the operands the cases use, else NULL */
    enum spread_class spread; /* how far its passes may spread: core, or hierarchy beyond the private caches */
    bool front_end;           /* its cost is the front end's (recipe_front_end) */
};

extern const struct recipe recipes[];
extern const int nrecipes;

/* The recipe's libpfm4 event for this libpfm4 PMU, or NULL. */
const char *recipe_event(const struct recipe *r, const char *pfm_pmu);
/* The k-th (from 0) perf event name that counts the recipe's issue on some uarch: the uarch
 * files' names (uarch/NAME.txt), then the names later CPUs renamed them to (ASSISTS.FP for
 * FP_ASSIST.ANY); NULL past the last. A CPU without a uarch file takes the first its own vendor
 * table has (penalties/tables.c). */
const char *recipe_perf_name(const struct recipe *r, int k);
/* The recipe's event on a uarch (the name of a uarch or of one of its CPUs), or NULL. */
const struct uarch_event *recipe_uarch_event(const struct recipe *r, const char *uarch);
/* Is it a recipe's name? (What the uarch files' names are checked with: uarch_recipes_known.) */
bool recipe_known(const char *name);
const struct recipe *recipe_named(const char *name);
/* The recipe's cost is the front end's (fetch, branch prediction, resteers, and the microcode an
 * assist runs), which hardware threads of one core share by turns: another thread slows it far
 * beyond what its loads could (core/measure.h MEASURE_WITNESS_QUIET). On the Emerald Rapids guest,
 * over 23 calibrations, fp_assist_mul read 118-148 cycles in 81 of 86 passes beside a witness
 * more than 0.5% over its whole, and 116.1-117 in 85 of 91 beside one within 0.1% of it. Not
 * ifetch_dram: beside its 50 ms windows the witness read 3% over its whole in whole calibrations
 * whose passes agreed. */
bool recipe_front_end(const struct recipe *rc);
/* Is it one of the nonly names given with --recipe (every recipe when nonly is 0)? */
bool recipe_wanted(const struct recipe *r, char *const *only, int nonly);
const char *domain_name(enum domain d);
/* "core" or "hierarchy". */
const char *spread_class_name(enum spread_class s);
/* The widest spread of its passes, relative to their median, a recipe's figure may have: 0.02 or 0.03. */
double spread_allowed(const struct recipe *r);
/* Every recipe on stdout, as 'pmucal calibrate --list' shows them: a paragraph each (name,
 * domain, what it measures, its issue, control and occurrence cases, its spread allowed, whether
 * its cost is the front end's, its operands), or as_json one JSON array of objects with those
 * keys. 0, or 1 when stdout could not be written. */
int recipes_list(bool as_json);

#endif
