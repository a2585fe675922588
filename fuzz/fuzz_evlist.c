/* Event list files: one event a line, perf syntax, {a,b} groups (events/evlist.c). */
#include "events/evlist.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct evlist l = {0};
    (void)evlist_parse(&l, text, "fuzz");
    evlist_free(&l);
    free(text);
    return 0;
}
