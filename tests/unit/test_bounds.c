/* Parsers hold their limits (issue 16, found by fuzzing): deep nesting and endless terms in an
 * expression are errors, not a stack overflow; a JSON document the reader accepts can be written
 * again at any depth it allows. */
#include "base/jread.h"
#include "base/json.h"
#include "core/expr.h"
#include "penalties/tables.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

static char *repeat(const char *unit, int n, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = malloc(u * (size_t)n + t + 1), *w = s;
    for (int i = 0; i < n; i++, w += u)
        memcpy(w, unit, u);
    memcpy(w, tail, t + 1);
    return s;
}

int main(void)
{
    static const struct {
        int line;
        const char *unit, *tail;
        int n;
        const char *want;   /* in the error; NULL: it parses */
    } deep[] = {
        {__LINE__, "(", "inst", 25000, "nested too deep"},
        {__LINE__, "-", "inst", 35000, "nested too deep"},
        {__LINE__, "inst + ", "inst", 876000, "too many terms"},
        {__LINE__, "(", "inst", 20, "missing ')'"},
        {__LINE__, "-", "inst", 20, NULL},
        {__LINE__, "inst + ", "inst", 100, NULL},
    };
    for (size_t i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
        char *text = repeat(deep[i].unit, deep[i].n, deep[i].tail), err[256] = "";
        struct expr *e = expr_parse(text, err, sizeof(err));
        if (deep[i].want)
            CHECK(!e && strstr(err, deep[i].want), deep[i].line, "%d x '%s': an error saying '%s' (got '%.60s')",
                  deep[i].n, deep[i].unit, deep[i].want, err);
        else
            CHECK(e != NULL, deep[i].line, "%d x '%s' parses (%s)", deep[i].n, deep[i].unit, err);
        expr_free(e);
        free(text);
    }

    /* JSON at the reader's depth limit is written again; one level more is refused when read. */
    for (int d = JSON_MAX_DEPTH - 2; d <= JSON_MAX_DEPTH + 2; d++) {
        char *open = repeat("[", d + 1, ""), *close = repeat("]", d + 1, ""), *doc = NULL;
        if (asprintf(&doc, "{\"penalties\":%s%s}", open, close) < 0)
            return 1;
        char err[256] = "";
        struct jvalue *v = jread_parse(doc, strlen(doc), err, sizeof(err));
        FILE *null = fopen("/dev/null", "w");
        struct table_opts o = {.prefix = "T"};
        int rc = v ? tables_write(v, TABLE_JSON, &o, null) : -1;
        fclose(null);
        CHECK(v ? rc == 0 : strstr(err, "nested too deep") != NULL, __LINE__,
              "depth %d: %s", d + 2, v ? "read and written again" : "refused with 'nested too deep'");
        jread_free(v);
        free(open);
        free(close);
        free(doc);
    }
    return done_testing();
}
