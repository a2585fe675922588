#include "cmd/options.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/pfm.h"
#include "host/topo.h"
#include "runs/resume.h"
#include <math.h>
#include <linux/perf_event.h>
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
    o->cpu = -1;
    o->second_cpu = -1;
    o->source = "perf";
    o->events = NULL;   /* the source's default list, else engine_default_events */
}

const char *measure_cli_events(const struct measure_cli *o, const struct source *src)
{
    if (o->events)
        return o->events;
    return src && src->default_events ? src->default_events : engine_default_events;
}

int measure_cli_prepare(const struct measure_cli *o, const struct engine *eng, int argc, char **argv, int *status)
{
    (void)o;
    if (!eng->src->prepare_process)
        return SOURCE_CONTINUE;
    return eng->src->prepare_process(argc, argv, status);
}

int measure_cli_option(const struct command *c, struct measure_cli *o, int key, const char *v)
{
    unsigned long long x;
    int rc = 0;
    switch (key) {
    case MK_EVENTS:
        o->events = v;
        break;
    case MK_CPU:
        if (!(rc = cli_number(c, "--cpu", v, 0, 1u << 20, &x)) && !topo_cpu_valid((int)x)) {
            char list[256];
            topo_cpu_list(list, sizeof(list));
            rc = cli_usage_error(c, "--cpu %s is not a CPU this process may run on: its affinity mask (taskset, "
                                 "cgroup cpuset) allows %s", v, list);
        }
        if (!rc && o->second_cpu >= 0)
            rc = cli_usage_error(c, "--cpu and --cpus both name the measuring CPU: give one");
        if (!rc)
            o->cpu = (int)x;
        break;
    case MK_CPUS: {
        unsigned long long a, b;
        const char *comma = strchr(v, ',');
        char first[32];
        snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - v) : 0, v);
        if (!comma || cli_number(c, "--cpus", first, 0, 1u << 20, &a) || cli_number(c, "--cpus", comma + 1, 0, 1u << 20, &b))
            return comma ? 2 : cli_usage_error(c, "--cpus %s: give two CPUs, the measuring one and the other "
                                               "thread's, e.g. --cpus 0,1", v);
        if (a == b || !topo_cpu_valid((int)a) || !topo_cpu_valid((int)b)) {
            char list[256];
            topo_cpu_list(list, sizeof(list));
            return cli_usage_error(c, "--cpus %s: give two different CPUs of this process's affinity mask "
                                   "(taskset, cgroup cpuset), which allows %s", v, list);
        }
        if (o->cpu >= 0)
            return cli_usage_error(c, "--cpu and --cpus both name the measuring CPU: give one");
        o->cpu = (int)a;
        o->second_cpu = (int)b;
        break;
    }
    case MK_REPS:
        if (!(rc = cli_number(c, "-r", v, 1, MEASURE_MAX_REPS, &x)))
            o->m.repetitions = (int)x;
        break;
    case MK_GROUP_SIZE:
        o->group_auto = !strcmp(v, "auto");
        if (!o->group_auto && !(rc = cli_number(c, "--group-size", v, 1, 32, &x)))
            o->group_size = (int)x;
        break;
    case MK_ITERS:
        if (!(rc = cli_number(c, "--iters", v, 1, MEASURE_MAX_ITERS, &x)))
            o->m.iters = x;
        break;
    case MK_TARGET_MS:
        if (!(rc = cli_number(c, "--target-ms", v, 1, (unsigned long long)(MEASURE_MAX_LOOP_SECONDS * 1000), &x)))
            o->m.target_seconds = (double)x / 1000;
        break;
    case MK_SOURCE:
        o->source = v;
        break;
    case MK_EXPECT:
        o->expect = v;
        break;
    case MK_PMU:
        o->pmu = v;
        break;
    case MK_VENDOR_JSON:
        o->vendor_json = v;
        break;
    case MK_NO_AUTO_EXPECT:
        o->no_auto_expect = true;
        break;
    case MK_LABEL:
        o->label = v;
        break;
    case MK_OUT:
        o->out = v;
        break;
    case MK_JSON:
        o->json = true;
        break;
    default:
        return -1;
    }
    return rc;
}

