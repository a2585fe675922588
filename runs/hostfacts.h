/* What this host is: CPU, PMU, topology, clocks, software versions. One place, used by
 * 'pmucal info' and by every run's manifest. */
#ifndef PMUCAL_HOSTFACTS_H
#define PMUCAL_HOSTFACTS_H
#include "base/json.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Members "cpu", "pmu", "topology", "clocks", "software" into an open JSON object. */
void host_facts_json(struct json *j);
/* The CPU id the manifest's cpu.id holds: vendor-family-model-stepping as perf's mapfile spells it. */
void host_cpu_id(char *buf, size_t n);
/* The kernel's id of this boot ("" where there is none): a pid a manifest recorded before a
 * reboot names another process after it. */
void host_boot_id(char *buf, size_t n);
/* What machine this is, and whether it is a virtual or emulated one, from the device tree's first
 * compatible string (QEMU's virt machines: linux,dummy-virt on Arm, riscv-virtio on RISC-V), else
 * DMI's vendor and product; x86's hypervisor flag says virtual where neither names the machine. */
void host_machine_name(const char *compat, const char *vendor, const char *product, bool hypervisor, char *out,
                       size_t n, bool *virt);
/* The same facts for a person. */
void host_facts_print(FILE *f);
/* Is transparent-huge-page or hugetlb backing of 2 MiB pages available? (tries it) */
bool host_huge_pages(char *how, int n);

#endif
