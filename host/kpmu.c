#include "host/kpmu.h"
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/utsname.h>

bool host_read_line(const char *path, char *out, size_t n)
{
    FILE *f = fopen(path, "r");
    char line[256];
    bool got = f && fgets(line, sizeof(line), f);
    if (f)
        fclose(f);
    if (got)
        snprintf(out, n, "%.*s", (int)strcspn(line, "\n"), line);
    return got;
}

void kernel_flavour(const char *release, char *out, size_t n)
{
    const char *p = strchr(release, '-');
    /* Components that start with a digit are the ABI number ("47"); the rest is the flavour. */
    while (p && isdigit((unsigned char)p[1]))
        p = strchr(p + 1, '-');
    snprintf(out, n, "%s", p ? p + 1 : "");
}

/* An integer sysctl, or null when the file is absent. */
static void sysctl_int(struct json *j, const char *key, const char *path)
{
    char v[32] = "", *end = v;
    long x = host_read_line(path, v, sizeof(v)) ? strtol(v, &end, 10) : 0;
    if (end != v && *end == '\0')
        json_int(j, key, x);
    else
        json_string(j, key, NULL);
}

static int name_order(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of dir/sub as "name": "first line", sorted by name (readdir's order is the
 * filesystem's); an empty object when the folder is absent (caps/ before Linux 5.x). */
static void sysfs_folder(struct json *j, const char *dir, const char *sub)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, sub);
    json_object_begin(j, sub);
    DIR *d = opendir(path);
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.') {
            char **grown = realloc(names, sizeof(*names) * (n + 1));
            char *name = strdup(de->d_name);
            if (!grown || !name) {
                free(name);
                names = grown ? grown : names;
                break;
            }
            names = grown;
            names[n++] = name;
        }
    if (d)
        closedir(d);
    if (n)
        qsort(names, n, sizeof(*names), name_order);
    for (size_t i = 0; i < n; i++) {
        char file[1024], v[256] = "";
        snprintf(file, sizeof(file), "%s/%s", path, names[i]);
        json_string(j, names[i], host_read_line(file, v, sizeof(v)) ? v : NULL);
        free(names[i]);
    }
    free(names);
    json_object_end(j);
}

/* The counters the driver announced at boot, from the kernel log (arm_pmu's "hw perfevents:
 * enabled with armv8_pmuv3 PMU driver, 7 counters available"): the count and the line, or -1
 * and why into line. */
static int announced_counters(const char *pmu, char *line, size_t n)
{
    int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
    char *buf = size > 0 ? malloc((size_t)size + 1) : NULL;
    int got = buf ? klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size) : -1;
    if (got < 0) {
        snprintf(line, n, "the Linux kernel log is not readable here (dmesg_restrict, or not root)");
        free(buf);
        return -1;
    }
    buf[got] = '\0';
    int counters = -1;
    char want[96];
    snprintf(want, sizeof(want), "enabled with %s PMU driver, ", pmu);
    snprintf(line, n, "the Linux kernel log holds no line 'enabled with %s PMU driver, N counters'", pmu);
    for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
        char *at = strstr(l, want);
        if (at && isdigit((unsigned char)at[strlen(want)])) {
            counters = atoi(at + strlen(want));
            char *start = strstr(l, "hw perfevents:");
            snprintf(line, n, "%s", start ? start : at);
        }
    }
    free(buf);
    return counters;
}

void kernel_facts_json(struct json *j, const char *pmu_sysfs)
{
    struct utsname u;
    uname(&u);
    char flavour[64], cmdline[1024] = "";
    kernel_flavour(u.release, flavour, sizeof(flavour));
    json_object_begin(j, "linux_kernel");
    json_string(j, "release", u.release);
    json_string(j, "version", u.version);
    json_string(j, "machine", u.machine);
    json_string(j, "flavour", flavour[0] ? flavour : NULL);
    const char *pkg = getenv("PMUCAL_KERNEL_PACKAGE");
    json_string(j, "package", pkg && *pkg ? pkg : NULL);
    FILE *f = fopen("/proc/cmdline", "r");
    if (f && fgets(cmdline, sizeof(cmdline), f))
        cmdline[strcspn(cmdline, "\n")] = '\0';
    if (f)
        fclose(f);
    json_string(j, "cmdline", cmdline);
    sysctl_int(j, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
    sysctl_int(j, "perf_user_access", "/proc/sys/kernel/perf_user_access");
    json_object_begin(j, "pmu");
    if (pmu_sysfs && strcmp(pmu_sysfs, "none")) {
        char dir[256], path[320], v[256];
        snprintf(dir, sizeof(dir), "/sys/bus/event_source/devices/%s", pmu_sysfs);
        json_string(j, "name", pmu_sysfs);
        snprintf(path, sizeof(path), "%s/type", dir);
        json_string(j, "type", host_read_line(path, v, sizeof(v)) ? v : NULL);
        snprintf(path, sizeof(path), "%s/cpus", dir);
        json_string(j, "cpus", host_read_line(path, v, sizeof(v)) ? v : NULL);
        char line[256];
        int counters = announced_counters(pmu_sysfs, line, sizeof(line));
        if (counters >= 0)
            json_int(j, "counters", counters);
        else
            json_string(j, "counters", NULL);
        json_string(j, "counters_from", line);
        sysfs_folder(j, dir, "events");
        sysfs_folder(j, dir, "format");
        sysfs_folder(j, dir, "caps");
    } else {
        json_string(j, "name", NULL);
        json_string(j, "why", "the Linux kernel registered no core PMU in /sys/bus/event_source/devices (no driver, "
                              "or the CPU offers none)");
    }
    json_object_end(j);
    json_object_end(j);
}
