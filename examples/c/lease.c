/* A partition of its own for this process, leased from PostgreSQL or Redis: no two processes
 * leasing from the same store and namespace ever mint the same IDs.
 *
 *   ./lease postgres://app:secret@db.internal/app      (or redis://:password@cache:6379/)
 *   SNO_LEASE_URL=redis://... ./lease
 *
 * (With no code at all, SNO_LEASE_URL makes sno_new lease a partition by itself; this example
 * shows the explicit API.) Build: make -C examples/c   (uses pkg-config --cflags --libs sno) */
#include <stdio.h>
#include <stdlib.h>

#include <sno.h>

/* Prints a failed call's status and the store's words (sno_last_error_message). */
static int fail(const char *what, sno_status st) {
    char message[512];
    sno_last_error_message(message, sizeof message);
    fprintf(stderr, "%s: %s (%s)\n", what, sno_status_str(st), message);
    return 1;
}

int main(int argc, char **argv) {
    const char *url = argc > 1 ? argv[1] : getenv("SNO_LEASE_URL");
    if (!url) {
        fprintf(stderr, "usage: %s STORE_URL   (or set SNO_LEASE_URL)\n", argv[0]);
        return 2;
    }

    /* Zeroed options are the defaults (namespace "default", partitions 0..=65535, TTL 15 s):
     * set only what differs. */
    sno_lease_options opts = {0};
    opts.namespace_name = "examples";
    opts.ttl_ms = 10000;

    sno_lease *lease = NULL;
    sno_status st = sno_lease_acquire(url, &opts, &lease);
    if (st != SNO_STATUS_OK) return fail("sno_lease_acquire", st);

    sno_lease_grant grant;
    sno_lease_current_grant(lease, &grant);
    printf("leased partition %u (token %llu, expires at %lld ms; renewed in the background)\n",
           (unsigned)grant.partition, (unsigned long long)grant.token, (long long)grant.expires_unix_ms);

    /* A generator on the leased partition: NULL options, the whole sequence range. */
    sno_generator *gen = NULL;
    st = sno_generator_new_leased(lease, NULL, &gen);
    if (st != SNO_STATUS_OK) {
        sno_lease_free(lease);
        return fail("sno_generator_new_leased", st);
    }
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        sno_id id;
        char text[SNO_ENCODED_LEN + 1];
        st = sno_generator_next(gen, 0, &id);
        if (st != SNO_STATUS_OK) { /* SNO_STATUS_LEASE_EXPIRED: renewals failing */
            rc = fail("sno_generator_next", st);
            break;
        }
        sno_id_encode_cstr(&id, text, sizeof text);
        printf("%s  partition=%u sequence=%u\n", text, (unsigned)sno_id_partition(id),
               (unsigned)sno_id_sequence(id));
    }

    /* Releases the partition at once (a crashed process's lease lapses after its TTL). */
    sno_lease_free(lease);
    sno_generator_free(gen);
    return rc;
}
