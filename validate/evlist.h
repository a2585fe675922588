/* Event lists: "all" (every event and unit mask of a PMU), a file (one event a line, '#' comments,
 * libpfm4 modifiers such as :c=1:i=1:e=1:u:k), or a comma-separated list. */
#ifndef PMUCAL_EVLIST_H
#define PMUCAL_EVLIST_H

struct evlist {
    char **name;
    char **where;     /* "FILE:LINE", or "-e" for a comma list, or "all PMU" */
    int n;
};

/* Parse the text of a list file. -1 with one message "ORIGIN:LINE: what, and the fix". */
int evlist_parse(struct evlist *l, const char *text, const char *origin);
int evlist_load(struct evlist *l, const char *path);
/* Every event and unit mask libpfm4 knows for pmu (NULL: the host's core PMU). */
int evlist_all(struct evlist *l, const char *pmu);
/* The -e/--events argument: "all", a file (a path with '/' or an existing file), or a list. */
int evlist_from_arg(struct evlist *l, const char *arg, const char *pmu);
void evlist_add(struct evlist *l, const char *name, const char *where);
void evlist_free(struct evlist *l);

#endif
