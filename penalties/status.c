#include "penalties/status.h"
#include "base/util.h"

static const char *const names[PENALTY_STATUSES] = {
    [PENALTY_OK] = "ok", [PENALTY_UNSTABLE] = "unstable", [PENALTY_NOT_OK] = "not_ok", [PENALTY_SKIP] = "skip",
    [PENALTY_ERROR] = "error", [PENALTY_WITHHELD] = "withheld",
};

const char *penalty_status_name(enum penalty_status s)
{
    return (unsigned)s < PENALTY_STATUSES ? names[s] : "?";
}

bool penalty_status_parse(const char *name, enum penalty_status *s)
{
    int i = name_table_index(names, PENALTY_STATUSES, name);
    if (i >= 0)
        *s = (enum penalty_status)i;
    return i >= 0;
}

bool penalty_status_of(const struct jvalue *p, enum penalty_status *s)
{
    return penalty_status_parse(jstr(jget(p, "status")), s);
}
