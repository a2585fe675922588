#include "cmd/cli.h"
#include "base/util.h"
#include "runs/outputs.h"
#include "runs/session.h"
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_option help_option = {"help", 'h', NULL, "this text"};

/* Prints text with every line after the first indented by indent spaces. */
static void print_indented(FILE *f, const char *text, int indent)
{
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fprintf(f, "%*s", indent, "");
    }
    fputc('\n', f);
}

static void print_option(FILE *f, const struct cli_option *o)
{
    char left[96];
    if (o->key < CLI_LONG)
        snprintf(left, sizeof(left), "-%c, --%s%s%s", o->key, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    if (strlen(left) > 20)
        fprintf(f, "  %s\n%23s", left, "");
    else
        fprintf(f, "  %-20s ", left);
    print_indented(f, o->help, 23);
}

void cli_print_help(const struct command *c, FILE *f)
{
    fprintf(f, "usage: pmucal %s%s%s\n\n%s\n", c->name, c->synopsis ? " " : "", c->synopsis ? c->synopsis : "",
            c->summary);
    if (c->usage)
        fprintf(f, "\n%s", c->usage);
    fprintf(f, "\nOptions:\n");
    for (const struct cli_option *o = c->options; o && o->name; o++)
        if (o->help)
            print_option(f, o);
    print_option(f, &help_option);
    if (c->examples)
        fprintf(f, "\nExamples:\n%s", c->examples);
}

/* Text for roff: backslashes and hyphens escaped, a line that starts with '.' or '\'' protected. */
static void roff(FILE *f, const char *s)
{
    bool line_start = true;
    for (; *s; s++) {
        if (line_start && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
        line_start = *s == '\n';
    }
}

static void man_option(FILE *f, const struct cli_option *o)
{
    fputs(".TP\n.B ", f);
    if (o->key < CLI_LONG)
        fprintf(f, "\\-%c, ", o->key);
    fputs("\\-\\-", f);
    roff(f, o->name);
    if (o->arg) {
        fputs(" \" \\fI", f);
        roff(f, o->arg);
        fputs("\\fR\"", f);
    }
    fputc('\n', f);
    roff(f, o->help);
    fputc('\n', f);
}

void cli_print_man(FILE *f, const char *version, const struct command *const *list)
{
    fprintf(f, ".TH PMUCAL 1 \"\" \"pmucal %s\" \"User Commands\"\n.SH NAME\npmucal \\- hardware "
               "performance\\-event validation and cycle\\-penalty calibration\n.SH SYNOPSIS\n.B pmucal\n"
               ".I COMMAND\n[options]\n.SH COMMANDS\n", version);
    for (const struct command *const *c = list; *c; c++) {
        fprintf(f, ".TP\n.B %s\n", (*c)->name);
        roff(f, (*c)->summary);
        fputc('\n', f);
    }
    for (const struct command *const *c = list; *c; c++) {
        fprintf(f, ".SH \"PMUCAL %s\"\n.B pmucal %s\n", (*c)->name, (*c)->name);
        roff(f, (*c)->synopsis ? (*c)->synopsis : "");
        fputs("\n.PP\n", f);
        roff(f, (*c)->summary);
        fputc('\n', f);
        if ((*c)->usage) {
            fputs(".PP\n.nf\n", f);
            roff(f, (*c)->usage);
            fputs(".fi\n", f);
        }
        fputs(".SS Options\n", f);
        for (const struct cli_option *o = (*c)->options; o && o->name; o++)
            if (o->help)
                man_option(f, o);
        man_option(f, &help_option);
        if ((*c)->examples) {
            fputs(".SS Examples\n.nf\n", f);
            roff(f, (*c)->examples);
            fputs(".fi\n", f);
        }
    }
    fputs(".SH FILES\n.TP\n.I PREFIX/share/pmucal/expect/*.txt\nthe rule files loaded for a PMU or a "
          "source (PMUCAL_EXPECT_DIR overrides)\n.TP\n.I PREFIX/share/pmucal/scripts\njq and shell helpers "
          "(groups.jq, ...)\n.SH SEE ALSO\n.BR perf (1),\n.BR valgrind (1)\n", f);
}

int cli_usage_error(const struct command *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pmucal: error: %s: ", c->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'pmucal %s --help')\n", c->name);
    return 2;
}

int cli_resume(const struct command *c, struct session *s, const char *run, int given, const struct session_resumer *how,
               void *args)
{
    if (given)
        return cli_usage_error(c, "--resume takes no other option: the run's own options come from its manifest");
    return session_resume(s, run, how, args);
}

const char *cli_option_name(const struct command *c, int key)
{
    static char name[80];
    for (const struct cli_option *o = c->options; o && o->name; o++)
        if (o->key == key && o->help) {
            snprintf(name, sizeof(name), "--%s", o->name);
            return name;
        }
    snprintf(name, sizeof(name), "-%c", key < CLI_LONG ? key : '?');
    return name;
}

int cli_number(const struct command *c, const char *opt, const char *v, unsigned long long lo, unsigned long long hi,
               unsigned long long *out)
{
    uint64_t x;
    if (!parse_u64(v, &x) || x < lo || x > hi)
        return cli_usage_error(c, "%s %s: give a whole number from %llu to %llu", opt, v, lo, hi);
    *out = x;
    return 0;
}

int cli_real(const struct command *c, const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !isfinite(x) || !(x >= lo && x <= hi))
        return isinf(hi) ? cli_usage_error(c, "%s %s: give a number of %g or more", opt, v, lo)
                         : cli_usage_error(c, "%s %s: give a number from %g to %g", opt, v, lo, hi);
    *out = x;
    return 0;
}

