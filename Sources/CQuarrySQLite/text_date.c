#define _GNU_SOURCE
#include <locale.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "quarry_sqlite.h"

/* quarry_iso_seconds(x): the Unix seconds of ISO 8601 text, exactly as Quarry reads a
   file's date text in memory (`AttributeType.decode`: `Value.parseISO8601Milliseconds`,
   then `Value.parseISO8601Basic`), so that SQL and memory agree on every cell: the same
   grammar (`Value.isoParts`: a real day of its month, hours below 24, seconds below 61,
   `Z`, or an offset as `+08:00`, `+0800` or `+08`; or the basic form `20180903`,
   `20180903T141500`, `...Z`) and the same arithmetic (to the millisecond, rounded half up,
   as SQLite's julianday() rounds). NULL for any other value: text that is no date,
   numbers, blobs. Before it, SQL read the text through GLOBs and julianday(), which
   takes more than memory does (a 31st of April, 24:00, `z`) and cost about 7,000
   instructions a cell. */

static int digits(const unsigned char *b, int n, int *at, int count, int *value) {
    if (*at + count > n) return 0;
    int v = 0;
    for (int k = *at; k < *at + count; k++) {
        if (b[k] < '0' || b[k] > '9') return 0;
        v = v * 10 + (b[k] - '0');
    }
    *at += count;
    *value = v;
    return 1;
}

static int expect(const unsigned char *b, int n, int *at, unsigned char c) {
    if (*at >= n || b[*at] != c) return 0;
    *at += 1;
    return 1;
}

/* The fraction `0.ddd` of `count` digits, as Swift's Double("0.ddd") reads it: correctly
   rounded. Up to 15 digits the integer and the power of ten are exact, so their quotient
   is that rounding; longer ones go through strtod in the C locale. */
