#include "quarry_signals.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* A private copy the process made (a read-only store's, see ReadOnlyCopy.swift) is
   removed at exit by Swift; SIGTERM and SIGHUP end the process without it, so their
   handler removes the copy's files and folder (unlink and rmdir are async-signal-safe),
   then lets the signal end the process as it would have. */
static char removal_files[3][PATH_MAX];
static char removal_folder[PATH_MAX];
static volatile sig_atomic_t removal_armed = 0;

static void remove_and_end(int sig) {
    if (removal_armed) {
        for (int i = 0; i < 3; i++) unlink(removal_files[i]);
        rmdir(removal_folder);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void quarry_remove_on_termination(const char *copy, const char *folder) {
    removal_armed = 0;
    snprintf(removal_files[0], PATH_MAX, "%s", copy);
    snprintf(removal_files[1], PATH_MAX, "%s-wal", copy);
    snprintf(removal_files[2], PATH_MAX, "%s-shm", copy);
    snprintf(removal_folder, PATH_MAX, "%s", folder);
    removal_armed = 1;
    struct sigaction action;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    action.sa_handler = remove_and_end;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
}

void quarry_forget_removal(void) { removal_armed = 0; }
