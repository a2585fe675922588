/* Warm-cache misses of cyclic walks under a set-associative LRU cache, as callgrind simulates
 * one (virtual addresses, set = line number modulo the set count). Models state d1.miss.warm and
 * ll.miss.warm with these, so a ring that fits a cache by size but not by sets (a 48K 12-way L1D,
 * a 1M 8-way last level, page-strided elements) is still exact. */
#ifndef PMUCAL_LRU_H
#define PMUCAL_LRU_H
#include "host/topo.h"
#include <stdint.h>

/* Walks that visit each of their lines once per lap: in a set holding more of the walk's lines
 * than it has ways, every one of them misses every lap (the others in between evict it); in the
 * others none does. Add each distinct line once, in any order. */
struct lru_count {
    uint64_t sets, ways, line;
    uint32_t *lines_in_set;
};
void lru_count_init(struct lru_count *lc, const struct cache_level *c);
void lru_count_add(struct lru_count *lc, uintptr_t addr);
/* n consecutive lines from addr's (a contiguous array read line by line). */
void lru_count_add_lines(struct lru_count *lc, uintptr_t addr, uint64_t n);
/* The lines that miss every lap; frees the counters. */
uint64_t lru_count_misses(struct lru_count *lc);

/* Any periodic walk (lines visited several times a lap, in any order): misses of the second of
 * two simulated laps. After a lap a set holds the last lines that lap put in it, whatever came
 * before, so the second lap's misses are every later lap's. */
uint64_t lru_lap_misses(void *const *addrs, uint64_t n, const struct cache_level *c);

#endif
