// Requests to stop what runs (Ctrl-C, --timeout), kept apart from Lua so that the store
// can ask them too (SQLite's progress handler) without knowing Lua.
#ifndef QUARRY_SIGNALS_H
#define QUARRY_SIGNALS_H

#include <stddef.h>

/// Installs the SIGINT handler: it records the signal, and requests an interrupt while
/// something runs.
void quarry_catch_sigint(void);
/// Marks work as running (non-zero) or idle (0, e.g. at the REPL prompt) for SIGINT.
void quarry_set_running(int running);
/* Whether a statement is marked running (Ctrl-C stops it rather than the prompt's line). */
int quarry_is_running(void);
/// Whether SIGINT arrived since the last call; clears the record.
int quarry_take_sigint(void);

/// `callback` runs inside the SIGINT handler right after it requests an interrupt (so
/// it must be async-signal-safe): Lua uses it to set its hook only when needed.
void quarry_on_interrupt(void (*callback)(void));

/// Asks running work to stop ("interrupted!"); safe in a signal handler.
void quarry_request_interrupt(void);
int quarry_interrupt_requested(void);

/// The moment (CLOCK_MONOTONIC seconds) after which work stops; 0: none.
void quarry_set_process_deadline(double deadline);
double quarry_process_deadline(void);
double quarry_monotonic_now(void);

/// What the process is busy with, for the one line a hard stop (`--timeout` past its
/// grace) writes from its signal handler: "defining big.xcdatamodel". NULL or "" clears it.
void quarry_set_activity(const char *text);
/// The activity's text and its length (0: none); safe in a signal handler.
const char *quarry_activity(size_t *length);

/// Whether running work should stop now: an interrupt, or the deadline passed.
int quarry_should_stop(void);
/// Clears the interrupt and the deadline (after the top-level call has returned).
void quarry_clear_stop_requests(void);

/// Removes `copy`, its -wal and -shm, then `folder`, should SIGTERM or SIGHUP end the
/// process (which then ends as the signal would have); one copy at a time.
void quarry_remove_on_termination(const char *copy, const char *folder);
/// The copy was removed: nothing to remove on those signals.
void quarry_forget_removal(void);

#endif
