/* pmucal calibrate: every recipe measured, penalties fitted with their spread, the latency curve,
 * the closure check; penalties.json, the tables, curve.csv and curve.svg in a results folder. */
#include "../validate/host.h"
#include "../validate/pfm.h"
#include "cli.h"
#include "clock.h"
#include "curve.h"
#include "emit.h"
#include "fit.h"
#include "recipes.h"
#include "results.h"
#include "stats.h"
#include "tap.h"
#include "topo.h"
#include "util.h"
#include "version.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int calibrate_main(int argc, char **argv);

enum { K_LIST = CLI_LONG, K_JSON, K_TARGET_MS, K_QUICK, K_CURVE, K_NO_CURVE, K_RECIPE, K_PPO, K_CPU, K_PREFIX,
       K_LABEL, K_OUT };

static const struct cli_option calibrate_options[] = {
    {"list", K_LIST, NULL, "print the recipes (issue case, control case, occurrence) and exit"},
    {"json", K_JSON, NULL, "with --list: one JSON array of recipes"},
    {"repetitions", 'r', "N", "repetitions per case, 3..101 (default 7)"},
    {"target-ms", K_TARGET_MS, "MS", "length of one measured run (default 5, at most 500)"},
    {"quick", K_QUICK, NULL, "3 repetitions, 2 ms runs, 2 curve points per octave (for tests)"},
    {"curve", K_CURVE, NULL, "only the latency curve (no recipes, no closure)"},
    {"no-curve", K_NO_CURVE, NULL, "recipes and closure only"},
    {"recipe", K_RECIPE, "NAME", "only this recipe (may be repeated; the closure needs l1_hit, l2_hit, l3_hit)"},
    {"points-per-octave", K_PPO, "N", "curve density (default 4)"},
    {"cpu", K_CPU, "N", "CPU to measure on (default: the one most idle over 150 ms at the start)"},
    {"prefix", K_PREFIX, "NAME", "macro prefix of the C header (default PMUCAL)"},
    {"label", K_LABEL, "NAME", "results folder label (default calibrate)"},
    {"out", K_OUT, "DIR", "parent folder of the results folder (default results, or $PMUCAL_RESULTS)"},
    CLI_END,
};

static const struct command calibrate_command = {
    .name = "calibrate",
    .fn = calibrate_main,
    .summary = "measure cycle penalties (latencies, TLB, branches, stores, divides, assists) and write tables",
    .synopsis = "[options]",
    .usage = "Runs every penalty recipe (an issue case against its control case, or a case whose whole cost\n"
             "per occurrence is the figure), one progress line each on stderr; then the load-latency curve\n"
             "and the closure check. A penalty is (cycles per iteration of the issue case - of the control)\n"
             "/ (occurrences in the issue case - in the control). Occurrences come from the kernels' models;\n"
             "on a host whose PMU counts, the recipe's event for that PMU is counted on both cases and its\n"
             "counts are used when they agree with the model within 10% (penalties.json says which). Each\n"
             "case is measured R times; each repetition is converted to core cycles with the clock measured\n"
             "right around it. The figure is the difference of medians; its 95% interval comes from a\n"
             "bootstrap over the repetitions; an interval wider than +-10% (and +-0.25 cycles) marks the\n"
             "penalty unstable (so does a repetition another task interrupted in every attempt): it\n"
             "stays in penalties.json and the CSV but is not a constant in the C header nor a perf\n"
             "metric. Memory-domain penalties (DRAM) are kept in ns and in cycles at the measured clock\n"
             "('pmucal emit --core-ghz F' rescales them). A recipe whose kernel is not built here is\n"
             "reported as skipped, with the reason.\n\n"
             "Writes results/<date>-<host>-calibrate/: manifest.json, measurements.ndjson (one record per\n"
             "case), penalties.json (the source of truth), tables/penalties.h, tables/metrics.json (perf\n"
             "pmu-events metrics for the host PMU), tables/penalties.csv, curve.csv, curve.svg (gnuplot),\n"
             "validate.tap (the closure verdict).\n"
             "Exit status: 0, or 1 when the closure check fails or a case fails to measure; 2 on bad input;\n"
             "130 when interrupted.\n",
    .options = calibrate_options,
    .examples = "  pmucal calibrate\n"
                "  pmucal calibrate --recipe l2_hit --recipe dram --no-curve\n"
                "  pmucal calibrate --list --json | jq -r '.[].name'\n"
                "  pmucal emit --format c --core-ghz 2.0 results/2025-01-01-host-calibrate\n",
};
PMUCAL_COMMAND(calibrate_command)

