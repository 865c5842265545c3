/* NULLs, bad arguments, statuses, lifecycle, snapshots, batches, versions, the 0.2 names. */
#include "common.h"

static void versions(void) {
    CHECK(sno_version() == SNO_VERSION_NUMBER, "library %u vs header %u", sno_version(), (unsigned)SNO_VERSION_NUMBER);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", SNO_VERSION_MAJOR, SNO_VERSION_MINOR, SNO_VERSION_PATCH);
    CHECK(strcmp(sno_version_string(), want) == 0, "%s vs %s", sno_version_string(), want);
    CHECK(strcmp(sno_status_str(SNO_STATUS_OK), "ok") == 0, "ok string");
    CHECK(strcmp(sno_status_str(-7), "unknown status") == 0, "unknown");
    CHECK(strcmp(sno_status_str(SNO_STATUS_PANIC), "internal panic caught at the C boundary") == 0, "panic string");
}

static void nulls(void) {
    sno_id id = {{0}};
    sno_generator *g = NULL;
    char buf[32];
    CHECK_STATUS(sno_new(0, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_new(NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_restore(NULL, SNO_PARTITION_DEFAULT, &g), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_next(NULL, 0, &id), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_try_next(NULL, 0, &id, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_next_at_unix_ns(NULL, 0, 0, &id), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_next_many(NULL, 0, &id, 1), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_snapshot(NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_stats(NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_encode(NULL, buf), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_encode(&id, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_encode_cstr(&id, NULL, 17), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_decode(NULL, 16, &id), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_decode("2222222222222222", 16, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_decode(NULL, 0, &id), SNO_STATUS_INVALID_LENGTH);
    CHECK_STATUS(sno_id_encode_many(NULL, 2, buf), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_decode_many(NULL, 1, &id, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_from_fields(0, false, 0, 0, 0, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_id_encode_many(NULL, 0, NULL), SNO_STATUS_OK);
    sno_generator_free(NULL);
}

static void bad_arguments(void) {
    sno_id id;
    memset(&id, 0x77, sizeof id);
    char small[16];
    CHECK_STATUS(sno_id_encode_cstr(&id, small, sizeof small), SNO_STATUS_BUFFER_TOO_SMALL);
    size_t pos = 0;
    CHECK_STATUS(sno_id_decode_at("brpk4q72xwf2m63", 15, &id, &pos), SNO_STATUS_INVALID_LENGTH);
    CHECK(pos == 15, "length reported: %zu", pos);
    CHECK_STATUS(sno_id_decode_at("brpk4q72\0wf2m63l", 16, &id, &pos), SNO_STATUS_INVALID_BYTE);
    CHECK(pos == 8, "NUL position: %zu", pos);
    CHECK_STATUS(sno_id_decode_at("BRPK4Q72XWF2M63L", 16, &id, &pos), SNO_STATUS_INVALID_BYTE);
    CHECK(pos == 0, "upper case refused at 0: %zu", pos);
    CHECK_STATUS(sno_id_decode("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 16, &id), SNO_STATUS_INVALID_BYTE);
    unsigned char all77[10];
    memset(all77, 0x77, 10);
    CHECK(memcmp(id.bytes, all77, 10) == 0, "output untouched on failures");
    CHECK_STATUS(sno_id_from_fields((uint64_t)1 << 39, false, 0, 0, 0, &id), SNO_STATUS_TIMESTAMP_OVERFLOW);
    CHECK_STATUS(sno_id_from_fields(((uint64_t)1 << 39) - 1, true, 255, 65535, 65535, &id), SNO_STATUS_OK);
    char text[SNO_ENCODED_LEN + 1];
    sno_id_encode_cstr(&id, text, sizeof text);
    CHECK(strcmp(text, "xxxxxxxxxxxxxxxx") == 0, "max id text %s", text);

    sno_generator *g = NULL;
    /* A bare partition number (the 0.1 meaning of the field) is refused, not taken as the
     * default; so are negative values other than SNO_PARTITION_DEFAULT and bits above the
     * FIXED flag. */
    sno_generator_options o = {0x0102, 0, 0};
    CHECK_STATUS(sno_generator_new(&o, &g), SNO_STATUS_INVALID_ARGUMENT);
    o.partition = 65535;
    CHECK_STATUS(sno_generator_new(&o, &g), SNO_STATUS_INVALID_ARGUMENT);
    o.partition = -2;
    CHECK_STATUS(sno_generator_new(&o, &g), SNO_STATUS_INVALID_ARGUMENT);
    o.partition = SNO_PARTITION_FIXED << 1 | 5;
    CHECK_STATUS(sno_generator_new(&o, &g), SNO_STATUS_INVALID_ARGUMENT);
    o.partition = INT32_MIN;
    CHECK_STATUS(sno_generator_new(&o, &g), SNO_STATUS_INVALID_ARGUMENT);
    sno_generator_options tiny = {SNO_PARTITION_FIXED | 1, 0, 2};
    CHECK_STATUS(sno_generator_new(&tiny, &g), SNO_STATUS_INVALID_SEQUENCE_BOUNDS);
    CHECK(g == NULL, "no generator on failure");
    sno_snapshot s = {0};
    CHECK_STATUS(sno_generator_restore(&s, 65536 + 65536, &g), SNO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(sno_generator_restore(&s, -2, &g), SNO_STATUS_INVALID_ARGUMENT);
    CHECK(g == NULL, "no generator on failure");
}

/* Zeroed options (and SNO_PARTITION_DEFAULT, and NULL) give a default partition: distinct per
 * generator of the process, never "partition 0 for everyone"; SNO_PARTITION_FIXED | p gives p,
 * 0 and 65535 included. */
static uint16_t partition_of(const sno_generator_options *o) {
    sno_generator *g = NULL;
    sno_id id = {{0}};
    CHECK_STATUS(sno_generator_new(o, &g), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(g, 0, &id), SNO_STATUS_OK);
    sno_generator_free(g);
    return sno_id_partition(id);
}

static void partitions(void) {
    sno_generator_options zero;
    memset(&zero, 0, sizeof zero);
    sno_generator_options dflt = zero;
    dflt.partition = SNO_PARTITION_DEFAULT;
    uint16_t p[4] = {partition_of(&zero), partition_of(&zero), partition_of(&dflt), partition_of(NULL)};
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) CHECK(p[i] != p[j], "default partitions %d and %d both %u", i, j, p[i]);
    CHECK(p[0] != 0 || p[1] != 0, "zeroed options gave partition 0");
    sno_generator_options fixed = zero;
    fixed.partition = SNO_PARTITION_FIXED | 0;
    CHECK(partition_of(&fixed) == 0, "fixed 0");
    fixed.partition = SNO_PARTITION_FIXED | 65535;
    CHECK(partition_of(&fixed) == 65535, "fixed 65535");
    fixed.partition = SNO_PARTITION_FIXED | 0x0102;
    CHECK(partition_of(&fixed) == 0x0102, "fixed 0x0102");
    /* Zeroed sequence bounds: the whole range. */
    sno_generator *g = NULL;
    sno_snapshot s;
    CHECK_STATUS(sno_generator_new(&zero, &g), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_snapshot(g, &s), SNO_STATUS_OK);
    CHECK(s.sequence_min == 0 && s.sequence_max == 65535, "bounds %u..%u", s.sequence_min, s.sequence_max);
    sno_generator_free(g);
}

/* Every status has its own description, and the status values are fixed. */
static void statuses(void) {
    CHECK(SNO_STATUS_LEASE_EXPIRED == 24 && SNO_STATUS_INVALID_ENVIRONMENT == 25 &&
              SNO_STATUS_LEASE_INVALID_URL == 26 && SNO_STATUS_LEASE_INVALID_OPTIONS == 27 &&
              SNO_STATUS_LEASE_UNREACHABLE == 28 && SNO_STATUS_LEASE_AUTHENTICATION_FAILED == 29 &&
              SNO_STATUS_LEASE_NO_FREE_PARTITION == 30 && SNO_STATUS_LEASE_STORE == 31 &&
              SNO_STATUS_LEASE_LOST == 32 && SNO_STATUS_LEASE_UNAVAILABLE == 33 &&
              SNO_STATUS_LEASED_GENERATOR == 34,
          "status values");
    CHECK(SNO_STATUS_MISSING_PARTITION == 35 && SNO_STATUS_UNKNOWN_FORMAT == 36 &&
              SNO_STATUS_UNRECOGNIZED_FORMAT == 37 && SNO_STATUS_AMBIGUOUS_FORMAT == 38 &&
              SNO_STATUS_INVALID_PREFIX == 39 && SNO_STATUS_UNKNOWN_CLOCK == 40 &&
              SNO_STATUS_NOT_VERSION_7 == SNO_STATUS_NOT_VERSION7,
          "status values of the core's error table");
    CHECK(SNO_STATUS_LEASE_TLS_FAILED == 41, "status value of the lease's TLS failure");
    CHECK(SNO_STATUS_LEASE_PENDING == 42, "status value of a lease window not open yet");
    for (int i = 0; i <= 42; i++) {
        CHECK(strcmp(sno_status_str(i), "unknown status") != 0, "status %d undescribed", i);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(sno_status_str(i), sno_status_str(j)) != 0, "statuses %d and %d read alike", i, j);
    }
    CHECK(strcmp(sno_status_str(43), "unknown status") == 0, "43 is not a status");
}

static void lifecycle_and_snapshots(void) {
    sno_generator_options o = {SNO_PARTITION_FIXED | 0x0102, 10, 13};
    sno_generator *g = NULL;
    CHECK_STATUS(sno_generator_new(&o, &g), SNO_STATUS_OK);
    sno_id prev = {{0}}, id;
    int made = 0, exhausted = 0;
    int64_t retry_at = 0;
    for (int i = 0; i < 10; i++) {
        sno_status st = sno_generator_try_next(g, 9, &id, &retry_at);
        if (st == SNO_STATUS_OK) {
            CHECK(sno_id_compare(prev, id) < 0, "increasing");
            CHECK(sno_id_partition(id) == 0x0102 && sno_id_meta(id) == 9, "fields");
            CHECK(sno_id_sequence(id) >= 10 && sno_id_sequence(id) <= 13, "bounds");
            prev = id;
            made++;
        } else {
            CHECK(st == SNO_STATUS_SEQUENCE_EXHAUSTED, "status %d", (int)st);
            CHECK(retry_at > sno_id_unix_ns(prev), "retry_at after the unit");
            exhausted++;
        }
    }
    CHECK(made >= 4 && made + exhausted == 10, "made %d exhausted %d", made, exhausted);
    CHECK_STATUS(sno_generator_next(g, 9, &id), SNO_STATUS_OK);
    CHECK(sno_id_compare(prev, id) < 0, "blocking next after exhaustion");
    sno_stats stats;
    CHECK_STATUS(sno_generator_stats(g, &stats), SNO_STATUS_OK);
    /* Whether next() had to sleep depends on timing (valgrind is slow): only counts are exact. */
    CHECK(stats.overflows >= (uint64_t)exhausted, "overflows %llu", (unsigned long long)stats.overflows);
    CHECK(exhausted == 0 || stats.overflow_episodes >= 1, "episodes %llu", (unsigned long long)stats.overflow_episodes);

    sno_id batch[100];
    CHECK_STATUS(sno_generator_next_many(g, 1, batch, 100), SNO_STATUS_OK);
    for (int i = 1; i < 100; i++) CHECK(sno_id_compare(batch[i - 1], batch[i]) < 0, "batch order %d", i);
    char texts[100 * SNO_ENCODED_LEN];
    CHECK_STATUS(sno_id_encode_many(batch, 100, texts), SNO_STATUS_OK);
    sno_id decoded[100];
    CHECK_STATUS(sno_id_decode_many(texts, 100, decoded, NULL), SNO_STATUS_OK);
    CHECK(memcmp(decoded, batch, sizeof batch) == 0, "batch round trip");
    texts[57 * SNO_ENCODED_LEN + 3] = '!';
    size_t bad = 0;
    memset(decoded, 0, sizeof decoded);
    CHECK_STATUS(sno_id_decode_many(texts, 100, decoded, &bad), SNO_STATUS_INVALID_BYTE);
    CHECK(bad == 57, "bad index %zu", bad);
    CHECK(memcmp(decoded, batch, 57 * sizeof(sno_id)) == 0, "IDs before the bad one written");
    for (int i = 57; i < 100; i++) CHECK(sno_id_is_zero(decoded[i]), "slot %d untouched", i);
    /* Every batch length 1..9 (the SIMD kernels' tails), and a bad byte in the last ID. */
    for (size_t n = 1; n <= 9; n++) {
        char t[9 * SNO_ENCODED_LEN];
        sno_id d[9];
        CHECK_STATUS(sno_id_encode_many(batch + 3, n, t), SNO_STATUS_OK);
        CHECK_STATUS(sno_id_decode_many(t, n, d, NULL), SNO_STATUS_OK);
        CHECK(memcmp(d, batch + 3, n * sizeof(sno_id)) == 0, "round trip of %zu", n);
        t[(n - 1) * SNO_ENCODED_LEN + 15] = 'y';
        CHECK_STATUS(sno_id_decode_many(t, n, d, &bad), SNO_STATUS_INVALID_BYTE);
        CHECK(bad == n - 1, "bad index %zu of %zu", bad, n);
    }

    sno_id t;
    CHECK_STATUS(sno_generator_next_at_unix_ns(g, 0, INT64_C(1586176496789123456), &t), SNO_STATUS_OK);
    CHECK(sno_id_timestamp(t) == UINT64_C(80968124197), "with_time units");
    CHECK_STATUS(sno_generator_next_at_unix_ns(g, 0, 0, &t), SNO_STATUS_TIME_OUT_OF_RANGE);

    sno_snapshot s;
    CHECK_STATUS(sno_generator_snapshot(g, &s), SNO_STATUS_OK);
    CHECK(s.partition == 0x0102 && s.sequence_min == 10 && s.sequence_max == 13, "snapshot fields");
    sno_generator *r = NULL;
    CHECK_STATUS(sno_generator_restore(&s, 0x0203, &r), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(r, 0, &id), SNO_STATUS_OK);
    CHECK(sno_id_partition(id) == 0x0203, "override partition");
    sno_generator_free(r);
    CHECK_STATUS(sno_generator_restore(&s, SNO_PARTITION_FIXED | 0x0304, &r), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(r, 0, &id), SNO_STATUS_OK);
    CHECK(sno_id_partition(id) == 0x0304, "override partition, FIXED form");
    sno_generator_free(r);
    CHECK_STATUS(sno_generator_restore(&s, SNO_PARTITION_DEFAULT, &r), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(r, 0, &id), SNO_STATUS_OK);
    CHECK(sno_id_partition(id) == 0x0102, "snapshot's own partition");
    sno_snapshot broken = s;
    broken.wall_hi = -1;
    sno_generator *never = NULL;
    CHECK_STATUS(sno_generator_restore(&broken, SNO_PARTITION_DEFAULT, &never), SNO_STATUS_INVALID_SNAPSHOT);
    broken = s;
    broken.sequence = 99;
    CHECK_STATUS(sno_generator_restore(&broken, SNO_PARTITION_DEFAULT, &never), SNO_STATUS_SEQUENCE_OUT_OF_RANGE);
    CHECK(never == NULL, "no generator on failure");
    sno_generator_free(r);
    sno_generator_free(g);

    for (int i = 0; i < 1000; i++) {
        sno_generator *x = NULL;
        CHECK_STATUS(sno_generator_new(NULL, &x), SNO_STATUS_OK);
        CHECK_STATUS(sno_generator_next(x, 0, &id), SNO_STATUS_OK);
        sno_generator_free(x);
    }
    sno_id a, b;
    CHECK_STATUS(sno_new(1, &a), SNO_STATUS_OK);
    CHECK_STATUS(sno_new(2, &b), SNO_STATUS_OK);
    CHECK(sno_id_compare(a, b) < 0 && sno_id_compare(b, a) > 0, "global order");
}

/* The deprecated 0.2 names (kept in the ABI) give what their new names give. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void deprecated_names(void) {
    sno_id id, old_id, new_id;
    CHECK_STATUS(sno_new(7, &id), SNO_STATUS_OK);
    CHECK(sno_id_unix_millis(id) == sno_id_unix_ms(id) && sno_id_unix_ms(id) > 1700000000000LL,
          "sno_id_unix_millis %lld vs %lld", (long long)sno_id_unix_millis(id), (long long)sno_id_unix_ms(id));
    CHECK(sno_id_unix_nanos(id) == sno_id_unix_ns(id), "sno_id_unix_nanos %lld vs %lld",
          (long long)sno_id_unix_nanos(id), (long long)sno_id_unix_ns(id));

    CHECK_STATUS(sno_id_from_parts(sno_id_timestamp(id), sno_id_tick_tock(id), sno_id_meta(id), sno_id_partition(id),
                                   sno_id_sequence(id), &old_id), SNO_STATUS_OK);
    CHECK_STATUS(sno_id_from_fields(sno_id_timestamp(id), sno_id_tick_tock(id), sno_id_meta(id), sno_id_partition(id),
                                    sno_id_sequence(id), &new_id), SNO_STATUS_OK);
    CHECK(sno_id_compare(old_id, id) == 0 && sno_id_compare(new_id, id) == 0, "sno_id_from_parts round trip");
    CHECK_STATUS(sno_id_from_parts((uint64_t)1 << 39, false, 0, 0, 0, &old_id), SNO_STATUS_TIMESTAMP_OVERFLOW);

    /* sno_<format>_timestamp_ms of a new ID equals sno_<format>_unix_ms, a time of today. */
#define SAME_UNIX_MS(format)                                                                          \
    do {                                                                                              \
        sno_##format v;                                                                               \
        CHECK_STATUS(sno_##format##_new(&v), SNO_STATUS_OK);                                          \
        CHECK(sno_##format##_timestamp_ms(v) == sno_##format##_unix_ms(v) &&                          \
                  sno_##format##_unix_ms(v) > 1700000000000ULL,                                       \
              "sno_%s_timestamp_ms %llu", #format, (unsigned long long)sno_##format##_timestamp_ms(v)); \
    } while (0)
    SAME_UNIX_MS(ulid);
    SAME_UNIX_MS(uuid7);
    SAME_UNIX_MS(scru128);
    SAME_UNIX_MS(scru160);
#undef SAME_UNIX_MS

    sno_ulidflake old_flake = -1, new_flake = -2;
    CHECK_STATUS(sno_ulidflake_from_parts(123456789, 0xABCDE, &old_flake), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_from_fields(123456789, 0xABCDE, &new_flake), SNO_STATUS_OK);
    CHECK(old_flake == new_flake, "sno_ulidflake_from_parts %lld vs %lld", (long long)old_flake, (long long)new_flake);
    CHECK_STATUS(sno_ulidflake_from_parts(0, 1u << 20, &old_flake), SNO_STATUS_VALUE_OVERFLOW);

    old_flake = -1, new_flake = -2;
    CHECK_STATUS(sno_ulidflake_from_scalable_parts(123456789, 0x1234, 17, &old_flake), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_from_scalable_fields(123456789, 0x1234, 17, &new_flake), SNO_STATUS_OK);
    CHECK(old_flake == new_flake, "sno_ulidflake_from_scalable_parts %lld vs %lld", (long long)old_flake,
          (long long)new_flake);
    CHECK_STATUS(sno_ulidflake_from_scalable_parts(0, 0, 32, &old_flake), SNO_STATUS_VALUE_OVERFLOW);

    /* sno_generator_next_with_time and sno_<format>_generator_next_at: the minting at a given
     * time of 0.2, now sno_generator_next_at_unix_ns and sno_<format>_generator_next_at_unix_ms. */
    sno_generator *g = NULL;
    CHECK_STATUS(sno_generator_new(NULL, &g), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next_with_time(g, 3, INT64_C(1586176496789123456), &old_id), SNO_STATUS_OK);
    CHECK(sno_id_timestamp(old_id) == UINT64_C(80968124197) && sno_id_meta(old_id) == 3,
          "sno_generator_next_with_time units %llu", (unsigned long long)sno_id_timestamp(old_id));
    CHECK_STATUS(sno_generator_next_with_time(g, 0, 0, &old_id), SNO_STATUS_TIME_OUT_OF_RANGE);
    sno_generator_free(g);
    sno_ulid_generator *ug = NULL;
    sno_ulid u;
    CHECK_STATUS(sno_ulid_generator_new(&ug), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulid_generator_next_at(ug, 1700000000000LL, &u), SNO_STATUS_OK);
    CHECK(sno_ulid_unix_ms(u) == 1700000000000ULL, "sno_ulid_generator_next_at %llu", (unsigned long long)sno_ulid_unix_ms(u));
    sno_ulid_generator_free(ug);
}
#pragma GCC diagnostic pop

/* The opt-in fast clock: per generator (sno and ULID), and an unknown clock value refused. */
static void clocks(void) {
    sno_generator *g = NULL;
    CHECK(sno_generator_new_with_clock(NULL, SNO_CLOCK_FAST, &g) == SNO_STATUS_OK && g, "fast sno");
    sno_id a, b;
    CHECK(sno_generator_next(g, 0, &a) == SNO_STATUS_OK && sno_generator_next(g, 0, &b) == SNO_STATUS_OK,
          "fast sno next");
    CHECK(memcmp(a.bytes, b.bytes, sizeof a.bytes) < 0, "fast sno IDs increase");
    sno_generator_free(g);
    g = NULL;
    CHECK(sno_generator_new_with_clock(NULL, SNO_CLOCK_PRECISE, &g) == SNO_STATUS_OK && g, "precise sno");
    sno_generator_free(g);
    g = NULL;
    CHECK(sno_generator_new_with_clock(NULL, 7, &g) == SNO_STATUS_UNKNOWN_CLOCK && !g, "clock 7 refused");
    CHECK(sno_generator_new_with_clock(NULL, -1, &g) == SNO_STATUS_UNKNOWN_CLOCK && !g, "clock -1 refused");
    sno_ulid_generator *u = NULL;
    CHECK(sno_ulid_generator_new_with_clock(SNO_CLOCK_FAST, &u) == SNO_STATUS_OK && u, "fast ULID");
    sno_ulid x, y;
    CHECK(sno_ulid_generator_next(u, &x) == SNO_STATUS_OK && sno_ulid_generator_next(u, &y) == SNO_STATUS_OK,
          "fast ULID next");
    CHECK(memcmp(x.bytes, y.bytes, sizeof x.bytes) < 0, "fast ULIDs increase");
    sno_ulid_generator_free(u);
    u = NULL;
    CHECK(sno_ulid_generator_new_with_clock(2, &u) == SNO_STATUS_UNKNOWN_CLOCK && !u, "ULID clock 2 refused");
}

int main(void) {
    versions();
    clocks();
    nulls();
    bad_arguments();
    partitions();
    statuses();
    lifecycle_and_snapshots();
    deprecated_names();
    return finish("test_api");
}
