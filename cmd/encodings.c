/* pmucal encodings: libpfm4's encoding of every event and unit mask of a PMU beside the vendor's
 * table (Intel perfmon JSON, Linux perf pmu-events JSON for AMD), as TAP. */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "events/encoding_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int encodings_main(int argc, char **argv);

enum { K_PMU = CLI_LONG, K_VENDOR_JSON, K_QUIET };

static const struct cli_option encodings_options[] = {
    {"pmu", K_PMU, "NAME", "libpfm4 PMU to compare (required; forced with LIBPFM_FORCE_PMU)"},
    {"vendor-json", K_VENDOR_JSON, "PATH", "the vendor table: a JSON file, a folder of them, or a table name (amdzen5) (required)"},
    {"quiet", K_QUIET, NULL, "print only 'not ok' lines and totals"},
    CLI_END,
};

const struct command encodings_command = {
    .name = "encodings",
    .fn = encodings_main,
    .summary = "cross-check libpfm4's encodings of a PMU against a vendor event table (TAP)",
    .synopsis = "--pmu NAME --vendor-json PATH [--quiet]",
    .usage = "For every event of the vendor table (a JSON file, or a folder of them: Intel perfmon\n"
             "format, or Linux perf pmu-events format as used for AMD) find libpfm4's event of the same\n"
             "name (EVENT.UMASK = EVENT:UMASK, any case), or else one with the same encoding, and compare\n"
             "event code, unit mask, cmask, inv, edge, any-thread and the offcore MSR value:\n"
             "  ok      identical encodings (the names are given when they differ)\n"
             "  not ok  same event, different encoding: both are printed\n"
             "  # vendor only / # libpfm4 only   present on one side only (TAP comments)\n"
             "Deprecated vendor events are counted but not compared. The PMU need not be this host's.\n"
             "When the table is another model's than the PMU's (amd64_fam19h_zen4 against amdzen5), the run\n"
             "says it is a cross-model comparison and appends the model diff of the PMU's own table\n"
             "(under $PMUCAL_EVENTDATA) against the given one (see pmucal tablediff): same-name events\n"
             "re-encoded and encodings re-meant are 'not ok'; the exit status is then 1.\n"
             "Exit status 0 when nothing differs, 1 when something does, 2 on bad input.\n",
    .options = encodings_options,
    .examples = "  pmucal encodings --pmu skl --vendor-json perfmon/SKL/events\n"
                "  pmucal encodings --pmu amd64_fam19h_zen4 --vendor-json linux/tools/perf/pmu-events/arch/x86/amdzen4\n"
                "  pmucal encodings --pmu amd64_fam19h_zen4 --vendor-json amdzen5   # cross-model: exit 1\n",
};

struct encodings_args {
    const char *pmu, *vpath;
    bool quiet;
};

static int encodings_option(void *ctx, int key, const char *v)
{
    struct encodings_args *a = ctx;
    if (key == K_PMU)
        a->pmu = v;
    else if (key == K_VENDOR_JSON)
        a->vpath = v;
    else if (key == K_QUIET)
        a->quiet = true;
    return 0;
}

static int encodings_main(int argc, char **argv)
{
    struct encodings_args args = {0};
    if (cli_parse(&encodings_command, argc, argv, encodings_option, &args, NULL))
        return 2;
    const char *pmu = args.pmu, *vpath = args.vpath;
    bool quiet = args.quiet;
    if (!pmu || !vpath)
        return cli_usage_error(&encodings_command, "give both --pmu NAME and --vendor-json PATH");
    return encodings_compare(pmu, vpath, quiet);
}
