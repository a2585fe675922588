#include "validate/sample_compare.h"
#include "base/util.h"
#include "validate/sample_check.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static bool same_key(const struct jvalue *a, const struct jvalue *b)
{
    return !strcmp(jget_str(a, "case", ""), jget_str(b, "case", "")) &&
           !strcmp(jget_str(a, "event", ""), jget_str(b, "event", "")) &&
           jget_num(a, "precise_ip", -1) == jget_num(b, "precise_ip", -1);
}

static const struct jvalue *find(struct jvalue *const *recs, int n, const struct jvalue *key)
{
    for (int i = 0; i < n; i++)
        if (same_key(recs[i], key))
            return recs[i];
    return NULL;
}

/* Samples per due sample (1 when none is lost), and the samples due. */
static double ratio(const struct jvalue *r, double *due)
{
    double period = jget_num(r, "period", NAN);
    *due = jget_num(r, "count", NAN) / period;
    return *due > 0 ? jget_num(r, "samples", NAN) / *due : NAN;
}

/* One of the record's arrays as numbers; its length, or -1 when absent or not numbers. */
static int numbers(const struct jvalue *r, const char *key, const char *field, double *out, int max)
{
    const struct jvalue *a = jget(r, key);
    if (!a || a->type != J_ARRAY || a->n > max)
        return -1;
    for (int i = 0; i < a->n; i++) {
        out[i] = field ? jget_num(&a->items[i], field, NAN) : jnum(&a->items[i], NAN);
        if (!isfinite(out[i]) || out[i] < 0)
            return -1;
    }
    return a->n;
}

/* Chi-square homogeneity of two histograms of n bins: p, NAN when fewer than two bins are used. */
static double homogeneity_p(const double *a, const double *b, int n)
{
    double A = 0, B = 0, chi2 = 0;
    int used = 0;
    for (int k = 0; k < n; k++)
        A += a[k], B += b[k];
    if (A <= 0 || B <= 0)
        return NAN;
    for (int k = 0; k < n; k++) {
        double tot = a[k] + b[k];
        if (tot <= 0)
            continue;
        used++;
        double ea = tot * A / (A + B), eb = tot * B / (A + B);
        chi2 += (a[k] - ea) * (a[k] - ea) / ea + (b[k] - eb) * (b[k] - eb) / eb;
    }
    return used > 1 ? chi2_upper(chi2, used - 1) : NAN;
}

