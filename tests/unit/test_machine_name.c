/* runs/hostfacts.c's machine line ('pmucal info', the manifest's host.machine): QEMU's virt
 * machines are said virtual or emulated by their device tree on Arm and RISC-V alike, a board's
 * device tree and DMI's names as they are. */
#include "runs/hostfacts.h"
#include "tap.h"
#include <string.h>

static const struct {
    int line;
    const char *compat, *vendor, *product;
    bool hv;
    const char *want;
    bool virt;
} rows[] = {
    {__LINE__, "linux,dummy-virt", "", "", false, "QEMU -M virt (device tree: linux,dummy-virt)", true},
    {__LINE__, "riscv-virtio", "", "", false, "QEMU -M virt (device tree: riscv-virtio)", true},
    {__LINE__, "sifive,hifive-unmatched-a00", "", "", false, "sifive,hifive-unmatched-a00 (device tree)", false},
    {__LINE__, "riscv-virtio-x", "", "", false, "riscv-virtio-x (device tree)", false},   /* the whole string, not a prefix */
    {__LINE__, "", "QEMU", "Standard PC (Q35 + ICH9, 2009)", false, "QEMU Standard PC (Q35 + ICH9, 2009) (DMI)", true},
    {__LINE__, "", "Dell Inc.", "PowerEdge R650", false, "Dell Inc. PowerEdge R650 (DMI)", false},
    {__LINE__, "", "", "", true, "unknown", true},
    {__LINE__, "", "", "", false, "unknown", false},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char out[160];
        bool virt = !rows[i].virt;
        host_machine_name(rows[i].compat, rows[i].vendor, rows[i].product, rows[i].hv, out, sizeof(out), &virt);
        CHECK(!strcmp(out, rows[i].want) && virt == rows[i].virt, rows[i].line, "'%s': '%s'%s (want '%s'%s)",
              rows[i].compat, out, virt ? ", virtual or emulated" : "", rows[i].want,
              rows[i].virt ? ", virtual or emulated" : "");
    }
    return done_testing();
}
