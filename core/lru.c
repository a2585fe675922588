#include "core/lru.h"
#include "base/util.h"
#include <stdlib.h>
#include <string.h>

/* A cache whose ways hwloc does not know (0) or that is fully associative (-1) is one set. */
static void geometry(const struct cache_level *c, uint64_t *sets, uint64_t *ways, uint64_t *line)
{
    *line = c->linesize > 0 ? (uint64_t)c->linesize : 64;
    uint64_t lines = c->size / *line;
    *ways = c->ways > 0 ? (uint64_t)c->ways : lines;
    *sets = *ways && lines / *ways ? lines / *ways : 1;
}

void lru_count_init(struct lru_count *lc, const struct cache_level *c, const struct lru_count *above)
{
    geometry(c, &lc->sets, &lc->ways, &lc->line);
    lc->lines_in_set = xcalloc(lc->sets, sizeof(*lc->lines_in_set));
    lc->above = above;
}

/* Does the line at addr miss the level above every lap (its set there overflows)? */
static bool reaches(const struct lru_count *lc, uintptr_t addr)
{
    const struct lru_count *a = lc->above;
    return !a || a->lines_in_set[(addr / a->line) % a->sets] > a->ways;
}

void lru_count_add(struct lru_count *lc, uintptr_t addr)
{
    if (reaches(lc, addr))
        lc->lines_in_set[(addr / lc->line) % lc->sets]++;
}

void lru_count_add_lines(struct lru_count *lc, uintptr_t addr, uint64_t n)
{
    const struct lru_count *a = lc->above;
    /* Lines a set apart here are a whole number of sets apart above when the set counts divide:
     * all lines of this set share one set above, which passes them all or none. */
    bool whole_sets = !a || (a->line == lc->line && lc->sets % a->sets == 0);
    if (!whole_sets) {
        for (uint64_t i = 0; i < n; i++)
            lru_count_add(lc, addr + i * lc->line);
        return;
    }
    uint64_t first_line = addr / lc->line, first = first_line % lc->sets, laps = n / lc->sets, rest = n % lc->sets;
    for (uint64_t s = 0; s < lc->sets; s++) {
        uint64_t in_set = laps + ((s + lc->sets - first) % lc->sets < rest);
        if (in_set && reaches(lc, s * lc->line))   /* set s holds lines whose number is s modulo sets */
            lc->lines_in_set[s] += (uint32_t)in_set;
    }
}

uint64_t lru_count_misses(struct lru_count *lc)
{
    uint64_t misses = 0;
    for (uint64_t s = 0; s < lc->sets; s++)
        if (lc->lines_in_set[s] > lc->ways)
            misses += lc->lines_in_set[s];
    free(lc->lines_in_set);
    lc->lines_in_set = NULL;
    return misses;
}

void lru_count_walk(const struct topo *t, void (*add)(struct lru_count *lc, const void *walk), const void *walk,
                    uint64_t *d1_misses, uint64_t *ll_misses)
{
    uint64_t misses[2], edges[2];
    lru_count_walk_edges(t, add, walk, LRU_EDGE_WAYS, misses, edges);
    *d1_misses = misses[0];
    *ll_misses = misses[1];
}

/* A walk through `first` and, seeing its misses, t's last level. */
static void count_levels(const struct topo *t, const struct cache_level *first,
                         void (*add)(struct lru_count *lc, const void *walk), const void *walk, unsigned spare,
                         uint64_t misses[2], uint64_t edges[2])
{
    int last = topo_last_level(t);
    const struct cache_level *levels[] = {first, last ? &t->data[last] : NULL};
    struct lru_count lc[2];
    for (int i = 0; i < 2; i++) {
        misses[i] = edges[i] = 0;
        lc[i].lines_in_set = NULL;
        if (!levels[i] || !levels[i]->size)
            continue;
        lru_count_init(&lc[i], levels[i], i && lc[0].lines_in_set ? &lc[0] : NULL);
        add(&lc[i], walk);
        for (uint64_t s = 0; s < lc[i].sets; s++) {
            uint64_t n = lc[i].lines_in_set[s];
            if (n <= lc[i].ways && n + spare > lc[i].ways)
                edges[i] += n;
        }
    }
    for (int i = 1; i >= 0; i--)   /* the last level's first: it reads D1's counts */
        if (lc[i].lines_in_set)
            misses[i] = lru_count_misses(&lc[i]);
}

void lru_count_walk_edges(const struct topo *t, void (*add)(struct lru_count *lc, const void *walk), const void *walk,
                          unsigned spare, uint64_t misses[2], uint64_t edges[2])
{
    count_levels(t, &t->data[1], add, walk, spare, misses, edges);
}

struct code_run {
    uintptr_t addr;
    uint64_t lines;
};

