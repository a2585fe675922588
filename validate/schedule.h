/* The scheduler: events into groups of at most N programmable counters each, respecting counter
 * restrictions, shared resources (offcore-response and other extra MSRs) and what was learned
 * from groups that would not open or never ran. */
#ifndef PMUCAL_SCHEDULE_H
#define PMUCAL_SCHEDULE_H
#include "core/source.h"
#include <stdint.h>

struct vendor_table;

/* What limits where one event can go. */
struct sched_info {
    bool slot;               /* takes one of the group's N programmable counters */
    uint32_t counters;       /* programmable counters it may use (bit n = counter n); 0: any */
    unsigned resource;       /* shared resource it needs (an MSR address, 0x100+n for fixed counter n); 0: none */
    int capacity;            /* how many events of one group may share that resource */
    int together;            /* perf's {a,b,c} group number from the -e list: measured as one group; 0 none */
    char why[96];            /* where the restriction came from, for the record; "" when none */
};

/* Sets of events (by name) learned not to fit together in one group. */
struct sched_learned {
    int n;
    char ***sets;            /* NULL-terminated name lists */
    char **why;
};

struct schedule {
    int ngroups;
    int *order;              /* event indices, group after group */
    int *start, *count;      /* group g is order[start[g] .. start[g]+count[g]) */
};

/* The restrictions of one resolved event: from the vendor table when one is given (counter list,
 * fixed-only, MSR), and from what every Intel core PMU shares (offcore-response MSRs: 2 per core;
 * load-latency and front-end MSRs: 1). pmu is libpfm4's PMU name ("skl", "amd64_fam19h_zen4"). */
void schedule_info(const struct event_spec *ev, const char *pmu, const struct vendor_table *vt, int ncounters,
                   struct sched_info *out);
/* Place events first-fit, in the order given: an event goes into the first group with a free
 * programmable counter it may use, room on its shared resource and no learned conflict; else it
 * opens a new group. Events that take no programmable counter ride in the last group. Events of
 * one perf {a,b,c} group (info.together) make a group of their own, as written.
 * ncounters: programmable counters of the PMU (unrestricted events may use any of them). */
void schedule_build(const struct event_spec *ev, const struct sched_info *info, int n, int group_size,
                    int ncounters, const struct sched_learned *learned, struct schedule *s);
void schedule_free(struct schedule *s);

void sched_learn(struct sched_learned *l, struct event_spec *const *ev, int n, const char *why);
void sched_learned_free(struct sched_learned *l);

#endif
