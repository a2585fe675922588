/* 'pmucal calibrate --source sim' (cmd/calibrate.c wires it): a penalty divides by occurrences
 * that, on a host whose PMU cannot count them, only the kernels' models give. Here each recipe's
 * issue and control cases run under the sim source exactly as 'validate --source sim' runs a case
 * (the same re-execution under callgrind, the same rules and TAP lines), and each recipe gets one
 * verdict on its occurrence quantity from the row of penalties/occurrence_sim.c: ok when the
 * simulated counts equal the model's occurrences in both cases (and the issue case has more of
 * them), not ok when they do not, SKIP when callgrind cannot count that kind of occurrence. */
#include "penalties/occurrence_check.h"
#include "base/stop.h"
#include "base/util.h"
#include "penalties/penalty_fit.h"
#include "penalties/occurrence_sim.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sim_case {
    char *text;                  /* the recipe's case text */
    char label[256];
    char why[320];               /* CASE_SKIP / CASE_ERROR: the reason */
    int status;                  /* CASE_OK, CASE_SKIP, CASE_ERROR, CASE_INTERRUPTED */
    bool measured;               /* a measurement arrived */
    struct quantities q;         /* its model in the simulated machine */
    struct occurrence_case_check *chk;   /* per row of occurrence_sim_rows */
};

struct sim_run {
    struct engine *eng;
    struct event_spec *events;
    int nevents;
    struct ruleset *rows;        /* each row's rules, parsed once */
    struct sim_case **cases;     /* each case measured once, however many recipes name it */
    int ncases;
    struct sim_case *current;
    int recipe, recipes;         /* the [i/n] of the progress lines */
    struct tap *tap;             /* the session's */
    int checked, wrong, uncheckable;
};

/* Every row is judged on every measurement: a case may serve recipes of several quantities. */
static void take_measurement(struct engine *eng, const struct case_ *c, const struct measurement *m,
                             const struct quantities *q)
{
    (void)c;
    struct sim_run *s = eng->arg;
    struct sim_case *sc = s->current;
    sc->measured = true;
    sc->q = *q;
    for (int i = 0; i < noccurrence_sim_rows; i++)
        if (s->rows[i].n)
            occurrence_sim_judge(&s->rows[i], eng->src, m, q, &sc->chk[i]);
}

static struct sim_case *measure_case(struct sim_run *s, const struct recipe *rc, const char *text)
{
    for (int i = 0; i < s->ncases; i++)
        if (!strcmp(s->cases[i]->text, text)) {
            tap_comment(s->tap, "  %s: measured above", text);
            return s->cases[i];
        }
    s->cases = xrealloc(s->cases, sizeof(*s->cases) * (size_t)(s->ncases + 1));
    struct sim_case *sc = s->cases[s->ncases++] = xcalloc(1, sizeof(*sc));
    sc->text = xstrdup(text);
    sc->chk = xcalloc((size_t)noccurrence_sim_rows, sizeof(*sc->chk));
    quantities_unstated(&sc->q);
    struct case_ *c = cal_case_build(text, sc->why, sizeof(sc->why));
    if (!c) {
        sc->status = CASE_SKIP;
        tap_comment(s->tap, "  %s: not measured: %s", text, sc->why);
        return sc;
    }
    snprintf(sc->label, sizeof(sc->label), "%s", c->label);
    pm_progress("[%d/%d] %s: %s", s->recipe, s->recipes, rc->name, text);
    s->current = sc;
    struct event_spec *ev = engine_copy_events(s->events, s->nevents);
    int mrc = engine_case(s->eng, c, ev, s->nevents);
    engine_free_events(ev, s->nevents);
    if (mrc == CASE_INTERRUPTED) {
        sc->status = CASE_INTERRUPTED;
        snprintf(sc->why, sizeof(sc->why), "interrupted");
    } else if (mrc != CASE_OK) {
        sc->status = CASE_ERROR;
        snprintf(sc->why, sizeof(sc->why), "%s could not be measured (the message above says why)", c->label);
    } else if (!sc->measured) {
        sc->status = CASE_SKIP;
        snprintf(sc->why, sizeof(sc->why), "%s: %s", c->label, c->skip[0] ? c->skip : "not measured");
    }
    case_free(c);
    return sc;
}

