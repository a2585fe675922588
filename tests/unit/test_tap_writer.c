/* The TAP writer keeps every point, comment and bail reason on one line of its own: a newline from a
 * path or a message must never start a line that a harness would read as a verdict. Each verdict
 * writes the line it always has (validate.tap readers and run folders depend on the text). */
#include "base/tap.h"
#include "tap.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum op { POINT, COMMENT, BAIL };
static const struct {
    int line;
    enum op op;
    const char *text;   /* description, comment or bail reason */
    enum verdict v;     /* a point's */
    const char *reason; /* a point's */
    const char *want;   /* the whole output */
    int n, info;        /* the points numbered and the info lines counted after it */
} rows[] = {
    {__LINE__, POINT, "walker\nnot ok 9 - forged", VERDICT_OK, NULL, "ok 1 - walker not ok 9 - forged\n", 1, 0},
    {__LINE__, POINT, "a # TODO hidden", VERDICT_OK, NULL, "ok 1 - a % TODO hidden\n", 1, 0},
    {__LINE__, POINT, "triad :: E", VERDICT_NOT_OK, NULL, "not ok 1 - triad :: E\n", 1, 0},
    {__LINE__, POINT, "triad :: E", VERDICT_SKIP, "no such\nPMU", "ok 1 - triad :: E # SKIP no such PMU\n", 1, 0},
    {__LINE__, POINT, "triad :: E", VERDICT_SKIP, NULL, "ok 1 - triad :: E # SKIP \n", 1, 0},
    {__LINE__, POINT, "triad :: E", VERDICT_TODO, "erratum", "not ok 1 - triad :: E # TODO erratum\n", 1, 0},
    /* info is no point: a comment, the '#' of which starts no directive, numbered nowhere */
    {__LINE__, POINT, "w :: task-clock measured 40.2500 per iteration", VERDICT_INFO, "info # x",
     "# info w :: task-clock measured 40.2500 per iteration (info # x)\n", 0, 1},
    {__LINE__, POINT, "w :: E\nok 2 - forged", VERDICT_INFO, NULL, "# info w :: E ok 2 - forged\n", 0, 1},
    {__LINE__, COMMENT, "run in /tmp/x\nnot ok 2 - forged", 0, NULL, "# run in /tmp/x not ok 2 - forged\n", 0, 0},
    {__LINE__, BAIL, "stopped in /tmp/a\nok 3 - forged", 0, NULL, "Bail out! stopped in /tmp/a ok 3 - forged\n", 0, 0},
    {__LINE__, BAIL, "cr\rok", 0, NULL, "Bail out! cr ok\n", 0, 0},
};

int main(void)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        struct tap t = {.out = f};
        if (rows[i].op == POINT)
            tap_point(&t, rows[i].v, rows[i].text, rows[i].reason);
        else if (rows[i].op == COMMENT)
            tap_comment(&t, "%s", rows[i].text);
        else
            tap_bail(&t, "%s", rows[i].text);
        fclose(f);
        /* Printed with line breaks shown as \n, so this test's own TAP stays one line a point. */
        bool same = buf && !strcmp(buf, rows[i].want) && !t.write_failed && t.n == rows[i].n && t.info == rows[i].info;
        for (char *p = buf; p && *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = '|';
        CHECK(same, rows[i].line, "wrote '%s' ('|' = line break), want '%.*s|'", buf ? buf : "",
              (int)strlen(rows[i].want) - 1, rows[i].want);
        free(buf);
    }
    return done_testing();
}
