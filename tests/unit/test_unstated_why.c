/* core/quantity.c quantity_unstated_why: a model's reason for leaving quantities out is told per
 * rule, the part naming a quantity of the rule's expression, else the whole reason. */
#include "core/quantity.h"
#include "tap.h"
#include <string.h>

static const struct {
    int line;
    const char *why, *expr, *want;
} rows[] = {
    {__LINE__, "i1.miss.warm, il.miss.warm: code too big; d1.miss.warm, ll.miss.warm: the stack", "d1.miss.warm",
     "d1.miss.warm, ll.miss.warm: the stack"},
    {__LINE__, "i1.miss.warm, il.miss.warm: code too big; d1.miss.warm, ll.miss.warm: the stack", "il.miss.warm",
     "i1.miss.warm, il.miss.warm: code too big"},
    {__LINE__, "a: one; b: two", "a + b", "a: one; b: two"},
    {__LINE__, "br.*: a branch inside; ld.all: a modify access", "br.cond.mispred", "br.*: a branch inside"},
    {__LINE__, "the arrays overfill some sets; which lines miss depends on their order", "d1.miss.warm",
     "the arrays overfill some sets; which lines miss depends on their order"},
    {__LINE__, "d1.miss.warm: x; y and z", "d1.miss.warm", "d1.miss.warm: x; y and z"},
    {__LINE__, "d1.miss.warm: x", "inst", "d1.miss.warm: x"},
    {__LINE__, "ld.all: reads", "ld.all.x", "ld.all: reads"},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct quantities q;
        quantities_unstated(&q);
        q.unstated_why = rows[i].why;
        char buf[256];
        const char *got = quantity_unstated_why(&q, rows[i].expr, buf, sizeof(buf));
        CHECK(!strcmp(got, rows[i].want), rows[i].line, "'%s' for '%s': '%s' (want '%s')", rows[i].why, rows[i].expr,
              got, rows[i].want);
    }
    struct quantities q;
    quantities_unstated(&q);
    char buf[16];
    CHECK(!strcmp(quantity_unstated_why(&q, "inst", buf, sizeof(buf)), ""), __LINE__, "no reason: an empty one");
    return done_testing();
}
