/* The scheduler: groups of N under counter restrictions, shared MSRs, fixed-only events and
 * learned conflicts; and schedule_info's restrictions for real libpfm4 encodings. */
#include "events/pfm.h"
#include "tap.h"
#include "validate/schedule.h"
#include <stdlib.h>
#include <string.h>

#define MAXEV 16

/* One row: events as "name/counters-mask/resource/capacity/slot", the group size, the counters of
 * the PMU, learned conflict (names joined by '+', or NULL), and the groups wanted ("a,b|c"). */
static const struct {
    int line;
    const char *events;
    int group_size, ncounters;
    const char *learned;
    const char *want;
} rows[] = {
    {__LINE__, "a b c d e f g h i j", 4, 4, NULL, "a,b,c,d|e,f,g,h|i,j"},
    {__LINE__, "a b c", 4, 4, NULL, "a,b,c"},
    {__LINE__, "a b c d e", 2, 4, NULL, "a,b|c,d|e"},
    /* software events take no counter and ride in the last group */
    {__LINE__, "a sw:s b c d e", 4, 4, NULL, "a,b,c,d|e,s"},
    /* two events that may only use counter 0 cannot share a group; others fill in */
    {__LINE__, "x/1 y/1 a b c", 4, 4, NULL, "x,a,b,c|y"},
    /* counters 0-1 only for three events: the third goes to the next group */
    {__LINE__, "x/3 y/3 z/3 a", 4, 4, NULL, "x,y,a|z"},
    /* an event restricted to counter 4..7 fits beside four unrestricted ones only when N allows */
    {__LINE__, "a b c d h/240", 4, 8, NULL, "a,b,c,d|h"},
    {__LINE__, "a b c d h/240", 5, 8, NULL, "a,b,c,d,h"},
    /* offcore: two MSRs per core, so at most two offcore events a group, interleaved */
    {__LINE__, "o1/0/422/2 o2/0/422/2 o3/0/422/2 a b c", 4, 4, NULL, "o1,o2,a,b|o3,c"},
    /* load latency and front-end MSRs: one each per group */
    {__LINE__, "l1/0/1014/1 l2/0/1014/1 f1/0/1015/1 f2/0/1015/1", 4, 4, NULL, "l1,f1|l2,f2"},
    /* fixed-counter-only events take no programmable counter, one per fixed counter */
    {__LINE__, "a b c d fx:t/0/259/1 fx:u/0/259/1", 4, 4, NULL, "a,b,c,d,t|u"},
    /* learned: a, b and c together never ran; the rest still packs */
    {__LINE__, "a b c d e", 4, 4, "a+b+c", "a,b,d,e|c"},
    {__LINE__, "a b c d", 4, 4, "a+b", "a,c,d|b"},
    {__LINE__, "", 4, 4, NULL, ""},
};

static void parse(const char *text, struct event_spec *ev, struct sched_info *info, int *n)
{
    char *copy = strdup(text), *save;
    *n = 0;
    for (char *tok = strtok_r(copy, " ", &save); tok && *n < MAXEV; tok = strtok_r(NULL, " ", &save)) {
        struct event_spec *e = &ev[*n];
        struct sched_info *in = &info[*n];
        memset(e, 0, sizeof(*e));
        memset(in, 0, sizeof(*in));
        bool soft = !strncmp(tok, "sw:", 3), fixed = !strncmp(tok, "fx:", 3);
        if (soft || fixed)
            tok += 3;
        char *slash = strchr(tok, '/');
        if (slash)
            *slash = '\0';
        e->name = strdup(tok);
        e->programmable = !soft;
        in->slot = !soft && !fixed;
        if (slash) {
            char *p = slash + 1;
            in->counters = (uint32_t)strtoul(p, &p, 10);
            if (*p == '/')
                in->resource = (unsigned)strtoul(p + 1, &p, 10);
            if (*p == '/')
                in->capacity = (int)strtol(p + 1, &p, 10);
        }
        (*n)++;
    }
    free(copy);
}

int main(void)
{
    for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        struct event_spec ev[MAXEV];
        struct sched_info info[MAXEV];
        int n;
        parse(rows[r].events, ev, info, &n);
        struct sched_learned learned = {0};
        if (rows[r].learned) {
            struct event_spec *set[MAXEV];
            int k = 0;
            char *copy = strdup(rows[r].learned), *save;
            for (char *tok = strtok_r(copy, "+", &save); tok; tok = strtok_r(NULL, "+", &save))
                for (int i = 0; i < n; i++)
                    if (!strcmp(ev[i].name, tok))
                        set[k++] = &ev[i];
            free(copy);
            sched_learn(&learned, set, k, "test");
        }
        struct schedule s;
        schedule_build(ev, info, n, rows[r].group_size, rows[r].ncounters, &learned, &s);
        char got[512] = "";
        for (int g = 0; g < s.ngroups; g++)
            for (int j = 0; j < s.count[g]; j++)
                snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", j ? "," : g ? "|" : "",
                         ev[s.order[s.start[g] + j]].name);
        CHECK(!strcmp(got, rows[r].want), rows[r].line, "'%s' by %d: got '%s' want '%s'", rows[r].events,
              rows[r].group_size, got, rows[r].want);
        schedule_free(&s);
        sched_learned_free(&learned);
        for (int i = 0; i < n; i++)
            free(ev[i].name);
    }

    /* Restrictions from real encodings: skl forced offline. */
    static const struct {
        int line;
        const char *event;
        unsigned resource;
        int capacity;
    } enc[] = {
        {__LINE__, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_ANY", 0x1a6, 2},
        {__LINE__, "OFFCORE_RESPONSE_1:DMND_RFO:L3_HIT:SNP_ANY", 0x1a6, 2},
        {__LINE__, "FRONTEND_RETIRED:L1I_MISS", 0x3f7, 1},
        {__LINE__, "MEM_LOAD_RETIRED:L2_HIT", 0, 0},
        {__LINE__, "INST_RETIRED:ANY_P", 0, 0},
    };
    bool forced = pfm_force("skl");
    CHECK(forced, __LINE__, "libpfm4 forced to skl");
    for (unsigned i = 0; i < sizeof(enc) / sizeof(enc[0]); i++) {
        struct event_spec spec = {0};
        char err[512];
        int rc = pfm_encode(enc[i].event, &spec, err, sizeof(err));
        CHECK(rc == 0, enc[i].line, "%s encodes %s", enc[i].event, rc ? err : "");
        struct sched_info in;
        schedule_info(&spec, "skl", NULL, 8, &in);
        CHECK(in.slot && in.resource == enc[i].resource && in.capacity == enc[i].capacity, enc[i].line,
              "%s: resource 0x%x capacity %d (%s)", enc[i].event, in.resource, in.capacity, in.why);
        event_spec_clear(&spec);
    }
    return done_testing();
}
