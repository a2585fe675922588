/* A verdict on one check: the one type from the judge that writes it (validate/, penalties/, base/tap)
 * to every reader (runs/ reading validate.tap and measurements.ndjson back, report/, compare, replay).
 * Its names are the words TAP and the records use; a run folder stores them as such. */
#ifndef PMUCAL_VERDICT_H
#define PMUCAL_VERDICT_H
#include <stdbool.h>

/* INFO: measured and shown, never judged (a rule whose tolerance is "info"); not a TAP point. */
enum verdict { VERDICT_OK, VERDICT_NOT_OK, VERDICT_SKIP, VERDICT_TODO, VERDICT_INFO };
/* How many verdicts there are: the length of an array counted by verdict. */
enum { VERDICTS = VERDICT_INFO + 1 };

/* "ok", "not ok", "skip", "todo", "info"; "?" for a value out of range. */
const char *verdict_name(enum verdict v);
/* The verdict whose name is s (exactly, as verdict_name spells it); false, *v untouched, when s is
 * NULL or no verdict's name, so that the reader can name the bad input. */
bool verdict_parse(const char *s, enum verdict *v);

#endif
