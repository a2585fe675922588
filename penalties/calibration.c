/* One calibration from its first pass to its last file (penalties/calibration.h). */
#include "penalties/calibration.h"
#include "base/stop.h"
#include "base/util.h"
#include "base/version.h"
#include "events/pfm.h"
#include "host/clock.h"
#include "host/geometry.h"
#include "host/topo.h"
#include "penalties/curve.h"
#include "host/uarch.h"
#include "penalties/recipes.h"
#include "penalties/tables.h"
#include "runs/hostfacts.h"
#include "runs/resume.h"
#include "runs/rundir.h"
#include "validate/rejudge.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_curve(struct cal *cal, int ppo, struct curve *cv, struct json *doc)
{
    if (curve_measure(cv, ppo, cal->curve_top, !cal->replaying, curve_case, cal))
        return -1;
    curve_detect_levels(cv);
    static const char *const level_cases[4] = {"L1", "L2", "L3", "DRAM"};
    for (int l = 0; l < 4; l++)
        cv->case_bytes[l] = level_size_of(cal->levels ? cal->levels : topo_resolved(), level_cases[l]);
    if (!cal->replaying)
        curve_write(cv, ppo, cal->dir->path, doc);
    return 0;
}

/* penalties.json's head: the run's settings, the method, the host. */
static void begin_doc(struct json *doc, const struct cal *cal, const struct calibration_plan *plan)
{
    json_init(doc);
    json_object_begin(doc, NULL);
    json_string(doc, "pmucal", PMUCAL_VERSION);
    char date[32];
    json_string(doc, "date", iso_now(date));
    json_int(doc, "repetitions", cal->o.repetitions);
    json_int(doc, "passes", cal->o.passes);
    json_int(doc, "cpu", cal->o.cpu);
    json_string(doc, "uarch", cal->uarch);   /* whose perf event names and references apply */
    json_string(doc, "uarch_cpu", cal->uarch_cpu);        /* which of its file's CPUs, when known */
    json_bool(doc, "uarch_given", plan->uarch != NULL);   /* --uarch: not the measured CPU's */
    if (plan->nonly) {   /* a partial calibration: emit without RUN passes it over */
        json_array_begin(doc, "recipes_only");
        for (int i = 0; i < plan->nonly; i++)
            json_string(doc, NULL, plan->only[i]);
        json_array_end(doc);
    }
    json_string(doc, "method", "penalty = median over independent passes over the recipes of (median "
                "issue - median control) / (occurrences issue - control); cycles from short timing windows at a low "
                "quantile, each at the core clock measured beside it; passes that shared the core left out; unstable with "
                "fewer than 3 clean passes, or when the median's interval (the clean passes' range, one standing apart "
                "left out; from nine passes their 95% order-statistic interval) is wider than the recipe's spread "
                "class allows (2% core, 3% hierarchy); one pass: when its 95% bootstrap interval's half-width "
                "exceeds 10% and 0.25 cycles, 0.1 ns for memory");
    if (!cal->replaying) {   /* a replay looks at nothing of this host */
        json_object_begin(doc, "host");
        host_facts_json(doc);
        json_object_end(doc);
    }
}

/* After the passes asked (or a further one), passes_run of them: each recipe due another
 * (penalty_fit.h) is given one. How many were. */
static int more_passes(const struct cal *cal, struct penalty *ps, int np, int passes_run)
{
    int more = 0;
    for (int i = 0; i < np; i++)
        if (cal_more_passes_due(cal, &ps[i], passes_run))
            ps[i].passes_wanted++, more++;
    return more;
}

/* Every wanted recipe measured and fitted into ps (*np of them): passes over the recipes
 * (penalties/penalty_fit.h), a progress line a recipe in the first and a line a pass after it, then
 * each figure; the number that could not be measured (the pass failed). */
