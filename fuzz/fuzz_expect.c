/* Rule files: EVENT EXPRESSION TOLERANCE [erratum=NAME] a line (validate/rules.c,
 * docs/grammar.md). Oracles beyond no crash: accepted rules printed back (ruleset_text) parse to the
 * same rules (event, expression, tolerance, erratum); a refusal names a line of the input.
 * Dictionary: fuzz/expect.dict. */
#include "fuzz.h"
#include "validate/rules.h"

static bool same_rule(const struct rule *a, const struct rule *b)
{
    char ta[32], tb[32];
    return !strcmp(a->event, b->event) && !strcmp(a->expr_text, b->expr_text) &&
           !strcmp(tolerance_text(a, ta, sizeof(ta)), tolerance_text(b, tb, sizeof(tb))) &&
           !a->erratum == !b->erratum && (!a->erratum || !strcmp(a->erratum, b->erratum));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct ruleset rs = {0}, again = {0};
    fuzz_capture();
    int rc = ruleset_parse(&rs, text, "fuzz");
    char *said = fuzz_captured();
    if (rc) {
        fuzz_check_refusal(said, "fuzz", text, NULL);
    } else {
        char *printed = ruleset_text(&rs);
        fuzz_capture();
        int rc2 = ruleset_parse(&again, printed, "printed");
        char *said2 = fuzz_captured();
        bool same = !rc2 && again.n == rs.n;
        for (int i = 0; same && i < rs.n; i++)
            same = same_rule(&rs.rules[i], &again.rules[i]);
        if (!same)
            fuzz_oracle_failed(rc2 ? "accepted rules printed back are refused" : "accepted rules printed back "
                               "parse to other rules", said2 ? said2 : printed);
        free(said2);
        free(printed);
    }
    free(said);
    ruleset_free(&rs);
    ruleset_free(&again);
    free(text);
    return 0;
}
