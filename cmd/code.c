/* pmucal code: a file of snippets (one a line, generators/snippet_file.h) into one table: each
 * snippet's latency and throughput through the 'code' kernel, its counts against the model its
 * bytes give, the published figure beside it; TAP, JSON, CSV or a C header. */
#include "base/stop.h"
#include "base/util.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "generators/snippet_file.h"
#include "host/topo.h"
#include "host/uarch.h"
#include "penalties/snippet_measure.h"
#include "penalties/snippet_tables.h"
#include "runs/rundir.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_FORMAT = CLI_LONG + 400, K_OUTPUT, K_UARCH };

static int code_main(int argc, char **argv);

static const struct cli_option code_options[] = {
    MO_EVENTS, MO_REPS, MO_SOURCE, MO_ITERS, MO_TARGET_MS, MO_CPU, MO_EXPECT, MO_NO_AUTO_EXPECT,
    {"format", K_FORMAT, "FMT", "tap (default), json, csv or c: the table's form"},
    {"output", K_OUTPUT, CLI_OUT_FILE, "write the table there instead of standard output"},
    {"uarch", K_UARCH, "NAME", "the microarchitecture whose published figures stand beside the table (default:\n"
                               "the uarch of the CPU it runs on)"},
    {"model", K_UARCH, "NAME", NULL},   /* the old spelling of --uarch */
    CLI_END,
};

const struct command code_command = {
    .name = "code",
    .fn = code_main,
    .summary = "a file of your own snippets measured into one table: latency and throughput beside published figures",
    .synopsis = "FILE [options]",
    .usage = "FILE holds one snippet a line: [NAME |] INSTRUCTIONS [| OPTIONS], instructions separated by ';',\n"
             "options init=REG=V,..., chain=REG, expect=QUANTITY=N,..., copies=N, mode=latency|throughput ('#'\n"
             "starts a comment line). Each is assembled by binutils as and measured by the code kernel ('pmucal\n"
             "kernels code'): latency with its copies chained through its output register, throughput with the\n"
             "copies renamed onto independent registers, in cycles a copy with the range of the repetitions. A\n"
             "snippet that does not assemble, faults, branches out or cannot chain is a row with the reason;\n"
             "the rest are measured. snippets/ holds starter files for x86-64 and AArch64.\n",
    .options = code_options,
    .examples = "  pmucal code snippets/x86_64.txt\n"
                "  pmucal code snippets/x86_64.txt --source sim --format json\n",
};

struct code_ctx {
    struct measure_cli o;
    const char *format, *output, *uarch;
};

static int code_option(void *ctx, int key, const char *v)
{
    struct code_ctx *c = ctx;
    switch (key) {
    case K_FORMAT: c->format = v; return 0;
    case K_OUTPUT: c->output = v; return 0;
    case K_UARCH: c->uarch = v; return 0;
    }
    int rc = measure_cli_option(&code_command, &c->o, key, v);
    return rc < 0 ? cli_usage_error(&code_command, "option %d is not handled", key) : rc;
}

static void code_free(struct engine *eng, struct event_spec *events, int nevents, struct code_ctx *x,
                      struct snippet_entry *ents, int nent, struct cli_args *pos)
{
    engine_free_events(events, nevents);
    engine_free(eng);
    measure_cli_tables_free(&x->o);
    free(x->o.auto_expect);
    snippet_entries_free(ents, nent);
    cli_args_free(pos);
}

static int code_main(int argc, char **argv)
{
    struct code_ctx x = {.format = "tap"};
    measure_cli_init(&x.o);
    struct cli_args pos;
    if (cli_parse(&code_command, argc, argv, code_option, &x, &pos))
        return 2;
    if (pos.n != 1) {
        cli_args_free(&pos);
        return cli_usage_error(&code_command, "name one file of snippets (snippets/x86_64.txt is a starter)");
    }
    const char *path = pos.v[0];
    int fmt = code_format_parse(x.format);
    if (fmt < 0) {
        cli_args_free(&pos);
        return cli_usage_error(&code_command, "--format %s: give tap, json, csv or c", x.format);
    }
    /* --uarch, else the uarch of the CPU this runs on. */
    const struct uarch_cpu *cpu = x.uarch ? NULL : uarch_cpu_of_logical(topo_current_cpu(), NULL, 0);
    const struct uarch *host = x.uarch ? uarch_named(x.uarch, NULL) : cpu ? cpu->uarch : NULL;
    if (x.uarch && !host) {
        cli_args_free(&pos);
        return cli_usage_error(&code_command, "--uarch %s: not a uarch pmucal has a file for (%s)", x.uarch,
                               uarch_names());
    }
    char err[600];
    size_t len;
    char *text = read_file_bounded(path, 1u << 20, &len, err, sizeof(err));
    struct snippet_entry *ents = NULL;
    int nent = 0;
    int nul = text ? snippet_text_nul_line(text, len) : 0;
    if (nul)
        snprintf(err, sizeof(err), "%s:%d: a NUL byte; the file is text (what follows it would be dropped)", path, nul);
    if (!text || nul || snippet_file_parse(text, path, &ents, &nent, err, sizeof(err))) {
        pm_error("%s%s", text ? "" : "cannot read the snippets: ", err);
        free(text);
        cli_args_free(&pos);
        return 2;
    }
    free(text);
    struct engine eng;
    struct event_spec *events;
    int nevents;
    if (measure_cli_engine(&x.o, &eng, &events, &nevents)) {
        snippet_entries_free(ents, nent);
        cli_args_free(&pos);
        return 2;
    }
    int status = 0, prep = measure_cli_prepare(&x.o, &eng, argc, argv, &status);
    if (prep != SOURCE_CONTINUE) {
        code_free(&eng, events, nevents, &x, ents, nent, &pos);
        return prep < 0 ? 2 : status;
    }
    stop_install_handlers();
    struct code_row *rows;
    int nrows = snippet_rows_measure(&eng, events, nevents, ents, nent, host, &rows);
    /* The one writer of outputs a user names: a link is not followed, a failed write leaves the
     * file as it was, /dev/null stays a device. */
    struct run_out o;
    FILE *out = run_out_user(&o, x.output);
    int rc = !out || run_out_end(&o, code_table_write(out, fmt, rows, nrows, host ? host->name : NULL,
                                                      eng.src->name)) ? 2 : 0;
    int bad = 0;
    for (int i = 0; i < nrows; i++)
        bad += rows[i].status == PENALTY_ERROR || rows[i].status == PENALTY_NOT_OK;
    free(rows);
    code_free(&eng, events, nevents, &x, ents, nent, &pos);
    if (stop_requested())
        return 128 + stop_signal_number;
    return rc ? rc : bad ? 1 : 0;
}
