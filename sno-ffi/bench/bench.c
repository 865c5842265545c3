/* C benchmark: libsno's C API against libuuid in the same run (ns/op, median of 7 runs).
 * Run: make -C sno-ffi bench   (needs Debian's uuid-dev) */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uuid/uuid.h>

#include "sno.h"

#define RUNS 7
#define BATCH 16384 /* a quarter of a 4 ms unit's pool: never saturates */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile unsigned char sink;

/* Waits for a fresh 4 ms unit (untimed) so a batch never runs out of sequence numbers. */
static void fresh_unit(void) {
    sno_id a, b;
    sno_new(0, &a);
    do {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
        sno_new(0, &b);
    } while (sno_id_timestamp(a) == sno_id_timestamp(b));
}

typedef double (*bench_fn)(void);

static sno_generator *gen;
static sno_id ids[BATCH];
static char texts[BATCH][SNO_ENCODED_LEN];
static uuid_t uuids[BATCH];
static char uuid_texts[BATCH][37];

/* Outputs go to a small, cache-resident window, as in the Rust benchmarks (black_box). */
static double b_try_next(void) {
    fresh_unit();
    double t = now_ns();
    for (int i = 0; i < BATCH; i++) sno_generator_try_next(gen, 0, &ids[i & 63], NULL);
    return (now_ns() - t) / BATCH;
}
static double b_encode(void) {
    double t = now_ns();
    for (int i = 0; i < BATCH; i++) sno_id_encode(&ids[i], texts[i]);
    return (now_ns() - t) / BATCH;
}
static double b_decode(void) {
    double t = now_ns();
    for (int i = 0; i < BATCH; i++) sno_id_decode(texts[i], SNO_ENCODED_LEN, &ids[i & 63]);
    return (now_ns() - t) / BATCH;
}
static sno_id decoded[BATCH];
static double b_encode_many(void) {
    double t = now_ns();
    sno_id_encode_many(ids, BATCH, &texts[0][0]);
    return (now_ns() - t) / BATCH;
}
static double b_decode_many(void) {
    double t = now_ns();
    sno_id_decode_many(&texts[0][0], BATCH, decoded, NULL);
    return (now_ns() - t) / BATCH;
}
static double b_uuid_time(void) {
    double t = now_ns();
    for (int i = 0; i < BATCH; i++) uuid_generate_time(uuids[i]);
    return (now_ns() - t) / BATCH;
}
static double b_uuid_unparse(void) {
    double t = now_ns();
    for (int i = 0; i < BATCH; i++) uuid_unparse(uuids[i], uuid_texts[i]);
    return (now_ns() - t) / BATCH;
}
static double b_uuid_parse(void) {
    double t = now_ns();
    for (int i = 0; i < BATCH; i++) uuid_parse(uuid_texts[i], uuids[i]);
    return (now_ns() - t) / BATCH;
}

static double median(bench_fn f) {
    double r[RUNS];
    f(); /* warm-up */
    for (int i = 0; i < RUNS; i++) r[i] = f();
    qsort(r, RUNS, sizeof r[0], cmp_double);
    sink ^= ids[BATCH - 1].bytes[9] ^ (unsigned char)texts[7][3] ^ uuids[9][2];
    return r[RUNS / 2];
}

int main(void) {
    if (sno_generator_new(NULL, &gen) != SNO_STATUS_OK) return 1;
    double next = median(b_try_next), enc = median(b_encode), dec = median(b_decode);
    double encm = median(b_encode_many), decm = median(b_decode_many);
    double ut = median(b_uuid_time), up = median(b_uuid_unparse), upp = median(b_uuid_parse);
    printf("| operation | libsno (C API) | libuuid | ratio |\n|---|---|---|---|\n");
    printf("| generate | sno_generator_try_next %.1f ns | uuid_generate_time %.1f ns | %.1fx |\n", next, ut, ut / next);
    printf("| encode | sno_id_encode %.1f ns | uuid_unparse %.1f ns | %.1fx |\n", enc, up, up / enc);
    printf("| decode (strict) | sno_id_decode %.1f ns | uuid_parse %.1f ns | %.1fx |\n", dec, upp, upp / dec);
    printf("| encode, batch of %d | sno_id_encode_many %.2f ns/ID | uuid_unparse %.1f ns | %.1fx |\n", BATCH, encm, up, up / encm);
    printf("| decode, batch of %d | sno_id_decode_many %.2f ns/ID | uuid_parse %.1f ns | %.1fx |\n", BATCH, decm, upp, upp / decm);
    sno_generator_free(gen);
    return 0;
}
