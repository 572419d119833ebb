#include "jobs.h"

#include <pthread.h>
#include <unistd.h>

#define JOBS_MAX_THREADS 64

static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;

void jobs_lock(void) { pthread_mutex_lock(&shared); }
void jobs_unlock(void) { pthread_mutex_unlock(&shared); }

int jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > JOBS_MAX_THREADS ? JOBS_MAX_THREADS : (int)n;
}

typedef struct {
    void (*fn)(void *ctx, int i);
    void *ctx;
    int n;
    int next; /* the next item to run (under `lock`) */
    pthread_mutex_t lock;
} pool_t;

static void *worker(void *arg)
{
    pool_t *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int i = p->next < p->n ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (i < 0)
            return NULL;
        p->fn(p->ctx, i);
    }
}

void jobs_run(int threads, int n, void (*fn)(void *ctx, int i), void *ctx)
{
    if (threads > n)
        threads = n;
    if (threads > JOBS_MAX_THREADS)
        threads = JOBS_MAX_THREADS;
    pool_t p = {fn, ctx, n, 0, PTHREAD_MUTEX_INITIALIZER};
    pthread_t t[JOBS_MAX_THREADS];
    int started = 0;
    /* the caller's thread is one of the workers; a thread that cannot be
     * started leaves its share to the others */
    for (int k = 1; k < threads; k++)
        if (pthread_create(&t[started], NULL, worker, &p) == 0)
            started++;
    worker(&p);
    for (int k = 0; k < started; k++)
        pthread_join(t[k], NULL);
}
