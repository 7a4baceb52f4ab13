// Rows read from SQLite as flat cells, shared by the store (which fills them) and the
// Lua shim (which pushes their values without calling into Swift). One layout, here.
#ifndef QUARRY_ROWS_H
#define QUARRY_ROWS_H

#include <stddef.h>
#include <stdint.h>

/// What a cell holds.
enum {
    QUARRY_CELL_NULL = 0,
    QUARRY_CELL_INTEGER = 1,
    /// `value` holds the double's bits.
    QUARRY_CELL_REAL = 2,
    /// Valid UTF-8 without NUL bytes at `value` (an offset into the text) for `length` bytes.
    QUARRY_CELL_TEXT = 3,
    /// Other text (not UTF-8, or with NUL bytes) at `value` for `length` bytes: Swift
    /// reads it (`Value(rowText:)`: UTF-8 up to the first NUL, other bytes kept whole).
    QUARRY_CELL_RAW_TEXT = 4,
    /// A blob at `value` for `length` bytes.
    QUARRY_CELL_BLOB = 5,
};

/// One column of one row.
typedef struct {
    int64_t value;
    int32_t length;
    int32_t tag;
} quarry_cell;

/// 1 when `bytes` are valid UTF-8 with no NUL byte (text C may hand to Lua as it is).
int quarry_is_plain_utf8(const unsigned char *bytes, size_t length);

/* The kinds of an imported cell, as the import's parser thread encodes them. */
enum {
    QUARRY_IMPORT_NULL = 0,
    QUARRY_IMPORT_INTEGER = 1,  /* value: the integer */
    QUARRY_IMPORT_REAL = 2,     /* value: the double's bits */
    QUARRY_IMPORT_TEXT = 3,     /* value: offset into the arena, length: its bytes */
    QUARRY_IMPORT_BLOB = 4,     /* the same, bound as a blob */
};

#endif
