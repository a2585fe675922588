#include "options.h"
#include "util.h"
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

int measure_cli_engine(const struct measure_cli *o, struct engine *e, struct event_spec **events, int *nevents)
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
    if (!e->mopts.iters && e->src->default_iters)   /* e.g. sim: a fixed count, not a timed one */
        e->mopts.iters = e->src->default_iters;
    e->group_size = o->group_size;
    /* Later rules win: built-in, then the source's own file, then --expect. */
    if (ruleset_builtin(&e->rules) || (e->src->expect_file && ruleset_load_named(&e->rules, e->src->expect_file)) ||
        (o->expect && ruleset_load(&e->rules, o->expect))) {
        ruleset_free(&e->rules);
        return -1;
    }
    if (engine_resolve_events(e->src, measure_cli_events(o, e->src), events, nevents)) {
        ruleset_free(&e->rules);
        return -1;
    }
    return 0;
}
