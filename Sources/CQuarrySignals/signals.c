#include "quarry_signals.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Process-wide requests. Several runtimes on several threads share them when they share
   a process (the test runner), so every access is atomic
   (lock-free, hence also async-signal-safe); ThreadSanitizer reported the plain ones. */
#define LOAD(v) __atomic_load_n(&(v), __ATOMIC_RELAXED)
#define STORE(v, x) __atomic_store_n(&(v), (x), __ATOMIC_RELAXED)

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

/* Called in the handler once an interrupt is requested (see quarry_on_interrupt). */
static void (*interrupt_callback)(void) = NULL;

void quarry_on_interrupt(void (*callback)(void)) {
    __atomic_store_n(&interrupt_callback, callback, __ATOMIC_RELEASE);
}

static void on_sigint(int sig) {
    (void)sig;
    STORE(sigint_pending, 1);
    /* A second Ctrl-C within a second of one that stopped running work leaves quarry,
       whether the work has stopped yet or not. */
    double now = quarry_monotonic_now();
    if (!LOAD(running) && now - last_running_sigint >= 1.0) return;
    if (now - last_running_sigint < 1.0) {
        static const char message[] = "\ninterrupted twice: quitting\n";
        ssize_t ignored = write(2, message, sizeof message - 1);
        (void)ignored;
        _exit(130);
    }
    last_running_sigint = now;
    STORE(interrupt_requested, 1);
    void (*callback)(void) = __atomic_load_n(&interrupt_callback, __ATOMIC_ACQUIRE);
    if (callback) callback();
}

void quarry_catch_sigint(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);   /* no SA_RESTART: a waiting select() returns */
}

void quarry_set_running(int value) { STORE(running, value != 0); }
int quarry_is_running(void) { return LOAD(running); }

int quarry_take_sigint(void) {
    return __atomic_exchange_n(&sigint_pending, 0, __ATOMIC_RELAXED);
}

void quarry_request_interrupt(void) { STORE(interrupt_requested, 1); }
int quarry_interrupt_requested(void) { return LOAD(interrupt_requested); }

void quarry_set_process_deadline(double deadline) { __atomic_store(&process_deadline, &deadline, __ATOMIC_RELAXED); }
double quarry_process_deadline(void) {
    double deadline;
    __atomic_load(&process_deadline, &deadline, __ATOMIC_RELAXED);
    return deadline;
}

int quarry_should_stop(void) {
    if (LOAD(interrupt_requested)) return 1;
    double deadline = quarry_process_deadline();
    return deadline > 0 && quarry_monotonic_now() >= deadline;
}

void quarry_clear_stop_requests(void) {
    STORE(interrupt_requested, 0);
    quarry_set_process_deadline(0);
}

/* The activity: its text, then its length stored last, so a signal handler that reads
   the length reads text written before it (a shorter text is never read past its end). */
static char activity_text[512];
static size_t activity_length = 0;

void quarry_set_activity(const char *text) {
    STORE(activity_length, (size_t)0);
    if (text == NULL) return;
    size_t n = strlen(text);
    if (n >= sizeof activity_text) n = sizeof activity_text - 1;
    memcpy(activity_text, text, n);
    __atomic_store_n(&activity_length, n, __ATOMIC_RELEASE);
}

const char *quarry_activity(size_t *length) {
    *length = __atomic_load_n(&activity_length, __ATOMIC_ACQUIRE);
    return activity_text;
}
