/* Every event of a PMU or vendor table listed (events/event_listing.h). */
#include "events/event_listing.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/perfsyntax.h"
#include "events/pfm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int print_one(const char *fq, const char *event, const char *umask, const char *desc, void *arg)
{
    struct event_listing *a = arg;
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
    /* The core events, then the uncore units' (counted CPU-wide for the socket, events/uncore.h). */
    for (int i = 0; i < c->vt.n + c->vt.nuncore; i++) {
        const struct vendor_event *v = i < c->vt.n ? &c->vt.ev[i] : &c->vt.uncore[i - c->vt.n];
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
}

int events_list(const char *pmu, const char *vendor_json, struct event_listing *a)
{
    struct pfm_core core;
    if (!vendor_json && (pmu ? pfm_pmu_by_name(pmu, &core) : pfm_core_pmu(&core))) {
        pfm_each_event(&core, print_one, a);
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
