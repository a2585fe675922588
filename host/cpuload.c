#include "host/cpuload.h"
#include "host/clock.h"
#include "host/topo.h"
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

/* One /proc/stat line per CPU: user nice system idle iowait irq softirq steal. */
static int read_all(struct cpu_ticks *t, int max)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[512];
    int n = 0;
    while (f && fgets(line, sizeof(line), f)) {
        int cpu;
        long long v[8] = {0};
        if (sscanf(line, "cpu%d %lld %lld %lld %lld %lld %lld %lld %lld", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7]) >= 6 && cpu >= 0 && cpu < max) {
            t[cpu].idle = v[3] + v[4];
            t[cpu].busy = v[0] + v[1] + v[2] + v[5] + v[6];
            t[cpu].steal = v[7];
            n = cpu + 1 > n ? cpu + 1 : n;
        }
    }
    if (f)
        fclose(f);
    return n;
}

int cpuload_read(int cpu, struct cpu_ticks *t)
{
    enum { MAXC = 1024 };
    static struct cpu_ticks all[MAXC];
    if (cpu < 0 || cpu >= MAXC || read_all(all, MAXC) <= cpu)
        return -1;
    *t = all[cpu];
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    t->own_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
                     ru.ru_stime.tv_usec * 1e-6;
    t->wall_seconds = clock_now_seconds();
    return 0;
}

static double fraction(long long part, const struct cpu_ticks *a, const struct cpu_ticks *b)
{
    long long total = (b->busy - a->busy) + (b->idle - a->idle) + (b->steal - a->steal);
    return total > 0 ? (double)part / (double)total : NAN;
}

static int chosen = -1;

int cpuload_choose(int asked, double *busy)
{
    enum { MAXC = 1024 };
    static struct cpu_ticks a[MAXC], b[MAXC];
    *busy = NAN;
    if (asked >= 0)
        return chosen = asked;
    int cpus[MAXC], n = topo_cpus(cpus, MAXC);
    if (n < 1)
        return 0;
    read_all(a, MAXC);
    struct timespec ts = {0, 150 * 1000 * 1000};
    nanosleep(&ts, NULL);
    if (read_all(b, MAXC) <= cpus[n - 1])
        return cpus[0];
    int best = cpus[0];
    for (int i = 1; i < n; i++)
        if (b[cpus[i]].idle - a[cpus[i]].idle > b[best].idle - a[best].idle)
            best = cpus[i];
    *busy = fraction(b[best].busy - a[best].busy + b[best].steal - a[best].steal, &a[best], &b[best]);
    return chosen = best;
}

int cpuload_chosen(void)
{
    double busy;
    return chosen >= 0 ? chosen : cpuload_choose(-1, &busy);
}

void cpuload_json(struct json *j, int cpu, bool asked, double busy_before)
{
    char mask[256];
    topo_cpu_list(mask, sizeof(mask));
    json_int(j, "measure_cpu", cpu);   /* a resumption measures on it too; "cpu" is the host's */
    json_object_begin(j, "measure_cpu_choice");
    json_string(j, "chosen", asked ? "--cpu" : "least loaded of the affinity mask over 150 ms");
    json_string(j, "affinity_mask", mask);
    json_number(j, "busy_before", busy_before);
    json_object_end(j);
}

void cpuload_json_during(struct json *j, int cpu, const struct cpu_ticks *start)
{
    struct cpu_ticks end;
    if (cpuload_read(cpu, &end))
        return;
    /* The CPU's busy and stolen fractions over the run (ours included), and our own CPU time (all
     * threads) against the wall clock: busy well above own means others ran there too. */
    double wall = end.wall_seconds - start->wall_seconds;
    json_object_begin(j, "measure_cpu_load");
    json_number(j, "busy", fraction(end.busy - start->busy, start, &end));
    json_number(j, "steal", fraction(end.steal - start->steal, start, &end));
    json_number(j, "own", wall > 0 ? (end.own_seconds - start->own_seconds) / wall : NAN);
    json_object_end(j);
}
