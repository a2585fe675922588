#include "runs/sample_record.h"
#include "base/json.h"
#include "core/quantity.h"
#include "base/util.h"
#include "runs/resume.h"
#include <math.h>
#include <string.h>

int sample_record_write(FILE *out, const struct sample_record *r)
{
    const struct site_map *m = r->map;
    int q = r->quantity;
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    json_string(&j, "kind", "sample");
    json_string(&j, "case", r->label);
    json_string(&j, "event", r->ev->name);
    json_string(&j, "canonical", r->ev->canonical);
    json_uint(&j, "type", r->ev->type);
    json_uint(&j, "config", r->ev->config);
    json_int(&j, "precise_ip", r->precise_ip);
    json_int(&j, "precise_levels", r->precise_levels);
    json_uint(&j, "period", r->period);
    json_uint(&j, "iters", r->iters);
    json_int(&j, "reps", r->reps);
    json_uint(&j, "count", r->count);
    json_uint(&j, "samples", r->stream->n);
    json_uint(&j, "lost", r->stream->lost);
    json_uint(&j, "lost_records", r->stream->lost_records);
    json_uint(&j, "throttle", r->stream->throttle);
    json_uint(&j, "unthrottle", r->stream->unthrottle);
    json_string(&j, "quantity", q >= 0 ? quantity_name(q) : NULL);
    json_string(&j, "perturbed", r->perturbed);
    if (m) {
        json_array_begin(&j, "histogram");   /* per loop instruction, by offset from the loop's start */
        for (int i = 0; i < m->n; i++) {
            json_object_begin(&j, NULL);
            json_int(&j, "inst", i);
            json_string(&j, "what", m->what[i]);
            json_uint(&j, "offset", m->addr[i] - m->addr[0]);
            json_number(&j, "weight", q >= 0 ? m->weight[i][q] : NAN);
            json_uint(&j, "samples", r->hist_at[i]);
            json_object_end(&j);
        }
        json_array_end(&j);
        json_uint(&j, "outside", r->hist_outside);
        json_array_begin(&j, "skid");
        for (int d = 0; q >= 0 && d < m->n; d++)
            json_uint(&j, NULL, r->skid[d]);
        json_array_end(&j);
        json_number(&j, "skid_mean", r->skid_mean);
        json_number(&j, "shadow_p", r->shadow_p);
    }
    json_array_begin(&j, "ticks_sampling");
    for (int i = 0; i < r->reps; i++)
        json_number(&j, NULL, r->ticks_sampling[i]);
    json_array_end(&j);
    json_array_begin(&j, "ticks_counting");
    for (int i = 0; i < r->reps; i++)
        json_number(&j, NULL, r->ticks_counting[i]);
    json_array_end(&j);
    json_number(&j, "overhead_ns_per_sample", r->overhead_ns);
    json_object_begin(&j, "verdicts");
    for (int i = 0; i < r->nverdicts; i++) {
        const struct sample_record_verdict *v = &r->verdicts[i];
        json_string(&j, v->what, verdict_name(v->judged ? v->kind : VERDICT_INFO));
    }
    json_object_end(&j);
    json_object_begin(&j, "verdict_texts");
    for (int i = 0; i < r->nverdicts; i++)
        json_string(&j, r->verdicts[i].what, r->verdicts[i].text);
    json_object_end(&j);
    json_object_end(&j);
    int rc = record_line_append(out, &j);
    json_free(&j);
    return rc;
}

int sample_record_verdicts(const struct jvalue *rec, struct sample_record_verdict v[3])
{
    static const char *const whats[] = {"rate", "skid", "shadow"};
    const struct jvalue *kinds = jget(rec, "verdicts"), *texts = jget(rec, "verdict_texts");
    if (!kinds || kinds->type != J_OBJECT || kinds->n < 1 || kinds->n > 3)
        return -1;
    for (int i = 0; i < kinds->n; i++) {
        const char *text = jstr(jget(texts, whats[i]));
        enum verdict kind;
        /* The writer says ok, not ok or info: a skip or todo would fail nothing on replay. */
        if (strcmp(kinds->keys[i], whats[i]) || !verdict_parse(jstr(&kinds->items[i]), &kind) || !text ||
            kind == VERDICT_SKIP || kind == VERDICT_TODO)
            return -1;
        v[i] = (struct sample_record_verdict){whats[i], kind != VERDICT_INFO, kind, text};
    }
    return kinds->n;
}

static bool same_measurement(const struct jvalue *rec, const char *label, const char *event, int level)
{
    return !strcmp(jget_str(rec, "case", ""), label) && !strcmp(jget_str(rec, "event", ""), event) &&
           jget_num(rec, "precise_ip", -1) == level;
}

static bool keep_first_whole(const struct jvalue *rec, void *ctx)
{
    const struct resume *rs = ctx;
    struct sample_record_verdict v[3];
    if (sample_record_verdicts(rec, v) < 0)
        return false;
    for (int i = 0; i < rs->nrec; i++)
        if (same_measurement(rs->rec[i], jstr(jget(rec, "case")), jstr(jget(rec, "event")),
                             (int)jget_num(rec, "precise_ip", -1)))
            return false;
    return true;
}

int sample_resume_records(struct resume *rs)
{
    if (resume_claim(rs) || resume_records(rs, sample_line_next, keep_first_whole, rs))
        return 2;
    rs->cases_kept = rs->records_kept;   /* each record is one finished (case, event, level) */
    return 0;
}

int sample_resume_stream(const struct resume *rs, const char *perturbed)
{
    const char *then = jget_str(jget(rs->manifest, "sample"), "perturbed", NULL);
    if (!strcmp(then ? then : "", perturbed ? perturbed : ""))
        return 0;
    pm_error("--resume %s: its samples were taken with PMUCAL_SAMPLE_PERTURB='%s', this process has '%s' ('': unset): "
             "records of a stream altered one way and another do not make one run; set it as the run had it", rs->run,
             then ? then : "", perturbed ? perturbed : "");
    return -1;
}

const struct jvalue *sample_resume_take(struct resume *rs, const char *label, const char *event, int level)
{
    for (int i = 0; i < rs->nrec; i++)
        if (!rs->replayed[i] && same_measurement(rs->rec[i], label, event, level)) {
            rs->replayed[i] = true;
            return rs->rec[i];
        }
    return NULL;
}