struct cal {
    struct cal_opts o;
    const char *host_pmu;         /* libpfm4's core PMU: which recipe event counts occurrences */
    bool hw;                      /* hardware events open here */
    char hw_why[256];
    struct run_dir dir;
    struct case_result **cases;   /* each allocated once: penalties keep pointers to them */
    int ncases;
    bool interrupted;
};

/* Each case text is measured once, however many recipes name it. */
static struct case_result *measured(struct cal *k, const char *text)
{
    for (int i = 0; i < k->ncases; i++)
        if (!strcmp(k->cases[i]->text, text))
            return k->cases[i];
    k->cases = xrealloc(k->cases, sizeof(*k->cases) * (size_t)(k->ncases + 1));
    struct case_result *r = k->cases[k->ncases++] = xmalloc(sizeof(*r));
    int rc = cal_measure(text, &k->o, NULL, r);
    if (rc == CAL_INTERRUPTED)
        k->interrupted = true;
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    json_string(&j, "case", text);
    json_string(&j, "label", r->label);
    json_string(&j, "detail", r->detail);
    json_string(&j, "status", rc == CAL_OK ? "ok" : rc == CAL_SKIP ? "skip" : "error");
    json_string(&j, "reason", r->reason[0] ? r->reason : NULL);
    json_uint(&j, "iters", r->iters);
    json_int(&j, "disturbed_repetitions", r->disturbed);
    json_array_begin(&j, "cycles_per_iter");
    for (int i = 0; i < r->reps; i++)
        json_number(&j, NULL, r->cycles[i]);
    json_array_end(&j);
    json_array_begin(&j, "ns_per_iter");
    for (int i = 0; i < r->reps; i++)
        json_number(&j, NULL, r->ns[i]);
    json_array_end(&j);
    json_array_begin(&j, "core_ghz");
    for (int i = 0; i < r->reps; i++)
        json_number(&j, NULL, r->ghz[i]);
    json_array_end(&j);
    json_object_begin(&j, "model");
    for (int i = 0; i < Q_COUNT; i++)
        if (quantity_stated(&r->q, (enum quantity_id)i))
            json_number(&j, quantity_name((enum quantity_id)i), r->q.v[i]);
    json_object_end(&j);
    json_object_end(&j);
    json_write_line(&j, k->dir.measurements);
    json_free(&j);
    return r;
}

struct penalty {
    const struct recipe *rc;
    const char *status;          /* ok, unstable, skip, error */
    char reason[400];
    struct fit f;                /* in the domain's unit: cycles (core) or ns (memory) */
    double cycles, cycles_lo, cycles_hi, ns, ns_lo, ns_hi;
    double occ_issue, occ_control;
    struct occurrences occ;       /* model or validated event, and why */
    const struct case_result *issue, *control;
};

/* The run's core clock: the median of every repetition's local clock. */
static double run_ghz(const struct cal *k)
{
    int n = 0;
    for (int i = 0; i < k->ncases; i++)
        n += k->cases[i]->reps;
    if (!n)
        return clock_get()->core_hz / 1e9;
    double *g = xmalloc(sizeof(double) * (size_t)n);
    n = 0;
    for (int i = 0; i < k->ncases; i++)
        for (int r = 0; r < k->cases[i]->reps; r++)
            g[n++] = k->cases[i]->ghz[r];
    double m = stats_median(g, (size_t)n);
    free(g);
    return m;
}

