/* curve.csv and c2c.csv of a run (penalties/curve.c and runs/c2c_csv.c write them, under the headers
 * defined here): the header is checked, each row must hold its numbers, or the file is refused
 * with path:line. */
#include "base/util.h"
#include "runs/runfile.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char curve_csv_header[] = "bytes,cycles_per_load,ns_per_load,cycles_min,cycles_max";
const char c2c_csv_header[] =
    "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions";

typedef int (*row_fn)(struct runfile *r, char **fields, char *err, size_t errlen);

/* cut NULL: every line must be whole. Else the last line may have been cut short (a file grown a
 * row at a time by a run that was killed): without its newline, or as a row that does not parse,
 * it is dropped into *cut instead of refusing the file. */
static int each_row(struct runfile *r, const char *text, const char *path, const char *header, int nfields, row_fn fn,
                    struct csv_cut *cut)
{
    int lineno = 0;
    bool seen_header = false;
    if (cut)
        *cut = (struct csv_cut){0};
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *l = xmalloc(len + 1);
        memcpy(l, p, len);
        l[len] = '\0';
        if (len && l[len - 1] == '\r')
            l[len - 1] = '\0';
        p = nl ? nl + 1 : p + len;
        lineno++;
        int rc = 0;
        bool last = cut && !*p;
        if (!l[0])
            ;
        else if (last && !nl) {
            cut->line = lineno;
            snprintf(cut->why, sizeof(cut->why), "it has no newline");
        } else if (!seen_header) {
            seen_header = true;
            if (strcmp(l, header)) {
                pm_error("%s:%d: corrupt run folder: expected the header '%s'; re-run the command that made it",
                         path, lineno, header);
                rc = -1;
            }
        } else {
            int n = 0;
            char **f = split_list(l, ',', &n), err[256];
            snprintf(err, sizeof(err), "expected %d comma-separated values as the header names", nfields);
            rc = n == nfields ? fn(r, f, err, sizeof(err)) : -1;
            free_list(f);
            if (rc && last) {
                cut->line = lineno;
                snprintf(cut->why, sizeof(cut->why), "%s", err);
                rc = 0;
            } else if (rc)
                pm_error("%s:%d: corrupt run folder: %s; re-run the command that made it", path, lineno, err);
        }
        free(l);
        if (rc)
            return -1;
    }
    return 0;
}

/* Field i of a row, a number within [lo, hi] (number_in: finite); the header names the field. */
static bool number(char **f, int i, const char *header, double lo, double hi, double *out, char *err, size_t errlen)
{
    char *end, name[64];
    const char *h = header;
    for (int k = 0; k < i && h; k++)
        h = strchr(h, ',') ? strchr(h, ',') + 1 : NULL;
    snprintf(name, sizeof(name), "%.*s", h ? (int)strcspn(h, ",") : 1, h ? h : "?");
    *out = strtod(f[i], &end);
    if (end == f[i] || *end) {
        snprintf(err, errlen, "%s is '%.40s', not a number", name, f[i]);
        return false;
    }
    return number_in(*out, lo, hi, name, err, errlen);
}

/* Bounds wide enough for any machine, narrow enough that every use (a log scale, an int) is defined. */
#define MAX_BYTES 0x1p50
#define MAX_CYCLES 1e9

static int curve_row(struct runfile *r, char **f, char *err, size_t n)
{
    const char *h = curve_csv_header;
    struct curve_point pt;
    if (!number(f, 0, h, 1, MAX_BYTES, &pt.bytes, err, n) || !number(f, 1, h, 1e-3, MAX_CYCLES, &pt.cycles, err, n) ||
        !number(f, 2, h, 1e-3, MAX_CYCLES, &pt.ns, err, n) || !number(f, 3, h, 0, MAX_CYCLES, &pt.lo, err, n) ||
        !number(f, 4, h, 0, MAX_CYCLES, &pt.hi, err, n))
        return -1;
    r->curve = xgrow(r->curve, sizeof(*r->curve), r->ncurve);
    r->curve[r->ncurve++] = pt;
    return 0;
}

int curve_csv_parse(struct runfile *r, const char *text, const char *path)
{
    return each_row(r, text, path, curve_csv_header, 5, curve_row, NULL);
}

static int c2c_row(struct runfile *r, char **f, char *err, size_t n)
{
    const char *h = c2c_csv_header;
    struct c2c_pair c;
    double from, to, reps;
    if (!number(f, 0, h, 0, 1e6, &from, err, n) || !number(f, 1, h, 0, 1e6, &to, err, n) ||
        !number(f, 3, h, 0, MAX_CYCLES, &c.cycles, err, n) || !number(f, 4, h, 0, MAX_CYCLES, &c.cycles_min, err, n) ||
        !number(f, 5, h, 0, MAX_CYCLES, &c.cycles_mad, err, n) || !number(f, 6, h, 0, MAX_CYCLES, &c.ns, err, n) ||
        !number(f, 7, h, 0, 1e9, &reps, err, n))
        return -1;
    if (from != floor(from) || to != floor(to) || reps != floor(reps)) {
        snprintf(err, n, "the CPUs and repetitions are whole numbers, not %s, %s, %s", f[0], f[1], f[7]);
        return -1;
    }
    c.from = (int)from, c.to = (int)to, c.repetitions = (int)reps;
    c.relation = xstrdup(f[2]);
    r->c2c = xgrow(r->c2c, sizeof(*r->c2c), r->nc2c);
    r->c2c[r->nc2c++] = c;
    return 0;
}

int c2c_csv_parse(struct runfile *r, const char *text, const char *path)
{
    return each_row(r, text, path, c2c_csv_header, 8, c2c_row, NULL);
}

int c2c_csv_parse_cut(struct runfile *r, const char *text, const char *path, struct csv_cut *cut)
{
    return each_row(r, text, path, c2c_csv_header, 8, c2c_row, cut);
}
