#include "validate/rejudge.h"
#include "base/util.h"
#include "runs/record.h"
#include "runs/resume.h"
#include "runs/runfile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int replay_record(struct engine *eng, const struct jvalue *rec, const char *label, struct event_verdict *vs)
{
    struct record_measurement *r = xmalloc(sizeof(*r));
    int n = -1;
    if (!record_measurement(rec, r)) {
        engine_judge(eng, &r->m, &r->q, vs);
        engine_report(eng, label, &r->m, vs);
        n = r->m.nevents;
    }
    record_measurement_clear(r);
    free(r);
    return n;
}

int resume_replay(struct resume *r, struct engine *eng, const char *label)
{
    struct event_verdict vs[GROUP_MAX_EVENTS];
    int reported = 0;
    for (int i = 0; i < r->nrec && reported >= 0; i++) {
        if (r->replayed[i] || strcmp(jstr(jget(r->rec[i], "case")), label))
            continue;
        if (replay_record(eng, r->rec[i], label, vs) < 0) {
            pm_error("--resume %s: a record of '%s' is malformed (iters, repetitions, per_iter); start a new run",
                     r->run, label);
            reported = -1;
        } else {
            r->replayed[i] = true;
            reported++;
        }
    }
    return reported;
}

static bool record_holds(const struct jvalue *rec, const char *case_label, const char *event)
{
    const struct jvalue *evs = jget(rec, "events");
    if (!case_label || !event || strcmp(jstr(jget(rec, "case")) ? jstr(jget(rec, "case")) : "", case_label))
        return false;
    for (int k = 0; evs && evs->type == J_ARRAY && k < evs->n; k++)
        if (!strcmp(jget_str(&evs->items[k], "name", ""), event))
            return true;
    return false;
}

/* A stored SKIP line no record holds (a case skipped at set-up, the hardware events taken out
 * before measuring), printed again as the run printed it. */
static void stored_skip(struct tap *tap, const struct vcell *c)
{
    const char *dir = strstr(c->text, " # SKIP");
    char *desc = xasprintf("%.*s", dir ? (int)(dir - c->text) : (int)strlen(c->text), c->text);
    const char *reason = dir ? dir + 7 : "";
    tap_point(tap, VERDICT_SKIP, desc, *reason == ' ' ? reason + 1 : reason);
    free(desc);
}

/* Record i judged again and reported; a changed verdict counted into *changed and noted. 0, or 2
 * after a message for a malformed record. */
static int replay_one(struct engine *eng, struct tap *tap, const struct runfile *run, int i, int *changed)
{
    struct event_verdict vs[GROUP_MAX_EVENTS];
    const struct jvalue *rec = run->rec[i], *evs = jget(rec, "events");
    const char *label = jstr(jget(rec, "case"));
    int n = replay_record(eng, rec, label, vs);
    if (n < 0) {
        pm_error("%s/measurements.ndjson: record %d (%s) is malformed (iters, repetitions, per_iter)", run->path,
                 i + 1, label);
        return 2;
    }
    for (int k = 0; k < n; k++) {
        enum verdict was;
        if (record_event_verdict(&evs->items[k], &was) && was != vs[k].kind && ++*changed)
            tap_comment(tap, "verdict changed since the run: %s :: %s %s -> %s", label,
                        jget_str(&evs->items[k], "name", "?"), verdict_name(was), verdict_name(vs[k].kind));
    }
    return 0;
}

int rejudge_run(struct engine *eng, struct tap *tap, struct runfile *run, int *changed)
{
    /* The stored TAP gives the order: each record is judged where its first line was, and the
     * SKIP lines no record holds are printed again in their place. */
    char *tap_path = xasprintf("%s/validate.tap", run->path), err[512];
    size_t tap_len;
    char *stored = run_file_read(run->path, "validate.tap", &tap_len, err, sizeof(err));
    if (stored && tap_parse(run, stored, tap_path))
        runfile_cells_free(run);   /* a damaged validate.tap: the records alone, in their order */
    free(stored);
    free(tap_path);
    bool *done = xcalloc((size_t)run->nrec + 1, sizeof(*done));
    int status = 0;
    for (int c = 0; c <= run->ncells && !status; c++) {
        const struct vcell *cell = c < run->ncells ? &run->cells[c] : NULL;
        if (cell && cell->kind == VERDICT_INFO)
            continue;
        int r = 0;
        while (cell && r < run->nrec && !record_holds(run->rec[r], cell->case_label, cell->event))
            r++;
        if (cell && r == run->nrec) {   /* no record holds it */
            if (cell->kind == VERDICT_SKIP)
                stored_skip(tap, cell);
            continue;
        }
        /* This record (at the end: every record not judged yet, in order). */
        for (int i = cell ? r : 0; i < (cell ? r + 1 : run->nrec) && !status; i++)
            if (!done[i]) {
                done[i] = true;
                status = replay_one(eng, tap, run, i, changed);
            }
    }
    free(done);
    return status;
}

/* The verdict lines judged again against the stored ones, in order: each that differs in kind or
 * text is noted; how many differ. */
int rejudge_verdicts_changed(struct tap *tap, const struct runfile *stored, const struct runfile *again)
{
    int changed = 0, n = stored->ncells > again->ncells ? stored->ncells : again->ncells;
    for (int i = 0; i < n; i++) {
        const struct vcell *was = i < stored->ncells ? &stored->cells[i] : NULL;
        const struct vcell *now = i < again->ncells ? &again->cells[i] : NULL;
        if (was && now && was->kind == now->kind && !strcmp(was->text, now->text))
            continue;
        changed++;
        tap_comment(tap, "verdict changed since the run: %s '%s' -> %s '%s'", was ? verdict_name(was->kind) : "(none)",
                    was ? was->text : "", now ? verdict_name(now->kind) : "(none)", now ? now->text : "");
    }
    return changed;
}