int measure_cli_engine(struct measure_cli *o, struct engine *eng, struct event_spec **events, int *nevents)
{
    memset(eng, 0, sizeof(*eng));
    eng->src = source_select(o->source);
    if (!eng->src)
        return -1;
    eng->mopts = o->m;
    eng->cpu = o->cpu;   /* -1: chosen when the first case is measured (engine_case), or by the command */
    eng->pair_given = o->second_cpu >= 0;
    eng->second_cpu = o->second_cpu;
    o->cpu_busy = NAN;
    eng->user_iters = eng->mopts.iters != 0;
    if (!eng->mopts.iters && eng->src->default_iters)   /* e.g. sim: a fixed count, not a timed one */
        eng->mopts.iters = eng->src->default_iters;
    eng->group_size = o->group_size;
    /* A source that counts libpfm4 events has a PMU: its counters, its shipped rules. */
    bool pmu_events = eng->src->libpfm_events;
    struct pfm_core core = {0};
    if (pmu_events || o->pmu) {
        if (o->pmu)
            catalog_note_other_model(o->pmu);
        if (o->pmu && !pfm_force(o->pmu))
            return -1;
        if (pfm_core_pmu(&core)) {
            eng->pmu = core.name;
            eng->ncounters = core.counters;
        }
    }
    if (o->vendor_json) {
        char *path = catalog_path_of(o->vendor_json);   /* a path, or a table name (amdzen5) */
        if (!path || vendor_load(&o->vt, path)) {
            free(path);
            vendor_free(&o->vt);
            return -1;
        }
        eng->vt = &o->vt;
        catalog_adopt(&o->cat, &o->vt, path);
        free(path);
        catalog_set_active(&o->cat);
    }
    /* libpfm4 does not know this model: the vendor table (--vendor-json, else the host's by CPUID)
     * names the events, the rule file and the counters. */
    const struct catalog *cat = pmu_events && !eng->pmu ? catalog_active(NULL, 0) : NULL;
    if (cat) {
        eng->pmu = cat->name;
        eng->ncounters = cat->counters;
        eng->vt = &cat->vt;
    }
    if (o->group_auto) {
        if (!eng->ncounters) {
            pm_error("--group-size auto: no libpfm4 core PMU and no vendor table to count counters of; give "
                     "--group-size N, --pmu NAME or --vendor-json PATH");
            measure_cli_tables_free(o);
            return -1;
        }
        /* libpfm4 counts counters with SMT off (skl 8, icx 16); the vendor's counter lists say what
         * one thread gets, so they win when given. */
        int vendor_max = 0;
        for (int k = 0; eng->vt && k < eng->vt->n; k++)
            for (int c = 31; c >= 0; c--)
                if (eng->vt->ev[k].counters & (1u << c)) {
                    if (c + 1 > vendor_max)
                        vendor_max = c + 1;
                    break;
                }
        eng->group_size = vendor_max && vendor_max < eng->ncounters ? vendor_max : eng->ncounters;
        if (eng->group_size > 32)
            eng->group_size = 32;
        o->group_size = eng->group_size;
    }
    struct evlist l = {0};
    if (ruleset_builtin(&eng->rules))
        goto fail;
    /* Later rules win: built-in, the shipped file of the PMU (or the source's own, which must
     * exist: a source without its rules checks nothing), then the user's own. */
    const char *stem = pmu_events || o->pmu ? eng->pmu : eng->src->expect_file;
    if (!o->no_auto_expect && stem && ruleset_load_named(&eng->rules, stem, !pmu_events && !o->pmu, &o->auto_expect) < 0)
        goto fail;
    int user_rules = eng->rules.n;
    if (o->expect_text ? ruleset_parse(&eng->rules, o->expect_text, o->expect_origin)
                       : o->expect && ruleset_load(&eng->rules, o->expect))
        goto fail;
    const char *list = measure_cli_events(o, eng->src);
    if (!strcmp(list, "all") && !pmu_events && !o->pmu) {
        pm_error("--events all lists a libpfm4 PMU's events: use it with --source perf or name --pmu NAME");
        goto fail;
    }
    if ((o->events_text ? evlist_parse(&l, o->events_text, o->events_origin)
                        : o->resumed ? evlist_from_list(&l, list, o->pmu) : evlist_from_arg(&l, list, o->pmu)) ||
        engine_resolve_events(eng->src, &l, events, nevents))
        goto fail;
    if (ruleset_check_events(&eng->rules, user_rules, eng->src, *events, *nevents)) {
        engine_free_events(*events, *nevents);
        *events = NULL;
        *nevents = 0;
        goto fail;
    }
    evlist_free(&l);
    return 0;
fail:
    evlist_free(&l);
    engine_free(eng);
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
    free(o->events_text), free(o->expect_text), free(o->events_origin), free(o->expect_origin);
    o->events_text = o->expect_text = o->events_origin = o->expect_origin = NULL;
}

