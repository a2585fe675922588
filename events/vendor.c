#include "events/vendor.h"
#include "base/gzfile.h"
#include "base/jread.h"
#include "base/util.h"
#include "events/uncore.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* "0xD1" (hex) or "12" (decimal, never octal), nothing else around it. */
static bool parse_code(const char *s, uint64_t *out)
{
    while (*s == ' ')
        s++;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    if (!isxdigit((unsigned char)*digits))
        return false;
    char *end;
    errno = 0;
    *out = strtoull(digits, &end, hex ? 16 : 10);
    while (*end == ' ')
        end++;
    return !errno && !*end;
}

/* Fields are strings in both formats: "0xD1", "0x1a6,0x1a7", "0", "null"; numbers are accepted too.
 * A value that is not a whole number in 0..max (negative, fractional, trailing text, too big) is an
 * error naming the file, the event and the field: a table entry is never cast into range. */
static int field_num(const struct jvalue *o, const char *key, uint64_t max, uint64_t *out, bool *present,
                     const char *file, const char *name)
{
    const struct jvalue *v = jget(o, key);
    *out = 0;
    if (present)
        *present = false;
    if (!v || v->type == J_NULL)
        return 0;
    char text[64];
    const char *s = jstr(v);
    if (v->type == J_NUMBER) {
        snprintf(text, sizeof(text), "%.17g", v->num);
        s = text;
    } else if (!s) {
        pm_error("%s: event %s: %s is neither a string nor a number; fix the table entry", file, name, key);
        return -1;
    }
    if (!*s || !strcasecmp(s, "null"))
        return 0;
    char first[64];
    snprintf(first, sizeof(first), "%.*s", (int)strcspn(s, ","), s);   /* "0xB7,0xBB": the first code */
    if (!parse_code(first, out) || *out > max) {
        pm_error("%s: event %s: %s \"%s\" is not a whole number in 0..0x%llx; fix the table entry", file, name, key,
                 s, (unsigned long long)max);
        return -1;
    }
    if (present)
        *present = true;
    return 0;
}

/* The most fixed counters a PMU has had (Intel's architectural ones are 0..3, a few more on
 * newer cores): "Fixed counter N" beyond it is no counter. */
#define VENDOR_MAX_FIXED 15

/* The widest programmable counter index a "Counter" list may name (a 32-bit mask). */
#define VENDOR_MAX_COUNTER 31

/* "Counter" (docs/grammar.md, vendor tables): "", "null", "Fixed counter N" (N in
 * 0..VENDOR_MAX_FIXED), or decimal counter numbers 0..VENDOR_MAX_COUNTER separated by ',' (spaces
 * around them allowed), each at most once. Into the programmable counters' mask, or *fixed for a
 * fixed counter (-1: none). -1 with what is wrong in why; 0 when fine. */
static int counter_mask(const char *s, uint32_t *mask, int *fixed, char *why, size_t n)
{
    *fixed = -1;
    *mask = 0;
    if (!s || !*s || !strcasecmp(s, "null"))
        return 0;
    if (!strncasecmp(s, "Fixed counter", 13)) {
        uint64_t v;
        const char *d = s + 13 + strspn(s + 13, " ");
        if (!parse_u64(d, &v) || v > VENDOR_MAX_FIXED) {
            snprintf(why, n, "names no fixed counter (0..%d)", VENDOR_MAX_FIXED);
            return -1;
        }
        *fixed = (int)v;
        return 0;
    }
    for (const char *p = s;;) {
        p += strspn(p, " ");
        size_t len = strspn(p, "0123456789");
        uint64_t c;
        char num[24];
        snprintf(num, sizeof(num), "%.*s", (int)(len < 20 ? len : 20), p);
        if (!len || len > 2 || !parse_u64(num, &c) || c > VENDOR_MAX_COUNTER) {
            snprintf(why, n, "has '%.*s' where a counter number 0..%d is due (counters are listed as \"0,1,2,3\", "
                     "or \"Fixed counter N\")", (int)strcspn(p, ", "), p, VENDOR_MAX_COUNTER);
            return -1;
        }
        if (*mask & 1u << c) {
            snprintf(why, n, "lists counter %llu twice", (unsigned long long)c);
            return -1;
        }
        *mask |= 1u << c;
        p += len;
        p += strspn(p, " ");
        if (!*p)
            return 0;
        if (*p++ != ',' || !*(p + strspn(p, " "))) {
            snprintf(why, n, "is not a list of counter numbers separated by ',' (e.g. \"0,1,2,3\")");
            return -1;
        }
    }
}

