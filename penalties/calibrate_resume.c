/* calibrate --resume RUN: every case calibrate measures is one engine record keyed
 * "text|event|pass"; a resumed calibration takes the cases it finds there instead of measuring
 * them, and fits the penalties from them with the same seeds. */
#include "base/util.h"
#include "host/clock.h"
#include "penalties/penalty_fit.h"
#include "runs/record.h"
#include "runs/resume.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A case's record is whole once written (a calibration case is one group); records of another
 * pmucal without a key cannot be matched to a case. A key seen twice keeps its first record. */
static bool keep_keyed(const struct jvalue *rec, void *ctx)
{
    struct resume *rs = ctx;
    const char *key = jstr(jget(rec, "key"));
    if (!key)
        return false;
    for (int i = 0; i < rs->nrec; i++)
        if (!strcmp(jget_str(rs->rec[i], "key", ""), key))
            return false;
    return true;
}

int cal_resume_records(struct resume *rs)
{
    if (resume_claim(rs) || resume_records(rs, record_line_next, keep_keyed, rs))
        return 2;
    rs->cases_kept = rs->records_kept;
    return 0;
}

bool cal_case_from_record(struct cal *cal, struct case_result *r, const char *event)
{
    struct resume *rs = cal->resume;
    /* Keyed "text|event|pass"; a build before independent passes keyed by the text alone, one record a
     * pass in order. */
    int at = -1;
    for (int i = 0; i < rs->nrec && at < 0 && r->key; i++)
        if (!rs->replayed[i] && !strcmp(jget_str(rs->rec[i], "key", ""), r->key))
            at = i;
    for (int i = 0; i < rs->nrec && at < 0; i++)
        if (!rs->replayed[i] && !strcmp(jget_str(rs->rec[i], "key", ""), r->text))
            at = i;
    if (at < 0)
        return false;
    const struct jvalue *rec = rs->rec[at];
    struct record_measurement *rm = xmalloc(sizeof(*rm));
    bool ok = record_measurement(rec, rm) == 0;
    if (ok) {
        double tsc_hz = jget_num(jget(rec, "cycles"), "tsc_hz", NAN);
        if (isnan(tsc_hz))   /* a record of an older pmucal: this host's counter, which resume runs on */
            tsc_hz = clock_get()->tsc_hz;
        case_result_fill(r, &rm->m, &rm->q, tsc_hz, jget_str(rec, "case", ""), jget_str(rec, "detail", ""));
        r->event.asked = event != NULL;
        if (event && !r->event.counted && !r->event.why[0])
            snprintf(r->event.why, sizeof(r->event.why), "not measured");
        r->status = CASE_OK;
        rs->replayed[at] = true;
    } else {
        pm_warn("--resume %s: the record of '%s' is malformed; the case is measured again", rs->run, r->text);
    }
    record_measurement_clear(rm);
    free(rm);
    return ok;
}
