/* The parts a read path is built from, each a component (sim/core/kernel.h)
 * joined to the next by channels:
 *
 *   delay     a fixed delay outside the NIC (verbs library, PCIe, on-chip
 *             bus, DRAM): event-timed; its input channel has the configured
 *             latency, and it hands each request on the moment it is due.
 *   wire      one direction of a link: serialises a packet at the link rate
 *             (waiting while the link is busy) and delivers it after the
 *             propagation delay.
 *   nic_port  a NIC pipeline at the NIC clock: the configured stage
 *             pipeline, optionally followed by a modelled block (a send
 *             pipeline, run as C, RTL or both in lockstep), with valid/ready
 *             at both ends. Its output register is offered to the next part
 *             through a channel of depth 1.
 *   chain     a run of the parts above that never hold a request back,
 *             running ahead as one component (see below).
 *   tp_port   a node's transport (the transport block, C, RTL or lockstep)
 *             between its NIC pipelines and the wires: it numbers the
 *             packets it sends, keeps them until they are acknowledged and
 *             resends what is lost; it delivers what it receives in order,
 *             once, and acknowledges it on its own link back.
 *
 * Each part emits probe records at its boundaries; the point numbers are
 * given by whoever builds the netlist (sim/net/path_net.c). */
#ifndef UB_PARTS_H
#define UB_PARTS_H

#include <stdint.h>

#include "block.h"
#include "config.h"
#include "context_cache.h"
#include "fault.h"
#include "kernel.h"
#include "nic_pipe.h"
#include "packet.h"
#include "rc_send_pipeline.h"
#include "rx_check.h"
#include "transport.h"
#include "ub_tx.h"
#include "wave.h"

/* ---- delay ---- */
typedef struct {
    comp_t c;
    chan_t *in, *out;
    chan_t line;        /* requests in the delay, visible when due */
    tick_t delay;
    int point;          /* probe when a request is due */
} delay_comp_t;

int delay_init(delay_comp_t *d, const char *name, chan_t *in, chan_t *out, tick_t delay, int point,
               int64_t max_inside);
/* The producer is event-timed: the input channel itself is the delay line
 * (its latency is the delay), so a request is seen once, when it is due. */
void delay_in_channel(delay_comp_t *d);
/* As a link of a chain: a request reaching the delay at t is due at the
 * returned time (its probe recorded). */
tick_t delay_pass(delay_comp_t *d, const msg_t *m, tick_t t);
void delay_free(delay_comp_t *d);

/* ---- wire ---- */
typedef struct {
    comp_t c;
    chan_t *in, *out;
    chan_t flight;       /* packets on the wire, visible at their arrival */
    const clockdom_t *in_clk; /* the producer's clock: it hands over only at
                                 its edges, and only while the link is free */
    tick_t ser, prop;    /* serialisation and propagation, ticks */
    tick_t link_free;
    uint32_t bytes;      /* the size of every packet it carries, given to
                            each (a switch's buffer counts it); 0: unknown */
    /* with wire_sizes: each packet's size from what it carries (its header,
     * plus its data: a write's or a send's request, a read's response), and
     * its serialisation from its size */
    int sized, fwd, read_data;
    uint32_t hdr_bytes;
    double gbytes_per_s, per_ps;
    uint32_t memo_bytes;
    tick_t memo_ser;
    tick_t cut_hdr;      /* into a cut-through switch: the header's
                            serialisation (a packet is handed on once it is
                            in); -1 otherwise */
    int ser_point, arrive_point;
    int rx_arrival;          /* its receiver (a NIC, or a transport) records when
                            the packet it accepts arrived: the wire records no
                            arrivals */
    /* faults (NULL: a perfect link), this direction's decisions */
    const fault_spec_t *fault;
    fault_link_t fl;
    tick_t reorder;      /* the hold-back of a reordered packet, ticks */
    tick_t copy_at;      /* a duplicate of the packet just passed arrives
                            then (-1: none) */
    /* split (wire_split): each packet, stamped with its arrival, is handed
     * to xfer instead of its flight */
    void (*xfer)(void *ctx, const msg_t *m);
    void *xfer_ctx;
} wire_comp_t;

