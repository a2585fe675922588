#include "runs/rundir.h"
#include "base/util.h"
#include "base/version.h"
#include "runs/hostfacts.h"
#include <errno.h>
#include <stdint.h>
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

static int open_files(struct run_dir *r, const char *tap_mode)
{
    r->measurements = run_file_open(r->path, "measurements.ndjson", "a");
    r->tap = r->measurements ? run_file_open(r->path, "validate.tap", tap_mode) : NULL;
    return r->measurements && r->tap ? 0 : -1;
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
        if (mkdir_p(r->path) == 0) {
            if (run_folder_hold(r->path))
                return -1;
            r->held = true;
            /* Locked before anything is in it: a --resume of it waits for this process's end. */
            r->locked = run_dir_lock(r->path, &r->lock_fd) == 0;
            return r->locked ? open_files(r, "a") : -1;
        }
        if (errno != EEXIST)
            break;
    }
    pm_error("cannot create the run folder %s: %s; set PMUCAL_RESULTS or --out to a writable folder",
             r->path, strerror(errno));
    return -1;
}

int run_dir_open(struct run_dir *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    struct stat st;
    if (lstat(path, &st) || !S_ISDIR(st.st_mode)) {
        pm_error("%s is not a run folder of an earlier run", path);
        return -1;
    }
    r->path = xstrdup(path);
    if (run_folder_hold(r->path))
        return -1;
    r->held = true;
    return open_files(r, "w");
}

int run_file_write(const char *dir, const char *name, const char *text, size_t len)
{
    struct run_out o;
    FILE *f = run_out_begin(&o, dir, name);
    if (!f)
        return -1;
    if (fwrite(text, 1, len, f) != len) {
        pm_error("cannot write %s: %s", o.path, strerror(errno));
        run_out_abort(&o);
        return -1;
    }
    return run_out_commit(&o);
}

int run_file_write_json(const char *dir, const char *name, const struct json *j)
{
    char *line = xasprintf("%s\n", j->buf);
    int rc = run_file_write(dir, name, line, j->len + 1);
    free(line);
    return rc;
}

int run_dir_write(const struct run_dir *r, const char *name, const struct json *j)
{
    return run_file_write_json(r->path, name, j);
}

void run_dir_manifest_begin(struct run_dir *r, int argc, char **argv)
{
    if (r->has_manifest)
        json_free(&r->manifest);
    json_init(&r->manifest);
    r->has_manifest = true;
    json_object_begin(&r->manifest, NULL);
    manifest_head(&r->manifest, argc, argv, r->started);
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
    if (r->locked)
        close(r->lock_fd);   /* the lock goes with it */
    if (r->held)
        run_folder_release(r->path);
    if (rc)
        pm_error("writing the files of %s failed (disk full?); what it holds may be cut short", r->path);
    if (r->has_manifest)
        json_free(&r->manifest);
    free(r->path);
    free(r->started);
    memset(r, 0, sizeof(*r));
    return rc;
}

void manifest_head(struct json *j, int argc, char **argv, const char *started)
{
    char date[32], boot[64], cwd[4096];
    json_string(j, "pmucal", PMUCAL_VERSION);
    json_string(j, "pmucal_commit", pmucal_commit());
    json_string(j, "date", started ? started : iso_now(date));
    json_string(j, "started", started ? started : date);
    json_array_begin(j, "command");
    json_string(j, NULL, "pmucal");
    for (int i = 0; i < argc; i++)
        json_string(j, NULL, argv[i]);
    json_array_end(j);
    json_string(j, "cwd", getcwd(cwd, sizeof(cwd)) ? cwd : NULL);
    json_int(j, "pid", getpid());
    host_boot_id(boot, sizeof(boot));
    json_string(j, "boot_id", boot[0] ? boot : NULL);
}
