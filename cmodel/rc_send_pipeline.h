/* RoCE RC send pipeline: the PCIe-NIC baseline's transmit path.
 *
 * Work requests for RC queue pairs in, packet headers out. The packet
 * sequence number (PSN) of a QP is serially dependent: its QP context is read,
 * the PSN computed and the context written back before the next transaction
 * can be given a PSN. One QP-context engine serves every QP, so the pipeline
 * issues one packet every RC_SEND_LOOP_CYCLES (6) cycles, whatever the QP.
 *
 * Register stages (see docs/rc_send_pipeline.md):
 *   S0  input register (wr_ready is its "empty" flag, registered)
 *   C1..C6  QP-context engine, one transaction at a time:
 *       C1 context address, C2 context read, C3 context data / PSN compute,
 *       C4 write-back issued, C5 write-back committed, C6 header done
 *   OUT output register (pkt_valid), held until pkt_ready
 * Idle latency: accepted at step n -> pkt_valid in the outputs of step n+7.
 *
 * Cycle semantics follow sim/core/block.h: step() applies one rising edge with the
 * inputs `in` and writes the outputs of the cycle after it. A handshake on a
 * valid/ready pair happens at the edge of step n when the valid (from the
 * inputs or the previous outputs) and the ready (from the previous outputs or
 * the inputs) are both 1. Every output comes from a register.
 *
 * The RTL twin is rtl/rc_send_pipeline.sv with the ports of
 * rc_send_pipeline_ports.h (RTL names add _i/_o), NumQps = RC_SEND_NUM_QPS;
 * the MTU is the cfg_mtu_log2 input. This model needs nothing outside cmodel/; the block
 * class that runs it next to the RTL is sim/core/blocks.c.
 */
#ifndef UB_RC_SEND_PIPELINE_H
#define UB_RC_SEND_PIPELINE_H

#include <stdint.h>

#include "block_ports.h"
#include "rc_send_pipeline_ports.h"
#include "ub_pkg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RC_SEND_NUM_QPS (QP-context table entries; qpn % NumQps), RC_SEND_MTU
 * (path MTU in bytes, a power of two), the IB BTH opcodes RC_OP_* and
 * RC_ACK_REQ_MASK are shared with the RTL and live in ub_pkg.h. */
#define RC_SEND_MTU_LOG2 12
#define RC_SEND_LOOP_CYCLES 6 /* context read-modify-write loop */
#define RC_SEND_LATENCY 8     /* idle: accept edge -> downstream takes */
#define RC_SEND_PSN_MASK UB_BITS_MASK(RC_PSN_BITS) /* PSNs mod 2^24 */
#define RC_SEND_QPN_MASK UB_BITS_MASK(RC_QPN_BITS)

/* The input and output wires, one field per port of RC_SEND_PIPELINE_PORTS
 * (rc_send_pipeline_ports.h). */
typedef struct { RC_SEND_PIPELINE_PORTS(PORTS_FIELDS_IN) } rc_send_pipeline_in_t;
typedef struct { RC_SEND_PIPELINE_PORTS(PORTS_FIELDS_OUT) } rc_send_pipeline_out_t;
RC_SEND_PIPELINE_PORTS(PORTS_CHECK)

/* One transaction's fields as they travel through the pipeline. */
typedef struct {
    uint32_t qpn;
    uint32_t len;
    uint64_t addr;
    uint32_t rkey;
    uint32_t tag;
    uint8_t opcode;
} rc_send_wr_t;

typedef struct {
    /* S0: input register */
    uint8_t s0_valid;
    rc_send_wr_t s0;
    /* QP-context engine: stage 0 = empty, 1..6 = C1..C6 */
    uint8_t eng_stage;
    rc_send_wr_t eng;
    uint32_t eng_npsn;   /* PSNs this transaction consumes (>= 1) */
    uint32_t eng_nseg;   /* packets it leaves as, less one */
    uint32_t eng_ctx;    /* context read data: the QP's next PSN */
    uint32_t eng_psn;    /* PSN assigned to this transaction */
    uint32_t eng_next;   /* next PSN written back to the context */
    /* QP-context table: next PSN per QP; ctx_valid = 0 means "use
     * cfg_psn_init" (the whole table is reset in one cycle this way). */
    uint32_t ctx_psn[RC_SEND_NUM_QPS];
    uint8_t ctx_valid[RC_SEND_NUM_QPS];
    /* output registers (wr_ready and the packet) */
    rc_send_pipeline_out_t out;
    /* the message OUT is sending, packet out_seg of out_nseg + 1 */
    uint8_t out_opcode;  /* its opcode as requested (an ONLY opcode) */
    uint32_t out_len;    /* its length */
    uint32_t out_seg, out_nseg;
} rc_send_pipeline_state_t;

void rc_send_pipeline_reset(rc_send_pipeline_state_t *s);
void rc_send_pipeline_step(rc_send_pipeline_state_t *s,
                           const rc_send_pipeline_in_t *in,
                           rc_send_pipeline_out_t *out);

/* Nonzero while a request is held anywhere (S0, engine or OUT). When it is
 * zero and wr_valid is low, step() changes nothing and may be skipped. */
int rc_send_pipeline_busy(const rc_send_pipeline_state_t *s);

/* Fast-forward. quiet() is the number of coming edges with the inputs `in`
 * held over which the outputs cannot change: while the QP-context engine
 * works through C1..C5 with nothing in OUT and no request to accept (S0 full,
 * or none offered), the edges until C6. advance(n), n <= quiet(), applies n
 * such edges, exactly as n steps would. */
int rc_send_pipeline_quiet(const rc_send_pipeline_state_t *s, const rc_send_pipeline_in_t *in);
void rc_send_pipeline_advance(rc_send_pipeline_state_t *s, const rc_send_pipeline_in_t *in, int n);

/* Packets less one a request leaves as: a SEND ONLY, RDMA WRITE ONLY or READ
 * RESPONSE ONLY longer than the MTU (2^mtu_log2 bytes; 0: no MTU) becomes
 * FIRST, MIDDLE... and LAST packets, one per MTU segment (24 bits). */
uint32_t rc_send_nseg(uint8_t opcode, uint32_t len, unsigned mtu_log2);
/* PSNs a work request consumes: ceil(len / MTU) (at least 1) for an RDMA READ
 * request (one per packet of its response), one per packet for everything
 * else. */
uint32_t rc_send_psn_count(uint8_t opcode, uint32_t len, unsigned mtu_log2);
/* The opcode of packet seg of nseg + 1 of a message requested as `opcode`. */
uint8_t rc_send_seg_opcode(uint8_t opcode, uint32_t seg, uint32_t nseg);
/* AckReq bit of the BTH: set on the packet that ends a request message
 * (SEND/WRITE LAST or ONLY, RDMA READ request, atomics), clear otherwise. */
uint8_t rc_send_ack_req(uint8_t opcode);
#ifdef __cplusplus
}
#endif

#endif
