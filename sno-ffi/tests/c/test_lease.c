/* Leased partitions through the C API (issue #22), against real PostgreSQL and Redis servers
 * that sno-ffi/tests/lease.rs starts (scripts/store-server) and passes in; never a mock.
 *
 *   test_lease api PG_URL REDIS_URL             sno_lease_*, leased generators, NULLs, messages
 *   test_lease bad-input TSV PG_URL REDIS_URL PG_PORT REDIS_PORT CLOSED_PORT REDIS_TLS_PORT CA WRONG_CA
 *                                               every row of testdata/lease_bad_input.tsv
 *   test_lease zeroed                           prints the partition of zeroed options
 *   test_lease env-ok PARTITION [URL NS FIRST LAST]
 *                                               sno_new under SNO_PARTITION / SNO_LEASE_URL: the
 *                                               process partition (PARTITION, or -1: any); with
 *                                               URL, a second lease of NS FIRST-LAST finds it held
 *                                               and a generator on it by hand is refused
 *   test_lease env-fork                         sno_new in a fork() child of a leased process
 *   test_lease env-fail CODE WORDS              sno_new and sno_process_partition fail with CODE,
 *                                               every time, and the message holds WORDS
 *   test_lease env-mint                         sno_new once under SNO_LEASE_URL, prints the ID's
 *                                               partition and time, and returns from main: the
 *                                               atexit handler releases the process lease
 *   test_lease env-release URL NS PARTITION     sno_new, then sno_release_process_lease: the
 *                                               partition (NS, PARTITION-PARTITION) is free at
 *                                               once, and the next sno_new leases anew
 *
 * SNO_TEST_TTL_MS sets the TTL of the api mode's leases (default 2000). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* The code every layer reports for a status (Rust Error::code()), as the TSV spells it. */
static const char *code_of(sno_status s) {
    switch (s) {
    case SNO_STATUS_OK: return "ok";
    case SNO_STATUS_NULL_ARGUMENT: return "null_argument";
    case SNO_STATUS_LEASE_EXPIRED: return "lease_expired";
    case SNO_STATUS_INVALID_ENVIRONMENT: return "invalid_environment";
    case SNO_STATUS_LEASE_INVALID_URL: return "lease_invalid_url";
    case SNO_STATUS_LEASE_INVALID_OPTIONS: return "lease_invalid_options";
    case SNO_STATUS_LEASE_UNREACHABLE: return "lease_unreachable";
    case SNO_STATUS_LEASE_AUTHENTICATION_FAILED: return "lease_authentication_failed";
    case SNO_STATUS_LEASE_TLS_FAILED: return "lease_tls_failed";
    case SNO_STATUS_LEASE_NO_FREE_PARTITION: return "lease_no_free_partition";
    case SNO_STATUS_LEASE_STORE: return "lease_store";
    case SNO_STATUS_LEASE_LOST: return "lease_lost";
    case SNO_STATUS_LEASE_UNAVAILABLE: return "lease_unavailable";
    case SNO_STATUS_LEASED_GENERATOR: return "leased_generator";
    case SNO_STATUS_FORKED: return "forked";
    default: return sno_status_str((int)s);
    }
}

/* This thread's last error message (truncated to the buffer). */
static const char *last_message(void) {
    static char buf[2048];
    size_t n = sno_last_error_message(buf, sizeof buf);
    CHECK(n == strlen(buf) || n >= sizeof buf, "message length %zu vs %zu", n, strlen(buf));
    return buf;
}

static int64_t now_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static uint32_t test_ttl_ms(void) {
    const char *t = getenv("SNO_TEST_TTL_MS");
    return t && *t ? (uint32_t)strtoul(t, NULL, 10) : 2000;
}

/* ---------------------------------------------------------------------------------------- api */

