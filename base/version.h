#ifndef PMUCAL_VERSION_H
#define PMUCAL_VERSION_H
#ifndef PMUCAL_VERSION
#define PMUCAL_VERSION "0.1.0"
#endif
/* The git commit the binary was built from ("<12 hex>[-dirty]"), "unknown" outside git: baked in
 * at build time (the Makefile writes it to build/<kind>/gen/commit.h). */
const char *pmucal_commit(void);
#endif
