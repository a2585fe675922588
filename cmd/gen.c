/* pmucal gen: build a generated kernel's code and write it out as an assembler listing or raw
 * bytes, or execute it a given number of times (so a simulator can count it). */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "core/measure.h"
#include "generators/codegen.h"
#include "host/clock.h"
#include "runs/rundir.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

static int gen_main(int argc, char **argv);

enum { K_ASM = CLI_LONG, K_BIN, K_REPEAT };

static const struct cli_option gen_options[] = {
    {"asm", K_ASM, CLI_OUT_FILE, "the code as an assembler listing: offset, bytes, instruction in the AT&T\n"
                           "syntax objdump prints, branch targets as offsets; '-' for stdout"},
    {"bin", K_BIN, CLI_OUT_FILE, "the raw code bytes, for objdump -D -b binary -m i386:x86-64 FILE"},
    {"repeat", K_REPEAT, "N", "execute N iterations of the measured region, in the function\n"
                              "gen_measured_region, e.g. for valgrind --tool=callgrind\n"
                              "--toggle-collect=gen_measured_region: counts of N minus counts of 0\n"
                              "are N x the model"},
    {"run", K_REPEAT, "N", NULL},   /* the old spelling of --repeat */
    CLI_END,
};

const struct command gen_command = {
    .name = "gen",
    .fn = gen_main,
    .summary = "generate a code-shaped kernel's machine code: listing, raw bytes, or execute it",
    .synopsis = "KERNEL [param=value ...] [options]",
    .usage = "Sets the case up as 'pmucal run' would (generating its code), prints what was generated\n"
             "and how long that took, and optionally writes or executes it.\n"
             "Kernels with generated code: ifetch, branch, callchain, bbexec ('pmucal kernels').\n",
    .options = gen_options,
    .examples = "  pmucal gen ifetch size=1k --asm -\n"
                "  pmucal gen branch pattern=random branches=8 --bin /tmp/b.bin\n"
                "  pmucal gen ifetch size=64M --bin /dev/null\n",
};

/* Not inlined, so a simulator can collect exactly this call and what it calls. */
__attribute__((noinline)) void gen_measured_region(struct case_ *c, uint64_t iters);
__attribute__((noinline)) void gen_measured_region(struct case_ *c, uint64_t iters)
{
    c->kernel->loop(c, iters);
    __asm__ __volatile__("" ::: "memory");
}


struct gen_args {
    const char *asm_path, *bin_path, *repeat_text;
};

static int gen_option(void *ctx, int key, const char *v)
{
    struct gen_args *a = ctx;
    if (key == K_ASM)
        a->asm_path = v;
    else if (key == K_BIN)
        a->bin_path = v;
    else if (key == K_REPEAT)
        a->repeat_text = v;
    return 0;
}

static int gen_main(int argc, char **argv)
{
    struct gen_args a = {0};
    struct cli_args pos;
    if (cli_parse(&gen_command, argc, argv, gen_option, &a, &pos))
        return 2;
    const char *asm_path = a.asm_path, *bin_path = a.bin_path, *repeat_text = a.repeat_text;
    const struct kernel *k = pos.n ? kernel_find(pos.v[0]) : NULL;
    uint64_t repeat_iters = 0;
    int bad = 0;
    if (!pos.n)
        bad = cli_usage_error(&gen_command, "name a kernel with generated code (ifetch, branch, callchain, bbexec)");
    else if (!k || !k->code) {
        if (!k)
            pm_error("unknown kernel '%s'; 'pmucal kernels' lists them", pos.v[0]);
        else
            pm_error("gen: kernel %s has no generated code (its loop is compiled in); 'pmucal gen --help' lists "
                     "those that do", k->name);
        bad = 2;
    } else if (repeat_text) {
        unsigned long long n;
        bad = cli_number(&gen_command, "--repeat", repeat_text, 1, MEASURE_MAX_ITERS, &n);
        repeat_iters = n;
    }
    if (bad) {
        cli_args_free(&pos);
        return bad;
    }
    struct case_ *c = case_new(k, pos.n - 1, pos.v + 1);
    cli_args_free(&pos);
    if (!c)
        return 2;
    gen_listing = asm_path != NULL;
    double t0 = clock_now_seconds();
    int rc = case_setup(c);
    double secs = clock_now_seconds() - t0;
    if (rc == CASE_SKIP) {
        pm_error("gen: %s: %s", c->label, c->skip);
        k->teardown(c);
        case_free(c);
        return 1;
    }
    if (rc != CASE_OK) {
        k->teardown(c);
        case_free(c);
        return 1;
    }
    const struct assembler *as = k->code(c);
    pm_note("gen: %s [%s]: %zu bytes, %zu instructions, generated and mapped in %.1f ms", c->label, c->detail,
            as->len, as->ninsn, secs * 1e3);
    int status = 0;
    if (asm_path) {
        struct run_out o;
        FILE *f = run_out_user(&o, asm_path);
        if (!f || run_out_end(&o, asm_write_listing(as, f, c->label)))
            status = 1;
    }
    if (bin_path && !status) {
        struct run_out o;
        FILE *f = run_out_user(&o, bin_path);
        if (!f || run_out_end(&o, asm_write_bin(as, f)))
            status = 1;
    }
    if (repeat_text && !status) {
        /* The time limit is for real time; under valgrind (tests count this region with callgrind)
         * a pilot would only be slow and warm the simulated predictor before the region. */
        if (!RUNNING_ON_VALGRIND && measure_loop_too_long(c, repeat_iters, "--repeat"))
            status = 2;
        else {
            if (k->prepare)
                k->prepare(c);
            gen_measured_region(c, repeat_iters);
        }
    }
    k->teardown(c);
    case_free(c);
    return status;
}
