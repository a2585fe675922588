#include "penalties/ceilings.h"
#include "base/util.h"
#include "core/team.h"
#include "runs/rundir.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Upper-case letters and digits of a name for a macro: anything else is refused by the check. */
static bool macro_word(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        if (!isalnum((unsigned char)*s))
            return false;
        out[k++] = (char)toupper((unsigned char)*s);
    }
    out[k] = 0;
    return k > 0 && !*s;
}

/* A member that may be null (a ceiling not measured): NAN when null or absent, else a number
 * checked by jget_in. */
static bool num_or_null(const struct jvalue *c, const char *key, double lo, double hi, double *out, char *err,
                        size_t n)
{
    const struct jvalue *v = jget(c, key);
    if (!v || v->type == J_NULL) {
        *out = NAN;
        return true;
    }
    return jget_in(c, key, lo, hi, false, NAN, out, err, n);
}

/* Bounds no machine reaches: a ceiling above 1e9 GFLOP/s or GB/s, a clock above 1000 GHz or a
 * working set of a petabyte is a damaged file. */
#define VALUE_MAX 1e9
#define GHZ_MAX 1000.0
#define SET_BYTES_MAX 1e15

static int row_of(const struct jvalue *c, bool compute, int i, struct ceiling_row *r, const char *file)
{
    const char *kind = compute ? "compute" : "bandwidth";
    *r = (struct ceiling_row){compute, jget_str(c, compute ? "isa" : "level", NULL),
                              compute ? jget_str(c, "prec", NULL) : "", jget_str(c, compute ? "op" : "variant", ""),
                              jget_str(c, "withheld", NULL), NAN, NAN, NAN, NAN};
    char w[32], err[160] = "";
    const char *name_key = compute ? "\"isa\"" : "\"level\"";
    bool good = true;
    if (!r->name || !r->prec)
        good = false, snprintf(err, sizeof(err), "%s is missing", !r->name ? name_key : "\"prec\"");
    else if (!macro_word(r->name, w, sizeof(w)) || (compute && !macro_word(r->prec, w, sizeof(w))))
        good = false, snprintf(err, sizeof(err), "%s is \"%.40s\": give letters and digits only (a macro's name)",
                               macro_word(r->name, w, sizeof(w)) ? "\"prec\"" : name_key,
                               macro_word(r->name, w, sizeof(w)) ? r->prec : r->name);
    good = good && jget_in(c, "threads", 1, TEAM_MAX, false, 0, &r->threads, err, sizeof(err));
    if (good && r->threads != floor(r->threads))
        good = false, snprintf(err, sizeof(err), "\"threads\" is %g; give a whole number", r->threads);
    good = good && num_or_null(c, compute ? "gflops" : "gbs", 1e-9, VALUE_MAX, &r->value, err, sizeof(err)) &&
           num_or_null(c, "core_ghz", 1e-3, GHZ_MAX, &r->ghz, err, sizeof(err)) &&
           (compute || num_or_null(c, "bytes_per_thread", 1, SET_BYTES_MAX, &r->set_bytes, err, sizeof(err)));
    if (!good) {
        pm_error("%s: %s ceiling %d: %s; run 'pmucal roofline' again", file, kind, i + 1, err);
        return -1;
    }
    return 0;
}

int ceilings_rows(const struct jvalue *roof, const char *file, struct ceiling_row **rows)
{
    const char *keys[2] = {"compute", "bandwidth"};
    int n = 0;
    *rows = NULL;
    for (int k = 0; k < 2; k++) {
        const struct jvalue *a = jget(roof, keys[k]);
        for (int i = 0; a && a->type == J_ARRAY && i < a->n; i++) {
            *rows = xrealloc(*rows, sizeof(**rows) * (size_t)(n + 1));
            if (row_of(&a->items[i], k == 0, i, &(*rows)[n++], file)) {
                free(*rows);
                *rows = NULL;
                return -1;
            }
        }
    }
    return n;
}

