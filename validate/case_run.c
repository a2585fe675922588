/* A validate run's cases measured into its folder (validate/case_run.h). */
#include "validate/case_run.h"
#include "base/stop.h"
#include "base/util.h"
#include "host/clock.h"
#include "validate/classifier.h"
#include "validate/rejudge.h"
#include "validate/sweep.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One line per case (base/util.h says where); on a terminal it is rewritten in place with the time
 * left, estimated from the cases done so far. */
static void progress(int i, int n, const char *label, double elapsed, int measured)
{
    static int tty = -1;
    if (!pm_progress_shown())
        return;
    if (tty < 0)
        tty = isatty(STDERR_FILENO);
    if (!tty) {
        pm_progress("[%d/%d] %s", i + 1, n, label);
        return;
    }
    char eta[32] = "";
    if (measured > 0) {
        int left = (int)(elapsed / measured * (n - i) + 0.5);
        snprintf(eta, sizeof(eta), ", about %dm%02ds left", left / 60, left % 60);
    }
    fprintf(stderr, "\rpmucal: [%d/%d] %.60s%s\033[K%s", i + 1, n, label, eta, i + 1 == n ? "\n" : "");
    fflush(stderr);
}

/* Every case measured (resuming: a kept case's records judged again instead), then the summary;
 * CASE_OK, CASE_ERROR or CASE_INTERRUPTED. */
int case_run_measure(struct engine *eng, struct case_run *v)
{
    struct tap *tap = &v->s->tap;
    struct resume *rs = &v->s->rs;
    const char *path = v->s->dir.path;
    int n = v->list->n, dropped = v->dropped;
    tap_comment(tap, "pmucal validate: %d cases x %d events, source %s, results in %s", n, v->asked, v->source, path);
    if (dropped) {
        /* Said once, not once per event and case: nothing here can count them. */
        char desc[160];
        snprintf(desc, sizeof(desc), "%d hardware events x %d cases", dropped, n);
        tap_point(tap, VERDICT_SKIP, desc, v->no_hw);
        json_int(&v->s->dir.manifest, "hardware_events_skipped", dropped);
    }
    if (v->sweep)
        tap_comment(tap, "sweep: %llu cases drawn from the kernels' declared domains with seed %llu; the same cases "
                    "again: pmucal validate --source %s --sweep %llu --seed %llu%s%s; one case: --case 'LABEL'",
                    (unsigned long long)v->sweep, (unsigned long long)v->seed, v->source,
                    (unsigned long long)v->sweep, (unsigned long long)v->seed, v->sweep_kernel ? " --kernel " : "",
                    v->sweep_kernel ? v->sweep_kernel : "");
    for (const struct kernel **k = kernel_list(); v->sweep && !v->sweep_kernel && *k; k++)
        if (!sweep_draws_from(*k))
            tap_comment(tap, "sweep: kernel %s not drawn: a parameter is your own text with no default (its cases "
                        "are yours to give; --kernel %s draws its other parameters)", (*k)->name, (*k)->name);
    if (session_resuming(v->s))
        tap_comment(tap, "resuming: %d of %d cases finished and are kept (%d records, judged again, not measured); "
                    "%d records of unfinished cases or cut short dropped; %d cases to measure", rs->cases_kept, n,
                    rs->records_kept, rs->records_dropped, n - rs->cases_kept);
    int rc = CASE_OK, measured = 0;
    double wall0 = clock_now_seconds();
    if (!v->nevents)   /* nothing left to count: no case needs setting up */
        v->cases_done = n;
    for (int i = 0; v->nevents && i < n && rc != CASE_INTERRUPTED && !stop_requested() && !eng->write_failed; i++) {
        struct case_ *c = v->list->c[i];
        if (session_resuming(v->s) && rs->kept[i]) {
            int replayed = resume_replay(rs, eng, c->label);
            if (replayed < 0) {
                rc = CASE_ERROR;
                eng->failures++;
                break;
            }
            eng->measurements += replayed;
            v->cases_done++;
            continue;
        }
        progress(i, n, c->label, clock_now_seconds() - wall0, measured++);
        /* Each case gets its own copy: what failed to open in one case is tried again in the next. */
        struct event_spec *ev = engine_copy_events(v->events, v->nevents);
        rc = engine_case(eng, c, ev, v->nevents);
        v->cases_done += rc != CASE_INTERRUPTED;
        /* Durable once all its records are: what --resume keeps. */
        if (rc == CASE_OK && !eng->write_failed && cases_done_append(path, i, c->label))
            eng->write_failed = true;
        engine_free_events(ev, v->nevents);
    }
    if (stop_requested())
        rc = CASE_INTERRUPTED;
    engine_summary(eng);
    /* Events with no rule (or an info rule) that counted something: let the classifier say what. */
    int unruled = 0;
    for (int k = 0; k < eng->nsum; k++)
        unruled += eng->sum[k].info > 0;
    if (unruled && eng->measurements) {
        fflush(v->s->dir.measurements);
        struct classify_opts co = {.rules = &eng->rules, .unruled_only = true, .floor = eng->src->exact_floor};
        int sus = classify_run(path, &co);
        if (sus >= 0)
            tap_comment(tap, "classifier: %d events without a rule explained in %s/classify.txt (%d not clean)",
                        unruled, path, sus);
    }
    double wall = clock_now_seconds() - wall0, inside = (double)measure_region_ticks / clock_get()->tsc_hz;
    tap_comment(tap, "time: %.3f s wall for the cases, %.3f s inside measured regions (%.1f%%)", wall, inside,
                wall > 0 ? 100 * inside / wall : 0);
    if (v->sweep)
        tap_comment(tap, "sweep: %d of %llu drawn cases refused by their kernel's setup (SKIP, its reason)", eng->refused,
                    (unsigned long long)v->sweep);
    tap_comment(tap, "summary: %d ok, %d not ok, %d skip, %d todo, %d info; %d measurements in %s; %.0f%% of the "
                "cases' wall time inside measured regions", tap->ok, tap->not_ok, tap->skip, tap->todo, tap->info,
                eng->measurements, path, wall > 0 ? 100 * inside / wall : 0);
    return rc;
}

