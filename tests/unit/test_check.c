/* The checker: verdicts for each tolerance class, and zero-quantity cases as negative tests. */
#include "tap.h"
#include "validate/rules.h"
#include <string.h>

static const struct {
    int line;
    const char *rule;        /* "EVENT EXPR TOL" */
    double measured;         /* median (and min) per iteration */
    enum verdict want;
} rows[] = {
    {__LINE__, "E inst exact", 18.0, VERDICT_OK},
    {__LINE__, "E inst exact", 18.005, VERDICT_OK},             /* within the source's floor */
    {__LINE__, "E inst exact", 18.5, VERDICT_NOT_OK},
    {__LINE__, "E inst exact", 36.0, VERDICT_NOT_OK},           /* x2 overcount */
    {__LINE__, "E ld.l2 5%", 2.05, VERDICT_OK},
    {__LINE__, "E ld.l2 5%", 2.5, VERDICT_NOT_OK},
    /* Negative tests: the quantity is zero in this case (an L1-resident walk), the event counts. */
    {__LINE__, "L3_MISS ld.dram 5%", 0.0, VERDICT_OK},
    {__LINE__, "L3_MISS ld.dram 5%", 0.3, VERDICT_NOT_OK},
    {__LINE__, "L3_MISS ld.dram exact", 0.02, VERDICT_NOT_OK},
    {__LINE__, "MISP br.mispred bound", 0.0, VERDICT_OK},
    {__LINE__, "MISP br.mispred bound", 1.5, VERDICT_NOT_OK},
    {__LINE__, "E inst info", 99, VERDICT_INFO},
    {__LINE__, "E ld.l3 5%", 0.0, VERDICT_SKIP},                 /* the model does not state ld.l3 */
    {__LINE__, "E ld.all - ld.l1 exact", 0.0, VERDICT_OK},
    {__LINE__, "E ld.all - ld.l1 exact", 1.0, VERDICT_NOT_OK},
    /* A CPU-wide count (uncore): at least the model less 10%, any amount of the socket's other
     * traffic above it; the model states 4 lines. */
    {__LINE__, "CAS mem.read.lines >=10%", 4.0, VERDICT_OK},
    {__LINE__, "CAS mem.read.lines >=10%", 3.65, VERDICT_OK},
    {__LINE__, "CAS mem.read.lines >=10%", 3.5, VERDICT_NOT_OK},
    {__LINE__, "CAS mem.read.lines >=10%", 40.0, VERDICT_OK},        /* a busy socket */
    {__LINE__, "CAS mem.read.lines >=10%", 0.0, VERDICT_NOT_OK},     /* counts nothing of the kernel's */
    {__LINE__, "CAS mem.write.lines >=0%", 1.995, VERDICT_OK},       /* within the source's floor, 0.01 */
    {__LINE__, "CAS mem.write.lines >=0%", 1.9, VERDICT_NOT_OK},
    {__LINE__, "CAS ld.l3 >=10%", 5.0, VERDICT_SKIP},                /* the model does not state ld.l3 */
};

int main(void)
{
    struct quantities q;
    quantities_unstated(&q);
    q.v[Q_INST] = 18, q.v[Q_LD_ALL] = 16, q.v[Q_LD_L1] = 16, q.v[Q_LD_L2] = 2, q.v[Q_LD_DRAM] = 0;
    q.v[Q_BR_MISPRED] = 1;
    q.v[Q_MEM_READ_LINES] = 4, q.v[Q_MEM_WRITE_LINES] = 2;
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct ruleset rs = {0};
        int parsed = ruleset_parse(&rs, rows[i].rule, "test");   /* CHECK evaluates its condition twice */
        CHECK(parsed == 0, rows[i].line, "rule '%s' parses", rows[i].rule);
        struct event_spec ev = {.name = "E"};
        struct stats st = {.median = rows[i].measured, .min = rows[i].measured};
        struct event_verdict v = check_event(&rs.rules[0], &ev, &st, &q, 0.01, 0);
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
    /* A lower bound judges the least repetition: a median above the model does not hide one below. */
    ruleset_parse(&rs, "CAS mem.read.lines >=10%\n", "test");
    struct stats wide = {.median = 4.2, .min = 3.0};
    struct event_spec cas = {.name = "CAS"};
    struct event_verdict v = check_event(&rs.rules[rs.n - 1], &cas, &wide, &q, 0.01, 0);
    CHECK(v.kind == VERDICT_NOT_OK && v.measured == 3.0, __LINE__, ">=10%% judges the minimum (%s)", v.reason);
    char tol[32];
    CHECK(!strcmp(tolerance_text(&rs.rules[rs.n - 1], tol, sizeof(tol)), ">=10%"), __LINE__, "'>=10%%' reads back as %s", tol);
    /* Malformed lower bounds are one error each. */
    static const char *const bad[] = {"X inst >=", "X inst >=10", "X inst >=100%", "X inst >=-5%", "X inst >=5%x"};
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct ruleset b = {0};
        int rc = ruleset_parse(&b, bad[i], "test");
        CHECK(rc < 0, __LINE__, "'%s' is refused", bad[i]);
        ruleset_free(&b);
    }
    ruleset_free(&rs);
    /* Rules match with or without the PMU prefix, in any case. */
    struct event_spec ev = {.name = "skl::mem_load_retired:l2_hit"};
    ruleset_free(&rs);
    ruleset_parse(&rs, "MEM_LOAD_RETIRED:L2_HIT ld.l2 5%\n", "test");
    CHECK(ruleset_find(&rs, &ev) != NULL, __LINE__, "a rule finds its event under a pmu:: prefix");
    ruleset_free(&rs);
    return done_testing();
}
