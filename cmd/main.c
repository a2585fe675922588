#include "base/util.h"
#include "base/version.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "events/catalog.h"
#include "events/pfm.h"
#include "host/uarch.h"
#include "penalties/recipes.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: pmucal COMMAND [options]\n\n"
               "pmucal %s: hardware performance-event validation and cycle-penalty calibration.\n\n"
               "Commands:\n", PMUCAL_VERSION);
    for (const struct command *const *c = command_list(); *c; c++)
        fprintf(f, "  %-12s %s\n", (*c)->name, (*c)->summary);
    fprintf(f, "\n'pmucal COMMAND --help' tells a command's options; 'pmucal --man' prints them all as a manual page.\n");
}

/* Whatever went to stdout must have arrived (a full disk, /dev/full, a closed pipe): a command's
 * success is not reported over lost output. */
static int stdout_status(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    pm_error("cannot write to standard output%s%s; the output is incomplete", errno ? ": " : "",
             errno ? strerror(errno) : "");
    return rc ? rc : 1;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "help") && argc > 2) {   /* git's habit: "help CMD" is "CMD --help" */
        const struct command *c = command_find(argv[2]);
        if (!c) {
            pm_error("help %s: unknown command; 'pmucal --help' lists the commands", argv[2]);
            return 2;
        }
        char *help_argv[] = {argv[2], "--help", NULL};
        cli_wants_help(c, 2, help_argv);
        return 0;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--man")) {
        cli_print_man(stdout, PMUCAL_VERSION, command_list());
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("pmucal %s (commit %s)\n", PMUCAL_VERSION, pmucal_commit());
        return 0;
    }
    const char *now = command_renamed(argv[1]);
    if (now) {
        pm_note("%s is now %s", argv[1], now);
        argv[1] = (char *)now;
    }
    const struct command *c = command_find(argv[1]);
    if (!c) {
        pm_error("unknown command '%s'; 'pmucal --help' lists the commands", argv[1]);
        return 2;
    }
    if (cli_wants_help(c, argc - 1, argv + 1))
        return 0;
    if (pfm_env_check() || cpu_signature_env_check() || progress_env_check())
        return 2;
    return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    uarch_recipes_known(recipe_known);   /* the uarch files name recipes: checked as they are read */
    /* Past a file size limit (ulimit -f) a write fails with EFBIG and is reported like a full
     * disk, with the records before it kept, instead of the signal killing pmucal mid-record. */
    signal(SIGXFSZ, SIG_IGN);
    return stdout_status(run(argc, argv));
}
