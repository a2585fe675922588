/* Buffers for kernels: 4 KiB pages, or 2 MiB pages through hugetlbfs or transparent huge pages,
 * with the page size that was really obtained checked, not assumed. */
#ifndef PMUCAL_MEM_H
#define PMUCAL_MEM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum page_kind { PAGE_4K, PAGE_2M_HUGETLB, PAGE_2M_THP };

struct buffer {
    char *base;
    size_t size;          /* rounded up to the page size */
    enum page_kind kind;
};

/* page: "4k", "2m" or "auto" (2m where it works, else 4k). The buffer is touched (zeroed) so
 * the page size can be verified. -1 with a message naming the parameter and the fix. */
int buffer_alloc(struct buffer *b, uint64_t size, const char *page, const char *who);
/* Mapped but never touched: every page's first touch is a fault (for first-touch tests). */
int buffer_alloc_untouched(struct buffer *b, uint64_t size, bool huge, const char *who);
/* Drop the pages and map fresh ones at the same address, untouched. */
int buffer_refresh(struct buffer *b);
void buffer_free(struct buffer *b);
size_t page_bytes(enum page_kind k);
const char *page_kind_name(enum page_kind k);
/* Fraction of [p, p+size) backed by transparent huge pages, from /proc/self/smaps. */
double thp_fraction(const void *p, size_t size);
/* MemAvailable from /proc/meminfo, bytes (0 if unknown). */
uint64_t mem_available(void);

#endif
