#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "summary_parts.h"

/* The values quarry_summary reads quartiles from: all of them up to `size`, then a
   uniform sample of `size` (reservoir sampling with a fixed-seed generator, so the same
   values in the same order give the same sample: summary_sample_add in summary_parts.h).
   Quartiles are read as pandas and numpy's default read them, linear between the values
   at ranks floor and ceil of q(n - 1): on every value (n <= size) they are exactly the
   exact way's. */

#pragma STDC FP_CONTRACT OFF

/* The array grows to `size` (summary_parts.h adds to it). */
int summary_sample_grow_and_add(summary_sample *s, double x) {
    sqlite3_int64 size = s->allocated ? s->allocated * 2 : 1024;
    if (size > s->size) size = s->size;
    double *grown = realloc(s->values, (size_t)size * sizeof(double));
    if (!grown) return 0;
    s->values = grown;
    s->allocated = size;
    s->seen++;
    s->values[s->count++] = x;
    return 1;
}

/* Doubles as unsigned integers in the same order (NaN never comes: SQLite stores none). */
static uint64_t sort_key(double d) {
    uint64_t bits;
    memcpy(&bits, &d, 8);
    return (bits >> 63) ? ~bits : bits | 0x8000000000000000ULL;
}

static double key_value(uint64_t key) {
    uint64_t bits = (key >> 63) ? key & 0x7fffffffffffffffULL : ~key;
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* LSD radix sort, a byte at a time, skipping the bytes every value shares (most of them
   for small integers): 65,536 values in well under a millisecond. */
static int sort_values(double *values, sqlite3_int64 n) {
    if (n < 2) return 1;
    uint64_t *keys = malloc((size_t)n * sizeof(uint64_t)), *other = malloc((size_t)n * sizeof(uint64_t));
    if (!keys || !other) { free(keys); free(other); return 0; }
    /* Bits every key shares (set in all, or in none) need no pass, nor a count. */
    uint64_t all = ~(uint64_t)0, any = 0;
    for (sqlite3_int64 i = 0; i < n; i++) {
        keys[i] = sort_key(values[i]);
        all &= keys[i];
        any |= keys[i];
    }
    for (int shift = 0; shift < 64; shift += 8) {
        if ((((all ^ any) >> shift) & 0xff) == 0) continue;
        sqlite3_int64 counts[256] = {0};
        for (sqlite3_int64 i = 0; i < n; i++) counts[(keys[i] >> shift) & 0xff]++;
        sqlite3_int64 position = 0;
        for (int b = 0; b < 256; b++) { sqlite3_int64 c = counts[b]; counts[b] = position; position += c; }
        for (sqlite3_int64 i = 0; i < n; i++) other[counts[(keys[i] >> shift) & 0xff]++] = keys[i];
        uint64_t *swap = keys; keys = other; other = swap;
    }
    for (sqlite3_int64 i = 0; i < n; i++) values[i] = key_value(keys[i]);
    free(keys);
    free(other);
    return 1;
}

/* Linear between neighbours, in the exact way's order of operations (SummaryRequest+Exact.swift), so
   both give the same bits: low + (high - low) * (position - lower). A rank that falls
   on a value is that value (an infinite neighbour would make it NaN: (inf - 4) * 0). */
static double quantile(const double *sorted, sqlite3_int64 n, double q) {
    double position = q * (double)(n - 1);
    sqlite3_int64 lower = (sqlite3_int64)floor(position);
    double low = sorted[lower];
    double high = lower + 1 < n ? sorted[lower + 1] : low;
    double fraction = position - (double)lower;
    if (fraction == 0 || high == low) return low;
    double step = (high - low) * fraction;
    return low + step;
}

int summary_sample_quartiles(summary_sample *s, double q[3], int *estimated) {
    *estimated = s->seen > s->count;
    if (s->count == 0) { q[0] = q[1] = q[2] = NAN; return 1; }
    if (!sort_values(s->values, s->count)) return 0;
    q[0] = quantile(s->values, s->count, 0.25);
    q[1] = quantile(s->values, s->count, 0.5);
    q[2] = quantile(s->values, s->count, 0.75);
    return 1;
}

void summary_sample_free(summary_sample *s) {
    free(s->values);
    s->values = NULL;
}
