/* The occurrence table (penalties/occurrence_sim.c): every recipe's occurrence quantity has a row;
 * a checkable row's rules parse and name sim events; and its judgement, on hand-made simulated
 * counts, holds a right model and fails a wrong one (a model that puts half the loads in L1,
 * the loads in the wrong level, too many mispredicts), and never passes a row it could not judge. */
#include "base/stats.h"
#include "penalties/occurrence_sim.h"
#include "penalties/recipes.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

#define ITERS 10000
#define REPS 3

struct count {
    const char *event;   /* sim::NAME */
    double per_iter;
};
struct stated {
    const char *quantity;
    double value;
};

/* The row's check of one simulated case: 1 when every rule held, 0 otherwise. */
static int judge(const char *quantity, const struct count *counts, const struct stated *model, char *text, size_t n)
{
    const struct source *sim = source_find("sim");
    const struct occurrence_sim *row = occurrence_sim_find(quantity);
    struct ruleset rs = {0};
    if (!sim || !row || occurrence_sim_rules(row, &rs))
        return -1;
    static struct measurement m;
    memset(&m, 0, sizeof(m));
    struct event_spec specs[8];
    struct event_spec *ptr[8];
    memset(specs, 0, sizeof(specs));
    char err[256];
    for (int k = 0; counts[k].event; k++) {
        if (sim->resolve(counts[k].event, &specs[k], err, sizeof(err)))
            return -1;
        ptr[k] = &specs[k];
        for (int r = 0; r < REPS; r++) {
            m.per_iter[k][r] = counts[k].per_iter;
            m.raw[k][r][1] = 20;   /* the harness's own few events, the same in the zero-iteration run */
            m.raw[k][r][0] = 20 + counts[k].per_iter * ITERS;
        }
        m.stat[k] = stats_of(m.per_iter[k], REPS);
        m.nevents = k + 1;
    }
    m.events = ptr;
    m.iters = ITERS;
    m.reps = REPS;
    struct quantities q;
    quantities_unstated(&q);
    for (int i = 0; model[i].quantity; i++)
        q.v[quantity_lookup(model[i].quantity)] = model[i].value;
    struct occurrence_case_check chk;
    memset(&chk, 0, sizeof(chk));
    occurrence_sim_judge(&rs, sim, &m, &q, &chk);
    snprintf(text, n, "%s", chk.text);
    for (int k = 0; k < m.nevents; k++)
        event_spec_clear(&specs[k]);
    ruleset_free(&rs);
    return chk.rules > 0 && chk.seen == chk.rules && !chk.failed;
}

