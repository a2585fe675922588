/* The kernels x86-64 has that RISC-V has not: each is registered under its name with no
 * parameters and one default case whose setup is a SKIP saying why, so 'pmucal validate' and
 * 'pmucal run NAME' say so instead of failing on an unknown kernel. */
#include "core/kernel.h"
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name, *why;
} not_ported[] = {
    {"divsqrt", "no RISC-V version yet: its dependent chains are x86's divsd/sqrtsd"},
    {"fpassist", "x86 only: it provokes x87/SSE microcode assists through MXCSR"},
};

static const struct param no_params[] = {{NULL, 0, NULL, NULL, NULL, NULL}};
static const char *const one_case[] = {"", NULL};

static int skip_setup(struct case_ *c)
{
    for (size_t i = 0; i < sizeof(not_ported) / sizeof(not_ported[0]); i++)
        if (!strcmp(not_ported[i].name, c->kernel->name))
            snprintf(c->skip, sizeof(c->skip), "%s: %s", c->kernel->name, not_ported[i].why);
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

static struct kernel stubs[sizeof(not_ported) / sizeof(not_ported[0])];

__attribute__((constructor)) static void register_not_ported(void)
{
    for (size_t i = 0; i < sizeof(not_ported) / sizeof(not_ported[0]); i++) {
        stubs[i] = (struct kernel){
            .name = not_ported[i].name,
            .summary = "not on RISC-V (every case is a SKIP saying why)",
            .params = no_params,
            .setup = skip_setup,
            .loop = never_loop,
            .model = no_model,
            .teardown = no_teardown,
            .matrix = one_case,
            .per = Q_INST,
            .per_name = "instruction",
        };
        kernel_register(&stubs[i], __FILE__);
    }
}
