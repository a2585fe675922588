/* A command and its options, git/perf style: each subcommand is a file of cmd/ with a table of its
 * options, listed in the command table (cmd/commands.c); cmd/cli.c parses them with getopt_long (GNU habits: -r9, -r 9, --reps=9,
 * --reps 9, unique prefixes of long names, combined short flags, '--' ends the options) and
 * prints --help from the same table, so the help lists exactly what is accepted. */
#ifndef PMUCAL_CLI_H
#define PMUCAL_CLI_H
#include <stdbool.h>
#include <stdio.h>

/* One option of a command; a table ends with an entry whose name is NULL. */
struct cli_option {
    const char *name;   /* long name, without "--" */
    int key;            /* its short letter, or a number >= CLI_LONG for a long-only option */
    const char *arg;    /* the value's placeholder ("N", "FILE"), or NULL for a flag */
    const char *help;   /* lines separated by '\n'; NULL: an old spelling (below) */
};
/* An old spelling, kept so that old command lines (and run folders' manifests) still parse, is an
 * option with help NULL and the key of the option it became: the handler sees that key, the user
 * a note naming the new spelling, and --help, the man page and completion show only the new one. */
#define CLI_LONG 256
#define CLI_END {0, 0, 0, 0}
/* The placeholders of an option that names where the command writes: CLI_OUT_FILE ("FILE") a file
 * it writes whole, CLI_OUT_DIR ("DIR") the folder it makes its run folder in. The parser knows
 * them by address, not text, and refuses a value that would overwrite an input before the
 * command runs (runs/outputs.h): every output option is checked, by being marked. */
extern const char cli_out_file[], cli_out_dir[];
#define CLI_OUT_FILE cli_out_file
#define CLI_OUT_DIR cli_out_dir

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);    /* argv[0] is the command name */
    const char *summary;                 /* one line */
    const char *synopsis;                /* what follows "pmucal NAME" in the usage line */
    const char *usage;                   /* description paragraphs (optional) */
    const struct cli_option *options;    /* NULL-name terminated; -h/--help is implied */
    const char *examples;                /* one command a line (optional) */
};

/* Prints the command's --help (usage line, summary, description, options, examples). */
void cli_print_help(const struct command *c, FILE *f);
/* Every command's help as one roff manual page, pmucal(1): a section per command, from the same
 * tables as --help (so the installed manual cannot drift from it). */
void cli_print_man(FILE *f, const char *version, const struct command *const *list);
/* True (help printed) when -h/--help is among the command's options (not an option's value,
 * not after '--'). */
bool cli_wants_help(const struct command *c, int argc, char **argv);
/* "pmucal: error: CMD: ..."; returns 2 for the caller to exit with. */
int cli_usage_error(const struct command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Positional arguments (operands), in their order; v points into argv. */
struct cli_args {
    int n;
    char **v;
};
/* An option handler: 0 to go on, or an exit status (usually cli_usage_error's 2). */
typedef int (*cli_handler)(void *ctx, int key, const char *value);
/* Parses argv[1..] against c->options, calling fn for each option in command-line order.
 * Returns 0, or the exit status for a bad option (message printed). Operands go to pos (freed
 * with cli_args_free); with pos NULL the command takes none and one is a usage error. */
int cli_parse(const struct command *c, int argc, char **argv, cli_handler fn, void *ctx, struct cli_args *pos);
/* The same for a command line read back from a run folder's manifest (--resume, replay): no note
 * on an old spelling, which the user did not type, and no check of its outputs, which are not
 * written again. */
int cli_reparse(const struct command *c, int argc, char **argv, cli_handler fn, void *ctx, struct cli_args *pos);
void cli_args_free(struct cli_args *pos);
/* Whole number lo..hi from an option value, else a usage error naming the option (returns 2). */
int cli_number(const struct command *c, const char *opt, const char *v, unsigned long long lo, unsigned long long hi,
               unsigned long long *out);
/* The same for a finite real number from lo to hi (hi may be HUGE_VAL: no upper end). */
int cli_real(const struct command *c, const char *opt, const char *v, double lo, double hi, double *out);
/* "--name" or "-k" of the option with this key, for messages. */
const char *cli_option_name(const struct command *c, int key);
/* --resume RUN, taken alone (given: how many other options came with it, a usage error), then
 * runs/session.h's one resume path with what the command gives (how, into its args). 0, or the
 * exit status after a message. */
struct session;
struct session_resumer;
int cli_resume(const struct command *c, struct session *s, const char *run, int given, const struct session_resumer *how,
               void *args);

#endif
