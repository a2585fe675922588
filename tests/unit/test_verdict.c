/* The verdict's, the penalty status's and the classifier's status's names are what run folders
 * store: each name read back is the value written, and a word that is no name is refused (so the
 * reader can name the bad input) without touching the caller's value. */
#include "base/verdict.h"
#include "penalties/status.h"
#include "runs/classify_status.h"
#include "tap.h"
#include <stdbool.h>
#include <string.h>

enum table { VERDICT, STATUS, CLASSIFY };
static const char *const table_name[] = {[VERDICT] = "verdict", [STATUS] = "penalty status",
                                           [CLASSIFY] = "classifier status"};

static const struct {
    int line;
    enum table t;
    int value;          /* an enum verdict, enum penalty_status or enum classify_status */
    const char *name;   /* its name; NULL: word is none of the table's */
    const char *word;
} rows[] = {
    {__LINE__, VERDICT, VERDICT_OK, "ok", NULL},
    {__LINE__, VERDICT, VERDICT_NOT_OK, "not ok", NULL},
    {__LINE__, VERDICT, VERDICT_SKIP, "skip", NULL},
    {__LINE__, VERDICT, VERDICT_TODO, "todo", NULL},
    {__LINE__, VERDICT, VERDICT_INFO, "info", NULL},
    {__LINE__, VERDICT, VERDICTS, "?", NULL},   /* out of range: named, never read back */
    {__LINE__, VERDICT, 0, NULL, "not_ok"},     /* the penalty status's spelling, not the verdict's */
    {__LINE__, VERDICT, 0, NULL, "OK"},
    {__LINE__, VERDICT, 0, NULL, "ok "},
    {__LINE__, VERDICT, 0, NULL, ""},
    {__LINE__, VERDICT, 0, NULL, NULL},
    {__LINE__, STATUS, PENALTY_OK, "ok", NULL},
    {__LINE__, STATUS, PENALTY_UNSTABLE, "unstable", NULL},
    {__LINE__, STATUS, PENALTY_NOT_OK, "not_ok", NULL},
    {__LINE__, STATUS, PENALTY_SKIP, "skip", NULL},
    {__LINE__, STATUS, PENALTY_ERROR, "error", NULL},
    {__LINE__, STATUS, PENALTY_WITHHELD, "withheld", NULL},
    {__LINE__, STATUS, PENALTY_STATUSES, "?", NULL},
    {__LINE__, STATUS, 0, NULL, "not ok"},      /* the verdict's spelling, not the status's */
    {__LINE__, STATUS, 0, NULL, "todo"},
    {__LINE__, STATUS, 0, NULL, "Unstable"},
    {__LINE__, STATUS, 0, NULL, ""},
    {__LINE__, STATUS, 0, NULL, NULL},
    {__LINE__, CLASSIFY, CLASSIFY_CLEAN, "clean", NULL},
    {__LINE__, CLASSIFY, CLASSIFY_SUSPECT, "suspect", NULL},
    {__LINE__, CLASSIFY, CLASSIFY_UNEXPLAINED, "unexplained", NULL},
    {__LINE__, CLASSIFY, CLASSIFY_SILENT, "silent", NULL},
    {__LINE__, CLASSIFY, CLASSIFY_STATUSES, "?", NULL},
    {__LINE__, CLASSIFY, 0, NULL, "ok"},             /* the verdict's word, not the classifier's */
    {__LINE__, CLASSIFY, 0, NULL, "Clean"},
    {__LINE__, CLASSIFY, 0, NULL, ""},
    {__LINE__, CLASSIFY, 0, NULL, NULL},
};

static const char *name_of(enum table t, int value)
{
    return t == VERDICT ? verdict_name((enum verdict)value)
           : t == STATUS ? penalty_status_name((enum penalty_status)value)
                         : classify_status_name((enum classify_status)value);
}

/* The table's parser; *value is left as it was when it refuses. */
static bool parse(enum table t, const char *s, int *value)
{
    enum verdict v = (enum verdict)*value;
    enum penalty_status st = (enum penalty_status)*value;
    enum classify_status cls = (enum classify_status)*value;
    bool read = t == VERDICT ? verdict_parse(s, &v)
                : t == STATUS ? penalty_status_parse(s, &st)
                              : classify_status_parse(s, &cls);
    *value = t == VERDICT ? (int)v : t == STATUS ? (int)st : (int)cls;
    return read;
}

int main(void)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        int got = 99;
        if (rows[i].name && strcmp(rows[i].name, "?")) {
            bool read = parse(rows[i].t, rows[i].name, &got);
            CHECK(!strcmp(name_of(rows[i].t, rows[i].value), rows[i].name) && read && got == rows[i].value,
                  rows[i].line, "%s %d is called '%s' and reads back as %d", table_name[rows[i].t], rows[i].value,
                  name_of(rows[i].t, rows[i].value), got);
        } else if (rows[i].name) {
            CHECK(!strcmp(name_of(rows[i].t, rows[i].value), "?") && !parse(rows[i].t, "?", &got) && got == 99,
                  rows[i].line, "%s %d, out of range, is called '%s', a name never read", table_name[rows[i].t],
                  rows[i].value, name_of(rows[i].t, rows[i].value));
        } else {
            bool read = parse(rows[i].t, rows[i].word, &got);
            CHECK(!read && got == 99, rows[i].line, "'%s' is refused as a %s, the value kept",
                  rows[i].word ? rows[i].word : "(null)", table_name[rows[i].t]);
        }
    }
    /* Every value below each table's count has a name that reads back to it: a value added to an
     * enum without its name would be written as '?' into run folders and never read again. */
    static const int counts[] = {VERDICTS, PENALTY_STATUSES, CLASSIFY_STATUSES};
    for (int t = 0; t < 3; t++) {
        int named = 0;
        for (int v = 0; v < counts[t]; v++) {
            int got = -1;
            named += strcmp(name_of((enum table)t, v), "?") && parse((enum table)t, name_of((enum table)t, v), &got) &&
                     got == v;
        }
        CHECK(counts[t] > 0 && named == counts[t], __LINE__, "%s: %d of its %d values named and read back",
              table_name[t], named, counts[t]);
    }
    return done_testing();
}
