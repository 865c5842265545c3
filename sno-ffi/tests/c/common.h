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

static inline FILE *open_vector(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(2); }
    return f;
}

#endif
