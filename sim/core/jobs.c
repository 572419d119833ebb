#define _GNU_SOURCE /* sched_getaffinity */
#include "jobs.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#define JOBS_MAX_THREADS 64

static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;

void jobs_lock(void) { pthread_mutex_lock(&shared); }
void jobs_unlock(void) { pthread_mutex_unlock(&shared); }

int jobs_default(void)
{
    /* the processors this process may run on (taskset, a container's
     * cpuset), else those online */
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                         : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > JOBS_MAX_THREADS ? JOBS_MAX_THREADS : (int)n;
}

typedef struct {
    jobs_fn fn;
    void *ctx;
    int n;
    const uint64_t *bytes; /* each item's memory, or NULL */
    uint64_t budget;
    /* under `lock`: the next item to start, the first that failed (-1:
     * none), the items running and their memory */
    int next, failed, running;
    uint64_t in_use;
    pthread_mutex_t lock;
    pthread_cond_t done;
} pool_t;

static void *worker(void *arg)
{
    pool_t *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        if (p->next >= p->n || (p->failed >= 0 && p->next > p->failed))
            break; /* (the items left come after one that failed) */
        uint64_t b = p->bytes ? p->bytes[p->next] : 0;
        /* the items start in order; one that does not fit beside those
         * running waits for them (alone, it always starts) */
        if (p->running > 0 && p->in_use + b > p->budget) {
            pthread_cond_wait(&p->done, &p->lock);
            continue;
        }
        int i = p->next++;
        p->running++;
        p->in_use += b;
        pthread_mutex_unlock(&p->lock);
        int rc = p->fn(p->ctx, i);
        pthread_mutex_lock(&p->lock);
        if (rc && (p->failed < 0 || i < p->failed))
            p->failed = i;
        p->running--;
        p->in_use -= b;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int jobs_run_within(int threads, int n, const uint64_t *bytes, uint64_t budget, jobs_fn fn,
                    void *ctx)
{
    if (threads > n)
        threads = n;
    if (threads > JOBS_MAX_THREADS)
        threads = JOBS_MAX_THREADS;
    pool_t p = {.fn = fn, .ctx = ctx, .n = n, .bytes = bytes, .budget = budget, .failed = -1};
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.done, NULL);
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
    pthread_cond_destroy(&p.done);
    pthread_mutex_destroy(&p.lock);
    return p.failed;
}

int jobs_run(int threads, int n, jobs_fn fn, void *ctx)
{
    return jobs_run_within(threads, n, NULL, 0, fn, ctx);
}
