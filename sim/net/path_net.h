/* The netlist of a read path: one component per configured stage, joined in
 * order by channels, between a host's output (requests) and its input
 * (completions).
 *
 *   host --ch[0]--> stage 0 --ch[1]--> stage 1 ... stage n-1 --ch[n]--> host
 *
 * A delay stage becomes a delay component, a wire stage a wire (one per
 * direction of the link), a NIC stage a nic_port at the path's NIC clock (a
 * transmit pipeline ends in the path's send-pipeline block, if it has one).
 * Every stage emits two probe points: `align_point[i]` (the clock alignment
 * of a NIC stage, the serialisation of a wire stage; unused by a delay) and
 * `end_point[i]` when the request leaves it. */
#ifndef UB_PATH_NET_H
#define UB_PATH_NET_H

#include "block.h"
#include "config.h"
#include "kernel.h"
#include "fault.h"
#include "parts.h"
#include "switch.h"
#include "topo.h"
#include "wave.h"

typedef struct {
    int64_t max_inside;        /* requests in flight at most */
    int in_time_order;         /* every probe at its own time (waveforms):
                                  delays and wires do not run ahead */
    int64_t payload;           /* bytes per request (< 0: as configured) */
    int jetties;
    uint64_t seed;
    backend_kind_t backend;
    const block_class_t *tx_class; /* replaces the built-in block class */
    const char *rtl_wave;      /* RTL self-trace of the initiator's block */
    const char *c_wave;        /* its C model's own trace (block_opts_t) */
    const char *block_scope;   /* wave scope of the initiator's block ports */
    const fault_spec_t *fault; /* faults on the wires, or NULL */
    int lossy;                 /* requests may be lost (faults, switches):
                                  channels hold whatever is in flight */
    void (*target_emit)(void *ctx, msg_t *m, tick_t t); /* on every packet leaving the
                                  target's transmit pipeline, or NULL */
    void *target_emit_ctx;
    const node_mem_t *target_mem; /* the target's receive checks check the
                                  memory a request names against it, or NULL */
    uint32_t (*req_jetty)(void *ctx, const msg_t *m); /* the Jetty of a
                                  request, for the initiator's transmit block
                                  (NULL: the message's); called with
                                  target_emit_ctx */
    void (*target_fields)(void *ctx, const msg_t *m, pkt_hdr_t *h); /* what a
                                  request's header carries beyond msg_t (its
                                  remote address, token), or NULL */
    /* several netlists in one simulation (incast): */
    const clockdom_t *nic_clk; /* the NIC clock they share, or NULL: its own */
    const clockdom_t *first_clk; /* ch[0] is fed by a clocked part outside
                                  (a switch's output register), or NULL */
    uint32_t rx_sources;       /* the target's receive checks keep this many
                                  senders apart (0: 1) */
    /* split in two nodes (two kernels run side by side by an engine, see
     * sim/core/engine.h): the target's parts go on far_k, the initiator's on
     * the kernel given to path_net_build; a packet leaving on wire stage i
     * goes to link_send (m->t: its arrival), which hands it to the far end
     * with path_net_arrive. NULL: one kernel. Not on a topology. */
    kernel_t *far_k;
    void (*link_send)(void *ctx, int stage, const msg_t *m);
    void *link_ctx;
    int align_point[CFG_MAX_STAGES], end_point[CFG_MAX_STAGES];
    int queue_point[CFG_MAX_STAGES]; /* a switch stage: when the packet leaves
                                  (its end_point is when it may leave) */
    /* the NICs' transport (tp_port in parts.h), or NULL: none. Each run of
     * wires (with the switches between them, on a topology) then runs
     * between the sending node's transport and the receiving node's, which
     * acknowledges on its own wires back. The probes: tp_tx_point of a
     * run's first wire (the packet handed to it), tp_rx_point of its last
     * (delivered to the NIC in order). A send-pipeline block, every run
     * from one node's NIC pipeline to the other's. */
    const tp_cfg_t *transport;
    int tp_tx_point[CFG_MAX_STAGES], tp_rx_point[CFG_MAX_STAGES];
    /* lockstep: where the blocks report a mismatch (NULL: stderr), and a
     * tag in the names of their mismatch waveforms (NULL: none) */
    FILE *report;
    const char *sim_tag;
} path_net_opts_t;

/* A run of wires' channels to and from the transports' NIC sides. */
typedef struct tp_lane {
    chan_t to_tp;              /* the sending NIC's output -> its transport */
    chan_t from_tp;            /* the receiving transport -> its NIC */
} tp_lane_t;

