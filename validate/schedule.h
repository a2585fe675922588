/* The scheduler: events into groups of at most N programmable counters each. */
#ifndef PMUCAL_SCHEDULE_H
#define PMUCAL_SCHEDULE_H
#include "source.h"

struct schedule {
    int ngroups;
    int *start, *count;    /* group g holds events[start[g] .. start[g]+count[g]) after reordering */
};

/* Reorders events in place so each group is contiguous. Events that need no programmable
 * counter (software events) ride in the first groups without taking a slot. */
void schedule_groups(struct event_spec *events, int n, int group_size, struct schedule *s);
void schedule_free(struct schedule *s);

#endif
