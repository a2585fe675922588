/* Table-driven C unit tests print TAP; each row carries its source line so a failure points at it. */
#ifndef PMUCAL_TEST_TAP_H
#define PMUCAL_TEST_TAP_H
#include <math.h>
#include <stdio.h>

static int t_n, t_fail;

#define CHECK(cond, line, ...)                                 \
    do {                                                       \
        int t_ok_ = !!(cond);                                  \
        t_n++;                                                 \
        if (!t_ok_)                                            \
            t_fail++;                                          \
        printf("%sok %d - line %d: ", t_ok_ ? "" : "not ", t_n, line); \
        printf(__VA_ARGS__);                                   \
        printf("\n");                                          \
    } while (0)

#define CHECK_NEAR(got, want, tol, line, what) \
    CHECK(fabs((double)(got) - (double)(want)) <= (tol), line, "%s: got %.9g want %.9g", what, (double)(got), (double)(want))

static inline int done_testing(void)
{
    printf("1..%d\n", t_n);
    return t_fail != 0;
}
#endif
