/* UB send pipeline, C reference model. See ub_send_pipeline.h and
 * docs/ub_send_pipeline.md; rtl/ub_send_pipeline.sv is the RTL twin. */
#include "ub_send_pipeline.h"

#include <stddef.h>
#include <string.h>

#define NQ UBSP_NUM_QUEUES
#define QD UBSP_QUEUE_DEPTH
#define NS UBSP_NUM_STAGES

_Static_assert((NQ & (NQ - 1)) == 0 && NQ <= 32, "NumQueues: power of 2, <= 32");
_Static_assert((QD & (QD - 1)) == 0, "QueueDepth: power of 2");
_Static_assert((UBSP_NUM_JETTY_CTX & (UBSP_NUM_JETTY_CTX - 1)) == 0, "NumJettyCtx");
_Static_assert(NS <= 32, "a stage mask of 32 bits");
_Static_assert((UBSP_NUM_CHANNELS & (UBSP_NUM_CHANNELS - 1)) == 0 &&
               UBSP_NUM_CHANNELS <= 32, "NumChannels: power of 2, <= 32");

void ub_send_pipeline_reset(ub_send_pipeline_state_t *s)
{
    memset(s, 0, sizeof *s);
}

int ub_send_pipeline_busy(const ub_send_pipeline_state_t *s)
{
    return s->in_valid || s->q_nonempty || s->be_count || s->out_cnt;
}

static inline unsigned slot(const ub_send_pipeline_state_t *s, unsigned stage)
{
    unsigned k = s->head + stage;
    return k >= NS ? k - NS : k;
}

/* Rotating-priority pick: the first non-empty queue at or after ptr. */
static inline unsigned rr_pick(uint32_t mask, unsigned ptr)
{
    uint32_t hi = mask & (~0u << ptr);
    return (unsigned)__builtin_ctz(hi ? hi : mask);
}

static inline __attribute__((always_inline)) void write_outputs(const ub_send_pipeline_state_t *s,
                          ub_send_pipeline_out_t *o)
{
    if (!s->out_cnt) /* (the packet's fields are 0 while none is offered) */
        memset(o, 0, offsetof(ub_send_pipeline_out_t, seq_rq));
    o->wr_ready = (uint8_t)(!s->in_valid ||
                            s->q_cnt[s->in_item.jetty & (NQ - 1)] < QD);
    o->held = s->ot_out.held;
    o->seq_rq = s->seq_rq;
    o->seq_ch = s->seq_ch;
    o->seq_nseg = s->seq_nseg;
    if (!s->out_cnt)
        return;
    const ubsp_item_t *it = &s->out[0];
    /* packet s->seg of the request: MTU-sized, the last one what is left
     * (with the MTU the request was split by) */
    const unsigned mtu = it->mtu & 31u;
    const int last = s->seg == it->nseg;
    const uint32_t psn = ub_psn_add(it->psn, s->seg);
    const int rel = it->tp_opcode == UB_TP_RELIABLE;
    o->pkt_valid = 1;
    o->pkt_tp_opcode = it->tp_opcode;
    o->pkt_last = (uint8_t)last;
    o->pkt_src_tpn = it->tpn;
    o->pkt_dst_tpn = it->tpn;
    o->pkt_psn = psn;
    o->pkt_tpmsn = it->tpmsn;
    /* an acknowledgement is asked for every 16th PSN, and (ROL) at the end of
     * each message */
    o->pkt_ack_req = (uint8_t)(rel && ((it->mode == URMA_OL && last) || (psn & 0xFu) == 0xFu));
    o->pkt_ta_opcode = it->opcode;
    o->pkt_order = it->wire_order;
    o->pkt_tassn = it->tassn;
    o->pkt_jetty = it->jetty;
    o->pkt_token = it->token;
    o->pkt_len = it->nseg == 0 ? it->len
                 : last     ? it->len - (s->seg << mtu)
                            : (uint32_t)1u << mtu;
    o->pkt_addr = it->addr + ((uint64_t)s->seg << mtu);
    o->pkt_tag = it->tag;
    o->pkt_dst = it->dst;
    o->pkt_mode = it->mode;
    o->pkt_comp_order = it->comp_order;
}

