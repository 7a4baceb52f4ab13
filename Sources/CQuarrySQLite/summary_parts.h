#ifndef QUARRY_SUMMARY_PARTS_H
#define QUARRY_SUMMARY_PARTS_H

#include <stdint.h>
#include <string.h>
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
    uint64_t *short_text;        /* short text seen, by its bytes (below; or NULL) */
} summary_distinct;

/* Integers in [-SUMMARY_SMALL_RANGE / 2, SUMMARY_SMALL_RANGE / 2) seen, a bit each (8 KiB
   a column): most columns of integers repeat values of this range (months, delays,
   distances), and a value seen before changes neither the set nor the registers, so a
   bit read spares its hash and the set's probe. */
#define SUMMARY_SMALL_RANGE 65536
#define SUMMARY_INTEGER_SEED 0x1b873593u

int summary_distinct_add(summary_distinct *d, const summary_cell *c);
int summary_distinct_add_new_text(summary_distinct *d, const unsigned char *bytes, int count);
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

/* An integer (or an integral real: DISTINCT and the hash take them as one): a small one
   seen before ends at its bit; any other is hashed as summary_distinct.c hashes it. */
static inline int summary_distinct_add_integer(summary_distinct *d, sqlite3_int64 i) {
    uint64_t bit = (uint64_t)i + SUMMARY_SMALL_RANGE / 2;
    if (bit < SUMMARY_SMALL_RANGE) {
        if (d->small && (d->small[bit >> 6] >> (bit & 63)) & 1) return 1;
        return summary_distinct_add_new_small(d, i);
    }
    return summary_distinct_add_hash(d, summary_mix64((uint64_t)i ^ SUMMARY_INTEGER_SEED));
}

/* A value's n bytes (1 to 7) as one word, byte k at bits 8k, as memcpy into a zeroed
   word reads them on a little-endian machine, without a call: two overlapping loads, or
   three bytes. */
static inline uint64_t summary_tail_word(const unsigned char *p, int n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n >= 4) {
        uint32_t low, high;
        memcpy(&low, p, 4);
        memcpy(&high, p + n - 4, 4);
        return low | ((uint64_t)high << (8 * (n - 4)));
    }
    return p[0] | ((uint64_t)p[n >> 1] << (8 * (n >> 1))) | ((uint64_t)p[n - 1] << (8 * (n - 1)));
#else
    uint64_t tail = 0;
    memcpy(&tail, p, (size_t)n);
    return tail;
#endif
}

/* Short text (1 to 7 bytes: codes, names, identifiers) seen before, by its bytes and
   length as one word, in a direct-mapped table (8 KiB a column of text): a word read and
   compared, against a value's two hashes and the set's probe. A value seen before
   changes neither the set nor the registers, so leaving it out is exact. */
#define SUMMARY_SHORT_TEXT_BITS 10

static inline uint64_t summary_short_text_key(const unsigned char *p, int n) {
    return summary_tail_word(p, n) | ((uint64_t)n << 56);  /* never 0, a free slot */
}

static inline uint64_t summary_short_text_slot(uint64_t key) {
    return (key * 0x9e3779b97f4a7c15ULL) >> (64 - SUMMARY_SHORT_TEXT_BITS);
}

static inline int summary_distinct_add_text(summary_distinct *d, const unsigned char *bytes, int count) {
    if (count >= 1 && count <= 7 && d->short_text) {
        uint64_t key = summary_short_text_key(bytes, count);
        if (d->short_text[summary_short_text_slot(key)] == key) return 1;
    }
    return summary_distinct_add_new_text(d, bytes, count);
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
    summary_draw_slot *slot = &draw->slots[(uint64_t)s->seen % SUMMARY_DRAW_SLOTS];
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
    sqlite3_int64 texts;  /* of `count`, text and blobs in a measured column: no numbers */
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
