/* pmucal expect check: the shipped (or named) expectation files, offline: every event encodes for
 * its PMU (libpfm4, forced with LIBPFM_FORCE_PMU) or its counter source, every quantity exists. */
#include "cli.h"
#include "expect.h"
#include "pfm.h"
#include "tap.h"
#include "util.h"
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int expect_main(int argc, char **argv);

static const struct command expect_command = {
    .name = "expect",
    .fn = expect_main,
    .summary = "check expectation files offline: events encode, quantities exist (TAP)",
    .synopsis = "check [FILE ...]",
    .usage = "Without FILE, every validate/expect/*.txt (or $PMUCAL_EXPECT_DIR/*.txt). A file is named\n"
             "after its libpfm4 PMU (skl.txt, amd64_fam19h_zen4.txt) or its counter source (sim.txt).\n"
             "For each rule: the event encodes for that PMU (LIBPFM_FORCE_PMU, so any PMU checks on any\n"
             "host) or resolves with that source, its expression names known quantities ('pmucal\n"
             "quantities'), and no event has two rules in one file. One TAP line per rule; a comment per\n"
             "file with its count. Exit status 0 when all is well, 1 otherwise, 2 on bad usage.\n",
    .examples = "  pmucal expect check\n"
                "  pmucal expect check my-rules/skl.txt\n",
};
PMUCAL_COMMAND(expect_command)

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int check_file(struct tap *t, const char *path)
{
    char *copy = xstrdup(path);
    char *stem = xstrdup(basename(copy));
    free(copy);
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = '\0';
    struct ruleset rs = {0};
    int bad = 0;
    if (ruleset_load(&rs, path)) {
        char desc[1024];
        snprintf(desc, sizeof(desc), "%s parses (the error above names the row)", path);
        tap_point(t, TAP_NOT_OK, desc, NULL);
        ruleset_free(&rs);
        free(stem);
        return 1;
    }
    struct pfm_core core;
    const struct source *src = NULL;
    bool pmu = pfm_pmu_by_name(stem, &core);
    if (pmu) {
        if (!pfm_force(stem))
            pmu = false;
    } else {
        src = source_find(stem);
    }
    if (!pmu && !src) {
        char desc[1024];
        snprintf(desc, sizeof(desc), "%s: no libpfm4 PMU and no counter source is named '%s'; name the file "
                 "after one (pmucal events --pmu NAME)", path, stem);
        tap_point(t, TAP_NOT_OK, desc, NULL);
        ruleset_free(&rs);
        free(stem);
        return 1;
    }
    int distinct = 0;
    for (int i = 0; i < rs.n; i++) {
        const struct rule *r = &rs.rules[i];
        struct event_spec spec = {0};
        char err[512] = "", desc[1400];
        int rc;
        if (pmu) {
            spec.name = xstrdup(r->event);
            rc = perf_generic_event(r->event, &spec) ? 0 : pfm_encode(r->event, &spec, err, sizeof(err));
        } else {
            rc = src->resolve(r->event, &spec, err, sizeof(err));
        }
        int dup = -1;
        for (int k = 0; k < i && dup < 0; k++)
            if (!strcasecmp(rs.rules[k].event, r->event))
                dup = k;
        char tol[32];
        if (rc) {
            snprintf(desc, sizeof(desc), "%s: %s does not encode for %s: %s", r->where, r->event, stem, err);
            tap_point(t, TAP_NOT_OK, desc, NULL);
            bad++;
        } else if (dup >= 0) {
            snprintf(desc, sizeof(desc), "%s: %s has a rule already at %s; keep one", r->where, r->event,
                     rs.rules[dup].where);
            tap_point(t, TAP_NOT_OK, desc, NULL);
            bad++;
        } else {
            distinct++;
            snprintf(desc, sizeof(desc), "%s: %s = %s %s%s%s (config 0x%llx)", r->where, r->event, r->expr_text,
                     tolerance_text(r, tol, sizeof(tol)), r->erratum ? " erratum " : "", r->erratum ? r->erratum : "",
                     (unsigned long long)spec.config);
            tap_point(t, TAP_OK, desc, NULL);
        }
        event_spec_clear(&spec);
    }
    tap_comment(t, "%s: %d rules, %d events with expectations for %s%s", path, rs.n, distinct, stem,
                bad ? ", with errors" : "");
    ruleset_free(&rs);
    free(stem);
    return bad ? 1 : 0;
}

static int expect_main(int argc, char **argv)
{
    struct cli_args pos;
    if (cli_parse(&expect_command, argc, argv, NULL, NULL, &pos))
        return 2;
    if (pos.n < 1 || strcmp(pos.v[0], "check")) {
        int rc = cli_usage_error(&expect_command, pos.n < 1 ? "name a subcommand: check" : "unknown subcommand %s",
                                 pos.n ? pos.v[0] : "");
        cli_args_free(&pos);
        return rc;
    }
    struct tap t = {.out = stdout};
    int failed = 0, files = 0;
    if (pos.n > 1) {
        for (int i = 1; i < pos.n; i++, files++)
            failed |= check_file(&t, pos.v[i]);
        cli_args_free(&pos);
    } else {
        cli_args_free(&pos);
        const char *dir = expect_dir();
        DIR *d = opendir(dir);
        if (!d) {
            pm_error("cannot open the expectation folder %s; set PMUCAL_EXPECT_DIR or name files", dir);
            return 2;
        }
        char **names = NULL;
        int n = 0;
        struct dirent *de;
        while ((de = readdir(d))) {
            size_t len = strlen(de->d_name);
            if (len > 4 && !strcmp(de->d_name + len - 4, ".txt")) {
                names = xrealloc(names, sizeof(*names) * (size_t)(n + 1));
                names[n++] = xasprintf("%s/%s", dir, de->d_name);
            }
        }
        closedir(d);
        qsort(names, (size_t)n, sizeof(*names), cmp_str);
        for (int i = 0; i < n; i++, files++) {
            failed |= check_file(&t, names[i]);
            free(names[i]);
        }
        free(names);
        if (!n) {
            pm_error("no *.txt expectation files in %s", dir);
            return 2;
        }
    }
    tap_plan(&t);
    tap_comment(&t, "%d files, %d rules checked, %d not ok", files, t.n, t.not_ok);
    return failed ? 1 : 0;
}
