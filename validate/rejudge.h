/* Stored records judged again with this build's rules, without measuring: 'pmucal replay RUN'
 * judges a whole run, 'validate --resume' the records of the cases it keeps. */
#ifndef PMUCAL_REJUDGE_H
#define PMUCAL_REJUDGE_H
#include "base/jread.h"
#include "runs/resume.h"
#include "runs/runfile.h"
#include "validate/engine.h"

/* One record judged and reported through the engine as if just measured (TAP lines, the
 * per-event summary): its events' verdicts into vs (GROUP_MAX_EVENTS of them), in the order of
 * the record's "events"; their number, or -1 when the record is malformed (nothing reported). */
int replay_record(struct engine *eng, const struct jvalue *rec, const char *label, struct event_verdict *vs);
/* validate --resume: the kept records of the case label (runs/resume.h), each judged and reported
 * once; the number reported, or -1 after a message for a malformed one. */
int resume_replay(struct resume *r, struct engine *eng, const char *label);

/* pmucal replay of a validate run (loaded with runfile_load): every record judged again through
 * eng, whose TAP is tap, in the order of the stored validate.tap (read here; damaged or absent: the
 * records' own order), the SKIP lines no record holds printed again in their place, each changed
 * verdict noted and counted into *changed. 0, or 2 after a message on a malformed record. */
int rejudge_run(struct engine *eng, struct tap *tap, struct runfile *run, int *changed);
/* The verdict lines judged again (again) against the stored ones (stored), in order: each that
 * differs in kind or text is noted as a TAP comment; how many differ. */
int rejudge_verdicts_changed(struct tap *tap, const struct runfile *stored, const struct runfile *again);

#endif
