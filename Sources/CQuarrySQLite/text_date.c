#include <stddef.h>
#include <sqlite3.h>
#include "quarry_sqlite.h"

/* quarry_iso_seconds(text): the Unix seconds of ISO 8601 text in the forms most files
   keep (`2013-01-01`, `2013-01-01 10:00`, `2013-01-01T10:00:00Z`, `...:00.735`), to the
   millisecond, computed as
       round((julianday(text) - 2440587.5) * 86400000.0) / 1000.0
   computes it in SQLite 3's date.c (the day's Julian number in milliseconds, the time's
   milliseconds added, then the same double operations), so that both give the same
   double; NULL for anything else (an offset, spaces, a year alone, a blob, a number),
   which the caller's SQL then reads the long way (SQLiteDialect+Columns). The long way
   took 7,000 instructions a cell of GLOBs and substrings; this takes about 100. */

static int digits(const unsigned char *t, int n, int *value) {
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') return 0;
        v = v * 10 + (t[i] - '0');
    }
    *value = v;
    return 1;
}

static void iso_seconds(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) return;
    const unsigned char *t = sqlite3_value_text(argv[0]);
    int n = sqlite3_value_bytes(argv[0]);
    if (!t || n < 10) return;
    int Y, M, D;
    if (!digits(t, 4, &Y) || t[4] != '-' || !digits(t + 5, 2, &M) || t[7] != '-' || !digits(t + 8, 2, &D)) return;
    if (M < 1 || M > 12 || D < 1 || D > 31) return;
    int at = 10, timed = 0, h = 0, m = 0, s = 0;
    double fraction = 0.0;
    if (at < n) {
        /* One separator, then HH:MM[:SS[.fff...]], then an optional Z: date.c reads more
           (several separators, spaces, offsets), which the caller's SQL handles. */
        if ((t[at] != 'T' && t[at] != ' ') || n - at < 6) return;
        at++;
        if (!digits(t + at, 2, &h) || t[at + 2] != ':' || !digits(t + at + 3, 2, &m) || h > 24 || m > 59) return;
        at += 5;
        if (at < n && t[at] == ':') {
            if (n - at < 3 || !digits(t + at + 1, 2, &s) || s > 59) return;
            at += 3;
            if (at + 1 < n && t[at] == '.' && t[at + 1] >= '0' && t[at + 1] <= '9') {
                double scale = 1.0;
                at++;
                while (at < n && t[at] >= '0' && t[at] <= '9') {
                    /* As date.c adds: the byte, then less '0' (a long fraction rounds the same). */
                    fraction = fraction * 10.0 + t[at] - '0';
                    scale *= 10.0;
                    at++;
                }
                fraction /= scale;
                /* Past 308 digits both overflow: NaN, which no cast to an integer may
                   meet (date.c's would be undefined); left to julianday(). */
                if (fraction != fraction) return;
            }
        }
        if (at < n && (t[at] == 'Z' || t[at] == 'z')) at++;
        if (at != n) return;
        timed = 1;
    }
    /* date.c's computeJD. */
    if (M <= 2) {
        Y--;
        M += 12;
    }
    int A = Y / 100;
    int B = 2 - A + (A / 4);
    int X1 = 36525 * (Y + 4716) / 100;
    int X2 = 306001 * (M + 1) / 10000;
    sqlite3_int64 ms = (sqlite3_int64)((X1 + X2 + D + B - 1524.5) * 86400000);
    if (timed) ms += h * 3600000 + m * 60000 + (sqlite3_int64)((s + fraction) * 1000.0 + 0.5);
    /* Past 9999-12-31 23:59:59.999 (a time of 24:00 on the last day) date.c gives NULL. */
    if (ms < 0 || ms > 464269060799999LL) return;
    /* julianday()'s answer, then the caller's arithmetic and SQLite's round(). */
    double day = ms / 86400000.0;
    double r = (day - 2440587.5) * 86400000.0;
    r = r >= 0 ? (double)(sqlite3_int64)(r + 0.5) : -(double)(sqlite3_int64)(-r + 0.5);
    sqlite3_result_double(ctx, r / 1000.0);
}

int quarry_sqlite_add_date_functions(sqlite3 *db) {
    return sqlite3_create_function_v2(db, "quarry_iso_seconds", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                      iso_seconds, NULL, NULL, NULL);
}