/* The widest event select of each format: AMD's 12 bits (config 7:0 and 35:32), Intel's 8. */
static uint64_t max_event_code(enum vendor_format fmt)
{
    return fmt == VENDOR_INTEL_PERFMON ? 0xff : fmt == VENDOR_ARM_PMU_EVENTS ? 0xffff : 0xfff;
}

static void append(struct vendor_table *t, const struct vendor_event *e)
{
    if (e->unit) {
        if (t->nuncore == t->capuncore)
            t->uncore = xrealloc(t->uncore, sizeof(*t->uncore) * (size_t)(t->capuncore = t->capuncore ? t->capuncore * 2 : 64));
        t->uncore[t->nuncore++] = *e;
        return;
    }
    if (t->n == t->cap)
        t->ev = xrealloc(t->ev, sizeof(*t->ev) * (size_t)(t->cap = t->cap ? t->cap * 2 : 256));
    t->ev[t->n++] = *e;
}

/* An uncore unit's entry (perf's "Unit": "UMCPMC"): its code and unit mask (AMD's UMC calls it
 * RdWrMask) within its unit's fields. 0 also for a unit pmucal does not count (left out). */
static int add_uncore(struct vendor_table *t, const struct jvalue *o, const char *file, const char *name)
{
    const char *stem = uncore_unit_stem(jstr(jget(o, "Unit")));
    bool has_code;
    uint64_t code, umask, rdwr;
    if (!stem)
        return 0;
    if (field_num(o, "EventCode", uncore_max_event(stem), &code, &has_code, file, name) ||
        field_num(o, "UMask", uncore_max_umask(stem), &umask, NULL, file, name) ||
        field_num(o, "RdWrMask", uncore_max_umask(stem), &rdwr, NULL, file, name))
        return -1;
    if (!has_code)
        return 0;
    const char *desc = jstr(jget(o, "BriefDescription"));
    if (!desc)
        desc = jstr(jget(o, "PublicDescription"));
    struct vendor_event e = {.name = xstrdup(name), .file = xstrdup(file), .format = VENDOR_LINUX_PMU_EVENTS,
                             .event = (unsigned)code, .event2 = (unsigned)code, .umask = (unsigned)(umask | rdwr),
                             .fixed = -1, .desc = xstrdup(desc ? desc : ""), .unit = stem};
    append(t, &e);
    return 0;
}

/* An arm64 model's {"ArchStdEvent": NAME, "PublicDescription": ...}: the architecture's entry,
 * under its name, with the model's description where it gives one. */
static int add_arch_std(struct vendor_table *t, const struct jvalue *o, const char *file, const char *std)
{
    const struct vendor_event *s = vendor_find(t->arch_std, std);
    for (int i = 0; !s && i < t->arch_std->narch_metrics; i++)
        if (!strcmp(t->arch_std->arch_metrics[i], std))
            return 0;   /* a model's metrics.json taking the architecture's metric */
    if (!s) {
        pm_error("%s: ArchStdEvent %s is in none of %s; fix the table entry", file, std,
                 t->riscv ? VENDOR_RISCV_FIRMWARE_FILE : "common-and-microarch.json, recommended.json and sbsa.json");
        return -1;
    }
    struct vendor_event e = *s;
    const char *desc = jstr(jget(o, "BriefDescription"));
    if (!desc)
        desc = jstr(jget(o, "PublicDescription"));
    e.name = xstrdup(s->name);
    e.file = xstrdup(file);
    e.desc = xstrdup(desc ? desc : s->desc);
    e.errata = s->errata ? xstrdup(s->errata) : NULL;
    append(t, &e);
    return 0;
}

/* The longest event name a table may give (the vendors' longest are about 110 characters). */
#define VENDOR_MAX_NAME 255

/* An EventName or ArchStdEvent (docs/grammar.md, vendor tables): 1..VENDOR_MAX_NAME of letters,
 * digits, '.', '_', '-', ':' and '=' (Intel's OFFCORE_RESPONSE:request=...). A name pmucal would
 * print or match otherwise (a control character, a space) is the table's error. */
static bool name_ok(const char *name, const char *key, const char *file)
{
    size_t len = strlen(name), plain = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:=");
    if (len && len <= VENDOR_MAX_NAME && plain == len)
        return true;
    pm_error("%s: %s \"%.64s%s\": %s; an event name is 1 to %d letters, digits and . _ - : =; fix the table entry",
             file, key, name, len > 64 ? "..." : "",
             !len ? "is empty" : len > VENDOR_MAX_NAME ? "is too long" : "holds a character outside the name's set",
             VENDOR_MAX_NAME);
    return false;
}

