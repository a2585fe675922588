#include "runs/kcidb.h"
#include "base/json.h"
#include "base/util.h"
#include "runs/ktap.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* KCIDB's status of a verdict: a TODO point (an unstable figure) did not give a result. */
static const char *status_of(enum verdict k)
{
    return k == VERDICT_OK ? "PASS" : k == VERDICT_NOT_OK ? "FAIL" : k == VERDICT_SKIP ? "SKIP" : k == VERDICT_TODO ? "ERROR" : "DONE";
}

/* The manifest's time as RFC 3339 wants it: "+0000" becomes "+00:00". Caller frees; NULL for NULL. */
static char *rfc3339(const char *t)
{
    size_t n = t ? strlen(t) : 0;
    if (n > 5 && (t[n - 5] == '+' || t[n - 5] == '-') && strspn(t + n - 4, "0123456789") == 4)
        return xasprintf("%.*s:%s", (int)(n - 2), t, t + n - 2);
    return t ? xstrdup(t) : NULL;
}

/* What the run ran on, as every test's environment. */
static void environment(struct json *j, const struct jvalue *m)
{
    const struct jvalue *cpu = jget(m, "cpu"), *sw = jget(m, "software");
    char *brand = xstrdup(jget_str(cpu, "brand", "unknown CPU"));
    for (size_t n = strlen(brand); n && brand[n - 1] == ' '; n--)
        brand[n - 1] = '\0';
    char *comment = xasprintf("%s (%s), Linux %s, %s, libpfm4 %s", brand, jget_str(cpu, "id", "?"),
                              jget_str(sw, "linux_kernel", "?"), jget_str(sw, "perf", "perf ?"), jget_str(sw, "libpfm4", "?"));
    json_object_begin(j, "environment");
    json_string(j, "comment", comment);
    json_object_begin(j, "misc");
    json_string(j, "cpu_model", brand);
    json_string(j, "cpu_id", jget_str(cpu, "id", NULL));
    json_string(j, "hostname", jget_str(m, "hostname", NULL));
    json_string(j, "kernel", jget_str(sw, "linux_kernel", NULL));   /* KCIDB's word: only the Linux kernel is meant */
    json_string(j, "perf", jget_str(sw, "perf", NULL));
    json_string(j, "libpfm4", jget_str(sw, "libpfm4", NULL));
    json_string(j, "source", jget_str(m, "source", NULL));
    json_object_end(j);
    json_object_end(j);
    free(comment);
    free(brand);
}

/* The path of a verdict: pmucal.<command>.<case>.<event>, or .<name> for one of the whole run. */
static char *path_of(const char *top, const struct vcell *c)
{
    if (c->case_label && c->event) {
        char *cs = ktap_name(c->case_label), *ev = ktap_name(c->event);
        char *p = xasprintf("%s.%s.%s", top, cs, ev);
        free(cs);
        free(ev);
        return p;
    }
    const char *colon = strstr(c->text, ": "), *dir = strstr(c->text, " # ");
    const char *end = colon && (!dir || colon < dir) ? colon : dir ? dir : c->text + strlen(c->text);
    char *name = xasprintf("%.*s", (int)(end - c->text), c->text), *n = ktap_name(name);
    char *p = xasprintf("%s.%s", top, n);
    free(name);
    free(n);
    return p;
}

/* The Linux kernel the run measured on (the manifest's "linux_kernel" object, host/kpmu.h), as the
 * checkout's and build's misc: a Linux kernel regression check's report is about it. */
static void kernel_misc(struct json *j, const struct jvalue *k)
{
    json_object_begin(j, "misc");
    json_string(j, "kernel_release", jget_str(k, "release", NULL));
    json_string(j, "kernel_version", jget_str(k, "version", NULL));
    json_string(j, "package", jget_str(k, "package", NULL));
    json_string(j, "flavour", jget_str(k, "flavour", NULL));
    json_string(j, "cmdline", jget_str(k, "cmdline", NULL));
    json_string(j, "pmu", jget_str(jget(k, "pmu"), "name", NULL));
}

/* KCIDB's architecture names are the kernel's ARCH, not uname's machine. */
static const char *kernel_arch(const char *machine)
{
    return !machine ? NULL : !strcmp(machine, "aarch64") ? "arm64" : !strcmp(machine, "x86_64") ? "x86_64" : machine;
}

