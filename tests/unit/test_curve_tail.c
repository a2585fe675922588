/* The geometry sweep's stopping rule (penalties/curve.c curve_tail_at_memory): it stops once its
 * last two octaves answer at memory latency and the last one is flat (four under 60 ns). Tails in ns a load, 4 points
 * an octave: from the curves of tests/hosts/ where they name a host, else made up to sit on an edge. */
#include "penalties/curve.h"
#include "tap.h"
#include <string.h>

#define MAX 20

int main(void)
{
    static const struct {
        int line;
        const char *what;
        double ns[MAX];     /* the tail, 0 ends it */
        double again[MAX];  /* the second half where it has the point (0: none) */
        bool stop;
    } rows[] = {
        {__LINE__, "intel-a7-vm under load, 12M-32M: every point above 40 ns, but rising 95 -> 126 (a VM's L3 "
         "knee): not memory yet", {44.7, 46.3, 55.6, 67.1, 83.1, 95.1, 126.2, 126.2}, {0}, false},
        {__LINE__, "intel-a7-vm quiet, 10M-32M: 44-120 then 127-149: the L3's end, not memory's plateau",
         {44.0, 46.6, 89.8, 120.2, 126.8, 132.3, 146.1, 149.3}, {0}, false},
        {__LINE__, "emr-vm 16M-56M (the recorded curve's end): 40-51 then 67-119 ns, rising: the old rule stopped "
         "here", {40.391, 48.034, 43.375, 51.392, 66.551, 96.989, 108.772, 118.88}, {0}, false},
        {__LINE__, "a tail flat within a quarter (made up: 127-149 then 150-158 ns): memory",
         {126.8, 132.3, 146.1, 149.3, 150.2, 152.9, 155.0, 158.1}, {0}, true},
        {__LINE__, "a slower last octave, by exactly a quarter (made up): still memory",
         {100, 101, 102, 103, 125, 126, 127, 128}, {0}, true},
        {__LINE__, "by more than a quarter (made up): not yet", {100, 101, 102, 103, 126, 127, 128, 129}, {0}, false},
        {__LINE__, "a flat tail with one point under 40 ns (an L3 hit): not memory", {38.0, 90, 91, 92, 93, 94, 95, 96},
         {0}, false},
        {__LINE__, "a point the second half found under 40 ns counts as such", {90, 90, 91, 92, 93, 94, 95, 96},
         {0, 30.0, 0, 0, 0, 0, 0, 0}, false},
        {__LINE__, "the second half's faster point is the one kept: a last octave that was slow in one half is "
         "flat", {100, 101, 102, 103, 200, 210, 220, 230}, {0, 0, 0, 0, 110, 111, 112, 113}, true},
        {__LINE__, "fewer than two octaves of points", {100, 101, 102, 103, 104, 105, 106}, {0}, false},
        {__LINE__, "emr-vm 2026-11-29, 3M-10M (kept of both halves): the L3 at 41-45 ns, then 50, 55, 65, 130 "
         "rising out of it: the old rule's fastest-point test stopped here and the L3 became memory",
         {40.728, 41.934, 42.510, 45.229, 49.596, 55.159, 64.915, 130.348}, {0}, false},
        {__LINE__, "a slow L3 flat at 42 ns for two octaves (made up): could be fast DRAM, not yet",
         {42, 42, 43, 43, 43, 44, 44, 45}, {0}, false},
        {__LINE__, "flat at 42-50 ns for four octaves (made up: fast DRAM): memory",
         {42, 42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 50}, {0}, true},
        {__LINE__, "one slow point in a flat last octave does not move its median: memory",
         {100, 101, 102, 103, 104, 400, 105, 106}, {0}, true},
    };
    for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        struct latency_point p[MAX], again[MAX];
        memset(again, 0, sizeof(again));
        int n = 0;
        for (; n < MAX && rows[r].ns[n] > 0; n++) {
            p[n] = (struct latency_point){.bytes = 4096u << n, .cycles = rows[r].ns[n] * 3, .ns = rows[r].ns[n]};
            if (rows[r].again[n] > 0)
                again[n] = (struct latency_point){.bytes = p[n].bytes, .cycles = rows[r].again[n] * 3,
                                                  .ns = rows[r].again[n]};
        }
        bool got = curve_tail_at_memory(p, again, n, 4);
        CHECK(got == rows[r].stop, rows[r].line, "%s: %s (want %s)", rows[r].what, got ? "stops" : "goes on",
              rows[r].stop ? "stops" : "goes on");
    }
    return done_testing();
}