/* "walker size=L1: ld.l1 16 per iteration (sim::Dr 16.0000 = ld.all 16.0000; ...)" */
static void describe(char *buf, size_t n, const struct sim_case *sc, int q, const struct occurrence_case_check *k)
{
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s: %s %.4g per iteration (%s)", sc->text, quantity_name((enum quantity_id)q),
             sc->q.v[q], k->text);
}

/* One TAP line: was this recipe's occurrence quantity checked under sim, and did it hold? */
static void occurrence_verdict(struct sim_run *s, const struct recipe *rc, const struct sim_case *is,
                               const struct sim_case *co)
{
    char desc[3072], why[1536] = "";
    const struct occurrence_sim *row = occurrence_sim_find(rc->occurrence);
    int q = quantity_lookup(rc->occurrence);
    snprintf(desc, sizeof(desc), "%s: occurrences %s under sim", rc->name, rc->occurrence);
    if (!row || q < 0) {
        snprintf(why, sizeof(why), "%s: %s has no row in penalties/occurrence_sim.c%s", desc, rc->occurrence,
                 q < 0 ? " and is not a quantity of this build" : "");
        s->wrong++;
        tap_point(s->tap, VERDICT_NOT_OK, why, NULL);
        return;
    }
    char where[64];
    snprintf(where, sizeof(where), "penalties/occurrence_sim.c:%d", row->line);
    if (!row->rules) {
        snprintf(why, sizeof(why), "%s (%s)", row->why_not, where);
        s->uncheckable++;
        tap_point(s->tap, VERDICT_SKIP, desc, why);
        return;
    }
    const struct sim_case *cs[2] = {is, co};
    int r = (int)(row - occurrence_sim_rows);
    for (int i = 0; i < 2; i++) {
        if (!cs[i])
            continue;
        if (cs[i]->status == CASE_SKIP) {   /* the case cannot be measured in the simulator: nothing was shown */
            snprintf(why, sizeof(why), "the %s case cannot be measured under sim: %s", i ? "control" : "issue", cs[i]->why);
            s->uncheckable++;
            tap_point(s->tap, VERDICT_SKIP, desc, why);
            return;
        }
        const struct occurrence_case_check *k = &cs[i]->chk[r];
        const char *fail = cs[i]->status != CASE_OK ? cs[i]->why
                         : k->seen < k->rules ? "a sim event of the row was not measured"
                         : k->failed ? k->text : NULL;
        if (fail) {
            snprintf(why, sizeof(why), "%s: occurrences %s wrong under sim in %s: %s (%s)", rc->name, rc->occurrence,
                     cs[i]->text, fail, where);
            s->wrong++;
            tap_point(s->tap, VERDICT_NOT_OK, why, NULL);
            return;
        }
    }
    /* Shown equal to the counts, the occurrences must still be there to divide by. */
    double delta = is->q.v[q] - (co ? co->q.v[q] : 0);
    if (!(delta > 0)) {
        snprintf(why, sizeof(why), "%s: no occurrences to divide by under sim: %s is %g in %s and %g in the control "
                 "(%s)", rc->name, rc->occurrence, is->q.v[q], is->text, co ? co->q.v[q] : 0, where);
        s->wrong++;
        tap_point(s->tap, VERDICT_NOT_OK, why, NULL);
        return;
    }
    snprintf(desc, sizeof(desc), "%s: occurrences %s checked under sim, %s: ", rc->name, rc->occurrence,
             row->identity);
    describe(desc, sizeof(desc), is, q, &is->chk[r]);
    if (co) {
        strncat(desc, "; control ", sizeof(desc) - strlen(desc) - 1);
        describe(desc, sizeof(desc), co, q, &co->chk[r]);
    }
    snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), " [%s]", where);
    s->checked++;
    tap_point(s->tap, VERDICT_OK, desc, NULL);
}

static int begin_manifest(struct session *sess, const struct occurrence_check_args *a, const struct sim_run *s)
{
    struct json *j = &sess->dir.manifest;
    json_string(j, "purpose", "occurrence check: the recipes' cases under a counting source, no penalties");
    json_uint(j, "iters", s->eng->mopts.iters);
    json_array_begin(j, "recipes");
    for (int i = 0; i < nrecipes; i++)
        if (recipe_wanted(&recipes[i], a->only, a->nonly))
            json_string(j, NULL, recipes[i].name);
    json_array_end(j);
    return session_start(sess);
}

