#include "options.h"
#include "util.h"
#include "catalog.h"
#include "pfm.h"
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void measure_cli_init(struct measure_cli *o)
{
    struct measure_opts d = MEASURE_OPTS_DEFAULT;
    memset(o, 0, sizeof(*o));
    o->m = d;
    o->group_size = 4;
    o->source = "perf";
    o->events = NULL;   /* the source's default list, else engine_default_events */
}

const char *measure_cli_events(const struct measure_cli *o, const struct source *src)
{
    if (o->events)
        return o->events;
    return src && src->default_events ? src->default_events : engine_default_events;
}

int measure_cli_prepare(const struct measure_cli *o, const struct engine *e, int argc, char **argv, int *status)
{
    (void)o;
    if (!e->src->prepare_process)
        return SOURCE_CONTINUE;
    return e->src->prepare_process(argc, argv, status);
}

/* --pmu names a model: when it is not this host's, the verdicts speak for that model's encodings. */
static void note_other_model(const char *pmu)
{
    struct pfm_core host;
    char sig[128] = "?", why[512] = "";
    if (!pfm_pmu_by_name(pmu, &host))
        return;   /* no such PMU: pfm_force says so */
    if (pfm_core_pmu(&host)) {
        if (strcmp(host.name, pmu))
            pm_note("--pmu %s is not this host's model (libpfm4 detects %s); the verdicts speak for %s's "
                    "encodings", pmu, host.name, pmu);
        return;
    }
    cpu_signature(sig, sizeof(sig), NULL, 0);
    const struct catalog *c = catalog_active(why, sizeof(why));
    const char *same = c ? catalog_pfm_of_table(c->name) : NULL;
    if (!same || strcmp(same, pmu))
        pm_note("--pmu %s is not this host's model (CPUID %s%s%s, which libpfm4 does not know); the verdicts "
                "speak for %s's encodings", pmu, sig, c ? ": the vendor table " : "", c ? c->name : "", pmu);
}

static int number(const struct command *c, const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!parse_u64(v, out) || *out < lo || *out > hi) {
        cli_usage_error(c, "%s %s: give a whole number from %llu to %llu", opt, v, (unsigned long long)lo,
                        (unsigned long long)hi);
        return -1;
    }
    return 0;
}

int measure_cli_parse(const struct command *c, struct measure_cli *o, int argc, char **argv, int *i)
{
    bool bad = false;
    const char *v;
    uint64_t x;
    if ((v = cli_opt(argc, argv, i, "--events", "-e", &bad))) {
        o->events = v;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--repetitions", "-r", &bad))) {
        if (number(c, "-r", v, 1, MEASURE_MAX_REPS, &x))
            return -1;
        o->m.repetitions = (int)x;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--group-size", NULL, &bad))) {
        o->group_auto = !strcmp(v, "auto");
        if (o->group_auto)
            return 1;
        if (number(c, "--group-size", v, 1, 32, &x))
            return -1;
        o->group_size = (int)x;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--iters", NULL, &bad))) {
        if (number(c, "--iters", v, 1, UINT64_MAX / 4, &x))
            return -1;
        o->m.iters = x;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--target-ms", NULL, &bad))) {
        if (number(c, "--target-ms", v, 1, 60000, &x))
            return -1;
        o->m.target_seconds = (double)x / 1000;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--source", NULL, &bad))) {
        o->source = v;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--expect", NULL, &bad))) {
        o->expect = v;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--pmu", NULL, &bad))) {
        o->pmu = v;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--vendor-json", NULL, &bad))) {
        o->vendor_json = v;
        return 1;
    }
    if (!strcmp(argv[*i], "--no-auto-expect")) {
        o->no_auto_expect = true;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--label", NULL, &bad))) {
        o->label = v;
        return 1;
    }
    if ((v = cli_opt(argc, argv, i, "--out", NULL, &bad))) {
        o->out = v;
        return 1;
    }
    if (!strcmp(argv[*i], "--json")) {
        o->json = true;
        return 1;
    }
    if (bad) {
        cli_usage_error(c, "%s needs a value", argv[*i]);
        return -1;
    }
    return 0;
}