/* The far end of a wire split between two kernels (one per node): the
 * packets handed over by the sending half's xfer arrive here (wire_arrive)
 * and go on to the wire's output at their arrival times, with the arrival
 * probe, exactly as the whole wire does it. Event-timed. */
typedef struct {
    comp_t c;
    chan_t flight;
    chan_t *out;
    int arrive_point;
    int rx_arrival;          /* as the whole wire's */
} wire_rx_comp_t;

int wire_init(wire_comp_t *w, const char *name, chan_t *in, chan_t *out, const clockdom_t *in_clk,
              tick_t ser, tick_t prop, int ser_point, int arrive_point, int64_t max_flight);
/* As a link of a chain: a packet handed over at t (from a clocked producer,
 * its offer made at t) is taken at wire_take(t) and arrives at the time
 * wire_pass returns (its probes recorded, the link's state updated). */
tick_t wire_take(const wire_comp_t *w, tick_t t);
tick_t wire_pass(wire_comp_t *w, msg_t *m, tick_t t);
/* Puts faults on the wire, link `link` of topology t (t NULL, link 0: the
 * one link of two nodes) in direction dir (FAULT_FWD, FAULT_BACK): a lost
 * packet is serialised and never arrives; a duplicate follows its original
 * one serialisation later; a reordered one arrives `reorder` ticks late
 * (the wire's output must then be a sorted channel); a corrupted one
 * carries MSG_CORRUPT, which the receiver's checksum refuses. */
void wire_faults(wire_comp_t *w, const fault_spec_t *spec, const struct topo *t, int link, int dir,
                 tick_t reorder);
/* Sizes every packet from what it carries: hdr_bytes, plus its request's
 * length if it carries data (fwd: the wire goes from the initiator to the
 * target, where a write's and a send's data go; read_data: a read's response
 * crosses it with its data), at gbytes_per_s on a time base of per_ps ticks
 * per ps; serialisation rounds up to a whole tick. */
void wire_sizes(wire_comp_t *w, uint32_t hdr_bytes, int fwd, int read_data, double gbytes_per_s,
                int64_t per_ps);
/* The serialisation of m, its size set (msg_t.bytes). */
tick_t wire_ser(wire_comp_t *w, msg_t *m);
void wire_free(wire_comp_t *w);
/* Splits w (initialised, faults set): its packets go to xfer(ctx, m) with
 * m->t their arrival, and r (to be added to the receiving node's kernel)
 * hands them to w's output. Returns 0, or -1 out of memory. */
int wire_split(wire_comp_t *w, wire_rx_comp_t *r, void (*xfer)(void *ctx, const msg_t *m), void *ctx,
               int64_t max_flight);
/* A packet handed over by the sending half reaches r (it is seen at m->t). */
int wire_arrive(wire_rx_comp_t *r, const msg_t *m);
void wire_rx_free(wire_rx_comp_t *r);

/* ---- ctx_cache ---- */
/* A context cache (the context_cache block, run as C, RTL or both in
 * lockstep) in front of the node's host memory, private to the NIC pipeline
 * that reads its kind of record, at the pipeline's clock. The pipeline
 * presents a lookup at the edge it takes a request (a prefetch; one a cycle,
 * queued while the cache is not ready) and runs the cache up to its own
 * edges as it goes (ctx_cache_run): every edge the cache has work at is
 * stepped in order - the lookup presented, a record arriving from memory
 * `miss` ticks after its fetch, the answer given (handed to the pipeline
 * with the time it is in) - and its clock is gated while it has nothing to
 * do, so its edge count and random generator move only on the edges it runs,
 * on every backend alike. While it only waits, a C model jumps. */
#define CTX_MAX_KINDS 2  /* kinds of record one pipeline reads */
#define CTX_TAGS 256
enum { CTX_JETTY = 0, CTX_SEGMENT = 1, CTX_CHANNEL = 2, CTX_QP = 3 };

