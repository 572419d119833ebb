/* UB send pipeline: work requests from many Jetties in, packets out.
 *
 * The C reference model of rtl/ub_send_pipeline.sv; both agree cycle for
 * cycle (the ports of ub_send_pipeline_ports.h, RTL names add _i / _o;
 * parameters NumQueues = UBSP_NUM_QUEUES, QueueDepth = UBSP_QUEUE_DEPTH,
 * NumJettyCtx = UBSP_NUM_JETTY_CTX, NumChannels = UBSP_NUM_CHANNELS, from
 * ub_pkg.h). This model needs nothing outside cmodel/; the block class that
 * runs it next to the RTL is sim/core/blocks.c.
 *
 * Cycle semantics follow sim/core/block.h: step() applies one rising edge with
 * the inputs `in` and writes the outputs of the cycle after it. A request is
 * accepted at the edge of step n when in->wr_valid is 1 and the wr_ready of
 * the previous step's outputs was 1. A packet is taken at the edge of step n
 * when the previous outputs had pkt_valid = 1 and in->pkt_ready = 1.
 *
 * Stages (one register each; see docs/ub_send_pipeline.md for the budget):
 *   intake register -> per-Jetty queue (jetty % NumQueues) -> rotating
 *   priority scheduler (S0) -> Jetty context read (S1..S4) -> order-tracker
 *   stage (S5..S8; the order tracker decides before S0) -> TASSN (S9) -> TA header (S10) -> channel index (S11) ->
 *   TPN (S12) -> sequence request (S13) -> the table's answer (S14) ->
 *   framing (S15..S17, S15 takes the PSN and TPMSN) -> egress (S18..S20)
 *   -> 2-entry output skid buffer.
 * The packet sequence is not the pipeline's: each transport channel's next
 * PSN and TPMSN live in the transport channel table (tp_chan.h). The item
 * entering S13 asks it (seq_rq for one cycle: the channel, the message's
 * packets less one); the table answers at the next edge (seq_valid,
 * seq_psn, seq_tpmsn in), and the item takes the answer as it enters S15,
 * or from a holding register if the back end stalled meanwhile. The UB
 * transmit path (ub_tx.h) wires the two.
 * Idle latency: accepted at step n -> pkt_valid in the outputs of step n+23.
 * Issue interval: the scheduler fills S0 only when S0 is empty, so at most
 * one request every 2 cycles enters the back end (the channel's sequence
 * round trip, S13 to the table and back at S15, is two cycles).
 * Back-pressure: S0..S20 advance together while the output buffer holds
 * fewer than 2 packets (a registered condition); the intake, the queues and
 * the output buffer keep their own valid bits.
 */
#ifndef UB_SEND_PIPELINE_H
#define UB_SEND_PIPELINE_H

#include <stdint.h>

#include "block_ports.h"
#include "order_tracker.h"
#include "ub_pkg.h"
#include "ub_send_pipeline_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The parameters (UBSP_NUM_QUEUES, UBSP_QUEUE_DEPTH, UBSP_NUM_JETTY_CTX,
 * UBSP_NUM_CHANNELS), the stage indices UBSP_ST_* (S0 is the scheduler output
 * register), UBSP_NUM_STAGES and UBSP_OUT_DEPTH are shared with the RTL and
 * live in ub_pkg.h. Measured behaviour: */
#define UBSP_LATENCY 24        /* idle: accept edge -> downstream takes */
#define UBSP_II 2              /* steady-state initiation interval     */

/* The input and output wires, one field per port of UB_SEND_PIPELINE_PORTS
 * (ub_send_pipeline_ports.h has the widths and what each port carries). */
typedef struct { UB_SEND_PIPELINE_PORTS(PORTS_FIELDS_IN) } ub_send_pipeline_in_t;
typedef struct { UB_SEND_PIPELINE_PORTS(PORTS_FIELDS_OUT) } ub_send_pipeline_out_t;
UB_SEND_PIPELINE_PORTS(PORTS_CHECK)

/* One request as it travels; fields are filled in by their stage. */
typedef struct {
    uint64_t addr;
    uint32_t len, token, tag, jetty, dst;
    uint8_t opcode, mode, order, fence, comp_order;
    /* computed */
    uint8_t ch, tp_opcode, wire_order;
    uint16_t tassn;
    uint32_t tpn, psn, tpmsn;
    uint32_t nseg;         /* its packets less one (MTU segments, 24 bits) */
    uint8_t mtu;           /* the MTU (log2) it was split by, as it was picked:
                            * its packets' lengths and addresses follow it */
} ubsp_item_t;

