/* The command table: each subcommand registers itself from its own file, git/perf style. */
#ifndef PMUCAL_CLI_H
#define PMUCAL_CLI_H
#include <stdbool.h>

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);    /* argv[0] is the command name */
    const char *summary;
    const char *usage;                   /* full --help text, options one a line */
};

void command_register(const struct command *c);
const struct command *command_find(const char *name);
/* Commands in name order; NULL-terminated. */
const struct command **command_list(void);

#define PMUCAL_COMMAND(var) \
    static void __attribute__((constructor)) register_##var(void) { command_register(&var); }

/* Handles -h/--help for a command: prints its usage and returns true. */
bool cli_wants_help(const struct command *c, int argc, char **argv);
/* "pmucal: error: CMD: missing value for OPT" etc.; returns 2 for the caller to exit with. */
int cli_usage_error(const struct command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Option value: "--opt=value", "--opt value", "-o value". NULL if argv[*i] is not this option;
 * *bad is set when the option is there but has no value. */
const char *cli_opt(int argc, char **argv, int *i, const char *longname, const char *shortname, bool *bad);

#endif
