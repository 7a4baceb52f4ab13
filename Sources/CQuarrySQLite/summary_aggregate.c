#include <stdlib.h>
#include <string.h>
#include "quarry_summary.h"
#include "summary_parts.h"

/* quarry_summary: the aggregate over a row of columns (quarry_summary.h), each column's
   statistics in summary_stats.c. One call takes a group of columns, not one: SQLite's
   step into an aggregate (its instruction, the context, the arguments' registers) cost
   more than a column's statistics did when every column had an aggregate of its own. */

#define PROGRESS_EVERY 65536
#define FIXED_ARGUMENTS 3

typedef struct {
    quarry_summary_progress_fn progress;
    void *info;
} summary_app;

typedef struct {
    int started, failed;
    int misused;         /* called with fewer than FIXED_ARGUMENTS arguments */
    int progress;        /* this call reports rows seen */
    int n;
    sqlite3_int64 rows;
    summary_column *columns;
    summary_draw draw;
} summary_state;

/* Every column's options, one digit each ('0' + QUARRY_SUMMARY_* flags); a digit missing
   or not a digit is no option. */
static int column_options(const unsigned char *text, int length, int k) {
    if (!text || k >= length || text[k] < '0' || text[k] > '9') return 0;
    return text[k] - '0';
}

static void release(summary_state *s) {
    if (s->columns)
        for (int k = 0; k < s->n; k++) summary_column_free(&s->columns[k]);
    free(s->columns);
    memset(s, 0, sizeof *s);
}

static int start(summary_state *s, int argc, sqlite3_value **argv) {
    s->started = 1;
    s->n = argc - FIXED_ARGUMENTS;
    if (s->n <= 0) { s->n = 0; return 1; }
    s->columns = calloc((size_t)s->n, sizeof(summary_column));
    if (!s->columns) return 0;
    const unsigned char *options = sqlite3_value_text(argv[0]);
    int length = sqlite3_value_bytes(argv[0]);
    sqlite3_int64 sample = sqlite3_value_int64(argv[1]), limit = sqlite3_value_int64(argv[2]);
    for (int k = 0; k < s->n; k++) {
        int o = column_options(options, length, k);
        if (o & QUARRY_SUMMARY_PROGRESS) s->progress = 1;
        summary_column_start(&s->columns[k], o, sample, limit);
    }
    return 1;
}

static void summary_step(sqlite3_context *context, int argc, sqlite3_value **argv) {
    summary_state *s = sqlite3_aggregate_context(context, sizeof(summary_state));
    if (!s) { sqlite3_result_error_nomem(context); return; }
    if (!s->started && argc < FIXED_ARGUMENTS) s->started = s->misused = s->failed = 1;
    if (!s->started && !start(s, argc, argv)) s->failed = 1;
    s->rows++;
    if (s->progress && s->rows % PROGRESS_EVERY == 0) {
        summary_app *app = sqlite3_user_data(context);
        if (app && app->progress) app->progress(app->info, s->rows);
    }
    if (s->failed) return;
    if (argc - FIXED_ARGUMENTS != s->n || !summary_columns_add(s->columns, s->n, argv + FIXED_ARGUMENTS, &s->draw)) s->failed = 1;
}

/* Called once, whether the statement ran to its end or not (SQLite finalizes an
   aggregate's state when it releases it), so the state is always freed here. */
static void summary_final(sqlite3_context *context) {
    summary_state *s = sqlite3_aggregate_context(context, 0);
    if (!s || !s->started) { sqlite3_result_null(context); return; }
    if (s->misused) {
        release(s);
        sqlite3_result_error(context, "quarry_summary takes options, a sample size, a distinct limit and values", -1);
        return;
    }
    if (s->failed) { release(s); sqlite3_result_error_nomem(context); return; }
    sqlite3_int64 size = sizeof s->rows;
    for (int k = 0; k < s->n; k++) size += summary_column_size(&s->columns[k]);
    unsigned char *blob = malloc((size_t)size);
    if (!blob) { release(s); sqlite3_result_error_nomem(context); return; }
    memcpy(blob, &s->rows, sizeof s->rows);
    unsigned char *end = blob + sizeof s->rows;
    for (int k = 0; k < s->n && end; k++) end = summary_column_write(&s->columns[k], end);
    release(s);
    if (!end) { free(blob); sqlite3_result_error_nomem(context); return; }
    sqlite3_result_blob64(context, blob, (sqlite3_uint64)(end - blob), free);
}

int quarry_sqlite_add_summary_functions(sqlite3 *db, void *info, quarry_summary_progress_fn progress) {
    summary_app *app = malloc(sizeof(summary_app));
    if (!app) return SQLITE_NOMEM;
    app->progress = progress;
    app->info = info;
    return sqlite3_create_function_v2(db, "quarry_summary", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, app,
                                      NULL, summary_step, summary_final, free);
}
