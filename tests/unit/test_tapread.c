/* validate.tap back into verdicts (runs/tapread.c): each line form validate/engine.c and
 * base/tap.c write, and what the report's matrix cell takes from it. Also HTML escaping.
 * Descriptions never echo a TAP line: its "# TODO" would make this point a TODO. */
#include "report/report.h"
#include "runs/runfile.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

static const struct {
    int line;
    const char *tap;
    int ncells;                 /* 0: not a verdict (comment, plan); -1: refused */
    enum verdict kind;
    const char *case_label, *event, *expr, *tolerance, *where;
    double measured, expected;
} rows[] = {
    {__LINE__, "ok 1 - walker size=L1 :: sim::Ir = inst: measured 7.0000 expected 7.0000 (exact, validate/expect/sim.txt:7)",
     1, VERDICT_OK, "walker size=L1", "sim::Ir", "inst", "exact", "validate/expect/sim.txt:7", 7, 7},
    {__LINE__, "not ok 2 - triad :: MEM_LOAD_RETIRED:L2_HIT:c=1 = ld.l2 + ld.l3: measured 3.2000 expected 4.0000 "
               "(5%+-0.01, validate/expect/skl.txt:12)",
     1, VERDICT_NOT_OK, "triad", "MEM_LOAD_RETIRED:L2_HIT:c=1", "ld.l2 + ld.l3", "5%+-0.01", "validate/expect/skl.txt:12", 3.2, 4},
    {__LINE__, "ok 3 - triad :: context-switches = ctx.switch: measured 0.0000 expected 0.0000 (bound, built-in rules "
               "(validate/expect.c):10)",
     1, VERDICT_OK, "triad", "context-switches", "ctx.switch", "bound", "built-in rules (validate/expect.c):10", 0, 0},
    {__LINE__, "ok 4 - walker :: instructions # SKIP no hardware PMU: (perf_event_open: No such file)",
     1, VERDICT_SKIP, "walker", "instructions", NULL, NULL, NULL, NAN, NAN},
    {__LINE__, "not ok 5 - walker :: sim::D1mr # TODO erratum SIM001: sim::D1mr = d1.miss.warm: measured 3.9000 expected "
               "4.0000 (+-0.005, validate/expect/sim.txt:12)",
     1, VERDICT_TODO, "walker", "sim::D1mr", "d1.miss.warm", "+-0.005", "validate/expect/sim.txt:12", 3.9, 4},
    {__LINE__, "not ok 6 - walker :: sim::Dr: the group was multiplexed (running 5 of 10 ns); counts are not comparable",
     1, VERDICT_NOT_OK, "walker", "sim::Dr", NULL, NULL, NULL, NAN, NAN},
    {__LINE__, "not ok 7 - walker :: INST_RETIRED: the group was never scheduled (time_running 0 of 7906288 ns): it "
               "counted nothing of the runs",
     1, VERDICT_NOT_OK, "walker", "INST_RETIRED", NULL, NULL, NULL, NAN, NAN},
    /* What a split group read is a comment, not a verdict. */
    {__LINE__, "# split walker :: INST_RETIRED: the group was never scheduled (time_running 0 of 7906288 ns); raw counts "
               "of repetition 1: 0 (1000 iterations), 0 (0); not judged: measured again in parts",
     0, 0, NULL, NULL, NULL, NULL, NULL, NAN, NAN},
    {__LINE__, "# info walker size=L2 :: task-clock measured 40.2500 per iteration (info rule (built-in rules "
               "(validate/expect.c):12))",
     1, VERDICT_INFO, "walker size=L2", "task-clock", NULL, "info", "built-in rules (validate/expect.c):12", 40.25, NAN},
    {__LINE__, "ok 1 - closure: mixwalk predicted from calibrated latencies # SKIP needs a stable l1_hit penalty",
     1, VERDICT_SKIP, NULL, NULL, NULL, NULL, NULL, NAN, NAN},
    /* A separator that runs into the directive (the space between them shared): no case, no event. */
    {__LINE__, "ok 9 - x :: # SKIP y", 1, VERDICT_SKIP, NULL, NULL, NULL, NULL, NULL, NAN, NAN},
    {__LINE__, "# per-event summary (5 events):", 0, 0, NULL, NULL, NULL, NULL, NULL, NAN, NAN},
    {__LINE__, "1..16", 0, 0, NULL, NULL, NULL, NULL, NULL, NAN, NAN},
    {__LINE__, "okay 1 - not TAP", -1, 0, NULL, NULL, NULL, NULL, NULL, NAN, NAN},
    {__LINE__, "1..16 and more", -1, 0, NULL, NULL, NULL, NULL, NULL, NAN, NAN},
};

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_num(double a, double b)
{
    return (isnan(a) && isnan(b)) || fabs(a - b) < 1e-9;
}

int main(void)
{
    fprintf(stderr, "(two error messages about t.tap are expected next)\n");
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct runfile r = {0};
        char *text = malloc(strlen(rows[i].tap) + 2);
        strcpy(text, rows[i].tap);
        strcat(text, "\n");
        int rc = tap_parse(&r, text, "t.tap");
        if (rows[i].ncells < 0) {
            CHECK(rc == -1, rows[i].line, "the line is refused");
        } else if (!rows[i].ncells) {
            CHECK(rc == 0 && r.ncells == 0, rows[i].line, "the line is no verdict (%d cells)", r.ncells);
        } else {
            const struct vcell *c = r.ncells == 1 ? &r.cells[0] : NULL;
            CHECK(rc == 0 && c && c->kind == rows[i].kind && same(c->case_label, rows[i].case_label)
                      && same(c->event, rows[i].event) && same(c->expr, rows[i].expr)
                      && same(c->tolerance, rows[i].tolerance) && same(c->where, rows[i].where)
                      && same_num(c->measured, rows[i].measured) && same_num(c->expected, rows[i].expected),
                  rows[i].line, "kind %d case '%s' event '%s' expr '%s' tolerance '%s' where '%s' %g/%g",
                  c ? (int)c->kind : -1, c && c->case_label ? c->case_label : "(none)",
                  c && c->event ? c->event : "(none)", c && c->expr ? c->expr : "(none)",
                  c && c->tolerance ? c->tolerance : "(none)", c && c->where ? c->where : "(none)",
                  c ? c->measured : NAN, c ? c->expected : NAN);
        }
        free(text);
        runfile_free(&r);
    }
    /* A cut last line (an interrupted run) is kept apart, not refused. */
    struct runfile r = {0};
    CHECK(tap_parse(&r, "ok 1 - a :: b = inst: measured 1.0000 expected 1.0000 (exact, x:1)\nok 2 - a :: c = in",
                    "t.tap") == 0 && r.tap_truncated && r.ncells == 2, __LINE__, "a cut last line marks the run interrupted");
    runfile_free(&r);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    html_text(f, "<script>alert('x') & \"y\"</script>\x01");
    fclose(f);
    CHECK(!strcmp(buf, "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;&#xFFFD;"), __LINE__,
          "html_text escapes markup, quotes and control characters: %s", buf);
    free(buf);
    return done_testing();
}