static int measure_recipes(struct cal *cal, const struct calibration_plan *plan, struct penalty *ps, int *np)
{
    int nwanted = 0, errors = 0, passes = cal_passes_asked(cal);
    int last = cal->replaying ? CAL_MAX_PASSES : passes;
    for (int i = 0; plan->recipes_on && i < nrecipes; i++)
        nwanted += recipe_wanted(&recipes[i], plan->only, plan->nonly);
    for (int pass = 0; pass < last && !cal->interrupted; pass++) {
        double tp = clock_now_seconds();
        int n = 0, measured = 0;
        for (int i = 0; plan->recipes_on && i < nrecipes && !cal->interrupted; i++) {
            if (!recipe_wanted(&recipes[i], plan->only, plan->nonly))
                continue;
            struct penalty *p = &ps[n++];
            double ts = clock_now_seconds();
            bool fitted = fit_recipe_pass(cal, &recipes[i], p, pass, 1000u + (unsigned)i);
            measured += fitted;
            *np = pass ? *np : n;
            if (fitted)
                closure_after_recipe(cal, &recipes[i], p);
            if (pass || cal->replaying)   /* no progress to show when nothing is measured */
                continue;
            const char *unit = recipes[i].domain == DOMAIN_MEMORY ? "ns" : "cycles";
            if (p->passes)
                pm_progress("[%d/%d] %-20s %9.2f %s  (pass 1 of %d, %.1f s)", n, nwanted, recipes[i].name,
                        p->pass_values[0], unit, p->passes_wanted, clock_now_seconds() - ts);
            else
                pm_progress("[%d/%d] %-20s %s: %s", n, nwanted, recipes[i].name, p->status == PENALTY_SKIP ? "SKIP"
                        : p->status == PENALTY_NOT_OK ? "NOT OK" : "ERROR", p->reason);
        }
        if (pass >= passes && measured && !cal->replaying)
            pm_progress("pass %d: %d recipes short of clean or agreeing passes measured again (%.1f s)", pass + 1, measured,
                        clock_now_seconds() - tp);
        else if (pass && measured && !cal->replaying)
            pm_progress("pass %d of %d: %d recipes measured again (%.1f s)", pass + 1, passes, measured,
                    clock_now_seconds() - tp);
        if (pass == last - 1 && !cal->interrupted && more_passes(cal, ps, *np, pass + 1))
            last++;
    }
    for (int i = 0; i < *np; i++) {
        struct penalty *p = &ps[i];
        fit_recipe_judge(cal, p);
        errors += p->status == PENALTY_ERROR;
        if (cal->replaying || !p->passes)
            continue;
        const char *unit = p->rc->domain == DOMAIN_MEMORY ? "ns" : "cycles";
        if (p->status == PENALTY_OK || p->status == PENALTY_UNSTABLE)
            pm_note("%-20s %9.2f %s [%.2f, %.2f] over %d passes%s%s", p->rc->name, p->f.value, unit, p->f.lo, p->f.hi,
                    p->passes, p->status == PENALTY_UNSTABLE ? " UNSTABLE: " : *p->reason ? ": " : "", p->reason);
        else
            pm_note("%-20s %s: %s", p->rc->name, p->status == PENALTY_NOT_OK ? "NOT OK" : "ERROR", p->reason);
    }
    return errors;
}

/* The calibration in the session's folder: the recipes, the curve, every figure at the run's
 * clock, the checks and the closure as TAP; penalties.json and, unless stopped, the tables from
 * it. 1 when something is not ok or could not be measured or written, else 0; recipes that could
 * not be measured into *errors. */
