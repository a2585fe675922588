/* The parameter sweep's ground (validate/sweep.c, core/kernel.c's param_domain): every declared
 * domain parses and holds its default, the drawn cases stay inside the domains, reach their edges,
 * and are the same for the same seed. */
#include "base/util.h"
#include "core/kernel.h"
#include "validate/sweep.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

static const struct {
    int line;
    const char *range;
    int rc;
    uint64_t lo, hi, step;
    bool pow2, levels;
    uint64_t in, out;   /* a value inside, one outside */
} rows[] = {
    {__LINE__, "1..64", 0, 1, 64, 1, false, false, 64, 65},
    {__LINE__, "2..1024 pow2", 0, 2, 1024, 1, true, false, 512, 384},
    {__LINE__, "0..1G step 64k", 0, 0, 1ull << 30, 65536, false, false, 131072, 65537},
    {__LINE__, "32..2G levels", 0, 32, 2ull << 30, 1, false, true, 32, 31},
    {__LINE__, "8..4096 step 8", 0, 8, 4096, 8, false, false, 4096, 4095},
    {__LINE__, "64..1", -1, 0, 0, 0, false, false, 0, 0},          /* empty */
    {__LINE__, "1-64", -1, 0, 0, 0, false, false, 0, 0},           /* not LO..HI */
    {__LINE__, "1..64 prime", -1, 0, 0, 0, false, false, 0, 0},    /* an unknown word */
    {__LINE__, "1..64 step 0", -1, 0, 0, 0, false, false, 0, 0},   /* a step of nothing */
};

static bool choice_in(const char *choices, const char *v)
{
    size_t n = strlen(v);
    for (const char *s = choices; s; s = strchr(s, '|') ? strchr(s, '|') + 1 : NULL)
        if (!strncmp(s, v, n) && (s[n] == '|' || !s[n]))
            return true;
    return false;
}

/* Every word of a drawn case inside its parameter's domain; edges seen are marked. */
static bool case_in_domains(const char *text, char *why, size_t n, bool *lo_seen, bool *hi_seen)
{
    char *copy = xstrdup(text), *save = NULL;
    const struct kernel *k = kernel_find(strtok_r(copy, " ", &save));
    bool ok = k != NULL;
    if (!k)
        snprintf(why, n, "unknown kernel");
    for (char *w = strtok_r(NULL, " ", &save); w && ok; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        *eq = 0;
        const struct param *p = k->params;
        int i = 0;
        while (p->name && strcmp(p->name, w))
            p++, i++;
        uint64_t x;
        struct param_domain d;
        char err[200];
        if (!p->name)
            ok = false, snprintf(why, n, "%s: no such parameter", w);
        else if (p->type == PARAM_ENUM)
            ok = choice_in(p->choices, eq + 1);
        else if (!strcmp(eq + 1, "L1") || !strcmp(eq + 1, "L2") || !strcmp(eq + 1, "L3"))
            ok = p->type == PARAM_SIZE && !param_domain(p, &d, err, sizeof(err)) && d.levels;
        else if (param_domain(p, &d, err, sizeof(err)) || !parse_size(eq + 1, &x))
            ok = false, snprintf(why, n, "%s=%s: %.100s", w, eq + 1, err);
        else {
            ok = param_domain_has(&d, x);
            lo_seen[i] |= x == d.lo;
            hi_seen[i] |= x == (p->type == PARAM_SIZE && d.hi > SWEEP_MAX_BYTES ? SWEEP_MAX_BYTES / d.step * d.step : d.hi);
        }
        if (!ok && !*why)
            snprintf(why, n, "%s=%s outside %s", w, eq + 1, p->name ? (p->range ? p->range : p->choices) : "?");
    }
    free(copy);
    return ok;
}

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct param p = {"x", PARAM_UINT, "1", "", NULL, rows[i].range};
        struct param_domain d;
        char err[200] = "";
        int rc = param_domain(&p, &d, err, sizeof(err));
        CHECK(rc == rows[i].rc, rows[i].line, "param_domain('%s') = %d (want %d) %s", rows[i].range, rc, rows[i].rc, err);
        if (rc || rows[i].rc)
            continue;
        CHECK(d.lo == rows[i].lo && d.hi == rows[i].hi && d.step == rows[i].step && d.pow2 == rows[i].pow2 &&
              d.levels == rows[i].levels, rows[i].line, "'%s' reads lo %llu hi %llu step %llu%s%s", rows[i].range,
              (unsigned long long)d.lo, (unsigned long long)d.hi, (unsigned long long)d.step, d.pow2 ? " pow2" : "",
              d.levels ? " levels" : "");
        CHECK(param_domain_has(&d, rows[i].in) && !param_domain_has(&d, rows[i].out), rows[i].line,
              "'%s' holds %llu, not %llu", rows[i].range, (unsigned long long)rows[i].in, (unsigned long long)rows[i].out);
    }
    /* Every kernel's declared domains parse and hold the default (a number; level names and
     * 'cpus' need a topology, which a unit test does not load). */
    for (const struct kernel **k = kernel_list(); *k; k++)
        for (const struct param *p = (*k)->params; p->name; p++) {
            if (!p->range || strstr(p->range, "cpus"))
                continue;
            struct param_domain d;
            char err[200] = "";
            uint64_t def;
            bool ok = !param_domain(p, &d, err, sizeof(err)) && parse_size(p->def, &def) ? param_domain_has(&d, def)
                                                                                         : d.levels;
            CHECK(ok, __LINE__, "%s %s: domain '%s' holds the default %s %s", (*k)->name, p->name, p->range, p->def, err);
        }
    /* Drawn cases: inside every domain, the same for the same seed, and reaching both edges of the
     * branch kernel's whole numbers within 2000 draws. */
    char *kn[] = {"branch"};
    bool lo_seen[KERNEL_MAX_PARAMS] = {0}, hi_seen[KERNEL_MAX_PARAMS] = {0};
    int outside = 0, differ = 0;
    char first_bad[400] = "";
    for (uint64_t i = 0; i < 2000; i++) {
        char *a = sweep_case(42, i, kn, 1), *b = sweep_case(42, i, kn, 1), why[200] = "";
        differ += !a || !b || strcmp(a, b);
        if (a && !case_in_domains(a, why, sizeof(why), lo_seen, hi_seen) && !outside++)
            snprintf(first_bad, sizeof(first_bad), "%s: %s", a, why);
        free(a);
        free(b);
    }
    CHECK(!differ, __LINE__, "the same seed and index draw the same case (%d differ)", differ);
    CHECK(!outside, __LINE__, "2000 drawn branch cases inside their domains (%d outside%s%s)", outside,
          outside ? ": " : "", first_bad);
    const struct kernel *br = kernel_find("branch");
    int i = 0;
    for (const struct param *p = br->params; p->name; p++, i++)
        if (p->type == PARAM_UINT)
            CHECK(lo_seen[i] && hi_seen[i], __LINE__, "branch %s: both edges of %s drawn (low %d, high %d)", p->name,
                  p->range, lo_seen[i], hi_seen[i]);
    char *a = sweep_case(1, 0, NULL, 0), *b = sweep_case(2, 0, NULL, 0), *c = sweep_case(1, 1, NULL, 0);
    CHECK(a && b && c && (strcmp(a, b) || strcmp(a, c)), __LINE__, "other seeds and indices draw other cases: '%s' '%s' '%s'",
          a, b, c);
    free(a);
    free(b);
    free(c);
    char *none = sweep_case(1, 0, (char *[]){"nokernel"}, 1);
    CHECK(!none, __LINE__, "an unknown kernel is refused");
    return done_testing();
}