static void nulls_and_messages(void) {
    sno_lease *lease = (sno_lease *)1; /* never touched: every call below fails first */
    uint16_t p;
    uint64_t token;
    int64_t at;
    sno_lease_grant grant;
    sno_generator *g = NULL;
    CHECK_STATUS(sno_lease_acquire(NULL, NULL, &lease), SNO_STATUS_NULL_ARGUMENT);
    CHECK(strcmp(last_message(), "a required pointer argument is NULL") == 0, "null message: %s", last_message());
    CHECK_STATUS(sno_lease_acquire("redis://127.0.0.1:1/", NULL, NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_lease_partition(NULL, &p), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_lease_token(NULL, &token), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_lease_expires_unix_ms(NULL, &at), SNO_STATUS_NULL_ARGUMENT);
    uint64_t count;
    CHECK_STATUS(sno_lease_renewals(NULL, &count), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_lease_renewal_failures(NULL, &count), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_lease_expires_in_ms(NULL, &count), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_lease_current_grant(NULL, &grant), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_lease_last_error(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_generator_new_leased(NULL, NULL, &g), SNO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(sno_process_partition(NULL), SNO_STATUS_NULL_ARGUMENT);
    CHECK(g == NULL, "no generator on failure");
    sno_lease_free(NULL);

    /* Refused before any connection: the URL, then the options. */
    CHECK_STATUS(sno_lease_acquire("localhost:5432", NULL, &lease), SNO_STATUS_LEASE_INVALID_URL);
    CHECK(strstr(last_message(), "scheme") != NULL, "url message: %s", last_message());
    CHECK_STATUS(sno_lease_acquire("\xff\xfe://x", NULL, &lease), SNO_STATUS_LEASE_INVALID_URL);
    CHECK(strstr(last_message(), "UTF-8") != NULL, "utf-8 message: %s", last_message());
    sno_lease_options o;
    memset(&o, 0, sizeof o);
    o.namespace_name = "\xff";
    CHECK_STATUS(sno_lease_acquire("redis://127.0.0.1:1/", &o, &lease), SNO_STATUS_LEASE_INVALID_OPTIONS);
    CHECK(strstr(last_message(), "namespace") != NULL, "namespace message: %s", last_message());
    o.namespace_name = NULL;
    o.ttl_ms = 999;
    CHECK_STATUS(sno_lease_acquire("redis://127.0.0.1:1/", &o, &lease), SNO_STATUS_LEASE_INVALID_OPTIONS);
    CHECK(strstr(last_message(), "TTL") != NULL, "ttl message: %s", last_message());
    CHECK(lease == (sno_lease *)1, "nothing written on failure");

    /* snprintf semantics: the full length, truncated copies, NUL-terminated; NULL buffer. */
    size_t full = sno_last_error_message(NULL, 0);
    CHECK(full == strlen(last_message()) && full > 10, "full length %zu", full);
    char small[8];
    memset(small, 'x', sizeof small);
    CHECK(sno_last_error_message(small, sizeof small) == full, "length with a small buffer");
    CHECK(strlen(small) == 7 && strncmp(small, last_message(), 7) == 0, "truncated: %s", small);
    small[0] = 'x';
    CHECK(sno_last_error_message(small, 0) == full && small[0] == 'x', "len 0 writes nothing");
    CHECK(sno_last_error_message(small, 1) == full && small[0] == '\0', "len 1 writes the NUL");

    /* A success leaves the message in place (errno-like). */
    sno_id id;
    CHECK_STATUS(sno_new(0, &id), SNO_STATUS_OK);
    CHECK(sno_last_error_message(NULL, 0) == full, "kept after a success");
}

/* A thread's message is its own. */
static void *other_thread(void *arg) {
    (void)arg;
    return (void *)(uintptr_t)sno_last_error_message(NULL, 0);
}

static void per_thread_messages(void) {
    pthread_t t;
    void *len = (void *)1;
    CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0, "pthread_create");
    pthread_join(t, &len);
    CHECK((uintptr_t)len == 0, "a fresh thread has no message (%zu)", (size_t)(uintptr_t)len);
}

static sno_lease *acquire_or_report(const char *url, const sno_lease_options *o, const char *what) {
    sno_lease *lease = NULL;
    sno_status st = sno_lease_acquire(url, o, &lease);
    CHECK(st == SNO_STATUS_OK, "%s: acquire -> %s: %s", what, code_of(st), last_message());
    return st == SNO_STATUS_OK ? lease : NULL;
}

static sno_generator *leased_gen;

/* In a fork() child: the parent's leased generator refuses for good, and freeing the child's
 * copy of the lease releases nothing (the parent checks that it still mints). */
static int leased_in_child(void) {
    sno_id id;
    int64_t retry = 0;
    if (sno_generator_next(leased_gen, 0, &id) != SNO_STATUS_FORKED) return 10;
    if (sno_generator_try_next(leased_gen, 0, &id, &retry) != SNO_STATUS_FORKED) return 11;
    return 0;
}

/* The child's verdict comes back through a pipe: its exit status is valgrind's when it runs
 * under valgrind, which counts the child's copy of the renewal thread's handle, deliberately
 * forgotten (the thread is the parent's), as a leak. Returns the verdict (0: passed). */
static int fork_child_lease_free(sno_lease *lease) {
    int fds[2];
    CHECK(pipe(fds) == 0, "pipe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        unsigned char rc = (unsigned char)leased_in_child();
        sno_lease_free(lease);
        if (write(fds[1], &rc, 1) != 1) _exit(99);
        _exit(0);
    }
    close(fds[1]);
    int status = -1;
    waitpid(pid, &status, 0);
    unsigned char rc = 255;
    if (read(fds[0], &rc, 1) != 1) rc = 254;
    close(fds[0]);
    CHECK(WIFEXITED(status), "fork child status %d", status);
    return rc;
}

/* Everything a lease and its generator do, on one store. */
static void lease_lifecycle(const char *url, const char *backend) {
    char ns[64];
    snprintf(ns, sizeof ns, "c-api-%s-%ld", backend, (long)getpid());
    sno_lease_options o;
    memset(&o, 0, sizeof o);
    o.namespace_name = ns;
    o.partition_first = 100;
    o.partition_last = 101;
    o.ttl_ms = test_ttl_ms();
    int64_t before = now_ms();
    sno_lease *a = acquire_or_report(url, &o, backend);
    if (!a) return;

    uint16_t pa = 0;
    uint64_t token = 0;
    int64_t expires = 0;
    sno_lease_grant grant;
    CHECK_STATUS(sno_lease_partition(a, &pa), SNO_STATUS_OK);
    CHECK(pa == 100 || pa == 101, "%s: partition %u outside 100..=101", backend, pa);
    CHECK_STATUS(sno_lease_token(a, &token), SNO_STATUS_OK);
    CHECK(token > 0, "%s: token %llu", backend, (unsigned long long)token);
    CHECK_STATUS(sno_lease_expires_unix_ms(a, &expires), SNO_STATUS_OK);
    CHECK(expires > before, "%s: expires %lld before the call %lld", backend, (long long)expires, (long long)before);
    CHECK_STATUS(sno_lease_current_grant(a, &grant), SNO_STATUS_OK);
    /* The margin (a tenth of the TTL, at most 1 s) separates the window's end from the expiry. */
    CHECK(grant.partition == pa && grant.token >= token && grant.ids_from_unix_ms <= grant.ids_before_unix_ms &&
              grant.expires_unix_ms - grant.ids_before_unix_ms == (int64_t)(o.ttl_ms / 10 < 1000 ? o.ttl_ms / 10 : 1000),
          "%s: grant %u %llu %lld %lld %lld", backend, grant.partition, (unsigned long long)grant.token,
          (long long)grant.ids_from_unix_ms, (long long)grant.ids_before_unix_ms, (long long)grant.expires_unix_ms);
    CHECK_STATUS(sno_lease_last_error(a), SNO_STATUS_OK);
    /* The counters operators read (#42): none failed; the grant lapses within a TTL. */
    uint64_t renewals = 0, failures = 1, expires_in = 0;
    CHECK_STATUS(sno_lease_renewals(a, &renewals), SNO_STATUS_OK);
    CHECK_STATUS(sno_lease_renewal_failures(a, &failures), SNO_STATUS_OK);
    CHECK(failures == 0, "%s: %llu renewal failures", backend, (unsigned long long)failures);
    CHECK_STATUS(sno_lease_expires_in_ms(a, &expires_in), SNO_STATUS_OK);
    CHECK(expires_in > 0 && expires_in <= o.ttl_ms, "%s: expires in %llu ms, TTL %llu", backend,
          (unsigned long long)expires_in, (unsigned long long)o.ttl_ms);
    /* A renewal comes every third of the TTL: counted (bounded at ten seconds, never a hang). */
    uint64_t later = renewals;
    for (int64_t until = now_ms() + 10000; later == renewals && now_ms() < until;) {
        usleep(20000);
        CHECK_STATUS(sno_lease_renewals(a, &later), SNO_STATUS_OK);
    }
    CHECK(later > renewals, "%s: no renewal counted (%llu)", backend, (unsigned long long)later);

    /* The generator: the partition is the lease's; only sequence bounds may be given. */
    sno_generator *g = NULL;
    sno_generator_options go;
    memset(&go, 0, sizeof go);
    go.partition = SNO_PARTITION_FIXED | 3;
    CHECK_STATUS(sno_generator_new_leased(a, &go, &g), SNO_STATUS_LEASED_GENERATOR);
    /* The core's words, the same in every language. */
    CHECK(strstr(last_message(), "an explicit partition is not for a leased generator: ") != NULL,
          "message: %s", last_message());
    go.partition = 0;
    go.sequence_min = 10;
    go.sequence_max = 12; /* 3 values: too few */
    CHECK_STATUS(sno_generator_new_leased(a, &go, &g), SNO_STATUS_INVALID_SEQUENCE_BOUNDS);
    CHECK(g == NULL, "no generator on failure");
    go.sequence_max = 13;
    CHECK_STATUS(sno_generator_new_leased(a, &go, &g), SNO_STATUS_OK);
    sno_generator *second = NULL;
    CHECK_STATUS(sno_generator_new_leased(a, NULL, &second), SNO_STATUS_LEASE_UNAVAILABLE);
    CHECK(strstr(last_message(), "one lease, one generator") != NULL, "message: %s", last_message());
    CHECK(second == NULL, "no second generator");
    if (!g) {
        sno_lease_free(a);
        return;
    }

    /* Every minting call, as for any generator. */
    sno_id prev = {{0}}, id;
    int64_t retry = 0;
    CHECK_STATUS(sno_generator_next(g, 5, &id), SNO_STATUS_OK);
    CHECK(sno_id_partition(id) == pa && sno_id_meta(id) == 5, "%s: partition %u meta %u", backend,
          sno_id_partition(id), sno_id_meta(id));
    CHECK(sno_id_sequence(id) >= 10 && sno_id_sequence(id) <= 13, "sequence %u", sno_id_sequence(id));
    /* Inside the grant's window (its end only moves forward: read it after minting). */
    CHECK_STATUS(sno_lease_current_grant(a, &grant), SNO_STATUS_OK);
    CHECK(sno_id_unix_ms(id) > grant.ids_from_unix_ms - 4 && sno_id_unix_ms(id) < grant.ids_before_unix_ms,
          "%s: ID time %lld outside the grant %lld..%lld", backend, (long long)sno_id_unix_ms(id),
          (long long)grant.ids_from_unix_ms, (long long)grant.ids_before_unix_ms);
    prev = id;
    sno_status st = sno_generator_try_next(g, 5, &id, &retry);
    CHECK(st == SNO_STATUS_OK || st == SNO_STATUS_SEQUENCE_EXHAUSTED, "try_next: %s", code_of(st));
    if (st == SNO_STATUS_OK) {
        CHECK(sno_id_compare(prev, id) < 0 && sno_id_partition(id) == pa, "try_next ID");
        prev = id;
    }
    sno_id batch[64];
    CHECK_STATUS(sno_generator_next_many(g, 6, batch, 64), SNO_STATUS_OK);
    for (int i = 0; i < 64; i++) {
        CHECK(sno_id_compare(prev, batch[i]) < 0, "%s: batch order %d", backend, i);
        CHECK(sno_id_partition(batch[i]) == pa, "%s: batch partition %d", backend, i);
        prev = batch[i];
    }
    sno_stats stats;
    CHECK_STATUS(sno_generator_stats(g, &stats), SNO_STATUS_OK);
    CHECK(stats.overflow_episodes <= stats.overflows, "stats %llu episodes, %llu overflows",
          (unsigned long long)stats.overflow_episodes, (unsigned long long)stats.overflows);

    /* What belongs to the lease is refused. */
    sno_snapshot snap;
    CHECK_STATUS(sno_generator_repartition(g, 7), SNO_STATUS_LEASED_GENERATOR);
    CHECK(strstr(last_message(), "a new partition is not for a leased generator: ") != NULL,
          "message: %s", last_message());
    CHECK_STATUS(sno_generator_next_at_unix_ns(g, 0, INT64_C(1586176496789123456), &id), SNO_STATUS_LEASED_GENERATOR);
    CHECK_STATUS(sno_generator_snapshot(g, &snap), SNO_STATUS_LEASED_GENERATOR);

    /* A second lease of the range takes the other partition; a third finds none. */
    sno_lease *b = acquire_or_report(url, &o, backend);
    uint16_t pb = 0;
    if (b) {
        CHECK_STATUS(sno_lease_partition(b, &pb), SNO_STATUS_OK);
        CHECK(pb != pa && (pb == 100 || pb == 101), "%s: second partition %u (first %u)", backend, pb, pa);
        uint64_t tb = 0;
        CHECK_STATUS(sno_lease_token(b, &tb), SNO_STATUS_OK);
        CHECK(tb > token, "%s: tokens grow: %llu then %llu", backend, (unsigned long long)token, (unsigned long long)tb);
    }
    sno_lease *c = (sno_lease *)1;
    CHECK_STATUS(sno_lease_acquire(url, &o, &c), SNO_STATUS_LEASE_NO_FREE_PARTITION);
    CHECK(strstr(last_message(), ns) != NULL, "%s: message names the namespace: %s", backend, last_message());
    CHECK(c == (sno_lease *)1, "nothing written on failure");

    /* fork(): the child's copy refuses; the parent keeps minting on its lease. */
    leased_gen = g;
    int verdict = fork_child_lease_free(a);
    CHECK(verdict == 0, "%s: fork child verdict %d", backend, verdict);
    CHECK_STATUS(sno_generator_next(g, 0, &id), SNO_STATUS_OK);
    CHECK(sno_id_partition(id) == pa && sno_id_compare(prev, id) < 0, "%s: parent mints after the child", backend);
    CHECK_STATUS(sno_lease_last_error(a), SNO_STATUS_OK);

    /* Freed: the generator refuses at once, for good, by every call. */
    sno_lease_free(a);
    CHECK_STATUS(sno_generator_next(g, 0, &id), SNO_STATUS_LEASE_EXPIRED);
    CHECK_STATUS(sno_generator_try_next(g, 0, &id, &retry), SNO_STATUS_LEASE_EXPIRED);
    CHECK_STATUS(sno_generator_next_many(g, 0, batch, 2), SNO_STATUS_LEASE_EXPIRED);
    CHECK_STATUS(sno_generator_stats(g, &stats), SNO_STATUS_OK);
    sno_generator_free(g);

    /* The other lease lives on, and its generator mints on its own partition. */
    if (b) {
        sno_generator *gb = NULL;
        CHECK_STATUS(sno_generator_new_leased(b, NULL, &gb), SNO_STATUS_OK);
        CHECK_STATUS(sno_generator_next(gb, 0, &id), SNO_STATUS_OK);
        CHECK(sno_id_partition(id) == pb, "%s: second generator partition %u", backend, sno_id_partition(id));
        /* The lease freed first, the generator after. */
        sno_lease_free(b);
        CHECK_STATUS(sno_generator_next(gb, 0, &id), SNO_STATUS_LEASE_EXPIRED);
        sno_generator_free(gb);
    }
}

/* Zeroed options and NULL options are the defaults: namespace "default", every partition. */
static void default_options(const char *url) {
    sno_lease_options zero;
    memset(&zero, 0, sizeof zero);
    sno_lease *a = acquire_or_report(url, &zero, "zeroed options");
    sno_lease *b = acquire_or_report(url, NULL, "NULL options");
    uint16_t pa = 0, pb = 0;
    if (a && b) {
        CHECK_STATUS(sno_lease_partition(a, &pa), SNO_STATUS_OK);
        CHECK_STATUS(sno_lease_partition(b, &pb), SNO_STATUS_OK);
        CHECK(pa != pb, "one namespace: two partitions (%u, %u)", pa, pb);
        /* The default TTL (15 s) gives the default margin, 1 s, between window end and expiry
         * (the 2 s TTL of the other tests gives 200 ms). */
        sno_lease_grant grant;
        CHECK_STATUS(sno_lease_current_grant(a, &grant), SNO_STATUS_OK);
        CHECK(grant.expires_unix_ms - grant.ids_before_unix_ms == 1000, "default margin %lld",
              (long long)(grant.expires_unix_ms - grant.ids_before_unix_ms));
    }
    sno_lease_free(a);
    sno_lease_free(b);
}

static int api(const char *pg, const char *redis) {
    nulls_and_messages();
    per_thread_messages();
    lease_lifecycle(pg, "pg");
    lease_lifecycle(redis, "redis");
    default_options(pg);
    return finish("test_lease api");
}

/* -------------------------------------------------------------------------------- bad input */

/* Replaces every {key} of `in` (see the TSV's header comment). */
static void expand(const char *in, char *out, size_t cap, char **values) {
    static const char *keys[] = {"{pg}",          "{redis}",          "{pg_port}", "{redis_port}",
                                 "{closed_port}", "{redis_tls_port}", "{ca}",      "{wrong_ca}"};
    size_t n = 0;
    while (*in && n + 1 < cap) {
        int hit = 0;
        for (int k = 0; k < (int)(sizeof keys / sizeof keys[0]); k++) {
            size_t kl = strlen(keys[k]);
            if (strncmp(in, keys[k], kl) == 0) {
                size_t vl = strlen(values[k]);
                if (n + vl >= cap) break;
                memcpy(out + n, values[k], vl);
                n += vl;
                in += kl;
                hit = 1;
                break;
            }
        }
        if (!hit) out[n++] = *in++;
    }
    out[n] = '\0';
}

/* Parses `k=v;k=v` into `o` (namespace points into `cells`, which stays alive). */
static int parse_options(char *text, sno_lease_options *o, int *hold_first) {
    memset(o, 0, sizeof *o);
    *hold_first = 0;
    if (strcmp(text, "-") == 0) return 1;
    for (char *item = strtok(text, ";"); item; item = strtok(NULL, ";")) {
        char *eq = strchr(item, '=');
        if (!eq) return 0;
        *eq = '\0';
        const char *k = item, *v = eq + 1;
        if (strcmp(k, "namespace") == 0) o->namespace_name = v;
        else if (strcmp(k, "ttl_ms") == 0) o->ttl_ms = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(k, "margin_ms") == 0) o->margin_ms = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(k, "timeout_ms") == 0) o->timeout_ms = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(k, "partitions") == 0) {
            unsigned a, b;
            if (sscanf(v, "%u-%u", &a, &b) != 2) return 0;
            o->partition_first = (uint16_t)a;
            o->partition_last = (uint16_t)b;
        } else if (strcmp(k, "hold_first") == 0) *hold_first = atoi(v);
        else return 0;
    }
    return 1;
}

