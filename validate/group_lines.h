/* How the scheduler groups an event list, as 'pmucal groups' prints it: one group a line in
 * perf's syntax, as perf stat -e takes it ({r4300c0:u,r4301c2:u,page-faults:u}, uncore events
 * after the braces: perf groups none with a task's events). */
#ifndef PMUCAL_GROUP_LINES_H
#define PMUCAL_GROUP_LINES_H
#include "validate/engine.h"
#include <stdbool.h>

/* The n events ev placed first-fit into groups by eng's PMU, vendor table, counters and group size,
 * on stdout. why: comment lines with each restricted event's restriction and each group's events
 * by name; names: each group as the names given, comma-separated without braces. */
void group_lines_print(const struct event_spec *ev, int n, const struct engine *eng, bool why, bool names);
#endif