int kcidb_write(FILE *out, const struct runfile *r)
{
    const struct jvalue *m = r->manifest, *cmd = jget(m, "command");
    const char *sub = cmd && cmd->type == J_ARRAY && cmd->n > 1 ? jstr(&cmd->items[1]) : NULL;
    char *top_name = ktap_name(sub ? sub : "run"), *top = xasprintf("pmucal.%s", top_name);
    const char *base = strrchr(r->path, '/') ? strrchr(r->path, '/') + 1 : r->path;
    /* One run is one checkout and one build (its host and pmucal's commit): ids unique per run. */
    char *run_id = xasprintf("pmucal:%s:%s:%s", jget_str(m, "hostname", "host"), base, jget_str(m, "started", "?"));
    char *started = rfc3339(jget_str(m, "started", NULL));
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    json_object_begin(&j, "version");
    json_int(&j, "major", 5);
    json_int(&j, "minor", 3);
    json_object_end(&j);
    json_array_begin(&j, "checkouts");
    json_object_begin(&j, NULL);
    json_string(&j, "id", run_id);
    json_string(&j, "origin", "pmucal");
    json_string(&j, "start_time", started);
    /* A run whose manifest describes its Linux kernel (kernel-check) reports on it: the checkout
     * and build are that kernel's; an older run's are the host pmucal measured. */
    const struct jvalue *k = jget(m, "linux_kernel");
    const char *release = jget_str(k, "release", NULL), *pkg = jget_str(k, "package", NULL);
    char *kernel_comment = !release ? NULL : pkg ? xasprintf("Linux %s (%s), Debian package %s", release,
                                                             jget_str(k, "version", "?"), pkg)
                                                 : xasprintf("Linux %s (%s)", release, jget_str(k, "version", "?"));
    json_string(&j, "comment", kernel_comment ? kernel_comment
                                              : "the host a pmucal run measured (pmucal tests hardware event counting, not a kernel tree)");
    if (release) {
        kernel_misc(&j, k);
        json_object_end(&j);
    }
    json_object_end(&j);
    json_array_end(&j);
    json_array_begin(&j, "builds");
    json_object_begin(&j, NULL);
    json_string(&j, "id", run_id);
    json_string(&j, "checkout_id", run_id);
    json_string(&j, "origin", "pmucal");
    if (release) {
        json_string(&j, "comment", kernel_comment);
        /* KCIDB takes no null for these: absent when the manifest does not say. */
        const char *arch = kernel_arch(jget_str(k, "machine", NULL)), *flavour = jget_str(k, "flavour", NULL);
        if (arch)
            json_string(&j, "architecture", arch);
        if (flavour)
            json_string(&j, "config_name", flavour);
        kernel_misc(&j, k);
    } else {
        json_string(&j, "comment", jget_str(m, "pmucal_commit", NULL) ? "pmucal's build (misc.pmucal_commit)" : NULL);
        json_object_begin(&j, "misc");
    }
    free(kernel_comment);
    json_string(&j, "pmucal", jget_str(m, "pmucal", NULL));
    json_string(&j, "pmucal_commit", jget_str(m, "pmucal_commit", NULL));
    json_object_end(&j);
    json_object_end(&j);
    json_array_end(&j);
    json_array_begin(&j, "tests");
    for (int i = 0, n = 0; i < r->ncells; i++) {
        const struct vcell *c = &r->cells[i];
        char *id = xasprintf("%s:%d", run_id, ++n), *path = path_of(top, c);
        json_object_begin(&j, NULL);
        json_string(&j, "id", id);
        json_string(&j, "build_id", run_id);
        json_string(&j, "origin", "pmucal");
        json_string(&j, "path", path);
        json_string(&j, "status", status_of(c->kind));
        json_string(&j, "start_time", started);
        json_string(&j, "log_excerpt", c->text);
        if (isfinite(c->measured) && c->kind != VERDICT_SKIP) {
            json_object_begin(&j, "number");
            json_number(&j, "value", c->measured);
            json_object_end(&j);
        }
        environment(&j, m);
        json_object_end(&j);
        free(id);
        free(path);
    }
    json_array_end(&j);
    json_object_end(&j);
    int rc = json_write_line(&j, out);
    json_free(&j);
    free(run_id);
    free(started);
    free(top);
    free(top_name);
    return rc || ferror(out) ? -1 : 0;
}
