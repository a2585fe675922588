/* Rule files checked offline (validate/rule_lint.h). */
#include "validate/rule_lint.h"
#include "arch/isa.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/perfsyntax.h"
#include "events/pfm.h"
#include "validate/rules.h"
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A table under the eventdata root by this name (amdzen5): its rules use the table's names. */
static bool table_exists(const char *stem)
{
    char *p = catalog_table_path(stem);
    bool found = p != NULL;
    free(p);
    return found;
}

/* A rule's event against a vendor table: perf's generic names, perf's syntax, the table's names. */
static int table_resolve(const char *name, struct event_spec *spec, const char *table, char *err, size_t n)
{
    if (perf_generic_event(name, spec))
        return 0;
    int rc = perf_syntax_parse(name, spec, err, n);
    if (!rc)
        rc = catalog_resolve(name, spec, err, n);
    if (!rc)
        snprintf(err, n, "no event '%s' in the %s table ('pmucal events --vendor-json %s' lists them)", name, table,
                 table);
    return rc > 0 ? 0 : -1;
}

/* The vendor table of a libpfm4 PMU's model (amd64_fam19h_zen4 -> amdzen4), made the active
 * catalog; false when there is none. */
static bool load_model_table(struct catalog *c, const char *pmu)
{
    const char *name = catalog_table_of_pfm(pmu);
    if (!name || !table_exists(name) || catalog_load(c, name))
        return false;
    catalog_set_active(c);
    return true;
}

int rules_lint_file(struct tap *t, const char *path)
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
        tap_point(t, VERDICT_NOT_OK, desc, NULL);
        ruleset_free(&rs);
        free(stem);
        return 1;
    }
    struct pfm_core core;
    const struct source *src = NULL;
    struct catalog table = {0};
    bool pmu = pfm_pmu_by_name(stem, &core), have_table = false;
    if (pmu) {
        if (!pfm_force(stem))
            pmu = false;
    } else if (!(src = source_find(stem)) && table_exists(stem)) {
        have_table = !catalog_load(&table, stem);
        if (have_table)
            catalog_set_active(&table);
    }
    /* libpfm4 is built with its own ISA's PMU tables only: another ISA's file is checked by a
     * build for that ISA (arm_n1.txt on the emulated N1, tests/72-arch-emu-n1.t). */
    static const struct {
        const char *prefix, *isa;
    } pmu_isa[] = {{"arm_", "AArch64"}, {"amd64_", "x86-64"}};
    for (size_t i = 0; !pmu && !src && !have_table && i < sizeof(pmu_isa) / sizeof(pmu_isa[0]); i++)
        if (!strncmp(stem, pmu_isa[i].prefix, strlen(pmu_isa[i].prefix)) && strcmp(pmu_isa[i].isa, ISA_NAME)) {
            char desc[1024], why[256];
            snprintf(desc, sizeof(desc), "%s: the rules of libpfm4 PMU %s", path, stem);
            snprintf(why, sizeof(why), "an %s PMU: this %s build of libpfm4 holds no %s PMU tables; an %s build "
                     "checks it", pmu_isa[i].isa, ISA_NAME, pmu_isa[i].isa, pmu_isa[i].isa);
            tap_point(t, VERDICT_SKIP, desc, why);
            ruleset_free(&rs);
            free(stem);
            return 0;
        }
    if (!pmu && !src && !have_table) {
        char desc[1024];
        snprintf(desc, sizeof(desc), "%s: no libpfm4 PMU, counter source or vendor table (under %s) is named '%s'; "
                 "name the file after one (pmucal events --pmu NAME)", path, catalog_root(), stem);
        tap_point(t, VERDICT_NOT_OK, desc, NULL);
        ruleset_free(&rs);
        free(stem);
        return 1;
    }
    int distinct = 0;
    struct catalog model_table = {0};
    for (int i = 0; i < rs.n; i++) {
        const struct rule *r = &rs.rules[i];
        struct event_spec spec = {0};
        char err[512] = "", desc[1400];
        int rc;
        if (pmu) {
            spec.name = xstrdup(r->event);
            rc = perf_generic_event(r->event, &spec) ? 0 : pfm_encode(r->event, &spec, err, sizeof(err));
            /* Names libpfm4 lacks resolve through the model's vendor table, as they do when measured
             * (the perf source's order): Zen 4's memory controller is amdzen4's UMCPMC. */
            char table_err[512];
            if (rc && (model_table.name || load_model_table(&model_table, stem)) &&
                table_resolve(r->event, &spec, model_table.name, table_err, sizeof(table_err)) == 0)
                rc = 0;
        } else if (have_table) {
            spec.name = xstrdup(r->event);
            rc = table_resolve(r->event, &spec, table.name, err, sizeof(err));
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
            tap_point(t, VERDICT_NOT_OK, desc, NULL);
            bad++;
        } else if (spec.uncore[0] && r->tol != TOL_LEAST && r->tol != TOL_INFO) {
            snprintf(desc, sizeof(desc), "%s: %s counts CPU-wide (uncore %s: the whole socket, other work "
                     "included): its rule must be a lower bound, >=N%%, not %s", r->where, r->event, spec.uncore,
                     tolerance_text(r, tol, sizeof(tol)));
            tap_point(t, VERDICT_NOT_OK, desc, NULL);
            bad++;
        } else if (dup >= 0) {
            snprintf(desc, sizeof(desc), "%s: %s has a rule already at %s; keep one", r->where, r->event,
                     rs.rules[dup].where);
            tap_point(t, VERDICT_NOT_OK, desc, NULL);
            bad++;
        } else {
            distinct++;
            snprintf(desc, sizeof(desc), "%s: %s = %s %s%s%s (config 0x%llx%s%s)", r->where, r->event, r->expr_text,
                     tolerance_text(r, tol, sizeof(tol)), r->erratum ? " erratum " : "", r->erratum ? r->erratum : "",
                     (unsigned long long)spec.config, spec.uncore[0] ? ", CPU-wide on every " : "", spec.uncore);
            tap_point(t, VERDICT_OK, desc, NULL);
        }
        event_spec_clear(&spec);
    }
    tap_comment(t, "%s: %d rules, %d events with expectations for %s%s%s%s%s", path, rs.n, distinct, stem,
                have_table ? " (vendor table " : "", have_table ? table.path : "", have_table ? ")" : "",
                bad ? ", with errors" : "");
    catalog_set_active(NULL);
    catalog_free(&table);
    catalog_free(&model_table);
    ruleset_free(&rs);
    free(stem);
    return bad ? 1 : 0;
}

int rules_lint_shipped(struct tap *t, int *files)
{
    const char *dir = expect_dir();
    DIR *d = opendir(dir);
    if (!d) {
        pm_error("cannot open the expectation folder %s; set PMUCAL_EXPECT_DIR or name files", dir);
        return 2;
    }
    char **names = NULL;
    int n = 0, failed = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len > 4 && !strcmp(de->d_name + len - 4, ".txt")) {
            names = xrealloc(names, sizeof(*names) * (size_t)(n + 1));
            names[n++] = xasprintf("%s/%s", dir, de->d_name);
        }
    }
    closedir(d);
    if (n)   /* an empty folder: nothing to sort (qsort wants a list, not NULL) */
        qsort(names, (size_t)n, sizeof(*names), cmp_str);
    for (int i = 0; i < n; i++, (*files)++) {
        failed |= rules_lint_file(t, names[i]);
        free(names[i]);
    }
    free(names);
    if (!n) {
        pm_error("no *.txt rule files in %s", dir);
        return 2;
    }
    return failed;
}
