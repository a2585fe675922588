/* The sim source's two halves: the parent (sim_parent.c) starts the same command under
 * valgrind's callgrind with the simulated machine it chose; the child (sources/sim.c) measures.
 * What passes between them, besides the topology (topo_handover): */
#ifndef PMUCAL_SIM_H
#define PMUCAL_SIM_H
#include <stddef.h>

#define SIM_ENV_DIR "PMUCAL_SIM_DIR"          /* where callgrind writes its dumps */
#define SIM_ENV_CACHES "PMUCAL_SIM_CACHES"    /* "I1=size,ways,line D1=... LL=..." as given to valgrind */
#define SIM_ENV_NOTES "PMUCAL_SIM_NOTES"      /* how the simulated caches differ from the host's, "; "-separated */
#define SIM_ENV_VERSION "PMUCAL_SIM_VALGRIND" /* valgrind --version */
#define SIM_ENV_LOADS "PMUCAL_SIM_LOADS_KEPT" /* "1": valgrind keeps every load (the run measures the user's code) */
#define SIM_LOG_NAME "valgrind.log"           /* valgrind's log, in SIM_ENV_DIR */

struct topo;
/* The machine callgrind simulates, from the host's resolved topology: I1, D1 and the last level
 * (LL) it can simulate, with power-of-two set counts; levels it cannot simulate are left out, so
 * case sizes never follow them. Returns LL's level (1..3); notes says what differs and why. */
int sim_machine(const struct topo *host, struct topo *sim, char *notes, size_t n);

/* The parent's half of struct source's prepare_process: SOURCE_DONE with the child's exit status
 * in *status, SOURCE_CONTINUE inside the child, -1 with a message. */
int sim_prepare(int argc, char **argv, int *status);

#endif
