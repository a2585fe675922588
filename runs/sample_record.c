#include "runs/sample_record.h"
#include "base/json.h"
#include "core/quantity.h"
#include <math.h>

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
    json_object_end(&j);
    int rc = json_write_line(&j, out);
    json_free(&j);
    return rc ? -1 : 0;
}
