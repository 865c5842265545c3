/* Hardening of the C API (issue #21): the process-wide generators under a faked system clock
 * (testdata/clock_out_of_range.tsv, run through Debian's faketime), generators inherited across
 * fork(), and a batch at SNO_MAX_BATCH under an address-space limit. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* The code every layer reports for a status (Rust Error::code()). */
static const char *code_of(sno_status s) {
    switch (s) {
    case SNO_STATUS_OK: return "ok";
    case SNO_STATUS_CLOCK_OUT_OF_RANGE: return "clock_out_of_range";
    case SNO_STATUS_MILLIS_OUT_OF_RANGE: return "millis_out_of_range";
    case SNO_STATUS_RANDOMNESS_UNAVAILABLE: return "randomness_unavailable";
    default: return sno_status_str((int)s);
    }
}

/* --probe: one TSV line, the answer of each format's process-wide generator. */
static int probe(void) {
    sno_id id;
    sno_ulid ulid;
    sno_uuid7 uuid;
    sno_scru128 s128;
    sno_scru160 s160;
    sno_ulidflake flake;
    printf("%s\t%s\t%s\t%s\t%s\t%s\n", code_of(sno_new(0, &id)), code_of(sno_ulid_new(&ulid)),
           code_of(sno_uuid7_new(&uuid)), code_of(sno_scru128_new(&s128)),
           code_of(sno_scru160_new(&s160)), code_of(sno_ulidflake_new(&flake)));
    return 0;
}

/* --last-unit (run under faketime in the last 4 ms unit of the sno range, its clock slowed down
 * 100 000 times): a used-up pool can never be retried, so try_next reports SNO_RETRY_NEVER and
 * next returns at once instead of sleeping until a unit that does not exist. */
static int last_unit(void) {
    sno_generator_options opts = {0};
    opts.partition = SNO_PARTITION_FIXED | 1;
    opts.sequence_max = 3;
    sno_generator *g;
    if (sno_generator_new(&opts, &g) != SNO_STATUS_OK) return 40;
    sno_id id;
    for (int i = 0; i < 4; i++)
        if (sno_generator_next(g, 0, &id) != SNO_STATUS_OK) return 41;
    if (sno_id_timestamp(id) != (1ULL << 39) - 1) return 42;
    int64_t retry = 0;
    if (sno_generator_try_next(g, 0, &id, &retry) != SNO_STATUS_SEQUENCE_EXHAUSTED) return 43;
    if (retry != SNO_RETRY_NEVER) return 44;
    if (sno_generator_next(g, 0, &id) != SNO_STATUS_SEQUENCE_EXHAUSTED) return 45;
    sno_generator_free(g);
    printf("ok\n");
    return 0;
}

/* Runs `self MODE` behind `wrapper` (an environment assignment or a command such as
 * faketime); writes its line to `got` and returns pclose's status. */
static int probe_under(const char *wrapper, const char *self, const char *mode, char *got,
                       size_t cap) {
    char cmd[8192];
    /* ASan's runtime must otherwise come first in the library list; faketime and LD_PRELOAD put
     * their library before it. */
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=verify_asan_link_order=0 %s '%s' %s", wrapper, self,
             mode);
    got[0] = '\0';
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "popen %s", cmd);
    if (!p) return -1;
    if (!fgets(got, (int)cap, p)) got[0] = '\0';
    return pclose(p);
}

static void clock_rows(const char *self, const char *vectors) {
    char path[4096];
    snprintf(path, sizeof path, "%s/../clock_out_of_range.tsv", vectors);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return;
    char line[512];
    int rows = 0;
    int header = 1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (header) { header = 0; continue; }
        char *cells[8];
        int n = split_tabs(line, cells, 8);
        CHECK(n == 7, "row with %d cells", n);
        if (n != 7) continue;
        char wrapper[512], got[512];
        snprintf(wrapper, sizeof wrapper, "faketime '%s'", cells[0]);
        int status = probe_under(wrapper, self, "--probe", got, sizeof got);
        CHECK(status == 0, "%s --probe exited with %d (is Debian's faketime installed?)", wrapper,
              status);
        char want[512];
        snprintf(want, sizeof want, "%s\t%s\t%s\t%s\t%s\t%s\n", cells[1], cells[2], cells[3],
                 cells[4], cells[5], cells[6]);
        CHECK(strcmp(got, want) == 0, "at %s: got %s want %s", cells[0], got, want);
        rows++;
    }
    fclose(f);
    CHECK(rows >= 8, "%d clock rows", rows);
}

