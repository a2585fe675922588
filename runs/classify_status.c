#include "runs/classify_status.h"
#include "base/util.h"

static const char *const names[CLASSIFY_STATUSES] = {
    [CLASSIFY_CLEAN] = "clean", [CLASSIFY_SUSPECT] = "suspect", [CLASSIFY_UNEXPLAINED] = "unexplained", [CLASSIFY_SILENT] = "silent",
};

NAME_TABLE_FUNCTIONS(enum classify_status, classify_status_name, classify_status_parse, names, CLASSIFY_STATUSES)
