/* pmucal kernels: the registered kernels, the source file of each, their parameters, defaults and
 * default cases. */
#include "base/json.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "core/kernel.h"
#include "core/kernel_describe.h"
#include <stdio.h>

static int kernels_main(int argc, char **argv);

enum { K_JSON = CLI_LONG };

static const struct cli_option kernels_options[] = {
    {"json", K_JSON, NULL, "one JSON array of kernels (name, summary, file, params, cases) instead of the text"},
    CLI_END,
};

const struct command kernels_command = {
    .name = "kernels",
    .fn = kernels_main,
    .summary = "list the kernels with their source files, parameters, defaults and default validation cases",
    .synopsis = "[--json] [KERNEL]",
    .usage = "With a name, only that kernel.\n",
    .options = kernels_options,
    .examples = "  pmucal kernels walker\n"
                "  pmucal kernels --json | jq -r '.[].name'\n",
};

static int kernels_option(void *ctx, int key, const char *v)
{
    (void)v;
    *(bool *)ctx = key == K_JSON;
    return 0;
}

static int kernels_main(int argc, char **argv)
{
    bool as_json = false;
    struct cli_args pos;
    if (cli_parse(&kernels_command, argc, argv, kernels_option, &as_json, &pos))
        return 2;
    const struct kernel *one = NULL;
    if (pos.n > 1) {
        cli_args_free(&pos);
        return cli_usage_error(&kernels_command, "give at most one kernel name");
    }
    if (pos.n == 1 && !(one = kernel_find(pos.v[0]))) {
        pm_error("unknown kernel '%s'; 'pmucal kernels' lists them", pos.v[0]);
        cli_args_free(&pos);
        return 2;
    }
    cli_args_free(&pos);
    const struct kernel *just[2] = {one, NULL}, **list = one ? just : kernel_list();
    if (!as_json) {
        for (const struct kernel **k = list; *k; k++) {
            kernel_print(*k);
            if (!one)
                printf("\n");
        }
        return fflush(stdout) ? 1 : 0;
    }
    struct json j;
    json_init(&j);
    json_array_begin(&j, NULL);
    for (const struct kernel **k = list; *k; k++)
        kernel_json(&j, *k);
    json_array_end(&j);
    int rc = json_write_line(&j, stdout);
    json_free(&j);
    return rc ? 1 : 0;
}
