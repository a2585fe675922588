/* A calibration's penalties.json found and read: the newest finished one under the results
 * folder, or a named run's (or the file itself), with its run's manifest beside it saying whether
 * it holds penalties at all and whether it ended. What the penalties must hold is checked by
 * their user (penalties/tables.c: penalties_check). */
#include "base/util.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The folder a run's file is in: "." for a bare file name. */
static char *folder_of(const char *file)
{
    char *dir = xstrdup(strrchr(file, '/') ? file : "."), *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    return dir;
}

/* A penalties.json read through the run folder's reader (runs/rundir.h): bounded, never through a
 * link or from a non-regular file. NULL with err naming the file. */
static struct jvalue *penalties_file_read(const char *path, char *err, size_t n)
{
    char *dir = folder_of(path), reason[512], why[256];
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len;
    char *text = run_file_read_max(dir, name, RUN_JSON_MAX, &len, reason, sizeof(reason));
    struct jvalue *v = text ? jread_parse(text, len, why, sizeof(why)) : NULL;
    if (!text)
        snprintf(err, n, "cannot read %s", reason);
    else if (!v)
        snprintf(err, n, "%s: %s", path, why);
    free(text);
    free(dir);
    return v;
}

/* Did the calibration measure only some recipes (calibrate --recipe)? penalties.json says so in
 * "recipes_only"; a run older than that field says so in its command line (--recipe, or a prefix
 * of it down to --rec, as getopt_long takes). */
static bool partial_calibration(const struct jvalue *doc, const struct jvalue *cmd)
{
    const struct jvalue *only = jget(doc, "recipes_only");
    if (only)
        return only->type != J_ARRAY || only->n > 0;
    for (int i = 2; cmd && cmd->type == J_ARRAY && i < cmd->n; i++)
        if (jstr(&cmd->items[i]) && !strncmp(jstr(&cmd->items[i]), "--rec", 5))
            return true;
    return false;
}

/* The run folder of a penalties.json: is it a calibration (by the command its manifest records,
 * whatever its label), did it end (complete, or failed with its checks recorded), did it measure
 * penalties (a --curve run measures none), and every recipe (not calibrate --recipe)? */
static bool finished_with_penalties(const char *penalties, char *why, size_t n)
{
    char err[512], *dir = folder_of(penalties);
    struct jvalue *man = manifest_read(dir, err, sizeof(err)), *doc = penalties_file_read(penalties, err, sizeof(err));
    const struct jvalue *ps = jget(doc, "penalties"), *cmd = jget(man, "command");
    const char *sub = runfile_command(man);
    bool calibration = sub && !strcmp(sub, "calibrate");
    bool ok = calibration && (manifest_complete(man, why, n) || !strcmp(jget_str(man, "status", ""), RUN_FAILED)) &&
              ps && ps->type == J_ARRAY && ps->n > 0 && !partial_calibration(doc, cmd);
    jread_free(man);
    jread_free(doc);
    free(dir);
    return ok;
}

/* The newest run folder that holds a finished calibration with penalties. */
char *penalties_newest_run(void)
{
    const char *base = getenv("PMUCAL_RESULTS") ? getenv("PMUCAL_RESULTS") : "results";
    DIR *d = opendir(base);
    char *best = NULL;
    time_t best_t = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = xasprintf("%s/%s/penalties.json", base, e->d_name), why[256];
        struct stat st;
        if (!stat(p, &st) && (!best || st.st_mtime >= best_t) && finished_with_penalties(p, why, sizeof(why))) {
            free(best);
            best = p;
            best_t = st.st_mtime;
        } else {
            free(p);
        }
    }
    if (d)
        closedir(d);
    if (!best)
        pm_error("no finished calibration of every recipe under %s/ (a folder whose manifest records 'pmucal "
                 "calibrate' and says complete or failed, not a --curve-only or --recipe run); run 'pmucal calibrate' "
                 "or name the run folder", base);
    return best;
}

/* The run of a penalties.json by its manifest: a 'calibrate --source sim' run is always refused,
 * one that did not end unless allowed. A penalties.json on its own (no manifest beside it) is
 * taken as it is; a damaged manifest is not. */
static bool refuse_run(const char *path, bool allow_incomplete)
{
    char *dir = folder_of(path), *m = xasprintf("%s/manifest.json", dir), why[256];
    struct jvalue *man = NULL;
    struct stat st;
    bool stop = !lstat(m, &st) && !(man = manifest_load(dir));
    const char *status = jget_str(man, "status", "unknown"), *src = jget_str(man, "source", NULL);
    const struct jvalue *cmd = jget(man, "command");
    const char *sub = cmd && cmd->type == J_ARRAY && cmd->n > 1 ? jstr(&cmd->items[1]) : NULL;
    if (!stop && src && strcmp(src, "perf") && sub && !strcmp(sub, "calibrate")) {
        /* It checks the models' occurrence counts: no penalties by design. */
        pm_error("%s: a 'calibrate --source %s' run: it checks the models' occurrence counts and holds no "
                 "penalties; name a run of 'pmucal calibrate' (--source perf)", m, src);
        stop = true;
    } else if (!stop && man && !manifest_complete(man, why, sizeof(why)) && strcmp(status, "unknown")) {
        if (!strcmp(status, RUN_FAILED))
            pm_warn("%s: %s; its penalties carry their own status (only 'ok' ones become constants)", m, why);
        else if (!allow_incomplete) {
            pm_error("%s: %s; its penalties may be partial: give --allow-incomplete to use them anyway", m, why);
            stop = true;
        }
    }
    jread_free(man);
    free(m);
    free(dir);
    return stop;
}

struct jvalue *penalties_json_read(const char *run, bool allow_incomplete, char **path_out)
{
    struct stat st;
    char *path = !run ? penalties_newest_run()
               : !stat(run, &st) && S_ISDIR(st.st_mode) ? xasprintf("%s/penalties.json", run) : xstrdup(run);
    *path_out = path;
    if (!path || refuse_run(path, allow_incomplete))
        return NULL;
    char err[768];
    struct jvalue *doc = penalties_file_read(path, err, sizeof(err));
    if (!doc)
        pm_error("%s", err);
    return doc;
}
