/* Every row of sno_codec.tsv and sno_decode_invalid.tsv through the C API. */
#include "common.h"

static const char ALPHABET[] = "23456789abcdefghijklmnopqrstuvwx";

static void codec_rows(const char *dir) {
    FILE *f = open_vector(dir, "sno_codec.tsv");
    char line[1024];
    char *c[16];
    int rows = 0;
    if (!fgets(line, sizeof line, f)) exit(2); /* header */
    while (fgets(line, sizeof line, f)) {
        int n = split_tabs(line, c, 16);
        CHECK(n == 10, "row %d has %d cells", rows, n);
        if (n != 10) continue;
        rows++;
        sno_id id;
        CHECK(from_hex(c[1], id.bytes, 10) == 10, "%s: hex", c[0]);
        char text[SNO_ENCODED_LEN];
        CHECK_STATUS(sno_id_encode(&id, text), SNO_STATUS_OK);
        CHECK(memcmp(text, c[2], SNO_ENCODED_LEN) == 0, "%s: encode %.16s want %s", c[0], text, c[2]);
        char ctext[SNO_ENCODED_LEN + 1];
        CHECK_STATUS(sno_id_encode_cstr(&id, ctext, sizeof ctext), SNO_STATUS_OK);
        CHECK(strcmp(ctext, c[2]) == 0, "%s: encode_cstr", c[0]);
        sno_id back;
        memset(&back, 0xAB, sizeof back);
        CHECK_STATUS(sno_id_decode(c[2], strlen(c[2]), &back), SNO_STATUS_OK);
        CHECK(memcmp(back.bytes, id.bytes, 10) == 0, "%s: decode", c[0]);
        CHECK(sno_id_compare(back, id) == 0, "%s: compare", c[0]);
        CHECK(sno_id_timestamp(id) == strtoull(c[3], NULL, 10), "%s: timestamp", c[0]);
        CHECK((int)sno_id_tick_tock(id) == atoi(c[4]), "%s: tick", c[0]);
        CHECK(sno_id_unix_ns(id) == strtoll(c[5], NULL, 10), "%s: unix_ns", c[0]);
        CHECK(sno_id_unix_ms(id) == strtoll(c[5], NULL, 10) / 1000000, "%s: unix_ms", c[0]);
        CHECK(sno_id_meta(id) == atoi(c[7]), "%s: meta", c[0]);
        CHECK(sno_id_partition(id) == atoi(c[8]), "%s: partition", c[0]);
        CHECK(sno_id_sequence(id) == atoi(c[9]), "%s: sequence", c[0]);
        sno_id rebuilt;
        CHECK_STATUS(sno_id_from_fields(sno_id_timestamp(id), sno_id_tick_tock(id), sno_id_meta(id), sno_id_partition(id), sno_id_sequence(id), &rebuilt), SNO_STATUS_OK);
        CHECK(memcmp(rebuilt.bytes, id.bytes, 10) == 0, "%s: from_parts", c[0]);
    }
    fclose(f);
    CHECK(rows == 5974, "codec rows: %d", rows);
}

static void invalid_rows(const char *dir) {
    FILE *f = open_vector(dir, "sno_decode_invalid.tsv");
    char line[4096];
    char *c[16];
    int rows = 0;
    if (!fgets(line, sizeof line, f)) exit(2);
    while (fgets(line, sizeof line, f)) {
        int n = split_tabs(line, c, 16);
        CHECK(n == 11, "row %d has %d cells", rows, n);
        if (n != 11) continue;
        rows++;
        unsigned char input[64];
        long len = from_hex(c[1], input, sizeof input);
        CHECK(len >= 0, "%s: hex", c[0]);
        sno_id out;
        memset(&out, 0x5A, sizeof out);
        size_t pos = 999;
        sno_status st = sno_id_decode_at((const char *)input, (size_t)len, &out, &pos);
        long bad = -1;
        for (long i = 0; len == 16 && i < len; i++) {
            if (!memchr(ALPHABET, input[i], 32) || input[i] == 0) { bad = i; break; }
        }
        if (len != 16) {
            CHECK(st == SNO_STATUS_INVALID_LENGTH && pos == (size_t)len, "%s: %d pos %zu", c[0], (int)st, pos);
        } else if (bad >= 0) {
            CHECK(st == SNO_STATUS_INVALID_BYTE && pos == (size_t)bad, "%s: %d pos %zu want %ld", c[0], (int)st, pos, bad);
        } else {
            unsigned char want[10];
            from_hex(c[5], want, 10);
            CHECK(st == SNO_STATUS_OK && memcmp(out.bytes, want, 10) == 0, "%s: valid input", c[0]);
        }
        if (st != SNO_STATUS_OK) {
            static const unsigned char untouched[10] = {0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A};
            CHECK(memcmp(out.bytes, untouched, 10) == 0, "%s: output written on failure", c[0]);
        }
    }
    fclose(f);
    CHECK(rows == 625, "invalid rows: %d", rows);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "testdata/vectors";
    codec_rows(dir);
    invalid_rows(dir);
    return finish("test_codec");
}
