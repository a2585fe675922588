#include "sources/sampling.h"
#include "base/util.h"
#include "core/team.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static int open_attr(const struct event_spec *ev, uint64_t period, int precise, bool lost)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = ev->type;
    a.config = ev->config;
    a.config1 = ev->config1;
    a.config2 = ev->config2;
    a.sample_period = period;
    a.sample_type = SAMPLE_TYPE;
    a.precise_ip = (unsigned)precise & 3;
    a.exclude_kernel = !ev->count_kernel;
    a.exclude_user = ev->exclude_user;
    a.exclude_hv = 1;
    a.disabled = 1;
    a.wakeup_events = 1u << 30;   /* drained after each run: never woken */
    a.read_format = lost ? PERF_FORMAT_LOST : 0;
    pid_t task;   /* the calling thread, or the task it counts (team_delegate) */
    team_led_tids(&task, 1);
    int fd = (int)syscall(SYS_perf_event_open, &a, task, -1, -1, 0);
    return fd < 0 ? -errno : fd;
}

unsigned sampler_levels(const struct event_spec *ev, uint64_t period, int *err0)
{
    unsigned levels = 0;
    *err0 = 0;
    for (int p = 3; p >= 0; p--) {
        int fd = open_attr(ev, period, p, false);
        if (fd >= 0) {
            levels |= 1u << p;
            close(fd);
        } else if (!p && !levels)
            *err0 = -fd;
    }
    return levels;
}

int sampler_open(struct sampler *s, const struct event_spec *ev, uint64_t period, int precise, unsigned data_pages)
{
    memset(s, 0, sizeof(*s));
    /* A LOST record is written only once there is room again: losses at the end of the last run
     * before a drain would go unsaid without the kernel's own count (older kernels lack it). */
    s->fd = open_attr(ev, period, precise, true);
    s->has_lost = s->fd >= 0;
    if (s->fd == -EINVAL)
        s->fd = open_attr(ev, period, precise, false);
    if (s->fd < 0)
        return s->fd;
    long page = sysconf(_SC_PAGESIZE);
    s->ring_bytes = (size_t)page * (1 + data_pages);
    s->ring = mmap(NULL, s->ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (s->ring == MAP_FAILED) {
        int e = errno;
        close(s->fd);
        s->fd = -1;
        return -e;
    }
    s->data_bytes = (size_t)page * data_pages;
    s->precise = precise;
    s->period = period;
    return 0;
}

void sampler_enable(struct sampler *s)
{
    ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
}

void sampler_disable(struct sampler *s)
{
    ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
}

uint64_t sampler_count(struct sampler *s)
{
    uint64_t v[2] = {0, 0};
    size_t want = s->has_lost ? 2 * sizeof(v[0]) : sizeof(v[0]);
    if (read(s->fd, v, want) != (ssize_t)want)
        return 0;
    if (s->has_lost)
        s->lost_read = v[1];
    return v[0];
}

void stream_push(struct sample_stream *st, const struct sample *s)
{
    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 1024;
        st->s = xrealloc(st->s, st->cap * sizeof(*st->s));
    }
    st->s[st->n++] = *s;
}

void stream_free(struct sample_stream *st)
{
    free(st->s);
    memset(st, 0, sizeof(*st));
}

/* len bytes from position pos of the ring, across its end when they wrap. */
static void ring_copy(void *to, const unsigned char *data, uint64_t size, uint64_t pos, size_t len)
{
    uint64_t off = pos & (size - 1);
    size_t first = len < size - off ? len : (size_t)(size - off);
    memcpy(to, data + off, first);
    memcpy((unsigned char *)to + first, data, len - first);
}

static uint64_t field(const unsigned char *rec, size_t at)
{
    uint64_t v;
    memcpy(&v, rec + at, sizeof(v));
    return v;
}

uint64_t ring_parse(const unsigned char *data, uint64_t size, uint64_t tail, uint64_t head, struct sample_stream *st)
{
    unsigned char rec[1u << 16];
    while (head - tail >= sizeof(struct perf_event_header)) {
        struct perf_event_header h;
        ring_copy(&h, data, size, tail, sizeof(h));
        if (h.size < sizeof(h) || h.size > head - tail) {   /* cannot be: the rest is unreadable */
            st->bad++;
            return head;
        }
        ring_copy(rec, data, size, tail, h.size);
        switch (h.type) {
        case PERF_RECORD_SAMPLE:
            if (h.size < sizeof(h) + 32) {
                st->bad++;
                break;
            }
            uint64_t tid = field(rec, 16);
            stream_push(st, &(struct sample){.ip = field(rec, 8), .pid = (uint32_t)tid, .tid = (uint32_t)(tid >> 32),
                                             .time = field(rec, 24), .period = field(rec, 32)});
            break;
        case PERF_RECORD_LOST:
            st->lost_records++;
            st->lost += h.size >= sizeof(h) + 16 ? field(rec, 16) : 0;
            break;
        case PERF_RECORD_THROTTLE:
            st->throttle++;
            break;
        case PERF_RECORD_UNTHROTTLE:
            st->unthrottle++;
            break;
        default:
            st->other++;
        }
        tail += h.size;
    }
    return tail;
}

void sampler_drain(struct sampler *s, struct sample_stream *st)
{
    struct perf_event_mmap_page *meta = s->ring;
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = meta->data_tail;
    size_t offset = meta->data_offset ? (size_t)meta->data_offset : s->ring_bytes - s->data_bytes;
    uint64_t size = meta->data_size ? meta->data_size : s->data_bytes;
    tail = ring_parse((const unsigned char *)s->ring + offset, size, tail, head, st);
    __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

void sampler_close(struct sampler *s)
{
    if (s->ring && s->ring != MAP_FAILED)
        munmap(s->ring, s->ring_bytes);
    if (s->fd >= 0)
        close(s->fd);
    s->ring = NULL;
    s->fd = -1;
}

int stream_perturb_env(struct stream_perturb *p)
{
    memset(p, 0, sizeof(*p));
    const char *v = getenv("PMUCAL_SAMPLE_PERTURB");
    if (!v || !*v)
        return 0;
    p->text = v;
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", v);
    for (char *save = NULL, *op = strtok_r(buf, ",", &save); op; op = strtok_r(NULL, ",", &save)) {
        unsigned *to = !strncmp(op, "drop=", 5) ? &p->drop : !strncmp(op, "move=", 5) ? &p->move : NULL;
        char *end;
        unsigned long k = to ? strtoul(op + 5, &end, 10) : 0;
        if (!to || *end || k < 1 || k > 1000000) {
            pm_error("PMUCAL_SAMPLE_PERTURB='%s': '%s' is not drop=K or move=K with K in 1..1000000 (every Kth "
                     "sample dropped, or moved to the next instruction); unset it to sample unaltered", v, op);
            return -1;
        }
        *to = (unsigned)k;
    }
    return 0;
}

void stream_perturb_apply(const struct stream_perturb *p, struct sample_stream *st,
                          uint64_t (*next)(uint64_t ip, const void *arg), const void *arg)
{
    size_t kept = 0;
    for (size_t i = 0; i < st->n; i++) {
        if (p->drop && (i + 1) % p->drop == 0)
            continue;
        struct sample s = st->s[i];
        if (p->move && (i + 1) % p->move == 0)
            s.ip = next(s.ip, arg);
        st->s[kept++] = s;
    }
    st->n = kept;
}
