#ifndef QUARRY_TABLE_H
#define QUARRY_TABLE_H

#include <sqlite3.h>

/// Whether the main schema of `db` has the table (not view) `name`, found in SQLite's own
/// schema hash (case-blind for ASCII, as SQLite names are): 1 yes, 0 no, -1 when SQLite
/// could not tell (the caller then asks `sqlite_master`).
int quarry_sqlite_has_table(sqlite3 *db, const char *name);

#endif