/* With libfail_random.so preloaded, the operating system's randomness source fails: the
 * random-based formats report it; sno, whose default partition then mixes in the pid and the
 * time, still works. */
static void no_randomness(const char *self) {
    char wrapper[4200], got[512];
    const char *slash = strrchr(self, '/');
    snprintf(wrapper, sizeof wrapper, "LD_PRELOAD='%.*s/libfail_random.so'", (int)(slash - self),
             self);
    CHECK(probe_under(wrapper, self, "--probe", got, sizeof got) == 0, "%s --probe failed", wrapper);
    const char *want = "ok\trandomness_unavailable\trandomness_unavailable\trandomness_unavailable\t"
                       "randomness_unavailable\trandomness_unavailable\n";
    CHECK(strcmp(got, want) == 0, "without OS randomness: got %s", got);
}

/* Runs `child` in a fork() child; returns its exit status as waitpid reports it. */
static int in_child(int (*child)(void)) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) _exit(child());
    int status = -1;
    waitpid(pid, &status, 0);
    return status;
}

static sno_generator *explicit_gen, *default_gen;
static sno_nanoflake_generator *nano_gen;
static sno_ulidflake_generator *flake_gen;
static sno_id parent_id;

/* In the child: the explicit generator refuses until repartitioned; the default one moves to a
 * fresh partition by itself. */
static int forked_generators(void) {
    sno_id id;
    int64_t retry = 0;
    if (sno_generator_next(explicit_gen, 0, &id) != SNO_STATUS_FORKED) return 10;
    if (sno_generator_try_next(explicit_gen, 0, &id, &retry) != SNO_STATUS_FORKED) return 11;
    if (sno_generator_next_many(explicit_gen, 0, &id, 1) != SNO_STATUS_FORKED) return 12;
    if (sno_generator_repartition(explicit_gen, 0x0304) != SNO_STATUS_OK) return 13;
    if (sno_generator_next(explicit_gen, 0, &id) != SNO_STATUS_OK) return 14;
    if (sno_id_partition(id) != 0x0304) return 15;
    if (sno_generator_next(default_gen, 0, &id) != SNO_STATUS_OK) return 16;
    sno_ulidflake ulidflake;
    if (sno_ulidflake_generator_next(flake_gen, &ulidflake) != SNO_STATUS_FORKED) return 22;
    if (sno_ulidflake_generator_repartition(flake_gen, 4) != SNO_STATUS_OK) return 23;
    if (sno_ulidflake_generator_next(flake_gen, &ulidflake) != SNO_STATUS_OK) return 24;
    if (sno_id_partition(id) == sno_id_partition(parent_id)) return 17;
    sno_nanoflake flake;
    if (sno_nanoflake_generator_next(nano_gen, &flake) != SNO_STATUS_FORKED) return 18;
    if (sno_nanoflake_generator_repartition(nano_gen, 1024) != SNO_STATUS_VALUE_OVERFLOW) return 19;
    if (sno_nanoflake_generator_repartition(nano_gen, 8) != SNO_STATUS_OK) return 20;
    if (sno_nanoflake_generator_next(nano_gen, &flake) != SNO_STATUS_OK) return 21;
    return 0;
}

/* The first generator of this process, with an explicit partition (so nothing else of the
 * library has run yet that would register its fork handler): it still refuses in a child. */
static int only_an_explicit_generator(void) {
    sno_id id;
    return sno_generator_next(explicit_gen, 0, &id) == SNO_STATUS_FORKED ? 0 : 30;
}

