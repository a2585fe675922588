/* The penalty fit with its interval (the JSON reader has its own test, test_jread). */
#include "../../penalties/fit.h"
#include "tap.h"
#include <string.h>

int main(void)
{
    /* Penalty = (median issue - median control) / delta; a constant sample has a point interval. */
    double x[] = {10, 10, 10, 10, 10}, y[] = {4, 4, 4, 4, 4};
    struct fit f = fit_penalty(x, 5, y, 5, 2, 1);
    CHECK_NEAR(f.value, 3, 1e-12, __LINE__, "constant samples: value");
    CHECK(f.lo == 3 && f.hi == 3, __LINE__, "constant samples: interval [%g, %g]", f.lo, f.hi);
    f = fit_penalty(x, 5, NULL, 0, 4, 1);
    CHECK_NEAR(f.value, 2.5, 1e-12, __LINE__, "no control: whole cost per occurrence");
    /* One wild repetition of seven moves the median little but widens the interval. */
    double z[] = {20, 20.2, 19.8, 20.1, 19.9, 20, 80};
    f = fit_penalty(z, 7, NULL, 0, 1, 1);
    CHECK_NEAR(f.value, 20, 1e-12, __LINE__, "median ignores the outlier");
    CHECK(f.lo >= 19.8 && f.hi <= 80 && f.lo <= 20 && f.hi >= 20, __LINE__, "interval [%g, %g] holds the median", f.lo, f.hi);
    return done_testing();
}
