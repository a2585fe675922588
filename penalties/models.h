/* The CPU models pmucal has penalty facts for: how CPUID names them, which libpfm4 PMU and which
 * perf pmu-events table (eventdata/) describe their events, and their cycles event.
 * Recipes name their occurrence events per model; reference figures are per model too. */
#ifndef PMUCAL_MODELS_H
#define PMUCAL_MODELS_H
#include <stdbool.h>

struct cpu_model {
    const char *name;          /* "zen4", "zen5", "skylake", "sapphirerapids" */
    const char *vendor;        /* CPUID vendor string */
    int family;
    struct { int lo, hi; } models[4];   /* CPUID model ranges, inclusive; hi 0 ends the list */
    const char *pfm_pmu;       /* libpfm4 PMU name, NULL when libpfm4 does not know the model */
    const char *eventdata;     /* the model's perf pmu-events (or Intel perfmon) folder under eventdata/ */
    const char *cycles_pfm;    /* unhalted core cycles, libpfm4 name (NULL without a libpfm4 PMU) */
    const char *cycles_perf;   /* the same as perf's table names it */
    const char *core;          /* the core design its references are published for ("goldencove": SPR,
                                  EMR, ADL-P and RPL-P P-cores), NULL: its own name */
};

extern const struct cpu_model cpu_models[];
extern const int ncpu_models;

/* By CPUID identity, by name ("zen5") or by libpfm4 PMU name; NULL when unknown. */
const struct cpu_model *cpu_model_of(const char *vendor, int family, int model);
const struct cpu_model *cpu_model_named(const char *name);
const struct cpu_model *cpu_model_of_pmu(const char *pfm_pmu);
/* A model's name, or the core design one of them is built on ("goldencove"). */
bool cpu_model_or_core_known(const char *name);
/* This host's model (CPUID), NULL when no table covers it. */
const struct cpu_model *cpu_model_host(void);
/* "zen4, zen5, skylake" for messages. */
const char *cpu_model_names(void);

#endif
