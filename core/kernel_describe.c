/* A kernel described for a reader (core/kernel_describe.h). */
#include "core/kernel_describe.h"
#include <stdio.h>

void kernel_print(const struct kernel *k)
{
    printf("%s: %s\n", k->name, k->summary);
    printf("  defined in %s\n", kernel_file(k));
    for (int i = 0; k->params[i].name; i++) {
        const struct param *p = &k->params[i];
        printf("  %-12s default %-8s %s%s%s%s%s\n", p->name, p->def, p->help, p->choices ? "; one of " : "",
               p->choices ? p->choices : "", p->range ? "; domain " : "", p->range ? p->range : "");
    }
    if (k->matrix) {
        printf("  default validation cases:\n");
        for (int r = 0; k->matrix[r]; r++)
            printf("    %s %s\n", k->name, k->matrix[r]);
    }
}

void kernel_json(struct json *j, const struct kernel *k)
{
    json_object_begin(j, NULL);
    json_string(j, "name", k->name);
    json_string(j, "summary", k->summary);
    json_string(j, "file", kernel_file(k));
    json_array_begin(j, "params");
    for (int i = 0; k->params[i].name; i++) {
        const struct param *p = &k->params[i];
        json_object_begin(j, NULL);
        json_string(j, "name", p->name);
        json_string(j, "default", p->def);
        json_string(j, "help", p->help);
        json_string(j, "choices", p->choices);
        json_string(j, "range", p->range);
        json_object_end(j);
    }
    json_array_end(j);
    json_array_begin(j, "cases");
    for (int r = 0; k->matrix && k->matrix[r]; r++)
        json_string(j, NULL, k->matrix[r]);
    json_array_end(j);
    json_object_end(j);
}
