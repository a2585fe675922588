/* pmucal bench: what one group measurement costs outside the measured region: opening the
 * group, the enable/disable/read round trip around each counted loop, and closing it. */
#include "arch/isa.h"
#include "base/stats.h"
#include "base/util.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "host/clock.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bench_main(int argc, char **argv);

enum { K_ROUNDS = CLI_LONG };

static const struct cli_option bench_options[] = {
    {"events", MK_EVENTS, "LIST", "events of the group (default page-faults,minor-faults,task-clock,cpu-clock)"},
    MO_SOURCE, MO_PMU,
    {"rounds", K_ROUNDS, "N", "times the group is opened and read, 1..100000 (default 201)"},
    CLI_END,
};

const struct command bench_command = {
    .name = "bench",
    .fn = bench_main,
    .summary = "cost of one group measurement: open, enable/disable/read round trip, close",
    .synopsis = "[options]",
    .usage = "Opens the group (with its noise detectors) N times and times, with the tick counter: open, one\n"
             "start + stop + read around an empty region, and close. Prints median, min and MAD in\n"
             "microseconds. scripts/bench-measure.sh runs it beside a validate run.\n",
    .options = bench_options,
};

struct bench_args {
    struct measure_cli o;
    unsigned long long rounds;
};

static int bench_option(void *ctx, int key, const char *v)
{
    struct bench_args *a = ctx;
    if (key == K_ROUNDS)
        return cli_number(&bench_command, "--rounds", v, 1, 100000, &a->rounds);
    int rc = measure_cli_option(&bench_command, &a->o, key, v);
    return rc < 0 ? 0 : rc;
}

static int bench_main(int argc, char **argv)
{
    struct bench_args a = {.rounds = 201};
    measure_cli_init(&a.o);
    a.o.events = "page-faults,minor-faults,task-clock,cpu-clock";
    if (cli_parse(&bench_command, argc, argv, bench_option, &a, NULL))
        return 2;
    struct measure_cli o = a.o;
    uint64_t rounds = a.rounds;
    struct engine eng;
    struct event_spec *events;
    int n;
    if (measure_cli_engine(&o, &eng, &events, &n))
        return 2;
    struct event_spec *ptr[GROUP_MAX_EVENTS];
    for (int k = 0; k < n && k < GROUP_MAX_EVENTS; k++)
        ptr[k] = &events[k];
    double *open_us = xcalloc(rounds, sizeof(double)), *trip_us = xcalloc(rounds, sizeof(double)),
           *close_us = xcalloc(rounds, sizeof(double));
    const double us = 1e6 / clock_get()->tsc_hz;
    struct group_reading r;
    int status = 0;
    for (uint64_t i = 0; i < rounds; i++) {
        uint64_t t0 = isa_ticks_start();
        struct group *g = eng.src->open(ptr, n);
        uint64_t t1 = isa_ticks_stop();
        if (!g) {
            status = 1;
            break;
        }
        eng.src->start(g);
        eng.src->stop(g);
        eng.src->read(g, &r);
        uint64_t t2 = isa_ticks_stop();
        eng.src->close(g);
        uint64_t t3 = isa_ticks_stop();
        open_us[i] = (double)(t1 - t0) * us;
        trip_us[i] = (double)(t2 - t1) * us;
        close_us[i] = (double)(t3 - t2) * us;
    }
    if (!status) {
        const char *what[3] = {"open group", "start+stop+read", "close group"};
        double *x[3] = {open_us, trip_us, close_us};
        printf("source %s, %d events + %d noise detectors, %llu rounds\n", eng.src->name, n, NOISE_COUNT,
               (unsigned long long)rounds);
        for (int k = 0; k < 3; k++) {
            struct stats s = stats_of(x[k], rounds);
            printf("%-16s median %8.2f us  min %8.2f us  MAD %6.2f us\n", what[k], s.median, s.min, s.mad);
        }
    }
    free(open_us);
    free(trip_us);
    free(close_us);
    engine_free_events(events, n);
    ruleset_free(&eng.rules);
    return status;
}