/* The work of stages S9..S15 on the item entering them (S14 has none). */
static inline void work_tassn(ub_send_pipeline_state_t *s, ubsp_item_t *it)
{
    /* TASSN read-modify-write in the Jetty context (1 cycle) */
    uint16_t *t = &s->tassn[it->jetty & (UBSP_NUM_JETTY_CTX - 1)];
    it->tassn = *t;
    *t = (uint16_t)(*t + 1u);
}
static inline void work_tah(ubsp_item_t *it)
{
    /* transaction header: 3-bit wire order field */
    it->wire_order = ub_wire_order(it->order, it->fence);
}
static inline void work_chan(ubsp_item_t *it)
{
    /* transport channel index */
    it->ch = (uint8_t)(it->dst & (UBSP_NUM_CHANNELS - 1));
}
static inline void work_tpn(const ub_send_pipeline_in_t *in, ubsp_item_t *it)
{
    /* channel TPN */
    it->tpn = (in->cfg_tpn_base + it->ch) & UB_TPN_MASK;
}
static inline void work_seq_ask(ub_send_pipeline_state_t *s, const ubsp_item_t *it)
{
    /* the channel table is asked for the message's numbers */
    s->seq_rq = 1;
    s->seq_ch = it->ch;
    s->seq_nseg = it->nseg;
}
static inline void work_rtph(const ub_send_pipeline_state_t *s, ubsp_item_t *it)
{
    /* RTPH: transport opcode (the ack request is the output's, per packet);
     * the table's answer (of this edge, or held) */
    it->tp_opcode = ub_mode_reliable(it->mode) ? UB_TP_RELIABLE : UB_TP_UNRELIABLE;
    it->psn = s->hold_psn;
    it->tpmsn = s->hold_tpmsn;
}

static void stage_work(ub_send_pipeline_state_t *s, const ub_send_pipeline_in_t *in,
                       unsigned st, ubsp_item_t *it)
{
    switch (st) {
    case UBSP_ST_TASSN:
        work_tassn(s, it);
        break;
    case UBSP_ST_TAH:
        work_tah(it);
        break;
    case UBSP_ST_CHAN:
        work_chan(it);
        break;
    case UBSP_ST_TPN:
        work_tpn(in, it);
        break;
    case UBSP_ST_SEQ_ASK:
        work_seq_ask(s, it);
        break;
    case UBSP_ST_RTPH:
        work_rtph(s, it);
        break;
    default:
        break;
    }
}

/* The back end's ring turns by one edge (stage k's slot becomes stage
 * k + 1's). */
static inline void turn(ub_send_pipeline_state_t *s)
{
    s->head = (uint8_t)(s->head == 0 ? NS - 1 : s->head - 1);
}

/* One edge of the back end S0..S20 (only called when it advances). */
static void backend_advance(ub_send_pipeline_state_t *s,
                            const ub_send_pipeline_in_t *in, int push_out)
{
    if (s->st_mask >> (NS - 1) & 1u) {
        /* push_out is guaranteed: the back end only advances when the output
         * buffer has room for one more. */
        (void)push_out;
        s->out[s->out_cnt++] = s->st[slot(s, NS - 1)];
        s->be_count--;
    }
    turn(s);
    s->st_mask = (s->st_mask << 1) & ((1u << NS) - 1u); /* S0 is now empty */

    /* the stages with work (S9..S15) that hold an item (S14 has none), in
     * order (each its own test: the stages that hold one change from edge
     * to edge) */
    const uint32_t m = s->st_mask;
    if (m >> UBSP_ST_TASSN & 1u)
        work_tassn(s, &s->st[slot(s, UBSP_ST_TASSN)]);
    if (m >> UBSP_ST_TAH & 1u)
        work_tah(&s->st[slot(s, UBSP_ST_TAH)]);
    if (m >> UBSP_ST_CHAN & 1u)
        work_chan(&s->st[slot(s, UBSP_ST_CHAN)]);
    if (m >> UBSP_ST_TPN & 1u)
        work_tpn(in, &s->st[slot(s, UBSP_ST_TPN)]);
    if (m >> UBSP_ST_SEQ_ASK & 1u)
        work_seq_ask(s, &s->st[slot(s, UBSP_ST_SEQ_ASK)]);
    if (m >> UBSP_ST_RTPH & 1u)
        work_rtph(s, &s->st[slot(s, UBSP_ST_RTPH)]);
}

