#ifndef QUARRY_SUMMARY_PARTS_H
#define QUARRY_SUMMARY_PARTS_H

#include <stdint.h>
#include <sqlite3.h>

/* The parts of quarry_summary (summary_stats.c) kept apart by concept: distinct counts
   (summary_distinct.c) and the sample quartiles are read from (summary_sample.c).
   Every function that allocates returns 0 when memory ran out, 1 otherwise. */

/* A value read once per row: each sqlite3_value_* call is a call into the library. */
typedef struct {
    int type;                    /* SQLITE_*; 0 in a zeroed cell: no value */
    sqlite3_int64 integer;
    double real;                 /* integers too, as a double */
    const unsigned char *bytes;  /* text and blobs */
    int count;
} summary_cell;

/* Distinct values: 64-bit hashes in an open-addressing set (0 marks a free slot) up to
   `limit`, then a HyperLogLog's registers. */
typedef struct {
    sqlite3_int64 limit;
    uint64_t *set;
    sqlite3_int64 capacity, count;
    uint64_t last;               /* the previous value's hash: runs of one value skip the set */
    int has_last;
    unsigned char *registers;
} summary_distinct;

int summary_distinct_add(summary_distinct *d, const summary_cell *c);
/* The count, exact or estimated (*estimated says which). */
sqlite3_int64 summary_distinct_count(const summary_distinct *d, int *estimated);
void summary_distinct_free(summary_distinct *d);

/* Every value up to `size`, then a uniform sample of `size` of them. */
typedef struct {
    sqlite3_int64 size;
    double *values;
    sqlite3_int64 count, allocated, seen;
    uint64_t random;             /* the fixed-seed generator's state */
} summary_sample;

int summary_sample_add(summary_sample *s, double x);
/* Sorts the sample and reads its quartiles into q[0..2]; *estimated: it is a sample. */
int summary_sample_quartiles(summary_sample *s, double q[3], int *estimated);
void summary_sample_free(summary_sample *s);

uint64_t summary_mix64(uint64_t x);

#endif
