/* The format-generic API (sno_format, sno_detect, sno_format_candidates, sno_parse_as,
 * sno_inspect, sno_inspect_bytes): every format of the core's table by number and name, the
 * vector files of each format read through it and compared with the vectors' columns and the
 * per-format functions, detection and ambiguity, and bad arguments. TypeID, which has no
 * per-format functions beyond sno_typeid_new / sno_typeid_from_uuid, goes through it too:
 * every row of the spec's valid and invalid cases. */
#include "common.h"

static sno_inspection in;

/* The field named `name` of `in`, or NULL. */
static const sno_field *field(const sno_inspection *i, const char *name) {
    for (size_t k = 0; k < i->field_count; k++)
        if (strcmp(i->fields[k].name, name) == 0) return &i->fields[k];
    return NULL;
}

/* Whether number field `name` holds `want` (the low 64 bits; the high ones zero). */
static int field_is(const char *name, unsigned long long want) {
    const sno_field *f = field(&in, name);
    return f && f->kind == SNO_FIELD_KIND_UINT && f->value == want && f->value_hi == 0;
}

/* Whether number field `name` holds the hex value `hex` (up to 128 bits). */
static int field_is_hex(const char *name, const char *hex) {
    const sno_field *f = field(&in, name);
    unsigned char b[16] = {0};
    size_t n = strlen(hex);
    char padded[33];
    if (!f || f->kind != SNO_FIELD_KIND_UINT || n > 32) return 0;
    memset(padded, '0', 32 - n);
    memcpy(padded + 32 - n, hex, n + 1);
    if (from_hex(padded, b, 16) != 16) return 0;
    unsigned long long hi = 0, lo = 0;
    for (int k = 0; k < 8; k++) hi = hi << 8 | b[k];
    for (int k = 8; k < 16; k++) lo = lo << 8 | b[k];
    return f->value_hi == hi && f->value == lo;
}

/* Reads `text` as `format` into `in`, and checks the binary form (`hex`), the canonical text,
 * sno_parse_as and sno_inspect_bytes agreeing, and detection agreeing with the candidates. */
static void read_as(int format, const char *text, const char *hex, const char *canonical) {
    unsigned char want[SNO_MAX_BINARY_LEN], bytes[SNO_MAX_BINARY_LEN];
    long n = from_hex(hex, want, sizeof want);
    CHECK(n > 0, "%s: hex %s", text, hex);
    size_t len = strlen(text);
    CHECK_STATUS(sno_inspect(format, text, len, &in), SNO_STATUS_OK);
    CHECK((int)in.format == format, "%s: format %d", text, (int)in.format);
    CHECK(in.binary_len == (size_t)n && memcmp(in.bytes, want, (size_t)n) == 0, "%s: bytes", text);
    CHECK(in.text_len == strlen(canonical) && strcmp(in.text, canonical) == 0, "%s: text %s", text, in.text);
    CHECK(in.field_count > 0 && in.field_count <= SNO_MAX_FIELDS, "%s: %zu fields", text, in.field_count);

    size_t written = 0;
    CHECK_STATUS(sno_parse_as(format, text, len, bytes, sizeof bytes, &written), SNO_STATUS_OK);
    CHECK(written == (size_t)n && memcmp(bytes, want, written) == 0, "%s: parse_as", text);

    /* From the binary form: the same ID, but for text fields (a TypeID's prefix), which the
     * binary form does not hold and which read as empty. */
    sno_inspection again;
    int text_fields = 0;
    CHECK_STATUS(sno_inspect_bytes(format, want, (size_t)n, &again), SNO_STATUS_OK);
    CHECK(again.field_count == in.field_count && again.has_unix_ms == in.has_unix_ms && again.unix_ms == in.unix_ms,
          "%s: from bytes", text);
    for (size_t k = 0; k < in.field_count; k++) {
        if (in.fields[k].kind == SNO_FIELD_KIND_TEXT) {
            text_fields += in.fields[k].text[0] != '\0';
            CHECK(again.fields[k].kind == SNO_FIELD_KIND_TEXT && again.fields[k].text[0] == '\0', "%s: field %zu", text, k);
        } else {
            CHECK(memcmp(&again.fields[k], &in.fields[k], sizeof in.fields[k]) == 0, "%s: field %zu", text, k);
        }
    }
    if (!text_fields) CHECK(strcmp(again.text, in.text) == 0, "%s: text from bytes %s", text, again.text);

    /* Detection: the one candidate, else ambiguous; a Nanoflake alone is ambiguous too. */
    uint32_t candidates = sno_format_candidates(text, len);
    CHECK(candidates & 1u << format, "%s: candidates %#x", text, (unsigned)candidates);
    sno_format found = (sno_format)99;
    sno_status st = sno_detect(text, len, &found);
    if (candidates == 1u << format && format != SNO_FORMAT_NANOFLAKE) {
        CHECK(st == SNO_STATUS_OK && (int)found == format, "%s: detect %d (%s)", text, (int)found, sno_status_str(st));
        sno_inspection detected;
        CHECK_STATUS(sno_inspect(SNO_FORMAT_DETECT, text, len, &detected), SNO_STATUS_OK);
        CHECK(memcmp(&detected, &in, sizeof in) == 0, "%s: inspect with detection", text);
    } else {
        CHECK(st == SNO_STATUS_AMBIGUOUS_FORMAT && (int)found == 99, "%s: detect gives %s", text, sno_status_str(st));
    }
}

