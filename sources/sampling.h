/* Event-based sampling with perf_event_open: one event with a sample_period, samples of IP, TID,
 * TIME and PERIOD into an mmap ring that is drained after each run (the event is off then), with
 * PERF_RECORD_LOST and PERF_RECORD_THROTTLE counted. The raw stream stays in memory for one
 * measurement; what is kept is its address histogram (pmucal sample). */
#ifndef PMUCAL_SAMPLING_H
#define PMUCAL_SAMPLING_H
#include "core/source.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sample {
    uint64_t ip, time, period;
    uint32_t pid, tid;
};

struct sample_stream {
    struct sample *s;
    size_t n, cap;
    uint64_t lost;            /* samples the kernel could not write (PERF_RECORD_LOST's sum) */
    uint64_t lost_records;    /* PERF_RECORD_LOST records */
    uint64_t throttle, unthrottle;
    uint64_t other;           /* records of other types (counted, never parsed) */
    uint64_t bad;             /* records cut short or of an impossible size: the ring was misread */
};

struct sampler {
    int fd;
    void *ring;               /* metadata page, then the data pages */
    size_t ring_bytes, data_bytes;
    int precise;              /* precise_ip it opened with */
    uint64_t period;
    bool has_lost;            /* the kernel reports lost samples with the count (PERF_FORMAT_LOST, 6.0) */
    uint64_t lost_read;       /* its count of lost samples, as of the last sampler_count */
};

/* precise_ip 3 down to 0: the levels the kernel takes for this event (bit L set when level L
 * opened), and the errno of level 0 when none did (0 otherwise). */
unsigned sampler_levels(const struct event_spec *ev, uint64_t period, int *err0);
/* Opens ev on the calling thread, disabled, sampling every period events at precise level
 * precise, with a ring of data_pages pages (a power of two). 0, or -errno. */
int sampler_open(struct sampler *s, const struct event_spec *ev, uint64_t period, int precise, unsigned data_pages);
void sampler_enable(struct sampler *s);
void sampler_disable(struct sampler *s);
/* The event's count since it opened (counting and sampling at once); lost_read updated. */
uint64_t sampler_count(struct sampler *s);
/* Every record the ring holds into st; the ring is then empty. */
void sampler_drain(struct sampler *s, struct sample_stream *st);
void sampler_close(struct sampler *s);

/* The ring's records between tail and head (byte positions that only grow; the data area is size
 * bytes, a power of two, so a record may wrap around its end) into st; returns the new tail.
 * Apart from the mmap so that a unit test can hand it a ring that wraps. */
uint64_t ring_parse(const unsigned char *data, uint64_t size, uint64_t tail, uint64_t head, struct sample_stream *st);

void stream_push(struct sample_stream *st, const struct sample *s);
void stream_free(struct sample_stream *st);

/* For the test suite: the stream altered on purpose, to prove the verdicts catch it.
 * PMUCAL_SAMPLE_PERTURB="drop=K,move=K": every Kth sample dropped, every Kth sample's IP moved to
 * the next instruction (a skid of one). Parsed once; -1 with a message naming the variable. */
struct stream_perturb {
    unsigned drop, move;
    const char *text;         /* as given, NULL when unset */
};
int stream_perturb_env(struct stream_perturb *p);
/* next(ip, arg): the address of the instruction after ip (ip itself when unknown). */
void stream_perturb_apply(const struct stream_perturb *p, struct sample_stream *st,
                          uint64_t (*next)(uint64_t ip, const void *arg), const void *arg);
#endif
