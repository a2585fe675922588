/* pmucal modeldiff: two models' event tables compared for a bring-up (TAP or a table). */
#include "cli.h"
#include "modeldiff.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

static int modeldiff_main(int argc, char **argv);

static const struct command modeldiff_command = {
    .name = "modeldiff",
    .fn = modeldiff_main,
    .summary = "compare two models' event tables: re-encoded, re-meant, new and removed events",
    .usage = "pmucal modeldiff OLDER NEWER [--table] [--quiet]\n\n"
             "Each side is a libpfm4 PMU (amd64_fam19h_zen4, skl, ...), a vendor table by name under\n"
             "$PMUCAL_EVENTDATA (amdzen4, amdzen5, SKL, ...; default ../shared/eventdata) or a JSON file or\n"
             "folder (Linux perf pmu-events, Intel perfmon). Events are matched by name (any case, ':' as\n"
             "'.'), then by encoding (event, umask, cmask, inv, edge, MSR value):\n"
             "  not ok  changed: the same name with another encoding\n"
             "  not ok  re-meant: an older encoding under a new name whose unit-mask name and description\n"
             "          differ: the code now counts something else (both descriptions are printed)\n"
             "  ok      same, or renamed (only the event's prefix changed, or the description is the same)\n"
             "  # new / # removed  on one side only (TAP comments)\n"
             "--table prints one aligned row per difference instead of TAP; --quiet only the not ok lines\n"
             "and totals. Exit status 0 when nothing changed or was re-meant, 1 otherwise, 2 on bad input.\n\n"
             "Example:\n"
             "  pmucal modeldiff amdzen4 amdzen5\n"
             "  pmucal modeldiff amd64_fam19h_zen4 ../shared/eventdata/amd/amdzen5 --table\n",
};
PMUCAL_COMMAND(modeldiff_command)

static int modeldiff_main(int argc, char **argv)
{
    const char *side[2] = {NULL, NULL};
    bool table = false, quiet = false;
    int nside = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--table"))
            table = true;
        else if (!strcmp(argv[i], "--quiet"))
            quiet = true;
        else if (argv[i][0] == '-' || nside == 2)
            return cli_usage_error(&modeldiff_command, "unknown argument %s", argv[i]);
        else
            side[nside++] = argv[i];
    }
    if (nside != 2)
        return cli_usage_error(&modeldiff_command, "give two tables: OLDER NEWER (e.g. amdzen4 amdzen5)");
    struct model_side a, b;
    if (model_side_load(&a, side[0]))
        return 2;
    if (model_side_load(&b, side[1])) {
        model_side_free(&a);
        return 2;
    }
    struct tap t = {.out = stdout};
    struct model_diff_counts c;
    if (!table)
        tap_comment(&t, "pmucal modeldiff: %s (%d events) -> %s (%d events)", a.label, a.n, b.label, b.n);
    model_diff(&a, &b, &t, quiet, table ? stdout : NULL, &c);
    if (!table)
        tap_plan(&t);
    printf("# totals %s -> %s: same %d, changed %d, re-meant %d, renamed %d, new %d, removed %d\n", a.label, b.label,
           c.same, c.changed, c.remeant, c.renamed, c.added, c.removed);
    model_side_free(&a);
    model_side_free(&b);
    return c.changed || c.remeant ? 1 : 0;
}