/* getopt_long's tables for a command: "-:" + short letters (return operands in order, report a
 * missing value as ':'), and the long options with -h/--help appended. */
struct getopt_tables {
    char shorts[160];
    struct option *longs;
};

static void tables_build(const struct command *c, struct getopt_tables *t)
{
    int n = 0;
    for (const struct cli_option *o = c->options; o && o->name; o++)
        n++;
    t->longs = xcalloc((size_t)n + 2, sizeof(*t->longs));
    size_t s = 0;
    t->shorts[s++] = '-';
    t->shorts[s++] = ':';
    for (int i = 0; i <= n; i++) {
        const struct cli_option *o = i < n ? &c->options[i] : &help_option;
        t->longs[i] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, o->key};
        if (o->key < CLI_LONG && s + 3 < sizeof(t->shorts)) {
            t->shorts[s++] = (char)o->key;
            if (o->arg)
                t->shorts[s++] = ':';
        }
    }
    t->shorts[s] = 0;
}

/* The note on an old spelling the user typed (struct cli_option), once a parse for each. */
static void note_old_spelling(const struct command *c, const struct cli_option *old, bool *noted)
{
    if (*noted)
        return;
    *noted = true;
    pm_note("%s: --%s is now %s", c->name, old->name, cli_option_name(c, old->key));
}

const char cli_out_file[] = "FILE", cli_out_dir[] = "DIR";

/* The value v of option key refused, when the option is an output (CLI_OUT_FILE, CLI_OUT_DIR) and v
 * would overwrite an input of the command line argv: 2 after one message naming both, else 0. */
static int check_output(const struct command *c, int key, const char *v, int argc, char **argv)
{
    for (const struct cli_option *o = c->options; o && o->name; o++)
        if (o->key == key && (o->arg == cli_out_file || o->arg == cli_out_dir)) {
            char why[2 * PATH_MAX + 512];
            bool refused = o->arg == cli_out_dir ? run_parent_refused(v, why, sizeof(why))
                         : strcmp(v, "-") && run_output_refused(v, argc, argv, v, why, sizeof(why));
            if (!refused)
                return 0;
            pm_error("%s: %s %s: %s", c->name, cli_option_name(c, key), v, why);
            return 2;
        }
    return 0;
}