typedef struct ctx_cache {
    block_inst_t *blk;
    context_cache_in_t in;
    context_cache_out_t out;
    tick_t period, miss;
    int64_t per_ps;
    tick_t last;         /* the last edge it ran, jumped or was gated through */
    /* lookups not yet presented */
    struct ctx_lookup {
        tick_t t;        /* presented at this edge at the earliest */
        uint32_t id, rec;
        uint32_t wdata;
        uint8_t kind, write;
    } *q;
    int q_head, q_n, q_cap;
    /* fetches under way, in the order they arrive */
    struct ctx_fetch {
        tick_t t;
        uint32_t id;
        uint8_t tag; /* the fetch's mreq_tag, given back with its fill */
    } *f;
    int f_head, f_n, f_cap;
    int64_t tag_id[CTX_TAGS]; /* the request a tag answers, or -1 */
    int tags_used;
    /* an answer: request id's record is in from time t */
    void (*answer)(void *ctx, uint32_t id, tick_t t);
    void *answer_ctx;
    uint32_t warm_hits, warm_misses, warm_merged, warm_evictions; /* while it was warmed */
    uint32_t misses_idle; /* its miss count when it was last idle */
    int can_jump, wants_time; /* block_can_jump, block_wants_time, kept */
    uint64_t writebacks;
    /* per tag, the time its answer was promised (a hit seen at its lookup:
     * ctx_cache_present), or -1: a promised answer is checked, not passed on */
    tick_t promised[CTX_TAGS];
    int last_tag;         /* the tag of the lookup presented last */
    tick_t decide_by;     /* the edge that decides the last lookup stepped */
    int hit_edges;        /* a hit's answer comes this many edges after its
                             lookup (cfg_hit_cycles, at least CC_MIN_HIT) */
    /* Hits answered without stepping (a C model with nothing else under
     * way; context_cache_hit): since v_on, the cache has run v_edges edges
     * through `last` (the last one's answer edge) that the model has not
     * stepped; the hits whose answers may yet be to come, and the last one
     * answered before them, are kept for when it must step again
     * (context_cache_resume). */
    int v_on;
    uint32_t v_edges;
    tick_t v_lookup;      /* the edge of the last of them */
    struct ctx_vhit {
        tick_t ans;       /* its answer edge */
        uint32_t id, data;
        uint8_t tag;
    } v_q[16], v_done;    /* (a ring from v_head; v_done: ans < 0 if none) */
    int v_head, v_n;
    uint64_t v_taken;     /* hits taken so (a count for tests) */
    char where[64];
} ctx_cache_t;

/* The block's configuration from [context]; the clock period and the
 * fetch in ticks. Returns 0, or -1 out of memory. */
int ctx_cache_init(ctx_cache_t *cc, block_inst_t *blk, const ctx_cfg_t *cfg, tick_t period,
                   tick_t miss, int64_t per_ps, const char *where);
/* A lookup of record (kind, rec) for request id, presented at edge t. */
int ctx_cache_lookup(ctx_cache_t *cc, uint32_t id, unsigned kind, uint32_t rec, int write,
                     uint32_t wdata, tick_t t);
/* Runs the cache through edge t (every edge up to t it has work at).
 * Returns 0, or -1 on a lockstep mismatch or an answer for no lookup (the
 * message in err). */
int ctx_cache_run(ctx_cache_t *cc, tick_t t, char *err, int errlen);
/* Loads the record (kind, id) before the run (through the block's own
 * ports, its fetch answered at once): a run starts with the contexts it uses
 * in the cache, as far as they fit. */
void ctx_cache_warm(ctx_cache_t *cc, unsigned kind, uint32_t id);
/* Whether a cache of configuration cfg, warmed with records (kind, first +
 * r) for r < n, holds every one of them: then looking up only those never
 * misses (nothing is installed, nothing evicted). Tried on a C model of its
 * own: 1 yes, 0 no, -1 out of memory. */
int ctx_cache_keeps(const ctx_cfg_t *cfg, unsigned kind, uint32_t first, uint32_t n);
/* A lookup for request id presented at edge t, the cache run through t: 1
 * when it hit on a C model with nothing else under way (taken without
 * stepping), its record in from *in (hit_edges edges later); 0 when it was
 * stepped (a lookup is decided only CC_LOOKUP_EDGES edges after it is
 * taken) or not taken at t: its answer comes through `answer`; -1 on a
 * failure (the message in err). */
