/* Generate, encode, decode and inspect sno IDs through the C API.
 * Build: make -C examples/c   (uses pkg-config --cflags --libs sno) */
#include <stdio.h>
#include <string.h>

#include <sno.h>

static int print_id(sno_id id) {
    char text[SNO_ENCODED_LEN + 1];
    sno_status st = sno_id_encode_cstr(&id, text, sizeof text);
    if (st != SNO_STATUS_OK) return fprintf(stderr, "encode: %s\n", sno_status_str(st)), 1;
    printf("%s  unix_ms=%lld  units=%llu  tick=%d  meta=%u  partition=0x%04x  sequence=%u\n", text,
           (long long)sno_id_unix_ms(id), (unsigned long long)sno_id_timestamp(id), (int)sno_id_tick_tock(id),
           (unsigned)sno_id_meta(id), (unsigned)sno_id_partition(id), (unsigned)sno_id_sequence(id));
    return 0;
}

int main(void) {
    sno_id id;
    if (sno_new(0, &id) != SNO_STATUS_OK || print_id(id)) return 1;

    /* Zeroed options: a default partition and the full sequence range; here partition 0x0102. */
    sno_generator_options opts = {0};
    opts.partition = SNO_PARTITION_FIXED | 0x0102;
    sno_generator *gen = NULL;
    sno_status st = sno_generator_new(&opts, &gen);
    if (st != SNO_STATUS_OK) return fprintf(stderr, "generator: %s\n", sno_status_str(st)), 1;
    for (int i = 0; i < 3; i++) {
        if (sno_generator_next(gen, 7, &id) != SNO_STATUS_OK || print_id(id)) return 1;
    }
    sno_generator_free(gen);

    const char *text = "brpk4q72xwf2m63l";
    st = sno_id_decode(text, strlen(text), &id);
    if (st != SNO_STATUS_OK || print_id(id)) return 1;
    size_t pos = 0;
    st = sno_id_decode_at("BRPK4Q72XWF2M63L", 16, &id, &pos);
    printf("BRPK4Q72XWF2M63L -> %s at byte %zu\n", sno_status_str(st), pos);
    return st == SNO_STATUS_INVALID_BYTE ? 0 : 1;
}
