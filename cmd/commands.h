/* The command table: every subcommand of pmucal, each defined in cmd/<name>.c. This header and
 * commands.c are the one place that lists them all; a new command is a file and a line in each. */
#ifndef PMUCAL_COMMANDS_H
#define PMUCAL_COMMANDS_H
#include "cmd/cli.h"

extern const struct command bench_command;
extern const struct command c2c_command;
extern const struct command roofline_command;
extern const struct command calibrate_command;
extern const struct command classify_command;
extern const struct command code_command;
extern const struct command compare_command;
extern const struct command cpi_command;
extern const struct command emit_command;
extern const struct command export_command;
extern const struct command encodings_command;
extern const struct command events_command;
extern const struct command expect_command;
extern const struct command gen_command;
extern const struct command groups_command;
extern const struct command info_command;
extern const struct command kernels_command;
extern const struct command tablediff_command;
extern const struct command quantities_command;
extern const struct command replay_command;
extern const struct command report_command;
extern const struct command run_command;
extern const struct command sample_command;
extern const struct command validate_command;

/* The commands in name order, NULL-terminated. */
const struct command *const *command_list(void);
/* The command called name, or NULL. */
/* The command an old name now is ("tablediff" for "modeldiff"), NULL when name was not renamed. */
const char *command_renamed(const char *name);
const struct command *command_find(const char *name);

#endif
