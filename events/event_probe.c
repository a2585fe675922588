/* Each event asked of the Linux kernel (events/event_probe.h). */
#include "events/event_probe.h"
#include "base/util.h"
#include "events/uncore.h"
#include "host/kpmu.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* "config:0-47" or "config:5" into f; false for any other form (config1:, several ranges), which
 * pmucal does not place values into. */
static bool parse_field(const char *text, struct pmu_field *f)
{
    int lo, hi, end = 0;
    if (sscanf(text, "config:%d-%d%n", &lo, &hi, &end) == 2 && !text[end] && lo >= 0 && lo <= hi && hi < 64) {
        f->lo = lo, f->hi = hi;
        return true;
    }
    end = 0;
    if (sscanf(text, "config:%d%n", &lo, &end) == 1 && !text[end] && lo >= 0 && lo < 64) {
        f->lo = f->hi = lo;
        return true;
    }
    return false;
}

void cpu_pmu_read(struct cpu_pmu *p)
{
    memset(p, 0, sizeof(*p));
    p->type = PERF_TYPE_RAW;
    p->event = (struct pmu_field){0, 47};
    p->firmware = (struct pmu_field){62, 63};
    snprintf(p->dir, sizeof(p->dir), "%.480s/bus/event_source/devices/cpu", pmu_sysfs_root());
    struct stat st;
    if (stat(p->dir, &st) || !S_ISDIR(st.st_mode)) {
        snprintf(p->why, sizeof(p->why), "no core PMU 'cpu' in sysfs (%s): type %d and the riscv tables' layout "
                 "(event config:0-47, firmware config:62-63) assumed", p->dir, PERF_TYPE_RAW);
        return;
    }
    p->found = true;
    char path[600], v[128], type[32] = "", ev[128] = "", fw[128] = "";
    snprintf(path, sizeof(path), "%s/type", p->dir);
    char *end = NULL;
    unsigned long t = host_read_line(path, type, sizeof(type)) ? strtoul(type, &end, 10) : 0;
    if (end && end != type && !*end && t <= UINT32_MAX)
        p->type = (uint32_t)t;
    snprintf(path, sizeof(path), "%s/format/event", p->dir);
    if (!host_read_line(path, ev, sizeof(ev)) || !parse_field(ev, &p->event))
        p->event.lo = p->event.hi = -1;
    snprintf(path, sizeof(path), "%s/format/firmware", p->dir);
    if (!host_read_line(path, fw, sizeof(fw)) || !parse_field(fw, &p->firmware))
        p->firmware.lo = p->firmware.hi = -1;
    snprintf(v, sizeof(v), "%s", type[0] ? type : "unreadable");
    snprintf(p->why, sizeof(p->why), "%s: type %s%s, format event %s, firmware %s", p->dir, v,
             type[0] && end && !*end ? "" : " (PERF_TYPE_RAW assumed)", ev[0] ? ev : "none",
             fw[0] ? fw : "none");
}

static uint64_t field_max(const struct pmu_field *f)
{
    int w = f->hi - f->lo + 1;
    return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
}

bool cpu_pmu_config(const struct cpu_pmu *p, const struct vendor_event *v, uint64_t *config, char *why, size_t n)
{
    uint64_t top = v->config >> VENDOR_RISCV_FIRMWARE_SHIFT, code = v->config & ~(3ull << VENDOR_RISCV_FIRMWARE_SHIFT);
    if (p->event.lo < 0) {
        snprintf(why, n, "the cpu PMU states no event field (%s/format/event)", p->dir);
        return false;
    }
    if (code > field_max(&p->event)) {
        snprintf(why, n, "0x%llx is wider than the cpu PMU's event field (config:%d-%d)", (unsigned long long)code,
                 p->event.lo, p->event.hi);
        return false;
    }
    *config = code << p->event.lo;
    if (!top)
        return true;
    if (p->firmware.lo < 0 || top > field_max(&p->firmware)) {
        snprintf(why, n, "a firmware event, and the cpu PMU states no two-bit firmware field (%s/format/firmware): "
                 "this kernel's driver takes no SBI firmware events", p->dir);
        return false;
    }
    *config |= top << p->firmware.lo;
    return true;
}

static int open_attr(const struct event_spec *spec, bool filter)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = spec->type;
    a.config = spec->config;
    a.config1 = spec->config1;
    a.disabled = 1;
    if (filter) {
        a.exclude_kernel = !spec->count_kernel;
        a.exclude_user = spec->exclude_user;
        a.exclude_hv = 1;
    }
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

int event_probe_open(const struct event_spec *spec, bool *unfiltered)
{
    *unfiltered = false;
    int err = open_attr(spec, true);
    if (err == EINVAL && !open_attr(spec, false))
        *unfiltered = true;
    return err;
}

const char *event_probe_verdict(int err, bool unfiltered)
{
    if (!err)
        return "opens";
    if (unfiltered)
        return "opens-unfiltered";
    const char *name = strerrorname_np(err);
    return name ? name : "error";
}