/* One repetition of a case with the recipe's PMU event beside it: the occurrences it counts. */
static void count_event(const struct cal *k, const char *text, const char *event, struct event_count *out)
{
    struct cal_opts once = k->o;
    once.repetitions = 1;
    struct case_result r;
    cal_measure(text, &once, event, &r);
    *out = r.event;
    if (r.status != CAL_OK && !out->why[0])
        snprintf(out->why, sizeof(out->why), "%.200s", r.reason);
    case_result_free(&r);
}

static void fit_recipe(struct cal *k, const struct recipe *rc, struct penalty *p, unsigned seed)
{
    memset(p, 0, sizeof(*p));
    p->rc = rc;
    p->status = "error";
    p->cycles = p->cycles_lo = p->cycles_hi = p->ns = p->ns_lo = p->ns_hi = NAN;
    p->issue = measured(k, rc->issue);
    p->control = rc->control && !k->interrupted ? measured(k, rc->control) : NULL;
    const struct case_result *bad = p->issue->status != CAL_OK ? p->issue
                                  : p->control && p->control->status != CAL_OK ? p->control : NULL;
    if (bad) {
        p->status = bad->status == CAL_SKIP ? "skip" : "error";
        snprintf(p->reason, sizeof(p->reason), "%s", bad->reason);
        return;
    }
    int q = quantity_lookup(rc->occurrence);
    if (q < 0) {
        p->status = "skip";
        snprintf(p->reason, sizeof(p->reason), "quantity %s is not in this build's vocabulary", rc->occurrence);
        return;
    }
    /* On a PMU host the recipe's event counts the occurrences, once it agrees with the model. */
    const char *ev = k->host_pmu ? recipe_event(rc, k->host_pmu) : NULL;
    struct event_count ei = {.asked = ev != NULL}, ec = {.asked = ev && p->control};
    if (ev && k->hw) {
        count_event(k, rc->issue, ev, &ei);
        if (p->control)
            count_event(k, rc->control, ev, &ec);
    } else if (ev) {
        snprintf(ei.why, sizeof(ei.why), "%s", k->hw_why);
    }
    choose_occurrences(p->issue->q.v[q], p->control ? p->control->q.v[q] : 0, &ei, p->control ? &ec : NULL, ev,
                       &p->occ);
    p->occ_issue = p->occ.issue;
    p->occ_control = p->occ.control;
    double delta = p->occ_issue - p->occ_control;
    if (isnan(delta) || delta <= 0) {
        snprintf(p->reason, sizeof(p->reason), "the models give %s %g (issue) and %g (control): no occurrences to divide by",
                 rc->occurrence, p->occ_issue, p->occ_control);
        return;
    }
    bool mem = rc->domain == DOMAIN_MEMORY;
    const double *x = mem ? p->issue->ns : p->issue->cycles;
    const double *y = p->control ? (mem ? p->control->ns : p->control->cycles) : NULL;
    p->f = fit_penalty(x, p->issue->reps, y, p->control ? p->control->reps : 0, delta, seed);
    double ghz = run_ghz(k), scale = mem ? ghz : 1 / ghz;
    double v[3] = {p->f.value, p->f.lo, p->f.hi}, w[3] = {v[0] * scale, v[1] * scale, v[2] * scale};
    const double *cyc = mem ? w : v, *ns = mem ? v : w;
    p->cycles = cyc[0], p->cycles_lo = cyc[1], p->cycles_hi = cyc[2];
    p->ns = ns[0], p->ns_lo = ns[1], p->ns_hi = ns[2];
    double half = (p->f.hi - p->f.lo) / 2, floor_ = mem ? 0.1 : 0.25;
    p->status = half > 0.10 * fabs(p->f.value) && half > floor_ ? "unstable" : "ok";
    int dist = p->issue->disturbed + (p->control ? p->control->disturbed : 0);
    if (dist) {
        p->status = "unstable";
        snprintf(p->reason, sizeof(p->reason), "%d repetition(s) shared the CPU with another task in every attempt "
                 "(context switches); measure on a quiet machine or another --cpu", dist);
    }
}