int calibration_run(struct cal *cal, const struct calibration_plan *plan, struct tap *tap, double t0, int *errors)
{
    struct pfm_core core;
    if (!cal->replaying) {   /* a replayed run's PMU, hardware and model are the run's own */
        cal->host_pmu = pfm_core_pmu(&core) ? core.name : NULL;
        cal->hw = perf_hw_usable(cal->hw_why, sizeof(cal->hw_why));
        /* --uarch, else the measured CPU's own identity (a host may have two kinds), else the
         * libpfm4 PMU's: a CPU whose identity no file claims but whose PMU one names. */
        const struct uarch_cpu *c = NULL;
        const struct uarch *u = plan->uarch ? uarch_named(plan->uarch, &c) : NULL;
        if (!u && (c = uarch_cpu_of_logical(cal->o.cpu, NULL, 0)))
            u = c->uarch;
        if (!u && (c = uarch_cpu_of_pfm(cal->host_pmu)))
            u = c->uarch;
        cal->uarch = u ? u->name : NULL;
        cal->uarch_cpu = c ? c->name : NULL;
        const struct clock_info *ci = clock_get();
        snprintf(cal->clock_why, sizeof(cal->clock_why), "%s", ci->trusted ? "" : ci->why);
    }
    const char *host_pmu = cal->host_pmu;
    struct json doc;
    begin_doc(&doc, cal, plan);
    struct penalty *ps = xcalloc((size_t)nrecipes, sizeof(*ps));
    int np = 0;
    tap_comment(tap, "pmucal calibrate: %d repetitions x %.0f ms loops on CPU %d, results in %s", cal->o.repetitions,
                cal->o.target_seconds * 1e3, cal->o.cpu, cal_folder(cal));
    if (cal->resume && !cal->replaying)
        tap_comment(tap, "resuming: %d cases measured before are taken from their records, not measured again; %d "
                    "records dropped (cut short, or without a case key)", cal->resume->records_kept,
                    cal->resume->records_dropped);
    *errors = measure_recipes(cal, plan, ps, &np);
    int status = *errors ? 1 : 0;
    /* The curve first: the level cases are checked against its plateaus. */
    struct curve *cv = xcalloc(1, sizeof(*cv));
    bool have_curve = false;
    if (plan->curve && !cal->interrupted) {
        if (run_curve(cal, plan->ppo, cv, &doc)) {
            if (!cal->interrupted)
                status = 1;
        } else {
            have_curve = true;
        }
    }
    /* Every figure at the one clock penalties.json records (each recipe was converted at the
     * median clock so far), so its ns and cycles agree and 'emit' can check them. */
    double ghz = run_ghz(cal);
    for (int i = 0; i < np; i++)
        if (!isnan(ps[i].cycles))
            penalty_at_clock(&ps[i], ghz);
    check_penalties(ps, np, have_curve ? cv : NULL, cal->uarch, cal->clock_why);
    for (int i = 0; i < np; i++)
        penalty_verdict(tap, &ps[i]);
    if (plan->recipes_on && !cal->interrupted && closure(cal, ps, np, &doc, tap))
        status = 1;
    free(cv);
    if (stop_requested())   /* a stop between cases is a stop too */
        cal->interrupted = true;
    json_object_begin(&doc, "clock");
    json_number(&doc, "core_ghz", ghz);
    if (!cal->replaying) {
        const struct clock_info *ci = clock_get();
        json_number(&doc, "tsc_ghz", ci->tsc_hz / 1e9);
        json_number(&doc, "startup_core_ghz", ci->core_hz / 1e9);
    }
    json_bool(&doc, "trusted", !cal->clock_why[0]);
    json_string(&doc, "untrusted_why", cal->clock_why);
    json_string(&doc, "how", "median over all measurements of the clock measured around each (the higher of dependent register adds and dependent multiplies, per TSC tick)");
    json_object_end(&doc);
    json_array_begin(&doc, "penalties");
    for (int i = 0; i < np; i++)
        penalty_json(&doc, &ps[i], host_pmu);
    json_array_end(&doc);
    double secs = clock_now_seconds() - t0;
    json_number(&doc, "wall_seconds", secs);
    json_object_end(&doc);
    print_table(cal, ps, np, secs);   /* TAP comments: before the plan or the bail, which end the TAP */
    if (cal->interrupted)
        tap_bail(tap, "stopped by %s; what was measured is in %s",
                 stop_signal_name() ? stop_signal_name() : "a signal", cal->dir->path);
    else
        tap_plan(tap);
    if (tap->not_ok)
        status = 1;
    if (cal->replaying) {   /* judged again: nothing is written */
        json_free(&doc);
        free(ps);
        return status;
    }
    if (run_dir_write(cal->dir, "penalties.json", &doc))
        status = 1;
    json_free(&doc);
    /* The tables come from penalties.json as written: one path from the file to every table. An
     * interrupted run's figures stay in penalties.json only: tables are what other tools load as
     * they are, and a table missing half its constants would look whole to them. */
    char *pj = xasprintf("%s/penalties.json", cal->dir->path);
    struct jvalue *back = cal->interrupted ? NULL : jread_load(pj);
    struct table_opts eo = {.prefix = plan->prefix};
    if (!cal->interrupted && (!back || tables_write_dir(back, cal->dir->path, &eo)))
        status = 1;
    jread_free(back);
    free(pj);
    free(ps);
    return status;
}

