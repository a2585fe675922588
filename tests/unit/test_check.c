/* The checker: verdicts for each tolerance class, and zero-quantity cases as negative tests. */
#include "tap.h"
#include "validate/expect.h"
#include <string.h>

static const struct {
    int line;
    const char *rule;        /* "EVENT EXPR TOL" */
    double measured;         /* median (and min) per iteration */
    enum verdict_kind want;
} rows[] = {
    {__LINE__, "E inst exact", 18.0, V_OK},
    {__LINE__, "E inst exact", 18.005, V_OK},             /* within the source's floor */
    {__LINE__, "E inst exact", 18.5, V_NOT_OK},
    {__LINE__, "E inst exact", 36.0, V_NOT_OK},           /* x2 overcount */
    {__LINE__, "E ld.l2 5%", 2.05, V_OK},
    {__LINE__, "E ld.l2 5%", 2.5, V_NOT_OK},
    /* Negative tests: the quantity is zero in this case (an L1-resident walk), the event counts. */
    {__LINE__, "L3_MISS ld.dram 5%", 0.0, V_OK},
    {__LINE__, "L3_MISS ld.dram 5%", 0.3, V_NOT_OK},
    {__LINE__, "L3_MISS ld.dram exact", 0.02, V_NOT_OK},
    {__LINE__, "MISP br.mispred bound", 0.0, V_OK},
    {__LINE__, "MISP br.mispred bound", 1.5, V_NOT_OK},
    {__LINE__, "E inst info", 99, V_INFO},
    {__LINE__, "E ld.l3 5%", 0.0, V_SKIP},                 /* the model does not state ld.l3 */
    {__LINE__, "E ld.all - ld.l1 exact", 0.0, V_OK},
    {__LINE__, "E ld.all - ld.l1 exact", 1.0, V_NOT_OK},
};

int main(void)
{
    struct quantities q;
    quantities_unstated(&q);
    q.v[Q_INST] = 18, q.v[Q_LD_ALL] = 16, q.v[Q_LD_L1] = 16, q.v[Q_LD_L2] = 2, q.v[Q_LD_DRAM] = 0;
    q.v[Q_BR_MISPRED] = 1;
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct ruleset rs = {0};
        int parsed = ruleset_parse(&rs, rows[i].rule, "test");   /* CHECK evaluates its condition twice */
        CHECK(parsed == 0, rows[i].line, "rule '%s' parses", rows[i].rule);
        struct event_spec ev = {.name = "E"};
        struct stats st = {.median = rows[i].measured, .min = rows[i].measured};
        struct verdict v = check_event(&rs.rules[0], &ev, &st, &q, 0.01, 0);
        CHECK(v.kind == rows[i].want, rows[i].line, "'%s' measured %g: verdict %d want %d (%s)", rows[i].rule,
              rows[i].measured, (int)v.kind, (int)rows[i].want, v.reason);
        ruleset_free(&rs);
    }
    /* An erratum at the end of a rule is kept; a rule without one has none. */
    struct ruleset rs = {0};
    int parsed = ruleset_parse(&rs, "X inst 5% erratum=SKL057\nY inst exact\n", "test");
    CHECK(parsed == 0 && rs.n == 2 &&
              rs.rules[0].erratum && !strcmp(rs.rules[0].erratum, "SKL057") && !rs.rules[1].erratum &&
              rs.rules[0].tol == TOL_PERCENT,
          __LINE__, "erratum=SKL057 is parsed after the tolerance");
    /* Rules match with or without the PMU prefix, in any case. */
    struct event_spec ev = {.name = "skl::mem_load_retired:l2_hit"};
    ruleset_free(&rs);
    ruleset_parse(&rs, "MEM_LOAD_RETIRED:L2_HIT ld.l2 5%\n", "test");
    CHECK(ruleset_find(&rs, &ev) != NULL, __LINE__, "a rule finds its event under a pmu:: prefix");
    ruleset_free(&rs);
    return done_testing();
}
