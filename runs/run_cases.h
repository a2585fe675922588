/* The cases of a validate run as its manifest records them when the run starts: their labels
 * (the records a reader meets must be of these: runs/record_check.h) and, for each case of kernel
 * 'code', the SHA-256 of its snippet. A run folder is data: a --resume runs a code case only when
 * its user hands the same snippet again, never the code or the file a manifest names. */
#ifndef PMUCAL_RUN_CASES_H
#define PMUCAL_RUN_CASES_H
#include "base/json.h"
#include "core/kernel.h"
#include "runs/resume.h"

/* "case_labels": every case's label in the run's order; "snippets": {"case": LABEL, "sha256":
 * HEX} for each code case, its snippet read now (sha256 null and "why" when it cannot be). */
void run_cases_manifest(struct json *j, struct case_ *const *cases, int n);
/* --resume with the run's cases (built from its manifest's command) and the ones its user handed
 * again (--case): every code case of the run must be handed again with the same label, and its
 * snippet's digest now must be the one the run recorded; a handed case that is not a code case
 * of the run is refused too. -1 after one message naming the case and the fix. */
int run_cases_resume(const struct resume *r, const char *command, struct case_ *const *cases, int n,
                     struct case_ *const *handed, int nh);
/* The refusal of a --resume of run whose case label runs code it was not handed: one message
 * ending in fix (what the command takes instead). */
void run_cases_code_refused(const char *run, const char *label, const char *fix);

#endif
