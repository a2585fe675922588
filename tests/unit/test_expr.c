#include "core/expr.h"
#include "tap.h"
#include <string.h>

static const struct {
    int line;
    const char *text;
    double want;      /* NaN: the parse must fail */
    const char *err;  /* part of the message expected on failure */
} rows[] = {
    {__LINE__, "inst", 18, NULL},
    {__LINE__, "ld.l2 + ld.l3", 5, NULL},
    {__LINE__, "2*inst - ld.all", 20, NULL},
    {__LINE__, "(ld.all + 4) / 4", 5, NULL},
    {__LINE__, "-ld.all + 16", 0, NULL},
    {__LINE__, "0", 0, NULL},
    {__LINE__, "0.5 * iter", 0.5, NULL},
    {__LINE__, "br.cond.taken", 1, NULL},
    {__LINE__, "ld.l4", NAN, "unknown quantity 'ld.l4'"},
    {__LINE__, "inst +", NAN, "expression ends early"},
    {__LINE__, "(inst", NAN, "missing ')'"},
    {__LINE__, "inst inst", NAN, "unexpected text"},
};

int main(void)
{
    struct quantities q;
    quantities_unstated(&q);
    q.v[Q_INST] = 18;
    q.v[Q_LD_ALL] = 16;
    q.v[Q_LD_L2] = 2;
    q.v[Q_LD_L3] = 3;
    q.v[Q_BR_COND_TAKEN] = 1;
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char err[256] = "";
        struct expr *e = expr_parse(rows[i].text, err, sizeof(err));
        if (isnan(rows[i].want)) {
            CHECK(!e && strstr(err, rows[i].err), rows[i].line, "'%s' is rejected: %s", rows[i].text, err);
        } else {
            CHECK(e != NULL, rows[i].line, "'%s' parses %s", rows[i].text, err);
            if (e)
                CHECK_NEAR(expr_eval(e, &q), rows[i].want, 1e-12, rows[i].line, rows[i].text);
        }
        expr_free(e);
    }
    char err[128];
    struct expr *e = expr_parse("ld.dram", err, sizeof(err));
    CHECK(e && isnan(expr_eval(e, &q)), __LINE__, "a quantity the model does not state evaluates to NaN");
    expr_free(e);
    return done_testing();
}
