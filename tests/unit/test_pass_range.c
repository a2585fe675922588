/* penalties/calibrate_run.c pass_agreeing_range: the interval of a calibrated figure is the range
 * of its passes when they spread no more than allowed (2% here, a core figure's); one of four to
 * eight that stands apart is no edge of it; from nine, the interval is the order statistics that
 * hold the median at 95% (the 2nd to the 8th of nine), unless the passes fall in two groups.
 * tests/unit/test_pass_stability.c has the statuses. */
#include "penalties/penalty_fit.h"
#include "tap.h"

static const struct {
    int line;
    double v[CAL_MAX_PASSES];
    int n;
    double median, lo, hi;
    int agree;
} rows[] = {
    /* issue 47's l3_hit as a user without root on a Zen 5 guest: one pass of five far off */
    {__LINE__, {272.86, 46.82, 46.71, 46.70, 46.69}, 5, 46.71, 46.69, 46.82, 4},
    /* all agree: the range of all */
    {__LINE__, {13.95, 13.96, 13.94, 13.95, 13.97}, 5, 13.95, 13.94, 13.97, 5},
    /* a stray below the median is left out as well */
    {__LINE__, {100.0, 100.5, 99.6, 90.0, 100.2}, 5, 100.0, 99.6, 100.5, 4},
    /* three passes 10% apart: none agree, the range of all (unstable then) */
    {__LINE__, {90.0, 100.0, 110.0}, 3, 100.0, 90.0, 110.0, 0},
    /* five spread evenly over 4%: the farthest is no further from the rest than they spread */
    {__LINE__, {98.0, 99.0, 100.0, 101.0, 102.0}, 5, 100.0, 98.0, 102.0, 0},
    /* four identical and one 2.5% off: it stands apart */
    {__LINE__, {100.0, 100.0, 102.5, 100.0, 100.0}, 5, 100.0, 100.0, 100.0, 4},
    /* within 2% but not within +-1% of the median (the rule before issue 47): all five */
    {__LINE__, {100.0, 100.0, 100.0, 101.9, 101.9}, 5, 100.0, 100.0, 101.9, 5},
    /* nine, the 2nd to the 8th within 2% (96 and 104 outside): the 95% interval of the median */
    {__LINE__, {100, 100.5, 99.5, 100.9, 99.1, 100.2, 99.8, 104, 96}, 9, 100, 99.1, 100.9, 7},
    /* nine whose 2nd and 8th are 18% apart: this session's mispredict passes on the Emerald Rapids
     * guest, the five its sibling shared taken in (25.34, 27.17 among them) */
    {__LINE__, {21.49, 25.34, 21.63, 27.17, 21.11, 21.73, 21.46, 21.42, 21.35}, 9, 21.49, 21.11, 27.17, 0},
    /* fifteen: the 4th to the 12th */
    {__LINE__, {100, 98.5, 101.5, 100.1, 99.9, 100.2, 99.8, 99, 101, 100.3, 99.7, 100.5, 99.5, 97.6, 102.4}, 15,
     100, 99.5, 100.5, 9},
    /* fifteen whose lowest three lie 2.5% below the rest: two groups, not one figure's passes */
    {__LINE__, {100, 97, 103, 100.1, 99.9, 100.2, 99.8, 95, 105, 100.3, 99.7, 100.5, 99.5, 94, 106}, 15, 100, 94,
     106, 0},
    /* nine within 2%: all of them, their range */
    {__LINE__, {100, 100.1, 99.9, 100.2, 99.8, 100.3, 99.7, 100.4, 99.6}, 9, 100, 99.6, 100.4, 9},
    /* twelve: the 3rd to the 10th */
    {__LINE__, {100, 97, 103, 100.1, 99.9, 100.2, 99.8, 100.3, 99.7, 100.5, 99.5, 100.4}, 12, 100.05, 99.7, 100.4, 8},
    /* twelve in two groups (ten further passes at one share of an L3 after two of five asked at
     * another): the 3rd to the 10th agree, but the groups are no draws of one figure */
    {__LINE__, {46.70, 46.71, 46.70, 48.50, 48.52, 46.71, 46.70, 46.71, 46.70, 46.71, 46.70, 46.71}, 12, 46.705, 46.70,
     48.52, 0},
    /* eight: the range is the median's interval (the 2nd and the 7th hold it at only 0.930), and
     * one pass apart is left out of it */
    {__LINE__, {100, 100, 100, 100, 100, 100, 100, 103}, 8, 100, 100, 100, 7},
    /* eight with one apart on each side: neither is left out */
    {__LINE__, {96, 100, 100, 100, 100, 100, 100, 104}, 8, 100, 96, 104, 0},
    /* two passes 20% apart: the range of all */
    {__LINE__, {90.0, 110.0}, 2, 100.0, 90.0, 110.0, 0},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        double lo, hi;
        int agree = pass_agreeing_range(rows[i].v, rows[i].n, rows[i].median, CAL_SPREAD_CORE, &lo, &hi);
        CHECK(agree == rows[i].agree && lo == rows[i].lo && hi == rows[i].hi, rows[i].line,
              "%d agree, [%.2f, %.2f] (want %d, [%.2f, %.2f])", agree, lo, hi, rows[i].agree, rows[i].lo, rows[i].hi);
    }
    return done_testing();
}
