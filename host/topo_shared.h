/* What host/topo.c (hwloc) and host/topo_nohwloc.c (sysfs) share: the handover of a resolved
 * topology to a child, and the affinity mask the process started with. Included by those two. */
#ifndef PMUCAL_TOPO_SHARED_H
#define PMUCAL_TOPO_SHARED_H
#include "host/topo.h"

#define ENV_TOPO "PMUCAL_TOPO"   /* the struct topo a parent resolved, as hex bytes */

/* The struct as two hex digits a byte (the parent and the child are the same binary), and back:
 * 0, or -1 when hex is not one of this build. */
char *topo_encode(const struct topo *t);
int topo_decode(const char *hex, struct topo *t);
/* Is OS CPU cpu in the affinity mask the process started with (true when it is unknown)? */
bool topo_inherited(int cpu);
/* The calling thread back on that mask: 0, -1 when it cannot be, 1 when the mask is unknown. */
int topo_restore_inherited(void);

#endif