int measure_cli_engine(struct measure_cli *o, struct engine *e, struct event_spec **events, int *nevents)
{
    memset(e, 0, sizeof(*e));
    e->src = source_find(o->source);
    if (!e->src) {
        char names[256] = "";
        for (const struct source **s = source_list(); *s; s++)
            snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", names[0] ? ", " : "", (*s)->name);
        pm_error("unknown counter source '%s'; the sources are: %s", o->source, names);
        return -1;
    }
    e->mopts = o->m;
    e->user_iters = e->mopts.iters != 0;
    if (!e->mopts.iters && e->src->default_iters)   /* e.g. sim: a fixed count, not a timed one */
        e->mopts.iters = e->src->default_iters;
    e->group_size = o->group_size;
    /* A source that counts libpfm4 events has a PMU: its counters, its shipped rules. */
    bool pmu_events = e->src->libpfm_events;
    struct pfm_core core = {0};
    if (pmu_events || o->pmu) {
        if (o->pmu)
            note_other_model(o->pmu);
        if (o->pmu && !pfm_force(o->pmu))
            return -1;
        if (pfm_core_pmu(&core)) {
            e->pmu = core.name;
            e->ncounters = core.counters;
        }
    }
    if (o->vendor_json) {
        if (vendor_load(&o->vt, o->vendor_json)) {
            vendor_free(&o->vt);
            return -1;
        }
        e->vt = &o->vt;
        catalog_adopt(&o->cat, &o->vt, o->vendor_json);
        catalog_set_active(&o->cat);
    }
    /* libpfm4 does not know this model: the vendor table (--vendor-json, else the host's by CPUID)
     * names the events, the expectation file and the counters. */
    const struct catalog *cat = pmu_events && !e->pmu ? catalog_active(NULL, 0) : NULL;
    if (cat) {
        e->pmu = cat->name;
        e->ncounters = cat->counters;
        e->vt = &cat->vt;
    }
    if (o->group_auto) {
        if (!e->ncounters) {
            pm_error("--group-size auto: no libpfm4 core PMU and no vendor table to count counters of; give "
                     "--group-size N, --pmu NAME or --vendor-json PATH");
            measure_cli_tables_free(o);
            return -1;
        }
        /* libpfm4 counts counters with SMT off (skl 8, icx 16); the vendor's counter lists say what
         * one thread gets, so they win when given. */
        int vendor_max = 0;
        for (int k = 0; e->vt && k < e->vt->n; k++)
            for (int c = 31; c >= 0; c--)
                if (e->vt->ev[k].counters & (1u << c)) {
                    if (c + 1 > vendor_max)
                        vendor_max = c + 1;
                    break;
                }
        e->group_size = vendor_max && vendor_max < e->ncounters ? vendor_max : e->ncounters;
        if (e->group_size > 32)
            e->group_size = 32;
        o->group_size = e->group_size;
    }
    struct evlist l = {0};
    if (ruleset_builtin(&e->rules))
        goto fail;
    /* Later rules win: built-in, the shipped file of the PMU (or the source's own, which must
     * exist: a source without its rules checks nothing), then the user's own. */
    const char *stem = pmu_events || o->pmu ? e->pmu : e->src->expect_file;
    if (!o->no_auto_expect && stem && ruleset_load_named(&e->rules, stem, !pmu_events && !o->pmu, &o->auto_expect) < 0)
        goto fail;
    if (o->expect && ruleset_load(&e->rules, o->expect))
        goto fail;
    const char *list = measure_cli_events(o, e->src);
    if (!strcmp(list, "all") && !pmu_events && !o->pmu) {
        pm_error("--events all lists a libpfm4 PMU's events: use it with --source perf or name --pmu NAME");
        goto fail;
    }
    if (evlist_from_arg(&l, list, o->pmu) || engine_resolve_events(e->src, &l, events, nevents))
        goto fail;
    evlist_free(&l);
    return 0;
fail:
    evlist_free(&l);
    engine_free(e);
    measure_cli_tables_free(o);
    free(o->auto_expect);
    o->auto_expect = NULL;
    return -1;
}

void measure_cli_tables_free(struct measure_cli *o)
{
    catalog_set_active(NULL);
    catalog_free(&o->cat);
    vendor_free(&o->vt);
}
