/* pmucal kernels: the registered kernels, their parameters, defaults and default cases. */
#include "cli.h"
#include "kernel.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

static int kernels_main(int argc, char **argv);

static const struct command kernels_command = {
    .name = "kernels",
    .fn = kernels_main,
    .summary = "list the kernels with their parameters, defaults and default validation cases",
    .usage = "pmucal kernels [KERNEL]\n\nWith a name, only that kernel.\n",
};
PMUCAL_COMMAND(kernels_command)

static void show(const struct kernel *k)
{
    printf("%s: %s\n", k->name, k->summary);
    for (int i = 0; k->params[i].name; i++) {
        const struct param *p = &k->params[i];
        printf("  %-12s default %-8s %s%s%s\n", p->name, p->def, p->help, p->choices ? "; one of " : "",
               p->choices ? p->choices : "");
    }
    if (k->matrix) {
        printf("  default validation cases:\n");
        for (int r = 0; k->matrix[r]; r++)
            printf("    %s %s\n", k->name, k->matrix[r]);
    }
}

static int kernels_main(int argc, char **argv)
{
    if (argc > 2)
        return cli_usage_error(&kernels_command, "give at most one kernel name");
    if (argc == 2) {
        const struct kernel *k = kernel_find(argv[1]);
        if (!k) {
            pm_error("unknown kernel '%s'; 'pmucal kernels' lists them", argv[1]);
            return 2;
        }
        show(k);
        return 0;
    }
    for (const struct kernel **k = kernel_list(); *k; k++) {
        show(*k);
        printf("\n");
    }
    return 0;
}