/* label, hex, encoded, ts_units, tick, unix_ns, time_utc, meta, partition, sequence */
static void sno_row(char **c) {
    read_as(SNO_FORMAT_SNO, c[2], c[1], c[2]);
    sno_id id;
    CHECK_STATUS(sno_id_decode(c[2], strlen(c[2]), &id), SNO_STATUS_OK);
    CHECK(field_is("units", strtoull(c[3], NULL, 10)) && field_is("meta", strtoull(c[7], NULL, 10)) &&
              field_is("partition", strtoull(c[8], NULL, 10)) && field_is("sequence", strtoull(c[9], NULL, 10)),
          "%s: fields", c[0]);
    const sno_field *tick = field(&in, "tick_tock");
    CHECK(tick && tick->kind == SNO_FIELD_KIND_BOOL && tick->value == strtoull(c[4], NULL, 10), "%s: tick", c[0]);
    CHECK(in.has_unix_ms && in.unix_ms == sno_id_unix_ms(id) && in.unix_ms == strtoll(c[5], NULL, 10) / 1000000,
          "%s: unix_ms %lld", c[0], (long long)in.unix_ms);
}

/* hex, ulid, timestamp_ms, randomness_hex, uuid, note */
static void ulid_row(char **c) {
    read_as(SNO_FORMAT_ULID, c[1], c[0], c[1]);
    char low[64];
    lower(c[1], low);
    read_as(SNO_FORMAT_ULID, low, c[0], c[1]);
    sno_ulid id;
    CHECK_STATUS(sno_ulid_decode(c[1], strlen(c[1]), &id, NULL), SNO_STATUS_OK);
    CHECK(field_is("unix_ms", sno_ulid_unix_ms(id)) && field_is("unix_ms", strtoull(c[2], NULL, 10)),
          "%s: unix_ms", c[5]);
    CHECK(in.has_unix_ms && in.unix_ms == strtoll(c[2], NULL, 10), "%s: time", c[5]);
    const sno_field *r = field(&in, "randomness");
    CHECK(r && r->bits == 80 && field_is_hex("randomness", c[3]), "%s: randomness", c[5]);
}

/* hex, uuid, unix_ts_ms, rand_a_hex, rand_b_hex, builder_input_hex, same_bits_as_ulid, note */
static void uuid7_row(char **c) {
    read_as(SNO_FORMAT_UUID7, c[1], c[0], c[1]);
    CHECK(field_is("unix_ms", strtoull(c[2], NULL, 10)) && field_is_hex("rand_a", c[3]) &&
              field_is_hex("rand_b", c[4]) && field_is("version", 7) && field_is("variant", 2),
          "%s: fields", c[7]);
}