static void penalty_json(struct json *j, const struct penalty *p, const char *host_pmu)
{
    const struct recipe *rc = p->rc;
    json_object_begin(j, NULL);
    json_string(j, "name", rc->name);
    json_string(j, "brief", rc->brief);
    json_string(j, "status", p->status);
    json_string(j, "reason", p->reason[0] ? p->reason : NULL);
    json_string(j, "domain", domain_name(rc->domain));
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
    json_object_begin(j, "events");
    for (int i = 0; i < RECIPE_MAX_PMUS && rc->events[i].pmu; i++)
        json_string(j, rc->events[i].pmu, rc->events[i].event);
    json_object_end(j);
    json_string(j, "group", rc->group);
    json_object_end(j);
}

/* ---- the latency curve ---- */

static const struct case_result *curve_case(void *ctx, const char *text)
{
    struct cal *k = ctx;
    const struct case_result *r = measured(k, text);
    return k->interrupted ? NULL : r;
}

static int run_curve(struct cal *k, int ppo, struct curve *cv, struct json *doc)
{
    if (curve_measure(cv, ppo, curve_case, k))
        return -1;
    curve_detect_levels(cv);
    curve_write(cv, ppo, k->dir.path, doc);
    return 0;
}

/* ---- closure ---- */

static const struct penalty *find_penalty(const struct penalty *ps, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(ps[i].rc->name, name))
            return &ps[i];
    return NULL;
}

static int closure(struct cal *k, const struct penalty *ps, int n, struct json *doc, struct tap *tap)
{
    static const char *const lat[] = {"l1_hit", "l2_hit", "l3_hit"};
    static const enum quantity_id qs[] = {Q_LD_L1, Q_LD_L2, Q_LD_L3};
    const char *text = "mixwalk";
    for (int i = 0; i < 3; i++) {
        const struct penalty *p = find_penalty(ps, n, lat[i]);
        if (!p || strcmp(p->status, "ok")) {
            char why[128];
            snprintf(why, sizeof(why), "needs a stable %s penalty from this run", lat[i]);
            tap_point(tap, TAP_SKIP, "closure: mixwalk predicted from calibrated latencies", why);
            return 0;
        }
    }
    struct case_result *r = measured(k, text);
    if (r->status != CAL_OK) {
        tap_point(tap, r->status == CAL_SKIP ? TAP_SKIP : TAP_NOT_OK, "closure: mixwalk", r->reason);
        return r->status == CAL_SKIP ? 0 : -1;
    }
    double predicted = 0;
    for (int i = 0; i < 3; i++)
        predicted += r->q.v[qs[i]] * find_penalty(ps, n, lat[i])->cycles;
    double got = stats_median(r->cycles, (size_t)r->reps), err = (got - predicted) / predicted;
    bool ok = fabs(err) <= 0.05;
    char desc[512];
    snprintf(desc, sizeof(desc), "closure: mixwalk (%.3g L1 + %.3g L2 + %.3g L3 loads per iteration) predicted %.1f "
             "cycles per iteration from the calibrated latencies, measured %.1f (%+.1f%%, tolerance 5%%)",
             r->q.v[Q_LD_L1], r->q.v[Q_LD_L2], r->q.v[Q_LD_L3], predicted, got, 100 * err);
    tap_point(tap, ok ? TAP_OK : TAP_NOT_OK, desc, NULL);
    json_object_begin(doc, "closure");
    json_string(doc, "case", r->label);
    json_string(doc, "detail", r->detail);
    json_number(doc, "ld_l1", r->q.v[Q_LD_L1]);
    json_number(doc, "ld_l2", r->q.v[Q_LD_L2]);
    json_number(doc, "ld_l3", r->q.v[Q_LD_L3]);
    json_number(doc, "predicted_cycles", predicted);
    json_number(doc, "measured_cycles", got);
    json_number(doc, "error", err);
    json_bool(doc, "ok", ok);
    json_object_end(doc);
    return ok ? 0 : -1;
}

