/* A counter source is a struct of functions registered by name (perf, sim, ...); the
 * measurement core drives any of them the same way. */
#ifndef PMUCAL_SOURCE_H
#define PMUCAL_SOURCE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One event as the user named it, after its source resolved it. */
struct event_spec {
    char *name;              /* as given */
    char *canonical;         /* fully qualified (libpfm4 string, perf name, sim::Ir) */
    uint32_t type;           /* perf_event_attr type/config values, where the source has them */
    uint64_t config, config1, config2;
    bool programmable;       /* takes one of the group's N general-purpose counters */
    bool count_kernel;       /* ':k' given: count ring 0 too (default: user level only) */
    bool exclude_user;       /* ':k' without ':u': kernel level only */
    char *unsupported;       /* why it cannot be counted on this host; NULL when it can */
    int group;               /* the {a,b,c} group of the -e list it came from (1-based), 0 none */
    bool leads;              /* the source opened it as its group's leader (set by open, for the record) */
    char uncore[24];         /* an uncore unit's sysfs PMU stem ("amd_umc", "uncore_imc"): counted
                              * CPU-wide for the measuring CPU's socket, every instance summed
                              * (events/uncore.h); "" for a core or software event */
};

/* Noise detectors every group carries, without programmable counters. */
enum noise { NOISE_CTX_SWITCH, NOISE_MIGRATION, NOISE_PAGE_FAULT, NOISE_COUNT };
extern const char *const noise_name[NOISE_COUNT];

/* Fixed counters, where the PMU has them: measured in a group of their own around every measured loop,
 * so they never take one of the N programmable counters under test. */
enum fixed { FIXED_CYCLES, FIXED_INSTRUCTIONS, FIXED_REF_CYCLES, FIXED_COUNT };
extern const char *const fixed_name[FIXED_COUNT];

#define GROUP_MAX_EVENTS 64

struct group_reading {
    double value[GROUP_MAX_EVENTS];   /* per event of the group, NaN when unsupported */
    double noise[NOISE_COUNT];        /* NaN when the source has no such detector */
    double fixed[FIXED_COUNT];        /* NaN when there is no such fixed counter */
    uint64_t time_enabled, time_running;   /* of this measured loop alone (ns) */
};

struct group;
struct json;
struct source;

/* A source that sums a team's threads (core/team.h) into one reading gives it the times of its
 * least scheduled thread: a member whose counters were multiplexed or never ran makes the whole
 * reading so, and the engine's verdict on one thread speaks for the team. Called once a thread,
 * member 0 first. */
void group_reading_take_times(struct group_reading *r, unsigned member, uint64_t enabled, uint64_t running);

/* The most a deterministic source's zero-iteration run of a region run by this many threads may
 * count of an event; NaN when unstated. */
double source_zero_most(const struct source *s, const char *event, double threads);
/* Why the source leaves an event it counts unjudged; NULL when it does not say. */
const char *source_unjudged_why(const struct source *s, const char *event);

struct source {
    const char *name, *summary;
    double exact_floor;      /* per-iteration slack an "exact" rule allows with this source */
    /* Events one counted loop may add beyond the region (harness, warm-up) for every rule but
     * "exact"; divided by the loop's iterations. */
    double slack_per_loop;
    /* A deterministic source (a simulator) counts the same loop the same every time, so its
     * zero-iteration loops are held exactly: identical in every repetition under an exact rule, and
     * at most zero_most[] of an event (the harness's own work and a kernel's entry and exit; an
     * event not listed keeps the general bound). A fixed excess per loop cannot hide in the
     * intercept there (validate/rules.h check_raw). */
    bool deterministic;
    const struct zero_most {
        const char *event;   /* canonical name */
        double most;
        double per_member;   /* what each team member beyond the first adds (core/team.h): its start,
                              * its entry and exit, the measuring thread's wait for it */
    } *zero_most;            /* terminated by {NULL} */
    /* Events it counts that no rule of its rule file judges, each with why (its verdict and
     * 'pmucal run's table say it per case); terminated by {NULL}. */
    const struct unjudged_event {
        const char *event;   /* canonical name */
        const char *why;
    } *unjudged;
    /* Parse and encode one event name. -1 with err filled when the name is unknown; an event
     * that is known but cannot be counted here returns 0 with spec->unsupported set. */
    int (*resolve)(const char *name, struct event_spec *spec, char *err, size_t errlen);
    /* Open the events (and noise detectors) on the calling thread. Events that fail to open are
     * marked unsupported in their spec with the reason; the group holds the rest. */
    struct group *(*open)(struct event_spec **events, int n);
    void (*start)(struct group *g);   /* counting on: nothing else may run in between */
    void (*stop)(struct group *g);
    int  (*read)(struct group *g, struct group_reading *r);
    void (*close)(struct group *g);
    /* Optional: called once by run/validate after their options are checked, before anything is
     * measured, with the command's own argc/argv (argv[0] is the command name). Returns
     * SOURCE_CONTINUE to measure in this process, SOURCE_DONE when the whole command ran in another
     * process (e.g. re-executed under a simulator) and *status is its exit status, or -1 after
     * printing one clear message. */
    int  (*prepare_process)(int argc, char **argv, int *status);

    /* Its loops take real time on this CPU, so TSC cycles, latencies and penalties mean something
     * (a simulator's do not). */
    bool real_time;
    /* Its events are libpfm4 names of a PMU: the PMU's counters and shipped rules apply. */
    bool libpfm_events;
    /* It opens events with perf_event_open itself, so one probe (perf_hw_usable) tells for every
     * hardware event at once whether any can be counted here. */
    bool hw_probe;
    /* Optional defaults and limits; zero/NULL means "none, use the core's". */
    const char *default_events;   /* the -e list when none is given */
    uint64_t default_iters;       /* iterations per counted loop when --iters is not given (no calibration) */
    uint64_t max_inst_per_loop;    /* fewer default iterations where the model's inst would pass this */
    const char *expect_file;      /* rule file loaded automatically, "sim" -> validate/expect/sim.txt */
    unsigned isa_limits;          /* ISA_* (arch/isa.h) extensions this source cannot execute */
    uint64_t max_code_bytes;      /* generated code larger than this is a SKIP (0: no limit) */
    bool simple_predictor;        /* a textbook branch predictor (2-bit counters, short history) */
    /* Optional: what the source adds to manifest.json, e.g. the simulated cache geometry. */
    void (*manifest)(struct json *j);
    /* Optional: a source that takes an argument ("--source NAME:ARG", e.g. a wrapper naming the source
     * it wraps) returns the source to use, or NULL with err filled. */
    const struct source *(*configure)(const char *arg, char *err, size_t errlen);
    bool test_only;          /* for the test suite: not listed to users */
};

/* What a source's prepare() leaves the command to do: not an outcome of a case (core/kernel.h's
 * CASE_*) but whether this process measures at all. */
enum { SOURCE_CONTINUE = 0, SOURCE_DONE = 1 };

void source_register(const struct source *s);
const struct source *source_find(const char *name);
/* "NAME" or "NAME:ARG" as given to --source: the source, configured with ARG when it takes one;
 * NULL after one message naming the sources (or what is wrong with ARG). */
const struct source *source_select(const char *spec);
const struct source **source_list(void);

#define PMUCAL_SOURCE(var) \
    static void __attribute__((constructor)) register_source_##var(void) { source_register(&var); }

void event_spec_clear(struct event_spec *s);

#endif
