/* A team: N threads pinned one per CPU that run a kernel's work together. The calling thread (the
 * measuring one, counted by the source) is member 0; members 1..N-1 are threads of their own. A
 * run starts every member at once (they spin on a shared generation count, so none is late by a
 * wake-up) and returns when the last one is done, so the caller's timed region covers them all.
 * Each member sets up its own data on its own thread (first touch: its pages on its own NUMA node). */
#ifndef PMUCAL_TEAM_H
#define PMUCAL_TEAM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TEAM_MAX 1024   /* members a team can have */

struct team;
typedef void (*team_work)(void *ctx, unsigned member, uint64_t iters);

/* n members on cpus[0..n-1]: cpus[0] is the caller's (already bound there), the others get a
 * thread each, bound to its CPU. NULL with a message naming the CPU when one cannot be bound. */
struct team *team_new(unsigned n, const int *cpus, team_work work, void *ctx);
unsigned team_size(const struct team *t);
/* fn(ctx, member) on every member's own thread, one after another; returns when all have run. */
void team_each(struct team *t, void (*fn)(void *ctx, unsigned member));
/* work(ctx, member, iters) on every member at once; returns when every member is done. */
void team_run(struct team *t, uint64_t iters);
void team_free(struct team *t);

/* The team of a case's threads=N parameter, member 0 the calling (measuring, already bound) thread,
 * the others on the next allowed CPUs: CASE_OK; CASE_SKIP with c->skip saying so when the
 * process may use fewer than N CPUs (as a case needing a CPU the machine lacks); CASE_ERROR for
 * threads=0 or a thread that cannot be bound. */
struct case_;
int team_for_case(struct case_ *c, unsigned threads, team_work work, void *ctx, struct team **team);

/* The thread ids of the live team the calling thread leads (member 0 first), at most max of them;
 * the caller's alone (1) when it leads none. For a counter source that opens its counters on each
 * thread it counts (a case sets its team up before it is measured, and one case is set up at a time
 * on a thread). */
unsigned team_led_tids(pid_t *tids, unsigned max);

/* The calling thread's counters count task pid instead of itself (a case whose loop runs in a
 * process of its own: the user's code in its sandbox); 0 makes them count the thread again. Not
 * for a thread that leads a team. */
void team_delegate(pid_t pid);

/* Set by a counter source whose counting is per thread and switched on by the thread itself
 * (callgrind's collection): called on each member thread as its work begins and ends. */
extern void (*team_member_hook)(bool begin);
#endif
