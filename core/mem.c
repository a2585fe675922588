#include "base/stop.h"
#include "base/util.h"
#include "core/measure.h"
#include "core/mem.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_2M (2u << 20)

size_t page_bytes(enum page_kind k)
{
    return k == PAGE_4K ? 4096 : HUGE_2M;
}

const char *page_kind_name(enum page_kind k)
{
    return k == PAGE_4K ? "4k" : k == PAGE_2M_HUGETLB ? "2m-hugetlb" : "2m-thp";
}

uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

double thp_fraction(const void *p, size_t size)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    unsigned long long lo, hi, kb, huge = 0;
    bool inside = false;
    if (!f)
        return 0;
    uintptr_t a = (uintptr_t)p;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%llx-%llx ", &lo, &hi) == 2)
            inside = lo < a + size && hi > a;
        else if (inside && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
            huge += kb;
    }
    fclose(f);
    return size ? (double)huge * 1024 / (double)size : 0;
}

static int check_size(uint64_t size, const char *who)
{
    uint64_t avail = mem_available();
    if (size == 0) {
        pm_error("%s: a buffer of 0 bytes cannot be measured; give a size of at least one cache line", who);
        return -1;
    }
    if (avail && size > avail - avail / 8) {
        pm_error("%s: %s bytes is more than this machine's available memory (%s); choose a smaller size",
                 who, fmt_size(size), fmt_size(avail));
        return -1;
    }
    return 0;
}

static char *map_aligned(size_t size, size_t align)
{
    char *p = mmap(NULL, size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *a = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    if (a + size < p + size + align)
        munmap(a + size, (size_t)(p + size + align - (a + size)));
    return a;
}

static int map_kind(struct buffer *b, enum page_kind kind)
{
    b->kind = kind;
    if (kind == PAGE_2M_HUGETLB) {
        b->base = mmap(NULL, b->size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << MAP_HUGE_SHIFT), -1, 0);
        if (b->base == MAP_FAILED)
            b->base = NULL;
        return b->base ? 0 : -1;
    }
    b->base = map_aligned(b->size, page_bytes(kind));
    if (!b->base)
        return -1;
    if (madvise(b->base, b->size, kind == PAGE_2M_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)) {
        /* A kernel built without transparent huge pages (Debian's PREEMPT_RT flavours) refuses
         * MADV_NOHUGEPAGE with EINVAL: its pages are 4k whatever is advised. */
        if (kind == PAGE_4K && errno == EINVAL)
            return 0;
        munmap(b->base, b->size);
        b->base = NULL;
        return -1;
    }
    return 0;
}

/* The first touch of every page: for a DRAM-sized buffer, most of a second of page clearing.
 * A stop ends it early: the case is abandoned anyway, and the stop must come within a second. */
static void touch_all(struct buffer *b)
{
    const uint64_t part = 32u << 20;
    for (uint64_t off = 0; off < b->size && !stop_requested(); off += part)
        memset((char *)b->base + off, 0, b->size - off < part ? b->size - off : part);
}

/* Huge pages that were asked for and not given are an error, never a silent 4k run. */
static int try_2m(struct buffer *b, uint64_t size)
{
    b->size = (size + HUGE_2M - 1) & ~(uint64_t)(HUGE_2M - 1);
    if (map_kind(b, PAGE_2M_HUGETLB) == 0) {
        touch_all(b);
        return 0;
    }
    if (map_kind(b, PAGE_2M_THP) == 0) {
        touch_all(b);
        if (stop_requested() || thp_fraction(b->base, b->size) >= 0.99)
            return 0;   /* stopped: abandoned half-touched, never measured */
        munmap(b->base, b->size);
        b->base = NULL;
    }
    return -1;
}

int buffer_alloc(struct buffer *b, uint64_t size, const char *page, const char *who)
{
    memset(b, 0, sizeof(*b));
    if (check_size(size, who))
        return -1;
    if (strcmp(page, "4k")) {
        if (try_2m(b, size) == 0)
            return 0;
        if (!strcmp(page, "2m")) {
            pm_error("%s: page=2m: no 2 MiB pages could be had (vm.nr_hugepages is 0 and transparent huge "
                     "pages were not given; see /sys/kernel/mm/transparent_hugepage/enabled); use page=4k, "
                     "or 'sudo sysctl vm.nr_hugepages=%llu'", who,
                     (unsigned long long)((size + HUGE_2M - 1) / HUGE_2M));
            return -1;
        }
    }
    b->size = (size + 4095) & ~(uint64_t)4095;
    if (map_kind(b, PAGE_4K)) {
        pm_error("%s: cannot map %s bytes: %s", who, fmt_size(b->size), strerror(errno));
        return -1;
    }
    touch_all(b);
    return 0;
}

int buffer_alloc_untouched(struct buffer *b, uint64_t size, bool huge, const char *who)
{
    memset(b, 0, sizeof(*b));
    if (check_size(size, who))
        return -1;
    size_t pg = huge ? HUGE_2M : 4096;
    b->size = (size + pg - 1) & ~(uint64_t)(pg - 1);
    if (map_kind(b, huge ? PAGE_2M_THP : PAGE_4K)) {
        pm_error("%s: cannot map %s bytes: %s", who, fmt_size(b->size), strerror(errno));
        return -1;
    }
    return 0;
}

int buffer_refresh(struct buffer *b)
{
    /* MADV_DONTNEED drops the pages; the next touch faults a fresh zero page in. */
    return madvise(b->base, b->size, MADV_DONTNEED);
}

void buffer_free(struct buffer *b)
{
    if (b->base)
        munmap(b->base, b->size);
    memset(b, 0, sizeof(*b));
}
