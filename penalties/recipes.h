/* Penalty recipes: one row a penalty. A penalty is the cost of one occurrence of an issue:
 * (cycles per iteration of the issue case - of the control case) / (occurrences in the issue
 * case - in the control case). Without a control the whole cost per occurrence is the figure
 * (a latency or a reciprocal throughput). */
#ifndef PMUCAL_RECIPES_H
#define PMUCAL_RECIPES_H

enum domain { DOMAIN_CORE, DOMAIN_MEMORY };

#define RECIPE_MAX_PMUS 3

struct pmu_event {
    const char *pmu;      /* libpfm4 PMU name, e.g. amd64_fam19h_zen4 */
    const char *event;    /* libpfm4 name with '.' before unit masks (also a perf metric identifier) */
};

struct recipe {
    const char *name;         /* lower_snake: penalties.json key, PREFIX_NAME_CYCLES in the C header */
    const char *brief;        /* one line: what one occurrence is */
    const char *issue;        /* case text "KERNEL p=v ..." */
    const char *control;      /* case text, or NULL: the issue case's cost per occurrence, whole */
    const char *occurrence;   /* quantity the models state, e.g. "ld.l2" (pmucal quantities) */
    enum domain domain;       /* core: constant in core cycles; memory: constant in time */
    const char *group;        /* metric group the perf-metrics emitter sums it into, or NULL */
    struct pmu_event events[RECIPE_MAX_PMUS];   /* per PMU: the event counting the occurrences */
};

extern const struct recipe recipes[];
extern const int nrecipes;

/* Per PMU: the event counting unhalted core cycles (the denominator of fraction metrics). */
const char *pmu_cycles_event(const char *pmu);
/* The recipe's event for this PMU, or NULL. */
const char *recipe_event(const struct recipe *r, const char *pmu);
const char *domain_name(enum domain d);

#endif
