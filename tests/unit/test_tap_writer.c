/* The TAP writer keeps every point, comment and bail reason on one line of its own: a newline from a
 * path or a message must never start a line that a harness would read as a verdict. */
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
    const char *want;   /* the whole output */
} rows[] = {
    {__LINE__, POINT, "walker\nnot ok 9 - forged", "ok 1 - walker not ok 9 - forged\n"},
    {__LINE__, POINT, "a # TODO hidden", "ok 1 - a % TODO hidden\n"},
    {__LINE__, COMMENT, "run in /tmp/x\nnot ok 2 - forged", "# run in /tmp/x not ok 2 - forged\n"},
    {__LINE__, BAIL, "stopped in /tmp/a\nok 3 - forged", "Bail out! stopped in /tmp/a ok 3 - forged\n"},
    {__LINE__, BAIL, "cr\rok", "Bail out! cr ok\n"},
};

int main(void)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        struct tap t = {.out = f};
        if (rows[i].op == POINT)
            tap_point(&t, TAP_OK, rows[i].text, NULL);
        else if (rows[i].op == COMMENT)
            tap_comment(&t, "%s", rows[i].text);
        else
            tap_bail(&t, "%s", rows[i].text);
        fclose(f);
        /* Printed with line breaks shown as \n, so this test's own TAP stays one line a point. */
        bool same = buf && !strcmp(buf, rows[i].want) && !t.write_failed;
        for (char *p = buf; p && *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = '|';
        CHECK(same, rows[i].line, "wrote '%s' ('|' = line break), want '%.*s|'", buf ? buf : "",
              (int)strlen(rows[i].want) - 1, rows[i].want);
        free(buf);
    }
    return done_testing();
}
