/* pmucal quantities: the vocabulary models state and rules name. */
#include "base/json.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "core/quantity.h"
#include <stdio.h>

static int quantities_main(int argc, char **argv);

enum { K_JSON = CLI_LONG };

static const struct cli_option quantities_options[] = {
    {"json", K_JSON, NULL, "one JSON array of {name, help} objects instead of the table"},
    CLI_END,
};

const struct command quantities_command = {
    .name = "quantities",
    .fn = quantities_main,
    .summary = "list the quantities (per-iteration amounts) models state and rules name",
    .synopsis = "[--json]",
    .options = quantities_options,
};

static int quantities_option(void *ctx, int key, const char *v)
{
    (void)v;
    *(bool *)ctx = key == K_JSON;
    return 0;
}

static int quantities_main(int argc, char **argv)
{
    bool as_json = false;
    if (cli_parse(&quantities_command, argc, argv, quantities_option, &as_json, NULL))
        return 2;
    if (!as_json) {
        for (int i = 0; i < Q_COUNT; i++)
            printf("%-16s %s\n", quantity_name((enum quantity_id)i), quantity_help((enum quantity_id)i));
        return 0;
    }
    struct json j;
    json_init(&j);
    json_array_begin(&j, NULL);
    for (int i = 0; i < Q_COUNT; i++) {
        json_object_begin(&j, NULL);
        json_string(&j, "name", quantity_name((enum quantity_id)i));
        json_string(&j, "help", quantity_help((enum quantity_id)i));
        json_object_end(&j);
    }
    json_array_end(&j);
    int rc = json_write_line(&j, stdout);
    json_free(&j);
    return rc ? 1 : 0;
}