/* The intake register into its Jetty's queue (it has room). */
static inline void drain_intake(ub_send_pipeline_state_t *s, unsigned iq)
{
    s->q_mem[iq][s->q_wr[iq]] = s->in_item;
    s->q_wr[iq] = (uint8_t)((s->q_wr[iq] + 1) & (QD - 1));
    s->q_cnt[iq]++;
    s->q_nonempty |= 1u << iq;
    s->in_valid = 0;
}

/* Queue g's head into S0 (empty: the back end has just advanced). */
static inline void pick_head(ub_send_pipeline_state_t *s, const ub_send_pipeline_in_t *in,
                             unsigned g)
{
    unsigned k = slot(s, 0);
    s->st[k] = s->q_mem[g][s->q_rd[g]];
    /* its packets less one (MTU segments), decided as it is picked */
    ubsp_item_t *p = &s->st[k];
    p->nseg = ub_ta_has_payload(p->opcode) ? ub_send_nseg(p->len, in->cfg_mtu_log2) : 0;
    p->mtu = (uint8_t)(in->cfg_mtu_log2 & 31u);
    s->st_mask |= 1u;
    s->be_count++;
    s->q_rd[g] = (uint8_t)((s->q_rd[g] + 1) & (QD - 1));
    if (--s->q_cnt[g] == 0)
        s->q_nonempty &= ~(1u << g);
    s->rr_ptr = (uint8_t)((g + 1) & (NQ - 1));
}

/* The order tracker sees what happened at this edge (when nothing did, it
 * keeps its state and its outputs and is not stepped). */
static inline void ot_edge(ub_send_pipeline_state_t *s, const ub_send_pipeline_in_t *in,
                           int accept, int pick, unsigned g)
{
    order_tracker_in_t ti = {0};
    ti.acc_valid = (uint8_t)accept;
    ti.acc_q = (uint8_t)(in->wr_jetty & (NQ - 1));
    ti.acc_mode = in->wr_mode & 7u;
    ti.acc_order = in->wr_order & 3u;
    ti.acc_fence = in->wr_fence & 1u;
    ti.pick_valid = (uint8_t)pick;
    ti.pick_q = (uint8_t)g;
    ti.cmp_valid = in->cmp_valid & 1u;
    ti.cmp_q = in->cmp_q & 7u;
    order_tracker_step(&s->ot, &ti, &s->ot_out);
}

/* The item at stage st, with the registers as they are when stage st is in
 * front of it: the logic of stages S9..S15 (the others only carry it). */
void ub_send_pipeline_step(ub_send_pipeline_state_t *s,
                           const ub_send_pipeline_in_t *in,
                           ub_send_pipeline_out_t *out)
{
    ub_send_pipeline_step_answered(s, in, in->seq_valid, in->seq_psn, in->seq_tpmsn, out);
}