static void add_code_run(struct lru_count *lc, const void *walk)
{
    const struct code_run *r = walk;
    lru_count_add_lines(lc, r->addr, r->lines);
}

void lru_count_code(const struct topo *t, uintptr_t addr, uint64_t lines, unsigned spare, uint64_t misses[2],
                    uint64_t edges[2])
{
    struct code_run r = {addr, lines};
    count_levels(t, t->l1i.size ? &t->l1i : &t->data[1], add_code_run, &r, spare, misses, edges);
}

/* One simulated LRU cache: per set, its lines from most to least recently used, each stored as
 * line number + 1 (0: an empty way, so untouched sets of a large cache are never paged in). */
struct lru_sim {
    uint64_t sets, ways, line;
    uintptr_t *tag;
};

static bool sim_init(struct lru_sim *s, const struct cache_level *c)
{
    geometry(c, &s->sets, &s->ways, &s->line);
    /* No ways: a level of size 0 (a machine that states no caches, its levels taken as they are). */
    if (!s->ways || s->ways > LRU_SIM_MAX_WAYS)
        return false;
    s->tag = xcalloc(s->sets * s->ways, sizeof(*s->tag));
    return true;
}

/* Looks the line at addr up and makes it the most recent of its set: -1 on a miss, else how many
 * other lines of its set were used since its last use (its depth in the LRU order). */
static int64_t sim_access(struct lru_sim *s, uintptr_t addr)
{
    uintptr_t t = addr / s->line + 1;
    uintptr_t *set = s->tag + (t - 1) % s->sets * s->ways;
    uint64_t w = 0;
    while (w < s->ways && set[w] != t)
        w++;
    int64_t depth = w < s->ways ? (int64_t)w : -1;
    if (depth < 0)
        w = s->ways - 1;
    memmove(set + 1, set, w * sizeof(*set));
    set[0] = t;
    return depth;
}

/* The fewest and most set bits `bit` of miss[] has in w consecutive entries of n, read cyclically. */
static void window_range(const uint8_t *miss, uint64_t n, uint64_t w, uint8_t bit, uint64_t *lo, uint64_t *hi)
{
    uint64_t in = 0;
    for (uint64_t i = 0; i < w; i++)
        in += (miss[i] & bit) != 0;
    *lo = *hi = in;
    for (uint64_t i = 0; i < n; i++) {   /* the window starting at i + 1 */
        in += (miss[(i + w) % n] & bit) != 0;
        in -= (miss[i] & bit) != 0;
        *lo = in < *lo ? in : *lo;
        *hi = in > *hi ? in : *hi;
    }
}

void lru_lap_misses(void *const *addrs, uint64_t n, const struct cache_level *d1, const struct cache_level *ll,
                    uint64_t window, struct lru_lap *lap)
{
    struct lru_sim sim[2] = {{0}, {0}};
    memset(lap, 0, sizeof(*lap));
    bool simulated = sim_init(&sim[0], d1) && (!ll || sim_init(&sim[1], ll));
    bool windowed = window > 0 && window < n;
    uint8_t *miss = simulated && windowed ? xcalloc(n, 1) : NULL;   /* bit 1 << level: the steady lap's misses */
    if (!simulated) {
        /* A level of unknown ways: no set conflicts to find, and simulating one huge set would be
         * slow; a lap misses it everywhere when larger than the cache, nowhere otherwise. */
        lap->misses[0] = n * sim[0].line > d1->size ? n : 0;
        lap->misses[1] = ll && n * sim[0].line > ll->size ? lap->misses[0] : 0;
    } else {
        /* Lap 1 brings D1 to its steady state, lap 2 LL (fed by D1's steady misses): count lap 3. */
        int levels = ll ? 2 : 1;
        for (int round = 0; round < 3; round++)
            for (uint64_t i = 0; i < n; i++)
                for (int l = 0; l < levels; l++) {
                    int64_t depth = sim_access(&sim[l], (uintptr_t)addrs[i]);
                    int64_t spare = (int64_t)sim[l].ways - 1 - depth;   /* when a hit */
                    if (round == 2 && depth < 0) {
                        lap->misses[l]++;
                        if (miss)
                            miss[i] |= (uint8_t)(1u << l);
                    }
                    if (round == 2 && depth >= 0 && spare < LRU_EDGE_WAYS)
                        lap->edge_hits[l]++;
                    if (depth >= 0)
                        break;   /* a hit: the level below never sees it */
                }
    }
    for (int l = 0; l < 2; l++)
        if (miss)
            window_range(miss, n, window, (uint8_t)(1u << l), &lap->window_lo[l], &lap->window_hi[l]);
        else if (windowed) {   /* not simulated: a lap misses everywhere or nowhere */
            lap->window_lo[l] = lap->window_hi[l] = lap->misses[l] ? window : 0;
        }
    free(miss);
    free(sim[0].tag);
    free(sim[1].tag);
}