static int bad_input(const char *tsv, char **values) {
    FILE *f = fopen(tsv, "r");
    CHECK(f != NULL, "cannot open %s", tsv);
    if (!f) return finish("test_lease bad-input");
    char line[4096], url[4096];
    char *cells[8];
    int rows = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int n = split_tabs(line, cells, 8);
        if (!header) {
            header = 1;
            CHECK(n == 5 && strcmp(cells[0], "case") == 0 && strcmp(cells[1], "url") == 0 &&
                      strcmp(cells[2], "options") == 0 && strcmp(cells[3], "code") == 0 &&
                      strcmp(cells[4], "secret") == 0,
                  "unexpected header");
            continue;
        }
        if (n == 1 && cells[0][0] == '\0') continue;
        CHECK(n == 5, "row %d has %d cells", rows, n);
        if (n != 5) continue;
        const char *secret = strcmp(cells[4], "-") == 0 ? NULL : cells[4];
        rows++;
        expand(cells[1], url, sizeof url, values);
        sno_lease_options o;
        int hold_first = 0;
        CHECK(parse_options(cells[2], &o, &hold_first), "%s: options %s", cells[0], cells[2]);
        sno_lease *held = NULL;
        if (hold_first) {
            /* The same namespace and range, held while the row's request runs; a short TTL
             * when the row gives none (a fresh Redis namespace waits one TTL). */
            sno_lease_options h = o;
            if (!h.ttl_ms) h.ttl_ms = 2000;
            held = acquire_or_report(url, &h, cells[0]);
        }
        sno_lease *lease = (sno_lease *)1;
        sno_status st = sno_lease_acquire(url, &o, &lease);
        const char *msg = last_message();
        CHECK(strcmp(code_of(st), cells[3]) == 0, "%s: got %s (%s), want %s", cells[0], code_of(st), msg, cells[3]);
        if (st == SNO_STATUS_OK) {
            sno_lease_free(lease);
        } else {
            CHECK(lease == (sno_lease *)1, "%s: written on failure", cells[0]);
            CHECK(strlen(msg) > 0, "%s: no message", cells[0]);
            /* The store's words, never the password of the URL. */
            CHECK(strstr(msg, ":wrong@") == NULL && strstr(msg, ":sno-test@") == NULL, "%s: password in %s",
                  cells[0], msg);
            /* Nor the row's secret (not printed: the message is shown only when it holds none). */
            if (secret) CHECK(strstr(msg, secret) == NULL, "%s: the row's secret is in the message", cells[0]);
        }
        sno_lease_free(held);
    }
    fclose(f);
    CHECK(rows >= 20, "%d rows", rows);
    printf("%d rows\n", rows);
    return finish("test_lease bad-input");
}

