/* c2c.csv read back (runs/csvread.c): strictly by report, and by c2c --resume, which drops a last
 * line its run was killed writing (the file grows a row per pair) and refuses any other damage. */
#include "runs/runfile.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

#define H "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions\n"
#define ROW01 "0,1,same-l3,141.10,135.40,2.60,39.30,101\n"
#define ROW10 "1,0,same-l3,225.40,193.10,23.20,62.80,101\n"

static const struct {
    int line;
    bool resume;         /* c2c_csv_parse_cut, else c2c_csv_parse */
    const char *text;
    int rc, rows;        /* rows: kept when rc is 0 */
    int cut;             /* the line dropped, 0: none */
    const char *why;     /* in the cut's why */
} rows[] = {
    {__LINE__, true, H ROW01 ROW10, 0, 2, 0, NULL},
    {__LINE__, true, "", 0, 0, 0, NULL},
    {__LINE__, true, H, 0, 0, 0, NULL},
    /* Killed mid-row: the part written has no newline. */
    {__LINE__, true, H ROW01 "1,0,same-l3,2", 0, 1, 3, "it has no newline"},
    /* A whole-looking row without its newline may be a number cut short (101 as 10): dropped. */
    {__LINE__, true, H ROW01 "1,0,same-l3,225.40,193.10,23.20,62.80,10", 0, 1, 3, "it has no newline"},
    /* Killed while the header was written. */
    {__LINE__, true, "from_cpu,to_c", 0, 0, 1, "it has no newline"},
    /* A last row that does not parse, newline or not. */
    {__LINE__, true, H ROW01 "1,0,same-l3,x\n", 0, 1, 3, "expected 8 comma-separated values"},
    {__LINE__, true, H ROW01 "1,0,same-l3,x,1,1,1,1\n", 0, 1, 3, "cycles_median is 'x', not a number"},
    /* The same damage before the last line is not a kill: refused. */
    {__LINE__, true, H "1,0,same-l3,x\n" ROW01, -1, 0, 0, NULL},
    {__LINE__, true, "from_cpu,to_cpu\n" ROW01, -1, 0, 0, NULL},
    /* report reads strictly: a cut row that does not parse is refused. */
    {__LINE__, false, H ROW01 "1,0,same-l3,2", -1, 0, 0, NULL},
    {__LINE__, false, H ROW01 ROW10, 0, 2, 0, NULL},
};

int main(void)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct runfile r = {0};
        struct csv_cut cut = {.line = -1};
        int rc = rows[i].resume ? c2c_csv_parse_cut(&r, rows[i].text, "c2c.csv", &cut)
                                : c2c_csv_parse(&r, rows[i].text, "c2c.csv");
        CHECK(rc == rows[i].rc, rows[i].line, "%s parse returns %d (want %d)", rows[i].resume ? "resume" : "strict", rc,
              rows[i].rc);
        if (!rows[i].rc) {
            CHECK(r.nc2c == rows[i].rows, rows[i].line, "%d rows kept (want %d)", r.nc2c, rows[i].rows);
            if (rows[i].resume)
                CHECK(cut.line == rows[i].cut && (!rows[i].why || strstr(cut.why, rows[i].why)), rows[i].line,
                      "line %d dropped (want %d), why '%s' (want '%s')", cut.line, rows[i].cut, cut.why,
                      rows[i].why ? rows[i].why : "");
        }
        runfile_free(&r);
    }
    /* The kept rows are the file's, in order. */
    struct runfile r = {0};
    struct csv_cut cut;
    int rc = c2c_csv_parse_cut(&r, H ROW10 ROW01 "0,1,sa", "c2c.csv", &cut);
    CHECK(!rc && r.nc2c == 2 && r.c2c[0].from == 1 && r.c2c[0].to == 0 && r.c2c[1].from == 0 && r.c2c[1].to == 1 &&
              r.c2c[1].repetitions == 101 && fabs(r.c2c[0].cycles - 225.4) < 1e-9,
          __LINE__, "the rows before a cut are kept as written: %d rows", r.nc2c);
    runfile_free(&r);
    return done_testing();
}
