#include "vendor.h"
#include "jread.h"
#include "util.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Fields are strings in both formats: "0xD1", "0x1a6,0x1a7", "0", "null"; numbers are accepted too. */
static uint64_t field_num(const struct jvalue *o, const char *key, bool *present)
{
    const struct jvalue *v = jget(o, key);
    if (present)
        *present = false;
    if (!v)
        return 0;
    if (v->type == J_NUMBER) {
        if (present)
            *present = true;
        return (uint64_t)v->num;
    }
    const char *s = jstr(v);
    if (!s || !*s || !strcasecmp(s, "null"))
        return 0;
    if (present)
        *present = true;
    return strtoull(s, NULL, 0);
}

static uint32_t counter_mask(const char *s, int *fixed)
{
    *fixed = -1;
    if (!s || !*s || !strcasecmp(s, "null"))
        return 0;
    if (!strncasecmp(s, "Fixed counter", 13)) {
        *fixed = atoi(s + 13);
        return 0;
    }
    uint32_t m = 0;
    for (const char *p = s; *p;) {
        char *end;
        long c = strtol(p, &end, 10);
        if (end == p)
            break;
        if (c >= 0 && c < 32)
            m |= 1u << c;
        p = end;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return m;
}

static void add(struct vendor_table *t, const struct jvalue *o, const char *file, enum vendor_format fmt)
{
    const char *name = jstr(jget(o, "EventName"));
    if (!name || jget(o, "MetricName") || jget(o, "Unit"))   /* metrics and uncore units are not core events */
        return;
    bool has_code;
    const char *code = jstr(jget(o, "EventCode"));
    uint64_t c1 = field_num(o, "EventCode", &has_code);
    if (!has_code)
        return;   /* perf's ArchStdEvent aliases carry no code of their own */
    struct vendor_event e = {0};
    e.name = xstrdup(name);
    e.file = xstrdup(file);
    e.format = fmt;
    e.event = e.event2 = (unsigned)c1;
    if (code && strchr(code, ','))
        e.event2 = (unsigned)strtoul(strchr(code, ',') + 1, NULL, 0);
    e.umask = (unsigned)field_num(o, "UMask", NULL);
    e.cmask = (unsigned)field_num(o, "CounterMask", NULL);
    e.inv = field_num(o, "Invert", NULL) != 0;
    e.edge = field_num(o, "EdgeDetect", NULL) != 0;
    e.any = field_num(o, "AnyThread", NULL) != 0;
    e.msr_index = field_num(o, "MSRIndex", NULL);
    e.msr_value = field_num(o, "MSRValue", NULL);
    e.offcore = field_num(o, "Offcore", NULL) != 0 || e.msr_index == 0x1a6;
    e.counters = counter_mask(jstr(jget(o, "Counter")), &e.fixed);
    e.taken_alone = field_num(o, "TakenAlone", NULL) != 0;
    const char *errata = jstr(jget(o, "Errata"));
    if (errata && *errata && strcasecmp(errata, "null") && strcasecmp(errata, "none"))
        e.errata = xstrdup(errata);
    e.deprecated = field_num(o, "Deprecated", NULL) != 0;
    if (t->n == t->cap)
        t->ev = xrealloc(t->ev, sizeof(*t->ev) * (size_t)(t->cap = t->cap ? t->cap * 2 : 256));
    t->ev[t->n++] = e;
}

static int load_file(struct vendor_table *t, const char *path)
{
    char err[512];
    struct jvalue *doc = jread_file(path, err, sizeof(err));
    if (!doc) {
        pm_error("--vendor-json: %s; give Intel perfmon or Linux perf pmu-events JSON", err);
        return -1;
    }
    const struct jvalue *list = doc;
    enum vendor_format fmt = VENDOR_LINUX_PMU_EVENTS;
    if (doc->type == J_OBJECT && jget(doc, "Events")) {
        list = jget(doc, "Events");
        fmt = VENDOR_INTEL_PERFMON;
    }
    if (list->type != J_ARRAY) {
        pm_error("--vendor-json %s: neither an array of events (Linux perf pmu-events) nor an object "
                 "with \"Events\" (Intel perfmon)", path);
        jread_free(doc);
        return -1;
    }
    /* Intel's older perfmon files are bare arrays too; their entries name a Counter field. */
    if (fmt == VENDOR_LINUX_PMU_EVENTS && list->n && jget(&list->items[0], "Counter"))
        fmt = VENDOR_INTEL_PERFMON;
    for (int i = 0; i < list->n; i++)
        if (list->items[i].type == J_OBJECT)
            add(t, &list->items[i], path, fmt);
    t->files++;
    jread_free(doc);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(struct vendor_table *t, const char *path, int depth)
{
    DIR *d = opendir(path);
    if (!d) {
        pm_error("--vendor-json %s: %s", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.') {
            names = xrealloc(names, sizeof(*names) * (size_t)(n + 1));
            names[n++] = xstrdup(de->d_name);
        }
    closedir(d);
    qsort(names, (size_t)n, sizeof(*names), cmp_str);   /* a stable order: results do not depend on readdir */
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *p = xasprintf("%s/%s", path, names[i]);
        struct stat st;
        size_t len = strlen(names[i]);
        if (!rc && !stat(p, &st)) {
            if (S_ISDIR(st.st_mode) && depth == 0 && !strcmp(names[i], "events"))
                rc = load_dir(t, p, depth + 1);
            else if (S_ISREG(st.st_mode) && len > 5 && !strcmp(names[i] + len - 5, ".json"))
                rc = load_file(t, p);
        }
        free(p);
        free(names[i]);
    }
    free(names);
    return rc;
}

int vendor_load(struct vendor_table *t, const char *path)
{
    struct stat st;
    if (stat(path, &st)) {
        pm_error("--vendor-json %s: %s; point it at a JSON table or a folder of them", path, strerror(errno));
        return -1;
    }
    int rc = S_ISDIR(st.st_mode) ? load_dir(t, path, 0) : load_file(t, path);
    if (!rc && !t->n) {
        pm_error("--vendor-json %s: no core events found in %d JSON file(s)", path, t->files);
        return -1;
    }
    return rc;
}

void vendor_free(struct vendor_table *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->ev[i].name);
        free(t->ev[i].file);
        free(t->ev[i].errata);
    }
    free(t->ev);
    memset(t, 0, sizeof(*t));
}

const struct vendor_event *vendor_match(const struct vendor_table *t, const struct event_spec *spec)
{
    struct x86_enc x;
    x86_decode(spec, &x);
    const struct vendor_event *best = NULL;
    for (int i = 0; i < t->n; i++) {
        const struct vendor_event *v = &t->ev[i];
        if ((v->event != x.event && v->event2 != x.event) || v->umask != x.umask || v->cmask != x.cmask ||
            v->inv != x.inv || v->edge != x.edge)
            continue;
        if (v->offcore && v->msr_value != x.msr)
            continue;
        /* Prefer a live entry, then one whose extra-MSR value is this encoding's (front-end events). */
        if (!best || (best->deprecated && !v->deprecated) ||
            (best->deprecated == v->deprecated && best->msr_value != x.msr && v->msr_value == x.msr))
            best = v;
    }
    return best;
}

const char *vendor_enc_text(const struct x86_enc *e, bool offcore, char *buf, size_t n)
{
    int k = snprintf(buf, n, "event 0x%02x umask 0x%02x cmask %u inv %d edge %d", e->event, e->umask, e->cmask,
                     e->inv, e->edge);
    if (e->any && k > 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, " any 1");
    if (offcore && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " msr 0x%llx", (unsigned long long)e->msr);
    return buf;
}
