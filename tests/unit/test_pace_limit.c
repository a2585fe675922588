/* Pacing a loop whose time does not grow with its iterations: the measurement core must fail the
 * case with that reason, not give it 2^62 iterations (a perf-source header once read "5 repetitions
 * x 4611686018427387903 iterations"), and must still pace a loop that does grow. */
#include "base/util.h"
#include "core/kernel.h"
#include "core/measure.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

struct group {
    int unused;
};

static struct group *fake_open(struct event_spec **ev, int n)
{
    (void)ev, (void)n;
    return xcalloc(1, sizeof(struct group));
}

static void fake_nop(struct group *g) { (void)g; }

static int fake_read(struct group *g, struct group_reading *r)
{
    (void)g;
    memset(r, 0, sizeof(*r));
    r->time_enabled = r->time_running = 1000;
    return 0;
}

static void fake_close(struct group *g) { free(g); }

static const struct source fake = {
    .name = "fake-pace", .summary = "test", .exact_floor = 0.01,
    .open = fake_open, .start = fake_nop, .stop = fake_nop, .read = fake_read, .close = fake_close,
};

static void loop_ignoring_count(struct case_ *c, uint64_t iters) { (void)c, (void)iters; }

static volatile uint64_t sink;
static void loop_counting(struct case_ *c, uint64_t iters)
{
    (void)c;
    for (uint64_t i = 0; i < iters; i++)
        sink += i;
}

int main(void)
{
    struct measure_opts mo = MEASURE_OPTS_DEFAULT;
    mo.repetitions = 1, mo.target_seconds = 0.002;
    struct kernel k = *kernel_find("walker");
    struct case_ *c = case_from_text(&k, "size=16k");
    CHECK(c != NULL && case_setup(c) == CASE_OK, __LINE__, "a walker case sets up");

    struct measurement m;
    k.loop = loop_ignoring_count;
    int rc = measure_group(&fake, c, NULL, 0, &mo, &m);
    CHECK(rc == CASE_ERROR, __LINE__, "a loop that ignores its count fails (rc %d, %llu iterations)", rc,
          (unsigned long long)c->iters);
    CHECK(strstr(c->failed, "does not grow with its iterations") != NULL, __LINE__, "and says why: %s", c->failed);

    c->failed[0] = '\0', c->iters = 0;
    k.loop = loop_counting;
    rc = measure_group(&fake, c, NULL, 0, &mo, &m);
    CHECK(rc == CASE_OK && c->iters > 1 && c->iters < MEASURE_MAX_ITERS, __LINE__,
          "a loop that counts is paced (rc %d, %llu iterations)", rc, (unsigned long long)c->iters);
    if (k.teardown)
        k.teardown(c);
    case_free(c);
    return done_testing();
}