/* A RISC-V entry: EventCode, a hardware event, is what the cpu PMU's event field (config:0-47)
 * holds; ConfigCode is the whole config, where bits 63:62 say whose event it is (the SBI PMU
 * extension: 00 hardware, 10 an SBI firmware event numbered in 15:0, 11 a platform's firmware
 * event, 01 nothing). A value the kernel would refuse, or take as another event, is the table's
 * error. */
static int add_riscv(struct vendor_table *t, const struct jvalue *o, const char *file, const char *name)
{
    bool has_code, has_config;
    uint64_t code, config;
    if (field_num(o, "EventCode", UINT64_MAX, &code, &has_code, file, name) ||
        field_num(o, "ConfigCode", UINT64_MAX, &config, &has_config, file, name))
        return -1;
    if (has_code && has_config) {
        pm_error("%s: event %s has both EventCode and ConfigCode; a RISC-V table gives a hardware event's EventCode "
                 "or a firmware event's ConfigCode; fix the table entry", file, name);
        return -1;
    }
    if (!has_code && !has_config)
        return 0;
    unsigned top = (unsigned)((has_code ? code : config) >> VENDOR_RISCV_FIRMWARE_SHIFT);
    const char *why = NULL;
    if (has_code && code > VENDOR_RISCV_EVENT_MASK)
        why = top & 2 ? "sets bit 63, which marks an SBI firmware event: a firmware event is a ConfigCode, and an "
                        "EventCode is a hardware event's number in the cpu PMU's event field (config:0-47)"
                      : "is wider than the cpu PMU's event field (config:0-47, at most 0xffffffffffff)";
    else if (has_config && top == 1)
        why = "has bits 63:62 = 01, which the SBI PMU extension gives no event (00 a hardware event, 10 an SBI "
              "firmware event, 11 a platform firmware event)";
    else if (has_config && top == 2 && (config & ~(3ull << VENDOR_RISCV_FIRMWARE_SHIFT)) > 0xffff)
        why = "is an SBI firmware event (bit 63) with bits set above 15, where the SBI firmware event number ends";
    else if (has_config && top == 0 && config > VENDOR_RISCV_EVENT_MASK)
        why = "is a hardware event (bits 63:62 = 00) wider than the cpu PMU's event field (config:0-47)";
    if (why) {
        pm_error("%s: event %s: %s \"%s\" %s; fix the table entry", file, name, has_code ? "EventCode" : "ConfigCode",
                 jstr(jget(o, has_code ? "EventCode" : "ConfigCode")) ? jstr(jget(o, has_code ? "EventCode" : "ConfigCode"))
                                                                      : "(a number)", why);
        return -1;
    }
    const char *desc = jstr(jget(o, "BriefDescription"));
    if (!desc)
        desc = jstr(jget(o, "PublicDescription"));
    struct vendor_event e = {.name = xstrdup(name), .file = xstrdup(file), .format = VENDOR_RISCV_PMU_EVENTS,
                             .config = has_code ? code : config, .firmware = top != 0, .fixed = -1,
                             .desc = xstrdup(desc ? desc : "")};
    e.event = e.event2 = (unsigned)(e.config & 0xffff);
    append(t, &e);
    return 0;
}

