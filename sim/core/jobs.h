/* Independent runs side by side.
 *
 * A command that makes several simulations of its own (ubsim rate: a stack
 * and burst each; ubsim latency: a path each) runs them on worker threads,
 * one simulation per thread at a time. Each simulation owns everything it
 * touches (its kernel, blocks, hosts, result), so the figures are those of
 * running them one after the other, and they are reported in the same order.
 *
 *   jobs_run(threads, n, fn, ctx) calls fn(ctx, i) once for every i in
 *   [0, n), on min(threads, n) threads (1: in order, on the caller's
 *   thread), and returns when all are done. fn may call jobs_lock() /
 *   jobs_unlock() around what it shares (progress output on stderr).
 */
#ifndef UB_JOBS_H
#define UB_JOBS_H

/* The processors online: the default number of threads. */
int jobs_default(void);

void jobs_run(int threads, int n, void (*fn)(void *ctx, int i), void *ctx);

void jobs_lock(void);
void jobs_unlock(void);

#endif
