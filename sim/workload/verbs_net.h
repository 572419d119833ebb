/* A read path with the verbs' hosts at its ends: the kernel, the path's
 * netlist (sim/net/path_net.h) and the hosts (sim/verbs/urma_host.h) that a
 * workload drives, built the same way for every scenario.
 *
 * Build in two steps: verbs_net_time sets up the kernel's time base (the NIC
 * clock and every switch's on the path), so the caller can turn its delays
 * into ticks; verbs_net_build then makes the hosts and the netlist and joins
 * them. With faults, or a switch on the path (it drops what its buffer cannot
 * hold), requests may be lost: each then gets an id of its own and a
 * deadline. */
#ifndef UB_VERBS_NET_H
#define UB_VERBS_NET_H

#include "config.h"
#include "engine.h"
#include "kernel.h"
#include "latency.h"
#include "path_net.h"
#include "urma_host.h"

typedef struct {
    kernel_t k;
    kernel_t kf;               /* split: the target node's kernel */
    const sim_engine_t *engine; /* split between nodes and run by it, or NULL */
    int far_node[CFG_MAX_STAGES];
    path_net_t net;
    urma_host_t *host;
    chan_t cmp;                /* completions to the order tracker */
    int lossy;
    int built;
} verbs_net_t;

typedef struct {
    int64_t max_outstanding;   /* requests in flight at most */
    int64_t timeout_ps;        /* with losses: a request's deadline (0: LAT_TIMEOUT_PS) */
    uint64_t mem_bytes[2];     /* the initiator's and the target's memory */
    int post_point, done_point;
    struct order_check *checker; /* watches ordering, or NULL */
    /* run split in two nodes by this engine (engine.h), or NULL: one kernel */
    const sim_engine_t *engine;
    /* the netlist: the caller sets its probe points, backend, waveform and
     * block options; max_inside, fault, lossy and the target's hooks are set
     * here */
    path_net_opts_t net;
} verbs_net_opts_t;

/* kernel_init and the time base; 0, or -1 with a message. */
int verbs_net_time(verbs_net_t *v, const path_cfg_t *path, char *err, int errlen);
/* Whether requests on this path may be lost (faults given, or a switch). */
int verbs_net_lossy(const path_cfg_t *path, const fault_spec_t *fault);
/* The hosts (running wl) and the netlist; 0, or -1 with a message. */
int verbs_net_build(verbs_net_t *v, const path_cfg_t *path, verbs_net_opts_t *o,
                    const urma_workload_t *wl, char *err, int errlen);
/* Runs the simulation (on the engine, if one was given); 0, or -1 with
 * the message in v->k.err. */
int verbs_net_run(verbs_net_t *v);
/* Split: what an engine needs to run it (the node kernels, the links). */
engine_run_t verbs_net_engine_run(verbs_net_t *v);
/* Component-edges and instants run, on every node. */
uint64_t verbs_net_instants(const verbs_net_t *v);
/* What the receive checks, the faulty wires and the switches counted. */
void verbs_net_counts(const verbs_net_t *v, lat_faults_t *fx, lat_switch_t *sw, int *n_sw);
void verbs_net_free(verbs_net_t *v);

#endif
