/* The sampler's ring reader across wrap-around, and the sampling verdicts on known histograms. */
#include "core/sites.h"
#include "sources/sampling.h"
#include "validate/sample_check.h"
#include "tap.h"
#include <linux/perf_event.h>
#include <string.h>

#define RING 256   /* bytes: a power of two, small so that records wrap */

/* Writes one record at byte position pos of the ring (wrapping), returns the next position. */
static uint64_t put(unsigned char *ring, uint64_t pos, uint32_t type, const uint64_t *words, int n)
{
    unsigned char rec[128];
    struct perf_event_header h = {.type = type, .misc = 0, .size = (uint16_t)(sizeof(h) + 8 * n)};
    memcpy(rec, &h, sizeof(h));
    memcpy(rec + sizeof(h), words, 8 * (size_t)n);
    for (unsigned i = 0; i < h.size; i++)
        ring[(pos + i) % RING] = rec[i];
    return pos + h.size;
}

/* Ring rows: records from start position start (so the tail sits where a wrap cuts a record's
 * header or body), then what the parser must count. */
static const struct {
    int line;
    uint64_t start;
    int samples, lost_records;
    uint64_t lost;
    int throttle;
} rings[] = {
    {__LINE__, 0, 3, 0, 0, 0},
    {__LINE__, RING - 4, 3, 0, 0, 0},     /* the first header cut by the wrap */
    {__LINE__, RING - 20, 3, 1, 7, 1},    /* a sample's body cut */
    {__LINE__, 1000 * RING - 41, 5, 1, 9, 1},
};

static void test_rings(void)
{
    for (unsigned r = 0; r < sizeof(rings) / sizeof(rings[0]); r++) {
        unsigned char ring[RING];
        memset(ring, 0xee, sizeof(ring));
        uint64_t pos = rings[r].start;
        for (int s = 0; s < rings[r].samples; s++) {
            uint64_t w[4] = {0x400000 + 4 * (uint64_t)s, (uint64_t)77 << 32 | 76, 1000 + (uint64_t)s, 10007};
            pos = put(ring, pos, PERF_RECORD_SAMPLE, w, 4);
            if (s == 0 && rings[r].lost_records) {
                uint64_t l[2] = {1, rings[r].lost};
                pos = put(ring, pos, PERF_RECORD_LOST, l, 2);
            }
            if (s == 1 && rings[r].throttle) {
                uint64_t t[3] = {5, 1, 1};
                pos = put(ring, pos, PERF_RECORD_THROTTLE, t, 3);
            }
        }
        struct sample_stream st = {0};
        uint64_t tail = ring_parse(ring, RING, rings[r].start, pos, &st);
        CHECK(tail == pos && st.n == (size_t)rings[r].samples && !st.bad, rings[r].line,
              "ring from %llu: tail %llu (want %llu), %zu samples (want %d), %llu bad",
              (unsigned long long)rings[r].start, (unsigned long long)tail, (unsigned long long)pos, st.n,
              rings[r].samples, (unsigned long long)st.bad);
        bool fields = true;
        for (size_t s = 0; s < st.n; s++)
            fields &= st.s[s].ip == 0x400000 + 4 * s && st.s[s].pid == 76 && st.s[s].tid == 77 &&
                      st.s[s].time == 1000 + s && st.s[s].period == 10007;
        CHECK(fields, rings[r].line, "every sample's ip, pid, tid, time and period read back across the wrap");
        CHECK(st.lost == rings[r].lost && st.lost_records == (uint64_t)rings[r].lost_records &&
              st.throttle == (uint64_t)rings[r].throttle, rings[r].line, "lost %llu in %llu records, throttled %llu",
              (unsigned long long)st.lost, (unsigned long long)st.lost_records, (unsigned long long)st.throttle);
        stream_free(&st);
    }
}

/* A four-instruction loop (the touch loop: store, add, sub, branch), the store causing pf.minor
 * and every instruction inst. */
static void touch_map(struct site_map *m)
{
    memset(m, 0, sizeof(*m));
    const char *what[] = {"store", "add", "sub", "branch"};
    for (int i = 0; i < 4; i++)
        site_add(m, 0x1000 + 4 * (uintptr_t)i, what[i]);
    m->addr[4] = 0x1010;
    site_all(m, Q_INST, 1);
    m->weight[0][Q_PF_MINOR] = 1;
}

