/* The one check of an output a user names against the command's inputs (runs/outputs.h). A run
 * folder's files are the run's record: 'export -o RUN/manifest.json RUN' wrote the export over the
 * manifest it was reading, and 'code T.txt --output T.txt' replaced the only copy of the table. */
#include "runs/outputs.h"
#include "base/util.h"
#include "runs/runfile.h"
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Does the folder dir hold a run? Its manifest.json is read as every command reads one: a
 * manifest recording a pmucal command, or one that is damaged (not JSON, not an object, a link,
 * a folder, out of range), marks a run; a JSON object of another program (a web app's
 * manifest.json) does not. */
static bool is_run_folder(const char *dir)
{
    char *m = xasprintf("%s%smanifest.json", dir, dir[1] ? "/" : ""), err[512];
    struct stat st;
    bool there = !lstat(m, &st);
    free(m);
    if (!there)
        return false;
    struct jvalue *manifest = manifest_read(dir, err, sizeof(err));
    bool run = !manifest || manifest->type != J_OBJECT || runfile_command(manifest);
    jread_free(manifest);
    return run;
}

/* The innermost run folder at or above the folder dir (resolved through links; dir must exist)
 * into run (n bytes); false when none. */
static bool run_folder_around(const char *dir, char *run, size_t n)
{
    char *p = realpath(dir, NULL);
    bool found = false;
    while (p && !found) {
        found = is_run_folder(p);
        if (found) {
            snprintf(run, n, "%s", p);
        } else {
            char *s = strrchr(p, '/');
            if (!s || !p[1])
                break;
            s[s == p] = '\0';   /* "/a" becomes "/", "/a/b" "/a" */
        }
    }
    free(p);
    return found;
}

/* The folder a file at path is written in: what precedes its last '/', "." when none. */
static char *folder_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return !s ? xstrdup(".") : s == path ? xstrdup("/") : xasprintf("%.*s", (int)(s - path), path);
}

static bool same_file(const char *word, const struct stat *out)
{
    struct stat st;
    return *word && !stat(word, &st) && st.st_dev == out->st_dev && st.st_ino == out->st_ino;
}

/* The word of args naming the file out is (NULL: none): an argument whole, or the VALUE of any of
 * its whitespace-separated KEY=VALUE words (--opt=VALUE, a case's file=X). */
static const char *named_as(int nargs, char *const *args, const char *self, const struct stat *out, char **word)
{
    for (int i = 1; i < nargs; i++) {
        const char *a = args[i];
        uintptr_t at = (uintptr_t)self, from = (uintptr_t)a;
        if (at >= from && at <= from + strlen(a))   /* the output's own value: "--out F", "--out=F", "-oF" */
            continue;
        if (same_file(a, out))
            return a;
        char *copy = xstrdup(a), *save = NULL;
        for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
            for (char *eq = strchr(w, '='); eq; eq = strchr(eq + 1, '='))
                if (same_file(eq + 1, out)) {
                    *word = xstrdup(eq + 1);
                    free(copy);
                    return *word;
                }
        free(copy);
    }
    return NULL;
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a folder" : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : NULL;
}

#define RUN_FOLDER_RULE "(it holds manifest.json), whose files only the command that measures it writes"

/* The outputs the command line's check let through: checked again when written (run_out_user). */
static char **passed;
static int npassed;

bool run_output_passed(const char *path)
{
    for (int i = 0; i < npassed; i++)
        if (!strcmp(passed[i], path))
            return true;
    return false;
}

bool run_output_refused(const char *path, int nargs, char *const *args, const char *self, char *why, size_t n)
{
    struct stat lst, st;
    bool exists = !lstat(path, &lst), target = exists && !stat(path, &st);
    const char *kind = target ? kind_of(st.st_mode) : NULL;
    if (kind) {
        snprintf(why, n, "%s, not a regular file; name a file%s", kind, S_ISDIR(st.st_mode) ? " in it" : "");
        return true;
    }
    char *dir = folder_of(path), run[PATH_MAX];
    struct stat dst;
    bool refused = true;
    int bad = stat(dir, &dst) ? errno : S_ISDIR(dst.st_mode) ? 0 : ENOTDIR;
    if (bad) {
        snprintf(why, n, "no folder %s to write it in (%s); make it first, or name another file", dir,
                 strerror(bad));
    } else if (run_folder_around(dir, run, sizeof(run))) {
        snprintf(why, n, "inside the run folder %s " RUN_FOLDER_RULE "; write it outside that folder", run);
    } else {
        char *to = exists && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
        char *to_dir = to ? folder_of(to) : NULL, *word = NULL;
        const char *input;
        if (to_dir && run_folder_around(to_dir, run, sizeof(run)))
            snprintf(why, n, "a link to %s, inside the run folder %s " RUN_FOLDER_RULE "; write it outside that folder",
                     to, run);
        else if (target && (input = named_as(nargs, args, self, &st, &word)))
            snprintf(why, n, "the same file as '%s' on the command line: an output never replaces a file the "
                     "command names; name another file", input);
        else
            refused = false;
        free(word);
        free(to_dir);
        free(to);
    }
    free(dir);
    if (!refused && self && !run_output_passed(path)) {
        passed = xrealloc(passed, sizeof(*passed) * (size_t)(npassed + 1));
        passed[npassed++] = xstrdup(path);
    }
    return refused;
}

bool run_parent_refused(const char *dir, char *why, size_t n)
{
    char *p = xstrdup(dir), run[PATH_MAX];
    struct stat st;
    /* The folder need not exist yet (the run makes it): its nearest ancestor that does decides. */
    while (stat(p, &st)) {
        char *up = folder_of(p);
        bool top = !strcmp(up, p);
        free(p);
        p = up;
        if (top)
            break;
    }
    bool refused = run_folder_around(p, run, sizeof(run));
    if (refused)
        snprintf(why, n, "inside the run folder %s " RUN_FOLDER_RULE "; a new run folder goes outside any other: "
                 "name another folder", run);
    free(p);
    return refused;
}