int main(void)
{
    /* Every recipe's occurrence has a row, and the row is whole: rules with what they prove, or a reason. */
    for (int i = 0; i < nrecipes; i++) {
        const struct occurrence_sim *row = occurrence_sim_find(recipes[i].occurrence);
        CHECK(row && (row->rules ? row->identity && !row->why_not : row->why_not && strlen(row->why_not) > 20),
              __LINE__, "recipe %s: occurrence %s has a whole row in penalties/occurrence_sim.c", recipes[i].name,
              recipes[i].occurrence);
    }
    const struct source *sim = source_find("sim");
    for (int i = 0; i < noccurrence_sim_rows; i++) {
        const struct occurrence_sim *row = &occurrence_sim_rows[i];
        CHECK(quantity_lookup(row->quantity) >= 0, row->line, "%s is a quantity", row->quantity);
        struct ruleset rs = {0};
        int rc = occurrence_sim_rules(row, &rs);
        bool events_ok = sim != NULL;
        for (int r = 0; sim && r < rs.n; r++) {
            struct event_spec spec = {0};
            char err[256];
            events_ok &= sim->resolve(rs.rules[r].event, &spec, err, sizeof(err)) == 0;
            event_spec_clear(&spec);
        }
        CHECK(rc == 0 && (row->rules ? rs.n >= 1 : rs.n == 0) && events_ok, row->line,
              "%s: %d rules parse and name sim events", row->quantity, rs.n);
        ruleset_free(&rs);
    }

    static const struct {
        int line;
        const char *quantity;
        struct count counts[4];
        struct stated model[8];
        int want;   /* 1: the row holds; 0: it does not */
        const char *says;   /* a word of the text */
    } rows[] = {
        /* walker size=L1 as callgrind counts it: 16 loads, none missing D1 (a few harness misses). */
        {__LINE__, "ld.l1", {{"sim::Dr", 16}, {"sim::D1mr", 0.0006}}, {{"ld.all", 16}, {"ld.l1", 16}}, 1, "sim::D1mr"},
        /* A model that puts half the loads in L1 is caught by the misses the other half would make. */
        {__LINE__, "ld.l1", {{"sim::Dr", 16}, {"sim::D1mr", 0}}, {{"ld.all", 16}, {"ld.l1", 8}}, 0, "expected 8.0000"},
        /* One that states more loads than the code makes is caught by Dr. */
        {__LINE__, "ld.l1", {{"sim::Dr", 16}, {"sim::D1mr", 0}}, {{"ld.all", 17}, {"ld.l1", 17}}, 0, "sim::Dr = ld.all"},
        /* Without the count the row needs (sim::Dr), nothing is shown. */
        {__LINE__, "ld.l1", {{"sim::D1mr", 0}}, {{"ld.all", 16}, {"ld.l1", 16}}, 0, NULL},
        /* A model that does not state the occurrence is not judged, and not passed. */
        {__LINE__, "ld.l1", {{"sim::Dr", 16}, {"sim::D1mr", 0}}, {{"ld.all", 16}}, 0, "not judged"},
        {__LINE__, "ld.l2", {{"sim::D1mr", 16.0002}, {"sim::DLmr", 0}}, {{"ld.l2", 16}, {"ld.l3", 0}, {"ld.dram", 0}},
         1, "sim::DLmr"},
        /* The right number of loads in the wrong place: DRAM where the simulated LL serves them. */
        {__LINE__, "ld.l2", {{"sim::D1mr", 16}, {"sim::DLmr", 0}}, {{"ld.l2", 0}, {"ld.l3", 0}, {"ld.dram", 16}}, 0,
         "sim::DLmr = ld.dram"},
        {__LINE__, "ld.dram", {{"sim::DLmr", 16.0002}}, {{"ld.dram", 16}}, 1, NULL},
        {__LINE__, "ld.dram", {{"sim::DLmr", 16}}, {{"ld.dram", 8}}, 0, NULL},
        /* branch pattern=random: half of 8 random branches mispredicted by callgrind's predictor. */
        {__LINE__, "br.mispred", {{"sim::Bcm", 4.0175}, {"sim::Bim", 0}},
         {{"br.mispred", 4}, {"br.indirect.mispred", 0}}, 1, "sim::Bcm"},
        {__LINE__, "br.mispred", {{"sim::Bcm", 4.0175}, {"sim::Bim", 0}},
         {{"br.mispred", 8}, {"br.indirect.mispred", 0}}, 0, "expected 8.0000"},
        {__LINE__, "ifetch.lines.l2", {{"sim::I1mr", 2048.0013}, {"sim::ILmr", 0}},
         {{"ifetch.lines.l2", 2048}, {"ifetch.lines.l3", 0}, {"ifetch.lines.dram", 0}}, 1, NULL},
        {__LINE__, "ifetch.lines.l2", {{"sim::I1mr", 2048}, {"sim::ILmr", 0}},
         {{"ifetch.lines.l2", 1024}, {"ifetch.lines.l3", 0}, {"ifetch.lines.dram", 0}}, 0, NULL},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char text[1024];
        int got = judge(rows[i].quantity, rows[i].counts, rows[i].model, text, sizeof(text));
        CHECK(got == rows[i].want && (!rows[i].says || strstr(text, rows[i].says)), rows[i].line,
              "%s: %s (want %s): %s", rows[i].quantity, got == 1 ? "holds" : got == 0 ? "fails" : "cannot run",
              rows[i].want ? "holds" : "fails", text);
    }
    /* What the timing calibration prints comes from the same rows. */
    char st[512];
    CHECK(strstr(occurrence_sim_statement("ld.l1", st, sizeof(st)), "checked under sim by 'pmucal calibrate "
                                                                    "--source sim'") != NULL, __LINE__, "%s", st);
    CHECK(strstr(occurrence_sim_statement("dtlb.miss", st, sizeof(st)), "not checkable under sim: callgrind "
                                                                        "simulates no TLB") != NULL, __LINE__, "%s", st);
    CHECK(!occurrence_sim_checkable("st.fwd") && occurrence_sim_checkable("br.mispred"), __LINE__,
          "st.fwd not checkable, br.mispred checkable");
    return done_testing();
}
