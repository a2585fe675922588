#include "penalties/status.h"
#include "base/util.h"

static const char *const names[PENALTY_STATUSES] = {
    [PENALTY_OK] = "ok", [PENALTY_UNSTABLE] = "unstable", [PENALTY_NOT_OK] = "not_ok", [PENALTY_SKIP] = "skip",
    [PENALTY_ERROR] = "error", [PENALTY_WITHHELD] = "withheld",
};

NAME_TABLE_FUNCTIONS(enum penalty_status, penalty_status_name, penalty_status_parse, names, PENALTY_STATUSES)

bool penalty_status_of(const struct jvalue *p, enum penalty_status *s)
{
    return penalty_status_parse(jstr(jget(p, "status")), s);
}
