/* The stop flag: SIGINT or SIGTERM asks every long loop to stop at its next safe point, so a run
 * folder keeps all that finished. One flag for the process; the measurement core checks it
 * between repetitions, waits for children (subprocess) and sweeps check it too. */
#ifndef PMUCAL_STOP_H
#define PMUCAL_STOP_H
#include <signal.h>
#include <stdbool.h>

/* The signal's number once one arrived, else 0. */
extern volatile sig_atomic_t stop_signal_number;
static inline bool stop_requested(void)
{
    return stop_signal_number != 0;
}
/* "SIGINT", "SIGTERM", or NULL when no stop was requested. */
const char *stop_signal_name(void);
/* The first SIGINT or SIGTERM sets the flag; a second ends the process at once. */
void stop_install_handlers(void);

#endif