static double fraction_of(const unsigned char *d, int count) {
    static const double powers[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    if (count <= 15) {
        long long v = 0;
        for (int k = 0; k < count; k++) v = v * 10 + (d[k] - '0');
        return (double)v / powers[count];
    }
    static locale_t c_locale = (locale_t)0;
    if (!c_locale) c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    char *text = sqlite3_malloc(count + 3);
    if (!text || !c_locale) {
        sqlite3_free(text);
        return -1;
    }
    text[0] = '0';
    text[1] = '.';
    memcpy(text + 2, d, (size_t)count);
    text[count + 2] = 0;
    double f = strtod_l(text, NULL, c_locale);
    sqlite3_free(text);
    return f;
}

/* `Value.isoParts`: the Unix seconds of the minute (offset taken off), the seconds and
   their fraction. 0 when the text is no such date. */
static int iso_parts(const unsigned char *b, int n, long long *minute_seconds, int *second, double *fraction) {
    int at = 0, year, month, day;
    if (!digits(b, n, &at, 4, &year) || !expect(b, n, &at, '-') || !digits(b, n, &at, 2, &month) || !expect(b, n, &at, '-') ||
        !digits(b, n, &at, 2, &day) || month < 1 || month > 12 || day < 1)
        return 0;
    int leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (day > month_days[month - 1] + (month == 2 && leap)) return 0;
    int hour = 0, minute = 0, s = 0;
    double f = 0.0;
    if (at < n && (b[at] == 'T' || b[at] == ' ')) {
        at++;
        if (!digits(b, n, &at, 2, &hour) || !expect(b, n, &at, ':') || !digits(b, n, &at, 2, &minute) || hour >= 24 || minute >= 60)
            return 0;
        if (expect(b, n, &at, ':')) {
            if (!digits(b, n, &at, 2, &s) || s >= 61) return 0;
            if (expect(b, n, &at, '.')) {
                int start = at;
                while (at < n && b[at] >= '0' && b[at] <= '9') at++;
                if (at == start) return 0;
                f = fraction_of(b + start, at - start);
                if (f < 0) return 0;
            }
        }
    }
    long long offset = 0;
    if (at < n) {
        if (b[at] == 'Z') {
            at++;
        } else if (b[at] == '+' || b[at] == '-') {
            int sign = b[at] == '-' ? -1 : 1, h, m = 0;
            at++;
            if (!digits(b, n, &at, 2, &h)) return 0;
            /* `+08:00`, `+0800`, or the hours alone, `+08` (after a time only). */
            if (at < n || (b[10] != 'T' && b[10] != ' ')) {
                expect(b, n, &at, ':');
                if (!digits(b, n, &at, 2, &m)) return 0;
            }
            offset = sign * (h * 3600LL + m * 60LL);
        }
    }
    if (at != n) return 0;
    /* Days from 1970-01-01 (proleptic Gregorian; Howard Hinnant's algorithm). */
    long long y = month <= 2 ? year - 1 : year;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    long long days = era * 146097 + doe - 719468;
    *minute_seconds = days * 86400 + hour * 3600LL + minute * 60LL - offset;
    *second = s;
    *fraction = f;
    return 1;
}

/* `Value.parseISO8601Basic`: `20180903`, `20180903T141500`, `20180903T141500Z`, read as
   their extended forms are. */
static int basic_parts(const unsigned char *b, int n, long long *minute_seconds, int *second, double *fraction) {
    if (n != 8 && n != 15 && n != 16) return 0;
    for (int k = 0; k < 8; k++)
        if (b[k] < '0' || b[k] > '9') return 0;
    unsigned char extended[20];
    memcpy(extended, b, 4);
    extended[4] = '-';
    memcpy(extended + 5, b + 4, 2);
    extended[7] = '-';
    memcpy(extended + 8, b + 6, 2);
    int length = 10;
    if (n > 8) {
        if (b[8] != 'T') return 0;
        for (int k = 9; k < 15; k++)
            if (b[k] < '0' || b[k] > '9') return 0;
        if (n == 16 && b[15] != 'Z') return 0;
        extended[10] = 'T';
        memcpy(extended + 11, b + 9, 2);
        extended[13] = ':';
        memcpy(extended + 14, b + 11, 2);
        extended[16] = ':';
        memcpy(extended + 17, b + 13, 2);
        length = 19;
        if (n == 16) extended[length++] = 'Z';
    }
    return iso_parts(extended, length, minute_seconds, second, fraction);
}

static void iso_seconds(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) return;
    const unsigned char *b = sqlite3_value_text(argv[0]);
    int n = sqlite3_value_bytes(argv[0]);
    if (!b) return;
    long long minute_seconds;
    int second;
    double fraction;
    if (iso_parts(b, n, &minute_seconds, &second, &fraction)) {
        /* `Value.parseISO8601Milliseconds`: to the millisecond, unless that would leave
           the dates Quarry writes (`Value.dateRange`). */
        long long milliseconds = minute_seconds * 1000 + (long long)(((double)second + fraction) * 1000 + 0.5);
        double rounded = (double)milliseconds / 1000;
        /* `Value.lastInstant`, the double before 10000-01-01: 2^47 <= 253402300800 < 2^48,
           so doubles there are 2^-5 apart. */
        double last = 253402300800.0 - 0.03125;
        if (rounded >= -62135596800.0 && rounded <= last) {
            sqlite3_result_double(ctx, rounded);
        } else {
            sqlite3_result_double(ctx, (double)(minute_seconds + second) + fraction);
        }
        return;
    }
    /* `Value.parseISO8601Basic`: whole seconds. */
    if (basic_parts(b, n, &minute_seconds, &second, &fraction))
        sqlite3_result_double(ctx, (double)(minute_seconds + second) + fraction);
}

int quarry_sqlite_add_date_functions(sqlite3 *db) {
    return sqlite3_create_function_v2(db, "quarry_iso_seconds", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                      iso_seconds, NULL, NULL, NULL);
}