static const struct {
    int line;
    uint64_t at[4], outside;
    int q;
    bool promised;
    enum verdict skid, shadow;
    const char *says;
} hists[] = {
    {__LINE__, {256, 0, 0, 0}, 0, Q_PF_MINOR, true, VERDICT_OK, VERDICT_OK, "distances 0:256"},
    {__LINE__, {250, 6, 0, 0}, 0, Q_PF_MINOR, true, VERDICT_NOT_OK, VERDICT_OK, "6 samples off their causing instruction"},
    {__LINE__, {256, 0, 0, 0}, 3, Q_PF_MINOR, true, VERDICT_NOT_OK, VERDICT_OK, "3 samples off"},
    {__LINE__, {250, 6, 0, 0}, 0, Q_PF_MINOR, false, VERDICT_OK, VERDICT_OK, "mean 0.023"},
    {__LINE__, {200, 200, 200, 199}, 0, Q_INST, false, VERDICT_OK, VERDICT_OK, "(df 3, p 0.99"},
    {__LINE__, {400, 0, 200, 199}, 0, Q_INST, false, VERDICT_OK, VERDICT_NOT_OK, "never sampled: inst 1 add (200 due)"},
    {__LINE__, {300, 100, 200, 199}, 0, Q_INST, false, VERDICT_OK, VERDICT_NOT_OK, "not spread as the model's weights"},
    {__LINE__, {0, 0, 0, 0}, 3, Q_PF_MINOR, true, VERDICT_NOT_OK, VERDICT_NOT_OK, "no sample"},
};

static void test_hists(void)
{
    struct site_map m;
    touch_map(&m);
    for (unsigned r = 0; r < sizeof(hists) / sizeof(hists[0]); r++) {
        struct sample_hist h = {.outside = hists[r].outside};
        for (int i = 0; i < 4; i++)
            h.at[i] = hists[r].at[i], h.total += hists[r].at[i];
        uint64_t dist[SITE_MAX_INST];
        double mean, p;
        struct sverdict skid, shadow;
        sample_skid(&skid, &m, &h, hists[r].q, hists[r].promised, dist, &mean);
        sample_shadow(&shadow, &m, &h, hists[r].q, &p);
        CHECK(skid.kind == hists[r].skid && skid.judged == hists[r].promised, hists[r].line, "skid: %s", skid.text);
        CHECK(shadow.kind == hists[r].shadow, hists[r].line, "shadow: %s", shadow.text);
        CHECK(strstr(skid.text, hists[r].says) || strstr(shadow.text, hists[r].says), hists[r].line, "says '%s'",
              hists[r].says);
    }
}

/* Rate: samples against count / period, lost and throttled samples named. */
static const struct {
    int line;
    size_t samples;
    uint64_t count, period, lost;
    double model;
    enum verdict kind;
    const char *says;
} rates[] = {
    {__LINE__, 256, 256, 1, 0, 256, VERDICT_OK, "256 samples x 1 = 256"},
    {__LINE__, 255, 256, 1, 0, 256, VERDICT_NOT_OK, "1 missing"},
    {__LINE__, 799, 8000013, 10007, 0, NAN, VERDICT_OK, "799.4 due"},
    {__LINE__, 3, 8000013, 10007, 0, NAN, VERDICT_NOT_OK, "796 missing"},
    {__LINE__, 801, 8000013, 10007, 0, NAN, VERDICT_NOT_OK, "2 too many"},
    {__LINE__, 200, 256, 1, 56, 256, VERDICT_NOT_OK, "56 lost (1 PERF_RECORD_LOST)"},
    {__LINE__, 300, 300, 1, 0, 256, VERDICT_NOT_OK, "the count is off the model"},
};

static void test_rates(void)
{
    for (unsigned r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
        struct sample_stream st = {.n = rates[r].samples, .lost = rates[r].lost, .lost_records = rates[r].lost ? 1 : 0};
        struct sverdict v;
        sample_rate(&v, &st, rates[r].count, rates[r].period, rates[r].model, 10);
        CHECK(v.kind == rates[r].kind && strstr(v.text, rates[r].says), rates[r].line, "%s (want '%s')", v.text,
              rates[r].says);
    }
}

int main(void)
{
    test_rings();
    test_hists();
    test_rates();
    /* chi-square upper tail (Wilson-Hilferty) against tabulated quantiles. */
    CHECK_NEAR(chi2_upper(5.991, 2), 0.05, 0.003, __LINE__, "chi2 df 2 at its 95% quantile");
    CHECK_NEAR(chi2_upper(13.816, 2), 0.001, 0.0005, __LINE__, "chi2 df 2 at its 99.9% quantile");
    CHECK_NEAR(chi2_upper(16.919, 9), 0.05, 0.003, __LINE__, "chi2 df 9 at its 95% quantile");
    return done_testing();
}
