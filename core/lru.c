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

void lru_count_init(struct lru_count *lc, const struct cache_level *c)
{
    geometry(c, &lc->sets, &lc->ways, &lc->line);
    lc->lines_in_set = xcalloc(lc->sets, sizeof(*lc->lines_in_set));
}

void lru_count_add(struct lru_count *lc, uintptr_t addr)
{
    lc->lines_in_set[(addr / lc->line) % lc->sets]++;
}

void lru_count_add_lines(struct lru_count *lc, uintptr_t addr, uint64_t n)
{
    uint64_t first = (addr / lc->line) % lc->sets, laps = n / lc->sets, rest = n % lc->sets;
    for (uint64_t s = 0; laps && s < lc->sets; s++)
        lc->lines_in_set[s] += (uint32_t)laps;
    for (uint64_t i = 0; i < rest; i++)
        lc->lines_in_set[(first + i) % lc->sets]++;
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

uint64_t lru_lap_misses(void *const *addrs, uint64_t n, const struct cache_level *c)
{
    uint64_t sets, ways, line;
    geometry(c, &sets, &ways, &line);
    /* Ways unknown (one huge set): no set conflicts to find, and simulating them would be slow;
     * the lap misses everywhere when it is larger than the cache, nowhere otherwise. */
    if (ways > 256)
        return n * line > c->size ? n : 0;
    /* Per set, its lines from most to least recently used; UINTPTR_MAX is an empty way. */
    uintptr_t *tag = xmalloc(sets * ways * sizeof(*tag));
    memset(tag, 0xff, sets * ways * sizeof(*tag));
    uint64_t misses = 0;
    for (int lap = 0; lap < 2; lap++)
        for (uint64_t i = 0; i < n; i++) {
            uintptr_t t = (uintptr_t)addrs[i] / line;
            uintptr_t *set = tag + (t % sets) * ways;
            uint64_t w = 0;
            while (w < ways && set[w] != t)
                w++;
            if (w == ways) {
                misses += lap;
                w = ways - 1;
            }
            memmove(set + 1, set, w * sizeof(*set));
            set[0] = t;
        }
    free(tag);
    return misses;
}
