#include "schedule.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

void schedule_groups(struct event_spec *events, int n, int group_size, struct schedule *s)
{
    memset(s, 0, sizeof(*s));
    if (group_size < 1)
        group_size = 1;
    /* Programmable events first, in the order given; software events fill in after. */
    struct event_spec *sorted = xmalloc(sizeof(*sorted) * (n ? n : 1));
    int k = 0, nprog = 0;
    for (int i = 0; i < n; i++)
        if (events[i].programmable)
            sorted[k++] = events[i];
    nprog = k;
    for (int i = 0; i < n; i++)
        if (!events[i].programmable)
            sorted[k++] = events[i];
    memcpy(events, sorted, sizeof(*sorted) * n);
    free(sorted);
    int ngroups = nprog ? (nprog + group_size - 1) / group_size : (n ? 1 : 0);
    s->ngroups = ngroups;
    s->start = xcalloc(ngroups ? ngroups : 1, sizeof(int));
    s->count = xcalloc(ngroups ? ngroups : 1, sizeof(int));
    for (int g = 0; g < ngroups; g++) {
        s->start[g] = g * group_size;
        s->count[g] = nprog - g * group_size < group_size ? nprog - g * group_size : group_size;
    }
    /* Software events join the last group (they never compete for counters). */
    if (ngroups)
        s->count[ngroups - 1] += n - nprog;
}

void schedule_free(struct schedule *s)
{
    free(s->start);
    free(s->count);
    memset(s, 0, sizeof(*s));
}
