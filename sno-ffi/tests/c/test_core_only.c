/* The core-only libsno.a (IDs and generators, no lease stores): SNO_LEASE_URL cannot lease
 * there, and sno_new says which library to link instead; IDs and generators work as in the
 * other builds. Linked against the core-only archive only (Makefile); whether a program that
 * calls the lease API fails to link against it is checked by scripts/test.sh c. */
#define _POSIX_C_SOURCE 200112L
#include <stdlib.h>

#include "common.h"

int main(void) {
    /* Set before the process-wide generator is first built (it reads the environment once). */
    CHECK(setenv("SNO_LEASE_URL", "redis://127.0.0.1:1/", 1) == 0, "setenv");
    sno_id id;
    CHECK_STATUS(sno_new(0, &id), SNO_STATUS_LEASE_INVALID_URL);
    char message[512];
    size_t len = sno_last_error_message(message, sizeof message);
    CHECK(len > 0 && len < sizeof message, "message length %zu", len);
    CHECK(strstr(message, "SNO_LEASE_URL needs the lease stores") != NULL, "the reason: %s", message);
    CHECK(strstr(message, "link libsno_lease.a") != NULL, "the archive to link: %s", message);
    CHECK(strstr(message, "sno-lease-static") != NULL, "the pkg-config name: %s", message);
    uint16_t partition = 0;
    CHECK_STATUS(sno_process_partition(&partition), SNO_STATUS_LEASE_INVALID_URL);
    CHECK(!sno_release_process_lease(), "no process lease to release");

    /* A partition chosen by hand beside SNO_LEASE_URL may be one another process of the fleet
     * holds by lease: an explicit one, a snapshot's, a repartition. A default one is no choice. */
    sno_generator_options opts = {0};
    opts.partition = SNO_PARTITION_FIXED | 0x0102;
    sno_generator *gen = NULL;
    CHECK_STATUS(sno_generator_new(&opts, &gen), SNO_STATUS_INVALID_ENVIRONMENT);
    CHECK(gen == NULL, "no generator");
    len = sno_last_error_message(message, sizeof message);
    CHECK(strstr(message, "SNO_LEASE_URL: set beside a partition chosen by hand") != NULL, "the reason: %s", message);
    CHECK(strstr(message, "leave the partition out") != NULL, "what to do: %s", message);
    CHECK_STATUS(sno_generator_new(NULL, &gen), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_repartition(gen, 0x0102), SNO_STATUS_INVALID_ENVIRONMENT);
    sno_snapshot snap;
    CHECK_STATUS(sno_generator_snapshot(gen, &snap), SNO_STATUS_OK);
    sno_generator *restored = NULL;
    CHECK_STATUS(sno_generator_restore(&snap, SNO_PARTITION_DEFAULT, &restored), SNO_STATUS_INVALID_ENVIRONMENT);
    CHECK_STATUS(sno_generator_restore(&snap, 0x0102, &restored), SNO_STATUS_INVALID_ENVIRONMENT);
    CHECK(restored == NULL, "nothing restored");
    sno_generator_free(gen);

    /* Without SNO_LEASE_URL, a partition of the program's choosing is its own to keep apart. */
    CHECK(unsetenv("SNO_LEASE_URL") == 0, "unsetenv");
    CHECK_STATUS(sno_generator_new(&opts, &gen), SNO_STATUS_OK);
    sno_id a, b;
    CHECK_STATUS(sno_generator_next(gen, 7, &a), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(gen, 7, &b), SNO_STATUS_OK);
    CHECK(sno_id_compare(a, b) < 0, "IDs in order");
    CHECK(sno_id_partition(a) == 0x0102 && sno_id_meta(a) == 7, "partition and meta");
    char text[SNO_ENCODED_LEN + 1];
    CHECK_STATUS(sno_id_encode_cstr(&a, text, sizeof text), SNO_STATUS_OK);
    CHECK_STATUS(sno_id_decode(text, SNO_ENCODED_LEN, &b), SNO_STATUS_OK);
    CHECK(memcmp(&a, &b, sizeof a) == 0, "round trip of %s", text);
    sno_generator_free(gen);
    return finish("test_core_only");
}
