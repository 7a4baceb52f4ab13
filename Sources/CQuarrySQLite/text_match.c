#include <stdlib.h>
#include <string.h>
#include "quarry_sqlite.h"

/* quarry_string_op and quarry_fold, the SQL side of [c], [d] and [cd] and of BEGINSWITH,
   ENDSWITH, CONTAINS and LIKE. They are written in C because SQLite calls them once per
   row: through GRDB's Swift wrapper each call cost about a microsecond (arguments boxed,
   Strings made, the pattern folded again), twenty times LIKE. Here the pattern is folded
   once per statement (kept with sqlite3_set_auxdata) and ASCII text, by far the common
   case, is matched byte by byte with ASCII folding, which is what Unicode folding does
   to ASCII (a test checks every ASCII character). Anything else (non-ASCII text,
   MATCHES, blobs) goes to the Swift code the in-memory evaluator runs, so both agree. */

static quarry_text_match_fn swift_match;
static quarry_text_fold_fn swift_fold;

enum { OP_BEGINS = 0, OP_ENDS = 1, OP_CONTAINS = 2, OP_LIKE = 3 };
enum { CASE_INSENSITIVE = 1 };

typedef struct {
    int options;
    int ascii;           /* the folded pattern is ASCII */
    int length;
    unsigned char *bytes; /* the folded pattern */
} folded_pattern;

static void free_pattern(void *p) {
    folded_pattern *f = p;
    free(f->bytes);
    free(f);
}

static int is_ascii(const unsigned char *s, int n) {
    for (int i = 0; i < n; i++) if (s[i] >= 0x80) return 0;
    return 1;
}