typedef struct path_net {
    const path_cfg_t *path;
    clockdom_t nic_clk;
    int n;                     /* stages */
    chan_t ch[CFG_MAX_STAGES + 1];
    delay_comp_t delay[CFG_MAX_STAGES];
    wire_comp_t wire[CFG_MAX_STAGES];
    nic_port_t port[CFG_MAX_STAGES];
    chain_comp_t chain[CFG_MAX_STAGES];
    int n_chains;
    int target_emits;          /* a target transmit pipeline calls target_emit */
    rx_checker_t rx[CFG_MAX_STAGES]; /* the receive checks of each receive NIC */
    int has_rx[CFG_MAX_STAGES];
    int kind[CFG_MAX_STAGES];  /* stage_kind_t of each built stage */
    /* the switches of a path on a topology, by topology index (NULL: not on
     * the path), each at its own clock */
    switch_comp_t *sw[TOPO_MAX_SWITCHES];
    clockdom_t sw_clk[TOPO_MAX_SWITCHES];
    /* split in two nodes: the node of each stage (NODE_INITIATOR,
     * NODE_TARGET; a wire's is its sender's), the far ends of the wires */
    int split;
    int node_of[CFG_MAX_STAGES];
    wire_rx_comp_t far[CFG_MAX_STAGES];
    struct path_link {
        struct path_net *net;
        int stage;
    } link[CFG_MAX_STAGES];
    void (*link_send)(void *ctx, int stage, const msg_t *m);
    void *link_ctx;
    /* the transport (opts.transport): each node's, and the lanes of each
     * run of wires, by its first wire (lane) and by the NIC it delivers to
     * (lane_in) */
    tp_port_t *tp[2];
    /* the bytes of the transports' acknowledgements, when the kernels had no
     * pool for message bytes (and the kernels given it) */
    payload_pool_t *ack_pool;
    kernel_t *ack_pool_k[2];
    tp_lane_t *lane[CFG_MAX_STAGES];
    tp_lane_t *lane_in[CFG_MAX_STAGES];
} path_net_t;

/* Builds the netlist on kernel k (whose time base is set). The caller
 * connects ch[0].src and ch[n].dst to its host. Returns 0, or -1 with a
 * message. */
int path_net_build(path_net_t *net, kernel_t *k, const path_cfg_t *path, const path_net_opts_t *o,
                   char *err, int errlen);
/* Faults f against the links path p crosses (its topology's, or the one
 * link of two nodes): fault_check_links. 0, or -1 with a message. */
int path_net_fault_check(const fault_spec_t *f, const path_cfg_t *p, char *err, int errlen);
/* Split: a packet sent on wire stage `stage` (m->t its arrival) reaches the
 * far end. Returns 0, or -1 out of memory. */
int path_net_arrive(path_net_t *net, int stage, const msg_t *m);
/* Declares the waveform signals of every NIC port. */
void path_net_wave(path_net_t *net, wave_t *w, uint64_t offset_ps, const char *block_scope);
/* The fault counts of the wires in direction dir (FAULT_FWD, FAULT_BACK),
 * added to *counts (its lost, dropped, duplicated, reordered and corrupted
 * fields; sent too); 0 when the path has no wire that way. */
int path_net_fault_counts(const path_net_t *net, int dir, fault_link_t *counts);
/* Corrupted or duplicate packets the NIC pipelines refused without a
 * checker. */
uint64_t path_net_flag_drops(const path_net_t *net);
/* The receive-check counts of node `node` (NODE_INITIATOR, NODE_TARGET),
 * added to counts[RX_N_REASONS]; 0 when it checks nothing. */
int path_net_rx_counts(const path_net_t *net, int node, uint64_t *counts);
/* What switch `sw` (a topology index) did; 0 when the path does not cross
 * it. */
int path_net_switch_counts(const path_net_t *net, int sw, uint64_t *received, uint64_t *forwarded,
                           uint64_t *dropped, uint64_t *unroutable, int64_t *peak_queue_bytes);
/* The initiator's transmit port if it ends in the UB send pipeline (whose
 * order tracker wants completions), else NULL. */
nic_port_t *path_net_tracker_port(path_net_t *net);
/* What the context caches did (summed over the nodes): lookups answered
 * as hits and as misses, merged misses, evictions, and the edges ports held
 * a request for its contexts. 0 when the path has none. */
int path_net_ctx_counts(path_net_t *net, uint64_t *hits, uint64_t *misses, uint64_t *merged,
                        uint64_t *evictions, uint64_t *stalls);
/* What the transports did (both nodes summed); 0 when the path has none. */
typedef struct {
    uint64_t sent, resent, resent_bytes, delivered, acks_sent, acks_taken, acks_malformed;
    uint64_t duplicates, beyond, full, gaps, corrupt, acks_corrupt, timeouts;
    uint64_t dropped_failed;  /* taken from a NIC after its channel failed */
    int64_t held_peak;
    int failed;               /* a node's channel reached the retry limit */
} path_tp_counts_t;
int path_net_tp_counts(const path_net_t *net, path_tp_counts_t *c);
/* Lockstep mismatches of the blocks. */
uint64_t path_net_mismatches(const path_net_t *net);
void path_net_free(path_net_t *net);

#endif
