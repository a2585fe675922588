/* The snippets of a file ('pmucal code') measured: each in the modes its entry asks (latency,
 * throughput) as a case of the code kernel, into one row each: cycles per copy and their range
 * with a status (withheld when the clock cannot be trusted, unstable when the repetitions spread),
 * each event's count against the model, and the published reference for the host's model. */
#ifndef PMUCAL_SNIPPET_MEASURE_H
#define PMUCAL_SNIPPET_MEASURE_H
#include "generators/snippet_file.h"
#include "host/uarch.h"
#include "penalties/snippet_tables.h"
#include "validate/engine.h"

/* Every entry of ents measured through eng (its measurement hook and argument are set here) until a
 * stop is requested; host: whose references apply (NULL: none). The rows into *out (free it);
 * their number. */
int snippet_rows_measure(struct engine *eng, struct event_spec *events, int nevents, const struct snippet_entry *ents,
                         int nent, const struct uarch *host, struct code_row **out);
#endif