static bool wanted(const struct recipe *rc, char **only, int nonly)
{
    if (!nonly)
        return true;
    for (int i = 0; i < nonly; i++)
        if (!strcmp(only[i], rc->name))
            return true;
    return false;
}

struct calibrate_args {
    struct cal_opts o;
    int ppo, nonly, cpu_arg;
    bool curve, recipes_on, list, json;
    const char *label, *out, *prefix;
    char *only[64];
};

static int calibrate_option(void *ctx, int key, const char *v)
{
    struct calibrate_args *a = ctx;
    unsigned long long x;
    int rc = 0;
    switch (key) {
    case 'r':
        if (!(rc = cli_number(&calibrate_command, "-r", v, 3, MEASURE_MAX_REPS, &x)))
            a->o.repetitions = (int)x;
        break;
    case K_TARGET_MS:
        if (!(rc = cli_number(&calibrate_command, "--target-ms", v, 1, (unsigned long long)(MEASURE_MAX_RUN_SECONDS * 1000), &x)))
            a->o.target_seconds = (double)x / 1000;
        break;
    case K_PPO:
        if (!(rc = cli_number(&calibrate_command, "--points-per-octave", v, 1, 8, &x)))
            a->ppo = (int)x;
        break;
    case K_RECIPE: {
        int r = 0;
        while (r < nrecipes && strcmp(recipes[r].name, v))
            r++;
        if (r == nrecipes) {
            pm_error("--recipe %s: no such recipe; 'pmucal calibrate --list' names them", v);
            return 2;
        }
        if (a->nonly < 64)
            a->only[a->nonly++] = (char *)v;
        break;
    }
    case K_CPU: {
        uint64_t cpu;
        if (!parse_u64(v, &cpu) || cpu > 1u << 20 || !topo_cpu_valid((int)cpu)) {
            pm_error("--cpu %s is not a CPU this process may run on (lscpu lists the CPUs)", v);
            return 2;
        }
        a->cpu_arg = (int)cpu;
        break;
    }
    case K_PREFIX:
        a->prefix = v;
        break;
    case K_LABEL:
        a->label = v;
        break;
    case K_OUT:
        a->out = v;
        break;
    case K_QUICK:
        a->o.repetitions = 3;
        a->o.target_seconds = 0.002;
        a->ppo = 2;
        break;
    case K_CURVE:
        a->recipes_on = false;
        break;
    case K_NO_CURVE:
        a->curve = false;
        break;
    case K_LIST:
        a->list = true;
        break;
    case K_JSON:
        a->json = true;
        break;
    }
    return rc;
}

static int list_recipes(bool as_json)
{
    if (!as_json) {
        for (int r = 0; r < nrecipes; r++)
            printf("%-20s %-6s %s\n    issue   %s\n    control %s\n    per     %s\n", recipes[r].name,
                   domain_name(recipes[r].domain), recipes[r].brief, recipes[r].issue,
                   recipes[r].control ? recipes[r].control : "(none: the whole cost per occurrence)",
                   recipes[r].occurrence);
        return fflush(stdout) ? 1 : 0;
    }
    struct json j;
    json_init(&j);
    json_array_begin(&j, NULL);
    for (int r = 0; r < nrecipes; r++) {
        json_object_begin(&j, NULL);
        json_string(&j, "name", recipes[r].name);
        json_string(&j, "domain", domain_name(recipes[r].domain));
        json_string(&j, "brief", recipes[r].brief);
        json_string(&j, "issue", recipes[r].issue);
        json_string(&j, "control", recipes[r].control);
        json_string(&j, "occurrence", recipes[r].occurrence);
        json_object_end(&j);
    }
    json_array_end(&j);
    int rc = json_write_line(&j, stdout);
    json_free(&j);
    return rc ? 1 : 0;
}

