/* Where a penalty's occurrences come from a kernel's model, the sim source can check the model:
 * one row per occurrence quantity says which simulated counts must equal it in the machine
 * callgrind simulates (as rules, "EVENT EXPRESSION TOLERANCE"), or why callgrind
 * cannot count it at all. 'pmucal calibrate --source sim' judges every recipe's cases by its row;
 * the timing calibration says, from the same row, whether its model is checkable. */
#ifndef PMUCAL_OCCURRENCE_SIM_H
#define PMUCAL_OCCURRENCE_SIM_H
#include "core/measure.h"
#include "core/quantity.h"
#include "core/source.h"
#include "validate/rules.h"
#include <stdbool.h>
#include <stddef.h>

struct occurrence_sim {
    const char *quantity;   /* the recipes' occurrence quantity (pmucal calibrate --list: per) */
    const char *rules;      /* rules that together make it a simulated count, one a line; NULL when none */
    const char *identity;   /* what they prove, e.g. "ld.l1 = sim::Dr - sim::D1mr" */
    const char *why_not;    /* NULL when checkable; else why callgrind cannot count it */
    int line;               /* the row's line in occurrence_sim.c: verdicts point at it */
};

extern const struct occurrence_sim occurrence_sim_rows[];
extern const int noccurrence_sim_rows;

/* The row of a quantity, or NULL when the table has none. */
const struct occurrence_sim *occurrence_sim_find(const char *quantity);
/* The row's rules parsed into rs (origin "penalties/occurrence_sim.c:LINE"). -1 with a message. */
int occurrence_sim_rules(const struct occurrence_sim *row, struct ruleset *rs);
/* For the timing calibration's table: "checked under sim by 'pmucal calibrate --source sim'
 * (IDENTITY)" or "not checkable under sim: WHY" (or: no row). Returns buf. */
const char *occurrence_sim_statement(const char *quantity, char *buf, size_t n);
/* Is the quantity's model checkable under sim (a row with rules)? */
bool occurrence_sim_checkable(const char *quantity);

/* One case's check by a row: every rule of rs judged on the measurement's events as validate
 * judges them (engine_judge: per-iteration value, raw counts, the source's slack). */
struct occurrence_case_check {
    int rules, seen, failed;   /* rules in the row; judged (their event was measured); not ok */
    char text[1024];           /* "sim::Dr 16.0000 = ld.all 16.0000; ..." or the failures */
};
/* Judges the rules of rs whose event m measured, adding to *out (zeroed by the caller once per
 * case: a case measured in several groups is judged group by group). */
void occurrence_sim_judge(const struct ruleset *rs, const struct source *src, const struct measurement *m,
                          const struct quantities *q, struct occurrence_case_check *out);

#endif
