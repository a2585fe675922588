/* pmucal quantities: the vocabulary models state and expectation rules name. */
#include "cli.h"
#include "quantity.h"
#include <stdio.h>

static int quantities_main(int argc, char **argv);

static const struct command quantities_command = {
    .name = "quantities",
    .fn = quantities_main,
    .summary = "list the quantities (per-iteration amounts) models state and rules name",
    .usage = "pmucal quantities\n",
};
PMUCAL_COMMAND(quantities_command)

static int quantities_main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1)
        return cli_usage_error(&quantities_command, "takes no arguments");
    for (int i = 0; i < Q_COUNT; i++)
        printf("%-16s %s\n", quantity_name((enum quantity_id)i), quantity_help((enum quantity_id)i));
    return 0;
}
