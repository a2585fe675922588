/* A program built against the C header 'pmucal emit --format c' writes (penalties.h on the include
 * path), as a user's would be: it tests PMUCAL_HAVE_<NAME> before it uses a constant, so the same
 * file compiles against every calibration, whichever figures each one publishes. tests/54-penalties-tables.t
 * builds it unchanged against two calibrations (with -Wundef: every HAVE it tests is defined). */
#include "penalties.h"
#include <stdio.h>

int main(void)
{
#if PMUCAL_HAVE_L2_HIT
    printf("l2_hit %.2f\n", PMUCAL_L2_HIT_CYCLES);
#else
    printf("l2_hit none\n");
#endif
#if PMUCAL_HAVE_DRAM
    printf("dram %.2f\n", PMUCAL_DRAM_CYCLES);
#else
    printf("dram none\n");
#endif
#if PMUCAL_HAVE_PAGE_WALK
    printf("page_walk %.2f\n", PMUCAL_PAGE_WALK_CYCLES);
#else
    printf("page_walk none\n");
#endif
#if PMUCAL_HAVE_IFETCH_L3
    printf("ifetch_l3 %.2f\n", PMUCAL_IFETCH_L3_CYCLES);
#else
    printf("ifetch_l3 none\n");
#endif
    return 0;
}
