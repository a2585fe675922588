/* Every event of a PMU or a vendor table, as 'pmucal events' lists them: one a line (with its
 * description, and a table's perf encoding, when describe), or each a JSON object. */
#ifndef PMUCAL_EVENT_LISTING_H
#define PMUCAL_EVENT_LISTING_H
#include "base/json.h"
#include <stdbool.h>

struct event_listing {
    bool describe;       /* lines: the description (and a table's encoding) too, tab-separated */
    bool json;           /* JSON objects into j (an array the caller opened) instead of lines on stdout */
    bool open;           /* ask the kernel for each (events/event_probe.h), perf's generic hardware and cache
                          * events first: each line NAME, verdict, perf encoding, source, and what a
                          * refusal means, tab-separated */
    int opened, unfiltered, refused; /* with open: how many opened as asked, opened only counting every
                                      * privilege level, were refused (or could not be encoded) */
    struct json *j;
};

/* libpfm4's events of PMU pmu (NULL: the host's core PMU); where vendor_json names a table, or
 * libpfm4 knows no core PMU here, the table's (the named one, or the host's by its CPUID) with a
 * '# source' header. 0, or 2 after a message (no such PMU, no table). */
int events_list(const char *pmu, const char *vendor_json, struct event_listing *l);
#endif
