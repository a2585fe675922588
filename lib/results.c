#include "results.h"
#include "util.h"
#include "version.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int mkdir_p(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) && errno != EEXIST) {
                free(p);
                return -1;
            }
            *s = '/';
        }
    int rc = mkdir(p, 0755);
    free(p);
    return rc;
}

static int open_files(struct run_dir *r)
{
    char *m = xasprintf("%s/measurements.ndjson", r->path), *t = xasprintf("%s/validate.tap", r->path);
    r->measurements = fopen(m, "a");
    r->tap = fopen(t, "a");
    int rc = r->measurements && r->tap ? 0 : -1;
    if (rc)
        pm_error("cannot write in %s: %s", r->path, strerror(errno));
    free(m);
    free(t);
    return rc;
}

static bool has_control_char(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

int run_dir_create(struct run_dir *r, const char *base, const char *label)
{
    memset(r, 0, sizeof(*r));
    const char *from = base ? "--out" : "$PMUCAL_RESULTS";
    if (!base)
        base = getenv("PMUCAL_RESULTS") ? getenv("PMUCAL_RESULTS") : "results";
    if (!*base) {
        pm_error("%s is empty; name the folder for results (unset PMUCAL_RESULTS for ./results)", from);
        return -1;
    }
    if (has_control_char(base)) {
        pm_error("%s holds a control character (a newline?); name a folder without one", from);
        return -1;
    }
    /* The label is one path component inside base: no '/', nothing '..' could climb with. */
    if (!*label || strchr(label, '/') || has_control_char(label)) {
        pm_error("--label '%s': a label is one folder name: not empty, no '/', no control characters",
                 has_control_char(label) ? "(with a control character)" : label);
        return -1;
    }
    char host[64] = "host", date[16];
    gethostname(host, sizeof(host) - 1);
    host[strcspn(host, ".")] = '\0';
    time_t now = time(NULL);
    strftime(date, sizeof(date), "%Y-%m-%d", localtime(&now));
    for (int n = 1; n < 1000; n++) {
        free(r->path);
        r->path = n == 1 ? xasprintf("%s/%s-%s-%s", base, date, host, label)
                         : xasprintf("%s/%s-%s-%s-%d", base, date, host, label, n);
        if (mkdir_p(r->path) == 0)
            return open_files(r);
        if (errno != EEXIST)
            break;
    }
    pm_error("cannot create the results folder %s: %s; set PMUCAL_RESULTS or --out to a writable folder",
             r->path, strerror(errno));
    return -1;
}

int run_dir_open(struct run_dir *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    struct stat st;
    if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
        pm_error("%s is not a results folder of an earlier run", path);
        return -1;
    }
    r->path = xstrdup(path);
    return open_files(r);
}

int run_dir_write(const struct run_dir *r, const char *name, const struct json *j)
{
    char *p = xasprintf("%s/%s", r->path, name), *tmp = xasprintf("%s/.%s.tmp", r->path, name);
    FILE *f = fopen(tmp, "w");
    int rc = f ? json_write_line(j, f) : -1;
    if (f && (fsync(fileno(f)) || fclose(f)))
        rc = -1;
    if (!rc && rename(tmp, p))
        rc = -1;
    if (rc) {
        pm_error("cannot write %s: %s", p, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    free(p);
    return rc;
}

void run_dir_manifest_begin(struct run_dir *r, int argc, char **argv)
{
    if (r->has_manifest)
        json_free(&r->manifest);
    json_init(&r->manifest);
    r->has_manifest = true;
    json_object_begin(&r->manifest, NULL);
    manifest_head(&r->manifest, argc, argv);
}

int run_dir_manifest(struct run_dir *r, const char *status, const char *why)
{
    if (!r->has_manifest)
        pm_fatal("run_dir_manifest before run_dir_manifest_begin");
    /* A copy gets the closing members, so the next call starts from the same members again. */
    struct json j = r->manifest;
    j.buf = xmalloc(j.cap);
    memcpy(j.buf, r->manifest.buf, j.len + 1);
    char now[32];
    json_string(&j, "status", status);
    if (strcmp(status, RUN_RUNNING))
        json_string(&j, "ended", iso_now(now));
    if (why)
        json_string(&j, "status_reason", why);
    json_object_end(&j);
    int rc = run_dir_write(r, "manifest.json", &j);
    json_free(&j);
    return rc;
}

int run_dir_close(struct run_dir *r)
{
    int rc = 0;
    if (r->measurements && (ferror(r->measurements) | fclose(r->measurements)))
        rc = -1;
    if (r->tap && (ferror(r->tap) | fclose(r->tap)))
        rc = -1;
    if (rc)
        pm_error("writing the files of %s failed (disk full?); what it holds may be cut short", r->path);
    if (r->has_manifest)
        json_free(&r->manifest);
    free(r->path);
    memset(r, 0, sizeof(*r));
    return rc;
}

char *iso_now(char buf[32])
{
    time_t now = time(NULL);
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    return buf;
}

void manifest_head(struct json *j, int argc, char **argv)
{
    char date[32];
    json_string(j, "pmucal", PMUCAL_VERSION);
    json_string(j, "pmucal_commit", pmucal_commit());
    json_string(j, "date", iso_now(date));
    json_string(j, "started", date);
    json_array_begin(j, "command");
    json_string(j, NULL, "pmucal");
    for (int i = 0; i < argc; i++)
        json_string(j, NULL, argv[i]);
    json_array_end(j);
}

bool manifest_complete(const struct jvalue *manifest, char *why, size_t n)
{
    const char *status = jget_str(manifest, "status", "unknown");
    if (!strcmp(status, RUN_COMPLETE))
        return true;
    const char *reason = jget_str(manifest, "status_reason", NULL);
    if (!strcmp(status, RUN_RUNNING))
        snprintf(why, n, "its manifest still says running: the run is going on, or its process died");
    else if (!strcmp(status, "unknown"))
        snprintf(why, n, "its manifest has no status (written before pmucal recorded one)");
    else
        snprintf(why, n, "it is %s%s%s", status, reason ? ": " : "", reason ? reason : "");
    return false;
}
