/* The quantity-expression language of rules (core/expr.c). */
#include "core/expr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[256];
    struct expr *e = expr_parse(text, err, sizeof(err));
    if (e) {
        struct quantities q;
        memset(&q, 0, sizeof(q));
        for (int i = 0; i < Q_COUNT; i++)
            q.v[i] = i + 0.5;
        (void)expr_eval(e, &q);
        expr_free(e);
    }
    free(text);
    return 0;
}
