#include "penalties/ceilings.h"
#include "base/util.h"
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

struct row {
    const char *kind, *name, *prec, *unit;
    double threads, value;
};

static int row_of(const struct jvalue *c, bool compute, struct row *r, const char *source)
{
    *r = (struct row){compute ? "peak" : "bandwidth", jget_str(c, compute ? "isa" : "level", NULL),
                      compute ? jget_str(c, "prec", NULL) : "", compute ? "GFLOP/s" : "GB/s",
                      jget_num(c, "threads", NAN), jget_num(c, compute ? "gflops" : "gbs", NAN)};
    char w[32];
    if (!r->name || !r->prec || !macro_word(r->name, w, sizeof(w)) || (compute && !macro_word(r->prec, w, sizeof(w))) ||
        !(r->threads >= 1 && r->threads <= 1024 && r->threads == floor(r->threads)) ||
        (!isnan(r->value) && !(r->value > 0 && isfinite(r->value)))) {
        pm_error("%s: a %s ceiling with a missing or malformed name, precision, thread count or value; run "
                 "'pmucal roofline' again", source, r->kind);
        return -1;
    }
    return 0;
}

int ceilings_write(const struct jvalue *roof, enum table_format f, const char *prefix, const char *source, FILE *out)
{
    if (f == TABLE_PERF_METRICS) {
        pm_error("%s: ceilings have no perf-metrics table; give --format c, csv or json", source);
        return -1;
    }
    const char *keys[2] = {"compute", "bandwidth"};
    struct row *rows = NULL;
    int n = 0;
    for (int k = 0; k < 2; k++) {
        const struct jvalue *a = jget(roof, keys[k]);
        for (int i = 0; a && a->type == J_ARRAY && i < a->n; i++) {
            rows = xrealloc(rows, sizeof(*rows) * (size_t)(n + 1));
            if (row_of(&a->items[i], k == 0, &rows[n++], source)) {
                free(rows);
                return -1;
            }
        }
    }
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
        const struct row *r = &rows[i];
        char name[32], prec[32] = "";
        macro_word(r->name, name, sizeof(name));
        if (*r->prec)
            macro_word(r->prec, prec, sizeof(prec));
        if (f == TABLE_CSV) {
            fprintf(out, "%s,%s,%s,%.0f,", r->kind, r->name, r->prec, r->threads);
            if (!isnan(r->value))
                fprintf(out, "%.4g", r->value);
            fprintf(out, ",%s\n", r->unit);
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
                    r->kind, r->name, r->prec, r->threads);
            if (isnan(r->value))
                fprintf(out, "null");
            else
                fprintf(out, "%.6g", r->value);
            fprintf(out, ", \"unit\": \"%s\"}%s\n", r->unit, i + 1 < n ? "," : "");
        }
    }
    if (f == TABLE_C)
        fprintf(out, "#endif\n");
    else if (f == TABLE_JSON)
        fprintf(out, "]\n");
    free(rows);
    return 0;
}

struct jvalue *ceilings_load(const char *run, const char *opt)
{
    /* A folder's roofline.json, or a file by its folder and name: read as every run file is
     * (runs/rundir.h: no link followed, no FIFO or device). */
    struct stat st;
    bool dir = stat(run, &st) == 0 && S_ISDIR(st.st_mode);
    char *copy = xstrdup(run), *slash = strrchr(copy, '/');
    const char *folder = dir ? run : slash ? (*slash = 0, *copy ? copy : "/") : ".";
    const char *name = dir ? "roofline.json" : slash ? slash + 1 : copy;
    char err[256];
    size_t len;
    struct jvalue *doc = NULL;
    char *text = run_file_read(folder, name, &len, err, sizeof(err));
    if (text && !(doc = jread_parse(text, len, err, sizeof(err))))
        pm_error("%s %s/%s: %s; run 'pmucal roofline' again", opt, folder, name, err);
    else if (!text)
        pm_error("%s %s: %s; give a folder of 'pmucal roofline' or its roofline.json", opt, run, err);
    free(text);
    free(copy);
    return doc;
}
