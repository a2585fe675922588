/* pmucal tablediff: two event tables (of two CPUs) compared for a bring-up (TAP or a table). */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "events/table_diff.h"
#include <stdio.h>
#include <string.h>

static int tablediff_main(int argc, char **argv);

enum { K_TABLE = CLI_LONG, K_QUIET };

static const struct cli_option tablediff_options[] = {
    {"table", K_TABLE, NULL, "one aligned row per difference instead of TAP"},
    {"quiet", K_QUIET, NULL, "only the not ok lines and the totals"},
    CLI_END,
};

const struct command tablediff_command = {
    .name = "tablediff",
    .fn = tablediff_main,
    .summary = "compare two CPUs' event tables: re-encoded, re-meant, new and removed events",
    .synopsis = "OLDER NEWER [options]",
    .usage = "Each side is a libpfm4 PMU (amd64_fam19h_zen4, skl, ...), a vendor table by name under\n"
             "$PMUCAL_EVENTDATA (amdzen4, amdzen5, SKL, ...; default the eventdata/ pmucal ships) or a JSON file or\n"
             "folder (Linux perf pmu-events, Intel perfmon). Events are matched by name (any case, ':' as\n"
             "'.'), then by encoding (event, umask, cmask, inv, edge, MSR value):\n"
             "  not ok  changed: the same name with another encoding\n"
             "  not ok  re-meant: an older encoding under a new name whose unit-mask name and description\n"
             "          differ: the code now counts something else (both descriptions are printed)\n"
             "  ok      same, or renamed (only the event's prefix changed, or the description is the same)\n"
             "  # new / # removed  on one side only (TAP comments)\n"
             "Exit status 0 when nothing changed or was re-meant, 1 otherwise, 2 on bad input. The old name\n"
             "'pmucal modeldiff' still runs it, with a note.\n",
    .options = tablediff_options,
    .examples = "  pmucal tablediff amdzen4 amdzen5\n"
                "  pmucal tablediff amd64_fam19h_zen4 eventdata/amd/amdzen5 --table\n",
};

struct tablediff_args {
    bool table, quiet;
};

static int tablediff_option(void *ctx, int key, const char *value)
{
    (void)value;
    struct tablediff_args *a = ctx;
    a->table |= key == K_TABLE;
    a->quiet |= key == K_QUIET;
    return 0;
}

static int tablediff_main(int argc, char **argv)
{
    struct tablediff_args o = {0};
    struct cli_args pos;
    if (cli_parse(&tablediff_command, argc, argv, tablediff_option, &o, &pos))
        return 2;
    if (pos.n != 2) {
        int rc = cli_usage_error(&tablediff_command, "give two tables, OLDER NEWER (e.g. amdzen4 amdzen5; got %d)",
                                 pos.n);
        cli_args_free(&pos);
        return rc;
    }
    const char *side[2] = {pos.v[0], pos.v[1]};
    bool table = o.table, quiet = o.quiet;
    struct model_side a, b;
    if (model_side_load(&a, side[0])) {
        cli_args_free(&pos);
        return 2;
    }
    if (model_side_load(&b, side[1])) {
        model_side_free(&a);
        cli_args_free(&pos);
        return 2;
    }
    struct tap t = {.out = stdout};
    struct model_diff_counts c;
    if (!table)
        tap_comment(&t, "pmucal tablediff: %s (%d events) -> %s (%d events)", a.label, a.n, b.label, b.n);
    model_diff(&a, &b, &t, quiet, table ? stdout : NULL, &c);
    if (!table)
        tap_plan(&t);
    printf("# totals %s -> %s: same %d, changed %d, re-meant %d, renamed %d, new %d, removed %d\n", a.label, b.label,
           c.same, c.changed, c.remeant, c.renamed, c.added, c.removed);
    model_side_free(&a);
    model_side_free(&b);
    cli_args_free(&pos);
    return c.changed || c.remeant ? 1 : 0;
}