int ceilings_write(const struct jvalue *roof, enum table_format f, const char *prefix, const char *source, FILE *out)
{
    if (f == TABLE_PERF_METRICS) {
        pm_error("%s: ceilings have no perf-metrics table; give --format c, csv or json", source);
        return -1;
    }
    struct ceiling_row *rows;
    int n = ceilings_rows(roof, source, &rows);
    if (n < 0)
        return -1;
    if (!n) {
        pm_error("%s: no ceilings (no compute or bandwidth entry); run 'pmucal roofline' again", source);
        free(rows);
        return -1;
    }
    if (f == TABLE_CSV)
        fprintf(out, "kind,name,precision,threads,value,unit\n");
    else if (f == TABLE_C)
        fprintf(out, "/* Roofline ceilings measured by pmucal roofline, from %s. */\n#ifndef %s_ROOFLINE_H\n"
                     "#define %s_ROOFLINE_H\n", strstr(source, "*/") ? "a file whose path ends a C comment" : source,
                prefix, prefix);
    else
        fprintf(out, "[\n");
    for (int i = 0; i < n; i++) {
        const struct ceiling_row *r = &rows[i];
        const char *kind = r->compute ? "peak" : "bandwidth", *unit = r->compute ? "GFLOP/s" : "GB/s";
        char name[32], prec[32] = "";
        macro_word(r->name, name, sizeof(name));
        if (*r->prec)
            macro_word(r->prec, prec, sizeof(prec));
        if (f == TABLE_CSV) {
            fprintf(out, "%s,%s,%s,%.0f,", kind, r->name, r->prec, r->threads);
            if (!isnan(r->value))
                fprintf(out, "%.4g", r->value);
            fprintf(out, ",%s\n", unit);
        } else if (f == TABLE_C) {
            char macro[128];
            snprintf(macro, sizeof(macro), "%s_%s_%s%s%s_T%.0f", prefix, *r->prec ? "PEAK_GFLOPS" : "BW_GBS", name,
                     *prec ? "_" : "", prec, r->threads);
            if (isnan(r->value))
                fprintf(out, "/* %s: not measured (SKIP) */\n", macro);
            else
                fprintf(out, "#define %s %.4g\n", macro, r->value);
        } else {
            fprintf(out, "  {\"kind\": \"%s\", \"name\": \"%s\", \"precision\": \"%s\", \"threads\": %.0f, \"value\": ",
                    kind, r->name, r->prec, r->threads);
            if (isnan(r->value))
                fprintf(out, "null");
            else
                fprintf(out, "%.6g", r->value);
            fprintf(out, ", \"unit\": \"%s\"}%s\n", unit, i + 1 < n ? "," : "");
        }
    }
    if (f == TABLE_C)
        fprintf(out, "#endif\n");
    else if (f == TABLE_JSON)
        fprintf(out, "]\n");
    free(rows);
    return 0;
}

struct jvalue *ceilings_load(const char *run, const char *opt, char **file)
{
    /* A folder's roofline.json, or a file by its folder and name: read as every run file is
     * (runs/rundir.h: no link followed, no FIFO or device). */
    struct stat st;
    bool dir = stat(run, &st) == 0 && S_ISDIR(st.st_mode);
    char *copy = xstrdup(run), *slash = strrchr(copy, '/');
    const char *folder = dir ? run : slash ? (*slash = 0, *copy ? copy : "/") : ".";
    const char *name = dir ? "roofline.json" : slash ? slash + 1 : copy;
    size_t rl = strlen(run);
    char *path = dir ? xasprintf("%s%sroofline.json", run, rl && run[rl - 1] == '/' ? "" : "/") : xstrdup(run);
    char err[256];
    size_t len;
    struct jvalue *doc = NULL;
    char *text = run_file_read(folder, name, &len, err, sizeof(err));
    if (text && !(doc = jread_parse(text, len, err, sizeof(err))))
        pm_error("%s %s: %s; run 'pmucal roofline' again", opt, path, err);
    else if (!text)
        pm_error("%s %s: %s; give a folder of 'pmucal roofline' or its roofline.json", opt, run, err);
    free(text);
    free(copy);
    if (doc && file)
        *file = path;
    else
        free(path);
    return doc;
}
