/* The JSON reader penalties.json is read back with, and the penalty fit with its interval. */
#include "../../penalties/fit.h"
#include "jsonread.h"
#include "tap.h"
#include <string.h>

int main(void)
{
    char err[256];
    struct jv *v = jv_parse("{\"a\": [1, 2.5e3, -3], \"s\": \"x\\\"y\\n\\u0041\", \"t\": true, \"n\": null, \"o\": {}}", err,
                            sizeof(err));
    CHECK(v != NULL, __LINE__, "a valid document parses (%s)", v ? "" : err);
    if (v) {
        const struct jv *a = jv_get(v, "a");
        CHECK(a && a->type == JV_ARRAY && a->n == 3, __LINE__, "array of 3");
        CHECK_NEAR(a ? a->items[1]->num : 0, 2500, 0, __LINE__, "exponent number");
        CHECK(!strcmp(jv_str(v, "s", ""), "x\"y\nA"), __LINE__, "escapes decoded");
        CHECK(jv_get(v, "t")->b && jv_get(v, "n")->type == JV_NULL, __LINE__, "true and null");
        CHECK(jv_get(v, "missing") == NULL && jv_num(v, "missing", 7) == 7, __LINE__, "absent member: fallback");
        jv_free(v);
    }
    static const struct {
        int line;
        const char *text, *want;
    } bad[] = {
        {__LINE__, "{\"a\": }", "line 1: expected a value"},
        {__LINE__, "{\"a\" 1}", "line 1: expected ':' after an object key"},
        {__LINE__, "[1,\n2", "line 2: expected ',' or ']'"},
        {__LINE__, "\"open", "line 1: unterminated string"},
        {__LINE__, "{} x", "line 1: text after the value"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct jv *b = jv_parse(bad[i].text, err, sizeof(err));
        CHECK(!b && !strcmp(err, bad[i].want), bad[i].line, "bad text %zu is rejected: %s", i, err);
        jv_free(b);
    }

    /* Penalty = (median issue - median control) / delta; a constant sample has a point interval. */
    double x[] = {10, 10, 10, 10, 10}, y[] = {4, 4, 4, 4, 4};
    struct fit f = fit_penalty(x, 5, y, 5, 2, 1);
    CHECK_NEAR(f.value, 3, 1e-12, __LINE__, "constant samples: value");
    CHECK(f.lo == 3 && f.hi == 3, __LINE__, "constant samples: interval [%g, %g]", f.lo, f.hi);
    f = fit_penalty(x, 5, NULL, 0, 4, 1);
    CHECK_NEAR(f.value, 2.5, 1e-12, __LINE__, "no control: whole cost per occurrence");
    /* One wild repetition of seven moves the median little but widens the interval. */
    double z[] = {20, 20.2, 19.8, 20.1, 19.9, 20, 80};
    f = fit_penalty(z, 7, NULL, 0, 1, 1);
    CHECK_NEAR(f.value, 20, 1e-12, __LINE__, "median ignores the outlier");
    CHECK(f.lo >= 19.8 && f.hi <= 80 && f.lo <= 20 && f.hi >= 20, __LINE__, "interval [%g, %g] holds the median", f.lo, f.hi);
    return done_testing();
}