int ctx_cache_present(ctx_cache_t *cc, uint32_t id, unsigned kind, uint32_t rec, int write,
                      uint32_t wdata, tick_t t, tick_t *in, char *err, int errlen);
/* The same for a cache that keeps every record it is asked for
 * (ctx_cache_keeps): every lookup is a hit, its record in from *in (0), or
 * an error (-1): one not taken at t or, on a C model, one whose record is
 * not in the cache now; a stepped lookup's answer is checked against the
 * time promised when it comes (not passed to `answer`). */
int ctx_cache_pass(ctx_cache_t *cc, uint32_t id, unsigned kind, uint32_t rec, int write,
                   uint32_t wdata, tick_t t, tick_t *in, char *err, int errlen);
/* The cache run through the edge that decides the last lookup it took (a
 * stepped lookup is counted there; one taken without stepping is counted
 * at once), before its counts are read at the end of a run: 0, or -1 with
 * the message in err. */
int ctx_cache_settle(ctx_cache_t *cc, char *err, int errlen);
void ctx_cache_counts(const ctx_cache_t *cc, uint64_t *hits, uint64_t *misses, uint64_t *merged,
                      uint64_t *evictions);
void ctx_cache_free(ctx_cache_t *cc);

/* ---- nic_port ---- */
typedef struct {
    uint32_t id;
    msg_t m;
    int used;
    int ctx_wait;        /* context lookups not answered yet */
    tick_t ctx_ready;    /* it may leave from this edge on (its contexts) */
} nic_slot_t;

/* Inputs of a modelled block that hold for every request of a run. */
typedef struct {
    nic_block_t kind;
    int initiator;       /* the initiator's NIC (requests) or the target's (responses) */
    int64_t payload;     /* bytes per request, or < 0 for 64 */
    int jetties;         /* requests spread over this many Jetties (>= 1) */
    uint64_t seed;
    unsigned mtu_log2;   /* packets of at most 2^mtu_log2 payload bytes */
} nic_block_use_t;

