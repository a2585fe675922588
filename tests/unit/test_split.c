/* Split-and-retry: a source on which groups of more than two programmable events never run.
 * The engine must learn that, split such groups, measure every event, record why, and place
 * later cases' events so they do not repeat the failure. */
#include "base/util.h"
#include "core/kernel.h"
#include "tap.h"
#include "validate/engine.h"
#include <stdlib.h>
#include <string.h>

struct group {
    int prog;
};

static int opens;

static int fake_resolve(const char *name, struct event_spec *spec, char *err, size_t n)
{
    (void)err, (void)n;
    spec->name = xstrdup(name);
    spec->canonical = xstrdup(name);
    spec->type = 4;
    spec->config = (uint64_t)name[1];
    spec->programmable = name[0] == 'P';
    return 0;
}

static struct group *fake_open(struct event_spec **ev, int n)
{
    struct group *g = xcalloc(1, sizeof(*g));
    for (int i = 0; i < n; i++)
        g->prog += ev[i]->programmable;
    opens++;
    return g;
}

static void fake_nop(struct group *g) { (void)g; }

static int fake_read(struct group *g, struct group_reading *r)
{
    memset(r, 0, sizeof(*r));
    r->time_enabled = 1000;
    r->time_running = g->prog > 2 ? 0 : 1000;
    return 0;
}

static void fake_close(struct group *g) { free(g); }

static const struct source fake = {
    .name = "fake-split", .summary = "test", .exact_floor = 0.01, .resolve = fake_resolve,
    .open = fake_open, .start = fake_nop, .stop = fake_nop, .read = fake_read, .close = fake_close,
};
PMUCAL_SOURCE(fake)

static int records, split_records;
static char parts[512];

static void hook(struct engine *eng, const struct case_ *c, const struct measurement *m, const struct quantities *q)
{
    (void)eng, (void)c, (void)q;
    records++;
    int prog = 0;
    for (int k = 0; k < m->nevents; k++)
        prog += m->events[k]->programmable;
    snprintf(parts + strlen(parts), sizeof(parts) - strlen(parts), "%s%d", parts[0] ? "," : "", prog);
    split_records += m->time_running == m->time_enabled;
}

int main(void)
{
    struct engine eng;
    memset(&eng, 0, sizeof(eng));
    eng.src = &fake;
    struct measure_opts mo = MEASURE_OPTS_DEFAULT;
    mo.repetitions = 1, mo.iters = 4;
    eng.mopts = mo;
    eng.group_size = 4;
    eng.on_measurement = hook;
    struct evlist l = {0};
    const char *names[] = {"Pa", "Pb", "Pc", "Pd", "Pe", "Sx"};
    for (unsigned i = 0; i < 6; i++)
        evlist_add(&l, names[i], "-e");
    struct event_spec *ev;
    int n;
    int resolved = engine_resolve_events(&fake, &l, &ev, &n);   /* CHECK evaluates its condition twice */
    CHECK(resolved == 0 && n == 6, __LINE__, "six fake events resolve");
    struct case_ *c = case_from_text(kernel_find("walker"), "size=16k");
    CHECK(c != NULL, __LINE__, "a walker case");
    int rc = engine_case(&eng, c, ev, n);
    CHECK(rc == CASE_OK, __LINE__, "the case measures (rc %d)", rc);
    /* Group 1 {a,b,c,d} never runs -> {a,b} {c,d}; group 2 {e, sx} runs. */
    CHECK(!strcmp(parts, "2,2,1"), __LINE__, "programmable events per recorded measurement: %s (want 2,2,1)", parts);
    CHECK(records == 3 && split_records == 3, __LINE__, "every record ran (%d of %d)", split_records, records);
    CHECK(eng.learned.n == 1, __LINE__, "one conflict learned (%d): %s", eng.learned.n, eng.learned.n ? eng.learned.why[0] : "");
    /* The next case uses what was learned: no group is opened only to fail. */
    records = split_records = 0, parts[0] = '\0';
    int before = opens;
    rc = engine_case(&eng, c, ev, n);
    CHECK(rc == CASE_OK && eng.learned.n == 1, __LINE__, "a second case learns nothing new (%d)", eng.learned.n);
    CHECK(opens - before == records, __LINE__, "%d opens for %d records: none wasted", opens - before, records);
    CHECK(split_records == records, __LINE__, "all its groups ran: %s", parts);
    case_free(c);
    engine_free_events(ev, n);
    evlist_free(&l);
    engine_free(&eng);
    return done_testing();
}