void cal_manifest(const struct cal *cal, struct json *j)
{
    json_string(j, "source", cal->o.src->name);
    json_int(j, "repetitions", cal->o.repetitions);
    json_number(j, "target_seconds", cal->o.target_seconds);
    json_int(j, "passes", cal->o.passes);
}

/* A stored calibrate run's own facts into cal, for replaying it: its CPU (manifest.json, else
 * penalties.json pen), PMU, hardware, model and clock verdict, pen as cal->stored, the curve's last
 * size from its records' keys (0: the run has no curve) and the cache levels its cases were sized
 * by into *levels (cal->levels points there). 0, or 2 after a message naming a bad number. */
static int cal_from_run(struct cal *cal, const struct runfile *run, const struct jvalue *pen, struct topo *levels)
{
    const struct jvalue *pmu = jget(run->manifest, "pmu");
    /* The run's CPU, for the TAP header only; a number from a run folder is checked before use. */
    int cpu;
    double pen_cpu;
    char err[256];
    const char *file = "manifest.json";
    bool good = runfile_measure_cpu(run->manifest, &cpu, err, sizeof(err));
    if (good && cpu < 0) {   /* a run before measure_cpu: the CPU penalties.json names */
        file = "penalties.json";
        good = jget_in(pen, "cpu", 0, 1 << 20, true, 0, &pen_cpu, err, sizeof(err));
        cpu = good ? (int)pen_cpu : -1;
    }
    if (!good) {
        pm_error("%s/%s: %s", run->path, file, err);
        return 2;
    }
    cal->o.cpu = cpu;
    cal->host_pmu = jget_str(pmu, "libpfm4_pmu", NULL);
    cal->hw = jget(pmu, "hardware_usable") && jget(pmu, "hardware_usable")->type == J_BOOL && jget(pmu, "hardware_usable")->b;
    snprintf(cal->hw_why, sizeof(cal->hw_why), "%s", jget_str(pmu, "hardware_reason", "the run's hardware events"));
    cal->uarch = penalties_uarch(pen);
    const struct uarch_cpu *old_cpu = NULL;   /* a run before the word uarch named the CPU itself */
    cal->uarch_cpu = jget_str(pen, "uarch_cpu", NULL);
    if (!cal->uarch_cpu && uarch_named(jget_str(pen, "cpu_model", NULL), &old_cpu) && old_cpu)
        cal->uarch_cpu = old_cpu->name;
    /* The run's clock as it judged it (a run from before the clock was judged says nothing). */
    snprintf(cal->clock_why, sizeof(cal->clock_why), "%s", jget_str(jget(pen, "clock"), "untrusted_why", ""));
    cal->stored = pen;
    /* The curve's points are the run's: its host's caches gave their sizes, not this one's. */
    for (int i = 0; i < run->nrec; i++) {
        unsigned long long b;
        int end = 0;
        char text[128];   /* keyed "text|event|pass"; before passes, the text alone */
        snprintf(text, sizeof(text), "%s", jget_str(run->rec[i], "key", ""));
        text[strcspn(text, "|")] = '\0';
        /* A curve point is "walker size=BYTES order=random" exactly (not 8M, nor other parameters). */
        if (sscanf(text, "walker size=%llu%n", &b, &end) != 1 || strcmp(text + end, " order=random"))
            continue;
        if (b < 4096 || b > (1ull << 44)) {   /* the curve's sizes: 4K up, and no memory has 16T */
            pm_error("%s/measurements.ndjson: record %d: the curve point's size %.*s is not from 4K to 16T: the run "
                     "is damaged and cannot be judged again", run->path, i + 1,
                     (int)strcspn(text + strlen("walker size="), " "), text + strlen("walker size="));
            return 2;
        }
        if (b > cal->curve_top)
            cal->curve_top = b;
    }
    /* The levels the run's cases were sized by: its manifest's (this host's would size them anew). */
    const struct jvalue *caches = jget(jget(run->manifest, "topology"), "caches");
    for (int i = 0; caches && caches->type == J_ARRAY && i < caches->n; i++) {
        const char *nm = jget_str(&caches->items[i], "name", "");
        int l = !strcmp(nm, "L1d") ? 1 : !strcmp(nm, "L2") ? 2 : !strcmp(nm, "L3") ? 3 : 0;
        double size = jget_num(&caches->items[i], "size", 0), usable = jget_num(&caches->items[i], "usable", 0);
        if (l && size > 0 && size < 1e12)
            levels->data[l].level = l, levels->data[l].size = (uint64_t)size;
        if (l && usable > 0 && usable < size)   /* the part the run's cases were sized by */
            levels->usable[l] = (uint64_t)usable;
    }
    cal->levels = levels;
    return 0;
}