typedef struct nic_port {
    comp_t c;
    chan_t *in, *out;
    nic_pipe_t pipe;
    nic_pipe_out_t pout;
    nic_block_use_t use;
    block_inst_t *blk;
    rx_checker_t *rx;    /* the receive checks on every packet taken, or NULL */
    /* called with every packet as it leaves (a target puts the bytes a
     * read returns into its response), or NULL */
    void (*emit)(void *ctx, msg_t *m, tick_t t); /* (t: when it leaves) */
    void *emit_ctx;
    uint64_t flag_drops; /* corrupted or duplicate packets refused without a
                            checker (a pipeline with no header fields) */
    int rx_at_target;    /* its packets are requests (the target's receive
                            pipeline), else responses */
    /* fills what the header carries beyond the packet's fields (the
     * remote address and token of a request), or NULL */
    void (*hdr_fields)(void *ctx, const msg_t *m, pkt_hdr_t *h);
    void *hdr_ctx;
    /* the Jetty a request was posted on, fetched with it by the initiator's
     * transmit pipeline (NULL: the message's) */
    uint32_t (*req_jetty)(void *ctx, const msg_t *m);
    void *req_ctx;
    /* completions for the send pipeline's order tracker (a message per
     * completion, its jetty the request's), taken one per edge; or NULL */
    chan_t *cmp_in;
    int cmp_valid;       /* one taken at the current edge */
    uint8_t cmp_q;
    /* called when a message's first packet is offered (issued), or NULL */
    void (*on_issue)(void *ctx, const msg_t *m, tick_t t);
    void *issue_ctx;
    /* context lookups (nic_port_contexts): a cache per kind of record read */
    int n_ctx;
    int ctx_kind[CTX_MAX_KINDS];
    ctx_cache_t *ctx[CTX_MAX_KINDS];
    tick_t ctx_after;    /* from its contexts being in to its leaving, at the least */
    int ctx_gated;       /* its output holds a request whose contexts are late */
    int64_t ctx_pending; /* lookups that missed (or were not taken at once),
                            their answers not yet in */
    int ctx_pass;        /* its caches keep every record they are asked for
                            (nic_port_contexts_kept) */
    uint64_t ctx_stalls; /* edges its output held a request for them */
    int blk_time;        /* block_wants_time(blk), kept */
    int blk_jump;        /* block_can_jump(blk), kept */
    int blk_empty;       /* the block holds no request and has settled (an
                            edge of it with idle inputs changes nothing) */
    union {
        ub_tx_in_t ub;
        rc_send_pipeline_in_t rc;
    } bin;
    union {
        ub_tx_out_t ub;
        rc_send_pipeline_out_t rc;
    } bout;
    uint32_t idle_jetty;
    int bin_known;       /* bin holds the inputs of request bin_id, if */
    int bin_valid;       /* bin_valid, else the idle inputs */
    uint32_t bin_id;
    /* requests inside (pipe and block), by id */
    nic_slot_t *tab;
    uint32_t tab_mask;
    int64_t inside;
    int offer;           /* the output register is offered on `out` */
    int offer_last;      /* ... and it is its message's last packet */
    int in_message;      /* a message's first packets have left, not its last */
    uint64_t segments;   /* packets of multi-packet messages, not their last,
                            that arrived in sequence (their message goes on
                            with its last) */
    int align_point, nic_point;
    int arrive_point;    /* the probe of the wire in front of it (CHAN_NO_PROBE:
                            the wire records it): the arrival of the packet it
                            accepts, which may be a duplicate that overtook
                            its original on an earlier link */
    /* stepping */
    tick_t last_edge;    /* the last edge it ran (-1: none) */
    tick_t lazy_at;      /* an edge it slept through, sure its offer was taken
                            then; applied when it next wakes (-1: none) */
    tick_t take_at;      /* an edge it slept through at which its empty
                            block took the request at the stage pipeline's
                            output (block_quiet_taking), or -1 */
    int fast_forward;    /* may jump the stage pipeline over idle edges */
    int pushed;          /* it pushed during the current edge */
    int64_t stalled_edges; /* edges with requests inside and nothing moving */
    int lost;            /* gave up on requests that never came out */
    const char *where;   /* "initiator's transmit" etc., for messages */
    msg_t acc;           /* taken from the input at this edge (eval) */
    int acc_valid;
    /* waveform */
    wave_t *wave;
    uint64_t wave_offset_ps;
    int64_t wave_per_ps;
    wave_sig_t w_in_valid, w_in_ready, w_in_tag, w_out_valid, w_out_tag, w_slots;
    wave_sig_t w_stage[NIC_PIPE_MAX_STAGES];
    uint64_t stage_mask[NIC_PIPE_MAX_STAGES];
} nic_port_t;

int nic_port_init(nic_port_t *p, const char *name, const clockdom_t *clk, const nic_pipe_cfg_t *pc,
                  chan_t *in, chan_t *out, int align_point, int nic_point, const char *where);
/* Whether the port can be a link of a chain: a bare stage pipeline (no
 * block, no waveform) of at least one cycle, with no context lookups or
 * lookups that always hit (nic_port_contexts_kept). Between an event-timed producer
 * and a consumer that takes every offer at once it never stalls: in_ready
 * stays high and a request taken at edge n leaves at edge n + depth. */
int nic_port_can_pass(const nic_port_t *p);
/* As a link of a chain: a request reaching the port at t is taken at the
 * first edge at or after t at which no earlier one is taken (nic_port_take)
 * and leaves `depth` edges later, the time nic_port_pass returns (probes
 * recorded: the clock alignment and the departure); TICK_NEVER when the
 * receive checks refuse it (it is gone, counted by reason). */
tick_t nic_port_take(const nic_port_t *p, tick_t t);
tick_t nic_port_pass(nic_port_t *p, msg_t *m, tick_t t);
/* The receive checks (rx_check.h) on a packet the port takes, if it has a
 * checker: 1 when it may go on (a copy that goes on becomes the packet),
 * 0 when it is refused (and counted). Without a checker a corrupted packet
 * or a copy is refused all the same. */
int nic_port_rx_accept(nic_port_t *p, msg_t *m);
/* The packet opcode request m's packets carry through a NIC: at the
 * initiator the request's (UB transaction opcode, or RoCE BTH opcode), at the
 * target its response's or acknowledgement's. */
