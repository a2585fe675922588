/* A stored run's verdicts as KTAP, the kernel's Test Anything Protocol (Linux
 * Documentation/dev-tools/ktap.rst, version 1), so kselftest-style harnesses take pmucal as a test
 * suite: a version line and the plan first at every level, tests nested run -> case -> event
 * (two spaces of indentation a level), each parent's result after its subtests (not ok when one
 * of them is), so a harness joining the names finds pmucal.<command>.<case>.<event>. */
#ifndef PMUCAL_KTAP_H
#define PMUCAL_KTAP_H
#include "runs/runfile.h"
#include <stdio.h>

/* The run's validate.tap verdicts (runfile_load_all) as KTAP on out. TODO points (unstable) are
 * '# XFAIL', SKIP stays SKIP, info lines are diagnostics. -1 when out could not be written. */
int ktap_write(FILE *out, const struct runfile *r);
/* A name fit for a KTAP test and a component of a dotted path, as KCIDB's paths take them: letters,
 * digits, '_' and '-'; anything else ('=', ':', '.', spaces) becomes '_'. Caller frees. */
char *ktap_name(const char *s);
/* The run folder at path written by write (ktap_write, kcidb_write) into file (NULL: stdout): 0,
 * or -1 after one message. */
int run_export(const char *path, const char *file, int (*write)(FILE *, const struct runfile *));

#endif