static void sim_run_free(struct sim_run *s)
{
    for (int i = 0; i < s->ncases; i++) {
        free(s->cases[i]->text);
        free(s->cases[i]->chk);
        free(s->cases[i]);
    }
    free(s->cases);
    for (int i = 0; s->rows && i < noccurrence_sim_rows; i++)
        ruleset_free(&s->rows[i]);
    free(s->rows);
}

int occurrence_check_run(const struct occurrence_check_args *a, struct session *sess)
{
    struct sim_run s;
    memset(&s, 0, sizeof(s));
    int status = 0;
    s.eng = a->eng;
    s.events = a->events;
    s.nevents = a->nevents;
    s.rows = xcalloc((size_t)noccurrence_sim_rows, sizeof(*s.rows));
    for (int i = 0; i < noccurrence_sim_rows; i++)
        if (occurrence_sim_rules(&occurrence_sim_rows[i], &s.rows[i]))
            pm_fatal("penalties/occurrence_sim.c:%d: the row's rules do not parse (a build bug)",
                     occurrence_sim_rows[i].line);
    if (begin_manifest(sess, a, &s)) {
        sim_run_free(&s);
        return session_end(sess, 1, SESSION_NO_MANIFEST);
    }
    s.tap = &sess->tap;
    s.eng->dir = &sess->dir;
    s.eng->tap = s.tap;
    s.eng->on_measurement = take_measurement;
    s.eng->arg = &s;
    tap_comment(s.tap, "pmucal calibrate --source %s: the recipes' cases under the %s source (%llu iterations, %d "
                "repetitions), their occurrences checked against penalties/occurrence_sim.c; results in %s",
                s.eng->src->name, s.eng->src->name, (unsigned long long)s.eng->mopts.iters, s.eng->mopts.repetitions,
                sess->dir.path);
    bool stopped = false;
    for (int i = 0; i < nrecipes; i++)
        s.recipes += recipe_wanted(&recipes[i], a->only, a->nonly);
    for (int i = 0; i < nrecipes && !stopped; i++) {
        const struct recipe *rc = &recipes[i];
        if (!recipe_wanted(rc, a->only, a->nonly))
            continue;
        s.recipe++;
        tap_comment(s.tap, "recipe %s: issue %s, control %s, occurrences %s", rc->name, rc->issue,
                    rc->control ? rc->control : "none", rc->occurrence);
        const struct sim_case *is = measure_case(&s, rc, rc->issue), *co = NULL;
        if (rc->control && is->status != CASE_INTERRUPTED)
            co = measure_case(&s, rc, rc->control);
        stopped = is->status == CASE_INTERRUPTED || (co && co->status == CASE_INTERRUPTED) || stop_requested() ||
                  s.eng->write_failed;
        if (!stopped)
            occurrence_verdict(&s, rc, is, co);
    }
    tap_comment(s.tap, "occurrences: %d checked under sim, %d wrong, %d not checkable under sim", s.checked, s.wrong,
                s.uncheckable);
    tap_comment(s.tap, "summary: %d ok, %d not ok, %d skip, %d todo, %d info; %d measurements in %s", s.tap->ok,
                s.tap->not_ok, s.tap->skip, s.tap->todo, s.tap->info, s.eng->measurements, sess->dir.path);
    json_int(&sess->dir.manifest, "measurements", s.eng->measurements);
    json_int(&sess->dir.manifest, "failures", s.eng->failures);
    json_int(&sess->dir.manifest, "occurrences_checked", s.checked);
    json_int(&sess->dir.manifest, "occurrences_wrong", s.wrong);
    json_int(&sess->dir.manifest, "occurrences_not_checkable", s.uncheckable);
    if (stop_requested()) {
        tap_bail(s.tap, "stopped by %s; %d finished measurements are kept in %s", stop_signal_name(),
                 s.eng->measurements, sess->dir.path);
        status = session_stopped(sess, stop_signal_name());
    } else {
        tap_plan(s.tap);
        bool lost = s.eng->write_failed || s.tap->write_failed;
        const char *why = lost ? "results could not be written (disk full?)"
                        : s.eng->failures ? "a case could not be measured" : NULL;
        status = session_end(sess, s.tap->not_ok || s.eng->failures || lost ? 1 : 0, why);
    }
    sim_run_free(&s);
    return status;
}
