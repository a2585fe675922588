/* Kernels absent on this ISA (core/kernel_absent.h). */
#include "core/kernel_absent.h"
#include "core/kernel.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More than any ISA lacks: a registration past it is a programming error, said at start-up. */
enum { ABSENT_MAX = 8 };

static const struct param no_params[] = {{NULL, 0, NULL, NULL, NULL, NULL}};
static const char *const one_case[] = {"", NULL};
static struct kernel stubs[ABSENT_MAX];
static const char *reasons[ABSENT_MAX];
static int n_stubs;

static int skip_setup(struct case_ *c)
{
    for (int i = 0; i < n_stubs; i++)
        if (c->kernel == &stubs[i])
            snprintf(c->skip, sizeof(c->skip), "%s: %s", c->kernel->name, reasons[i]);
    return CASE_SKIP;
}

static void never_loop(struct case_ *c, uint64_t iters)
{
    (void)c, (void)iters;
}

static void no_model(const struct case_ *c, struct quantities *q)
{
    (void)c, (void)q;
}

static void no_teardown(struct case_ *c)
{
    (void)c;
}

void kernel_register_absent(const char *name, const char *summary, const char *why, const char *file)
{
    if (n_stubs == ABSENT_MAX) {
        pm_error("%s: more than %d absent kernels; raise ABSENT_MAX in core/kernel_absent.c", file, ABSENT_MAX);
        exit(1);
    }
    reasons[n_stubs] = why;
    stubs[n_stubs] = (struct kernel){
        .name = name,
        .summary = summary,
        .params = no_params,
        .setup = skip_setup,
        .loop = never_loop,
        .model = no_model,
        .teardown = no_teardown,
        .matrix = one_case,
        .per = Q_INST,
        .per_name = "instruction",
    };
    kernel_register(&stubs[n_stubs++], file);
}
