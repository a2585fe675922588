/* The roofline model: its ceilings measured on this host (compute: the flops kernel at each width
 * and precision; bandwidth: triad at each level's size), or read back from an earlier
 * roofline.json, and a run's cases placed under them. 'pmucal roofline' is its command;
 * penalties/ceilings.h turns its roofline.json into tables, report/ draws it. */
#ifndef PMUCAL_ROOFLINE_MODEL_H
#define PMUCAL_ROOFLINE_MODEL_H
#include "base/jread.h"
#include "base/json.h"
#include <stdbool.h>

/* The widths and levels a roofline measures, in order (their flags are indexed by these). */
#define ROOFLINE_NWIDTHS 4
#define ROOFLINE_NLEVELS 4
extern const char *const roofline_widths[ROOFLINE_NWIDTHS], *const roofline_levels[ROOFLINE_NLEVELS];
/* The most ceilings of each kind a roofline has: every width, precision and the two team sizes;
 * every level and the two team sizes. */
#define ROOFLINE_MAX_COMPUTE (ROOFLINE_NWIDTHS * 2 * 2)
#define ROOFLINE_MAX_BANDWIDTH (ROOFLINE_NLEVELS * 2)

struct ceiling {
    const char *what, *prec;   /* width or level; dp/sp for compute */
    unsigned threads;
    double value, ghz;         /* GFLOP/s or GB/s; NAN when skipped */
    double set_bytes;          /* bandwidth: each thread's working set */
    const char *op;
    const char *withheld;      /* why there is no value though the case ran, or NULL */
};

/* Every ceiling of the widths and levels switched on, with each of the nthreads team sizes,
 * reps repetitions each, until a stop: into comp and bw (ROOFLINE_MAX_* each). 1 when one could
 * not be measured, else 0. */
int roofline_measure(int reps, const bool *width_on, const bool *level_on, const unsigned *threads, int nthreads,
                     struct ceiling *comp, int *ncomp, struct ceiling *bw, int *nbw);
/* The ceilings of an earlier roofline.json (file), their names pointing into doc; how many
 * roofline.json says the team had in *team. -1 after a message naming the file when they are not
 * what pmucal writes (penalties/ceilings.h checks each). */
int roofline_read(const struct jvalue *doc, const char *file, struct ceiling *comp, int *ncomp, struct ceiling *bw,
                  int *nbw, unsigned *team);
/* The run's cases (one record each, the first) placed under the ceilings: into j's "cases" and
 * printed. Returns how many are above their roof, or -1 when the run cannot be read. */
int roofline_place_run(const char *path, const struct ceiling *comp, int ncomp, const struct ceiling *bw, int nbw,
                       struct json *j);
/* roofline.json into j (initialized here; the caller frees it): the team's size, the ceilings and,
 * when run is not NULL, its cases placed (roofline_place_run). Returns how many cases are above
 * their roof, or -1 when the run cannot be read. */
int roofline_document(struct json *j, unsigned team, const struct ceiling *comp, int ncomp, const struct ceiling *bw,
                      int nbw, const char *run);
/* The ceilings printed as a table, a column per team size, after title; a note for each withheld. */
void roofline_print_ceilings(const char *title, const struct ceiling *c, int n, const unsigned *threads,
                             int nthreads);
#endif
