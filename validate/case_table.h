/* One case measured outside a run folder ('pmucal run'): each measurement on stdout as a table
 * of per-iteration counts beside the model and the rule, with the clock, windows, cycles per
 * unit and bandwidth; or as the JSON record validate would write. */
#ifndef PMUCAL_CASE_TABLE_H
#define PMUCAL_CASE_TABLE_H
#include "validate/engine.h"

/* Engine hooks (engine.on_measurement): eng->arg is an int that counts the events whose rule says
 * 'not ok'. The table also runs the kernel's own report after the first measurement. */
void case_print_table(struct engine *eng, const struct case_ *c, const struct measurement *m, const struct quantities *q);
void case_print_json(struct engine *eng, const struct case_ *c, const struct measurement *m, const struct quantities *q);
#endif