uint8_t nic_port_opcode(int ub, int initiator, uint8_t opc);
/* The Jetty a request of number op goes out on, of `jetties`, by a hash of
 * op and seed (the scenarios spread their requests so). */
uint32_t nic_jetty_of(uint64_t op, int jetties, uint64_t seed);
/* Context lookups: every request the port takes looks up its record of
 * `kind` (CTX_*) in cache cc as it enters, and leaves no earlier than
 * `after` ticks after the last of its records is in (the rest of the
 * pipeline from the stage that reads them). The port runs the cache (and
 * frees it). Returns 0, or -1 when the port reads CTX_MAX_KINDS kinds
 * already. */
int nic_port_contexts(nic_port_t *p, int kind, ctx_cache_t *cc, tick_t after);
/* Tells the port that each of its caches holds every record it will be
 * asked for (ctx_cache_keeps) and that a hit is in (with ctx_after) before
 * the request reaches the pipeline's output: no request ever waits for its
 * contexts, and a bare pipeline may be a link of a chain (each promised
 * answer is checked as the cache steps it). */
void nic_port_contexts_kept(nic_port_t *p);
/* Attaches a block (created by the caller) at the end of the stage pipeline. */
void nic_port_attach(nic_port_t *p, block_inst_t *blk, const nic_block_use_t *use);
/* Declares the port's waveform signals under `scope` (and the block's ports
 * under block_scope). */
void nic_port_wave(nic_port_t *p, wave_t *w, uint64_t offset_ps, int64_t per_ps, const char *scope,
                   const char *block_scope);
/* Records the port's wires at time t (used once at the start). */
void nic_port_wave_now(nic_port_t *p, tick_t t);
void nic_port_free(nic_port_t *p);

/* ---- tp_port ---- */
/* How a path's NICs run their transport (--transport). */
typedef struct {
    int gbn;             /* 1: go-back-N (a NAK on a gap), 0: selective ack */
    int bmap_code;       /* the SACK bitmap: 64 << code bits (0..4) */
    int window;          /* packets in flight per channel (1 .. bitmap bits) */
    int ooo_cap;         /* packets the receiver holds beyond a gap */
    int64_t rto_ps;      /* the first retransmission timeout */
    int backoff;         /* the timeout doubles per retry */
    int retry_max;       /* timeouts in a row before the channel fails */
} tp_cfg_t;

/* The transport the NICs run by default (ubsim --transport on, sack or
 * gbn): a window of 256 packets, a SACK bitmap of 256 bits, 1024 packets
 * held beyond a gap, the first timeout TP_RTO_NS doubling per retry, 7
 * tries; gbn: go-back-N, else selective ack. */
#define TP_RTO_NS 25600
void tp_cfg_default(tp_cfg_t *c, int gbn);
/* Why selective ack is refused on a RoCE path (gbn = 0 with the RC send
 * pipeline). */
#define TP_SACK_NOT_ON_ROCE                                                     \
    "selective ack needs UB's TPSACK: RoCE's acknowledgements (ACKNOWLEDGE "    \
    "with an AETH) carry no bitmap, so a RoCE path runs go-back-N"

/* A UB acknowledgement (TPACK, TPSACK) from the transport block's `ao`
 * outputs and, for a SACK, the bitmap words collected after them
 * (transport_words_t), naming TPN tpn; and one received, into its `ack`
 * inputs (all but ack_valid and ack_ch) and, for a SACK, a feed of its
 * bitmap's words for the edges after (the feed's n is 0 otherwise). */
void tp_ack_from_block(const transport_out_t *o, const transport_words_t *bmap, uint32_t tpn,
                       pkt_ack_t *a);
void tp_ack_to_block(const pkt_ack_t *a, transport_in_t *in, transport_words_t *feed);

