#include "validate/sample_check.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void sample_hist_add(struct sample_hist *h, const struct site_map *m, const struct sample_stream *st)
{
    for (size_t i = 0; i < st->n; i++) {
        int k = site_index(m, (uintptr_t)st->s[i].ip);
        if (k >= 0)
            h->at[k]++;
        else
            h->outside++;
        h->total++;
    }
}

void sample_rate(struct sverdict *v, const struct sample_stream *st, uint64_t count, uint64_t period,
                 double model_count, double model_slack)
{
    double due = (double)count / (double)period;
    double samples = (double)st->n;
    /* The period's phase carries over between runs: over any stretch the samples are the count's
     * whole periods, at most one short or over; at period 1 none. */
    double allowed = period == 1 ? 0 : 1;
    long long missing = llround(due - samples);
    bool model_off = !isnan(model_count) && fabs((double)count - model_count) > model_slack;
    v->what = "rate";
    v->judged = true;
    v->kind = fabs(due - samples) <= allowed && !st->lost && !st->throttle && !st->bad && !model_off ? VERDICT_OK : VERDICT_NOT_OK;
    int n = snprintf(v->text, sizeof(v->text), "rate: %zu samples x %llu = %.0f where the event counted %llu (%.1f due)",
                     st->n, (unsigned long long)period, samples * (double)period, (unsigned long long)count, due);
    if (missing > 0 && fabs(due - samples) > allowed)
        n += snprintf(v->text + n, sizeof(v->text) - n, ": %lld missing", missing);
    else if (missing < 0 && fabs(due - samples) > allowed)
        n += snprintf(v->text + n, sizeof(v->text) - n, ": %lld too many", -missing);
    if (st->lost)
        n += snprintf(v->text + n, sizeof(v->text) - n, "; %llu lost (%llu PERF_RECORD_LOST)",
                      (unsigned long long)st->lost, (unsigned long long)st->lost_records);
    if (st->throttle)
        n += snprintf(v->text + n, sizeof(v->text) - n, "; throttled %llu times", (unsigned long long)st->throttle);
    if (st->bad)
        n += snprintf(v->text + n, sizeof(v->text) - n, "; %llu records unreadable", (unsigned long long)st->bad);
    if (!isnan(model_count))
        snprintf(v->text + n, sizeof(v->text) - n, "; model %.0f +- %.0f%s", model_count, model_slack,
                 model_off ? ": the count is off the model" : "");
}

/* The causing instruction at or before i, going back around the loop: its distance, -1 when
 * nothing in the loop causes q. */
static int back_to_cause(const struct site_map *m, int i, int q)
{
    for (int d = 0; d < m->n; d++)
        if (m->weight[(i - d + m->n) % m->n][q] > 0)
            return d;
    return -1;
}

void sample_skid(struct sverdict *v, const struct site_map *m, const struct sample_hist *h, int q,
                 bool zero_promised, uint64_t dist[SITE_MAX_INST], double *mean)
{
    memset(dist, 0, SITE_MAX_INST * sizeof(dist[0]));
    uint64_t in = 0;
    double sum = 0;
    for (int i = 0; i < m->n; i++) {
        int d = back_to_cause(m, i, q);
        if (d < 0 || !h->at[i])
            continue;
        dist[d] += h->at[i];
        in += h->at[i];
        sum += (double)d * (double)h->at[i];
    }
    *mean = in ? sum / (double)in : NAN;
    int n = snprintf(v->text, sizeof(v->text), "skid: %llu samples in the loop, distances", (unsigned long long)in);
    for (int d = 0; d < m->n; d++)
        if (dist[d])
            n += snprintf(v->text + n, sizeof(v->text) - n, " %d:%llu", d, (unsigned long long)dist[d]);
    n += snprintf(v->text + n, sizeof(v->text) - n, ", mean %.3f; %llu outside the loop", *mean,
                  (unsigned long long)h->outside);
    v->what = "skid";
    v->judged = zero_promised;
    v->kind = VERDICT_OK;
    if (!zero_promised)
        return;
    /* Zero skid promised: every sample on a causing instruction, none elsewhere. */
    uint64_t off = in - dist[0] + h->outside;
    if (!in || off)
        v->kind = VERDICT_NOT_OK;
    if (off)
        snprintf(v->text + n, sizeof(v->text) - n, ": %llu samples off their causing instruction where zero skid is promised",
                 (unsigned long long)off);
    else if (!in)
        snprintf(v->text + n, sizeof(v->text) - n, ": no sample in the loop to hold to zero skid");
}

double chi2_upper(double x, int df)
{
    if (df <= 0)
        return NAN;
    double k = df, z = (cbrt(x / k) - (1 - 2 / (9 * k))) / sqrt(2 / (9 * k));
    return 0.5 * erfc(z / sqrt(2));
}

void sample_shadow(struct sverdict *v, const struct site_map *m, const struct sample_hist *h, int q, double *p)
{
    double total_w;
    int causes = site_causes(m, q, &total_w);
    uint64_t got[SITE_MAX_INST] = {0}, in = 0;
    for (int i = 0; i < m->n; i++) {
        int d = back_to_cause(m, i, q);
        if (d >= 0) {
            got[(i - d + m->n) % m->n] += h->at[i];
            in += h->at[i];
        }
    }
    double chi2 = 0;
    char never[256] = "";
    int nn = 0, nlen = 0;
    for (int i = 0; i < m->n; i++) {
        if (m->weight[i][q] <= 0)
            continue;
        double want = (double)in * m->weight[i][q] / total_w;
        if (want > 0)
            chi2 += ((double)got[i] - want) * ((double)got[i] - want) / want;
        if (!got[i] && want >= 5) {   /* fewer than 5 due: an empty one can be chance */
            nn++;
            nlen += snprintf(never + nlen, sizeof(never) - (size_t)nlen, "%sinst %d %s (%.0f due)", nn > 1 ? ", " : "", i,
                             m->what[i], want);
            if (nlen >= (int)sizeof(never))
                nlen = (int)sizeof(never) - 1;
        }
    }
    *p = chi2_upper(chi2, causes - 1);
    v->what = "shadow";
    v->judged = true;
    int n = snprintf(v->text, sizeof(v->text), "shadow: %llu samples over %d causing instruction%s", (unsigned long long)in,
                     causes, causes == 1 ? "" : "s");
    for (int i = 0; i < m->n; i++)
        if (m->weight[i][q] > 0)
            n += snprintf(v->text + n, sizeof(v->text) - n, " %llu", (unsigned long long)got[i]);
    if (causes > 1)
        n += snprintf(v->text + n, sizeof(v->text) - n, ", chi-square %.2f (df %d, p %.3g)", chi2, causes - 1, *p);
    bool bad = nn || !in || (causes > 1 && *p < 0.001);
    v->kind = bad ? VERDICT_NOT_OK : VERDICT_OK;
    if (nn)
        snprintf(v->text + n, sizeof(v->text) - n, "; never sampled: %s", never);
    else if (!in)
        snprintf(v->text + n, sizeof(v->text) - n, "; no sample on any causing instruction");
    else if (bad)
        snprintf(v->text + n, sizeof(v->text) - n, "; not spread as the model's weights (p < 0.001)");
}
