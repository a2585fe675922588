/* The effective cache geometry: hwloc's levels unless implausible, then the measured curve's
 * (cached per host: CPUID identity, hwloc's view, kernel), else CPUID's. */
#include "host/geometry.h"
#include "arch/isa.h"
#include "base/jread.h"
#include "base/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

static struct geometry geo;
static struct topo *topo_ref;
static geometry_measurer measurer;
/* Measurements of a curve that fails its checks before the levels stay hwloc's or CPUID's. */
enum { GEOMETRY_ATTEMPTS = 3 };
static bool resolving, tried;

void geometry_register_measurer(geometry_measurer fn)
{
    measurer = fn;
}

const struct geometry *geometry_get(void)
{
    return &geo;
}

/* PMUCAL_GEOMETRY: auto (default), hwloc (take hwloc's levels as they are), measure (ignore the cache). */
static const char *mode(void)
{
    const char *m = getenv("PMUCAL_GEOMETRY");
    if (!m || !*m)
        return "auto";
    if (strcmp(m, "auto") && strcmp(m, "hwloc") && strcmp(m, "measure"))
    {
        pm_error("PMUCAL_GEOMETRY=%s: give auto (hwloc's levels unless implausible, then the measured curve), "
                 "hwloc (hwloc's as they are) or measure (measure again, ignoring the cache)", m);
        exit(2);
    }
    return m;
}

/* A topology that hwloc did not read from this machine (an XML or CPUID fixture): its caches are
 * not this machine's, so this machine's curve says nothing about them. */
static const char *fixture(void)
{
    const char *x = getenv("HWLOC_XMLFILE");
    if (x && *x)
        return "HWLOC_XMLFILE";
    x = getenv("HWLOC_CPUID_PATH");
    return x && *x ? "HWLOC_CPUID_PATH" : NULL;
}

static void cache_key(char *out, size_t n)
{
    const struct cpu_facts *c = cpu_get();
    struct utsname u;
    uname(&u);
    /* geometry-2: a curve's cycles are at the clock of register adds; geometry-1's were at
     * immediate adds, 4-6x too many cycles on cores that fold them. */
    int len = snprintf(out, n, "geometry-2 %s %d/%d/%d %s | kernel %s | pus %d cores %d |", c->vendor, c->family,
                       c->model, c->stepping, c->brand, u.release, topo_ref->pus, topo_ref->cores);
    for (int l = 1; l <= TOPO_MAX_LEVEL && len > 0 && (size_t)len < n; l++)
        len += snprintf(out + len, n - (size_t)len, " L%d %llu/%d/%d", l, (unsigned long long)geo.hwloc[l].size,
                        geo.hwloc[l].ways, geo.hwloc[l].sharing_pus);
}

/* The cache folder, from the first of PMUCAL_CACHE_DIR, XDG_CACHE_HOME (its pmucal/) and HOME
 * (its .cache/pmucal/) that is set; -1 when none is. A PMUCAL_CACHE_DIR that cannot be a folder
 * (empty, too long, a file, a FIFO, a device, a symbolic-link loop, unreachable) is refused, never
 * passed over or left unused in silence: the user asked for that folder. XDG_CACHE_HOME and HOME
 * are the desktop's, not settings of pmucal's: one whose cache folder cannot be is said once, and
 * nothing is cached. One that does not exist yet is made when something is stored. */
static int cache_dir(char *out, size_t n)
{
    static const char *const vars[] = {"PMUCAL_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
    static const char *const under[] = {"", "/pmucal", "/.cache/pmucal"};
    const char *fix = "name a folder for measured host facts (made when missing), or unset it";
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (!v || (!*v && i))
            continue;   /* XDG_CACHE_HOME and HOME set empty mean unset, as the XDG rules say */
        if (!*v) {
            pm_error("%s is set but empty: %s", vars[i], fix);
            exit(2);
        }
        if (snprintf(out, n, "%s%s", v, under[i]) >= (int)n) {
            pm_error("%s: a path of %zu characters, longer than pmucal's cache files' folder can be: %s", vars[i],
                     strlen(v), fix);
            exit(2);
        }
        struct stat st;
        int got = stat(out, &st), e = errno;
        if (got ? e != ENOENT : !S_ISDIR(st.st_mode)) {
            const char *kind = got ? strerror(e) : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISREG(st.st_mode) ? "a file"
                             : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file";
            if (i) {
                static bool said;
                if (!said)
                    pm_note("%s=%s: %s: %s, not a folder: measured host facts are not cached (set PMUCAL_CACHE_DIR "
                            "to a folder to keep them)", vars[i], v, out, kind);
                said = true;
                return -1;
            }
            pm_error("%s=%s: %s, not a folder: %s", vars[i], v, kind, fix);
            exit(2);
        }
        return 0;
    }
    return -1;
}

