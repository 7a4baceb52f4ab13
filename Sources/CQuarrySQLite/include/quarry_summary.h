#ifndef QUARRY_SUMMARY_H
#define QUARRY_SUMMARY_H

#include <sqlite3.h>

/* quarry_summary(options, sample_size, exact_distinct_limit, value1, ..., valueN): every
   statistic of summarize() for N columns in one aggregate (summary_aggregate.c), so a
   table is summarised in one scan. `options` is text, a digit a column: the column's
   QUARRY_SUMMARY_* options. N is at most SQLite's limit on a function's arguments
   (SQLITE_LIMIT_FUNCTION_ARG) less three. Its result is a blob: the rows seen (an
   sqlite3_int64; no count(*) needs to step beside it), then each column's part in turn,
   laid out as below (native byte order: only this process reads it); or NULL when no
   row was seen. */

enum {
    QUARRY_SUMMARY_MEASURED = 1,   /* options: mean, stddev and quartiles (numbers, dates) */
    QUARRY_SUMMARY_PROGRESS = 2,   /* options: this column reports rows seen to the callback */
    QUARRY_SUMMARY_DISTINCT_ESTIMATED = 1,   /* flags: distinct is a HyperLogLog estimate */
    QUARRY_SUMMARY_QUARTILES_ESTIMATED = 2,  /* flags: quartiles are read from a sample */
};

/* A column's part: this header, then the minimum and the maximum, each as a
   quarry_summary_value followed by its bytes for text and blobs. NaN where a statistic
   does not apply. In a measured column (numbers, dates) text and blobs are no numbers
   (a SQLite file's INTEGER column may hold ''): counted in count, distinct and texts,
   left out of min, max, mean, stddev and the quartiles. */
typedef struct {
    sqlite3_int64 count;     /* non-NULL values */
    sqlite3_int64 distinct;
    sqlite3_int64 flags;
    sqlite3_int64 texts;     /* of count, in a measured column: text and blobs, no numbers */
    double mean, stddev, q25, q50, q75;
} quarry_summary_header;

typedef struct {
    sqlite3_int64 type;      /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB; SQLITE_NULL: none */
    sqlite3_int64 integer;   /* SQLITE_INTEGER: the value; text and blobs: their byte count */
    double real;             /* SQLITE_FLOAT: the value */
} quarry_summary_value;

/* Rows seen so far by the call whose columns ask to report them (every 65,536 rows). */
typedef void (*quarry_summary_progress_fn)(void *info, sqlite3_int64 rows);

/* Adds quarry_summary to the connection; `info` goes back to `progress`. SQLite's result code. */
int quarry_sqlite_add_summary_functions(sqlite3 *db, void *info, quarry_summary_progress_fn progress);

#endif
