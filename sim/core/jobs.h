/* Independent runs side by side.
 *
 * A command that makes several simulations of its own (ubsim rate: a stack
 * and burst each; ubsim latency: a path each) runs them on worker threads,
 * one simulation per thread at a time. Each simulation owns everything it
 * touches (its kernel, blocks, hosts, result), so the figures are those of
 * running them one after the other, and they are reported in the same order.
 *
 *   jobs_run(threads, n, fn, ctx) calls fn(ctx, i) for i in [0, n), on
 *   min(threads, n) threads (1: in order, on the caller's thread), and
 *   returns when all are done. fn returns 0, or nonzero when item i
 *   failed: an item after the first that failed is then not started (one
 *   after the other it would not have been), so what the items up to that
 *   one did is what running them in order does. Returns the first item (in
 *   order) that failed, or -1. fn may call jobs_lock() / jobs_unlock()
 *   around what it shares (progress output on stderr).
 *
 *   jobs_run_within(threads, n, bytes, budget, fn, ctx) is the same for
 *   items that need memory in proportion to their size (bytes[i], an
 *   estimate): items start in order, and one starts beside others only
 *   while the memory of those running and its own stays within `budget`
 *   (an item that does not fit runs alone), so that running side by side
 *   costs no more memory than the largest item alone when items are large.
 */
#ifndef UB_JOBS_H
#define UB_JOBS_H

#include <stdint.h>

/* The processors this process may run on (its affinity; else those
 * online): the default number of threads. */
int jobs_default(void);

typedef int (*jobs_fn)(void *ctx, int i);
int jobs_run(int threads, int n, jobs_fn fn, void *ctx);
int jobs_run_within(int threads, int n, const uint64_t *bytes, uint64_t budget, jobs_fn fn,
                    void *ctx);

void jobs_lock(void);
void jobs_unlock(void);

#endif
