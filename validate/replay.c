#include "validate/replay.h"
#include "base/util.h"
#include "runs/record.h"
#include <stdlib.h>

int replay_record(struct engine *e, const struct jvalue *rec, const char *label, struct verdict *vs)
{
    struct record_measurement *r = xmalloc(sizeof(*r));
    int n = -1;
    if (!record_measurement(rec, r)) {
        engine_judge(e, &r->m, &r->q, vs);
        engine_report(e, label, &r->m, vs);
        n = r->m.nevents;
    }
    record_measurement_clear(r);
    free(r);
    return n;
}