static int add(struct vendor_table *t, const struct jvalue *o, const char *file, enum vendor_format fmt)
{
    const char *name = jstr(jget(o, "EventName")), *std = jstr(jget(o, "ArchStdEvent"));
    if ((name && !jget(o, "MetricName") && !name_ok(name, "EventName", file)) ||
        (!name && std && !name_ok(std, "ArchStdEvent", file)))
        return -1;
    if (!name && std && t->arch_std && !jget(o, "Unit"))
        return add_arch_std(t, o, file, std);
    if (name && !jget(o, "MetricName") && jget(o, "Unit"))
        return add_uncore(t, o, file, name);
    if (!name || jget(o, "MetricName"))   /* metrics are not events */
        return 0;
    if (fmt == VENDOR_RISCV_PMU_EVENTS)
        return add_riscv(t, o, file, name);
    bool has_code;
    uint64_t code, code2, umask, cmask, inv, edge, any, offcore, taken_alone, deprecated;
    struct vendor_event e = {0};
    if (field_num(o, "EventCode", max_event_code(fmt), &code, &has_code, file, name))
        return -1;
    if (!has_code)
        return 0;   /* perf's ArchStdEvent aliases carry no code of their own */
    const char *codes = jstr(jget(o, "EventCode"));
    code2 = code;
    if (codes && strchr(codes, ',') &&
        (!parse_code(strchr(codes, ',') + 1, &code2) || code2 > max_event_code(fmt))) {
        pm_error("%s: event %s: EventCode \"%s\": the second code is not a whole number in 0..0x%llx; fix the "
                 "table entry", file, name, codes, (unsigned long long)max_event_code(fmt));
        return -1;
    }
    if (field_num(o, "UMask", 0xff, &umask, NULL, file, name) ||
        field_num(o, "CounterMask", 0xff, &cmask, NULL, file, name) ||
        field_num(o, "Invert", 1, &inv, NULL, file, name) || field_num(o, "EdgeDetect", 1, &edge, NULL, file, name) ||
        field_num(o, "AnyThread", 1, &any, NULL, file, name) ||
        field_num(o, "MSRIndex", UINT64_MAX, &e.msr_index, NULL, file, name) ||
        field_num(o, "MSRValue", UINT64_MAX, &e.msr_value, NULL, file, name) ||
        field_num(o, "Offcore", 1, &offcore, NULL, file, name) ||
        field_num(o, "TakenAlone", 1, &taken_alone, NULL, file, name) ||
        field_num(o, "Deprecated", 1, &deprecated, NULL, file, name))
        return -1;
    e.name = xstrdup(name);
    e.file = xstrdup(file);
    e.format = fmt;
    e.event = (unsigned)code, e.event2 = (unsigned)code2;
    e.umask = (unsigned)umask, e.cmask = (unsigned)cmask;
    e.inv = inv, e.edge = edge, e.any = any;
    e.offcore = offcore || e.msr_index == 0x1a6;
    char why[200];
    if (counter_mask(jstr(jget(o, "Counter")), &e.counters, &e.fixed, why, sizeof(why))) {
        pm_error("%s: event %s: Counter \"%s\" %s; fix the table entry", file, name, jstr(jget(o, "Counter")), why);
        free(e.name);
        free(e.file);
        return -1;
    }
    e.taken_alone = taken_alone;
    const char *errata = jstr(jget(o, "Errata"));
    if (errata && *errata && strcasecmp(errata, "null") && strcasecmp(errata, "none"))
        e.errata = xstrdup(errata);
    e.deprecated = deprecated;
    const char *desc = jstr(jget(o, "BriefDescription"));
    if (!desc)
        desc = jstr(jget(o, "PublicDescription"));
    e.desc = xstrdup(desc ? desc : "");
    append(t, &e);
    return 0;
}

static int cmp_name_ci(const void *a, const void *b)
{
    return strcasecmp((*(const struct vendor_event *const *)a)->name, (*(const struct vendor_event *const *)b)->name);
}

/* One core event a name in one file (docs/grammar.md, vendor tables): a second entry would be found
 * or hidden by the order of the file. (A folder's files may share names: a hybrid part's core
 * types each have a file, and the first file in name order wins.) Sorted, not pairwise: tables
 * hold thousands. */
