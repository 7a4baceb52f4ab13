#ifndef QUARRY_SUMMARY_PARTS_H
#define QUARRY_SUMMARY_PARTS_H

#include <stdint.h>
#include <sqlite3.h>

/* The parts of quarry_summary kept apart by concept: the aggregate over a row of columns
   (summary_aggregate.c), one column's statistics (summary_stats.c), distinct counts
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
    uint64_t *small;             /* a bit per integer of SUMMARY_SMALL_RANGE seen (or NULL) */
    uint64_t *short_text;        /* short text seen, by its bytes (summary_distinct.c; or NULL) */
} summary_distinct;

/* Integers in [-SUMMARY_SMALL_RANGE / 2, SUMMARY_SMALL_RANGE / 2) seen, a bit each (8 KiB
   a column): most columns of integers repeat values of this range (months, delays,
   distances), and a value seen before changes neither the set nor the registers, so a
   bit read spares its hash and the set's probe. */
#define SUMMARY_SMALL_RANGE 65536
#define SUMMARY_INTEGER_SEED 0x1b873593u

int summary_distinct_add(summary_distinct *d, const summary_cell *c);
int summary_distinct_add_text(summary_distinct *d, const unsigned char *bytes, int count);
int summary_distinct_add_hash(summary_distinct *d, uint64_t h);
int summary_distinct_add_new_small(summary_distinct *d, sqlite3_int64 i);

/* SplitMix64's finalizer: the hashes and the sample's generator. In line: a few
   instructions, called for most cells. */
static inline uint64_t summary_mix64(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline int summary_distinct_add_integer(summary_distinct *d, sqlite3_int64 i) {
    uint64_t bit = (uint64_t)i + SUMMARY_SMALL_RANGE / 2;
    if (bit < SUMMARY_SMALL_RANGE) {
        if (d->small && (d->small[bit >> 6] >> (bit & 63)) & 1) return 1;
        return summary_distinct_add_new_small(d, i);
    }
    return summary_distinct_add_hash(d, summary_mix64((uint64_t)i ^ SUMMARY_INTEGER_SEED));
}

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

/* The sample's choices for the seen-th value, each a function of `seen` and the
   generator's state, kept for the next columns of the same row: every sample starts from
   the same seed and draws once a value past its size, so columns with as many NULLs
   (none, most often) reach the same state at the same value and make the same choice.
   A few slots, by `seen`, as columns with and without NULLs alternate. */
#define SUMMARY_DRAW_SLOTS 8

typedef struct {
    sqlite3_int64 seen;        /* 0: empty */
    uint64_t random, choice;
} summary_draw_slot;

typedef struct {
    summary_draw_slot slots[SUMMARY_DRAW_SLOTS];
} summary_draw;

int summary_sample_grow_and_add(summary_sample *s, double x);

/* Every value while fewer than `size` were seen (growing the array: summary_sample.c),
   then a reservoir: the seen-th value replaces a kept one with probability size / seen,
   which keeps every value seen equally likely to be in the sample. The generator has a
   fixed seed (SplitMix64's sequence), so the same values in the same order give the
   same sample. In line: it runs for most cells of a large table. */
static inline int summary_sample_add(summary_sample *s, double x, summary_draw *draw) {
    if (s->count < s->allocated) {
        s->seen++;
        s->values[s->count++] = x;
        return 1;
    }
    if (s->count < s->size) return summary_sample_grow_and_add(s, x);
    s->seen++;
    s->random += 0x9e3779b97f4a7c15ULL;
    summary_draw_slot *slot = &draw->slots[s->seen % SUMMARY_DRAW_SLOTS];
    if (slot->seen != s->seen || slot->random != s->random) {
        slot->seen = s->seen;
        slot->random = s->random;
        slot->choice = (uint64_t)(((unsigned __int128)summary_mix64(s->random) * (uint64_t)s->seen) >> 64);
    }
    if (slot->choice < (uint64_t)s->size) s->values[slot->choice] = x;
    return 1;
}

/* Sorts the sample and reads its quartiles into q[0..2]; *estimated: it is a sample. */
int summary_sample_quartiles(summary_sample *s, double q[3], int *estimated);
void summary_sample_free(summary_sample *s);

/* A kept extreme owns its bytes (the row's go away with the row). */
typedef struct {
    summary_cell value;  /* type 0: nothing kept yet */
    unsigned char *owned;
    int capacity;
} summary_kept;

/* One column's statistics (summary_stats.c). */
typedef struct {
    int options;
    sqlite3_int64 count;
    summary_kept min, max;
    summary_distinct distinct;
    /* mean and deviation */
    sqlite3_int64 int_sum;
    int all_integers, int_overflow;
    int sum_is_int_sum;  /* sum is int_sum and compensation 0, exactly: see add_measure */
    double sum, compensation;
    double welford_mean, m2;
    summary_sample sample;
} summary_column;

void summary_column_start(summary_column *s, int options, sqlite3_int64 sample_size, sqlite3_int64 distinct_limit);
/* Adds one row's values, argv[i] to columns[i]; `draw` is kept from row to row. */
int summary_columns_add(summary_column *columns, int n, sqlite3_value **argv, summary_draw *draw);
/* The column's part of the result (quarry_summary.h): its size, then written at `out`
   (0: out of memory), which returns past its end. */
sqlite3_int64 summary_column_size(const summary_column *s);
unsigned char *summary_column_write(summary_column *s, unsigned char *out);
void summary_column_free(summary_column *s);

#endif