void ub_send_pipeline_step_answered(ub_send_pipeline_state_t *s,
                                    const ub_send_pipeline_in_t *in, uint8_t seq_valid,
                                    uint32_t seq_psn, uint32_t seq_tpmsn,
                                    ub_send_pipeline_out_t *out)
{
    /* The channel table's answer is held; the request is a pulse. */
    if (seq_valid & 1u) {
        s->hold_psn = seq_psn & UB_PSN_MASK;
        s->hold_tpmsn = seq_tpmsn & UB_TPMSN_MASK;
    }
    s->seq_rq = 0;
    if (!in->wr_valid && !ub_send_pipeline_busy(s)) {
        /* Idle: nothing else can change but a completion's count. */
        if (in->cmp_valid & 1u) {
            order_tracker_in_t ti = {0};
            ti.cmp_valid = 1;
            ti.cmp_q = in->cmp_q & 7u;
            order_tracker_step(&s->ot, &ti, &s->ot_out);
        }
        write_outputs(s, out);
        return;
    }

    /* Decisions from the registers before the edge. */
    const int en = s->out_cnt < UBSP_OUT_DEPTH;
    const int pop_out = s->out_cnt && in->pkt_ready;
    /* the queues whose head may go: the order tracker's word, registered */
    const uint32_t nonempty = s->q_nonempty & s->ot_out.elig;
    const unsigned iq = s->in_item.jetty & (NQ - 1);
    const int drain = s->in_valid && s->q_cnt[iq] < QD;
    const int accept = in->wr_valid && (!s->in_valid || drain);

    /* Output skid buffer: the head's next packet, or pop it after its last;
     * the back end pushes behind. */
    if (pop_out) {
        if (s->seg != s->out[0].nseg) {
            s->seg = (s->seg + 1u) & 0xFFFFFFu;
        } else {
            s->seg = 0;
            s->out[0] = s->out[1];
            s->out_cnt--;
        }
    }

    int pick = 0;
    unsigned g = 0;
    if (en) {
        pick = !(s->st_mask & 1u) && nonempty;
        backend_advance(s, in, 1);
        if (pick) {
            g = rr_pick(nonempty, s->rr_ptr);
            pick_head(s, in, g);
        }
    }

    /* Intake register -> its Jetty's queue. */
    if (drain)
        drain_intake(s, iq);
    if (accept) {
        ubsp_item_t *it = &s->in_item;
        it->opcode = in->wr_opcode;
        it->mode = in->wr_mode & 7u;
        it->order = in->wr_order & 3u;
        it->fence = in->wr_fence & 1u;
        it->comp_order = in->wr_comp_order & 1u;
        it->jetty = in->wr_jetty & UB_JETTY_MASK;
        it->dst = in->wr_dst & UB_CEID_MASK;
        it->len = in->wr_len;
        it->addr = in->wr_addr;
        it->token = in->wr_token;
        it->tag = in->wr_tag;
        s->in_valid = 1;
    }
    if (accept || pick || (in->cmp_valid & 1u))
        ot_edge(s, in, accept, pick, g);

    write_outputs(s, out);
}

/* The edges a lone request (with wr_valid and cmp_valid low and the output
 * buffer empty) takes from where it is into stage `to` (< 0: it cannot go
 * there in a jump). */
static int lone_edges_to(const ub_send_pipeline_state_t *s, uint8_t wr_valid, uint8_t cmp_valid,
                         int to)
{
    if (s->out_cnt || wr_valid || cmp_valid)
        return -1;
    /* in the intake register: one edge to its queue, one to S0 (if it may
     * go: a held one waits for a completion, stepped edge by edge) */
    if (s->in_valid && !s->q_nonempty && !s->be_count)
        return s->ot_out.elig >> (s->in_item.jetty & (NQ - 1)) & 1u ? 2 + to : -1;
    /* in a queue: one edge to S0 */
    if (!s->in_valid && !s->be_count && s->q_nonempty && !(s->q_nonempty & (s->q_nonempty - 1)) &&
        s->q_cnt[__builtin_ctz(s->q_nonempty)] == 1)
        return s->q_nonempty & s->ot_out.elig ? 1 + to : -1;
    if (s->in_valid || s->q_nonempty || s->be_count != 1 || !s->st_mask)
        return -1;
    return to - (int)__builtin_ctz(s->st_mask);
}

int ub_send_pipeline_quiet(const ub_send_pipeline_state_t *s, const ub_send_pipeline_in_t *in)
{
    if ((in->seq_valid & 1u) || s->seq_rq)
        return 0; /* an answer is taken, or the request falls, at the next edge */
    /* up to S12 (the edge into S13 raises the request), or past S14 up to
     * S20 */
    int n = lone_edges_to(s, in->wr_valid, in->cmp_valid, UBSP_ST_SEQ_ASK - 1);
    if (n < 0)
        n = lone_edges_to(s, in->wr_valid, in->cmp_valid, NS - 1);
    return n > 0 ? n : 0;
}