static int judge(struct tap *t, const struct jvalue *b, const struct jvalue *n, double alpha, double threshold)
{
    char desc[1024], why[768] = "";
    int w = 0;
    double due0, due1, r0 = ratio(b, &due0), r1 = ratio(n, &due1);
    double expect = due1 * r0, s1 = jget_num(n, "samples", NAN);
    /* Which due samples get through is a binomial draw at BASE's ratio (none at ratio 1: a
     * deterministic event loses none by chance); one sample either way is the period's phase. */
    double sd = sqrt(expect * fabs(1 - r0));
    bool rate = isfinite(r0) && isfinite(r1) && fabs(s1 - expect) > 3 * sd + 1 && fabs(r1 - r0) > threshold * r0;
    if (rate)
        w += snprintf(why + w, sizeof(why) - (size_t)w, "; rate %.4f -> %.4f samples per due sample (%.0f where %.0f "
                      "expected)", r0, r1, s1, expect);
    const char *lossy[] = {"lost", "throttle"};
    for (int k = 0; k < 2; k++)
        if (jget_num(n, lossy[k], 0) > 0 && jget_num(b, lossy[k], 0) == 0) {
            rate = true;
            w += snprintf(why + w, sizeof(why) - (size_t)w, "; %s %.0f, none before", lossy[k], jget_num(n, lossy[k], 0));
        }
    double d0[64], d1[64], h0[64], h1[64], wt[64];
    int nd0 = numbers(b, "skid", NULL, d0, 64), nd1 = numbers(n, "skid", NULL, d1, 64);
    int nh0 = numbers(b, "histogram", "samples", h0, 64), nh1 = numbers(n, "histogram", "samples", h1, 64);
    bool skid = false, shadow = false;
    if (nh0 != nh1 || nd0 != nd1) {
        skid = true;
        w += snprintf(why + w, sizeof(why) - (size_t)w, "; the loop's map changed: %d -> %d instructions", nh0, nh1);
    } else if (nd0 > 0) {
        double p = homogeneity_p(d0, d1, nd0);
        skid = isfinite(p) && p < alpha;
        if (skid)
            w += snprintf(why + w, sizeof(why) - (size_t)w, "; skid distribution changed (chi-square p %.3g)", p);
        numbers(n, "histogram", "weight", wt, 64);
        double total_w = 0, in = 0;
        for (int i = 0; i < nh1; i++) {   /* every sample in the loop has a cause, skid or none */
            total_w += wt[i] > 0 ? wt[i] : 0;
            in += h1[i];
        }
        const struct jvalue *hist = jget(n, "histogram");
        for (int i = 0; i < nh1 && total_w > 0; i++)
            if (wt[i] > 0 && h0[i] > 0 && h1[i] == 0 && in * wt[i] / total_w >= 5) {
                shadow = true;
                w += snprintf(why + w, sizeof(why) - (size_t)w, "; newly shadowed: inst %d %s (%.0f due, %.0f before)", i,
                              jget_str(&hist->items[i], "what", "?"), in * wt[i] / total_w, h0[i]);
            }
    }
    if (w >= (int)sizeof(why))
        why[sizeof(why) - 1] = '\0';
    bool bad = rate || skid || shadow;
    snprintf(desc, sizeof(desc), "%s :: %s precise=%.0f %s: rate %.4f -> %.4f, skid mean %.3f -> %.3f%s",
             jget_str(n, "case", "?"), jget_str(n, "event", "?"), jget_num(n, "precise_ip", -1), bad ? "changed" : "same",
             r0, r1, jget_num(b, "skid_mean", NAN), jget_num(n, "skid_mean", NAN), why);
    tap_point(t, bad ? VERDICT_NOT_OK : VERDICT_OK, desc, NULL);
    return bad;
}

int sample_compare(struct tap *t, struct jvalue *const *base, int nb, struct jvalue *const *neu, int nn, double alpha,
                   double threshold, bool same_command)
{
    struct jvalue *const *side[2] = {base, neu};
    int count[2] = {nb, nn};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < count[s]; i++)
            if (strcmp(jget_str(side[s][i], "kind", ""), "sample")) {
                pm_error("%s record %d is not a sampling record (\"kind\": \"sample\"): compare takes two runs of "
                         "'pmucal sample', or two of validate or calibrate", s ? "NEW" : "BASE", i + 1);
                return -1;
            }
    int regressions = 0;
    for (int i = 0; i < nb; i++) {
        const struct jvalue *n = find(neu, nn, base[i]);
        if (n)
            regressions += judge(t, base[i], n, alpha, threshold);
    }
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < count[s]; i++)
            if (!find(side[!s], count[!s], side[s][i])) {
                char desc[512];
                snprintf(desc, sizeof(desc), "%s :: %s precise=%.0f", jget_str(side[s][i], "case", "?"),
                         jget_str(side[s][i], "event", "?"), jget_num(side[s][i], "precise_ip", -1));
                if (!s && same_command) {
                    snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), " no longer sampled: NEW ran the same "
                             "command to completion and recorded no samples (its TAP says why)");
                    tap_point(t, VERDICT_NOT_OK, desc, NULL);
                    regressions++;
                } else {
                    tap_point(t, VERDICT_SKIP, desc, s ? "sampled in NEW only" : "sampled in BASE only");
                }
            }
    return regressions;
}
