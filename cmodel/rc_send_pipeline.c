/* RoCE RC send pipeline, C reference model. See rc_send_pipeline.h and
 * docs/rc_send_pipeline.md; rtl/rc_send_pipeline.sv is the RTL twin. */
#include "rc_send_pipeline.h"

#include <string.h>

_Static_assert((RC_SEND_NUM_QPS & (RC_SEND_NUM_QPS - 1)) == 0 && RC_SEND_NUM_QPS >= 2,
               "RC_SEND_NUM_QPS must be a power of two >= 2");
_Static_assert((1u << RC_SEND_MTU_LOG2) == RC_SEND_MTU, "MTU_LOG2 mismatch");

/* ceil(len / MTU) - 1 as 24 bits (0 for no MTU or no bytes) */
static uint32_t segs_less_one(uint32_t len, unsigned mtu_log2)
{
    if ((mtu_log2 & 31u) == 0 || len == 0)
        return 0;
    return ((len - 1u) >> (mtu_log2 & 31u)) & RC_SEND_PSN_MASK;
}

static int payload_only(uint8_t opcode)
{
    return opcode == RC_OP_SEND_ONLY || opcode == RC_OP_WRITE_ONLY || opcode == RC_OP_READ_RESP_ONLY;
}

uint32_t rc_send_nseg(uint8_t opcode, uint32_t len, unsigned mtu_log2)
{
    return payload_only(opcode) ? segs_less_one(len, mtu_log2) : 0;
}

uint32_t rc_send_psn_count(uint8_t opcode, uint32_t len, unsigned mtu_log2)
{
    if (opcode == RC_OP_READ_REQUEST)
        return (segs_less_one(len, mtu_log2) + 1u) & RC_SEND_PSN_MASK;
    return (rc_send_nseg(opcode, len, mtu_log2) + 1u) & RC_SEND_PSN_MASK;
}

uint8_t rc_send_seg_opcode(uint8_t opcode, uint32_t seg, uint32_t nseg)
{
    if (nseg == 0)
        return opcode;
    unsigned k = seg == 0 ? 0 : seg == nseg ? 2 : 1; /* FIRST, MIDDLE, LAST */
    switch (opcode) {
    case RC_OP_SEND_ONLY:
        return (uint8_t)(RC_OP_SEND_FIRST + k);
    case RC_OP_WRITE_ONLY:
        return (uint8_t)(RC_OP_WRITE_FIRST + k);
    default:
        return (uint8_t)(RC_OP_READ_RESP_FIRST + k);
    }
}

/* OUT shows packet out_seg of its message. */
static void out_packet(rc_send_pipeline_state_t *s, unsigned mtu)
{
    const uint32_t seg = s->out_seg, n = s->out_nseg;
    s->out.pkt_opcode = rc_send_seg_opcode(s->out_opcode, seg, n);
    s->out.pkt_ack_req = rc_send_ack_req(s->out.pkt_opcode);
    s->out.pkt_len = n == 0 ? s->out_len : seg == n ? s->out_len - (seg << mtu) : (uint32_t)1u << mtu;
}

uint8_t rc_send_ack_req(uint8_t opcode)
{
    return opcode < 0x20 ? (uint8_t)(((uint32_t)RC_ACK_REQ_MASK >> opcode) & 1u) : 0;
}

void rc_send_pipeline_reset(rc_send_pipeline_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->out.wr_ready = 1; /* S0 empty */
}

int rc_send_pipeline_busy(const rc_send_pipeline_state_t *s)
{
    return (s->s0_valid | s->eng_stage | s->out.pkt_valid) != 0;
}

/* The QP-context engine's work at an edge in C1..C5 (C6 and the load are
 * the step's). */
static inline void engine_work(rc_send_pipeline_state_t *s, const rc_send_pipeline_in_t *in)
{
    const unsigned idx = s->eng.qpn & (RC_SEND_NUM_QPS - 1);
    switch (s->eng_stage) {
    case 2: /* C2: context read */
        s->eng_psn = s->ctx_valid[idx] ? s->ctx_psn[idx]
                                       : (in->cfg_psn_init & RC_SEND_PSN_MASK);
        s->eng_stage = 3;
        break;
    case 3: /* C3: PSN compute */
        s->eng_next = (s->eng_psn + s->eng_npsn) & RC_SEND_PSN_MASK;
        s->eng_stage = 4;
        break;
    case 4: /* C4: context write-back */
        s->ctx_psn[idx] = s->eng_next;
        s->ctx_valid[idx] = 1;
        s->eng_stage = 5;
        break;
    case 1: /* C1: context address */
    case 5: /* C5: write-back commit */
        s->eng_stage = (uint8_t)(s->eng_stage + 1);
        break;
    default:
        break;
    }
}

