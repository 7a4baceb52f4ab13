/* The SQLite side of a CSV or JSON import: rows already parsed (on another thread) into
   typed cells, bound and stepped here, several rows per INSERT. One INSERT per row cost
   most of an import's SQLite time (an AUTOINCREMENT table reads and writes
   sqlite_sequence once per statement). */
#include "quarry_import.h"
#include <string.h>

static int bind_row(sqlite3_stmt *stmt, int first, int width, const uint8_t *kinds,
                    const int64_t *values, const int32_t *lengths, const uint8_t *arena) {
    for (int c = 0; c < width; c++) {
        int index = first + c;
        int rc;
        switch (kinds[c]) {
        case QUARRY_IMPORT_INTEGER: rc = sqlite3_bind_int64(stmt, index, values[c]); break;
        case QUARRY_IMPORT_REAL: {
            double d;
            memcpy(&d, &values[c], sizeof d);
            rc = sqlite3_bind_double(stmt, index, d);
            break;
        }
        case QUARRY_IMPORT_TEXT:
            rc = sqlite3_bind_text(stmt, index, (const char *)arena + values[c], lengths[c], SQLITE_STATIC);
            break;
        case QUARRY_IMPORT_BLOB:
            rc = sqlite3_bind_blob(stmt, index, arena + values[c], lengths[c], SQLITE_STATIC);
            break;
        default: rc = sqlite3_bind_null(stmt, index); break;
        }
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

static int step(sqlite3_stmt *stmt) {
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc;
}

static int insert_one(sqlite3_stmt *one, int width, int row, const uint8_t *kinds,
                      const int64_t *values, const int32_t *lengths, const uint8_t *arena) {
    size_t at = (size_t)row * (size_t)width;
    int rc = bind_row(one, 1, width, kinds + at, values + at, lengths + at, arena);
    if (rc != SQLITE_OK) return rc;
    return step(one);
}

int quarry_insert_cells(sqlite3_stmt *many, int per, sqlite3_stmt *one, int width, int rows,
                        const uint8_t *kinds, const int64_t *values, const int32_t *lengths,
                        const uint8_t *arena, int *failed) {
    int row = 0;
    int rc = SQLITE_DONE;
    *failed = 0;
    if (many != NULL && per > 1) {
        for (; row + per <= rows; row += per) {
            for (int k = 0; k < per && rc == SQLITE_DONE; k++) {
                size_t at = (size_t)(row + k) * (size_t)width;
                int b = bind_row(many, 1 + k * width, width, kinds + at, values + at, lengths + at, arena);
                if (b != SQLITE_OK) rc = b;
            }
            if (rc == SQLITE_DONE) rc = step(many);
            if (rc == SQLITE_DONE) continue;
            if ((rc & 0xff) == SQLITE_CONSTRAINT && !sqlite3_get_autocommit(sqlite3_db_handle(many))) {
                /* Which row: the failed statement changed nothing, so they go in one by one. */
                for (int k = 0; k < per; k++) {
                    rc = insert_one(one, width, row + k, kinds, values, lengths, arena);
                    if (rc != SQLITE_DONE) { *failed = row + k; break; }
                }
                if (rc == SQLITE_DONE) continue;  /* a statement-level failure the rows alone do not give */
            } else {
                *failed = row;
            }
            goto done;
        }
    }
    for (; row < rows; row++) {
        rc = insert_one(one, width, row, kinds, values, lengths, arena);
        if (rc != SQLITE_DONE) { *failed = row; goto done; }
    }
done:
    /* The statements keep no pointer into the arena once this returns. */
    if (many != NULL) sqlite3_clear_bindings(many);
    sqlite3_clear_bindings(one);
    return rc;
}