static int calibrate_main(int argc, char **argv)
{
    struct calibrate_args a = {.o = {.repetitions = 7, .target_seconds = 0.005}, .ppo = 4, .cpu_arg = -1,
                               .curve = true, .recipes_on = true, .label = "calibrate", .prefix = "PMUCAL"};
    if (cli_parse(&calibrate_command, argc, argv, calibrate_option, &a, NULL))
        return 2;
    if (a.json && !a.list)
        return cli_usage_error(&calibrate_command, "--json goes with --list (a calibration writes penalties.json)");
    if (a.list)
        return list_recipes(a.json);
    struct cal k;
    memset(&k, 0, sizeof(k));
    k.o = a.o;
    int ppo = a.ppo, nonly = a.nonly, cpu_arg = a.cpu_arg;
    bool curve = a.curve, recipes_on = a.recipes_on;
    const char *label = a.label, *out = a.out, *prefix = a.prefix;
    char **only = a.only;
    if (!recipes_on && !curve)
        return cli_usage_error(&calibrate_command, "--curve and --no-curve together leave nothing to do");
    k.o.src = source_find("perf");
    if (!k.o.src)
        pm_fatal("the perf source is not registered");
    double t0 = clock_now_seconds();
    k.o.cpu = cpu_arg >= 0 ? cpu_arg : cal_quietest_cpu();
    if (run_dir_create(&k.dir, out, label))
        return 2;
    run_dir_manifest_begin(&k.dir, argc, argv);
    json_int(&k.dir.manifest, "repetitions", k.o.repetitions);
    json_number(&k.dir.manifest, "target_seconds", k.o.target_seconds);
    host_facts_json(&k.dir.manifest);
    run_dir_manifest(&k.dir, RUN_RUNNING, NULL);
    measure_install_sigint();
    struct pfm_core core;
    const char *host_pmu = pfm_core_pmu(&core) ? core.name : NULL;
    k.host_pmu = host_pmu;
    k.hw = perf_hw_usable(k.hw_why, sizeof(k.hw_why));

    struct json doc;
    json_init(&doc);
    json_object_begin(&doc, NULL);
    json_string(&doc, "pmucal", PMUCAL_VERSION);
    char date[32];
    json_string(&doc, "date", iso_now(date));
    json_int(&doc, "repetitions", k.o.repetitions);
    json_int(&doc, "cpu", k.o.cpu);
    json_string(&doc, "method", "penalty = (median issue - median control) / (occurrences issue - control), per "
                "repetition cycles at the clock measured around it; 95% percentile bootstrap interval, 2000 "
                "resamples; unstable when the half-width exceeds 10% and 0.25 cycles (0.1 ns for memory)");
    json_object_begin(&doc, "host");
    host_facts_json(&doc);
    json_object_end(&doc);

    struct penalty *ps = xcalloc((size_t)nrecipes, sizeof(*ps));
    int np = 0, status = 0, errors = 0;   /* errors: recipes that could not be measured (the run failed) */
    struct tap tap = {.out = stdout, .copy = k.dir.tap};
    tap_comment(&tap, "pmucal calibrate: %d repetitions x %.0f ms runs on CPU %d, results in %s", k.o.repetitions,
                k.o.target_seconds * 1e3, k.o.cpu, k.dir.path);
    for (int i = 0; recipes_on && i < nrecipes && !k.interrupted; i++) {
        if (!wanted(&recipes[i], only, nonly))
            continue;
        double ts = clock_now_seconds();
        struct penalty *p = &ps[np++];
        fit_recipe(&k, &recipes[i], p, 1000u + (unsigned)i);
        const char *unit = recipes[i].domain == DOMAIN_MEMORY ? "ns" : "cycles";
        if (!strcmp(p->status, "ok") || !strcmp(p->status, "unstable"))
            pm_note("[%d/%d] %-20s %9.2f %s [%.2f, %.2f]%s%s  (%.1f s)", i + 1, nrecipes, recipes[i].name, p->f.value,
                    unit, p->f.lo, p->f.hi, !strcmp(p->status, "unstable") ? " UNSTABLE" : "",
                    p->reason[0] ? " (CPU shared)" : "", clock_now_seconds() - ts);
        else
            pm_note("[%d/%d] %-20s %s: %s", i + 1, nrecipes, recipes[i].name, !strcmp(p->status, "skip") ? "SKIP" : "ERROR",
                    p->reason);
        if (!strcmp(p->status, "error"))
            status = 1, errors++;
    }
    json_object_begin(&doc, "clock");
    const struct clock_info *ci = clock_get();
    json_number(&doc, "core_ghz", run_ghz(&k));
    json_number(&doc, "tsc_ghz", ci->tsc_hz / 1e9);
    json_number(&doc, "startup_core_ghz", ci->core_hz / 1e9);
    json_string(&doc, "how", "median over all repetitions of the clock measured around each (dependent adds / TSC)");
    json_object_end(&doc);
    json_array_begin(&doc, "penalties");
    for (int i = 0; i < np; i++)
        penalty_json(&doc, &ps[i], host_pmu);
    json_array_end(&doc);
    if (recipes_on && !k.interrupted && closure(&k, ps, np, &doc, &tap))
        status = 1;
    struct curve *cv = xmalloc(sizeof(*cv));
    if (curve && !k.interrupted && run_curve(&k, ppo, cv, &doc) && !k.interrupted)
        status = 1;
    free(cv);
    double secs = clock_now_seconds() - t0;
    json_number(&doc, "wall_seconds", secs);
    json_object_end(&doc);
    if (k.interrupted)
        tap_bail(&tap, "stopped by %s; what was measured is in %s",
                 measure_stop_signal() ? measure_stop_signal() : "a signal", k.dir.path);
    else
        tap_plan(&tap);
    run_dir_write(&k.dir, "penalties.json", &doc);
    json_free(&doc);

    /* The tables come from penalties.json as written: one path from the file to every table. */
    char *pj = xasprintf("%s/penalties.json", k.dir.path);
    struct jvalue *back = jread_load(pj);
    struct emit_opts eo = {.prefix = prefix};
    if (!back || emit_tables(back, k.dir.path, &eo))
        status = 1;
    /* The table on stdout as comments, so stdout stays TAP. */
    printf("# %-20s %-7s %-8s %10s %21s %10s\n", "penalty", "domain", "status", "cycles", "95% interval", "ns");
    for (int i = 0; i < np; i++) {
        const struct penalty *p = &ps[i];
        if (!strcmp(p->status, "ok") || !strcmp(p->status, "unstable"))
            printf("# %-20s %-7s %-8s %10.2f   [%8.2f, %8.2f] %10.2f\n", p->rc->name, domain_name(p->rc->domain),
                   p->status, p->cycles, p->cycles_lo, p->cycles_hi, p->ns);
        else
            printf("# %-20s %-7s %-8s %s\n", p->rc->name, domain_name(p->rc->domain), p->status, p->reason);
    }
    printf("# core clock %.3f GHz (median of the clocks around each repetition); %.1f s; results in %s\n",
           run_ghz(&k), secs, k.dir.path);
    jread_free(back);
    free(pj);
    for (int i = 0; i < k.ncases; i++) {
        case_result_free(k.cases[i]);
        free(k.cases[i]);
    }
    free(k.cases);
    free(ps);
    if (k.interrupted)
        run_dir_manifest(&k.dir, RUN_INTERRUPTED, measure_stop_signal());
    else if (run_dir_manifest(&k.dir, errors ? RUN_FAILED : RUN_COMPLETE, errors ? "a recipe could not be measured" : NULL))
        status = 1;
    run_dir_close(&k.dir);
    if (k.interrupted) {
        pm_note("interrupted: what was measured is in the results folder");
        return 130;
    }
    return status;
}
