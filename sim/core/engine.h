/* Engines: what runs a simulation split in nodes.
 *
 * Built normally, a simulation is one kernel (kernel.h) holding every
 * component. Split, each node's components are on a kernel of their own, and
 * the only thing that crosses between nodes is a packet on a link: the
 * sending node's half of a wire serialises it and hands it, stamped with its
 * arrival time, to the engine (`send`); the engine hands it to the far end
 * (`deliver`), which puts it out at that time. An engine runs the node
 * kernels side by side in time order:
 *
 *   ENGINE_NODES (engine.c)   a plain loop, in this process;
 *   the SystemC engine        each node an sc_module (ub_endpoint) with a
 *                             thread that runs its kernel in SystemC time,
 *                             the link an sc_module carrying each packet as
 *                             a TLM-2.0 transaction (sim/systemc/).
 *
 * A packet arrives at least one tick after it is sent (its serialisation
 * takes time), so a node may run its kernel up to one tick past the far
 * node's next instant without ever missing a packet: the engines keep that
 * bound in each kernel's ext_horizon. The figures are the single kernel's,
 * to the tick (a test compares them). */
#ifndef UB_ENGINE_H
#define UB_ENGINE_H

#include "kernel.h"
#include "msg.h"

#include <stdint.h>

#define ENGINE_MAX_NODES 2

/* One run: the kernels of the nodes (the first one's stop or failure ends
 * the run), and where a packet handed to `send` must go. */
typedef struct {
    kernel_t *k[ENGINE_MAX_NODES];
    int n;
    /* hands a packet sent on link `link` to its far end (path_net_arrive) */
    int (*deliver)(void *net, int link, const msg_t *m);
    void *net;
    /* the node each link's far end is on */
    const int *far_node;
    /* the bytes of node i's memory (mem_size[i] of them) may be put in a
     * memory model of the engine's (NULL: they stay where they are):
     * returns 0, or -1 when `bytes` is too small */
    int (*use_memory)(void *owner, int node, uint8_t *bytes, uint64_t size);
    void *owner;
    uint64_t mem_size[ENGINE_MAX_NODES];
} engine_run_t;

typedef struct sim_engine {
    const char *name;
    void *ctx;
    /* a packet leaves on link `link` (m->t: when it arrives at the far end) */
    void (*send)(void *ctx, int link, const msg_t *m);
    /* runs until every kernel is done, one stops or one fails; 0, or -1 with
     * the failing kernel's message copied into r->k[0]->err */
    int (*run)(void *ctx, const engine_run_t *r);
} sim_engine_t;

/* The plain engine: node kernels run in one loop (for tests, and as the
 * reference the SystemC engine is held to). */
const sim_engine_t *engine_nodes(void);

/* For engines: the bound a kernel may run its own edges up to (ext_horizon)
 * given the others, and the end of a run (a stop or a failure on any
 * kernel, copied to the first). */
void engine_bound(const engine_run_t *r, int node);
int engine_done(const engine_run_t *r);
int engine_result(const engine_run_t *r);

#endif
