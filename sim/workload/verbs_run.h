/* Runs a workload written against the verbs (sim/verbs/urma.h) on a path:
 * the initiator (node 0 of the two, or the path's --from node on a
 * topology) posts, the target answers. The workload's own checks decide
 * whether it passed; this reports what the hosts, the receive checks, the
 * faulty wires and the switches counted. docs/verbs.md shows an example. */
#ifndef UB_VERBS_RUN_H
#define UB_VERBS_RUN_H

#include <stdint.h>

#include "block.h"
#include "config.h"
#include "fault.h"
#include "latency.h"
#include "urma_host.h"

typedef struct {
    backend_kind_t backend;    /* the send pipelines: C (default), RTL or lockstep */
    const fault_spec_t *fault; /* faults on the wires, or NULL */
    int64_t timeout_ps;        /* with faults or a switch: a request's deadline
                                  (0: 1 ms) */
    int64_t max_outstanding;   /* requests in flight at once (0: 1024) */
    uint64_t mem_bytes[2];     /* the initiator's and the target's memory
                                  (0: 16 MiB each) */
    int in_time_order;         /* 1: no part runs ahead (same results) */
    struct order_check *checker; /* an ordering checker (order_check.h) watching, or NULL */
    const block_class_t *tx_class; /* replaces the send pipelines' class, or NULL */
    const tp_cfg_t *transport; /* the NICs' transport (docs/transport.md:
                                  tp_cfg_default), or NULL: none */
} verbs_run_opts_t;

typedef struct {
    double end_ns;             /* simulated time at the end */
    urma_host_stats_t host;    /* requests posted, completed, failed... */
    lat_faults_t fx;           /* receive checks by reason, wire faults */
    int n_switches;
    lat_switch_t sw[LAT_MAX_SWITCHES];
    uint64_t lockstep_mismatches;
    int tp_on;                 /* the transport ran; what it did: */
    path_tp_counts_t tp;
} verbs_run_result_t;

/* Returns 0 when the simulation ran to its end (the workload stopped it, or
 * nothing was left to do), or -1 with a message (a bad path or option, a
 * lockstep mismatch, urma_fail). */
int verbs_run(const path_cfg_t *path, const verbs_run_opts_t *o, const urma_workload_t *wl,
              verbs_run_result_t *r, char *err, int errlen);

#endif
