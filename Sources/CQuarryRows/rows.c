#include "quarry_rows.h"

int quarry_is_plain_utf8(const unsigned char *bytes, size_t length) {
    size_t i = 0;
    while (i < length) {
        unsigned char c = bytes[i];
        if (c == 0) return 0;
        if (c < 0x80) { i++; continue; }
        size_t n;
        uint32_t code;
        if ((c & 0xE0) == 0xC0) { n = 1; code = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { n = 2; code = c & 0x0F; }
        else if ((c & 0xF8) == 0xF0) { n = 3; code = c & 0x07; }
        else return 0;
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= length || (bytes[i + k] & 0xC0) != 0x80) return 0;
            code = (code << 6) | (bytes[i + k] & 0x3F);
        }
        /* Overlong forms, surrogates and code points past U+10FFFF are not UTF-8. */
        if ((n == 1 && code < 0x80) || (n == 2 && code < 0x800) || (n == 3 && code < 0x10000)) return 0;
        if ((code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return 0;
        i += n + 1;
    }
    return 1;
}
