/* Every event of a PMU or vendor table listed (events/event_listing.h). */
#include "events/event_listing.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/event_probe.h"
#include "events/perfsyntax.h"
#include "events/pfm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One event's answer from the kernel: a line NAME, verdict, encoding, source, meaning, or a JSON
 * object. err_text: why it was not even asked (an encoding the PMU cannot hold), else NULL. */
static void print_probe(struct event_listing *a, const char *name, struct event_spec *spec, const char *source,
                        const char *err_text, const char *desc)
{
    bool unfiltered = false;
    int err = err_text ? 0 : event_probe_open(spec, &unfiltered);
    char why[1100] = "";
    const char *verdict = err_text ? "unencodable" : event_probe_verdict(err, unfiltered);
    if (err_text)
        snprintf(why, sizeof(why), "%s", err_text);
    else if (unfiltered)
        snprintf(why, sizeof(why), "counting user space only is refused (EINVAL); it opens counting every privilege "
                 "level: the PMU cannot filter by privilege (riscv-pmu-sbi without Sscofpmf)");
    else if (err)
        perf_open_reason(err, spec->programmable, why, sizeof(why));
    if (!err && !err_text)
        a->opened++;
    else if (unfiltered)
        a->unfiltered++;
    else
        a->refused++;
    char *perf = err_text ? xstrdup("-") : perf_syntax_of(spec);
    if (a->json) {
        json_object_begin(a->j, NULL);
        json_string(a->j, "name", name);
        json_string(a->j, "encoding", perf);
        json_string(a->j, "source", source);
        json_string(a->j, "verdict", verdict);
        json_bool(a->j, "opens", !err_text && (!err || unfiltered));
        json_string(a->j, "errno", err && !unfiltered ? strerrorname_np(err) : NULL);
        json_string(a->j, "why", why[0] ? why : NULL);
        json_string(a->j, "description", desc);
        json_object_end(a->j);
    } else
        printf("%s\t%s\t%s\t%s\t%s\n", name, verdict, perf, source, why);
    free(perf);
}

static int probe_generic(const char *name, void *arg)
{
    struct event_spec spec = {0};
    if (perf_generic_event(name, &spec))
        print_probe(arg, name, &spec, "generic", NULL, "");
    free(spec.canonical);
    return 0;
}

static int probe_pfm(const char *fq, const char *desc, struct event_listing *a)
{
    struct event_spec spec = {0};
    char err[512];
    int rc = pfm_encode(fq, &spec, err, sizeof(err));
    print_probe(a, fq, &spec, "libpfm4", rc ? err : NULL, desc);
    free(spec.canonical);
    return 0;
}

static void probe_header(struct event_listing *a, const struct cpu_pmu *pmu)
{
    if (a->json)
        return;
    printf("# opened: each event on this thread, counting user space (pmucal's default), then closed; columns: name, "
           "verdict (opens, opens-unfiltered, unencodable, or the errno), perf encoding, source, what a refusal "
           "means\n");
    if (pmu)
        printf("# cpu PMU: %s\n", pmu->why);
}

static void probe_footer(struct event_listing *a)
{
    if (!a->json)
        printf("# %d open, %d open only unfiltered, %d refused\n", a->opened, a->unfiltered, a->refused);
}

static int print_one(const char *fq, const char *event, const char *umask, const char *desc, void *arg)
{
    struct event_listing *a = arg;
    if (a->open)
        return probe_pfm(fq, desc, a);
    if (a->json) {
        json_object_begin(a->j, NULL);
        json_string(a->j, "name", fq);
        json_string(a->j, "event", event);
        json_string(a->j, "umask", umask);
        json_string(a->j, "description", desc);
        json_object_end(a->j);
    } else if (a->describe)
        printf("%s\t%s\n", fq, desc);
    else
        printf("%s\n", fq);
    return 0;
}

