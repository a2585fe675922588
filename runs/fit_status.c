#include "runs/fit_status.h"
#include "base/util.h"

static const char *const names[FIT_STATUSES] = {
    [FIT_CLEAN] = "clean", [FIT_SUSPECT] = "suspect", [FIT_UNEXPLAINED] = "unexplained", [FIT_SILENT] = "silent",
};

NAME_TABLE_FUNCTIONS(enum fit_status, fit_status_name, fit_status_parse, names, FIT_STATUSES)