/* hex, scru128, timestamp_ms, counter_hi, counter_lo, entropy, note */
static void scru128_row(char **c) {
    read_as(SNO_FORMAT_SCRU128, c[1], c[0], c[1]);
    sno_scru128 id;
    CHECK_STATUS(sno_scru128_decode(c[1], strlen(c[1]), &id, NULL), SNO_STATUS_OK);
    CHECK(field_is("unix_ms", strtoull(c[2], NULL, 10)) && field_is("counter_hi", sno_scru128_counter_hi(id)) &&
              field_is("counter_lo", strtoull(c[4], NULL, 10)) && field_is("entropy", strtoull(c[5], NULL, 10)),
          "%s: fields", c[6]);
}

/* hex, base32hex, timestamp_ms, counter, random16, random80_hex, inspect_cli, note */
static void scru160_row(char **c) {
    read_as(SNO_FORMAT_SCRU160, c[1], c[0], c[1]);
    CHECK(field_is("unix_ms", strtoull(c[2], NULL, 10)) && field_is("counter", strtoull(c[3], NULL, 10)) &&
              field_is("random16", strtoull(c[4], NULL, 10)) && field_is_hex("random80", c[5]),
          "%s: fields", c[7]);
    /* The hex form reads as the same ID. */
    sno_scru160 id;
    char hex[SNO_SCRU160_HEX_LEN + 1] = {0};
    CHECK_STATUS(sno_scru160_decode(c[1], strlen(c[1]), &id, NULL), SNO_STATUS_OK);
    CHECK_STATUS(sno_scru160_encode_hex(&id, hex), SNO_STATUS_OK);
    read_as(SNO_FORMAT_SCRU160, hex, c[0], c[1]);
}

/* hex, ksuid, timestamp, unix_secs, unix_ms, payload_hex, note */
static void ksuid_row(char **c) {
    read_as(SNO_FORMAT_KSUID, c[1], c[0], c[1]);
    CHECK(field_is("timestamp_secs", strtoull(c[2], NULL, 10)) && field_is_hex("payload", c[5]),
          "%s: fields", c[6]);
    CHECK(in.has_unix_ms && in.unix_ms == strtoll(c[4], NULL, 10), "%s: time", c[6]);
    /* The per-format functions read and write the same. */
    sno_ksuid id;
    char text[SNO_KSUID_ENCODED_LEN + 1] = {0};
    CHECK_STATUS(sno_ksuid_decode(c[1], strlen(c[1]), &id, NULL), SNO_STATUS_OK);
    CHECK_STATUS(sno_ksuid_encode(&id, text), SNO_STATUS_OK);
    CHECK(strcmp(text, c[1]) == 0 && sno_ksuid_unix_ms(id) == strtoull(c[4], NULL, 10), "%s: sno_ksuid_*", c[6]);
}

/* KSUIDs from the process-wide generator and a generator of one's own: increasing; the text's
 * case is part of the value; one past the maximum overflows. */
static void ksuid_generate(void) {
    sno_ksuid a, b;
    CHECK_STATUS(sno_ksuid_new(&a), SNO_STATUS_OK);
    CHECK_STATUS(sno_ksuid_new(&b), SNO_STATUS_OK);
    CHECK(sno_ksuid_compare(a, b) < 0, "sno_ksuid_new: increasing");
    sno_ksuid_generator *g = NULL;
    CHECK_STATUS(sno_ksuid_generator_new(&g), SNO_STATUS_OK);
    CHECK_STATUS(sno_ksuid_generator_next(g, &a), SNO_STATUS_OK);
    CHECK_STATUS(sno_ksuid_generator_next(g, &b), SNO_STATUS_OK);
    CHECK(sno_ksuid_compare(a, b) < 0, "sno_ksuid_generator_next: increasing");
    sno_ksuid_generator_free(g);
    size_t at = 99;
    CHECK_STATUS(sno_ksuid_decode("aWgEPTl1tmebfsQzFP4bxwgy80W", 27, &a, &at), SNO_STATUS_VALUE_OVERFLOW);
    CHECK_STATUS(sno_ksuid_decode("0ujtsYcgvSTl8PAuAdqWYSMnLO!", 27, &a, &at), SNO_STATUS_INVALID_BYTE);
    CHECK(at == 26, "sno_ksuid_decode: the bad byte's position, got %zu", at);
}

