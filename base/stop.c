#include "base/stop.h"
#include <unistd.h>

volatile sig_atomic_t stop_signal_number;

static void on_stop_signal(int sig)
{
    if (stop_signal_number) /* a second Ctrl-C: the user means it */
        _exit(128 + sig);
    stop_signal_number = sig;
}

const char *stop_signal_name(void)
{
    return !stop_signal_number ? NULL : stop_signal_number == SIGTERM ? "SIGTERM" : "SIGINT";
}

void stop_install_handlers(void)
{
    struct sigaction sa = {.sa_handler = on_stop_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
