/* Two models' event tables side by side, for the engineer bringing up the newer one: same-name
 * events whose encoding changed, the same encoding under another name with another meaning, new
 * and removed events. A side is a libpfm4 PMU or a vendor table (JSON file, folder or name). */
#ifndef PMUCAL_TABLE_DIFF_H
#define PMUCAL_TABLE_DIFF_H
#include "base/tap.h"
#include "events/pfm.h"
#include <stdbool.h>

struct model_event {
    char *name, *key;      /* as the side spells it; key: lower case, ':' as '.' */
    char *desc;
    struct x86_enc x;      /* whole: the raw config, its low 32 bits in x.event, its high ones in x.umask */
    bool offcore, used;
    bool whole;            /* an Arm or RISC-V event: its number is the raw config, no x86 fields */
};

struct model_side {
    char *label;           /* "amd64_fam19h_zen4 (libpfm4)", "amdzen5 (<path>)" */
    char *table;           /* the table name, or the libpfm4 PMU's table name; NULL when unknown */
    struct model_event *ev;
    int n;
};

struct model_diff_counts {
    int same, changed, renamed, remeant, added, removed;
};

/* A libpfm4 PMU by name, else a table (catalog_load). -1 with one message. */
int model_side_load(struct model_side *s, const char *what);
void model_side_free(struct model_side *s);
/* Compare a (older) with b (newer). TAP: not ok for a changed encoding and for an encoding that now
 * means something else; ok for the unchanged and the renamed (quiet: only not ok); new and removed
 * events as comments. table: one aligned row per finding on out instead of TAP. */
void model_diff(struct model_side *a, struct model_side *b, struct tap *t, bool quiet, FILE *table,
                struct model_diff_counts *c);

#endif
