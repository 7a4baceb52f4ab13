#ifndef QUARRY_SQLITE_H
#define QUARRY_SQLITE_H

#include <sqlite3.h>

/* SQLite calls that Swift cannot make itself (variadic ones). */

/* Whether closing the connection may checkpoint its WAL into the database file. A file
   Quarry did not create must keep its bytes (and its -wal's) until the user saves. */
int quarry_sqlite_checkpoint_on_close(sqlite3 *db, int allowed);

#endif