static unsigned char fold_byte(unsigned char c, int options) {
    return (options & CASE_INSENSITIVE) && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Text as GRDB reads it into a Swift String: up to its first NUL. */
static int text_length(sqlite3_value *v, const unsigned char **out) {
    const unsigned char *s = sqlite3_value_text(v);
    *out = s;
    return s ? (int)strlen((const char *)s) : 0;
}

static int starts(const unsigned char *t, int tn, const unsigned char *p, int pn, int options) {
    if (pn > tn) return 0;
    for (int i = 0; i < pn; i++) if (fold_byte(t[i], options) != p[i]) return 0;
    return 1;
}

static int contains(const unsigned char *t, int tn, const unsigned char *p, int pn, int options) {
    if (pn == 0) return 0; /* NSString finds no empty string: CONTAINS "" is false (StringMatching) */
    for (int start = 0; start + pn <= tn; start++)
        if (starts(t + start, tn - start, p, pn, options)) return 1;
    return 0;
}

/* StringMatching.like, byte for byte: `*` any run, `?` one character, `\` makes the next literal. */
static int like(const unsigned char *t, int tn, const unsigned char *p, int pn, int options) {
    int ti = 0, pi = 0, star = -1, resume = 0;
    while (ti < tn) {
        unsigned char c = fold_byte(t[ti], options);
        if (pi < pn && p[pi] == '\\' && pi + 1 < pn && p[pi + 1] == c) {
            ti += 1; pi += 2;
        } else if (pi < pn && p[pi] != '*' && p[pi] != '\\' && (p[pi] == '?' || p[pi] == c)) {
            ti += 1; pi += 1;
        } else if (pi < pn && p[pi] == '*') {
            star = pi; resume = ti; pi += 1;
        } else if (star >= 0) {
            pi = star + 1; resume += 1; ti = resume;
        } else {
            return 0;
        }
    }
    while (pi < pn && p[pi] == '*') pi++;
    return pi == pn;
}

/* The pattern folded for `options`: the one kept for this statement, or a new one (*fresh
   set) for the caller to keep with keep_pattern once it is done with it. */
static folded_pattern *pattern_for(sqlite3_context *ctx, sqlite3_value *value, int options, int *fresh) {
    folded_pattern *f = sqlite3_get_auxdata(ctx, 1);
    *fresh = 0;
    if (f && f->options == options) return f;
    const unsigned char *raw;
    int n = text_length(value, &raw);
    f = malloc(sizeof *f);
    if (!f) return NULL;
    f->options = options;
    if (options == 0 || !swift_fold) {
        f->bytes = malloc((size_t)n + 1);
        if (f->bytes) memcpy(f->bytes, raw, (size_t)n);
        f->length = n;
    } else {
        int length = 0;
        f->bytes = (unsigned char *)swift_fold(raw, n, 0, options, &length);
        f->length = length;
    }
    if (!f->bytes) { free(f); return NULL; }
    f->ascii = is_ascii(f->bytes, f->length);
    *fresh = 1;
    return f;
}

/* SQLite keeps it for the next row when the pattern is a constant (a bound argument), and
   may free it at once otherwise: so it is handed over only after its last use. */
static void keep_pattern(sqlite3_context *ctx, folded_pattern *f) {
    sqlite3_set_auxdata(ctx, 1, f, free_pattern);
}

static void string_op(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int ta = sqlite3_value_type(argv[0]), pa = sqlite3_value_type(argv[1]);
    int op = sqlite3_value_int(argv[2]), options = sqlite3_value_int(argv[3]);
    /* A number is matched as the text SQLite gives it, as its LIKE and GLOB read it: a
       SQLite file's number column may hold text (Anki's `notes.sfld integer`), and
       BEGINSWITH answers for its numbers as sqlite3's LIKE does. The evaluator agrees
       (NumericAffinity.text). */
    if (ta == SQLITE_INTEGER || ta == SQLITE_FLOAT) ta = SQLITE_TEXT;
    if (pa == SQLITE_INTEGER || pa == SQLITE_FLOAT) pa = SQLITE_TEXT;
    if (ta == SQLITE_TEXT && pa == SQLITE_TEXT && op >= OP_BEGINS && op <= OP_LIKE) {
        const unsigned char *t;
        int tn = text_length(argv[0], &t);
        if (is_ascii(t, tn)) {
            int fresh;
            folded_pattern *f = pattern_for(ctx, argv[1], options, &fresh);
            if (f) {
                int found = 0;
                if (f->ascii) {
                    switch (op) {
                    case OP_BEGINS: found = starts(t, tn, f->bytes, f->length, options); break;
                    case OP_ENDS: found = f->length <= tn && starts(t + tn - f->length, f->length, f->bytes, f->length, options); break;
                    case OP_CONTAINS: found = contains(t, tn, f->bytes, f->length, options); break;
                    default: found = like(t, tn, f->bytes, f->length, options); break;
                    }
                }
                /* A non-ASCII folded pattern holds a character that ASCII text, folded,
                   cannot: it neither contains, starts, ends with nor is like it. */
                if (fresh) keep_pattern(ctx, f);
                sqlite3_result_int(ctx, found);
                return;
            }
        }
    }
    /* NULL is no string: NULL, as the Swift function answers. */
    if ((ta != SQLITE_TEXT && ta != SQLITE_BLOB) || (pa != SQLITE_TEXT && pa != SQLITE_BLOB) || !swift_match) {
        sqlite3_result_null(ctx);
        return;
    }
    const unsigned char *t, *p;
    int tn, pn;
    if (ta == SQLITE_TEXT) tn = text_length(argv[0], &t);
    else { t = sqlite3_value_blob(argv[0]); tn = sqlite3_value_bytes(argv[0]); }
    if (pa == SQLITE_TEXT) pn = text_length(argv[1], &p);
    else { p = sqlite3_value_blob(argv[1]); pn = sqlite3_value_bytes(argv[1]); }
    int answer = swift_match(t, tn, ta == SQLITE_BLOB, p, pn, pa == SQLITE_BLOB, op, options);
    if (answer < 0) sqlite3_result_null(ctx); else sqlite3_result_int(ctx, answer);
}

static void fold(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int type = sqlite3_value_type(argv[0]);
    int options = sqlite3_value_int(argv[1]);
    if (type != SQLITE_TEXT && type != SQLITE_BLOB) { sqlite3_result_value(ctx, argv[0]); return; }
    const unsigned char *t;
    int n;
    if (type == SQLITE_TEXT) {
        n = text_length(argv[0], &t);
        if (is_ascii(t, n)) {
            unsigned char *out = sqlite3_malloc(n + 1);
            if (!out) { sqlite3_result_error_nomem(ctx); return; }
            for (int i = 0; i < n; i++) out[i] = fold_byte(t[i], options);
            sqlite3_result_text(ctx, (const char *)out, n, sqlite3_free);
            return;
        }
    } else {
        t = sqlite3_value_blob(argv[0]);
        n = sqlite3_value_bytes(argv[0]);
    }
    int length = 0;
    char *folded = swift_fold ? swift_fold(t, n, type == SQLITE_BLOB, options, &length) : NULL;
    if (!folded) { sqlite3_result_value(ctx, argv[0]); return; }
    sqlite3_result_text(ctx, folded, length, free);
}

int quarry_sqlite_add_text_functions(sqlite3 *db, quarry_text_match_fn match, quarry_text_fold_fn fold_fn) {
    swift_match = match;
    swift_fold = fold_fn;
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc = sqlite3_create_function_v2(db, "quarry_string_op", 4, flags, NULL, string_op, NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function_v2(db, "quarry_fold", 2, flags, NULL, fold, NULL, NULL, NULL);
    return rc;
}
