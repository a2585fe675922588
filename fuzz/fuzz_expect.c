/* Expectation files: EVENT EXPRESSION TOLERANCE [erratum=NAME] a line (validate/expect.c). */
#include "fuzz.h"
#include "validate/expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct ruleset rs = {0};
    (void)ruleset_parse(&rs, text, "fuzz");
    ruleset_free(&rs);
    free(text);
    return 0;
}