/* How the run ended, into the TAP's last line and the manifest; the exit status. */
int case_run_end(const struct engine *eng, struct case_run *v, int rc)
{
    struct tap *tap = &v->s->tap;
    int n = v->list->n;
    /* Counts of what finished let a reader judge a partial run. */
    json_int(&v->s->dir.manifest, "cases", n);
    json_int(&v->s->dir.manifest, "cases_done", v->cases_done);
    json_int(&v->s->dir.manifest, "measurements", eng->measurements);
    json_int(&v->s->dir.manifest, "failures", eng->failures);
    if (rc == CASE_INTERRUPTED) {
        char why[128];
        snprintf(why, sizeof(why), "stopped by %s after %d of %d cases", stop_signal_name(), v->cases_done, n);
        tap_bail(tap, "%s; %d finished measurements are kept in %s", why, eng->measurements, v->s->dir.path);
        pm_note("interrupted: %d finished measurements are kept in %s", eng->measurements, v->s->dir.path);
        return session_stopped(v->s, why);
    }
    char why[160];
    bool lost = eng->write_failed || tap->write_failed;
    if (lost)
        snprintf(why, sizeof(why), "results could not be written (disk full?) after %d of %d cases", v->cases_done, n);
    else
        snprintf(why, sizeof(why), "%d of %d cases could not be measured", eng->failures, n);
    /* A run cut short by a failed write must not end like a whole one: a harness reading the plan
     * would take the verdicts so far for all of them. */
    if (lost)
        tap_bail(tap, "%s; the records before it are kept in %s", why, v->s->dir.path);
    else
        tap_plan(tap);
    return session_end(v->s, tap->not_ok || eng->failures || lost ? 1 : 0, eng->failures || lost ? why : NULL);
}
