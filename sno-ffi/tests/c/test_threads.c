/* Many threads share one generator: no duplicate, each thread strictly increasing. */
#include <pthread.h>

#include "common.h"

#define THREADS 8
#define PER_THREAD 50000

static sno_generator *shared;
static sno_id results[THREADS][PER_THREAD];
static int thread_errors[THREADS];

static void *worker(void *arg) {
    int t = (int)(size_t)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        if (sno_generator_next(shared, (uint8_t)t, &results[t][i]) != SNO_STATUS_OK) thread_errors[t]++;
        if (i > 0 && sno_id_compare(results[t][i - 1], results[t][i]) >= 0) thread_errors[t]++;
    }
    return NULL;
}

static int cmp_id(const void *a, const void *b) { return memcmp(a, b, SNO_BINARY_LEN); }

int main(void) {
    CHECK_STATUS(sno_generator_new(NULL, &shared), SNO_STATUS_OK);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(size_t)t);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) CHECK(thread_errors[t] == 0, "thread %d: %d errors", t, thread_errors[t]);
    sno_id *all = malloc(sizeof results);
    memcpy(all, results, sizeof results);
    qsort(all, THREADS * PER_THREAD, sizeof(sno_id), cmp_id);
    int dups = 0;
    for (int i = 1; i < THREADS * PER_THREAD; i++) dups += memcmp(&all[i - 1], &all[i], SNO_BINARY_LEN) == 0;
    CHECK(dups == 0, "%d duplicates", dups);
    free(all);
    sno_generator_free(shared);
    return finish("test_threads");
}
