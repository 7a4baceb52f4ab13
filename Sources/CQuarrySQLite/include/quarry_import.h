#ifndef QUARRY_IMPORT_H
#define QUARRY_IMPORT_H

#include <sqlite3.h>
#include <stdint.h>
#include "quarry_rows.h"

/* Inserts `rows` rows of `width` cells each (row-major) with `many`, an INSERT of `per`
   rows at once, and `one`, the same INSERT of one row, for the rows left over. Texts and
   blobs are bound from `arena` without a copy (SQLITE_STATIC): the caller keeps it until
   this returns, and every binding is cleared before it does.
   Returns SQLITE_DONE, or SQLite's code for the first failure. On SQLITE_CONSTRAINT the
   rows of the failed multi-row INSERT are tried again one at a time (the failed statement
   changed nothing), so *failed is the index of the row that breaks the constraint; the
   rows before it are inserted. On any other failure *failed is the first row of the
   statement that failed. */
int quarry_insert_cells(sqlite3_stmt *many, int per, sqlite3_stmt *one, int width, int rows,
                        const uint8_t *kinds, const int64_t *values, const int32_t *lengths,
                        const uint8_t *arena, int *failed);

#endif
