#include "engine.h"

#include <stdio.h>
#include <string.h>

void engine_bound(const engine_run_t *r, int node)
{
    tick_t h = TICK_NEVER;
    for (int i = 0; i < r->n; i++) {
        if (i == node)
            continue;
        tick_t t = kernel_next_time(r->k[i]);
        if (t != TICK_NEVER && t + 1 < h)
            h = t + 1; /* what it sends then arrives here later than that */
    }
    r->k[node]->ext_horizon = h;
}

int engine_done(const engine_run_t *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->k[i]->stop || r->k[i]->failed)
            return 1;
    return 0;
}

int engine_result(const engine_run_t *r)
{
    for (int i = 0; i < r->n; i++) {
        if (!r->k[i]->failed)
            continue;
        if (i > 0) {
            r->k[0]->failed = 1;
            snprintf(r->k[0]->err, sizeof r->k[0]->err, "%s", r->k[i]->err);
        }
        return -1;
    }
    return 0;
}

/* ---- the plain engine ---- */

/* the run of this thread (simulations may run side by side: jobs.h) */
static _Thread_local const engine_run_t *t_run;

static void nodes_send(void *ctx, int link, const msg_t *m)
{
    (void)ctx;
    const engine_run_t *r = t_run;
    if (r->deliver(r->net, link, m))
        kernel_fail(r->k[r->far_node[link]], "out of memory for a packet on a link");
    /* the sender may not run its own edges past the far end's new instant */
    for (int i = 0; i < r->n; i++)
        engine_bound(r, i);
}

static int nodes_run(void *ctx, const engine_run_t *r)
{
    (void)ctx;
    t_run = r;
    for (;;) {
        if (engine_done(r))
            break;
        tick_t t = TICK_NEVER;
        for (int i = 0; i < r->n; i++) {
            tick_t ti = kernel_next_time(r->k[i]);
            if (ti < t)
                t = ti;
        }
        if (t == TICK_NEVER)
            break;
        /* every node due at t runs its instant (in node order; what one
         * sends reaches another a tick later at the earliest) */
        for (int i = 0; i < r->n && !engine_done(r); i++) {
            if (kernel_next_time(r->k[i]) != t)
                continue;
            engine_bound(r, i);
            kernel_run_until(r->k[i], t);
        }
    }
    t_run = NULL;
    return engine_result(r);
}

static const sim_engine_t nodes_engine = {
    .name = "nodes",
    .ctx = NULL,
    .send = nodes_send,
    .run = nodes_run,
};

const sim_engine_t *engine_nodes(void) { return &nodes_engine; }
