/* ULID, UUIDv7 and SCRU128 through the C API: every row of their vector files, the timestamps
 * of the reference generator traces (the exact random draws are replayed by the Rust tests,
 * which can script the RNG), NULLs and bad arguments, and threads sharing a generator. */
#include <pthread.h>

#include "common.h"

static const char CROCKFORD[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz";
static const char BASE36[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

DECODER(dec_ulid, sno_ulid, sno_ulid_decode)
DECODER(dec_uuid7, sno_uuid7, sno_uuid7_decode)
DECODER(dec_uuid7_lenient, sno_uuid7, sno_uuid7_decode_lenient)
DECODER(dec_scru128, sno_scru128, sno_scru128_decode)

static int is_v7(const unsigned char b[16]) { return b[6] >> 4 == 7 && b[8] >> 6 == 2; }

/* hex, ulid, timestamp_ms, randomness_hex, uuid, note */
static void ulid_row(char **c) {
    sno_ulid id, back;
    CHECK(from_hex(c[0], id.bytes, 16) == 16, "%s: hex", c[5]);
    char text[SNO_ULID_ENCODED_LEN], ctext[SNO_ULID_ENCODED_LEN + 1], low[64];
    CHECK_STATUS(sno_ulid_encode(&id, text), SNO_STATUS_OK);
    CHECK(memcmp(text, c[1], SNO_ULID_ENCODED_LEN) == 0, "%s: encode %.26s", c[5], text);
    CHECK_STATUS(sno_ulid_encode_cstr(&id, ctext, sizeof ctext), SNO_STATUS_OK);
    CHECK(strcmp(ctext, c[1]) == 0, "%s: encode_cstr", c[5]);
    CHECK_STATUS(sno_ulid_decode(c[1], strlen(c[1]), &back, NULL), SNO_STATUS_OK);
    CHECK(sno_ulid_compare(back, id) == 0, "%s: decode", c[5]);
    lower(c[1], low);
    memset(&back, 0, sizeof back);
    CHECK_STATUS(sno_ulid_decode(low, strlen(low), &back, NULL), SNO_STATUS_OK);
    CHECK(memcmp(back.bytes, id.bytes, 16) == 0, "%s: lower-case decode", c[5]);
    CHECK(sno_ulid_unix_ms(id) == strtoull(c[2], NULL, 10), "%s: timestamp", c[5]);
    /* ULID <-> UUID: the same bytes; a UUIDv7 view only where the bits say so. */
    sno_uuid7 u;
    char utext[SNO_UUID7_ENCODED_LEN + 1];
    if (is_v7(id.bytes)) {
        CHECK_STATUS(sno_uuid7_from_ulid(id, &u), SNO_STATUS_OK);
        CHECK_STATUS(sno_uuid7_encode_cstr(&u, utext, sizeof utext), SNO_STATUS_OK);
        CHECK(strcmp(utext, c[4]) == 0, "%s: as uuid %s", c[5], utext);
        CHECK_STATUS(sno_ulid_from_uuid7(u, &back), SNO_STATUS_OK);
        CHECK(memcmp(back.bytes, id.bytes, 16) == 0, "%s: back from uuid", c[5]);
    } else {
        CHECK_STATUS(sno_uuid7_from_ulid(id, &u), SNO_STATUS_NOT_VERSION7);
    }
}

/* hex, uuid, unix_ts_ms, rand_a_hex, rand_b_hex, builder_input_hex, same_bits_as_ulid, note */
static void uuid7_row(char **c) {
    unsigned char raw[16];
    CHECK(from_hex(c[0], raw, 16) == 16, "%s: hex", c[7]);
    sno_uuid7 id, back;
    CHECK_STATUS(sno_uuid7_from_bytes(raw, 16, &id), SNO_STATUS_OK);
    char ctext[SNO_UUID7_ENCODED_LEN + 1], up[64];
    CHECK_STATUS(sno_uuid7_encode_cstr(&id, ctext, sizeof ctext), SNO_STATUS_OK);
    CHECK(strcmp(ctext, c[1]) == 0, "%s: encode %s", c[7], ctext);
    CHECK_STATUS(sno_uuid7_decode(c[1], strlen(c[1]), &back, NULL), SNO_STATUS_OK);
    CHECK(sno_uuid7_compare(back, id) == 0, "%s: decode", c[7]);
    upper(c[1], up);
    CHECK_STATUS(sno_uuid7_decode(up, strlen(up), &back, NULL), SNO_STATUS_OK);
    CHECK(sno_uuid7_compare(back, id) == 0, "%s: upper-case decode", c[7]);
    uint64_t ms = 0, rand_b = 0;
    uint16_t rand_a = 0;
    CHECK_STATUS(sno_uuid7_fields(id, &ms, &rand_a, &rand_b), SNO_STATUS_OK);
    CHECK(ms == strtoull(c[2], NULL, 10) && sno_uuid7_unix_ms(id) == ms, "%s: ms", c[7]);
    CHECK(rand_a == strtoul(c[3], NULL, 16), "%s: rand_a", c[7]);
    CHECK(rand_b == strtoull(c[4], NULL, 16), "%s: rand_b", c[7]);
    sno_ulid as_ulid;
    char ultext[SNO_ULID_ENCODED_LEN + 1];
    CHECK_STATUS(sno_ulid_from_uuid7(id, &as_ulid), SNO_STATUS_OK);
    sno_ulid_encode_cstr(&as_ulid, ultext, sizeof ultext);
    CHECK(strcmp(ultext, c[6]) == 0, "%s: as ulid %s", c[7], ultext);
}

/* hex, scru128, timestamp_ms, counter_hi, counter_lo, entropy, note */
static void scru128_row(char **c) {
    sno_scru128 id, back;
    CHECK(from_hex(c[0], id.bytes, 16) == 16, "%s: hex", c[6]);
    char text[SNO_SCRU128_ENCODED_LEN], up[64];
    CHECK_STATUS(sno_scru128_encode(&id, text), SNO_STATUS_OK);
    CHECK(memcmp(text, c[1], SNO_SCRU128_ENCODED_LEN) == 0, "%s: encode %.25s", c[6], text);
    CHECK_STATUS(sno_scru128_decode(c[1], strlen(c[1]), &back, NULL), SNO_STATUS_OK);
    CHECK(sno_scru128_compare(back, id) == 0, "%s: decode", c[6]);
    upper(c[1], up);
    CHECK_STATUS(sno_scru128_decode(up, strlen(up), &back, NULL), SNO_STATUS_OK);
    CHECK(memcmp(back.bytes, id.bytes, 16) == 0, "%s: upper-case decode", c[6]);
    CHECK(sno_scru128_unix_ms(id) == strtoull(c[2], NULL, 10), "%s: ms", c[6]);
    CHECK(sno_scru128_counter_hi(id) == strtoul(c[3], NULL, 10), "%s: counter_hi", c[6]);
    CHECK(sno_scru128_counter_lo(id) == strtoul(c[4], NULL, 10), "%s: counter_lo", c[6]);
    CHECK(sno_scru128_entropy(id) == strtoul(c[5], NULL, 10), "%s: entropy", c[6]);
}

/* input_json, case, expected, ... (ULID and SCRU128 invalid files) */
static void ulid_invalid_row(char **c) {
    sno_status st = try_decode(dec_ulid, c[0], CROCKFORD, c[1]);
    sno_status want = strcmp(c[2], "accept") == 0 ? SNO_STATUS_OK : want_reject(c[0], c[1], SNO_ULID_ENCODED_LEN);
    CHECK(st == want, "%s: %d want %d", c[1], (int)st, (int)want);
}

static void scru128_invalid_row(char **c) {
    sno_status st = try_decode(dec_scru128, c[0], BASE36, c[1]);
    sno_status want = strcmp(c[2], "accept") == 0 ? SNO_STATUS_OK : want_reject(c[0], c[1], SNO_SCRU128_ENCODED_LEN);
    CHECK(st == want, "%s: %d want %d", c[1], (int)st, (int)want);
}

/* input_json, case, expected, ... The URN is an RFC 9562 string form, so the strict decoder
 * takes it; bare hex and braces only the lenient one. */
static void uuid7_invalid_row(char **c) {
    sno_status strict = try_decode(dec_uuid7, c[0], NULL, c[1]);
    sno_status lenient = try_decode(dec_uuid7_lenient, c[0], NULL, c[1]);
    if (strcmp(c[2], "accept as v7") == 0 || (strncmp(c[2], "accept if lenient", 17) == 0 && strstr(c[1], "URN"))) {
        CHECK(strict == SNO_STATUS_OK && lenient == SNO_STATUS_OK, "%s", c[1]);
    } else if (strncmp(c[2], "accept if lenient", 17) == 0) {
        CHECK(strict != SNO_STATUS_OK && lenient == SNO_STATUS_OK, "%s", c[1]);
    } else if (strncmp(c[2], "reject as v7", 12) == 0) {
        CHECK(strict == SNO_STATUS_NOT_VERSION7 && lenient == SNO_STATUS_NOT_VERSION7, "%s: %d", c[1], (int)strict);
    } else {
        CHECK(strict != SNO_STATUS_OK && lenient != SNO_STATUS_OK, "%s", c[1]);
    }
}

/* The traces: each scenario on a fresh generator driven through next_at; the timestamps of
 * the outputs (which the clock rules decide) must match, and every output must increase. */
static sno_ulid_generator *ulid_gen;
static sno_ulid ulid_prev;
static char trace_scenario[256];

/* scenario, implementation, step, input_ms, output_ulid, result, note: we follow npm ulid. */
static void ulid_trace_row(char **c) {
    if (strncmp(c[1], "npm ulid", 8) != 0 || strcmp(c[0], "overflow") == 0) return; /* see note */
    if (strcmp(c[0], trace_scenario) != 0) {
        sno_ulid_generator_free(ulid_gen);
        CHECK_STATUS(sno_ulid_generator_new(&ulid_gen), SNO_STATUS_OK);
        snprintf(trace_scenario, sizeof trace_scenario, "%s", c[0]);
        memset(&ulid_prev, 0, sizeof ulid_prev);
    }
    sno_ulid got, want;
    CHECK_STATUS(sno_ulid_generator_next_at_unix_ms(ulid_gen, strtoll(c[3], NULL, 10), &got), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulid_decode(c[4], strlen(c[4]), &want, NULL), SNO_STATUS_OK);
    CHECK(sno_ulid_unix_ms(got) == sno_ulid_unix_ms(want), "%s step %s: ms", c[0], c[2]);
    CHECK(sno_ulid_compare(ulid_prev, got) < 0, "%s step %s: order", c[0], c[2]);
    ulid_prev = got;
}

static sno_uuid7_generator *uuid7_gen;
static sno_uuid7 uuid7_prev;

/* step, input_unix_ms, output_uuid, output_unix_ts_ms, counter42_hex, greater_than_previous */
static void uuid7_trace_row(char **c) {
    sno_uuid7 got;
    CHECK_STATUS(sno_uuid7_generator_next_at_unix_ms(uuid7_gen, strtoll(c[1], NULL, 10), &got), SNO_STATUS_OK);
    CHECK(sno_uuid7_unix_ms(got) == strtoull(c[3], NULL, 10), "step %s: ms", c[0]);
    CHECK(sno_uuid7_compare(uuid7_prev, got) < 0, "step %s: order", c[0]);
    uuid7_prev = got;
}

static sno_scru128_generator *scru128_gen;

/* scenario, step, call, input_timestamp_ms, output_scru128, timestamp_ms, counter_hi,
 * counter_lo, entropy, result. The C generator is the reset variant; an abort row (no output)
 * is where the reference's abort variant refused, and the reset rows after it restart. The
 * counter-overflow scenario needs scripted randomness (Rust tests). */
static void scru128_trace_row(char **c) {
    if (strncmp(c[0], "xorshift", 8) != 0) return;
    if (strcmp(c[9], "ok") != 0) {
        CHECK(strstr(c[9], "abort") != NULL, "step %s: %s", c[1], c[9]);
        return;
    }
    sno_scru128 got;
    CHECK_STATUS(sno_scru128_generator_next_at_unix_ms(scru128_gen, strtoll(c[3], NULL, 10), &got), SNO_STATUS_OK);
    CHECK(sno_scru128_unix_ms(got) == strtoull(c[5], NULL, 10), "step %s: ms", c[1]);
}

static void traces(const char *dir) {
    CHECK(each_row(dir, "ulid_monotonic.tsv", 7, ulid_trace_row) == 52, "ulid trace rows");
    sno_ulid_generator_free(ulid_gen);
    CHECK_STATUS(sno_uuid7_generator_new(&uuid7_gen), SNO_STATUS_OK);
    CHECK(each_row(dir, "uuidv7_monotonic.tsv", 6, uuid7_trace_row) == 10, "uuid7 trace rows");
    sno_uuid7_generator_free(uuid7_gen);
    CHECK_STATUS(sno_scru128_generator_new(&scru128_gen), SNO_STATUS_OK);
    CHECK(each_row(dir, "scru128_generator.tsv", 10, scru128_trace_row) == 20, "scru128 trace rows");
    sno_scru128_generator_free(scru128_gen);
}

static void nulls_and_bad_arguments(void) {
    sno_ulid u = {{0}};
    sno_uuid7 v = {{0}};
    sno_scru128 s = {{0}};
    char buf[64];
    CHECK_STATUS(sno_ulid_new(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_uuid7_new(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_scru128_new(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulid_encode(NULL, buf), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_scru128_encode(&s, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulid_decode(NULL, 26, &u, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulid_decode(NULL, 0, &u, NULL), SNO_STATUS_INVALID_LENGTH);
    CHECK_STATUS(sno_scru128_decode("0372hg16csmsm50l8dikcvukc", 25, NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_uuid7_from_bytes(NULL, 16, &v), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulid_generator_new(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulid_generator_next(NULL, &u), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulid_generator_try_next(NULL, &u), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_uuid7_generator_next_at_unix_ms(NULL, 0, &v), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_scru128_generator_next(NULL, &s), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulid_from_uuid7(v, NULL), SNO_STATUS_NOT_VERSION7); /* all-zero is no v7 */
    sno_ulid_generator_free(NULL);
    sno_uuid7_generator_free(NULL);
    sno_scru128_generator_free(NULL);

    /* The all-zero struct is not a UUIDv7: everything reading it as one refuses. */
    CHECK_STATUS(sno_uuid7_encode(&v, buf), SNO_STATUS_NOT_VERSION7);
    CHECK_STATUS(sno_uuid7_fields(v, NULL, NULL, NULL), SNO_STATUS_NOT_VERSION7);
    unsigned char raw[17] = {0};
    CHECK_STATUS(sno_uuid7_from_bytes(raw, 17, &v), SNO_STATUS_INVALID_LENGTH);
    CHECK_STATUS(sno_uuid7_from_bytes(raw, 16, &v), SNO_STATUS_NOT_VERSION7);

    char small[SNO_ULID_ENCODED_LEN];
    CHECK_STATUS(sno_ulid_encode_cstr(&u, small, sizeof small), SNO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(sno_scru128_encode_cstr(&s, small, SNO_SCRU128_ENCODED_LEN), SNO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(sno_scru128_encode_cstr(&s, small, SNO_SCRU128_ENCODED_LEN + 1), SNO_STATUS_OK);
    CHECK(strcmp(small, "0000000000000000000000000") == 0, "zero scru128 %s", small);

    size_t pos = 0;
    CHECK_STATUS(sno_ulid_decode("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", 26, &u, &pos), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ulid_decode("01ARZ3NDEKTSV4RRFFQ69G5FAU", 26, &u, &pos), SNO_STATUS_INVALID_BYTE);
    CHECK(pos == 25, "U at 25: %zu", pos);
    CHECK_STATUS(sno_uuid7_decode("017f22e2-79b0-7cc3-98c4-dc0c0c07398", 35, &v, &pos), SNO_STATUS_INVALID_LENGTH);
    CHECK(pos == 35, "length 35: %zu", pos);
    CHECK_STATUS(sno_uuid7_decode("017f22e2-79b0-6cc3-98c4-dc0c0c07398f", 36, &v, &pos), SNO_STATUS_NOT_VERSION7);

    sno_ulid_generator *g = NULL;
    CHECK_STATUS(sno_ulid_generator_new(&g), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulid_generator_next_at_unix_ms(g, -1, &u), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    CHECK_STATUS(sno_ulid_generator_next_at_unix_ms(g, (int64_t)1 << 48, &u), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    sno_ulid_generator_free(g);
    sno_scru128_generator *sg = NULL;
    CHECK_STATUS(sno_scru128_generator_new(&sg), SNO_STATUS_OK);
    CHECK_STATUS(sno_scru128_generator_next_at_unix_ms(sg, 0, &s), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    sno_scru128_generator_free(sg);
    CHECK(strcmp(sno_status_str(SNO_STATUS_NOT_VERSION7), "not a version 7 UUID with the RFC 9562 variant") == 0, "status string");
}

/* Global and per-object generation: fresh values, increasing, with the current time. */
static void generation(void) {
    sno_ulid a, b;
    CHECK_STATUS(sno_ulid_new(&a), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulid_new(&b), SNO_STATUS_OK);
    CHECK(sno_ulid_compare(a, b) < 0, "global ULIDs increase");
    CHECK(sno_ulid_unix_ms(a) > 1700000000000ULL, "ULID time is now");
    sno_uuid7 u, w;
    CHECK_STATUS(sno_uuid7_new(&u), SNO_STATUS_OK);
    CHECK_STATUS(sno_uuid7_new(&w), SNO_STATUS_OK);
    CHECK(sno_uuid7_compare(u, w) < 0 && is_v7(u.bytes), "global UUIDv7s increase");
    sno_scru128 s, t;
    CHECK_STATUS(sno_scru128_new(&s), SNO_STATUS_OK);
    CHECK_STATUS(sno_scru128_new(&t), SNO_STATUS_OK);
    CHECK(sno_scru128_compare(s, t) < 0, "global SCRU128 IDs increase");
    sno_ulid_generator *g = NULL;
    CHECK_STATUS(sno_ulid_generator_new(&g), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulid_generator_try_next(g, &a), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulid_generator_next(g, &b), SNO_STATUS_OK);
    CHECK(sno_ulid_compare(a, b) < 0, "generator ULIDs increase");
    sno_ulid_generator_free(g);
}

#define THREADS 4
#define PER_THREAD 20000

static sno_ulid_generator *shared_ulid;
static sno_uuid7_generator *shared_uuid7;
static sno_scru128_generator *shared_scru128;
static unsigned char made[3][THREADS * PER_THREAD][16];
static int thread_errors[THREADS];

/* Each thread takes PER_THREAD values of each format, checking its own order. */
static void *worker(void *arg) {
    int t = (int)(size_t)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        size_t k = (size_t)t * PER_THREAD + (size_t)i;
        sno_ulid u;
        sno_uuid7 v;
        sno_scru128 s;
        if (sno_ulid_generator_next(shared_ulid, &u) != SNO_STATUS_OK) thread_errors[t]++;
        if (sno_uuid7_generator_next(shared_uuid7, &v) != SNO_STATUS_OK) thread_errors[t]++;
        if (sno_scru128_generator_next(shared_scru128, &s) != SNO_STATUS_OK) thread_errors[t]++;
        memcpy(made[0][k], u.bytes, 16);
        memcpy(made[1][k], v.bytes, 16);
        memcpy(made[2][k], s.bytes, 16);
        for (int f = 0; f < 3 && i > 0; f++) thread_errors[t] += memcmp(made[f][k - 1], made[f][k], 16) >= 0;
    }
    return NULL;
}

static int cmp16(const void *a, const void *b) { return memcmp(a, b, 16); }

static void threads(void) {
    CHECK_STATUS(sno_ulid_generator_new(&shared_ulid), SNO_STATUS_OK);
    CHECK_STATUS(sno_uuid7_generator_new(&shared_uuid7), SNO_STATUS_OK);
    CHECK_STATUS(sno_scru128_generator_new(&shared_scru128), SNO_STATUS_OK);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(size_t)t);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) CHECK(thread_errors[t] == 0, "thread %d: %d errors", t, thread_errors[t]);
    for (int f = 0; f < 3; f++) {
        qsort(made[f], THREADS * PER_THREAD, 16, cmp16);
        int dups = 0;
        for (int i = 1; i < THREADS * PER_THREAD; i++) dups += memcmp(made[f][i - 1], made[f][i], 16) == 0;
        CHECK(dups == 0, "format %d: %d duplicates", f, dups);
    }
    sno_ulid_generator_free(shared_ulid);
    sno_uuid7_generator_free(shared_uuid7);
    sno_scru128_generator_free(shared_scru128);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "testdata/vectors";
    CHECK(each_row(dir, "ulid_vectors.tsv", 6, ulid_row) == 283, "ulid rows");
    CHECK(each_row(dir, "uuidv7_vectors.tsv", 8, uuid7_row) == 258, "uuid7 rows");
    CHECK(each_row(dir, "scru128_vectors.tsv", 7, scru128_row) == 312, "scru128 rows");
    CHECK(each_row(dir, "ulid_invalid.tsv", 9, ulid_invalid_row) == 39, "ulid invalid rows");
    CHECK(each_row(dir, "uuidv7_invalid.tsv", 6, uuid7_invalid_row) == 26, "uuid7 invalid rows");
    CHECK(each_row(dir, "scru128_invalid.tsv", 6, scru128_invalid_row) == 32, "scru128 invalid rows");
    traces(dir);
    nulls_and_bad_arguments();
    generation();
    threads();
    return finish("test_formats");
}
