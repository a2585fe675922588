#include "base/verdict.h"
#include "base/util.h"

static const char *const names[VERDICTS] = {
    [VERDICT_OK] = "ok", [VERDICT_NOT_OK] = "not ok", [VERDICT_SKIP] = "skip", [VERDICT_TODO] = "todo",
    [VERDICT_INFO] = "info",
};

NAME_TABLE_FUNCTIONS(enum verdict, verdict_name, verdict_parse, names, VERDICTS)
