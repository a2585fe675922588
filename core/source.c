#include "core/source.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const noise_name[NOISE_COUNT] = {"context-switches", "cpu-migrations", "page-faults"};
const char *const fixed_name[FIXED_COUNT] = {"cycles", "instructions", "ref-cycles"};

void group_reading_take_times(struct group_reading *r, unsigned member, uint64_t enabled, uint64_t running)
{
    /* running/enabled below the least so far, compared without dividing by a zero enabled */
    bool less = (double)running * (double)r->time_enabled < (double)r->time_running * (double)enabled;
    if (member == 0 || (enabled > 0 && less)) {
        r->time_enabled = enabled;
        r->time_running = running;
    }
}

static const struct source *sources[16];
static int nsources;

void source_register(const struct source *s)
{
    if (nsources == (int)ARRAY_SIZE(sources) - 1)
        pm_fatal("source table full registering %s", s->name);
    sources[nsources++] = s;
}

const struct source *source_find(const char *name)
{
    for (int i = 0; i < nsources; i++)
        if (!strcmp(sources[i]->name, name))
            return sources[i];
    return NULL;
}

const struct source *source_select(const char *spec)
{
    size_t len = strcspn(spec, ":");
    char *name = strndup(spec, len);
    const struct source *s = source_find(name);
    if (!s) {
        char names[256] = "";
        for (int i = 0; i < nsources; i++)
            if (!sources[i]->test_only)
                snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", names[0] ? ", " : "",
                         sources[i]->name);
        pm_error("unknown counter source '%s'; the sources are: %s", name, names);
    } else if (spec[len] && !s->configure) {
        pm_error("--source %s: the %s source takes no argument after ':'", spec, name);
        s = NULL;
    } else if (s->configure) {
        char err[512] = "";
        s = s->configure(spec[len] ? spec + len + 1 : "", err, sizeof(err));
        if (!s)
            pm_error("--source %s: %s", spec, err);
    }
    free(name);
    return s;
}

const struct source **source_list(void)
{
    sources[nsources] = NULL;
    return sources;
}

void event_spec_clear(struct event_spec *s)
{
    free(s->name);
    free(s->canonical);
    free(s->unsupported);
    memset(s, 0, sizeof(*s));
}

const char *source_unjudged_why(const struct source *s, const char *event)
{
    for (int i = 0; s->unjudged && event && s->unjudged[i].event; i++)
        if (!strcasecmp(s->unjudged[i].event, event))
            return s->unjudged[i].why;
    return NULL;
}

double source_zero_most(const struct source *s, const char *event, double threads)
{
    for (int i = 0; s->deterministic && s->zero_most && event && s->zero_most[i].event; i++)
        if (!strcmp(s->zero_most[i].event, event))
            return s->zero_most[i].most + (threads > 1 ? threads - 1 : 0) * s->zero_most[i].per_member;
    return NAN;
}