/* ----------------------------------------------------------------------- process-wide, env */

/* Zeroed options: a default partition, distinct per generator; prints the first. */
static int zeroed(void) {
    sno_generator_options o;
    memset(&o, 0, sizeof o);
    sno_generator *g1 = NULL, *g2 = NULL;
    sno_id a = {{0}}, b = {{0}};
    CHECK_STATUS(sno_generator_new(&o, &g1), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_new(&o, &g2), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(g1, 0, &a), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(g2, 0, &b), SNO_STATUS_OK);
    CHECK(sno_id_partition(a) != sno_id_partition(b), "two zeroed generators share %u", sno_id_partition(a));
    sno_generator_free(g1);
    sno_generator_free(g2);
    printf("partition %u\n", sno_id_partition(a));
    return finish("test_lease zeroed");
}

static int env_ok(int argc, char **argv) {
    long want = argc > 2 ? strtol(argv[2], NULL, 10) : -1;
    uint16_t p = 0;
    sno_status st = sno_process_partition(&p);
    CHECK(st == SNO_STATUS_OK, "sno_process_partition -> %s: %s", code_of(st), last_message());
    if (want >= 0) CHECK(p == want, "process partition %u, want %ld", p, want);
    sno_id prev = {{0}};
    for (int i = 0; i < 3; i++) {
        sno_id id;
        st = sno_new((uint8_t)i, &id);
        CHECK(st == SNO_STATUS_OK, "sno_new -> %s: %s", code_of(st), last_message());
        if (st != SNO_STATUS_OK) break;
        CHECK(sno_id_partition(id) == p && sno_id_meta(id) == i, "ID partition %u meta %u", sno_id_partition(id),
              sno_id_meta(id));
        CHECK(sno_id_compare(prev, id) < 0, "order");
        prev = id;
    }
    if (argc > 6) {
        /* The store holds the process lease: a second lease of the same range finds no
         * partition free. */
        sno_lease_options o;
        memset(&o, 0, sizeof o);
        o.namespace_name = argv[4];
        o.partition_first = (uint16_t)atoi(argv[5]);
        o.partition_last = (uint16_t)atoi(argv[6]);
        o.ttl_ms = 1000;
        sno_lease *other = NULL;
        st = sno_lease_acquire(argv[3], &o, &other);
        CHECK(st == SNO_STATUS_LEASE_NO_FREE_PARTITION, "second lease -> %s: %s", code_of(st), last_message());
        sno_lease_free(other);
        /* Nor can a generator of this process be given the partition by hand (it would mint
         * the lease's IDs a second time), nor any other while SNO_LEASE_URL is set. */
        sno_generator_options go;
        memset(&go, 0, sizeof go);
        go.partition = SNO_PARTITION_FIXED | p;
        sno_generator *g = NULL;
        st = sno_generator_new(&go, &g);
        CHECK(st == SNO_STATUS_INVALID_ENVIRONMENT && g == NULL, "an explicit partition -> %s", code_of(st));
        CHECK(strstr(last_message(), "SNO_LEASE_URL") != NULL, "message %s", last_message());
    }
    printf("partition %u\n", p);
    return finish("test_lease env-ok");
}

