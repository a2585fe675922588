/* Run folders as 'pmucal classify RUN' reads them: manifest.json (the bytes before the first NUL)
 * and measurements.ndjson (the rest), through the command itself. */
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_dir();
    const uint8_t *nul = memchr(data, 0, size);
    size_t head = nul ? (size_t)(nul - data) : size;
    fuzz_write(dir, "manifest.json", data, head);
    fuzz_write(dir, "measurements.ndjson", nul ? nul + 1 : data + size, nul ? size - head - 1 : 0);
    const struct command *c = command_find("classify");
    char *argv[] = {"classify", (char *)dir, NULL};
    (void)c->fn(2, argv);
    return 0;
}