static int unique_names(const struct vendor_table *t, int first, const char *path)
{
    int n = t->n - first, rc = 0;
    if (n < 2)
        return 0;
    const struct vendor_event **by = xmalloc(sizeof(*by) * (size_t)n);
    for (int i = 0; i < n; i++)
        by[i] = &t->ev[first + i];
    qsort(by, (size_t)n, sizeof(*by), cmp_name_ci);
    for (int i = 1; i < n && !rc; i++)
        if (!strcasecmp(by[i - 1]->name, by[i]->name)) {
            pm_error("%s: event %s is in the table twice; keep one entry", path, by[i]->name);
            rc = -1;
        }
    free(by);
    return rc;
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
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!strncmp(base, VENDOR_RISCV_FIRMWARE_FILE, strlen(VENDOR_RISCV_FIRMWARE_FILE)))
        t->riscv = true;   /* the architecture's firmware events, named on their own */
    enum vendor_format fmt = t->riscv      ? VENDOR_RISCV_PMU_EVENTS
                             : t->arch_std ? VENDOR_ARM_PMU_EVENTS
                                           : VENDOR_LINUX_PMU_EVENTS;
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
    /* Only RISC-V's tables give ConfigCode: one such file read on its own is RISC-V's. */
    for (int i = 0; fmt == VENDOR_LINUX_PMU_EVENTS && i < list->n; i++)
        if (list->items[i].type == J_OBJECT && jget(&list->items[i], "ConfigCode"))
            fmt = VENDOR_RISCV_PMU_EVENTS;
    int rc = 0, first = t->n;
    for (int i = 0; i < list->n && !rc; i++)
        if (list->items[i].type == J_OBJECT)
            rc = add(t, &list->items[i], path, fmt);
    t->files++;
    jread_free(doc);
    return rc ? rc : unique_names(t, first, path);
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
            names = xgrow(names, sizeof(*names), n);
            names[n++] = xstrdup(de->d_name);
        }
    closedir(d);
    if (n)   /* an empty folder: nothing to sort (qsort wants a list, not NULL) */
        qsort(names, (size_t)n, sizeof(*names), cmp_str);   /* a stable order: results do not depend on readdir */
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *p = xasprintf("%s/%s", path, names[i]);
        struct stat st;
        size_t len = strlen(names[i]);
        /* NAME.json.gz is a table as NAME.json is; where both are there they are one table, read once. */
        bool gz = len > 8 && !strcmp(names[i] + len - 8, ".json.gz"), plain = len > 5 && !strcmp(names[i] + len - 5, ".json");
        bool twin = gz && i > 0 && strlen(names[i - 1]) == len - 3 && !strncmp(names[i - 1], names[i], len - 3);
        if (!rc && !twin && !stat(p, &st)) {
            if (S_ISDIR(st.st_mode) && depth == 0 && !strcmp(names[i], "events"))
                rc = load_dir(t, p, depth + 1);
            else if (S_ISREG(st.st_mode) && (plain || gz))
                rc = load_file(t, p);
        }
        free(p);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);   /* after the loop: a .gz looks back at the name before it */
    free(names);
    return rc;
}

/* The MetricName of every entry of the architecture's metrics file (perf's arm64/sbsa.json). */
static int load_arch_metrics(struct vendor_table *std, const char *path)
{
    char err[512];
    struct jvalue *doc = jread_file(path, err, sizeof(err));
    if (!doc || doc->type != J_ARRAY) {
        pm_error("%s%s", doc ? path : err, doc ? ": not an array of metrics (perf's arm64 sbsa.json)" : "");
        jread_free(doc);
        return -1;
    }
    for (int i = 0; i < doc->n; i++) {
        const char *name = jstr(jget(&doc->items[i], "MetricName"));
        if (!name)
            continue;
        std->arch_metrics = xrealloc(std->arch_metrics, sizeof(char *) * (size_t)(std->narch_metrics + 1));
        std->arch_metrics[std->narch_metrics++] = xstrdup(name);
    }
    jread_free(doc);
    return 0;
}

/* perf's arm64 and riscv layouts: the architecture's files two folders above a model's. */
static int load_arch_std(struct vendor_table *std, const char *model_dir, bool riscv)
{
    if (riscv) {
        char *named = xasprintf("%s/../../%s", model_dir, VENDOR_RISCV_FIRMWARE_FILE), *p = path_or_gz(named);
        std->riscv = true;
        int rc = p ? load_file(std, p) : 0;
        free(p);
        free(named);
        return rc;
    }
    static const char *const files[] = {"common-and-microarch.json", "recommended.json", "sbsa.json"};
    std->arch_std = std;   /* the files are Arm's format; recommended.json names common events */
    int rc = 0;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && !rc; i++) {
        char *named = xasprintf("%s/../../%s", model_dir, files[i]), *p = path_or_gz(named);
        rc = !p ? 0 : strcmp(files[i], "sbsa.json") ? load_file(std, p) : load_arch_metrics(std, p);
        free(p);
        free(named);
    }
    std->arch_std = NULL;
    return rc;
}