/* value, hex, base36, timestamp_field, generator_id, sequence, epoch_ms, unix_ms, ref_…, ref_…, note */
static void nanoflake_row(char **c) {
    read_as(SNO_FORMAT_NANOFLAKE, c[2], c[1], c[2]);
    CHECK(field_is("timestamp_ms", strtoull(c[3], NULL, 10)) && field_is("generator_id", strtoull(c[4], NULL, 10)) &&
              field_is("sequence", strtoull(c[5], NULL, 10)),
          "%s: fields", c[10]);
    CHECK(!in.has_unix_ms && in.unix_ms == 0, "%s: a Nanoflake carries no epoch", c[10]);
}

/* value, hex, ulidflake, timestamp_ms, unix_ms, randomness20, scalable_randomness15, scalable_sid, note */
static void ulidflake_row(char **c) {
    read_as(SNO_FORMAT_ULIDFLAKE, c[2], c[1], c[2]);
    sno_ulidflake id;
    sno_ulidflake_fields f;
    CHECK_STATUS(sno_ulidflake_decode(c[2], strlen(c[2]), &id, NULL), SNO_STATUS_OK);
    CHECK_STATUS(sno_ulidflake_get_fields(id, &f), SNO_STATUS_OK);
    CHECK(field_is("timestamp_ms", f.timestamp) && field_is("randomness", strtoull(c[5], NULL, 10)) &&
              field_is("scalable_randomness", f.scalable_randomness) && field_is("sid", strtoull(c[7], NULL, 10)),
          "%s: fields", c[8]);
    CHECK(in.has_unix_ms && in.unix_ms == strtoll(c[4], NULL, 10), "%s: unix_ms", c[8]);
}

/* name, typeid, prefix, uuid */
static void typeid_row(char **c) {
    char hex[33];
    size_t n = 0;
    for (const char *p = c[3]; *p && n < 32; p++)
        if (*p != '-') hex[n++] = *p;
    hex[n] = '\0';
    read_as(SNO_FORMAT_TYPEID, c[1], hex, c[1]);
    const sno_field *prefix = field(&in, "prefix");
    CHECK(prefix && prefix->kind == SNO_FIELD_KIND_TEXT && strcmp(prefix->text, c[2]) == 0, "%s: prefix", c[0]);
    char ms[13];
    memcpy(ms, hex, 12);
    ms[12] = '\0';
    CHECK(in.field_count == 6 && field_is("unix_ms", strtoull(ms, NULL, 16)), "%s: fields", c[0]);
    CHECK(in.has_unix_ms == (hex[12] == '7') && (!in.has_unix_ms || in.unix_ms == (long long)strtoull(ms, NULL, 16)),
          "%s: time of a UUIDv7 only", c[0]);
    /* Back from the prefix and the UUID. */
    unsigned char uuid[16];
    char text[SNO_TYPEID_MAX_ENCODED_LEN + 1];
    size_t written = 0;
    CHECK(from_hex(hex, uuid, 16) == 16, "%s: uuid", c[0]);
    CHECK_STATUS(sno_typeid_from_uuid(c[2], uuid, 16, text, sizeof text, &written), SNO_STATUS_OK);
    CHECK(strcmp(text, c[1]) == 0 && written == strlen(c[1]), "%s: from_uuid %s", c[0], text);
    CHECK_STATUS(sno_typeid_from_uuid(c[2], uuid, 16, text, strlen(c[1]), &written), SNO_STATUS_BUFFER_TOO_SMALL);
    /* The binary form is the UUID alone: the prefix reads as empty. */
    sno_inspection bare;
    CHECK_STATUS(sno_inspect_bytes(SNO_FORMAT_TYPEID, uuid, 16, &bare), SNO_STATUS_OK);
    CHECK(strcmp(bare.fields[0].text, "") == 0 && strcmp(bare.text + bare.text_len - 26, c[1] + strlen(c[1]) - 26) == 0,
          "%s: from bytes %s", c[0], bare.text);
}

