#include "base/jread.h"
#include "tap.h"
#include <string.h>

/* Each row: text, and either a check of the parsed value or the start of the error. */
static const struct {
    int line;
    const char *text;
    const char *path;     /* key to look up in a top-level object, or NULL for the top value */
    int type;
    double num;
    const char *str;
    const char *err;      /* non-NULL: parsing must fail with this text */
} rows[] = {
    {__LINE__, "42", NULL, J_NUMBER, 42, NULL, NULL},
    {__LINE__, " -1.5e3 ", NULL, J_NUMBER, -1500, NULL, NULL},
    {__LINE__, "{\"a\": 0.25}", "a", J_NUMBER, 0.25, NULL, NULL},
    {__LINE__, "{\"s\":\"x\\\"y\\\\z\\n\"}", "s", J_STRING, 0, "x\"y\\z\n", NULL},
    {__LINE__, "{\"u\":\"\\u00e9\\ud83d\\ude00\"}", "u", J_STRING, 0, "\xc3\xa9\xf0\x9f\x98\x80", NULL},
    {__LINE__, "{\"n\":null}", "n", J_NULL, 0, NULL, NULL},
    {__LINE__, "{\"t\":true,\"f\":false}", "t", J_BOOL, 1, NULL, NULL},
    {__LINE__, "{\"e\":[]}", "e", J_ARRAY, 0, NULL, NULL},
    {__LINE__, "{\"a\":[1,2,3]}", "a", J_ARRAY, 3, NULL, NULL},
    {__LINE__, "{\"a\":1,}", NULL, 0, 0, NULL, "line 1 column 8: expected a quoted key"},
    {__LINE__, "[1,2", NULL, 0, 0, NULL, "line 1 column 5: expected ',' or ']'"},
    {__LINE__, "{\"a\" 1}", NULL, 0, 0, NULL, "expected ':' after the key"},
    {__LINE__, "\n\n  01", NULL, 0, 0, NULL, "line 3 column 3: a number may not start with 0"},
    {__LINE__, "\"abc", NULL, 0, 0, NULL, "string is not closed"},
    {__LINE__, "\"a\tb\"", NULL, 0, 0, NULL, "control character inside a string"},
    {__LINE__, "\"\\q\"", NULL, 0, 0, NULL, "unknown escape"},
    {__LINE__, "\"\\ud800x\"", NULL, 0, 0, NULL, "high surrogate"},
    {__LINE__, "1 2", NULL, 0, 0, NULL, "unexpected text after the value"},
    {__LINE__, "tru", NULL, 0, 0, NULL, "expected a value"},
    {__LINE__, "", NULL, 0, 0, NULL, "the text ends where a value should be"},
    {__LINE__, "1.", NULL, 0, 0, NULL, "digits must follow '.'"},
    /* JSON has no infinity: a number beyond a double's is refused, named by its member's key */
    {__LINE__, "{\"a\":{\"b\":1},\n \"tsc_hz\": 1e999}", NULL, 0, 0, NULL,
     "line 2 column 12: \"tsc_hz\": 1e999 is beyond the range of a number (not finite)"},
    {__LINE__, "{\"raw\":[[1,2],[3,-1e999]]}", NULL, 0, 0, NULL, "\"raw\": -1e999 is beyond the range"},
    {__LINE__, "{\"x\":[{\"y\":1},1e400]}", NULL, 0, 0, NULL, "\"x\": 1e400 is beyond"},
    {__LINE__, "1e999", NULL, 0, 0, NULL, "line 1 column 1: 1e999 is beyond"},
    {__LINE__, "{\"tiny\": 1e-999}", "tiny", J_NUMBER, 0, NULL, NULL},   /* underflow: 0, a number still */
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char err[256] = "";
        struct jvalue *v = jread_parse(rows[i].text, strlen(rows[i].text), err, sizeof(err));
        if (rows[i].err) {
            CHECK(!v && strstr(err, rows[i].err), rows[i].line, "rejected: %s", err);
            jread_free(v);
            continue;
        }
        const struct jvalue *x = rows[i].path ? jget(v, rows[i].path) : v;
        CHECK(x && (int)x->type == rows[i].type, rows[i].line, "parsed, type %d %s", x ? (int)x->type : -1, err);
        if (x && x->type == J_NUMBER)
            CHECK_NEAR(x->num, rows[i].num, 1e-12, rows[i].line, "number");
        if (x && x->type == J_STRING)
            CHECK(!strcmp(x->str, rows[i].str), rows[i].line, "string decoded");
        if (x && x->type == J_ARRAY)
            CHECK(x->n == (int)rows[i].num, rows[i].line, "array of %d", x->n);
        if (x && x->type == J_BOOL)
            CHECK(x->b == (rows[i].num != 0), rows[i].line, "bool");
        jread_free(v);
    }
    /* Nesting beyond the limit fails cleanly instead of exhausting the stack. */
    char deep[400];
    memset(deep, '[', sizeof(deep));
    char err[256];
    struct jvalue *v = jread_parse(deep, sizeof(deep), err, sizeof(err));
    CHECK(!v && strstr(err, "nested too deep"), __LINE__, "deep nesting: %s", err);
    CHECK(jstr(NULL) == NULL && jnum(NULL, 7) == 7, __LINE__, "accessors tolerate NULL");
    return done_testing();
}
