/* Reporting a calibration: each penalty as penalties.json's object, as a TAP verdict, and the
 * table of figures beside their references (penalties/calibration.c runs them). */
#include "base/stats.h"
#include "penalties/penalty_fit.h"
#include "host/uarch.h"
#include "penalties/occurrence_sim.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void penalty_json(struct json *j, const struct penalty *p, const char *host_pmu)
{
    const struct recipe *rc = p->rc;
    json_object_begin(j, NULL);
    json_string(j, "name", rc->name);
    json_string(j, "brief", rc->brief);
    json_string(j, "status", penalty_status_name(p->status));
    json_string(j, "reason", p->reason[0] ? p->reason : NULL);
    json_string(j, "domain", domain_name(rc->domain));
    json_string(j, "spread_class", spread_class_name(rc->spread));
    json_number(j, "spread_allowed", spread_allowed(rc));
    json_number(j, "cycles", p->cycles);
    json_number(j, "cycles_lo", p->cycles_lo);
    json_number(j, "cycles_hi", p->cycles_hi);
    json_number(j, "ns", p->ns);
    json_number(j, "ns_lo", p->ns_lo);
    json_number(j, "ns_hi", p->ns_hi);
    json_number(j, "rel_mad", p->issue && p->issue->reps ? p->f.rel_mad : NAN);
    json_int(j, "repetitions", p->issue ? p->issue->reps : 0);
    json_object_begin(j, "occurrence");
    json_string(j, "quantity", rc->occurrence);
    json_string(j, "source", p->occ.from_event ? "event" : "model");
    json_string(j, "pmu_event", host_pmu ? recipe_event(rc, host_pmu) : NULL);
    json_string(j, "pmu_note", p->occ.reason[0] ? p->occ.reason : NULL);
    char check[512];
    /* Occurrences a model gives: can 'calibrate --source sim' show them (penalties/occurrence_sim.c)? */
    json_string(j, "model_check", p->occ.from_event ? NULL : occurrence_sim_statement(rc->occurrence, check,
                                                                                       sizeof(check)));
    json_number(j, "issue", p->occ_issue);
    json_number(j, "control", p->control ? p->occ_control : 0);
    json_object_end(j);
    const struct case_result *cs[2] = {p->issue, p->control};
    const char *names[2] = {"issue", "control"};
    for (int i = 0; i < 2; i++) {
        if (!cs[i]) {
            if (i == 1)
                json_string(j, "control", NULL);
            continue;
        }
        json_object_begin(j, names[i]);
        json_string(j, "case", cs[i]->text);
        json_string(j, "detail", cs[i]->detail);
        struct stats sc = stats_of(cs[i]->cycles, (size_t)cs[i]->reps), sn = stats_of(cs[i]->ns, (size_t)cs[i]->reps);
        json_number(j, "cycles_per_iter", sc.median);
        json_number(j, "cycles_mad", sc.mad);
        json_number(j, "ns_per_iter", sn.median);
        json_object_end(j);
    }
    /* The occurrence event: libpfm4 names by libpfm4 PMU, perf's names by uarch. */
    int nu;
    const struct uarch *u = uarch_all(&nu);
    json_object_begin(j, "events");
    for (int i = 0; i < nu; i++) {
        const struct uarch_event *e = uarch_event(&u[i], rc->name);
        for (int c = 0; e && e->pfm && c < u[i].ncpus; c++)
            if (u[i].cpus[c].pfm)
                json_string(j, u[i].cpus[c].pfm, e->pfm);
    }
    json_object_end(j);
    json_object_begin(j, "perf_events");
    for (int i = 0; i < nu; i++) {
        const struct uarch_event *e = uarch_event(&u[i], rc->name);
        if (e)
            json_string(j, u[i].name, e->perf);
    }
    json_object_end(j);
    json_string(j, "operands", rc->operands);
    json_int(j, "passes", p->passes);
    json_array_begin(j, "pass_values");
    for (int r = 0; r < p->passes; r++)
        json_number(j, NULL, p->pass_values[r]);
    json_array_end(j);
    json_array_begin(j, "pass_shared");   /* left out of the figure: the core was not its own */
    for (int r = 0; r < p->passes; r++)
        json_bool(j, NULL, p->pass_shared[r]);
    json_array_end(j);
    json_int(j, "passes_shared", p->passes_shared);
    if (p->passes > 1) {
        json_number(j, "pass_spread", p->pass_spread);
        json_int(j, "passes_agreeing", p->passes_agreeing);
    }
    json_string(j, "plateau", p->plateau[0] ? p->plateau : NULL);
    if (p->ref) {
        json_object_begin(j, "reference");
        json_number(j, "lo", p->ref->lo);
        json_number(j, "hi", p->ref->hi);
        json_string(j, "note", p->ref->note);
        json_string(j, "source", p->ref->source);
        json_bool(j, "whole", p->ref->whole);               /* set against the issue case alone */
        json_bool(j, "indicative", p->ref->indicative);     /* shown, never a check */
        json_number(j, "deviation", p->deviation);
        json_bool(j, "large_deviation", reference_deviation_large(p->deviation));
        json_object_end(j);
    }
    json_string(j, "group", rc->group);
    json_object_end(j);
}