int measure_cli_drop_uncountable(const struct engine *eng, struct event_spec *events, int *n, char *why, size_t wn)
{
    if (!eng->src->hw_probe || perf_hw_usable(why, wn))
        return 0;
    int kept = 0, dropped = 0;
    for (int k = 0; k < *n; k++) {
        /* Software events count anyway; an uncore unit is not the core PMU the probe asks about:
         * each says at open whether its own unit is here (events/uncore.h). */
        if (events[k].type == PERF_TYPE_SOFTWARE || events[k].uncore[0]) {
            events[kept++] = events[k];
            continue;
        }
        event_spec_clear(&events[k]);
        dropped++;
    }
    *n = kept;
    return dropped;
}

#define RUN_EVENTS_COPY "events.list"
#define RUN_EXPECT_COPY "expect.txt"

void measure_cli_manifest(const struct measure_cli *o, const struct source *src, struct json *j)
{
    json_string(j, "source", o->source);
    /* The source's slack as this build applied it, so a later compare or replay uses the same. */
    json_number(j, "source_exact_floor", src->exact_floor);
    json_number(j, "source_slack_per_loop", src->slack_per_loop);
    json_int(j, "group_size", o->group_size);
    json_int(j, "repetitions", o->m.repetitions);
    json_string(j, "events", measure_cli_events(o, src));
    json_string(j, "pmu_option", o->pmu);   /* --pmu; "pmu" is the host's PMU facts */
    json_string(j, "rule_file", o->auto_expect);
    json_string(j, "expect", o->expect);
    json_string(j, "vendor_json", o->vendor_json);
    if (src->manifest)
        src->manifest(j);
}

int measure_cli_keep_inputs(const struct measure_cli *o, const char *dir)
{
    return (o->events && evlist_arg_is_file(o->events) &&
            resume_keep_input(dir, o->events, "event list", RUN_EVENTS_COPY)) ||
           (o->expect && resume_keep_input(dir, o->expect, "rule file", RUN_EXPECT_COPY)) ? -1 : 0;
}

int measure_cli_resume_inputs(struct measure_cli *o, const struct resume *rs)
{
    o->resumed = true;
    if (o->vendor_json) {
        pm_error("--resume %s: its command names --vendor-json %s, a table outside the folder, which a resume does "
                 "not open; start a new run", rs->run, o->vendor_json);
        return 2;
    }
    if (resume_read_input(rs, RUN_EVENTS_COPY, "-e FILE", false, &o->events_text, &o->events_origin) ||
        (o->expect && resume_read_input(rs, RUN_EXPECT_COPY, "--expect FILE", true, &o->expect_text,
                                        &o->expect_origin)))
        return 2;
    return 0;
}