/* name, typeid, description, error_code */
static void typeid_invalid_row(char **c) {
    static const struct { const char *code; sno_status status; } codes[] = {
        {"invalid_prefix", SNO_STATUS_INVALID_PREFIX}, {"invalid_length", SNO_STATUS_INVALID_LENGTH},
        {"invalid_byte", SNO_STATUS_INVALID_BYTE}, {"value_overflow", SNO_STATUS_VALUE_OVERFLOW},
    };
    sno_status want = SNO_STATUS_PANIC;
    for (size_t k = 0; k < sizeof codes / sizeof *codes; k++)
        if (strcmp(codes[k].code, c[3]) == 0) want = codes[k].status;
    CHECK(want != SNO_STATUS_PANIC, "%s: unknown code %s", c[0], c[3]);
    unsigned char bytes[SNO_MAX_BINARY_LEN];
    size_t len = strlen(c[1]);
    CHECK_STATUS(sno_parse_as(SNO_FORMAT_TYPEID, c[1], len, bytes, sizeof bytes, NULL), want);
    CHECK_STATUS(sno_inspect(SNO_FORMAT_TYPEID, c[1], len, &in), want);
    CHECK(!(sno_format_candidates(c[1], len) & 1u << SNO_FORMAT_TYPEID), "%s: a candidate", c[0]);
}

