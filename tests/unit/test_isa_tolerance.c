/* A source's ISA limits turn a kernel variant into a SKIP with the reason, and the absolute
 * tolerance (+-X per iteration) accepts and rejects where it should. */
#include "arch/isa.h"
#include "core/kernel.h"
#include "tap.h"
#include "validate/rules.h"
#include <string.h>

int main(void)
{
    const struct kernel *k = kernel_find("walker");
    CHECK(k != NULL, __LINE__, "the walker kernel is registered");
    if (!k)
        return done_testing();
    struct case_ *c = case_from_text(k, "size=L1");
    c->isa_limits = ISA_AVX512;
    c->isa_limits_by = "sim";
    bool usable = case_isa_usable(c, ISA_AVX512);
    CHECK(!usable, __LINE__, "AVX-512 is not usable under a source that cannot run it");
    CHECK(strstr(c->skip, "AVX-512") && strstr(c->skip, "sim"), __LINE__, "the SKIP reason names both: '%s'", c->skip);
    c->skip[0] = '\0';
    usable = case_isa_usable(c, 0);
    CHECK(usable, __LINE__, "no extension asked: usable");
    c->isa_limits = 0;
    bool has = cpu_get()->avx512f;
    usable = case_isa_usable(c, ISA_AVX512);
    CHECK(usable == has, __LINE__, "without source limits the CPU decides (avx512f %s): '%s'",
          has ? "yes" : "no", c->skip);
    case_free(c);

    struct ruleset rs = {0};
    int rc = ruleset_parse(&rs, "sim::Bcm br.mispred +-0.01\n", "t");   /* CHECK evaluates twice: no calls in it */
    CHECK(rc == 0 && rs.n == 1 && rs.rules[0].tol == TOL_ABSOLUTE && rs.rules[0].absolute == 0.01, __LINE__,
          "'+-0.01' parses as an absolute tolerance");
    struct event_spec ev = {.name = "sim::Bcm"};
    struct quantities q;
    quantities_unstated(&q);
    q.v[Q_BR_MISPRED] = 0;
    struct stats st = {.median = 0.009, .min = 0.009};
    struct event_verdict v = check_event(&rs.rules[0], &ev, &st, &q, 0, 0);
    CHECK(v.kind == VERDICT_OK, __LINE__, "0.009 from 0 is within +-0.01: %s", v.reason);
    st.median = st.min = -0.011;
    v = check_event(&rs.rules[0], &ev, &st, &q, 0, 0);
    CHECK(v.kind == VERDICT_NOT_OK, __LINE__, "-0.011 from 0 is not: %s", v.reason);
    ruleset_free(&rs);
    fprintf(stderr, "(one error message about '+-x' is expected next)\n");
    rc = ruleset_parse(&rs, "sim::Bcm br.mispred +-x\n", "t");
    CHECK(rc != 0, __LINE__, "'+-x' is rejected");
    ruleset_free(&rs);
    return done_testing();
}