int vendor_load(struct vendor_table *t, const char *named)
{
    struct stat st;
    char *path = path_or_gz(named);   /* NAME.json as a mapfile names it, shipped as NAME.json.gz */
    if (!path || stat(path, &st)) {
        pm_error("--vendor-json %s: %s; point it at a JSON table (.json or .json.gz) or a folder of them", named,
                 strerror(errno));
        free(path);
        return -1;
    }
    struct vendor_table std = {0};
    char *marker = xasprintf("%s/../../common-and-microarch.json", path), *found = path_or_gz(marker);
    bool arm = S_ISDIR(st.st_mode) && found;
    free(marker);
    free(found);
    /* perf's riscv layout: a model folder (or a file in one) two folders below the firmware events. */
    char *dir = S_ISDIR(st.st_mode) ? xstrdup(path) : xasprintf("%s/..", path);
    marker = xasprintf("%s/../../%s", dir, VENDOR_RISCV_FIRMWARE_FILE);
    found = path_or_gz(marker);
    bool riscv = found != NULL;
    free(marker);
    free(found);
    if ((arm || riscv) && load_arch_std(&std, dir, riscv)) {
        vendor_free(&std);
        free(dir);
        free(path);
        return -1;
    }
    free(dir);
    t->arch_std = arm || riscv ? &std : NULL;
    t->riscv |= riscv;
    int rc = S_ISDIR(st.st_mode) ? load_dir(t, path, 0) : load_file(t, path);
    t->arch_std = NULL;
    vendor_free(&std);
    if (!rc && !t->n) {
        pm_error("--vendor-json %s: no core events found in %d JSON file(s)", path, t->files);
        rc = -1;
    }
    free(path);
    return rc;
}

static void free_events(struct vendor_event *ev, int n)
{
    for (int i = 0; i < n; i++) {
        free(ev[i].name);
        free(ev[i].file);
        free(ev[i].errata);
        free(ev[i].desc);
    }
    free(ev);
}

void vendor_free(struct vendor_table *t)
{
    free_events(t->ev, t->n);
    free_events(t->uncore, t->nuncore);
    for (int i = 0; i < t->narch_metrics; i++)
        free(t->arch_metrics[i]);
    free(t->arch_metrics);
    memset(t, 0, sizeof(*t));
}

const struct vendor_event *vendor_match(const struct vendor_table *t, const struct event_spec *spec)
{
    struct x86_enc x;
    x86_decode(spec, &x);
    const struct vendor_event *best = NULL;
    for (int i = 0; i < t->n; i++) {
        const struct vendor_event *v = &t->ev[i];
        if (v->format == VENDOR_RISCV_PMU_EVENTS) {   /* the raw config is the entry's */
            if (spec->type == 4 && spec->config == v->config && !best)
                best = v;
            continue;
        }
        if (v->format == VENDOR_ARM_PMU_EVENTS) {   /* the raw config is the event number */
            if (spec->type == 4 && spec->config == v->event && !best)
                best = v;
            continue;
        }
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

void vendor_event_spec(const struct vendor_event *v, struct event_spec *spec)
{
    if (v->unit) {
        spec->type = 0;
        spec->config = uncore_config(v->unit, v->event, v->umask);
        spec->config1 = 0;
        spec->programmable = false;
        snprintf(spec->uncore, sizeof(spec->uncore), "%s", v->unit);
        return;
    }
    spec->type = 4;   /* PERF_TYPE_RAW: the PERFEVTSEL bits as the kernel writes them */
    if (v->format == VENDOR_RISCV_PMU_EVENTS) {   /* a firmware event takes a firmware counter */
        spec->config = v->config;
        spec->config1 = 0;
        spec->programmable = !v->firmware;
        return;
    }
    if (v->format == VENDOR_ARM_PMU_EVENTS) {   /* PMEVTYPER's event number */
        spec->config = v->event;
        spec->config1 = 0;
        spec->programmable = true;
        return;
    }
    spec->config = (v->event & 0xffull) | (uint64_t)((v->event >> 8) & 0xf) << 32 | (uint64_t)v->umask << 8 |
                   (uint64_t)v->edge << 18 | (uint64_t)v->any << 21 | (uint64_t)v->inv << 23 |
                   (uint64_t)v->cmask << 24;
    /* perf takes the offcore-response, load-latency and front-end MSR values in config1. */
    spec->config1 = v->offcore || v->msr_index == 0x3f6 || v->msr_index == 0x3f7 ? v->msr_value : 0;
    spec->programmable = !(v->fixed >= 0 && v->event == 0);
}

static const struct vendor_event *find_in(const struct vendor_event *ev, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcasecmp(ev[i].name, name))
            return &ev[i];
    return NULL;
}

const struct vendor_event *vendor_find(const struct vendor_table *t, const char *name)
{
    return t ? find_in(t->ev, t->n, name) : NULL;
}

const struct vendor_event *vendor_find_uncore(const struct vendor_table *t, const char *name)
{
    return t ? find_in(t->uncore, t->nuncore, name) : NULL;
}