/* New TypeIDs, and the prefix rules of the functions that take one. */
static void typeid_new(void) {
    char text[SNO_TYPEID_MAX_ENCODED_LEN + 1], msg[256];
    size_t written = 0;
    CHECK_STATUS(sno_typeid_new("user", text, sizeof text, &written), SNO_STATUS_OK);
    CHECK(written == 31 && strncmp(text, "user_", 5) == 0 && text[31] == '\0', "new: %s", text);
    CHECK_STATUS(sno_inspect(SNO_FORMAT_DETECT, text, written, &in), SNO_STATUS_OK);
    CHECK(in.format == SNO_FORMAT_TYPEID && in.has_unix_ms && field_is("version", 7) && field_is("variant", 2),
          "new: %s reads as a TypeID of a UUIDv7", text);
    sno_uuid7 u;
    CHECK_STATUS(sno_uuid7_new(&u), SNO_STATUS_OK);
    CHECK(in.unix_ms <= (long long)sno_uuid7_unix_ms(u), "new: time");
    CHECK_STATUS(sno_typeid_new("", text, sizeof text, &written), SNO_STATUS_OK);
    CHECK(written == 26, "no prefix: %s", text);
    CHECK_STATUS(sno_typeid_new("User", text, sizeof text, &written), SNO_STATUS_INVALID_PREFIX);
    sno_last_error_message(msg, sizeof msg);
    CHECK(strstr(msg, "prefix") != NULL, "the rule: %s", msg);
    CHECK_STATUS(sno_typeid_new("caf\xc3\xa9", text, sizeof text, NULL), SNO_STATUS_INVALID_PREFIX);
    CHECK_STATUS(sno_typeid_new("caf\xff", text, sizeof text, NULL), SNO_STATUS_INVALID_PREFIX);
    CHECK_STATUS(sno_typeid_new("user", text, 31, NULL), SNO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(sno_typeid_new(NULL, text, sizeof text, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_typeid_new("user", NULL, sizeof text, NULL), SNO_STATUS_NULL_ARGUMENT);
    unsigned char uuid[16] = {0};
    CHECK_STATUS(sno_typeid_from_uuid("user", uuid, 15, text, sizeof text, NULL), SNO_STATUS_INVALID_LENGTH);
    CHECK_STATUS(sno_typeid_from_uuid("user_", uuid, 16, text, sizeof text, NULL), SNO_STATUS_INVALID_PREFIX);
    CHECK_STATUS(sno_typeid_from_uuid("user", NULL, 16, text, sizeof text, NULL), SNO_STATUS_NULL_ARGUMENT);
}

/* Every format by number and name; the numbers follow the core's table. */
static void formats(void) {
    int count = 0;
    for (int f = 0; sno_format_name(f) != NULL; f++, count++) {
        const char *name = sno_format_name(f);
        sno_format back = (sno_format)99;
        char up[64];
        upper(name, up);
        CHECK_STATUS(sno_format_from_name(name, &back), SNO_STATUS_OK);
        CHECK((int)back == f, "%s -> %d", name, (int)back);
        CHECK_STATUS(sno_format_from_name(up, &back), SNO_STATUS_OK);
        CHECK((int)back == f, "%s -> %d", up, (int)back);
    }
    CHECK(count >= 8, "%d formats", count);
    CHECK(sno_format_name(-1) == NULL && sno_format_name(count) == NULL, "past the table");
    CHECK(SNO_FORMAT_SNO == 0 && SNO_FORMAT_ULID == 1 && SNO_FORMAT_UUID7 == 2 && SNO_FORMAT_SCRU128 == 3 &&
              SNO_FORMAT_SCRU160 == 4 && SNO_FORMAT_NANOFLAKE == 5 && SNO_FORMAT_ULIDFLAKE == 6 &&
              SNO_FORMAT_TYPEID == 7 && SNO_FORMAT_KSUID == 8,
          "format values");
    CHECK(strcmp(sno_format_name(SNO_FORMAT_UUID7), "uuid7") == 0, "uuid7 name");
    sno_format f = (sno_format)99;
    CHECK_STATUS(sno_format_from_name("Ulid-Flake", &f), SNO_STATUS_OK);
    CHECK(f == SNO_FORMAT_ULIDFLAKE, "display name");
    CHECK_STATUS(sno_format_from_name("UUIDv7", &f), SNO_STATUS_OK);
    CHECK(f == SNO_FORMAT_UUID7, "display name");
    f = (sno_format)99;
    CHECK_STATUS(sno_format_from_name("snowflake", &f), SNO_STATUS_UNKNOWN_FORMAT);
    CHECK((int)f == 99, "nothing written on failure");
    char msg[256];
    sno_last_error_message(msg, sizeof msg);
    CHECK(strstr(msg, "ulidflake") != NULL, "the message lists the names: %s", msg);
    CHECK_STATUS(sno_format_from_name(NULL, &f), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_format_from_name("ulid", NULL), SNO_STATUS_NULL_ARGUMENT);
}

/* Statuses and messages of the generic functions. */
static void bad_input(void) {
    const char *ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    unsigned char bytes[SNO_MAX_BINARY_LEN];
    size_t written = 77;
    char msg[256];
    sno_format f = (sno_format)99;

    CHECK_STATUS(sno_detect("!", 1, &f), SNO_STATUS_UNRECOGNIZED_FORMAT);
    CHECK_STATUS(sno_detect("", 0, &f), SNO_STATUS_UNRECOGNIZED_FORMAT);
    CHECK_STATUS(sno_detect(NULL, 0, &f), SNO_STATUS_UNRECOGNIZED_FORMAT);
    CHECK_STATUS(sno_detect("hello", 5, &f), SNO_STATUS_AMBIGUOUS_FORMAT);
    sno_last_error_message(msg, sizeof msg);
    CHECK(strstr(msg, "name the format") != NULL, "ambiguous message: %s", msg);
    CHECK((int)f == 99, "nothing written on failure");
    CHECK(sno_format_candidates("hello", 5) == 1u << SNO_FORMAT_NANOFLAKE, "hello: a Nanoflake only");
    CHECK(sno_format_candidates("!", 1) == 0 && sno_format_candidates(NULL, 5) == 0, "no candidates");
    CHECK_STATUS(sno_detect(NULL, 5, &f), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_detect(ulid, 26, NULL), SNO_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(sno_parse_as(99, ulid, 26, bytes, sizeof bytes, &written), SNO_STATUS_UNKNOWN_FORMAT);
    CHECK_STATUS(sno_parse_as(SNO_FORMAT_DETECT, ulid, 26, bytes, sizeof bytes, &written), SNO_STATUS_UNKNOWN_FORMAT);
    CHECK_STATUS(sno_parse_as(SNO_FORMAT_ULID, ulid, 26, bytes, 15, &written), SNO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(sno_parse_as(SNO_FORMAT_ULID, ulid, 26, NULL, 16, &written), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_parse_as(SNO_FORMAT_ULID, "01ARZ3NDEKTSV4RRFFQ69G5FA!", 26, bytes, 16, &written),
                 SNO_STATUS_INVALID_BYTE);
    sno_last_error_message(msg, sizeof msg);
    CHECK(strstr(msg, "position 25") != NULL, "the core's message: %s", msg);
    CHECK_STATUS(sno_parse_as(SNO_FORMAT_SNO, ulid, 26, bytes, sizeof bytes, &written), SNO_STATUS_INVALID_LENGTH);
    CHECK(written == 77, "nothing written on failure");
    CHECK_STATUS(sno_parse_as(SNO_FORMAT_ULID, ulid, 26, bytes, 16, NULL), SNO_STATUS_OK);

    sno_inspection untouched;
    memset(&untouched, 0x5A, sizeof untouched);
    memcpy(&in, &untouched, sizeof in);
    CHECK_STATUS(sno_inspect(-2, ulid, 26, &in), SNO_STATUS_UNKNOWN_FORMAT);
    CHECK_STATUS(sno_inspect(SNO_FORMAT_DETECT, "hello", 5, &in), SNO_STATUS_AMBIGUOUS_FORMAT);
    CHECK_STATUS(sno_inspect(SNO_FORMAT_UUID7, ulid, 26, &in), SNO_STATUS_INVALID_LENGTH);
    CHECK_STATUS(sno_inspect(SNO_FORMAT_ULID, ulid, 26, NULL), SNO_STATUS_NULL_ARGUMENT);
    unsigned char zero[16] = {0};
    CHECK_STATUS(sno_inspect_bytes(SNO_FORMAT_UUID7, zero, 16, &in), SNO_STATUS_NOT_VERSION7);
    CHECK_STATUS(sno_inspect_bytes(SNO_FORMAT_ULID, zero, 15, &in), SNO_STATUS_INVALID_LENGTH);
    CHECK_STATUS(sno_inspect_bytes(SNO_FORMAT_ULID, NULL, 16, &in), SNO_STATUS_NULL_ARGUMENT);
    CHECK(memcmp(&in, &untouched, sizeof in) == 0, "nothing written on failure");
    CHECK_STATUS(sno_inspect_bytes(SNO_FORMAT_ULID, zero, 16, &in), SNO_STATUS_OK);
    CHECK(strcmp(in.text, "00000000000000000000000000") == 0, "zero ULID: %s", in.text);

    /* The statuses of the core's format errors, numbered by the core's table. */
    CHECK(SNO_STATUS_MISSING_PARTITION == 35 && SNO_STATUS_UNKNOWN_FORMAT == 36 &&
              SNO_STATUS_UNRECOGNIZED_FORMAT == 37 && SNO_STATUS_AMBIGUOUS_FORMAT == 38 &&
              SNO_STATUS_INVALID_PREFIX == 39,
          "status values");
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "testdata/vectors";
    formats();
    bad_input();
    int rows = each_row(dir, "sno_codec.tsv", 10, sno_row);
    rows += each_row(dir, "ulid_vectors.tsv", 6, ulid_row);
    rows += each_row(dir, "uuidv7_vectors.tsv", 8, uuid7_row);
    rows += each_row(dir, "scru128_vectors.tsv", 7, scru128_row);
    rows += each_row(dir, "scru160_vectors.tsv", 8, scru160_row);
    rows += each_row(dir, "nanoflakes_vectors.tsv", 11, nanoflake_row);
    rows += each_row(dir, "ulidflake_vectors.tsv", 9, ulidflake_row);
    int ksuids = each_row(dir, "ksuid_vectors.tsv", 7, ksuid_row);
    CHECK(ksuids == 41, "%d KSUID vector rows", ksuids);
    ksuid_generate();
    int typeids = each_row(dir, "typeid_valid.tsv", 4, typeid_row);
    typeids += each_row(dir, "typeid_invalid.tsv", 4, typeid_invalid_row);
    CHECK(rows > 30 && typeids == 30, "%d vector rows, %d TypeID rows", rows, typeids);
    typeid_new();
    return finish("test_any");
}
