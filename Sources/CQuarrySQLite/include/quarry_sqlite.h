#ifndef QUARRY_SQLITE_H
#define QUARRY_SQLITE_H

#include <sqlite3.h>
#include "quarry_table.h"

/* SQLite calls that Swift cannot make itself (variadic ones). */

/* Whether closing the connection may checkpoint its WAL into the database file. A file
   Quarry did not create must keep its bytes (and its -wal's) until the user saves. */
int quarry_sqlite_checkpoint_on_close(sqlite3 *db, int allowed);

/* Turns off what lets SQL text reach native code: the two-argument fts3_tokenizer(),
   which installs a tokenizer from a pointer given as a blob (Debian's SQLite is built
   with SQLITE_ENABLE_FTS3_TOKENIZER, which turns it on for every connection), and the
   load_extension() SQL function. SQLite's result code. */
int quarry_sqlite_disable_native_hooks(sqlite3 *db);

/* Bounds the heap of every SQLite connection in the process at `bytes` (0: no bound),
   with sqlite3_hard_heap_limit64, so SQLite's own allocations (a printf() of 900 MB, a
   sort's buffers) count against --memory as the Lua heap does: past it an allocation
   fails and the statement ends with SQLITE_NOMEM. A negative `bytes` only asks. The
   bound in force afterwards. The soft limit is set at three quarters of it. */
sqlite3_int64 quarry_sqlite_limit_heap(sqlite3_int64 bytes);

/* The Swift side of the text functions (text_match.c), for what C leaves to it.
   Each value comes as its bytes, a blob's flagged (GRDB reads one as text only when it
   is UTF-8). match: quarry_string_op's answer, 1, 0, or -1 for NULL.
   fold: the value folded for `options`, malloc'd UTF-8 with its length in *length;
   NULL when it is not text. */
typedef int (*quarry_text_match_fn)(const unsigned char *text, int text_count, int text_is_blob,
                                    const unsigned char *pattern, int pattern_count, int pattern_is_blob,
                                    int op, int options);
typedef char *(*quarry_text_fold_fn)(const unsigned char *bytes, int count, int is_blob, int options, int *length);

/* Adds quarry_string_op and quarry_fold to the connection; SQLite's result code. */
int quarry_sqlite_add_text_functions(sqlite3 *db, quarry_text_match_fn match, quarry_text_fold_fn fold);

/* Adds quarry_iso_seconds (text_date.c): ISO 8601 text in its common forms as Unix
   seconds, exactly as SQLite's julianday() reads it; NULL for anything else. */
int quarry_sqlite_add_date_functions(sqlite3 *db);

#endif
