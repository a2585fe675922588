#include "runs/session.h"
#include "base/stop.h"
#include "base/util.h"
#include "runs/hostfacts.h"
#include <stdio.h>
#include <string.h>

void session_init(struct session *s, const char *command, int argc, char **argv)
{
    memset(s, 0, sizeof(*s));
    s->command = command;
    s->argc = argc;
    s->argv = argv;
    s->cpu = -1;
}

int session_foreign_command(const struct session *s)
{
    pm_error("--resume %s: its command (manifest.json \"command\") is not one this build takes", s->rs.run);
    return 2;
}

int session_resume(struct session *s, const char *run, const struct session_resumer *how, void *args)
{
    /* Now, not only in session_open: a command's hooks and its own resume steps rewrite the
     * folder's records before it is reopened, and a stop during that must find the handlers. */
    stop_install_handlers();
    if (resume_open(&s->rs, run, s->command))
        return 2;
    s->argc = s->rs.argc;
    s->argv = s->rs.argv;
    int rc = how->records ? how->records(&s->rs) : 0;
    if (rc)
        return rc;
    if (how->reparse(args, s->rs.argc, s->rs.argv))
        return session_foreign_command(s);
    return how->check ? how->check(args, s) : 0;
}

int session_open(struct session *s, const char *out, const char *label)
{
    stop_install_handlers();
    if (session_resuming(s) ? run_dir_open(&s->dir, s->rs.run) : run_dir_create(&s->dir, out, label)) {
        if (s->dir.path)
            run_dir_close(&s->dir);
        return 2;
    }
    if (session_resuming(s)) {
        const char *started = jget_str(s->rs.manifest, "started", NULL);
        s->dir.started = started ? xstrdup(started) : NULL;
    }
    run_dir_manifest_begin(&s->dir, s->argc, s->argv);
    s->tap = (struct tap){.out = stdout, .copy = s->dir.tap};
    return 0;
}

int session_start(struct session *s)
{
    host_facts_json(&s->dir.manifest);
    if (session_resuming(s))
        resume_manifest(&s->rs, &s->dir.manifest);
    return run_dir_manifest(&s->dir, RUN_RUNNING, NULL) ? -1 : 0;
}

void session_measure_cpu(struct session *s, int cpu, bool asked, double busy_before)
{
    cpuload_json(&s->dir.manifest, cpu, asked, busy_before);
    s->cpu = cpuload_read(cpu, &s->cpu_start) ? -1 : cpu;
}

static void cpu_load_over_run(struct session *s)
{
    if (s->cpu >= 0)
        cpuload_json_during(&s->dir.manifest, s->cpu, &s->cpu_start);
}

int session_stopped(struct session *s, const char *why)
{
    cpu_load_over_run(s);
    run_dir_manifest(&s->dir, RUN_INTERRUPTED, why);
    run_dir_close(&s->dir);
    return 128 + stop_signal_number;
}

int session_end(struct session *s, int status, const char *failed)
{
    cpu_load_over_run(s);
    if (run_dir_manifest(&s->dir, failed ? RUN_FAILED : RUN_COMPLETE, failed))
        status = status ? status : 1;
    if (run_dir_close(&s->dir))
        status = status ? status : 1;
    return status;
}

void session_free(struct session *s)
{
    resume_free(&s->rs);
}
