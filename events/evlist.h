/* Event lists: "all" (every event and unit mask of a PMU), a file (one event a line, '#' comments,
 * libpfm4 modifiers such as :c=1:i=1:e=1:u:k), or a comma-separated list. */
#ifndef PMUCAL_EVLIST_H
#define PMUCAL_EVLIST_H
#include <stdbool.h>

struct evlist {
    char **name;
    char **where;     /* "FILE:LINE", or "-e" for a comma list, or "all PMU" */
    int *group;       /* perf's {a,b,c}: the 1-based group an event must be measured in, 0 none */
    int n, groups;
};

/* Parse the text of a list file. -1 with one message "ORIGIN:LINE: what, and the fix". */
int evlist_parse(struct evlist *l, const char *text, const char *origin);
int evlist_load(struct evlist *l, const char *path);
/* Every event and unit mask libpfm4 knows for pmu (NULL: the host's core PMU). */
int evlist_all(struct evlist *l, const char *pmu);
/* The -e/--events argument: "all", a file (an existing file, or a path with '/' that is not perf
 * syntax), or a list: comma-separated, perf's {a,b,c} groups and cpu/event=0x../ allowed. */
int evlist_from_arg(struct evlist *l, const char *arg, const char *pmu);
/* Does -e ARG name a list file (an existing regular file, or a path with '/' that is not perf
 * syntax)? */
bool evlist_arg_is_file(const char *arg);
/* -e ARG as a list or 'all' only, never a file (a resumed run's recorded -e: its list file is
 * read from the copy the run folder keeps). */
int evlist_from_list(struct evlist *l, const char *arg, const char *pmu);
void evlist_add(struct evlist *l, const char *name, const char *where);
void evlist_add_grouped(struct evlist *l, const char *name, const char *where, int group);
/* The list as list-file text (docs/grammar.md): an event outside groups a line, each {...} group
 * a line of its own; parsed again it gives the same events in the same groups. Caller frees. */
char *evlist_text(const struct evlist *l);
void evlist_free(struct evlist *l);

#endif
