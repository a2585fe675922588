/* Event list files: one event a line, perf syntax, {a,b} groups (events/evlist.c, docs/grammar.md).
 * Oracles beyond no crash: an accepted list printed back (evlist_text) parses to the same events in
 * the same groups; a refused one's message names a line of the input. Dictionary: fuzz/evlist.dict. */
#include "events/evlist.h"
#include "fuzz.h"

/* Same names, and the same partition into groups (group numbers may differ). */
static bool same_list(const struct evlist *a, const struct evlist *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) {
        if (strcmp(a->name[i], b->name[i]) || !a->group[i] != !b->group[i])
            return false;
        for (int j = 0; j < i; j++)
            if ((a->group[i] && a->group[i] == a->group[j]) != (b->group[i] && b->group[i] == b->group[j]))
                return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct evlist l = {0}, again = {0};
    fuzz_capture();
    int rc = evlist_parse(&l, text, "fuzz");
    char *said = fuzz_captured();
    if (rc) {
        static const char *const whole[] = {"fuzz names no event", NULL};
        fuzz_check_refusal(said, "fuzz", text, whole);
    } else {
        char *printed = evlist_text(&l);
        fuzz_capture();
        int rc2 = evlist_parse(&again, printed, "printed");
        char *said2 = fuzz_captured();
        if (rc2 || !same_list(&l, &again))
            fuzz_oracle_failed(rc2 ? "an accepted list printed back is refused" : "an accepted list printed back "
                               "parses to other events or groups", said2 ? said2 : printed);
        free(said2);
        free(printed);
    }
    free(said);
    evlist_free(&l);
    evlist_free(&again);
    free(text);
    return 0;
}
