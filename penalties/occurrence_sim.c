/* The occurrence table: for each quantity a recipe divides by, the sim counts that equal it in
 * the simulated machine, or why callgrind cannot count it. What callgrind counts and how is in
 * validate/expect/sim.txt; in short: I1, D1 and one last level LL (no L2 when an L3 is simulated),
 * LRU, no prefetcher, no TLB, no store buffer, a textbook branch predictor, FP in software.
 * Tolerances are sim.txt's for the same events (the harness's few lines and loop exits per measured loop). */
#include "penalties/occurrence_sim.h"
#include "base/util.h"
#include "validate/engine.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISS "0.1%+-0.005"   /* sim.txt's D1mr/DLmr tolerance */
#define MISPRED "2%+-0.005"  /* sim.txt's Bcm/Bim tolerance */

/* Loads beyond D1 that the last level serves: callgrind has no level between D1 and LL, so an L2
 * and an L3 hit are one count (the simulated LL is the host's L3 where its geometry is known). */
#define BEYOND_D1 "sim::D1mr ld.l2 + ld.l3 + ld.dram " MISS "\nsim::DLmr ld.dram " MISS
#define BEYOND_I1 "sim::I1mr ifetch.lines.l2 + ifetch.lines.l3 + ifetch.lines.dram " MISS \
                  "\nsim::ILmr ifetch.lines.dram " MISS
#define NO_TLB "callgrind simulates no TLB: no sim event counts DTLB misses or page walks"
#define NO_STORE_BUFFER "callgrind has no store buffer: its machine forwards no store to a load and blocks none"
#define NOT_BY_KIND "callgrind counts instructions (Ir), not instructions by kind: no sim event counts divides " \
                    "or square roots"

const struct occurrence_sim occurrence_sim_rows[] = {
    {"ld.l1", "sim::Dr ld.all exact\nsim::D1mr ld.all - ld.l1 " MISS, "ld.l1 = sim::Dr - sim::D1mr", NULL, __LINE__},
    {"ld.l2", BEYOND_D1, "ld.l2 + ld.l3 = sim::D1mr - sim::DLmr (one simulated level between D1 and memory)", NULL,
     __LINE__},
    {"ld.l3", BEYOND_D1, "ld.l2 + ld.l3 = sim::D1mr - sim::DLmr (one simulated level between D1 and memory)", NULL,
     __LINE__},
    {"ld.dram", "sim::DLmr ld.dram " MISS, "ld.dram = sim::DLmr", NULL, __LINE__},
    {"br.mispred", "sim::Bcm br.mispred - br.indirect.mispred " MISPRED "\nsim::Bim br.indirect.mispred " MISPRED,
     "br.mispred = sim::Bcm + sim::Bim (callgrind's returns never mispredict)", NULL, __LINE__},
    {"ifetch.lines.l2", BEYOND_I1, "ifetch.lines.l2 + ifetch.lines.l3 = sim::I1mr - sim::ILmr", NULL, __LINE__},
    {"ifetch.lines.l3", BEYOND_I1, "ifetch.lines.l2 + ifetch.lines.l3 = sim::I1mr - sim::ILmr", NULL, __LINE__},
    {"ifetch.lines.dram", BEYOND_I1, "ifetch.lines.dram = sim::ILmr", NULL, __LINE__},
    {"dtlb.miss", NULL, NULL, NO_TLB, __LINE__},
    {"stlb.miss", NULL, NULL, NO_TLB, __LINE__},
    {"br.uncond", NULL, NULL, "callgrind counts conditional (Bc) and indirect (Bi) branches only: no sim event "
     "counts direct jumps", __LINE__},
    {"st.fwd", NULL, NULL, NO_STORE_BUFFER, __LINE__},
    {"st.fwd.block", NULL, NULL, NO_STORE_BUFFER, __LINE__},
    {"ld.alias4k", NULL, NULL, NO_STORE_BUFFER " (4K aliasing does not exist there)", __LINE__},
    {"ld.split", NULL, NULL, "callgrind counts a load crossing a line as one read (Dr): no sim event counts split "
     "loads", __LINE__},
    {"arith.div", NULL, NULL, NOT_BY_KIND, __LINE__},
    {"fp.div", NULL, NULL, NOT_BY_KIND, __LINE__},
    {"fp.sqrt", NULL, NULL, NOT_BY_KIND, __LINE__},
    {"fp.assist", NULL, NULL, "valgrind computes floating point in software: no microcode assist, no sim event "
     "counts one", __LINE__},
};
const int noccurrence_sim_rows = (int)(sizeof(occurrence_sim_rows) / sizeof(occurrence_sim_rows[0]));

const struct occurrence_sim *occurrence_sim_find(const char *quantity)
{
    for (int i = 0; quantity && i < noccurrence_sim_rows; i++)
        if (!strcmp(occurrence_sim_rows[i].quantity, quantity))
            return &occurrence_sim_rows[i];
    return NULL;
}

bool occurrence_sim_checkable(const char *quantity)
{
    const struct occurrence_sim *row = occurrence_sim_find(quantity);
    return row && row->rules;
}

int occurrence_sim_rules(const struct occurrence_sim *row, struct ruleset *rs)
{
    char origin[64];
    snprintf(origin, sizeof(origin), "penalties/occurrence_sim.c:%d", row->line);
    return row->rules ? ruleset_parse(rs, row->rules, origin) : 0;
}

const char *occurrence_sim_statement(const char *quantity, char *buf, size_t n)
{
    const struct occurrence_sim *row = occurrence_sim_find(quantity);
    if (!row)
        snprintf(buf, n, "not checkable under sim: penalties/occurrence_sim.c has no row for %s", quantity);
    else if (row->rules)
        snprintf(buf, n, "checked under sim by 'pmucal calibrate --source sim' (%s)", row->identity);
    else
        snprintf(buf, n, "not checkable under sim: %s", row->why_not);
    return buf;
}

static void append(char *text, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *text, size_t n, const char *fmt, ...)
{
    size_t len = strlen(text);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + len, n - len, fmt, ap);
    va_end(ap);
}

void occurrence_sim_judge(const struct ruleset *rs, const struct source *src, const struct measurement *m,
                          const struct quantities *q, struct occurrence_case_check *out)
{
    /* validate's judge with this row's rules in place of the source's. */
    struct engine judge;
    memset(&judge, 0, sizeof(judge));
    judge.src = src;
    judge.rules = *rs;
    struct event_verdict *vs = xcalloc((size_t)(m->nevents ? m->nevents : 1), sizeof(*vs));
    engine_judge(&judge, m, q, vs);
    out->rules = rs->n;
    for (int k = 0; k < m->nevents; k++) {
        const struct rule *r = ruleset_find(rs, m->events[k]);
        if (!r)
            continue;
        out->seen++;
        const struct event_verdict *v = &vs[k];
        if (v->kind == VERDICT_OK) {
            if (!out->failed)
                append(out->text, sizeof(out->text), "%s%s %.4f = %s %.4f", out->text[0] ? "; " : "",
                       m->events[k]->name, v->measured, r->expr_text, v->expected);
            continue;
        }
        /* A failure replaces the list of what held: the reader needs what did not. */
        if (!out->failed++)
            out->text[0] = '\0';
        append(out->text, sizeof(out->text), "%s%s%s", out->text[0] ? "; " : "",
               v->kind == VERDICT_SKIP ? "not judged: " : "", v->reason);
    }
    free(vs);
}