typedef struct {
    /* intake register */
    uint8_t in_valid;
    ubsp_item_t in_item;
    /* per-Jetty queues */
    uint8_t q_rd[UBSP_NUM_QUEUES], q_wr[UBSP_NUM_QUEUES], q_cnt[UBSP_NUM_QUEUES];
    uint32_t q_nonempty;   /* bit q set when q_cnt[q] != 0 */
    ubsp_item_t q_mem[UBSP_NUM_QUEUES][UBSP_QUEUE_DEPTH];
    uint8_t rr_ptr;        /* highest-priority queue for the next pick */
    /* back end S0..S20 as a ring: stage k lives in slot (head + k) % N */
    uint8_t head;
    uint32_t st_mask;      /* bit k: stage Sk holds an item (by stage, not slot) */
    ubsp_item_t st[UBSP_NUM_STAGES];   /* indexed by slot */
    uint32_t be_count;     /* valid items in S0..S20 */
    /* per-Jetty-context state */
    uint16_t tassn[UBSP_NUM_JETTY_CTX];
    /* the sequence request of the item that entered S13 at the last edge
     * (output registers), and the channel table's last answer, held */
    uint8_t seq_rq, seq_ch;
    uint32_t seq_nseg;
    uint32_t hold_psn, hold_tpmsn;
    /* output skid buffer */
    uint8_t out_cnt;
    ubsp_item_t out[UBSP_OUT_DEPTH];
    uint32_t seg;          /* packets of out[0] sent already */
    /* the order tracker beside the scheduler (docs/order_tracker.md): the
     * scheduler picks only heads it says are eligible */
    order_tracker_state_t ot;
    order_tracker_out_t ot_out;
} ub_send_pipeline_state_t;

/* Whether a transaction carries its length in payload (sends, writes, read
 * and atomic responses): only those are split into MTU segments. */
static inline int ub_ta_has_payload(uint8_t opcode)
{
    return opcode <= UB_TA_WRITE_NOTIFY || opcode == UB_TA_READ_RESP || opcode == UB_TA_ATOMIC_RESP;
}

/* The packets a request of len bytes becomes, less one, with an MTU of
 * 2^mtu_log2 bytes (0: one packet), as the 24-bit field the RTL keeps. */
static inline uint32_t ub_send_nseg(uint32_t len, unsigned mtu_log2)
{
    if ((mtu_log2 & 31u) == 0 || len == 0)
        return 0;
    return ((len - 1u) >> (mtu_log2 & 31u)) & 0xFFFFFFu;
}

void ub_send_pipeline_reset(ub_send_pipeline_state_t *s);
void ub_send_pipeline_step(ub_send_pipeline_state_t *s,
                           const ub_send_pipeline_in_t *in,
                           ub_send_pipeline_out_t *out);
/* The same edge with the channel table's answer given apart (in's seq_*
 * inputs are not read): how the transmit path (ub_tx.h) steps it. */
void ub_send_pipeline_step_answered(ub_send_pipeline_state_t *s,
                                    const ub_send_pipeline_in_t *in, uint8_t seq_valid,
                                    uint32_t seq_psn, uint32_t seq_tpmsn,
                                    ub_send_pipeline_out_t *out);
/* Nonzero while any request is inside (idle steps with wr_valid = 0 may be
 * skipped when this is 0: they change nothing). */
int ub_send_pipeline_busy(const ub_send_pipeline_state_t *s);

/* Fast-forward. quiet() is the number of coming edges with the inputs `in`
 * held over which the outputs cannot change: with wr_valid, cmp_valid and
 * seq_valid 0 and one request inside, in the intake register, a queue or
 * the back end (0 otherwise); it ends before the request asks the channel
 * table (S13). advance(n), n <= quiet(), applies n such edges at once (the
 * back end in one jump), exactly as n steps would.
 * quiet_served() is the same count for every output but the sequence
 * request, when the table answers the request at the edge after it (as
 * ub_tx does): the edges until the request reaches the output buffer, with
 * the inputs wr_valid and cmp_valid held (the only ones it depends on). */
int ub_send_pipeline_quiet(const ub_send_pipeline_state_t *s, const ub_send_pipeline_in_t *in);
int ub_send_pipeline_quiet_served(const ub_send_pipeline_state_t *s, uint8_t wr_valid,
                                  uint8_t cmp_valid);
void ub_send_pipeline_advance(ub_send_pipeline_state_t *s, const ub_send_pipeline_in_t *in, int n);
/* quiet_taking() is the number of coming edges over which the outputs
 * cannot change when the request offered in `in` (wr_valid) is taken at the
 * first and wr_valid and cmp_valid are low after: with the pipeline empty
 * and the order tracker letting the request go at once, the edge that takes
 * it and the edges to the output buffer (as quiet_served() counts them from
 * the intake register); 0 otherwise. The edge that takes it is a step; the
 * rest is advance() from there. */
int ub_send_pipeline_quiet_taking(const ub_send_pipeline_state_t *s,
                                  const ub_send_pipeline_in_t *in);
/* advance(n) for n <= quiet_served() with no answer of the table pending
 * (seq_valid would be 0): the lone request may cross S13..S15 in the jump.
 * When it enters S14 within the jump, answer(ctx, item, falls) is called
 * once: the table answers the request the item made entering S13, with
 * psn | (uint64_t)tpmsn << 32; `falls` says that the jump also covers the
 * edge after (into S15), at which the pipeline takes the answer and the
 * table's answer registers fall. Exactly the edges stepping would make
 * with the table beside it. */
typedef uint64_t (*ubsp_answer_fn)(void *ctx, const ubsp_item_t *it, int falls);
void ub_send_pipeline_advance_answered(ub_send_pipeline_state_t *s,
                                       const ub_send_pipeline_in_t *in, int n,
                                       ubsp_answer_fn answer, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
