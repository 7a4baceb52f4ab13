#include "quarry_table.h"

/* sqlite3_table_column_metadata with no column looks the table up in the schema's hash,
   where a query of sqlite_master reads every row of the schema: defining N entities one
   after another made that a quadratic cost. It answers SQLITE_ERROR for a view or a name
   it does not know. */
int quarry_sqlite_has_table(sqlite3 *db, const char *name) {
    int rc = sqlite3_table_column_metadata(db, "main", name, 0, 0, 0, 0, 0, 0);
    if (rc == SQLITE_OK) return 1;
    if (rc == SQLITE_ERROR) return 0;
    return -1;
}
