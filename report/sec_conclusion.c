/* The page's conclusion, first: PASS when every run ended and no point failed, else FAIL; each run's
 * verdicts counted by kind as TAP means them (a TODO or a SKIP fails nothing), and every failing
 * point with its reason. The job's page ('make run') opens with it, before any run's details. */
#include "report/report.h"
#include <string.h>

void sec_conclusion(FILE *f, const struct runfile *runs, int n)
{
    int failing = 0, unfinished = 0;
    for (int i = 0; i < n; i++) {
        char why[256];
        unfinished += !manifest_complete(runs[i].manifest, why, sizeof(why));
        for (int k = 0; k < runs[i].ncells; k++)
            failing += runs[i].cells[k].kind == VERDICT_NOT_OK;
    }
    section_begin(f, "conclusion", 0, "Conclusion");
    if (!failing && !unfinished)
        html_printf(f, "<p><span class=\"badge ok\">PASS</span> every run ended and no point failed (TODO and "
                       "SKIP points fail nothing).</p>\n");
    else
        html_printf(f, "<p><span class=\"badge nok\">FAIL</span> %d point%s not ok, %d run%s not complete.</p>\n",
                    failing, failing == 1 ? "" : "s", unfinished, unfinished == 1 ? "" : "s");
    fputs("<ul>\n", f);
    for (int i = 0; i < n; i++) {
        int count[VERDICTS] = {0};
        for (int k = 0; k < runs[i].ncells; k++)
            count[runs[i].cells[k].kind]++;
        const char *base = strrchr(runs[i].path, '/');
        char why[256];
        fputs("<li><b>", f);
        html_text(f, base ? base + 1 : runs[i].path);
        fputs("</b>: ", f);
        if (!manifest_complete(runs[i].manifest, why, sizeof(why))) {
            fputs("<span class=\"nok\">", f);
            html_text(f, why);
            fputs("</span>; ", f);
        }
        html_printf(f, "%d ok, %d not ok, %d todo, %d skip", count[VERDICT_OK], count[VERDICT_NOT_OK], count[VERDICT_TODO],
                    count[VERDICT_SKIP]);
        for (int k = 0, shown = 0; k < runs[i].ncells; k++) {
            if (runs[i].cells[k].kind != VERDICT_NOT_OK)
                continue;
            fputs(shown++ ? "<br>" : "<br><span class=\"nok\">not ok:</span> ", f);
            html_text(f, runs[i].cells[k].text);
        }
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
    section_end(f);
}
