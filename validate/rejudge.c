#include "validate/rejudge.h"
#include "base/util.h"
#include "runs/record.h"
#include "runs/resume.h"
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