/* The getopt_long loop shared by cli_parse, cli_reparse and cli_wants_help. Returns 0, or 2 after
 * a message (only when report is set); *help is set when -h/--help was seen. typed: the user typed
 * argv (not a manifest's command line read back): a note on each old spelling given, and each
 * output checked, which a manifest's are not (a resume or replay does not write them). */
static int parse(const struct command *c, int argc, char **argv, cli_handler fn, void *ctx, struct cli_args *pos,
                 bool report, bool typed, bool *help)
{
    struct getopt_tables t;
    tables_build(c, &t);
    if (pos) {
        pos->n = 0;
        pos->v = xcalloc((size_t)argc + 1, sizeof(char *));
    }
    int nopts = 0;
    while (c->options && c->options[nopts].name)
        nopts++;
    bool *noted = xcalloc((size_t)nopts + 1, sizeof(*noted));
    int rc = 0, key, longi;
    optind = 0;   /* glibc: a full re-initialisation, for each parse of a new vector */
    opterr = 0;
    while (!rc && (longi = -1, key = getopt_long(argc, argv, t.shorts, t.longs, &longi)) != -1) {
        const char *arg = argv[optind - 1];
        if (typed && longi >= 0 && longi < nopts && !c->options[longi].help)
            note_old_spelling(c, &c->options[longi], &noted[longi]);
        if (key == 1) {
            if (pos)
                pos->v[pos->n++] = optarg;
            else if (report)
                rc = cli_usage_error(c, "unexpected argument '%s': this command takes options only", optarg);
        } else if (key == 'h') {
            *help = true;
        } else if (!report && (key == '?' || key == ':')) {
            rc = 2;
        } else if (key == '?') {
            bool short_form = optopt && optopt < CLI_LONG && arg[0] == '-' && arg[1] != '-';
            if (short_form)
                rc = cli_usage_error(c, "unknown option -%c", optopt);
            else if (optopt)   /* a known flag given "=value" */
                rc = cli_usage_error(c, "%s takes no value", arg);
            else
                rc = cli_usage_error(c, "unknown option %s", arg);
        } else if (key == ':') {
            if (optopt && optopt < CLI_LONG && arg[1] != '-')
                rc = cli_usage_error(c, "-%c needs a value", optopt);
            else
                rc = cli_usage_error(c, "%s needs a value", arg);
        } else if (fn) {
            rc = typed ? check_output(c, key, optarg, argc, argv) : 0;
            if (!rc)
                rc = fn(ctx, key, optarg);
        }
    }
    if (!rc && pos)
        while (optind < argc)   /* after "--" */
            pos->v[pos->n++] = argv[optind++];
    else if (!rc && report && optind < argc)
        rc = cli_usage_error(c, "unexpected argument '%s': this command takes options only", argv[optind]);
    free(t.longs);
    free(noted);
    return rc;
}

static int parse_command(const struct command *c, int argc, char **argv, cli_handler fn, void *ctx,
                         struct cli_args *pos, bool typed)
{
    bool help = false;   /* main() answered --help before the command ran */
    int rc = parse(c, argc, argv, fn, ctx, pos, true, typed, &help);
    if (rc && pos)
        cli_args_free(pos);
    return rc;
}

int cli_parse(const struct command *c, int argc, char **argv, cli_handler fn, void *ctx, struct cli_args *pos)
{
    return parse_command(c, argc, argv, fn, ctx, pos, true);
}

int cli_reparse(const struct command *c, int argc, char **argv, cli_handler fn, void *ctx, struct cli_args *pos)
{
    return parse_command(c, argc, argv, fn, ctx, pos, false);
}

void cli_args_free(struct cli_args *pos)
{
    free(pos->v);
    pos->v = NULL;
    pos->n = 0;
}

bool cli_wants_help(const struct command *c, int argc, char **argv)
{
    bool help = false;
    parse(c, argc, argv, NULL, NULL, NULL, false, false, &help);
    if (help)
        cli_print_help(c, stdout);
    return help;
}
