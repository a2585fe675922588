/* pmucal expect check: the shipped (or named) rule files, offline: every event encodes for
 * its PMU (libpfm4, forced with LIBPFM_FORCE_PMU) or its counter source, every quantity exists. */
#include "base/tap.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "validate/rule_lint.h"
#include <stdio.h>
#include <string.h>

static int expect_main(int argc, char **argv);

const struct command expect_command = {
    .name = "expect",
    .fn = expect_main,
    .summary = "check rule files offline: events encode, quantities exist (TAP)",
    .synopsis = "check [FILE ...]",
    .usage = "Without FILE, every validate/expect/*.txt (or $PMUCAL_EXPECT_DIR/*.txt). A file is named\n"
             "after its libpfm4 PMU (skl.txt, amd64_fam19h_zen4.txt), its counter source (sim.txt) or,\n"
             "for a model libpfm4 does not know, its vendor table under $PMUCAL_EVENTDATA (amdzen5.txt:\n"
             "the table's event names, perf's generic names and perf syntax such as cpu/event=0x45,umask=0x0f/).\n"
             "For each rule: the event encodes for that PMU (LIBPFM_FORCE_PMU, so any PMU checks on any\n"
             "host) or resolves with that source, its expression names known quantities ('pmucal\n"
             "quantities'), and no event has two rules in one file. One TAP line per rule; a comment per\n"
             "file with its count. Exit status 0 when all is well, 1 otherwise, 2 on bad usage.\n",
    .examples = "  pmucal expect check\n"
                "  pmucal expect check my-rules/skl.txt\n",
};

static int expect_main(int argc, char **argv)
{
    struct cli_args pos;
    if (cli_parse(&expect_command, argc, argv, NULL, NULL, &pos))
        return 2;
    if (pos.n < 1 || strcmp(pos.v[0], "check")) {
        int rc = cli_usage_error(&expect_command, pos.n < 1 ? "name a subcommand: check" : "unknown subcommand %s",
                                 pos.n ? pos.v[0] : "");
        cli_args_free(&pos);
        return rc;
    }
    struct tap t = {.out = stdout};
    int failed = 0, files = 0;
    if (pos.n > 1) {
        for (int i = 1; i < pos.n; i++, files++)
            failed |= rules_lint_file(&t, pos.v[i]);
    } else if ((failed = rules_lint_shipped(&t, &files)) == 2) {
        cli_args_free(&pos);
        return 2;
    }
    cli_args_free(&pos);
    tap_plan(&t);
    tap_comment(&t, "%d files, %d rules checked, %d not ok", files, t.n, t.not_ok);
    return failed ? 1 : 0;
}
