/* penalties/calibrate_run.c cal_more_passes_due: a recipe whose clean passes disagree is given
 * further passes only where more of them can pin its median down (their middle half, twice their
 * median absolute deviation, within what the recipe allows), up to three times the passes asked
 * and CAL_MAX_PASSES. Passes left short by sharing: tests/36-runs-resume.t plants them. */
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
    /* the same run's mispredict: two groups 2.5% apart, further passes would not join them */
    {__LINE__, "mispredict", 6, {20.73, 21.18, 20.76, 21.31, 21.21, 20.76}, false},
    /* a figure near zero (fp_assist_add with no assist): any spread is all of it */
    {__LINE__, "fp_assist_add", 5, {-0.003, 0.002, 0.001, -0.001, 0.0}, false},
    /* agreeing passes need no more */
    {__LINE__, "l2_hit", 5, {15.95, 15.96, 15.95, 15.97, 15.96}, false},
    /* three times the five asked: no more however they spread */
    {__LINE__, "l2_hit", 15, {15.97, 15.95, 17.54, 15.97, 15.95, 17.54, 15.97, 15.95, 17.54, 15.97, 15.95, 17.54, 15.97,
                              15.95, 17.54}, false},
    /* the same at fourteen: one more */
    {__LINE__, "l2_hit", 14, {15.97, 15.95, 17.54, 15.97, 15.95, 17.54, 15.97, 15.95, 17.54, 15.97, 15.95, 17.54, 15.97,
                              15.95}, true},
};

int main(void)
{
    struct cal cal = {.o = {.passes = 5, .more_passes = true}};
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct penalty p = {.rc = recipe_named(rows[i].recipe), .passes = rows[i].n, .passes_wanted = rows[i].n};
        for (int k = 0; k < rows[i].n; k++)
            p.pass_values[k] = rows[i].v[k];
        bool due = p.rc && cal_more_passes_due(&cal, &p);
        CHECK(p.rc && due == rows[i].due, rows[i].line, "%s over %d clean passes: %s (want %s)", rows[i].recipe,
              rows[i].n, due ? "due another" : "no more", rows[i].due ? "due another" : "no more");
    }
    /* Not with --quick, nor when replaying, nor where fewer than three passes were asked. */
    struct penalty p = {.rc = recipe_named("l2_hit"), .passes = 3, .passes_wanted = 3, .pass_values = {15.97, 15.95, 17.54}};
    struct cal quick = {.o = {.passes = 5, .more_passes = false}}, replay = {.o = {.passes = 5, .more_passes = true},
                                                                           .replaying = true},
               two = {.o = {.passes = 2, .more_passes = true}};
    CHECK(!cal_more_passes_due(&quick, &p) && !cal_more_passes_due(&replay, &p) && !cal_more_passes_due(&two, &p),
          __LINE__, "no further passes with --quick, when replaying, or with 2 passes asked");
    return done_testing();
}