typedef struct tp_port {
    comp_t c;
    block_inst_t *blk;
    int blk_jump;
    transport_in_t in;
    transport_out_t out;
    /* the transmit lane (this node's NIC -> its wire to the peer, which
     * carries this node's acknowledgements too), the receive lane (the
     * peer's wire -> this node's NIC; the peer's acknowledgements come on
     * it) */
    chan_t *tx_in, *tx_out, *rx_in, *rx_out;
    struct tp_port *peer;          /* (RoCE: its descriptors' header PSNs) */
    int tx_point, rx_point;        /* probes: handed to the wire; delivered */
    int arrive_point;              /* the probe of its receive wire's arrival */
    int ub;                        /* UB's acknowledgements (TPACK, TPSACK), else
                                      RoCE's (ACKNOWLEDGE with an AETH) */
    /* the retransmission buffer: each packet sent, by handle (its PSN's low
     * bits), until acknowledged */
    msg_t desc[TP_W];
    uint8_t desc_used[TP_W];       /* 1 kept; 2 its channel failed: bytes let
                                      go, header PSN kept for the peer */
    uint32_t taken;                /* packets taken from the NIC */
    uint32_t una;                  /* the oldest PSN not acknowledged */
    /* the receiver: packets held until delivered in order */
    msg_t held[TP_W];
    uint8_t held_used[TP_W];
    int64_t n_held;
    msg_t rx_pend;                 /* the packet given to the block at this edge */
    msg_t rx_judge;                /* the one given at the edge before: judged at this one */
    int judging;                   /* rx_judge holds a packet */
    uint32_t rx_tpn;               /* the TPN (QP) of the last packet judged,
                                      which its acknowledgements name */
    tick_t last_edge;
    /* counts */
    uint64_t sent, resent, resent_bytes, delivered, acks_sent, acks_taken, acks_malformed;
    uint64_t verdict[5], corrupt, acks_corrupt, timeouts, dropped_failed;
    int tx_fwd;                    /* its transmit lane's wire runs forward */
    uint16_t node, peer_node;      /* the nodes (of a topology) at each end:
                                      its acknowledgements' source and
                                      destination, by which switches route */
    int pkt_was_valid;             /* its packet register held a packet */
    int ao_was_valid;              /* its acknowledgement register held one */
    /* a SACK's bitmap words: those of one received still to feed to the
     * block; those of the one it puts out still to collect (ao_words.n is
     * 0 when none is collected) */
    transport_words_t ack_feed, ao_words;
    int64_t held_peak;
    uint8_t failed;                /* channels that reached the retry limit */
} tp_port_t;

/* A node's transport on kernel k at clock clk, its block made with `opts`
 * (the backend, and in lockstep where a mismatch goes; the period is
 * clk's). Returns 0, or -1 with a message. */
int tp_port_init(tp_port_t *t, const char *name, kernel_t *k, const clockdom_t *clk,
                 const tp_cfg_t *cfg, int ub, const block_opts_t *opts, char *err, int errlen);
/* Its lanes (the ports set the channels' ends to it). */
void tp_port_lanes(tp_port_t *t, chan_t *tx_in, chan_t *tx_out, chan_t *rx_in, chan_t *rx_out,
                   tp_port_t *peer);
void tp_port_free(tp_port_t *t);

/* ---- chain ---- */
/* Parts that never hold a request back (delays, wires, bare NIC pipelines
 * between them), run ahead as one event-timed component: a request is taken
 * from the chain's input the moment it is offered and passed through every
 * link at once, each link recording its probes at the times they are due and
 * keeping its own state (a wire's busy link, a pipeline's last edge); it is
 * handed on at the end, stamped with the time it is due. Nothing anyone
 * sees changes: every link is as it would be as a component of its own. */
typedef enum { LINK_DELAY, LINK_WIRE, LINK_NIC } link_kind_t;

#define CHAIN_MAX_LINKS 32

typedef struct {
    comp_t c;
    chan_t *in, *out;
    int n;
    link_kind_t kind[CHAIN_MAX_LINKS];
    void *part[CHAIN_MAX_LINKS];
} chain_comp_t;

void chain_init(chain_comp_t *ch, const char *name, kernel_t *k, chan_t *in, chan_t *out);
/* Appends a link (delay_comp_t, wire_comp_t or nic_port_t, set up as a
 * component of its own but not added to the kernel). Returns 0, or -1 when
 * the chain is full. */
int chain_add(chain_comp_t *ch, link_kind_t kind, void *part);

#endif
