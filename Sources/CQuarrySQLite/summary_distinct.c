#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "summary_parts.h"

/* Distinct values for quarry_summary: exact up to a limit, then HyperLogLog (2^14
   registers, Ertl's estimator: about 0.8% standard error, no bias at small or large
   counts). Values are told apart as DISTINCT tells them apart, by 64-bit hashes. */

#define HLL_BITS 14
#define HLL_REGISTERS (1 << HLL_BITS)
#define HLL_MAX_RANK (64 - HLL_BITS + 1)
#define TEXT_SEED 0x7e47

static uint64_t hash_bytes(const unsigned char *p, int n, uint64_t seed) {
    uint64_t h = summary_mix64(seed ^ ((uint64_t)(unsigned)n * 0x9e3779b97f4a7c15ULL));
    while (n >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        h = summary_mix64(h ^ word);
        p += 8; n -= 8;
    }
    uint64_t tail = n > 0 ? summary_tail_word(p, n) : 0;
    return summary_mix64(h ^ tail ^ ((uint64_t)n << 59));
}

/* An integral real hashes as that integer (1.0 and 1 are one value to DISTINCT); text
   and blobs by their bytes; each kind seeded apart. */
static uint64_t hash_cell(const summary_cell *c) {
    switch (c->type) {
    case SQLITE_INTEGER:
        return summary_mix64((uint64_t)c->integer ^ SUMMARY_INTEGER_SEED);
    case SQLITE_FLOAT: {
        double d = c->real;
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == (double)(sqlite3_int64)d)
            return summary_mix64((uint64_t)(sqlite3_int64)d ^ SUMMARY_INTEGER_SEED);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return summary_mix64(bits ^ 0x85ebca6b0000000dULL);
    }
    case SQLITE_TEXT: return hash_bytes(c->bytes, c->count, TEXT_SEED);
    default: return hash_bytes(c->bytes, c->count, 0xb10b);
    }
}

/* Short text not found in the table (summary_parts.h): hashed into the set, then kept
   in the table. */
int summary_distinct_add_new_text(summary_distinct *d, const unsigned char *bytes, int count) {
    if (count < 1 || count > 7) return summary_distinct_add_hash(d, hash_bytes(bytes, count, TEXT_SEED));
    if (!d->short_text) {
        d->short_text = calloc((size_t)1 << SUMMARY_SHORT_TEXT_BITS, sizeof(uint64_t));
        if (!d->short_text) return 0;
    }
    if (!summary_distinct_add_hash(d, hash_bytes(bytes, count, TEXT_SEED))) return 0;
    uint64_t key = summary_short_text_key(bytes, count);
    d->short_text[summary_short_text_slot(key)] = key;
    return 1;
}

static void hll_add(unsigned char *registers, uint64_t h) {
    uint64_t rest = h << HLL_BITS;
    int rank = rest == 0 ? HLL_MAX_RANK : __builtin_clzll(rest) + 1;
    if (rank > HLL_MAX_RANK) rank = HLL_MAX_RANK;
    unsigned char *r = &registers[h >> (64 - HLL_BITS)];
    if (*r < rank) *r = (unsigned char)rank;
}

/* Ertl, "New cardinality estimation algorithms for HyperLogLog sketches" (2017), the
   improved raw estimator: sigma and tau correct for empty and saturated registers. */
static double hll_sigma(double x) {
    if (x == 1.0) return INFINITY;
    double y = 1.0, z = x, previous;
    do { x *= x; previous = z; z += x * y; y += y; } while (z != previous);
    return z;
}

static double hll_tau(double x) {
    if (x == 0.0 || x == 1.0) return 0.0;
    double y = 1.0, z = 1.0 - x, previous;
    do { x = sqrt(x); previous = z; y *= 0.5; z -= (1.0 - x) * (1.0 - x) * y; } while (z != previous);
    return z / 3.0;
}

static sqlite3_int64 hll_estimate(const unsigned char *registers) {
    double m = HLL_REGISTERS;
    sqlite3_int64 histogram[HLL_MAX_RANK + 1] = {0};
    for (int i = 0; i < HLL_REGISTERS; i++) histogram[registers[i]]++;
    double z = m * hll_tau((m - (double)histogram[HLL_MAX_RANK]) / m);
    for (int k = HLL_MAX_RANK - 1; k >= 1; k--) z = 0.5 * (z + (double)histogram[k]);
    z += m * hll_sigma((double)histogram[0] / m);
    return (sqlite3_int64)llround(m * m / (2.0 * log(2.0)) / z);
}

static int set_insert(uint64_t *set, sqlite3_int64 capacity, uint64_t h) {
    if (h == 0) h = 1;
    sqlite3_int64 mask = capacity - 1, i = (sqlite3_int64)(h & (uint64_t)mask);
    while (set[i] != 0) {
        if (set[i] == h) return 0;
        i = (i + 1) & mask;
    }
    set[i] = h;
    return 1;
}

int summary_distinct_add(summary_distinct *d, const summary_cell *c) {
    return summary_distinct_add_hash(d, hash_cell(c));
}

/* A small integer not seen before (summary_parts.h): its bit, then its hash. */
int summary_distinct_add_new_small(summary_distinct *d, sqlite3_int64 i) {
    if (!d->small) {
        d->small = calloc(SUMMARY_SMALL_RANGE / 64, sizeof(uint64_t));
        if (!d->small) return 0;
    }
    uint64_t bit = (uint64_t)i + SUMMARY_SMALL_RANGE / 2;
    d->small[bit >> 6] |= (uint64_t)1 << (bit & 63);
    return summary_distinct_add_hash(d, summary_mix64((uint64_t)i ^ SUMMARY_INTEGER_SEED));
}

int summary_distinct_add_hash(summary_distinct *d, uint64_t h) {
    if (d->has_last && h == d->last) return 1;
    d->has_last = 1;
    d->last = h;
    if (d->registers) { hll_add(d->registers, h); return 1; }
    if (!d->set) {
        d->set = calloc(64, sizeof(uint64_t));
        if (!d->set) return 0;
        d->capacity = 64;
    }
    if (!set_insert(d->set, d->capacity, h)) return 1;
    d->count++;
    if (d->count > d->limit) {
        /* Past the limit: every hash so far goes into the registers, which take over. */
        d->registers = calloc(HLL_REGISTERS, 1);
        if (!d->registers) return 0;
        for (sqlite3_int64 i = 0; i < d->capacity; i++)
            if (d->set[i] != 0) hll_add(d->registers, d->set[i]);
        free(d->set);
        d->set = NULL;
    } else if (2 * d->count > d->capacity) {
        sqlite3_int64 capacity = d->capacity * 2;
        uint64_t *grown = calloc((size_t)capacity, sizeof(uint64_t));
        if (!grown) return 0;
        for (sqlite3_int64 i = 0; i < d->capacity; i++)
            if (d->set[i] != 0) set_insert(grown, capacity, d->set[i]);
        free(d->set);
        d->set = grown;
        d->capacity = capacity;
    }
    return 1;
}

sqlite3_int64 summary_distinct_count(const summary_distinct *d, int *estimated) {
    *estimated = d->registers != NULL;
    return d->registers ? hll_estimate(d->registers) : d->count;
}

void summary_distinct_free(summary_distinct *d) {
    free(d->set);
    free(d->registers);
    free(d->small);
    free(d->short_text);
    d->set = NULL;
    d->registers = NULL;
    d->small = NULL;
    d->short_text = NULL;
}
