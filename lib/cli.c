#include "cli.h"
#include "util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct command *table[64];
static int ncommands;

void command_register(const struct command *c)
{
    if (ncommands == (int)ARRAY_SIZE(table) - 1)
        pm_fatal("command table full registering %s", c->name);
    table[ncommands++] = c;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const struct command *const *)a)->name, (*(const struct command *const *)b)->name);
}

const struct command **command_list(void)
{
    qsort(table, ncommands, sizeof(table[0]), by_name);
    table[ncommands] = NULL;
    return table;
}

const struct command *command_find(const char *name)
{
    for (int i = 0; i < ncommands; i++)
        if (!strcmp(table[i]->name, name))
            return table[i];
    return NULL;
}

bool cli_wants_help(const struct command *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: pmucal %s\n\n%s\n\n%s", c->name, c->summary, c->usage ? c->usage : "");
            return true;
        }
    return false;
}

int cli_usage_error(const struct command *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pmucal: error: %s: ", c->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'pmucal %s --help')\n", c->name);
    return 2;
}

const char *cli_opt(int argc, char **argv, int *i, const char *longname, const char *shortname, bool *bad)
{
    const char *a = argv[*i];
    size_t ln = longname ? strlen(longname) : 0;
    if (longname && !strncmp(a, longname, ln) && a[ln] == '=')
        return a + ln + 1;
    if ((longname && !strcmp(a, longname)) || (shortname && !strcmp(a, shortname))) {
        if (*i + 1 >= argc) {
            *bad = true;
            return NULL;
        }
        return argv[++*i];
    }
    return NULL;
}
