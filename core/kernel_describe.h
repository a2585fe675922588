/* A kernel described as 'pmucal kernels' shows it: its summary, the file that defines it, each
 * parameter (default, help, choices, domain) and its default validation cases. */
#ifndef PMUCAL_KERNEL_DESCRIBE_H
#define PMUCAL_KERNEL_DESCRIBE_H
#include "base/json.h"
#include "core/kernel.h"

/* As lines on stdout. */
void kernel_print(const struct kernel *k);
/* As one JSON object {name, summary, file, params: [{name, default, help, choices, range}], cases}. */
void kernel_json(struct json *j, const struct kernel *k);
#endif
