#include "quarry_signals.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupt_requested = 0;
static volatile sig_atomic_t sigint_pending = 0;
static volatile sig_atomic_t running = 0;
static double process_deadline = 0;

double quarry_monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double last_running_sigint = -10;

static void on_sigint(int sig) {
    (void)sig;
    sigint_pending = 1;
    /* A second Ctrl-C within a second of one that stopped running work leaves quarry,
       whether the work has stopped yet or not. */
    double now = quarry_monotonic_now();
    if (!running && now - last_running_sigint >= 1.0) return;
    if (now - last_running_sigint < 1.0) {
        static const char message[] = "\ninterrupted twice: quitting\n";
        ssize_t ignored = write(2, message, sizeof message - 1);
        (void)ignored;
        _exit(130);
    }
    last_running_sigint = now;
    interrupt_requested = 1;
}

void quarry_catch_sigint(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);   /* no SA_RESTART: a waiting select() returns */
}

void quarry_set_running(int value) { running = value != 0; }

int quarry_take_sigint(void) {
    int pending = sigint_pending;
    sigint_pending = 0;
    return pending;
}

void quarry_request_interrupt(void) { interrupt_requested = 1; }
int quarry_interrupt_requested(void) { return interrupt_requested; }

void quarry_set_process_deadline(double deadline) { process_deadline = deadline; }
double quarry_process_deadline(void) { return process_deadline; }

int quarry_should_stop(void) {
    if (interrupt_requested) return 1;
    return process_deadline > 0 && quarry_monotonic_now() >= process_deadline;
}

void quarry_clear_stop_requests(void) {
    interrupt_requested = 0;
    process_deadline = 0;
}