static void print_catalog(const struct catalog *c, struct event_listing *a)
{
    if (!a->json)
        printf("# source: %s (%s); %d programmable counters (%s)\n", c->path, c->how, c->counters, c->counters_how);
    if (!a->json && catalog_libpfm4_note(c->name))
        printf("# libpfm4: %s\n", catalog_libpfm4_note(c->name));
    struct cpu_pmu pmu;
    if (a->open) {
        cpu_pmu_read(&pmu);
        probe_header(a, c->vt.riscv ? &pmu : NULL);
        perf_hardware_each(probe_generic, a);
    }
    /* The core events, then the uncore units' (counted CPU-wide for the socket, events/uncore.h). */
    for (int i = 0; i < c->vt.n + c->vt.nuncore; i++) {
        const struct vendor_event *v = i < c->vt.n ? &c->vt.ev[i] : &c->vt.uncore[i - c->vt.n];
        if (a->open) {
            struct event_spec spec = {0};
            char why[1024] = "", *source = xasprintf("%s/%s", c->name, strrchr(v->file, '/') ? strrchr(v->file, '/') + 1 : v->file);
            vendor_event_spec(v, &spec);
            bool ok = v->format != VENDOR_RISCV_PMU_EVENTS || cpu_pmu_config(&pmu, v, &spec.config, why, sizeof(why));
            if (v->format == VENDOR_RISCV_PMU_EVENTS)
                spec.type = pmu.type;
            if (v->unit)   /* an uncore unit opens CPU-wide on its own instances: not asked here */
                snprintf(why, sizeof(why), "an uncore unit's event (%s): counted CPU-wide by 'pmucal run', not "
                         "opened on a thread", v->unit), ok = false;
            print_probe(a, v->name, &spec, source, ok ? NULL : why, v->desc);
            free(source);
            continue;
        }
        if (i == c->vt.n && c->vt.nuncore && !a->json)
            printf("# uncore: %d events of the memory controllers, counted CPU-wide for the measuring CPU's socket "
                   "(every instance summed)\n", c->vt.nuncore);
        const char *file = strrchr(v->file, '/') ? strrchr(v->file, '/') + 1 : v->file;
        char *perf = NULL;
        if (a->describe || a->json) {
            struct event_spec spec = {0};
            vendor_event_spec(v, &spec);
            perf = perf_syntax_of(&spec);
        }
        if (a->json) {
            char *source = xasprintf("%s/%s", c->name, file);
            json_object_begin(a->j, NULL);
            json_string(a->j, "name", v->name);
            json_string(a->j, "encoding", perf);
            json_string(a->j, "source", source);
            json_bool(a->j, "deprecated", v->deprecated);
            if (v->unit)
                json_string(a->j, "uncore", v->unit);
            json_string(a->j, "description", v->desc);
            json_object_end(a->j);
            free(source);
        } else if (a->describe) {
            printf("%s\t%s\t%s/%s%s\t%s\n", v->name, perf, c->name, file, v->deprecated ? " (deprecated)" : "",
                   v->desc);
        } else {
            printf("%-50s # %s/%s%s%s%s\n", v->name, c->name, file, v->deprecated ? " (deprecated)" : "",
                   v->unit ? ", uncore " : "", v->unit ? v->unit : "");
        }
        free(perf);
    }
    if (a->open)
        probe_footer(a);
}

int events_list(const char *pmu, const char *vendor_json, struct event_listing *a)
{
    struct pfm_core core;
    if (!vendor_json && (pmu ? pfm_pmu_by_name(pmu, &core) : pfm_core_pmu(&core))) {
        if (a->open) {
            probe_header(a, NULL);
            perf_hardware_each(probe_generic, a);
        }
        pfm_each_event(&core, print_one, a);
        if (a->open)
            probe_footer(a);
        return 0;
    }
    if (pmu) {
        pm_error("--pmu %s: %s", pmu, pfm_no_pmu_why(pmu));
        return 2;
    }
    struct catalog own = {0};
    char why[512] = "";
    const struct catalog *c = NULL;
    if (vendor_json) {
        if (catalog_load(&own, vendor_json))
            return 2;
        c = &own;
    } else if (!(c = catalog_active(why, sizeof(why)))) {
        if (!why[0])
            return 2;   /* a malformed table: its message is out */
        pm_error("libpfm4 detected no core PMU for this CPU, and no vendor table was found: %s; name one with "
                 "--pmu NAME or --vendor-json PATH", why);
        return 2;
    }
    print_catalog(c, a);
    catalog_free(&own);
    return 0;
}
