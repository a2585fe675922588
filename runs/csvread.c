/* curve.csv and c2c.csv of a run (penalties/curve.c and cmd/c2c.c write them, under the headers
 * defined here): the header is checked, each row must hold its numbers, or the file is refused
 * with path:line. */
#include "base/util.h"
#include "runs/runfile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char curve_csv_header[] = "bytes,cycles_per_load,ns_per_load,cycles_min,cycles_max";
const char c2c_csv_header[] =
    "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions";

typedef int (*row_fn)(struct runfile *r, char **fields, int n);

static int each_row(struct runfile *r, const char *text, const char *path, const char *header, int nfields, row_fn fn)
{
    int lineno = 0;
    bool seen_header = false;
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
        if (!l[0])
            ;
        else if (!seen_header) {
            seen_header = true;
            if (strcmp(l, header)) {
                pm_error("%s:%d: corrupt run folder: expected the header '%s'; re-run the command that made it",
                         path, lineno, header);
                rc = -1;
            }
        } else {
            int n = 0;
            char **f = split_list(l, ',', &n);
            rc = n == nfields ? fn(r, f, n) : -1;
            free_list(f);
            if (rc)
                pm_error("%s:%d: corrupt run folder: expected %d comma-separated values as the header names; "
                         "re-run the command that made it", path, lineno, nfields);
        }
        free(l);
        if (rc)
            return -1;
    }
    return 0;
}

static bool number(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && !*end;
}

static int curve_row(struct runfile *r, char **f, int n)
{
    (void)n;
    struct curve_point pt;
    if (!number(f[0], &pt.bytes) || !number(f[1], &pt.cycles) || !number(f[2], &pt.ns) || !number(f[3], &pt.lo)
        || !number(f[4], &pt.hi) || pt.bytes <= 0)
        return -1;
    r->curve = xrealloc(r->curve, (size_t)(r->ncurve + 1) * sizeof(*r->curve));
    r->curve[r->ncurve++] = pt;
    return 0;
}

int curve_csv_parse(struct runfile *r, const char *text, const char *path)
{
    return each_row(r, text, path, curve_csv_header, 5, curve_row);
}

static int c2c_row(struct runfile *r, char **f, int n)
{
    (void)n;
    struct c2c_pair c;
    double from, to, reps;
    if (!number(f[0], &from) || !number(f[1], &to) || !number(f[3], &c.cycles) || !number(f[4], &c.cycles_min)
        || !number(f[5], &c.cycles_mad) || !number(f[6], &c.ns) || !number(f[7], &reps) || from < 0 || to < 0
        || from > 1e6 || to > 1e6)
        return -1;
    c.from = (int)from, c.to = (int)to;
    c.relation = xstrdup(f[2]);
    r->c2c = xrealloc(r->c2c, (size_t)(r->nc2c + 1) * sizeof(*r->c2c));
    r->c2c[r->nc2c++] = c;
    return 0;
}

int c2c_csv_parse(struct runfile *r, const char *text, const char *path)
{
    return each_row(r, text, path, c2c_csv_header, 8, c2c_row);
}