/* A cache file's object, NULL when there is none yet; one that is there but is not a regular file
 * of at most HOST_CACHE_MAX bytes holding one JSON object is refused (someone put it there: it
 * is named, never measured over in silence). */
#define HOST_CACHE_MAX (1u << 20)
struct jvalue *host_cache_load(const char *path)
{
    char err[600], why[256];
    size_t len;
    char *text = read_file_bounded(path, HOST_CACHE_MAX, &len, err, sizeof(err));
    if (!text && errno == ENOENT)
        return NULL;
    struct jvalue *v = text ? jread_parse(text, len, why, sizeof(why)) : NULL;
    if (text && !v)
        snprintf(err, sizeof(err), "%s: not JSON (%s)", path, why);
    else if (v && v->type != J_OBJECT)
        snprintf(err, sizeof(err), "%s: not a JSON object", path);
    free(text);
    if (!v || v->type != J_OBJECT) {
        pm_error("a cache file of measured host facts: %s; remove it (pmucal measures again and caches the facts), "
                 "or point PMUCAL_CACHE_DIR at another folder", err);
        exit(2);
    }
    return v;
}

int host_cache_file(const char *stem, const char *key, char *out, size_t n)
{
    char dir[3800];
    out[0] = 0;
    if (cache_dir(dir, sizeof(dir)))
        return -1;
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return snprintf(out, n, "%s/%s-%016llx.json", dir, stem, (unsigned long long)h) < (int)n ? 0 : -1;
}

