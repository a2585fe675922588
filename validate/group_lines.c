/* An event list's groups as perf stat -e lines (validate/group_lines.h). */
#include "validate/group_lines.h"
#include "base/util.h"
#include "events/perfsyntax.h"
#include "validate/schedule.h"
#include <stdio.h>
#include <stdlib.h>

void group_lines_print(const struct event_spec *ev, int n, const struct engine *eng, bool why, bool names)
{
    struct sched_info *info = xcalloc((size_t)(n ? n : 1), sizeof(*info));
    for (int k = 0; k < n; k++) {
        schedule_info(&ev[k], eng->pmu, eng->vt, eng->ncounters, &info[k]);
        if (why && info[k].why[0])
            printf("# %s: %s\n", ev[k].name, info[k].why);
    }
    struct schedule s;
    schedule_build(ev, info, n, eng->group_size, eng->ncounters, NULL, &s);
    for (int g = 0; g < s.ngroups; g++) {
        if (why) {
            printf("# group %d:", g + 1);
            for (int j = 0; j < s.count[g]; j++)
                printf("%s %s", j ? "," : "", ev[s.order[s.start[g] + j]].name);
            printf("\n");
        }
        /* Uncore events count the socket, CPU-wide: perf groups none with a task's events, so
         * they follow the group's braces, as pmucal opens them apart. */
        int core = 0, printed = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int j = 0; j < s.count[g]; j++) {
                const struct event_spec *one = &ev[s.order[s.start[g] + j]];
                if ((pass == 1) != (one->uncore[0] != 0))
                    continue;
                if (pass == 1 && core && !names)
                    printf("}");
                char *perf = names ? xstrdup(one->name) : perf_syntax_of(one);
                printf("%s%s%s", printed ? "," : "", pass == 0 && !core && !names ? "{" : "", perf);
                free(perf);
                core += pass == 0;
                core = pass == 1 ? 0 : core;
                printed++;
            }
        printf("%s\n", core && !names ? "}" : "");
    }
    schedule_free(&s);
    free(info);
}