static void fork_rules(void) {
    sno_generator_options explicit_opts = {0};
    explicit_opts.partition = SNO_PARTITION_FIXED | 0x0102;
    CHECK_STATUS(sno_generator_new(&explicit_opts, &explicit_gen), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(explicit_gen, 0, &parent_id), SNO_STATUS_OK);
    int first = in_child(only_an_explicit_generator);
    CHECK(WIFEXITED(first) && WEXITSTATUS(first) == 0, "first fork child status %d", first);
    CHECK_STATUS(sno_generator_new(NULL, &default_gen), SNO_STATUS_OK);
    CHECK_STATUS(sno_generator_next(default_gen, 0, &parent_id), SNO_STATUS_OK);
    CHECK_STATUS(sno_nanoflake_generator_new(1700000000000LL, 7, &nano_gen), SNO_STATUS_OK);
    sno_ulidflake_options flake_opts = sno_ulidflake_options_default();
    flake_opts.sid = 3;
    CHECK_STATUS(sno_ulidflake_generator_new(&flake_opts, &flake_gen), SNO_STATUS_OK);
    sno_nanoflake flake;
    CHECK_STATUS(sno_nanoflake_generator_next(nano_gen, &flake), SNO_STATUS_OK);
    int status = in_child(forked_generators);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "fork child status %d", status);
    sno_id id;
    CHECK_STATUS(sno_generator_next(explicit_gen, 0, &id), SNO_STATUS_OK);
    CHECK(sno_id_partition(id) == 0x0102, "parent partition %u", sno_id_partition(id));
    sno_generator_free(explicit_gen);
    sno_generator_free(default_gen);
    CHECK_STATUS(sno_nanoflake_generator_next(nano_gen, &flake), SNO_STATUS_OK);
    sno_nanoflake_generator_free(nano_gen);
    sno_ulidflake flake_id;
    CHECK_STATUS(sno_ulidflake_generator_next(flake_gen, &flake_id), SNO_STATUS_OK);
    sno_ulidflake_generator_free(flake_gen);
}

#if !defined(__SANITIZE_ADDRESS__)
/* SNO_MAX_BATCH IDs written straight into the caller's buffer: with the address space limited
 * to the buffer plus 64 MiB, an internal copy of the output (1.6x the buffer) cannot fit. */
static int max_batch_under_rlimit(void) {
    size_t bytes = SNO_MAX_BATCH * sizeof(sno_id);
    sno_id *out = malloc(bytes);
    if (!out) return 20;
    memset(out, 0, bytes);
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (!f || fscanf(f, "%lu", &pages) != 1) return 21;
    fclose(f);
    struct rlimit lim;
    lim.rlim_cur = lim.rlim_max = pages * (unsigned long)sysconf(_SC_PAGESIZE) + (64ul << 20);
    if (setrlimit(RLIMIT_AS, &lim) != 0) return 22;
    sno_generator *g;
    if (sno_generator_new(NULL, &g) != SNO_STATUS_OK) return 23;
    if (sno_generator_next_many(g, 0, out, SNO_MAX_BATCH) != SNO_STATUS_OK) return 24;
    for (size_t i = 1; i < SNO_MAX_BATCH; i++)
        if (sno_id_compare(out[i - 1], out[i]) >= 0) return 25;
    if (sno_generator_next_many(g, 0, out, SNO_MAX_BATCH + 1) != SNO_STATUS_BATCH_TOO_LARGE) return 26;
    sno_generator_free(g);
    free(out);
    return 0;
}
#endif

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--probe") == 0) return probe();
    if (argc > 1 && strcmp(argv[1], "--last-unit") == 0) return last_unit();
    const char *vectors = argc > 1 ? argv[1] : "testdata/vectors";
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(len > 0, "readlink /proc/self/exe");
    self[len > 0 ? len : 0] = '\0';
    clock_rows(self, vectors);
    no_randomness(self);
    char got[64];
    int last = probe_under("faketime -f '@2079-09-07 15:47:35.550 x0.00001'", self, "--last-unit",
                             got, sizeof got);
    CHECK(last == 0 && strcmp(got, "ok\n") == 0, "--last-unit: status %d, %s", last, got);
    fork_rules();
#if defined(__SANITIZE_ADDRESS__)
    printf("test_hardening: the RLIMIT_AS batch check runs in the plain build (ASan reserves terabytes)\n");
#else
    int status = in_child(max_batch_under_rlimit);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "max batch child status %d (signal %d)",
          status, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
#endif
    return finish("test_hardening");
}
