#include "source.h"
#include "util.h"
#include <stdlib.h>
#include <string.h>

const char *const noise_name[NOISE_COUNT] = {"context-switches", "cpu-migrations", "page-faults"};
const char *const fixed_name[FIXED_COUNT] = {"cycles", "instructions", "ref-cycles"};

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
