#include "arch/tlbs.h"

const char *tlb_kind_name(enum tlb_kind k)
{
    static const char *const names[TLB_KINDS] = {"4k first level", "4k second level", "2m first level",
                                                 "2m second level"};
    return k < TLB_KINDS ? names[k] : "?";
}

const char *tlb_kind_key(enum tlb_kind k)
{
    static const char *const keys[TLB_KINDS] = {"l1_4k", "l2_4k", "l1_2m", "l2_2m"};
    return k < TLB_KINDS ? keys[k] : "?";
}
