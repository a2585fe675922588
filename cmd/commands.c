#include "cmd/commands.h"
#include <stddef.h>
#include <string.h>

/* In name order: --help and the manual page list them as they stand here. */
static const struct command *const commands[] = {
    &bench_command,
    &c2c_command,
    &calibrate_command,
    &classify_command,
    &code_command,
    &compare_command,
    &cpi_command,
    &emit_command,
    &encodings_command,
    &events_command,
    &expect_command,
    &export_command,
    &gen_command,
    &groups_command,
    &info_command,
    &kernels_command,
    &quantities_command,
    &replay_command,
    &roofline_command,
    &report_command,
    &run_command,
    &sample_command,
    &tablediff_command,
    &validate_command,
    NULL,
};

const struct command *const *command_list(void)
{
    return commands;
}

/* Commands renamed, their old names still run (cmd/main.c notes it). */
static const struct {
    const char *old, *now;
} renamed[] = {{"modeldiff", "tablediff"}};

const char *command_renamed(const char *name)
{
    for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
        if (!strcmp(renamed[i].old, name))
            return renamed[i].now;
    return NULL;
}

const struct command *command_find(const char *name)
{
    for (const struct command *const *c = commands; *c; c++)
        if (!strcmp((*c)->name, name))
            return *c;
    return NULL;
}