void rc_send_pipeline_step(rc_send_pipeline_state_t *s,
                           const rc_send_pipeline_in_t *in,
                           rc_send_pipeline_out_t *out)
{
    /* Idle: nothing held and nothing offered. No register changes. */
    if (!(s->s0_valid | s->eng_stage | s->out.pkt_valid | (in->wr_valid & 1u))) {
        *out = s->out;
        return;
    }

    const uint8_t stage = s->eng_stage;
    const int pkt_ready = in->pkt_ready & 1u;
    const unsigned mtu = in->cfg_mtu_log2 & 31u;
    const int out_last = s->out_seg == s->out_nseg;
    /* OUT refills from C6 at any edge where it is empty or the last packet of
     * its message is taken (a plain valid/ready output register): no lost
     * cycle. */
    const int out_free = !s->out.pkt_valid || (pkt_ready && out_last);
    const int eng_leave = stage == RC_SEND_LOOP_CYCLES && out_free;
    const int eng_load = s->s0_valid && (stage == 0 || eng_leave);
    const int wr_accept = (in->wr_valid & 1u) && s->out.wr_ready;

    /* OUT register */
    if (eng_leave) {
        s->out.pkt_valid = 1;
        s->out.pkt_dqpn = s->eng.qpn;
        s->out.pkt_psn = s->eng_psn;
        s->out.pkt_addr = s->eng.addr;
        s->out.pkt_rkey = s->eng.rkey;
        s->out.pkt_tag = s->eng.tag;
        s->out_opcode = s->eng.opcode;
        s->out_len = s->eng.len;
        s->out_seg = 0;
        s->out_nseg = s->eng_nseg;
        out_packet(s, mtu);
    } else if (s->out.pkt_valid && pkt_ready) {
        if (out_last) {
            s->out.pkt_valid = 0;
        } else { /* the message's next packet */
            s->out_seg++;
            s->out.pkt_psn = (s->out.pkt_psn + 1u) & RC_SEND_PSN_MASK;
            s->out.pkt_addr += (uint64_t)1u << mtu;
            out_packet(s, mtu);
        }
    }

    /* QP-context engine */
    if (stage == RC_SEND_LOOP_CYCLES) { /* C6: header ready, waits for OUT */
        if (eng_leave)
            s->eng_stage = 0;
    } else {
        engine_work(s, in);
    }
    if (eng_load) {
        s->eng = s->s0;
        s->eng_npsn = rc_send_psn_count(s->s0.opcode, s->s0.len, mtu);
        s->eng_nseg = rc_send_nseg(s->s0.opcode, s->s0.len, mtu);
        s->eng_stage = 1;
    }

    /* S0 input register */
    if (wr_accept) {
        s->s0.qpn = in->wr_qpn & RC_SEND_QPN_MASK;
        s->s0.opcode = in->wr_opcode;
        s->s0.len = in->wr_len;
        s->s0.addr = in->wr_addr;
        s->s0.rkey = in->wr_rkey;
        s->s0.tag = in->wr_tag;
    }
    s->s0_valid = (uint8_t)((s->s0_valid && !eng_load) || wr_accept);
    s->out.wr_ready = (uint8_t)!s->s0_valid;

    *out = s->out;
}

int rc_send_pipeline_quiet(const rc_send_pipeline_state_t *s, const rc_send_pipeline_in_t *in)
{
    if (s->out.pkt_valid || ((in->wr_valid & 1u) && !s->s0_valid))
        return 0; /* a packet offered, or a request to accept */
    if (s->eng_stage >= 1 && s->eng_stage < RC_SEND_LOOP_CYCLES)
        return RC_SEND_LOOP_CYCLES - s->eng_stage;
    return 0;
}

void rc_send_pipeline_advance(rc_send_pipeline_state_t *s, const rc_send_pipeline_in_t *in, int n)
{
    /* in these edges only the engine works: OUT is empty and stays so, S0
     * neither loads into the engine nor accepts */
    while (n-- > 0)
        engine_work(s, in);
}
