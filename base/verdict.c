#include "base/verdict.h"
#include "base/util.h"

static const char *const names[VERDICTS] = {
    [VERDICT_OK] = "ok", [VERDICT_NOT_OK] = "not ok", [VERDICT_SKIP] = "skip", [VERDICT_TODO] = "todo",
    [VERDICT_INFO] = "info",
};

const char *verdict_name(enum verdict v)
{
    return (unsigned)v < VERDICTS ? names[v] : "?";
}

bool verdict_parse(const char *s, enum verdict *v)
{
    int i = name_table_index(names, VERDICTS, s);
    if (i >= 0)
        *v = (enum verdict)i;
    return i >= 0;
}