int ub_send_pipeline_quiet_served(const ub_send_pipeline_state_t *s, uint8_t wr_valid,
                                  uint8_t cmp_valid)
{
    int n = lone_edges_to(s, wr_valid, cmp_valid, NS - 1);
    return n > 0 ? n : 0;
}

int ub_send_pipeline_quiet_taking(const ub_send_pipeline_state_t *s,
                                  const ub_send_pipeline_in_t *in)
{
    if (!(in->wr_valid & 1u) || (in->cmp_valid & 1u) || ub_send_pipeline_busy(s) || s->seq_rq)
        return 0;
    /* taken into the intake register: wr_ready stays high (its queue is
     * empty), and the tracker registers the request as its queue's head, not
     * held when it may go at once (held stays 0: nothing else is queued) */
    unsigned q = in->wr_jetty & (NQ - 1);
    if (s->ot.cnt[q] || s->ot_out.held ||
        !order_tracker_eligible(in->wr_mode & 7u, in->wr_order & 3u, in->wr_fence & 1u,
                                s->ot.outstanding[q]))
        return 0;
    /* then, from the intake register, as quiet_served() would count */
    return 1 + 2 + (NS - 1);
}

/* (advance is this with no answer: its jump stops before S13) */
void ub_send_pipeline_advance_answered(ub_send_pipeline_state_t *s,
                                       const ub_send_pipeline_in_t *in, int n,
                                       ubsp_answer_fn answer, void *ctx)
{
    /* into the back end (at most two edges, n <= quiet): the lone request
     * in the intake register drains into its queue, then it is picked into
     * S0 (the edges step would make, with wr_valid and cmp_valid low and
     * the output buffer empty) */
    if (n > 0 && s->in_valid) {
        turn(s); /* (nothing inside) */
        drain_intake(s, s->in_item.jetty & (NQ - 1));
        n--;
    }
    if (n > 0 && !s->be_count) {
        unsigned g = (unsigned)__builtin_ctz(s->q_nonempty);
        turn(s); /* (nothing inside) */
        pick_head(s, in, g);
        ot_edge(s, in, 0, 1, g);
        n--;
    }
    if (n == 0)
        return;
    unsigned st = (unsigned)__builtin_ctz(s->st_mask);
    ubsp_item_t *it = &s->st[slot(s, st)];
    const unsigned end = st + (unsigned)n;
    /* the work of the stages it enters (only S9..S15 have any); the request
     * to the table is a pulse of the edge into S13, answered at the edge
     * into S14 and taken at the edge into S15 */
    unsigned first = st + 1 > UBSP_ST_TASSN ? st + 1 : UBSP_ST_TASSN;
    unsigned last = end < UBSP_ST_RTPH ? end : UBSP_ST_RTPH;
    for (unsigned k = first; k <= last; k++) {
        if (k == UBSP_ST_SEQ_WAIT) {
            uint64_t a = answer(ctx, it, end >= UBSP_ST_RTPH);
            if (end >= UBSP_ST_RTPH) {
                s->hold_psn = (uint32_t)a & UB_PSN_MASK;
                s->hold_tpmsn = (uint32_t)(a >> 32) & UB_TPMSN_MASK;
            }
        } else {
            stage_work(s, in, k, it);
        }
    }
    if (end > UBSP_ST_SEQ_ASK)
        s->seq_rq = 0; /* (the pulse fell at the edge after it) */
    /* the ring turns by n: stage k moves to stage k + n */
    s->head = (uint8_t)((s->head + NS - (unsigned)n % NS) % NS);
    s->st_mask <<= n; /* the one item, still inside (n <= quiet) */
}

void ub_send_pipeline_advance(ub_send_pipeline_state_t *s, const ub_send_pipeline_in_t *in, int n)
{
    ub_send_pipeline_advance_answered(s, in, n, NULL, NULL);
}
