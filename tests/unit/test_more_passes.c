/* penalties/calibrate_run.c cal_more_passes_due: a recipe short of clean passes, or whose clean
 * passes disagree, is given further passes, the latter only where more of them can pin its median
 * down (their middle half, twice their median absolute deviation, within what the recipe allows,
 * and not in two groups): up to twice the passes asked for the first, three times and
 * CAL_MAX_PASSES for the second.
 * tests/36-runs-resume.t plants both in a run. */
#include "penalties/penalty_fit.h"
#include "tap.h"

static const struct {
    int line;
    const char *recipe;
    int n;
    double v[CAL_MAX_PASSES];
    bool due;
} rows[] = {
    /* test 36's planted third pass, 10% slow: a fourth lets it stand apart */
    {__LINE__, "l2_hit", 3, {15.97, 15.95, 17.54}, true},
    /* the Emerald Rapids guest's clean ifetch_l3 passes (this session's bench run 2): 4.7% over
     * four, their middle within 3% */
    {__LINE__, "ifetch_l3", 4, {18.96, 18.96, 18.09, 18.44}, true},
    /* the same run's dram: its middle half wider than 3% while another tenant kept memory busy */
    {__LINE__, "dram", 8, {128.85, 132.14, 133.22, 136.59, 129.07, 134.69, 138.18, 197.69}, false},
    /* the same run's mispredict: three passes at 20.73-20.76, three at 21.18-21.31 (their means 2.3%
     * apart): twice their median absolute deviation is over 2% */
    {__LINE__, "mispredict", 6, {20.73, 21.18, 20.76, 21.31, 21.21, 20.76}, false},
    /* a figure near zero (fp_assist_add with no assist): any spread is all of it */
    {__LINE__, "fp_assist_add", 5, {-0.003, 0.002, 0.001, -0.001, 0.0}, false},
    /* agreeing passes need no more */
    {__LINE__, "l2_hit", 5, {15.95, 15.96, 15.95, 15.97, 15.96}, false},
    /* passes at two shares of an L3, three and two: more would only outnumber one group */
    {__LINE__, "l3_hit", 5, {46.69, 46.70, 46.71, 48.50, 48.52}, false},
};

int main(void)
{
    struct cal cal = {.o = {.passes = 5, .more_passes = true}};
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct penalty p = {.rc = recipe_named(rows[i].recipe), .passes = rows[i].n, .passes_wanted = rows[i].n};
        for (int k = 0; k < rows[i].n; k++)
            p.pass_values[k] = rows[i].v[k];
        bool due = p.rc && cal_more_passes_due(&cal, &p, p.passes);
        CHECK(p.rc && due == rows[i].due, rows[i].line, "%s over %d clean passes: %s (want %s)", rows[i].recipe,
              rows[i].n, due ? "due another" : "no more", rows[i].due ? "due another" : "no more");
    }
    /* Short of clean passes: another while under twice those asked. */
    static const struct {
        int line, asked, passes;
        bool due;
    } short_rows[] = {
        {__LINE__, 5, 8, true}, {__LINE__, 5, 9, true}, {__LINE__, 5, 10, false}, {__LINE__, 5, 11, false},
        {__LINE__, 3, 5, true}, {__LINE__, 3, 6, false},
    };
    struct case_result shared = {.clock_split = 0.025, .reps = 1, .cycles = {16}, .label = "walker size=L2"};
    for (unsigned i = 0; i < sizeof(short_rows) / sizeof(short_rows[0]); i++) {
        int n = short_rows[i].passes;
        struct cal asked = {.o = {.passes = short_rows[i].asked, .more_passes = true}};
        struct penalty p = {.rc = recipe_named("l2_hit"), .passes = n, .passes_wanted = n};
        for (int k = 0; k < n; k++)
            p.pass_values[k] = 16, p.pass_issue[k] = k < n - 2 ? &shared : NULL;
        bool due = cal_more_passes_due(&asked, &p, p.passes);
        CHECK(due == short_rows[i].due, short_rows[i].line, "%d passes of which 2 clean, %d asked: %s", n,
              short_rows[i].asked, due ? "due another" : "no more");
    }
    /* Disagreeing passes: another while under three times those asked, and CAL_MAX_PASSES. */
    /* The 3rd to the 12th of fourteen 4.1% apart, the 4th to the 12th of fifteen 3.8%; twice their
     * median absolute deviation 1.9%, no gap over 2%: due another, but for the cap. */
    static const double spread[CAL_MAX_PASSES] = {15.4,  15.6,  15.8,  15.85, 15.9,  15.95, 16.0, 16.0,
                                                  16.05, 16.1,  16.15, 16.45, 16.6,  16.75, 16.9};
    for (int n = 14; n <= CAL_MAX_PASSES; n++) {
        struct penalty p = {.rc = recipe_named("l2_hit"), .passes = n, .passes_wanted = n};
        for (int k = 0; k < n; k++)
            p.pass_values[k] = spread[k];
        bool due = cal_more_passes_due(&cal, &p, p.passes);
        CHECK(due == (n < 15), __LINE__, "%d disagreeing passes, 5 asked: %s", n, due ? "due another" : "no more");
    }
    /* Not with --quick, nor when replaying, nor where fewer than three passes were asked. */
    struct penalty p = {.rc = recipe_named("l2_hit"), .passes = 3, .passes_wanted = 3, .pass_values = {15.97, 15.95, 17.54}};
    struct cal quick = {.o = {.passes = 5, .more_passes = false}}, replay = {.o = {.passes = 5, .more_passes = true},
                                                                           .replaying = true},
               two = {.o = {.passes = 2, .more_passes = true}};
    CHECK(!cal_more_passes_due(&quick, &p, 3) && !cal_more_passes_due(&replay, &p, 3) &&
              !cal_more_passes_due(&two, &p, 3),
          __LINE__, "no further passes with --quick, when replaying, or with 2 passes asked");
    /* A recipe the run's further passes left behind: its five passes were all it wanted, judged
     * clean then; after a sixth pass of others the run's witnesses leave two of them out, and it
     * would be due another, which no further pass measures (pass 7 measures those at index 6):
     * fp_assist_mul ended in an error with no reason so on the Emerald Rapids guest. Not due. */
    struct penalty behind = {.rc = recipe_named("l2_hit"), .passes = 5, .passes_wanted = 5};
    for (int k = 0; k < 5; k++)
        behind.pass_values[k] = 16, behind.pass_issue[k] = k < 3 ? &shared : NULL;
    CHECK(cal_more_passes_due(&cal, &behind, 5) && !cal_more_passes_due(&cal, &behind, 6), __LINE__,
          "a recipe short of clean passes: due another after the run's 5th pass, not after its 6th");
    return done_testing();
}