int host_cache_store(const char *path, const struct json *j)
{
    char dir[4096];
    if (!path[0] || cache_dir(dir, sizeof(dir)))
        return -1;
    char *slash = dir;
    while ((slash = strchr(slash + 1, '/'))) {   /* mkdir -p */
        *slash = 0;
        mkdir(dir, 0755);
        *slash = '/';
    }
    mkdir(dir, 0755);
    char *tmp = xasprintf("%s.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = !f || json_write_line(j, f) || fclose(f) || rename(tmp, path) ? -1 : 0;
    if (rc && f) {
        int e = errno;   /* what failed, not the clean-up */
        unlink(tmp);
        errno = e;
    }
    free(tmp);
    return rc;
}

void host_cache_begin(struct json *j, const char *key, double seconds)
{
    char date[32];
    json_init(j);
    json_object_begin(j, NULL);
    json_string(j, "key", key);
    json_string(j, "date", iso_now(date));
    json_number(j, "seconds", seconds);
}

static void cache_path(void)
{
    char key[1024];
    cache_key(key, sizeof(key));
    if (host_cache_file("geometry", key, geo.cache_file, sizeof(geo.cache_file)))
        geo.cache_file[0] = 0;
}

/* The cached points into out: their count (at least 4), or -1 with why when one is not
 * [bytes, cycles, ns] within latency_point_ok's bounds (checked before the bytes become an integer). */
static int points_from_json(const struct jvalue *arr, struct latency_point *out, char *why, size_t whylen)
{
    int n = 0;
    for (int i = 0; arr && arr->type == J_ARRAY && i < arr->n && i < GEOMETRY_MAX_POINTS; i++) {
        const struct jvalue *p = &arr->items[i];
        char err[200];
        bool shaped = p->type == J_ARRAY && p->n == 3 && p->items[0].type == J_NUMBER && p->items[1].type == J_NUMBER &&
                      p->items[2].type == J_NUMBER;
        if (!shaped || !number_in(p->items[0].num, 1, LATENCY_MAX_BYTES, "bytes", err, sizeof(err))) {
            snprintf(why, whylen, "points[%d]: %s", i, shaped ? err : "not [bytes, cycles, ns]");
            return -1;
        }
        struct latency_point pt = {(uint64_t)p->items[0].num, p->items[1].num, p->items[2].num};
        if (!latency_point_ok(&pt, true, err, sizeof(err))) {
            snprintf(why, whylen, "points[%d]: %s", i, err);
            return -1;
        }
        out[n++] = pt;
    }
    if (n < 4)
        snprintf(why, whylen, "%d points; a curve needs at least 4", n);
    return n >= 4 ? n : -1;
}

static int cache_read(void)
{
    char key[1024];
    cache_key(key, sizeof(key));
    struct jvalue *v = host_cache_load(geo.cache_file);
    if (!v)
        return -1;
    int rc = -1, n = -1, na = -1;
    char why[300];
    bool mine = !strcmp(jget_str(v, "key", ""), key);
    if (mine && ((n = points_from_json(jget(v, "points"), geo.points, why, sizeof(why))) < 0 ||
                 (jget(v, "again") && (na = points_from_json(jget(v, "again"), geo.again, why, sizeof(why))) < 0))) {
        /* A damaged cache is no reason to measure silently: someone wrote it. */
        pm_error("%s: %s; remove the file (pmucal measures the levels again and caches them), or set "
                 "PMUCAL_GEOMETRY=measure", geo.cache_file, why);
        exit(2);
    }
    if (mine && na != n) {
        pm_note("the cached load-latency curve %s has no second half of sweeps to check it against: measuring it again",
                geo.cache_file);
    } else if (mine) {
        /* Checked again as it is read: a cache written before the checks, or by hand, is not trusted. */
        if (latency_curve_check(geo.points, n, geo.again, na, why, sizeof(why))) {
            pm_note("the cached load-latency curve %s fails its checks (%s): measuring it again", geo.cache_file, why);
        } else {
            geo.npoints = n;
            snprintf(geo.note, sizeof(geo.note), "measured on %s in %.1f s, cached in %s", jget_str(v, "date", "?"),
                     jget_num(v, "seconds", NAN), geo.cache_file);
            rc = 0;
        }
    }
    jread_free(v);
    return rc;
}

static void cache_write(void)
{
    char key[1024];
    if (!geo.cache_file[0])
        return;
    cache_key(key, sizeof(key));
    struct json j;
    host_cache_begin(&j, key, geo.seconds);
    const struct latency_point *const halves[2] = {geo.points, geo.again};
    for (int k = 0; k < 2; k++) {
        json_array_begin(&j, k ? "again" : "points");
        for (int i = 0; i < geo.npoints; i++) {
            json_array_begin(&j, NULL);
            json_uint(&j, NULL, halves[k][i].bytes);
            json_number(&j, NULL, halves[k][i].cycles);
            json_number(&j, NULL, halves[k][i].ns);
            json_array_end(&j);
        }
        json_array_end(&j);
    }
    json_object_end(&j);
    if (host_cache_store(geo.cache_file, &j))
        pm_warn("cannot store the measured cache levels in %s (%s): they will be measured again next time; "
                "PMUCAL_CACHE_DIR names another folder", geo.cache_file, strerror(errno));
    json_free(&j);
}

/* One field of a curve line: a number, nothing else (not "12abc", not empty); latency_point_ok judges its value. */
static bool curve_field(char **at, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(*at, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r')
        end++;
    if (end == *at || errno == ERANGE || (*end && *end != ','))
        return false;
    *at = *end ? end + 1 : end;
    return true;
}

/* PMUCAL_CURVE_FILE: a recorded curve (CSV: bytes, cycles, ns per load, sizes growing line by line;
 * calibrate's curve.csv, whose two more columns are the spread, fits) instead of a measurement,
 * for fixture hosts and tests. Read and checked whenever it is set: a setting that is wrong is
 * refused on every host, never left unread because hwloc's levels happened to be plausible. */
static void curve_file(const char *path)
{
    const char *fix = "give a CSV of bytes,cycles,ns per load, sizes growing line by line (a curve.csv of "
                      "calibrate), or unset PMUCAL_CURVE_FILE";
    char err[512];
    size_t len;
    if (strlen(path) >= 4096) {
        pm_error("PMUCAL_CURVE_FILE: a path of %zu characters, longer than any file's; %s", strlen(path), fix);
        exit(2);
    }
    char *text = read_file_bounded(path, INPUT_FILE_MAX, &len, err, sizeof(err));
    if (!text) {
        pm_error("PMUCAL_CURVE_FILE=%s: cannot read %s; %s", path, err, fix);
        exit(2);
    }
    if (strlen(text) != len) {
        int at = 1;
        for (const char *c = text; *c; c++)
            at += *c == '\n';
        pm_error("PMUCAL_CURVE_FILE=%s:%d: a NUL byte, not text; %s", path, at, fix);
        free(text);
        exit(2);
    }
    geo.npoints = 0;
    int lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        /* '#' comments and blank lines anywhere; a header (calibrate's "bytes,cycles,...") only
         * before the first point: text after it is garbage, never skipped. */
        if (*line == '#' || !line[strspn(line, " \t\r")] || (!geo.npoints && isalpha((unsigned char)*line)))
            continue;
        /* Parsed as doubles and checked before the bytes become an integer: "-5" is no size. */
        double f[5] = {NAN, NAN, NAN, NAN, NAN};
        int nf = 0;
        char why[300] = "not bytes,cycles,ns (numbers separated by commas)";
        char *at = line;
        while (*at && nf < 5 && curve_field(&at, &f[nf]))
            nf++;
        bool read = !*at && (nf == 3 || nf == 5);
        struct latency_point p = {0, NAN, NAN};
        bool sized = read && number_in(f[0], 1, LATENCY_MAX_BYTES, "bytes", why, sizeof(why));
        if (sized)
            p = (struct latency_point){(uint64_t)f[0], f[1], f[2]};
        bool ok = sized && latency_point_ok(&p, false, why, sizeof(why));
        if (ok && geo.npoints && p.bytes <= geo.points[geo.npoints - 1].bytes) {
            snprintf(why, sizeof(why), "%llu bytes after %llu: the sizes must grow", (unsigned long long)p.bytes,
                     (unsigned long long)geo.points[geo.npoints - 1].bytes);
            ok = false;
        }
        if (ok && geo.npoints == GEOMETRY_MAX_POINTS) {
            snprintf(why, sizeof(why), "more than %d points, more than a curve has", GEOMETRY_MAX_POINTS);
            ok = false;
        }
        if (!ok) {
            pm_error("PMUCAL_CURVE_FILE=%s:%d: %s; %s", path, lineno, why, fix);
            free(text);
            exit(2);
        }
        geo.points[geo.npoints++] = p;
    }
    free(text);
    if (geo.npoints < 4) {
        pm_error("PMUCAL_CURVE_FILE=%s: %d points of bytes,cycles,ns read; a curve needs at least 4; %s", path,
                 geo.npoints, fix);
        exit(2);
    }
    snprintf(geo.note, sizeof(geo.note), "read from PMUCAL_CURVE_FILE=%s", path);
}

/* PMUCAL_CURVE_FILE's value, NULL when it is not set; set but empty is refused (it names no file,
 * and was taken for unset). */
static const char *curve_setting(void)
{
    const char *file = getenv("PMUCAL_CURVE_FILE");
    if (file && !*file) {
        pm_error("PMUCAL_CURVE_FILE is set but empty: give a CSV of bytes,cycles,ns per load (a curve.csv of "
                 "calibrate), or unset it");
        exit(2);
    }
    return file;
}

static bool any_implausible(void)
{
    for (int l = 1; l <= TOPO_MAX_LEVEL; l++)
        if (geo.implausible[l])
            return true;
    return false;
}

/* A plausible level the curve leaves well before its size: hwloc describes the cache, the curve
 * what this machine can keep in it. Only where the curve found as many caches as hwloc and went
 * on past them (to memory), so the boundary is a level's end and not where the curve stopped. */
static void apply_usable(const struct cache_level *m)
{
    int levels = 0;
    for (int l = 1; l <= TOPO_MAX_LEVEL; l++)
        levels += topo_ref->data[l].size > 0;
    if (geo.levels.ncaches != levels || !geo.levels.memory)
        return;
    for (int l = 1; l <= levels; l++) {
        if (geo.implausible[l] || !m[l].size || m[l].size * GEOMETRY_USABLE_FACTOR > topo_ref->data[l].size)
            continue;
        topo_ref->usable[l] = m[l].size;
        size_t used = strlen(geo.note);
        snprintf(geo.note + used, sizeof(geo.note) - used, "; L%d: hwloc's %s, of which the curve shows %s usable here: "
                 "size=L%d and the closure's working sets lie within that", l, fmt_size(topo_ref->data[l].size),
                 fmt_size(m[l].size), l);
    }
}

/* The curve's levels read off it; with replace, they take the place of the implausible ones,
 * once they pass the same checks (without, they are only shown beside hwloc's); with shrink, a
 * level of which the curve shows much less usable is sized by that (apply_usable). */
static void apply_curve(bool replace, bool shrink)
{
    char why[200];
    size_t used = strlen(geo.note);
    if (latency_levels_detect(geo.points, geo.npoints, &geo.levels, why, sizeof(why))) {
        snprintf(geo.note + used, sizeof(geo.note) - used, "; no levels read off it: %s", why);
        return;
    }
    struct cache_level m[TOPO_MAX_LEVEL + 1];
    memset(m, 0, sizeof(m));
    for (int l = 1; l <= TOPO_MAX_LEVEL && l <= geo.levels.ncaches; l++) {
        m[l] = geo.hwloc[l];
        m[l].level = l;
        m[l].size = geo.levels.plateau[l - 1].boundary;
        m[l].ways = -1;   /* not measured; keeps zero-ways out of the check */
        if (!m[l].sharing_pus)
            m[l].sharing_pus = 1;
        if (!m[l].linesize)
            m[l].linesize = 64;
    }
    struct geometry_finding f[GEOMETRY_MAX_FINDINGS];
    int nf = geometry_check(m, topo_ref->cores, topo_ref->pus, NULL, f, GEOMETRY_MAX_FINDINGS);
    if (nf) {
        snprintf(geo.note + used, sizeof(geo.note) - used, "; its levels are not used: L%d %s: %s", f[0].level,
                 f[0].reason, f[0].detail);
        return;
    }
    geo.measured = true;
    if (shrink)
        apply_usable(m);
    for (int l = 1; l <= TOPO_MAX_LEVEL && replace; l++) {
        if (!geo.implausible[l])
            continue;
        if (l <= geo.levels.ncaches && m[l].size) {
            topo_ref->data[l] = m[l];
            topo_ref->data[l].ways = 0;
        } else if (l > geo.levels.ncaches && geo.levels.memory) {
            /* The curve goes to memory after fewer levels: said so, as hwloc described this one. */
            const struct latency_plateau *mem = &geo.levels.plateau[geo.levels.ncaches];
            uint64_t said = topo_ref->data[l].size;
            memset(&topo_ref->data[l], 0, sizeof(topo_ref->data[l]));
            snprintf(topo_ref->absent_why[l], sizeof(topo_ref->absent_why[l]), "hwloc's %s is implausible and the "
                     "measured latency curve goes from L%d to memory (%.0f cycles, %.0f ns), no L%d plateau (pmucal "
                     "info --measure measures again)", fmt_size(said), geo.levels.ncaches, mem->cycles, mem->ns, l);
        } else {
            /* The curve found fewer levels and no memory beyond them: this level is there, its
             * size unknown. Left out with the reason, never sized by the implausible figure (this
             * guest's 480M L3 made size=DRAM 7.5G). */
            uint64_t said = topo_ref->data[l].size;
            memset(&topo_ref->data[l], 0, sizeof(topo_ref->data[l]));
            snprintf(topo_ref->absent_why[l], sizeof(topo_ref->absent_why[l]), "its size is not known: hwloc's %s "
                     "is implausible and the measured curve %s, no memory plateau (measure again when the machine is "
                     "quieter: pmucal info --measure)", fmt_size(said),
                     l <= geo.levels.ncaches ? "never left its plateau" : "found fewer levels");
        }
        topo_ref->source[l] = TOPO_FROM_MEASURED;
    }
}

/* Without a curve, the CPU's own description of a level (CPUID's deterministic leaf) where it
 * gives another size that passes the checks. */
static void apply_cpuid(void)
{
    if (!geo.cpuid_read)
        return;
    for (int l = 1; l <= TOPO_MAX_LEVEL; l++) {
        if (!geo.implausible[l] || !geo.cpuid.described[l] || geo.cpuid.described[l] == geo.hwloc[l].size)
            continue;
        struct cache_level m[TOPO_MAX_LEVEL + 1];
        memcpy(m, topo_ref->data, sizeof(m));
        m[l].size = geo.cpuid.described[l];
        m[l].ways = geo.cpuid.described_ways[l] ? geo.cpuid.described_ways[l] : -1;
        struct geometry_finding f[GEOMETRY_MAX_FINDINGS];
        int nf = geometry_check(m, topo_ref->cores, topo_ref->pus, NULL, f, GEOMETRY_MAX_FINDINGS), at_l = 0;
        for (int i = 0; i < nf; i++)
            at_l += f[i].level == l;
        if (!at_l) {
            topo_ref->data[l] = m[l];
            topo_ref->source[l] = TOPO_FROM_CPUID;
        }
    }
}

static void geometry_load(struct topo *t)
{
    topo_ref = t;
    memcpy(geo.hwloc, t->data, sizeof(geo.hwloc));
    for (int l = 0; l <= TOPO_MAX_LEVEL; l++)
        t->source[l] = TOPO_FROM_HWLOC;
    const char *fx = fixture();
    if (fx && !strcmp(fx, "HWLOC_XMLFILE") && !getenv("HWLOC_CPUID_PATH"))
        snprintf(geo.cpuid_note, sizeof(geo.cpuid_note), "not compared: the topology comes from HWLOC_XMLFILE and "
                 "no CPUID dump (HWLOC_CPUID_PATH) comes with it");
    else
        geo.cpuid_read = !cpu_caches_read(&geo.cpuid, geo.cpuid_note, (int)sizeof(geo.cpuid_note));
    geo.nfindings = geometry_check(geo.hwloc, t->cores, t->pus, geo.cpuid_read ? &geo.cpuid : NULL, geo.findings,
                                   GEOMETRY_MAX_FINDINGS);
    for (int i = 0; i < geo.nfindings; i++)
        geo.implausible[geo.findings[i].level] = true;
    const char *m = mode(), *file = curve_setting();
    if (file)
        curve_file(file);
    if (!strcmp(m, "hwloc")) {
        if (file) {
            apply_curve(false, false);
            size_t used = strlen(geo.note);
            snprintf(geo.note + used, sizeof(geo.note) - used, "; shown beside hwloc's levels, not used: "
                     "PMUCAL_GEOMETRY=hwloc takes hwloc's levels as they are");
        } else {
            snprintf(geo.note, sizeof(geo.note), "not measured: PMUCAL_GEOMETRY=hwloc takes hwloc's levels as they are");
        }
        tried = true;
        return;
    }
    apply_cpuid();
    if (file) {
        /* The recorded curve stands for this host's measurement: it replaces the implausible
         * levels, and where hwloc's are all plausible it is shown beside them (as a cached curve is). */
        bool replace = any_implausible();
        apply_curve(replace, true);
        if (!replace) {
            bool shrunk = false;
            for (int l = 1; l <= TOPO_MAX_LEVEL; l++)
                shrunk |= topo_ref->usable[l] > 0;
            size_t used = strlen(geo.note);
            snprintf(geo.note + used, sizeof(geo.note) - used, "; hwloc's levels pass the checks and are used, %s",
                     shrunk ? "within the usable parts" : "the curve's are shown beside them");
        }
        tried = true;
        return;
    }
    /* A cached curve is shown beside hwloc's levels even where they are plausible. */
    if (!fx)
        cache_path();
    if (strcmp(m, "measure") && geo.cache_file[0] && !cache_read()) {
        apply_curve(true, true);
        tried = true;
    } else if (geo.cache_file[0] && !any_implausible()) {
        /* PMUCAL_GEOMETRY=measure re-measures only what would be measured: said, not dropped. */
        snprintf(geo.note, sizeof(geo.note), "not measured%s: hwloc's levels pass the checks (pmucal info --measure "
                 "measures the curve into %s)", strcmp(m, "measure") ? "" : " though PMUCAL_GEOMETRY=measure",
                 geo.cache_file);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* asked: why the curve is measured where no level of hwloc's is implausible. */
static int measure(const char *asked)
{
    char why[300];
    if (!measurer) {
        snprintf(geo.note, sizeof(geo.note), "not measured: this program has no curve measurement");
        return -1;
    }
    char reason[300];
    snprintf(reason, sizeof(reason), "%s", asked);
    for (int i = 0; i < geo.nfindings; i++)
        if (geo.implausible[geo.findings[i].level]) {
            snprintf(reason, sizeof(reason), "hwloc's L%d is implausible (%s: %s)", geo.findings[i].level,
                     geo.findings[i].reason, geo.findings[i].detail);
            break;
        }
    pm_note("measuring this host's cache levels on the load-latency curve (once per host): %s", reason);
    cpu_set_t saved;
    bool restore = !sched_getaffinity(0, sizeof(saved), &saved);
    double t0 = now();
    int n = -1;
    /* A curve that fails its checks (latency_curve_check: under load) is measured again, never
     * cached or used. */
    for (int attempt = 1; attempt <= GEOMETRY_ATTEMPTS; attempt++) {
        resolving = true;
        n = measurer(geo.points, geo.again, GEOMETRY_MAX_POINTS, why, sizeof(why));
        resolving = false;
        if (n < 4) {
            if (n >= 0)
                snprintf(why, sizeof(why), "fewer than 4 points");
            break;
        }
        char bad[300];
        if (!latency_curve_check(geo.points, n, geo.again, n, bad, sizeof(bad)))
            break;
        snprintf(why, sizeof(why), "the curve failed its checks %d time%s, last: %.200s", attempt, attempt > 1 ? "s" : "",
                 bad);
        pm_note("the load-latency curve fails its checks (%s)%s", bad, attempt < GEOMETRY_ATTEMPTS ? ": measuring it "
                "again" : ": not cached and not used");
        n = -1;
    }
    if (restore)
        sched_setaffinity(0, sizeof(saved), &saved);
    geo.seconds = now() - t0;
    if (n < 4) {
        geo.npoints = 0;
        snprintf(geo.note, sizeof(geo.note), "measuring failed: %s", why);
        return -1;
    }
    geo.npoints = n;
    snprintf(geo.note, sizeof(geo.note), "measured now in %.1f s%s%s", geo.seconds,
             geo.cache_file[0] ? ", cached in " : " (no cache folder: set PMUCAL_CACHE_DIR)", geo.cache_file);
    cache_write();
    apply_curve(true, true);
    return 0;
}

const struct topo *topo_get(void)
{
    static bool applied;
    bool resolved;
    struct topo *t = topo_hwloc(&resolved);
    if (t && !resolved && !applied) {
        applied = true;
        geometry_load(t);
    }
    return t;
}

const struct topo *topo_resolved(void)
{
    const struct topo *t = topo_get();
    if (!t || tried || resolving)
        return t;
    tried = true;
    if (!any_implausible())
        return t;
    const char *fx = fixture();
    if (fx)
        snprintf(geo.note, sizeof(geo.note), "not measured: the topology comes from %s, not from this machine%s", fx,
                 getenv("PMUCAL_CURVE_FILE") ? "" : " (PMUCAL_CURVE_FILE gives a recorded curve)");
    else if (RUNNING_ON_VALGRIND)
        snprintf(geo.note, sizeof(geo.note), "not measured: running under valgrind");
    else
        measure("");
    return t;
}

int geometry_measure_now(void)
{
    if (!topo_get())
        return -1;
    const char *fx = fixture();
    if (fx) {
        pm_error("cannot measure the cache levels of a topology read from %s: it is not this machine; unset %s", fx, fx);
        return -1;
    }
    if (getenv("PMUCAL_CURVE_FILE")) {   /* a setting that contradicts the command: bad input */
        pm_error("cannot measure the cache levels while PMUCAL_CURVE_FILE=%s gives them; unset PMUCAL_CURVE_FILE",
                 getenv("PMUCAL_CURVE_FILE"));
        exit(2);
    }
    tried = true;
    if (!geo.cache_file[0])
        cache_path();
    if (measure("asked for (pmucal info --measure)")) {
        pm_error("%s", geo.note);
        return -1;
    }
    return 0;
}

int geometry_measure_if_unknown(const char *why)
{
    if (!topo_get() || geo.measured || fixture() || RUNNING_ON_VALGRIND || getenv("PMUCAL_CURVE_FILE") ||
        !strcmp(mode(), "hwloc"))
        return 0;
    tried = true;
    if (!geo.cache_file[0])
        cache_path();
    return measure(why);
}
