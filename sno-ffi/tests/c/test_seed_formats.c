/* SCRU160, Nanoflakes and Ulid-Flake through the C API: every row of their vector files, the
 * timestamps and values of the reference generator runs (the random draws of Ulid-Flake are
 * replayed by the Rust tests, which can script the RNG), NULLs and bad arguments, and threads
 * sharing a generator. */
#include <pthread.h>

#include "common.h"

static const char BASE32HEX[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv";
static const char HEXDIGITS[] = "0123456789abcdefABCDEF";
static const char BASE36[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
static const char CROCKFORD[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz";
static const int64_t NANO_EPOCH = 1640995200000LL; /* the Java run's epoch, 2022-01-01 */

DECODER(dec_scru160, sno_scru160, sno_scru160_decode)
DECODER(dec_nanoflake, sno_nanoflake, sno_nanoflake_decode)
DECODER(dec_ulidflake, sno_ulidflake, sno_ulidflake_decode)

/* hex, base32hex, timestamp_ms, counter, random16, random80_hex, inspect_cli, note */
static void scru160_row(char **c) {
    sno_scru160 id, back;
    CHECK(from_hex(c[0], id.bytes, 20) == 20, "%s: hex", c[7]);
    char text[SNO_SCRU160_ENCODED_LEN + 1], hex[SNO_SCRU160_HEX_LEN], other[64];
    CHECK_STATUS(sno_scru160_encode_cstr(&id, text, sizeof text), SNO_STATUS_OK);
    CHECK(strcmp(text, c[1]) == 0, "%s: encode %s", c[7], text);
    CHECK_STATUS(sno_scru160_encode_hex(&id, hex), SNO_STATUS_OK);
    CHECK(memcmp(hex, c[0], SNO_SCRU160_HEX_LEN) == 0, "%s: encode_hex", c[7]);
    CHECK_STATUS(sno_scru160_decode(c[1], strlen(c[1]), &back, NULL), SNO_STATUS_OK);
    CHECK(sno_scru160_compare(back, id) == 0, "%s: decode", c[7]);
    lower(c[1], other);
    memset(&back, 0, sizeof back);
    CHECK_STATUS(sno_scru160_decode(other, strlen(other), &back, NULL), SNO_STATUS_OK);
    CHECK(sno_scru160_compare(back, id) == 0, "%s: lower-case decode", c[7]);
    upper(c[0], other);
    memset(&back, 0, sizeof back);
    CHECK_STATUS(sno_scru160_decode(other, strlen(other), &back, NULL), SNO_STATUS_OK);
    CHECK(sno_scru160_compare(back, id) == 0, "%s: hex decode", c[7]);
    CHECK(sno_scru160_unix_ms(id) == strtoull(c[2], NULL, 10), "%s: ms", c[7]);
    CHECK(sno_scru160_counter(id) == strtoul(c[3], NULL, 10), "%s: counter", c[7]);
    CHECK(sno_scru160_random16(id) == strtoul(c[4], NULL, 10), "%s: random16", c[7]);
    CHECK(strcmp(c[0] + 20, c[5]) == 0, "%s: random80 is bytes 10..20", c[7]);
    /* The reference inspector crashes on timestamps past year 9999 only. */
    int crash = strncmp(c[6], "crash", 5) == 0;
    CHECK(crash == (sno_scru160_unix_ms(id) > 253402300799999ULL), "%s: %s", c[7], c[6]);
}

/* input_json, case, expected, scru160_inspect_cli */
static void scru160_invalid_row(char **c) {
    unsigned char input[256];
    long len = json_string(c[0], input, sizeof input);
    int hex = len == SNO_SCRU160_HEX_LEN;
    sno_status st = try_decode(dec_scru160, c[0], hex ? HEXDIGITS : BASE32HEX, c[1]);
    sno_status want = strcmp(c[2], "accept") == 0
                          ? SNO_STATUS_OK
                          : want_reject(c[0], c[1], hex ? SNO_SCRU160_HEX_LEN : SNO_SCRU160_ENCODED_LEN);
    CHECK(st == want, "%s: %d want %d", c[1], (int)st, (int)want);
    if (want == SNO_STATUS_OK && strncmp(c[3], "accept:", 7) == 0) {
        sno_scru160 id;
        char out[SNO_SCRU160_HEX_LEN];
        sno_scru160_decode((const char *)input, (size_t)len, &id, NULL);
        sno_scru160_encode_hex(&id, out);
        CHECK(memcmp(out, c[3] + 7, SNO_SCRU160_HEX_LEN) == 0, "%s: as the reference", c[1]);
    }
}

/* value, hex, base36, timestamp_field, generator_id, sequence, epoch_ms, unix_ms,
 * ref_timestampValue, ref_creationTimeMillis, note */
static void nanoflake_row(char **c) {
    sno_nanoflake id = strtoll(c[0], NULL, 10), back = -1;
    CHECK((uint64_t)id == strtoull(c[1], NULL, 16), "%s: hex", c[10]);
    char text[SNO_NANOFLAKE_MAX_ENCODED_LEN + 1], padded[SNO_NANOFLAKE_MAX_ENCODED_LEN], up[64];
    size_t n = 0;
    CHECK_STATUS(sno_nanoflake_encode(id, text, sizeof text, &n), SNO_STATUS_OK);
    CHECK(strcmp(text, c[2]) == 0 && n == strlen(c[2]), "%s: encode %s", c[10], text);
    CHECK_STATUS(sno_nanoflake_encode_padded(id, padded), SNO_STATUS_OK);
    CHECK(memcmp(padded + SNO_NANOFLAKE_MAX_ENCODED_LEN - n, c[2], n) == 0, "%s: padded digits", c[10]);
    for (size_t i = 0; i < SNO_NANOFLAKE_MAX_ENCODED_LEN - n; i++) CHECK(padded[i] == '0', "%s: padding", c[10]);
    CHECK_STATUS(sno_nanoflake_decode(padded, sizeof padded, &back, NULL), SNO_STATUS_OK);
    CHECK(back == id, "%s: padded decode", c[10]);
    upper(c[2], up);
    back = -1;
    CHECK_STATUS(sno_nanoflake_decode(up, strlen(up), &back, NULL), SNO_STATUS_OK);
    CHECK(back == id, "%s: upper-case decode", c[10]);
    sno_nanoflake_fields f;
    CHECK_STATUS(sno_nanoflake_get_fields(id, &f), SNO_STATUS_OK);
    CHECK(f.timestamp == strtoull(c[3], NULL, 10), "%s: timestamp", c[10]);
    CHECK(f.generator_id == strtoul(c[4], NULL, 10) && f.sequence == strtoul(c[5], NULL, 10), "%s: ids", c[10]);
    int64_t epoch = strtoll(c[6], NULL, 10);
    CHECK(epoch + (int64_t)f.timestamp == strtoll(c[7], NULL, 10), "%s: unix ms", c[10]);
    CHECK(f.reference_timestamp == strtoull(c[8], NULL, 10), "%s: reference timestamp", c[10]);
    CHECK(epoch + (int64_t)f.reference_timestamp == strtoll(c[9], NULL, 10), "%s: reference time", c[10]);
    CHECK_STATUS(sno_nanoflake_from_fields(f.timestamp, f.generator_id, f.sequence, &back), SNO_STATUS_OK);
    CHECK(back == id, "%s: from fields", c[10]);
}

/* input_json, case, expected, java_new_Nanoflake_radix36, java_new_Nanoflake_decode */
static void nanoflake_invalid_row(char **c) {
    unsigned char input[256];
    long len = json_string(c[0], input, sizeof input);
    sno_status st = try_decode(dec_nanoflake, c[0], BASE36, c[1]);
    int java_ok = strncmp(c[3], "accept:", 7) == 0;
    if (strncmp(c[2], "accept", 6) == 0 || strncmp(c[2], "n/a", 3) == 0 || strcmp(c[1], "format: 0x prefix") == 0) {
        /* Accepted rows, the decimal rows, and "0x1f" (four base36 digits, as Java's radix-36
         * parse reads them; padded text can start with 0x): we agree with Java's radix 36. */
        CHECK((st == SNO_STATUS_OK) == java_ok, "%s: %d", c[1], (int)st);
        sno_nanoflake v = -1;
        if (java_ok) {
            sno_nanoflake_decode((const char *)input, (size_t)len, &v, NULL);
            CHECK(v == strtoll(c[3] + 7, NULL, 10), "%s: value", c[1]);
        }
    } else {
        sno_status want = strncmp(c[1], "overflow", 8) == 0 ? SNO_STATUS_VALUE_OVERFLOW
                          : (len == 0 || len > 13)          ? SNO_STATUS_INVALID_LENGTH
                                                            : SNO_STATUS_INVALID_BYTE;
        CHECK(st == want, "%s: %d want %d", c[1], (int)st, (int)want);
    }
}

/* The Java run, replayed through next_at with the clock read off each ID; calls the excerpt
 * skipped within a millisecond are made up to the row's sequence. */
static sno_nanoflake_generator *nano_gen;
static uint64_t nano_last_ts = UINT64_MAX;
static unsigned nano_last_seq;

/* index, value, base36, ref_timestampValue, timestamp_field, generator_id, sequence, note */
static void nanoflake_generated_row(char **c) {
    uint64_t ts = strtoull(c[4], NULL, 10);
    unsigned seq = (unsigned)strtoul(c[6], NULL, 10);
    int64_t now = NANO_EPOCH + (int64_t)ts;
    sno_nanoflake got;
    unsigned first = ts == nano_last_ts ? nano_last_seq + 1 : 0;
    if (first == 0 && nano_last_seq == 4095 && nano_last_ts != UINT64_MAX) {
        CHECK_STATUS(sno_nanoflake_generator_next_at_unix_ms(nano_gen, NANO_EPOCH + (int64_t)nano_last_ts, &got),
                     SNO_STATUS_RANDOMNESS_EXHAUSTED);
    }
    for (unsigned s = first; s < seq; s++) sno_nanoflake_generator_next_at_unix_ms(nano_gen, now, &got);
    CHECK_STATUS(sno_nanoflake_generator_next_at_unix_ms(nano_gen, now, &got), SNO_STATUS_OK);
    CHECK(got == strtoll(c[1], NULL, 10), "index %s: value", c[0]);
    char text[SNO_NANOFLAKE_MAX_ENCODED_LEN + 1];
    sno_nanoflake_encode(got, text, sizeof text, NULL);
    CHECK(strcmp(text, c[2]) == 0, "index %s: text", c[0]);
    sno_nanoflake_fields f;
    sno_nanoflake_get_fields(got, &f);
    CHECK(f.reference_timestamp == strtoull(c[3], NULL, 10) && f.generator_id == strtoul(c[5], NULL, 10),
          "index %s: fields", c[0]);
    nano_last_ts = ts;
    nano_last_seq = seq;
}

/* value, hex, ulidflake, timestamp_ms, unix_ms, randomness20, scalable_randomness15,
 * scalable_sid, note */
static void ulidflake_row(char **c) {
    sno_ulidflake id = strtoll(c[0], NULL, 10), back = -1;
    CHECK((uint64_t)id == strtoull(c[1], NULL, 16), "%s: hex", c[8]);
    char text[SNO_ULIDFLAKE_ENCODED_LEN], ctext[SNO_ULIDFLAKE_ENCODED_LEN + 1], low[64];
    CHECK_STATUS(sno_ulidflake_encode(id, text), SNO_STATUS_OK);
    CHECK(memcmp(text, c[2], SNO_ULIDFLAKE_ENCODED_LEN) == 0, "%s: encode", c[8]);
    CHECK_STATUS(sno_ulidflake_encode_cstr(id, ctext, sizeof ctext), SNO_STATUS_OK);
    CHECK(strcmp(ctext, c[2]) == 0, "%s: encode_cstr", c[8]);
    CHECK_STATUS(sno_ulidflake_decode(c[2], strlen(c[2]), &back, NULL), SNO_STATUS_OK);
    CHECK(back == id, "%s: decode", c[8]);
    lower(c[2], low);
    back = -1;
    CHECK_STATUS(sno_ulidflake_decode(low, strlen(low), &back, NULL), SNO_STATUS_OK);
    CHECK(back == id, "%s: lower-case decode", c[8]);
    sno_ulidflake_fields f;
    CHECK_STATUS(sno_ulidflake_get_fields(id, &f), SNO_STATUS_OK);
    CHECK(f.timestamp == strtoull(c[3], NULL, 10), "%s: timestamp", c[8]);
    CHECK(SNO_ULIDFLAKE_DEFAULT_EPOCH_MS + (int64_t)f.timestamp == strtoll(c[4], NULL, 10), "%s: unix ms", c[8]);
    CHECK(f.randomness == strtoul(c[5], NULL, 10), "%s: randomness", c[8]);
    CHECK(f.scalable_randomness == strtoul(c[6], NULL, 10) && f.sid == strtoul(c[7], NULL, 10), "%s: scalable", c[8]);
    CHECK_STATUS(sno_ulidflake_from_fields(f.timestamp, f.randomness, &back), SNO_STATUS_OK);
    CHECK(back == id, "%s: from parts", c[8]);
    back = -1;
    CHECK_STATUS(sno_ulidflake_from_scalable_fields(f.timestamp, f.scalable_randomness, f.sid, &back), SNO_STATUS_OK);
    CHECK(back == id, "%s: from scalable parts", c[8]);
}

/* input_json, case, expected, go_ulidflake_Parse, python_UlidFlake_parse */
static void ulidflake_invalid_row(char **c) {
    sno_status st = try_decode(dec_ulidflake, c[0], CROCKFORD, c[1]);
    if (strncmp(c[2], "accept", 6) == 0) {
        /* Case-insensitive, as the spec and the Python reference (Go's is case-sensitive). */
        CHECK(st == SNO_STATUS_OK && strncmp(c[4], "accept:", 7) == 0, "%s: %d", c[1], (int)st);
        return;
    }
    sno_status want = strstr(c[2], "overflow") ? SNO_STATUS_VALUE_OVERFLOW
                                                : want_reject(c[0], c[1], SNO_ULIDFLAKE_ENCODED_LEN);
    CHECK(st == want, "%s: %d want %d", c[1], (int)st, (int)want);
}

static int ulidflake_errors;

/* index, ulidflake, timestamp_ms, randomness20, increment, result: each ID the Go run made
 * reads back as its fields; its overflow rows are counted (their draws are replayed in Rust). */
static void ulidflake_generated_row(char **c) {
    if (strcmp(c[5], "ok") != 0) {
        CHECK(strcmp(c[5], "error: overflow error") == 0, "index %s: %s", c[0], c[5]);
        ulidflake_errors++;
        return;
    }
    sno_ulidflake id = -1, built = -2;
    CHECK_STATUS(sno_ulidflake_decode(c[1], strlen(c[1]), &id, NULL), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_from_fields(strtoull(c[2], NULL, 10), (uint32_t)strtoul(c[3], NULL, 10), &built),
                 SNO_STATUS_OK);
    CHECK(id == built, "index %s", c[0]);
}

static void generators(void) {
    /* Nanoflakes: sequence 0 then +1, refusal of a rollback, exhaustion after 4096. */
    sno_nanoflake_generator *g = NULL;
    sno_nanoflake a, b;
    CHECK_STATUS(sno_nanoflake_generator_new(NANO_EPOCH, 1024, &g), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_nanoflake_generator_new(-1, 1, &g), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    CHECK_STATUS(sno_nanoflake_generator_new(NANO_EPOCH, 1023, &g), SNO_STATUS_OK);
    CHECK_STATUS(sno_nanoflake_generator_next_at_unix_ms(g, NANO_EPOCH - 1, &a), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    for (int i = 0; i < 4096; i++) CHECK_STATUS(sno_nanoflake_generator_next_at_unix_ms(g, NANO_EPOCH + 7, &a), SNO_STATUS_OK);
    sno_nanoflake_fields f;
    sno_nanoflake_get_fields(a, &f);
    CHECK(f.timestamp == 7 && f.generator_id == 1023 && f.sequence == 4095, "4096th of a ms");
    CHECK_STATUS(sno_nanoflake_generator_next_at_unix_ms(g, NANO_EPOCH + 7, &b), SNO_STATUS_RANDOMNESS_EXHAUSTED);
    CHECK_STATUS(sno_nanoflake_generator_next_at_unix_ms(g, NANO_EPOCH + 6, &b), SNO_STATUS_CLOCK_ROLLBACK);
    CHECK_STATUS(sno_nanoflake_generator_next_at_unix_ms(g, NANO_EPOCH + 8, &b), SNO_STATUS_OK);
    CHECK(b > a, "next ms");
    CHECK_STATUS(sno_nanoflake_generator_next(g, &a), SNO_STATUS_OK);
    CHECK_STATUS(sno_nanoflake_generator_try_next(g, &b), SNO_STATUS_OK);
    CHECK(b > a, "system clock");
    sno_nanoflake_generator_free(g);

    /* Ulid-Flake: options, scalable layout, overflow errors that leave the state usable. */
    sno_ulidflake_options o = sno_ulidflake_options_default();
    CHECK(o.epoch_ms == SNO_ULIDFLAKE_DEFAULT_EPOCH_MS && o.sid == -1 && o.entropy_size == 1, "defaults");
    sno_ulidflake_generator *u = NULL;
    o.sid = 32;
    CHECK_STATUS(sno_ulidflake_generator_new(&o, &u), SNO_STATUS_VALUE_OVERFLOW);
    o.sid = 9;
    o.entropy_size = 3;
    CHECK_STATUS(sno_ulidflake_generator_new(&o, &u), SNO_STATUS_VALUE_OVERFLOW);
    o.entropy_size = 2;
    CHECK_STATUS(sno_ulidflake_generator_new(&o, &u), SNO_STATUS_OK);
    sno_ulidflake x = 0, prev = -1;
    sno_status st = SNO_STATUS_OK;
    int made = 0;
    while ((st = sno_ulidflake_generator_next_at_unix_ms(u, SNO_ULIDFLAKE_DEFAULT_EPOCH_MS + 5, &x)) == SNO_STATUS_OK) {
        CHECK(x > prev, "increasing");
        prev = x;
        made++;
    }
    CHECK(st == SNO_STATUS_RANDOMNESS_EXHAUSTED && made > 0, "exhausted after %d", made);
    sno_ulidflake_fields uf;
    sno_ulidflake_get_fields(prev, &uf);
    CHECK(uf.timestamp == 5 && uf.sid == 9, "scalable layout");
    CHECK_STATUS(sno_ulidflake_generator_next_at_unix_ms(u, SNO_ULIDFLAKE_DEFAULT_EPOCH_MS + 6, &x), SNO_STATUS_OK);
    CHECK(x > prev, "next ms");
    sno_ulidflake_generator_free(u);
    CHECK_STATUS(sno_ulidflake_generator_new(NULL, &u), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_generator_next_at_unix_ms(u, SNO_ULIDFLAKE_DEFAULT_EPOCH_MS - 1, &x), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    CHECK_STATUS(sno_ulidflake_generator_next(u, &x), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_generator_try_next(u, &prev), SNO_STATUS_OK);
    CHECK(prev > x, "system clock");
    sno_ulidflake_generator_free(u);

    /* SCRU160: reserved timestamps refused; global values increase. */
    sno_scru160_generator *s = NULL;
    sno_scru160 p, q;
    CHECK_STATUS(sno_scru160_generator_new(&s), SNO_STATUS_OK);
    CHECK_STATUS(sno_scru160_generator_next_at_unix_ms(s, 0, &p), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    CHECK_STATUS(sno_scru160_generator_next_at_unix_ms(s, ((int64_t)1 << 48) - 1, &p), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    CHECK_STATUS(sno_scru160_generator_next_at_unix_ms(s, 1631540490683LL, &p), SNO_STATUS_OK);
    CHECK_STATUS(sno_scru160_generator_next_at_unix_ms(s, 1631540490683LL, &q), SNO_STATUS_OK);
    CHECK(sno_scru160_counter(q) == sno_scru160_counter(p) + 1 && sno_scru160_counter(p) < 0x8000, "counter");
    sno_scru160_generator_free(s);
    CHECK_STATUS(sno_scru160_new(&p), SNO_STATUS_OK);
    CHECK_STATUS(sno_scru160_new(&q), SNO_STATUS_OK);
    CHECK(sno_scru160_compare(p, q) < 0 && sno_scru160_unix_ms(p) > 1700000000000ULL, "global SCRU160");
    CHECK_STATUS(sno_ulidflake_new(&x), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_new(&prev), SNO_STATUS_OK);
    CHECK(prev > x, "global Ulid-Flake");
}

static void nulls_and_bad_arguments(void) {
    char buf[64];
    sno_scru160 s = {{0}};
    sno_nanoflake n = 0;
    sno_ulidflake u = 0;
    CHECK_STATUS(sno_scru160_new(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulidflake_new(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_scru160_encode(NULL, buf), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_scru160_encode_hex(&s, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_scru160_encode_cstr(&s, buf, SNO_SCRU160_ENCODED_LEN), SNO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(sno_nanoflake_encode(n, NULL, 14, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_nanoflake_encode(n, buf, 13, NULL), SNO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(sno_nanoflake_encode(n, buf, 14, NULL), SNO_STATUS_OK);
    CHECK(strcmp(buf, "0") == 0, "zero is \"0\": %s", buf);
    CHECK_STATUS(sno_nanoflake_encode(-1, buf, sizeof buf, NULL), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_nanoflake_encode_padded(-5, buf), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ulidflake_encode(-1, buf), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ulidflake_encode_cstr(u, buf, 13), SNO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(sno_ulidflake_encode(u, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_nanoflake_decode(NULL, 3, &n, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_nanoflake_decode("abc", 3, NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulidflake_decode(NULL, 0, &u, NULL), SNO_STATUS_INVALID_LENGTH);
    CHECK_STATUS(sno_scru160_decode("05TTUP1HNCPNH30VEK64KDQT9BSNU4C4", 32, NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    sno_nanoflake_fields nf;
    sno_ulidflake_fields uf;
    CHECK_STATUS(sno_nanoflake_get_fields(n, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_nanoflake_get_fields(INT64_MIN, &nf), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ulidflake_get_fields(-2, &uf), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_nanoflake_from_fields(0, 1024, 0, &n), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_nanoflake_from_fields((uint64_t)1 << 41, 0, 0, &n), SNO_STATUS_MILLIS_OUT_OF_RANGE);
    CHECK_STATUS(sno_nanoflake_from_fields(0, 0, 4096, &n), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ulidflake_from_fields(0, 1u << 20, &u), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ulidflake_from_scalable_fields(0, 0, 32, &u), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ulidflake_from_fields(0, 0, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_nanoflake_generator_new(0, 0, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulidflake_generator_new(NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_scru160_generator_next(NULL, &s), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_nanoflake_generator_next(NULL, &n), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_ulidflake_generator_try_next(NULL, &u), SNO_STATUS_NULL_ARGUMENT);
    sno_scru160_generator_free(NULL);
    sno_nanoflake_generator_free(NULL);
    sno_ulidflake_generator_free(NULL);
    size_t pos = 0;
    CHECK_STATUS(sno_scru160_decode("017bdf6431bb33750751eb63beb3c3f8c5969d8", 39, &s, &pos), SNO_STATUS_INVALID_LENGTH);
    CHECK(pos == 39, "length 39: %zu", pos);
    CHECK_STATUS(sno_ulidflake_decode("G000000000000", 13, &u, &pos), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_nanoflake_decode("1y2p0ij32e8e8", 13, &n, &pos), SNO_STATUS_VALUE_OVERFLOW);
    CHECK(strcmp(sno_status_str(SNO_STATUS_CLOCK_ROLLBACK), "the clock went back") == 0, "status string");
}

#define THREADS 4
#define PER_THREAD 20000

static sno_scru160_generator *shared_scru160;
static sno_nanoflake_generator *shared_nano;
static sno_ulidflake_generator *shared_flake;
static unsigned char made160[THREADS * PER_THREAD][20];
static int64_t made64[2][THREADS * PER_THREAD];
static int thread_errors[THREADS];

/* Each thread takes PER_THREAD values of each format, checking its own order. */
static void *worker(void *arg) {
    int t = (int)(size_t)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        size_t k = (size_t)t * PER_THREAD + (size_t)i;
        sno_scru160 s;
        if (sno_scru160_generator_next(shared_scru160, &s) != SNO_STATUS_OK) thread_errors[t]++;
        if (sno_nanoflake_generator_next(shared_nano, &made64[0][k]) != SNO_STATUS_OK) thread_errors[t]++;
        if (sno_ulidflake_generator_next(shared_flake, &made64[1][k]) != SNO_STATUS_OK) thread_errors[t]++;
        memcpy(made160[k], s.bytes, 20);
        if (i > 0) {
            thread_errors[t] += memcmp(made160[k - 1], made160[k], 20) >= 0;
            thread_errors[t] += made64[0][k - 1] >= made64[0][k];
            thread_errors[t] += made64[1][k - 1] >= made64[1][k];
        }
    }
    return NULL;
}

static int cmp20(const void *a, const void *b) { return memcmp(a, b, 20); }
static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void threads(void) {
    CHECK_STATUS(sno_scru160_generator_new(&shared_scru160), SNO_STATUS_OK);
    CHECK_STATUS(sno_nanoflake_generator_new(NANO_EPOCH, 3, &shared_nano), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_generator_new(NULL, &shared_flake), SNO_STATUS_OK);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(size_t)t);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) CHECK(thread_errors[t] == 0, "thread %d: %d errors", t, thread_errors[t]);
    int n = THREADS * PER_THREAD, dups = 0;
    qsort(made160, (size_t)n, 20, cmp20);
    for (int i = 1; i < n; i++) dups += memcmp(made160[i - 1], made160[i], 20) == 0;
    for (int f = 0; f < 2; f++) {
        qsort(made64[f], (size_t)n, sizeof(int64_t), cmp64);
        for (int i = 1; i < n; i++) dups += made64[f][i - 1] == made64[f][i];
    }
    CHECK(dups == 0, "%d duplicates", dups);
    sno_scru160_generator_free(shared_scru160);
    sno_nanoflake_generator_free(shared_nano);
    sno_ulidflake_generator_free(shared_flake);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "testdata/vectors";
    CHECK(each_row(dir, "scru160_vectors.tsv", 8, scru160_row) == 297, "scru160 rows");
    CHECK(each_row(dir, "scru160_invalid.tsv", 4, scru160_invalid_row) == 24, "scru160 invalid rows");
    CHECK(each_row(dir, "nanoflakes_vectors.tsv", 11, nanoflake_row) == 245, "nanoflakes rows");
    CHECK(each_row(dir, "nanoflakes_invalid.tsv", 5, nanoflake_invalid_row) == 20, "nanoflakes invalid rows");
    CHECK_STATUS(sno_nanoflake_generator_new(NANO_EPOCH, 5, &nano_gen), SNO_STATUS_OK);
    CHECK(each_row(dir, "nanoflakes_generated.tsv", 8, nanoflake_generated_row) == 238, "nanoflakes run rows");
    sno_nanoflake_generator_free(nano_gen);
    CHECK(each_row(dir, "ulidflake_vectors.tsv", 9, ulidflake_row) == 223, "ulidflake rows");
    CHECK(each_row(dir, "ulidflake_invalid.tsv", 5, ulidflake_invalid_row) == 27, "ulidflake invalid rows");
    CHECK(each_row(dir, "ulidflake_generated.tsv", 6, ulidflake_generated_row) == 210, "ulidflake run rows");
    CHECK(ulidflake_errors == 28, "ulidflake overflow rows: %d", ulidflake_errors);
    generators();
    nulls_and_bad_arguments();
    threads();
    return finish("test_seed_formats");
}