/* A fork() child of a leased process leases a partition of its own on its first call. */
static int env_fork(void) {
    uint16_t parent = 0;
    sno_id id;
    CHECK_STATUS(sno_new(0, &id), SNO_STATUS_OK);
    CHECK_STATUS(sno_process_partition(&parent), SNO_STATUS_OK);
    int pipefd[2];
    CHECK(pipe(pipefd) == 0, "pipe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        uint16_t child = 0xFFFF;
        sno_id cid;
        int rc = 0;
        if (sno_new(0, &cid) != SNO_STATUS_OK) rc = 1;
        if (sno_process_partition(&child) != SNO_STATUS_OK) rc = 2;
        if (rc == 0 && sno_id_partition(cid) != child) rc = 3;
        if (write(pipefd[1], &child, sizeof child) != (ssize_t)sizeof child) rc = 4;
        _exit(rc);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    uint16_t child = 0;
    CHECK(read(pipefd[0], &child, sizeof child) == (ssize_t)sizeof child, "read the child's partition");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    CHECK(child != parent, "the child leased its own partition: parent %u child %u", parent, child);
    CHECK_STATUS(sno_new(0, &id), SNO_STATUS_OK);
    CHECK(sno_id_partition(id) == parent, "the parent keeps its partition");
    printf("parent %u child %u\n", parent, child);
    return finish("test_lease env-fork");
}

static int env_fail(const char *code, const char *words) {
    sno_id id;
    uint16_t p;
    for (int i = 0; i < 2; i++) {
        sno_status st = sno_new(0, &id);
        CHECK(strcmp(code_of(st), code) == 0, "sno_new -> %s (%s), want %s", code_of(st), last_message(), code);
        CHECK(strstr(last_message(), words) != NULL, "message %s lacks %s", last_message(), words);
        st = sno_process_partition(&p);
        CHECK(strcmp(code_of(st), code) == 0, "sno_process_partition -> %s, want %s", code_of(st), code);
    }
    /* Generators of one's own are not affected by the environment. */
    sno_generator *g = NULL;
    CHECK_STATUS(sno_generator_new(NULL, &g), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(g, 0, &id), SNO_STATUS_OK);
    sno_generator_free(g);
    return finish("test_lease env-fail");
}

/* One ID of the process-wide generator; then main returns, and the atexit handler that sno_new
 * registered releases the lease (sno-ffi/tests/lease.rs starts the next holder right after). */
static int env_mint(void) {
    sno_id id;
    sno_status st = sno_new(0, &id);
    CHECK(st == SNO_STATUS_OK, "sno_new -> %s: %s", code_of(st), last_message());
    if (st == SNO_STATUS_OK) printf("minted partition %u unix_ms %lld\n", sno_id_partition(id), (long long)sno_id_unix_ms(id));
    return finish("test_lease env-mint");
}

/* sno_release_process_lease by hand: the partition is free at once, for IDs after ours; the next
 * sno_new leases anew. */
static int env_release(const char *url, const char *ns, int partition) {
    CHECK(!sno_release_process_lease(), "nothing to release before the first sno_new");
    sno_id first, id;
    uint16_t p = 0;
    sno_status st = sno_new(0, &first);
    CHECK(st == SNO_STATUS_OK, "sno_new -> %s: %s", code_of(st), last_message());
    if (st != SNO_STATUS_OK) return finish("test_lease env-release");
    CHECK(sno_id_partition(first) == partition, "partition %u, want %d", sno_id_partition(first), partition);
    CHECK(sno_release_process_lease(), "the process lease is released");
    CHECK(!sno_release_process_lease(), "a second release finds none");

    sno_lease_options o;
    memset(&o, 0, sizeof o);
    o.namespace_name = ns;
    o.partition_first = (uint16_t)partition;
    o.partition_last = (uint16_t)partition;
    o.ttl_ms = 1000;
    o.timeout_ms = 5000;
    int64_t t0 = now_ms();
    sno_lease *other = NULL;
    st = sno_lease_acquire(url, &o, &other);
    int64_t took = now_ms() - t0;
    CHECK(st == SNO_STATUS_OK, "the released partition -> %s: %s", code_of(st), last_message());
    /* Free at once, and from just past our IDs on: not one TTL (15 s) later. */
    CHECK(took < 5000, "acquiring the released partition took %lld ms", (long long)took);
    if (other) {
        sno_lease_grant grant;
        CHECK_STATUS(sno_lease_current_grant(other, &grant), SNO_STATUS_OK);
        CHECK(grant.partition == partition, "granted %u", grant.partition);
        CHECK(grant.ids_from_unix_ms > sno_id_unix_ms(first), "the next holder starts at %lld, our ID is at %lld",
              (long long)grant.ids_from_unix_ms, (long long)sno_id_unix_ms(first));
        /* While it holds the partition, the process generator finds none free. */
        st = sno_new(0, &id);
        CHECK(st == SNO_STATUS_LEASE_NO_FREE_PARTITION, "sno_new while held -> %s", code_of(st));
        sno_lease_free(other);
    }
    /* Released by the other holder: sno_new leases it anew, after every ID so far. */
    st = sno_new(0, &id);
    CHECK(st == SNO_STATUS_OK, "sno_new after the release -> %s: %s", code_of(st), last_message());
    if (st == SNO_STATUS_OK) {
        CHECK(sno_id_partition(id) == partition && sno_id_compare(first, id) < 0, "the new lease's ID");
        CHECK_STATUS(sno_process_partition(&p), SNO_STATUS_OK);
        CHECK(p == partition, "process partition %u", p);
    }
    return finish("test_lease env-release");
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "api") == 0 && argc == 4) return api(argv[2], argv[3]);
    if (strcmp(mode, "bad-input") == 0 && argc == 11) return bad_input(argv[2], argv + 3);
    if (strcmp(mode, "zeroed") == 0) return zeroed();
    if (strcmp(mode, "env-ok") == 0) return env_ok(argc, argv);
    if (strcmp(mode, "env-fork") == 0) return env_fork();
    if (strcmp(mode, "env-fail") == 0 && argc == 4) return env_fail(argv[2], argv[3]);
    if (strcmp(mode, "env-mint") == 0) return env_mint();
    if (strcmp(mode, "env-release") == 0 && argc == 5) return env_release(argv[2], argv[3], atoi(argv[4]));
    fprintf(stderr, "usage: see the comment at the top of test_lease.c\n");
    return 2;
}