/* pmucal replay of a calibrate run made with options o and plan (the run's own command line, read
 * again; pen its penalties.json, NULL when it has none): every case rebuilt from its record as
 * --resume rebuilds it, nothing measured, the penalties fitted again and checked with today's
 * checks and references, their verdicts printed into tap, nothing written. The exit status (0, 1
 * when something is not ok), or 2 after a message on a damaged run. */
static int calibration_replay(const struct runfile *run, const struct jvalue *pen, const struct cal_opts *o,
                              struct calibration_plan *plan, struct tap *tap)
{

    if (!pen || pen->type != J_OBJECT) {
        pm_error("%s: no penalties.json (or not a JSON object): the penalties' model is not known; the run cannot be "
                 "judged again", run->path);
        return 2;
    }
    struct resume rs = {.run = run->path, .manifest = run->manifest, .rec = run->rec, .nrec = run->nrec};
    rs.replayed = xcalloc((size_t)run->nrec + 1, sizeof(*rs.replayed));
    struct cal cal = {.o = *o, .resume = &rs, .replaying = true};
    cal.o.src = source_select("perf");
    struct topo levels = {0};
    int rc = 2;
    if (!cal_from_run(&cal, run, pen, &levels)) {
        if (!cal.curve_top)   /* no curve in the run: none is measured here */
            plan->curve = false;
        int errors;
        rc = calibration_run(&cal, plan, tap, clock_now_seconds(), &errors);
        cal_free(&cal);
    }
    free(rs.replayed);
    return rc;
}

int calibration_rejudge(const struct runfile *run, const struct cal_opts *o, struct calibration_plan *plan)
{
    struct runfile all;
    if (runfile_load_all(&all, run->path)) {
        runfile_free(&all);   /* what it read before the file it refused */
        return 2;
    }
    /* The replayed TAP is kept as printed, to be read back and set against the stored one. */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    struct tap tap = {.out = stdout, .copy = mem};
    tap_comment(&tap, "pmucal replay %s: %d measurements (source perf, %s), the penalties fitted again from them "
                "and checked with today's checks and references", run->path, run->nrec, run->status);
    int status = mem ? calibration_replay(run, all.penalties, o, plan, &tap) : 2;
    if (!mem)
        pm_error("%s: no memory to hold the replayed TAP", run->path);
    else
        fclose(mem);
    tap.copy = NULL;
    if (status == 0 || status == 1) {
        struct runfile again = {0};
        if (tap_parse(&again, text, "the replayed TAP")) {
            status = 2;
        } else {
            int changed = rejudge_verdicts_changed(&tap, &all, &again);
            tap_comment(&tap, "summary: %d ok, %d not ok, %d skip, %d todo; %d verdicts differ from the stored ones",
                        tap.ok, tap.not_ok, tap.skip, tap.todo, changed);
        }
        runfile_cells_free(&again);
    }
    if (tap.write_failed && status != 2)
        status = 1;
    free(text);
    runfile_free(&all);
    return status;
}
