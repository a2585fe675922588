#include "base/version.h"
#include "commit.h"

const char *pmucal_commit(void)
{
    return PMUCAL_COMMIT;
}
