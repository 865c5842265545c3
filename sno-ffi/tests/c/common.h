/* Shared helpers for the C tests: a CHECK macro that counts, and a TSV line reader. */
#ifndef SNO_TEST_COMMON_H
#define SNO_TEST_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sno.h"

static int checks_run = 0;
static int checks_failed = 0;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        checks_run++;                                                           \
        if (!(cond)) {                                                          \
            checks_failed++;                                                    \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

#define CHECK_STATUS(expr, want) \
    do { sno_status got_ = (expr); CHECK(got_ == (want), "%s -> %d (%s), want %d", #expr, (int)got_, sno_status_str((int)got_), (int)(want)); } while (0)

/* Prints the closing line the CI runner reads and returns the exit code. */
static inline int finish(const char *name) {
    printf("%s: %d passed, %d failed\n", name, checks_run - checks_failed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

/* Splits a TSV line in place (literal tabs, no quoting); returns the number of cells. */
static inline int split_tabs(char *line, char **cells, int max) {
    int n = 0;
    char *p = line;
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
    cells[n++] = p;
    while (*p && n < max) {
        if (*p == '\t') { *p = '\0'; cells[n++] = p + 1; }
        p++;
    }
    return n;
}

static inline int hex_nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Decodes hex into out (capacity cap); returns the byte count or -1. */
static inline long from_hex(const char *hex, unsigned char *out, size_t cap) {
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_nibble(hex[2 * i]), lo = hex_nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

static inline size_t put_utf8(unsigned long cp, unsigned char *out) {
    if (cp < 0x80) { out[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { out[0] = (unsigned char)(0xC0 | cp >> 6); out[1] = (unsigned char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | cp >> 12); out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F)); return 3;
    }
    out[0] = (unsigned char)(0xF0 | cp >> 18); out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)); out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes a JSON string literal ("...", with \n \t \" \\ \/ and \uXXXX escapes, surrogate
 * pairs joined) into UTF-8 bytes; returns the length, or -1 on malformed input or overflow. */
static inline long json_string(const char *json, unsigned char *out, size_t cap) {
    size_t n = 0;
    if (*json++ != '"') return -1;
    while (*json && *json != '"') {
        unsigned long cp;
        if (*json != '\\') {
            cp = (unsigned char)*json++;
            if (n + 1 > cap) return -1;
            out[n++] = (unsigned char)cp;
            continue;
        }
        json++;
        switch (*json++) {
        case 'n': cp = '\n'; break;
        case 't': cp = '\t'; break;
        case 'r': cp = '\r'; break;
        case '"': cp = '"'; break;
        case '\\': cp = '\\'; break;
        case '/': cp = '/'; break;
        case 'u':
            cp = strtoul((char[5]){json[0], json[1], json[2], json[3], 0}, NULL, 16);
            json += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && json[0] == '\\' && json[1] == 'u') {
                unsigned long lo = strtoul((char[5]){json[2], json[3], json[4], json[5], 0}, NULL, 16);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                json += 6;
            }
            break;
        default: return -1;
        }
        if (n + 4 > cap) return -1;
        n += put_utf8(cp, out + n);
    }
    return *json == '"' ? (long)n : -1;
}

static inline FILE *open_vector(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(2); }
    return f;
}

typedef void (*row_fn)(char **cells);

/* Calls fn for every data row of dir/name (which must have `cells` columns); returns the count. */
static inline int each_row(const char *dir, const char *name, int cells, row_fn fn) {
    FILE *f = open_vector(dir, name);
    char line[4096];
    char *c[16];
    int rows = 0;
    if (!fgets(line, sizeof line, f)) exit(2); /* header */
    while (fgets(line, sizeof line, f)) {
        int n = split_tabs(line, c, 16);
        CHECK(n == cells, "%s row %d has %d cells", name, rows, n);
        if (n != cells) continue;
        rows++;
        fn(c);
    }
    fclose(f);
    return rows;
}

static inline void upper(const char *in, char *out) {
    size_t i = 0;
    for (; in[i]; i++) out[i] = (in[i] >= 'a' && in[i] <= 'z') ? (char)(in[i] - 32) : in[i];
    out[i] = '\0';
}

static inline void lower(const char *in, char *out) {
    size_t i = 0;
    for (; in[i]; i++) out[i] = (in[i] >= 'A' && in[i] <= 'Z') ? (char)(in[i] + 32) : in[i];
    out[i] = '\0';
}

/* The decoders behind one signature, writing into a buffer (of at least the value's size)
 * pre-filled with 0x5A. */
typedef sno_status (*decode_fn)(const char *, size_t, unsigned char *, size_t *);
#define DECODER(name, type, decode)                                                    \
    static inline sno_status name(const char *t, size_t n, unsigned char *out, size_t *pos) { \
        type v;                                                                               \
        memcpy(&v, out, sizeof v);                                                            \
        sno_status st = decode(t, n, &v, pos);                                                \
        memcpy(out, &v, sizeof v);                                                            \
        return st;                                                                            \
    }

/* Decodes a JSON input with `dec`; checks that a failure leaves the output untouched and that
 * the reported position names the length or a byte outside `alphabet` (NULL: a byte of the
 * input, for UUIDs, where which bytes are valid depends on the position). */
static inline sno_status try_decode(decode_fn dec, const char *json, const char *alphabet, const char *what) {
    unsigned char input[256], out[32];
    long len = json_string(json, input, sizeof input);
    CHECK(len >= 0, "%s: json %s", what, json);
    memset(out, 0x5A, sizeof out);
    size_t pos = 999;
    sno_status st = dec((const char *)input, (size_t)len, out, &pos);
    if (st == SNO_STATUS_INVALID_LENGTH) CHECK(pos == (size_t)len, "%s: length %zu", what, pos);
    if (st == SNO_STATUS_INVALID_BYTE) {
        CHECK(pos < (size_t)len && (!alphabet || input[pos] == 0 || !strchr(alphabet, input[pos])), "%s: position %zu", what, pos);
    }
    if (st != SNO_STATUS_OK) {
        int untouched = 1;
        for (size_t i = 0; i < sizeof out; i++) untouched &= out[i] == 0x5A;
        CHECK(untouched, "%s: output written on failure", what);
    }
    return st;
}

/* The status a rejected row must give: the length first, then overflow cases, else a byte. */
static inline sno_status want_reject(const char *json, const char *kase, size_t text_len) {
    unsigned char input[256];
    long len = json_string(json, input, sizeof input);
    if (len != (long)text_len) return SNO_STATUS_INVALID_LENGTH;
    if (strncmp(kase, "overflow", 8) == 0) return SNO_STATUS_VALUE_OVERFLOW;
    return SNO_STATUS_INVALID_BYTE;
}


#endif
