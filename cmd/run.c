/* pmucal run: one case, every event, a table of per-iteration counts beside the model. */
#include "base/stop.h"
#include "base/util.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "validate/case_table.h"
#include <stdlib.h>

static int run_main(int argc, char **argv);

static const struct cli_option run_options[] = {
    MO_EVENTS, MO_REPS, MO_GROUP_SIZE, MO_PMU, MO_VENDOR_JSON, MO_ITERS, MO_TARGET_MS, MO_SOURCE, MO_EXPECT,
    MO_NO_AUTO_EXPECT, MO_CPU, MO_CPUS,
    {"json", MK_JSON, NULL, "one JSON measurement record per group instead of the table"},
    CLI_END,
};

const struct command run_command = {
    .name = "run",
    .fn = run_main,
    .summary = "measure one case: per-iteration counts beside the model's expected values",
    .synopsis = "KERNEL [param=value ...] [options]",
    .usage = "Sets the case up once, then measures every event group with R repetitions; counts are\n"
             "per iteration after subtracting the same region executed with zero iterations. Cycles come\n"
             "from the tick counter (x86-64's TSC, AArch64's generic timer, RISC-V's time CSR) times the\n"
             "measured core-clock ratio when no cycle counter exists. Nothing is written to a run folder\n"
             "('pmucal validate --case' does that).\n",
    .options = run_options,
    .examples = "  pmucal run walker size=L2\n"
                "  pmucal run walker phase=touch size=4M page=4k -e page-faults --iters 1024\n",
};

static int run_option(void *ctx, int key, const char *v)
{
    int rc = measure_cli_option(&run_command, ctx, key, v);
    return rc < 0 ? cli_usage_error(&run_command, "option %d is not handled", key) : rc;
}

static int run_main(int argc, char **argv)
{
    struct measure_cli o;
    measure_cli_init(&o);
    struct cli_args pos;
    if (cli_parse(&run_command, argc, argv, run_option, &o, &pos))
        return 2;
    if (pos.n < 1) {
        cli_args_free(&pos);
        return cli_usage_error(&run_command, "name a kernel ('pmucal kernels' lists them)");
    }
    const struct kernel *k = kernel_find(pos.v[0]);
    if (!k) {
        pm_error("unknown kernel '%s'; 'pmucal kernels' lists them", pos.v[0]);
        cli_args_free(&pos);
        return 2;
    }
    struct case_ *c = case_new(k, pos.n - 1, pos.v + 1);
    cli_args_free(&pos);
    if (!c)
        return 2;
    struct engine eng;
    struct event_spec *events;
    int nevents;
    if (measure_cli_engine(&o, &eng, &events, &nevents)) {
        case_free(c);
        return 2;
    }
    int status = 0, prep = measure_cli_prepare(&o, &eng, argc, argv, &status);
    if (prep != SOURCE_CONTINUE) {   /* the command ran in another process (sim: under valgrind) */
        engine_free_events(events, nevents);
        engine_free(&eng);
        measure_cli_tables_free(&o);
        free(o.auto_expect);
        case_free(c);
        return prep < 0 ? 2 : status;
    }
    int run_not_ok = 0;
    eng.on_measurement = o.json ? case_print_json : case_print_table;
    eng.arg = &run_not_ok;
    stop_install_handlers();
    int rc = engine_case(&eng, c, events, nevents);
    engine_free_events(events, nevents);
    engine_free(&eng);
    measure_cli_tables_free(&o);
    free(o.auto_expect);
    case_free(c);
    if (rc == CASE_INTERRUPTED) {
        pm_note("interrupted");
        return 128 + stop_signal_number;   /* 130 for SIGINT, 143 for SIGTERM, as the shell reports a signal */
    }
    if (rc == CASE_OK && run_not_ok)
        pm_note("%d event%s NOT OK against %s rule", run_not_ok, run_not_ok > 1 ? "s" : "", run_not_ok > 1 ? "their" : "its");
    return rc == CASE_OK && !run_not_ok ? 0 : 1;
}