/* One TAP line a penalty: ok, not ok (failed a check, or an error), SKIP, TODO for unstable. */
void penalty_verdict(struct tap *tap, const struct penalty *p)
{
    char desc[640];
    const char *unit = p->rc->domain == DOMAIN_MEMORY ? "ns" : "cycles";
    snprintf(desc, sizeof(desc), "penalty %s: %.2f %s", p->rc->name, p->f.value, unit);
    if (p->status == PENALTY_OK)
        tap_point(tap, VERDICT_OK, desc, NULL);
    else if (p->status == PENALTY_UNSTABLE)
        tap_point(tap, VERDICT_TODO, desc, p->reason);
    else if (p->status == PENALTY_SKIP)
        tap_point(tap, VERDICT_SKIP, p->rc->name, p->reason);
    else {
        snprintf(desc, sizeof(desc), "penalty %s: %s", p->rc->name, p->reason);
        tap_point(tap, VERDICT_NOT_OK, desc, NULL);
    }
}

/* Where a measured penalty's occurrences came from: the PMU event, or the model, checkable or
 * not under sim (penalties/occurrence_sim.c). */
static void occurrence_kind(const struct penalty *p, char *buf, size_t n)
{
    char st[512];
    if (p->occ.from_event)
        snprintf(buf, n, "counted by the recipe's PMU event");
    else if (occurrence_sim_checkable(p->rc->occurrence))
        snprintf(buf, n, "model, checked under sim by 'pmucal calibrate --source sim'");
    else
        snprintf(buf, n, "model, %s", occurrence_sim_statement(p->rc->occurrence, st, sizeof(st)));
}

/* One line per kind of occurrence source, naming its penalties. */
static void print_occurrence_sources(const struct penalty *ps, int np)
{
    bool done[np > 0 ? np : 1];
    memset(done, 0, sizeof(done));
    for (int i = 0; i < np; i++) {
        if (done[i] || ps[i].status == PENALTY_SKIP || ps[i].status == PENALTY_ERROR)
            continue;
        char kind[600], other[600], names[2048] = "";
        occurrence_kind(&ps[i], kind, sizeof(kind));
        for (int k = i; k < np; k++) {
            if (done[k] || ps[k].status == PENALTY_SKIP || ps[k].status == PENALTY_ERROR)
                continue;
            occurrence_kind(&ps[k], other, sizeof(other));
            if (strcmp(kind, other))
                continue;
            done[k] = true;
            snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", names[0] ? ", " : "",
                     ps[k].rc->name);
        }
        printf("#   occurrences of %s: %s\n", names, kind);
    }
}

/* The table on stdout as TAP comments: each figure beside its reference and the deviation; the
 * reasons and the large deviations as notes below it. */
void print_table(const struct cal *cal, const struct penalty *ps, int np, double secs)
{
    printf("# %-20s %-6s %-8s %9s %21s %9s  %-13s %s\n", "penalty", "domain", "status", "cycles", "95% interval",
           "ns", "reference", "deviation");
    for (int i = 0; i < np; i++) {
        const struct penalty *p = &ps[i];
        char ref[32] = "-", dev[24] = "";
        if (p->ref) {
            if (p->ref->lo == p->ref->hi)
                snprintf(ref, sizeof(ref), "%g%s", p->ref->lo, p->ref->whole ? " whole" : "");
            else
                snprintf(ref, sizeof(ref), "%g-%g%s", p->ref->lo, p->ref->hi, p->ref->whole ? " whole" : "");
            if (!isnan(p->deviation))
                snprintf(dev, sizeof(dev), "%+.0f%%%s", 100 * p->deviation,
                         reference_deviation_large(p->deviation) ? " NOTE" : "");
        }
        if (isnan(p->cycles))
            printf("# %-20s %-6s %-8s %9s %21s %9s  %-13s\n", p->rc->name, domain_name(p->rc->domain), penalty_status_name(p->status), "-",
                   "", "", ref);
        else
            printf("# %-20s %-6s %-8s %9.2f   [%8.2f, %8.2f] %9.2f  %-13s %s\n", p->rc->name,
                   domain_name(p->rc->domain), penalty_status_name(p->status), p->cycles, p->cycles_lo, p->cycles_hi, p->ns, ref, dev);
    }
    for (int i = 0; i < np; i++) {
        const struct penalty *p = &ps[i];
        if (p->reason[0])
            printf("#   %s (%s): %s\n", p->rc->name, penalty_status_name(p->status), p->reason);
        double v, lo, hi;
        if (p->ref && reference_deviation_large(p->deviation) && reference_value(p->ref, p, &v, &lo, &hi))
            printf("#   NOTE %s: %s%.2f cycles is %+.0f%% off the published %s for %s (%s%s%s%s)\n", p->rc->name,
                   p->ref->whole ? "the issue case, whole: " : "", v, 100 * p->deviation,
                   p->ref->lo == p->ref->hi ? "figure" : "range", p->ref->uarch, p->ref->source, p->ref->note ? "; " : "",
                   p->ref->note ? p->ref->note : "", p->ref->indicative ? "; indicative: not a check" : "");
        if (p->ref && reference_case_differs(p->ref, p))
            printf("#   NOTE %s: the run measured '%s', not today's issue case '%s': the published whole figure "
                   "describes that one, so it is not compared\n", p->rc->name, p->issue->text, p->rc->issue);
    }
    print_occurrence_sources(ps, np);
    printf("# references: %s; core clock %.3f GHz (median of the clocks measured around each case); %.1f s; "
           "results in %s\n", cal->uarch ? cal->uarch : "none: no uarch file recognises this CPU", run_ghz(cal), secs, cal_folder(cal));
}
