/* A NIC pipeline as a component at the NIC clock (see parts.h).
 *
 * At each edge it runs, in the two phases of the kernel:
 *   eval    takes the request at the head of its input channel if it is
 *           visible and the stage pipeline's in_ready (a register) is high;
 *   commit  learns whether the consumer took the offered output at this
 *           edge, steps the block (if any) and the stage pipeline with those
 *           handshakes, and offers a new output when the output register
 *           fills. It emits a probe when a request has waited for the clock
 *           edge (at that edge) and when the request leaves the port.
 *
 * While requests are inside it is due at every edge; a stage pipeline with
 * no block, nothing entering and nothing reaching its output is jumped over
 * in one step (unless a waveform is being written). When it is the only
 * component due before the kernel's horizon it runs its edges in a loop of
 * its own (`run`). A request that never comes out (a block that lost it) is
 * given up on after STUCK_EDGES edges of inside-but-idle: the run then ends
 * short of its reads, which the caller reports. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"

#define STUCK_EDGES 100000 /* edges with requests inside and nothing moving */

/* ---- the table of requests inside, by id ---- */

static int tab_grow(nic_port_t *p);

static nic_slot_t *tab_find(nic_port_t *p, uint32_t id)
{
    for (uint32_t i = (id * 2654435761u) & p->tab_mask;; i = (i + 1) & p->tab_mask) {
        if (!p->tab[i].used)
            return NULL;
        if (p->tab[i].id == id)
            return &p->tab[i];
    }
}

static int tab_put(nic_port_t *p, const msg_t *m)
{
    if ((uint64_t)(p->inside + 1) * 2 > (uint64_t)p->tab_mask + 1 && tab_grow(p))
        return -1;
    uint32_t i = (m->id * 2654435761u) & p->tab_mask;
    while (p->tab[i].used) {
        if (p->tab[i].id == m->id)
            return -1; /* already inside */
        i = (i + 1) & p->tab_mask;
    }
    p->tab[i].used = 1;
    p->tab[i].id = m->id;
    p->tab[i].m = *m;
    p->inside++;
    return 0;
}

/* Removes slot s, keeping every probe sequence unbroken. */
static void tab_del(nic_port_t *p, nic_slot_t *s)
{
    uint32_t i = (uint32_t)(s - p->tab);
    if (p->bin_valid && p->bin_id == s->id)
        p->bin_known = 0; /* the block's inputs were this request's */
    p->tab[i].used = 0;
    p->inside--;
    for (uint32_t j = (i + 1) & p->tab_mask; p->tab[j].used; j = (j + 1) & p->tab_mask) {
        nic_slot_t e = p->tab[j];
        p->tab[j].used = 0;
        uint32_t k = (e.id * 2654435761u) & p->tab_mask;
        while (p->tab[k].used)
            k = (k + 1) & p->tab_mask;
        p->tab[k] = e;
    }
}

static int tab_grow(nic_port_t *p)
{
    uint32_t ncap = (p->tab_mask + 1) * 2;
    nic_slot_t *old = p->tab;
    uint32_t oldcap = p->tab_mask + 1;
    p->tab = calloc(ncap, sizeof(*p->tab));
    if (!p->tab) {
        p->tab = old;
        return -1;
    }
    p->tab_mask = ncap - 1;
    p->inside = 0;
    for (uint32_t i = 0; i < oldcap; i++) {
        if (!old[i].used)
            continue;
        tab_put(p, &old[i].m);
        nic_slot_t *s = tab_find(p, old[i].id);
        s->ctx_wait = old[i].ctx_wait;
        s->ctx_ready = old[i].ctx_ready;
    }
    free(old);
    return 0;
}

/* ---- the block's inputs ---- */

/* A well-mixed 64-bit hash (splitmix64's finaliser). */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint32_t nic_jetty_of(uint64_t op, int jetties, uint64_t seed)
{
    if (jetties <= 1)
        return 0;
    return (uint32_t)(mix64(op ^ seed) % (uint64_t)jetties);
}

static void block_fixed_inputs(nic_port_t *p)
{
    const nic_block_use_t *u = &p->use;
    uint32_t len = (uint32_t)(u->payload >= 0 ? u->payload : 64);
    memset(&p->bin, 0, sizeof(p->bin));
    p->bin_known = 0;
    if (u->kind == NIC_BLOCK_UB_SEND) {
        ub_tx_in_t *in = &p->bin.ub;
        in->wr_opcode = u->initiator ? UB_TA_READ : UB_TA_READ_RESP;
        in->wr_mode = URMA_OT;
        in->wr_order = UB_ORDER_NO;
        in->wr_dst = u->initiator ? 1 : 0; /* the other node */
        in->wr_len = len;
        in->wr_token = 0x5eed;
        in->cfg_tpn_base = 0x100;
        in->cfg_mtu_log2 = (uint8_t)u->mtu_log2;
    } else {
        rc_send_pipeline_in_t *in = &p->bin.rc;
        in->wr_qpn = 1; /* one connection */
        in->wr_opcode = u->initiator ? RC_OP_READ_REQUEST : 0x10 /* READ RESPONSE ONLY */;
        in->wr_len = len;
        in->wr_rkey = 0x5eed;
        in->cfg_mtu_log2 = (uint8_t)u->mtu_log2;
    }
}

/* The packet opcode of request m's packet through this NIC: the request at
 * the initiator, its response (read) or acknowledgement at the target. */
static uint8_t ub_opcode(int initiator, uint8_t opc)
{
    if (initiator)
        return opc == MSG_OP_WRITE ? UB_TA_WRITE : opc == MSG_OP_SEND ? UB_TA_SEND : UB_TA_READ;
    return opc == MSG_OP_READ ? UB_TA_READ_RESP : UB_TA_TAACK;
}

static uint8_t rc_opcode(int initiator, uint8_t opc)
{
    if (initiator)
        return opc == MSG_OP_WRITE  ? RC_OP_WRITE_ONLY
               : opc == MSG_OP_SEND ? RC_OP_SEND_ONLY
                                    : RC_OP_READ_REQUEST;
    return opc == MSG_OP_READ ? 0x10 /* READ RESPONSE ONLY */ : 0x11 /* ACKNOWLEDGE */;
}

uint8_t nic_port_opcode(int ub, int initiator, uint8_t opc)
{
    return ub ? ub_opcode(initiator, opc) : rc_opcode(initiator, opc);
}

/* The block's per-request inputs for request m (or the idle values). The
 * Jetty is the one the request was posted on; the idle values are a read's
 * of the configured length. */
static void fill_block_inputs(nic_port_t *p, const msg_t *m)
{
    uint64_t op = m ? m->op : 0;
    uint8_t opc = m ? m->opc : MSG_OP_READ;
    /* the length the packet header names: the request's (a read's, or the
     * data a write or a send carries), a read response's data; an
     * acknowledgement of a write or a send names the request's too */
    uint32_t len = m ? m->len : (uint32_t)(p->use.payload >= 0 ? p->use.payload : 64);
    if (m && (m->flags & MSG_NAK))
        len = 0; /* a refusal carries nothing: one packet */
    p->bin_known = 1;
    p->bin_valid = m != NULL;
    p->bin_id = m ? m->id : 0;
    if (p->use.kind == NIC_BLOCK_UB_SEND) {
        ub_tx_in_t *in = &p->bin.ub;
        in->wr_valid = m != NULL;
        in->wr_jetty = !m ? p->idle_jetty : p->req_jetty ? p->req_jetty(p->req_ctx, m) : m->jetty;
        in->wr_addr = op * 64u;
        in->wr_tag = m ? m->id : 0;
        in->wr_opcode = ub_opcode(p->use.initiator, opc);
        in->wr_len = len;
        /* the request's mode, order and fence; a response waits for nothing */
        uint8_t mode = m ? (uint8_t)(m->ord >> 3) : 0;
        in->wr_mode = mode ? mode : URMA_OT;
        in->wr_order = m && p->use.initiator ? (uint8_t)(m->ord & 3u) : UB_ORDER_NO;
        in->wr_fence = m && p->use.initiator ? (uint8_t)((m->ord >> 2) & 1u) : 0;
        /* the channel is the destination's: the target's, or the requester's */
        in->wr_dst = m ? (p->use.initiator ? m->dst : m->src) : (p->use.initiator ? 1 : 0);
    } else {
        rc_send_pipeline_in_t *in = &p->bin.rc;
        in->wr_valid = m != NULL;
        in->wr_addr = op * 64u;
        in->wr_tag = m ? m->id : 0;
        in->wr_opcode = rc_opcode(p->use.initiator, opc);
        in->wr_len = len;
        /* one queue pair per connection: the target answers each requester
         * on a queue pair of its own */
        in->wr_qpn = 1 + (m && !p->use.initiator ? m->src : 0);
    }
}

/* The block's inputs at an edge: those of the request in the stage
 * pipeline's last slot (or the idle values), worked out again only when that
 * request changes (an id is unique among the requests inside, and bin is
 * forgotten when its request leaves), and the consumer's ready. */
static inline void block_inputs(nic_port_t *p, int out_ready)
{
    int v = p->pout.out_valid;
    if (!p->bin_known || v != p->bin_valid || (v && p->bin_id != p->pout.out_tag)) {
        const msg_t *m = NULL;
        if (v) {
            nic_slot_t *s = tab_find(p, p->pout.out_tag);
            m = s ? &s->m : NULL;
        }
        fill_block_inputs(p, m);
    }
    if (p->use.kind == NIC_BLOCK_UB_SEND)
        p->bin.ub.pkt_ready = (uint8_t)out_ready;
    else
        p->bin.rc.pkt_ready = (uint8_t)out_ready;
}

/* The port's output register: valid, and the id it holds. */
static int out_valid(const nic_port_t *p, uint32_t *id)
{
    switch (p->use.kind) {
    case NIC_BLOCK_UB_SEND:
        *id = p->bout.ub.pkt_tag;
        return p->bout.ub.pkt_valid;
    case NIC_BLOCK_RC_SEND:
        *id = p->bout.rc.pkt_tag;
        return p->bout.rc.pkt_valid;
    default:
        *id = p->pout.out_tag;
        return p->pout.out_valid;
    }
}

/* ---- waveform ---- */

static void wave_wires(nic_port_t *p, tick_t t)
{
    wave_t *w = p->wave;
    wave_time(w, p->wave_offset_ps + (uint64_t)(t / p->wave_per_ps));
    uint32_t id;
    int valid = out_valid(p, &id);
    const msg_t *h = chan_peek(p->in, t);
    wave_set(w, p->w_in_valid, h != NULL);
    if (h)
        wave_set(w, p->w_in_tag, h->id);
    wave_set(w, p->w_in_ready, p->pout.in_ready);
    wave_set(w, p->w_out_valid, (uint64_t)valid);
    if (valid)
        wave_set(w, p->w_out_tag, id);
    uint64_t slots = nic_pipe_slot_mask(&p->pipe);
    wave_set(w, p->w_slots, slots);
    for (int k = 0; k < p->pipe.cfg.n_stages; k++)
        wave_set(w, p->w_stage[k], (slots & p->stage_mask[k]) != 0);
}

/* ---- one edge ---- */

static void nic_eval(comp_t *c, tick_t now)
{
    nic_port_t *p = (nic_port_t *)c;
    p->acc_valid = 0;
    if (p->pout.in_ready && chan_peek(p->in, now)) {
        p->acc = chan_pop(p->in, now);
        p->acc_valid = 1;
    }
    p->cmp_valid = 0;
    if (p->cmp_in && chan_peek(p->cmp_in, now)) {
        msg_t m = chan_pop(p->cmp_in, now);
        p->cmp_valid = 1;
        p->cmp_q = (uint8_t)(m.jetty & (UBSP_NUM_QUEUES - 1));
    }
}

/* Edges the port slept through (see next_wake), applied at once: nothing
 * entered, nothing left, no output of the block changed; the stage pipeline
 * moved on by itself, or held its oldest request in its last slot, offered
 * to a block that was not ready. */
static int step_block(nic_port_t *p, tick_t now);

static void catch_up(nic_port_t *p, tick_t now)
{
    tick_t e1 = p->take_at;
    p->take_at = -1;
    if (e1 >= 0 && now > e1) {
        /* the edge at which the block took the lone request from the stage
         * pipeline (a step: it cannot fail on the C model), then the quiet
         * edges after it */
        tick_t period = p->c.clk->period;
        block_inputs(p, 1);
        nic_pipe_in_t in = {0, 0, p->use.kind == NIC_BLOCK_UB_SEND ? p->bout.ub.wr_ready
                                                                    : p->bout.rc.wr_ready};
        (void)step_block(p, e1);
        nic_pipe_step(&p->pipe, &in, &p->pout);
        int64_t n = (now - e1) / period - 1;
        if (n > 0) {
            block_inputs(p, 1);
            block_advance(p->blk, &p->bin, n);
        }
        p->last_edge = now;
        return;
    }
    if (p->last_edge >= 0 && p->inside > 0 && now != p->last_edge + p->c.clk->period) {
        int64_t skipped = (now - p->last_edge) / p->c.clk->period - 1;
        if (p->pout.out_valid)
            nic_pipe_advance_held(&p->pipe, skipped);
        else
            nic_pipe_advance(&p->pipe, skipped);
        if (p->blk) {
            block_inputs(p, 1);
            block_advance(p->blk, &p->bin, skipped);
        }
    }
    p->last_edge = now;
}

static tick_t next_wake(nic_port_t *p, tick_t now);

static tick_t next_wake_(nic_port_t *p, tick_t now)
{
    tick_t period = p->c.clk->period;
    if (p->lost)
        return TICK_NEVER;
    tick_t in_t = chan_next_time(p->in, now);
    if (p->inside == 0)
        return in_t == TICK_NEVER ? TICK_NEVER : (in_t > now ? in_t : now + period);
    if (p->offer && p->offer_last && p->inside == 1 && p->fast_forward && !p->blk_time &&
        p->out->dst && !p->out->dst->clk && p->out->ready_at <= now + period &&
        (in_t == TICK_NEVER || in_t > now + period)) {
        /* its only request is offered to an event-timed part that is sure to
         * take it at the next edge (it always takes, or it published its
         * ready): the port sleeps through that edge and applies it when it
         * next wakes, for an input or never */
        p->lazy_at = now + period;
        return in_t;
    }
    if (p->offer || !p->fast_forward || p->ctx_gated)
        return now + period;
    int64_t k;
    if (p->blk) {
        /* a block that can jump over edges in which, with its inputs held,
         * no output changes (so its ready holds too): the stage pipeline
         * moves on meanwhile, up to its last slot */
        if (!p->blk_jump)
            return now + period;
        block_inputs(p, 1);
        if ((k = block_quiet(p->blk, &p->bin)) == 0) {
            /* its only request at the stage pipeline's output, offered to
             * the empty block: it takes it at the next edge, and may then
             * go on by itself (catch_up applies both) */
            if (p->inside != 1 || p->pipe.count != 1 || !p->pout.out_valid ||
                (k = block_quiet_taking(p->blk, &p->bin)) == 0)
                return now + period;
            p->take_at = now + period;
        }
        k++;
        if (!p->pout.out_valid && p->pipe.count) {
            int64_t e = nic_pipe_edges_to_output(&p->pipe);
            if (e < k)
                k = e;
        }
    } else {
        /* a bare stage pipeline: due when its oldest request reaches the
         * output, or when the input has something to take */
        k = nic_pipe_edges_to_output(&p->pipe);
    }
    tick_t t = now + (k > 1 ? k : 1) * period;
    if (in_t != TICK_NEVER && p->pout.in_ready) {
        tick_t ti = in_t > now ? in_t : now + period;
        if (ti < t)
            t = ti;
    }
    return t;
}

/* The record of `kind` request m reads. */
static uint32_t ctx_record(const nic_port_t *p, int kind, const msg_t *m)
{
    switch (kind) {
    case CTX_JETTY:
        return p->req_jetty ? p->req_jetty(p->req_ctx, m) : m->jetty;
    case CTX_CHANNEL: /* the channel to the other end */
        return p->rx_at_target ? m->src : m->dst;
    case CTX_QP:
        return p->rx_at_target ? 1u + m->src : 1u;
    default:
        return m->jetty;
    }
}

/* The records request m reads, looked up as it enters: 0, or -1 after a
 * failure. */
static int lookups(nic_port_t *p, const msg_t *m, tick_t now)
{
    nic_slot_t *s = tab_find(p, m->id);
    s->ctx_wait = 0;
    s->ctx_ready = -1;
    for (int i = 0; i < p->n_ctx; i++) {
        /* presented at this edge: a hit is in hit_edges later, known now; a
         * miss answers when the cache steps its answer (ctx_answer) */
        int kind = p->ctx_kind[i];
        char err[384];
        tick_t in;
        int rc = ctx_cache_present(p->ctx[i], m->id, (unsigned)kind, ctx_record(p, kind, m),
                                   kind != CTX_SEGMENT, (uint32_t)m->op, now, &in, err, sizeof err);
        if (rc < 0) {
            kernel_fail(p->c.k, "%s NIC at cycle %lld: %s", p->where,
                        (long long)(now / p->c.clk->period), err);
            return -1;
        }
        if (rc == 1) {
            if (in + p->ctx_after > s->ctx_ready)
                s->ctx_ready = in + p->ctx_after;
        } else {
            s->ctx_wait++;
            p->ctx_pending++;
        }
    }
    return 0;
}

/* A record of request id is in from time t: it may leave once the last is. */
static void ctx_answer(void *ctx, uint32_t id, tick_t t)
{
    nic_port_t *p = ctx;
    nic_slot_t *s = tab_find(p, id);
    if (!s || s->ctx_wait == 0)
        return;
    s->ctx_wait--;
    p->ctx_pending--;
    /* (the caches are run one after the other: the latest answer counts) */
    if (t + p->ctx_after > s->ctx_ready)
        s->ctx_ready = t + p->ctx_after;
}

/* The caches run through this edge (what they answered before it is known). */
static int ctx_run(nic_port_t *p, tick_t now)
{
    for (int i = 0; i < p->n_ctx; i++) {
        char err[256];
        if (ctx_cache_run(p->ctx[i], now, err, sizeof err)) {
            kernel_fail(p->c.k, "%s NIC at cycle %lld: %s", p->where,
                        (long long)(now / p->c.clk->period), err);
            return -1;
        }
    }
    return 0;
}

/* Whether request id (in the output register) waits for its contexts at
 * `now`. */
static int ctx_late(nic_port_t *p, uint32_t id, tick_t now)
{
    const nic_slot_t *s = tab_find(p, id);
    return s && (s->ctx_wait > 0 || s->ctx_ready > now);
}

void nic_port_contexts_kept(nic_port_t *p)
{
    p->ctx_pass = 1;
}

int nic_port_contexts(nic_port_t *p, int kind, ctx_cache_t *cc, tick_t after)
{
    if (p->n_ctx == CTX_MAX_KINDS)
        return -1;
    p->ctx_after = after;
    p->ctx_kind[p->n_ctx] = kind;
    p->ctx[p->n_ctx] = cc;
    p->n_ctx++;
    cc->answer = ctx_answer;
    cc->answer_ctx = p;
    return 0;
}

static int edge_tail(nic_port_t *p, tick_t now, int moved);

/* A lockstep mismatch at the edge at `now`: the run fails. */
static int block_failed(nic_port_t *p, tick_t now)
{
    kernel_t *k = p->c.k;
    kernel_fail(k,
                "lockstep mismatch between the C model and the RTL of the %s NIC's %s at NIC "
                "cycle %lld (%.3f ns; the block's own cycle count is in the report above)",
                p->where, nic_block_name(p->use.kind), (long long)(now / p->c.clk->period),
                (double)now / (double)k->tb.per_ps / 1000.0);
    return -1;
}

/* The block's edge at now, on the inputs in p->bin: 0, or -1 after a
 * lockstep mismatch (the run fails). */
static int step_block(nic_port_t *p, tick_t now)
{
    uint64_t now_ps = p->blk_time ? (uint64_t)(now / p->c.k->tb.per_ps) : 0;
    if (!block_step(p->blk, &p->bin, &p->bout, now_ps))
        return 0;
    return block_failed(p, now);
}

/* The consumer took the offer (the channel recorded the take): its request
 * leaves with its last packet (a multi-packet message stays for its next). */
static void taken_offer(nic_port_t *p)
{
    uint32_t id;
    out_valid(p, &id);
    nic_slot_t *s = tab_find(p, id);
    if (s && p->offer_last)
        tab_del(p, s);
    p->offer = 0;
}

/* One edge after the skipped ones: the handshakes, the block, the stage
 * pipeline, a new offer. Returns 0, or -1 after a failure. */
static int edge(nic_port_t *p, tick_t now)
{
    comp_t *c = &p->c;
    kernel_t *k = c->k;
    catch_up(p, now);
    p->pushed = 0;
    /* the consumer's side of the handshake at this edge */
    int taken = 0;
    if (p->offer && chan_taken_at(p->out, now)) {
        taken_offer(p);
        taken = 1;
    }
    /* (an output held back for its contexts is not the consumer's yet) */
    int out_ready = taken || (!p->offer && !p->ctx_gated && p->out->ready_at <= now);
    if (p->acc_valid && !nic_port_rx_accept(p, &p->acc))
        p->acc_valid = 0; /* refused: taken from the link, never executed */
    int moved = taken || p->acc_valid;

    nic_pipe_in_t in = {0, 0, 1};
    if (p->acc_valid) {
        in.in_valid = 1;
        in.in_tag = p->acc.id;
    }
    if (p->blk) {
        in.out_ready = p->use.kind == NIC_BLOCK_UB_SEND ? p->bout.ub.wr_ready : p->bout.rc.wr_ready;
        block_inputs(p, out_ready);
        if (p->use.kind == NIC_BLOCK_UB_SEND) { /* a completion, at this edge only */
            p->bin.ub.cmp_valid = (uint8_t)p->cmp_valid;
            p->bin.ub.cmp_q = p->cmp_q;
        }
        /* (an empty block offered nothing is not stepped: as at the edges
         * the port sleeps through, nothing in it would change; the waveform
         * shows every edge the port runs) */
        if ((!p->blk_empty || p->pout.out_valid || p->cmp_valid || p->wave) && step_block(p, now))
            return -1;
        p->bin.ub.cmp_valid = 0;
        p->cmp_valid = 0;
    } else {
        in.out_ready = (uint8_t)out_ready;
    }
    if (!nic_pipe_settled(&p->pipe, &in))
        nic_pipe_step(&p->pipe, &in, &p->pout);
    if (p->acc_valid) {
        /* it waited for this port's clock edge from when it became visible */
        tick_t edge = p->acc.t == now ? now : clock_edge_at_or_after(c->clk, p->acc.t);
        if (p->arrive_point != CHAN_NO_PROBE)
            kernel_probe(k, p->arrive_point, p->acc.id, p->acc.t);
        kernel_probe(k, p->align_point, p->acc.id, edge);
        if (tab_put(p, &p->acc)) {
            kernel_fail(k, "cycle %lld: request %u entered the %s NIC's pipeline twice",
                        (long long)(now / c->clk->period), p->acc.id, p->where);
            return -1;
        }
        if (p->n_ctx && lookups(p, &p->acc, now))
            return -1;
        p->acc_valid = 0;
    }
    p->blk_empty = p->inside == 0;
    return edge_tail(p, now, moved);
}

/* The rest of an edge, after the block and the stage pipeline stepped
 * (moved: a request entered or left at it): the contexts, a new offer, the
 * waveform, the watch for requests lost inside. */
static int edge_tail(nic_port_t *p, tick_t now, int moved)
{
    comp_t *c = &p->c;
    kernel_t *k = c->k;
    uint32_t id;
    /* (the caches run up to this edge when an answer is owed: a hit's time
     * is known when it is looked up, and the cache steps its answer when it
     * next runs) */
    if (p->ctx_pending && ctx_run(p, now))
        return -1;
    p->ctx_gated = 0;
    if (!p->offer && p->n_ctx && !p->in_message && out_valid(p, &id) && ctx_late(p, id, now)) {
        p->ctx_gated = 1; /* held until its contexts are in */
        p->ctx_stalls++;
        moved = 1;
    }
    if (!p->offer && !p->ctx_gated && out_valid(p, &id)) {
        nic_slot_t *s = tab_find(p, id);
        if (!s) {
            kernel_fail(k,
                        "cycle %lld: the %s NIC's pipeline emitted tag %u, which is not a request "
                        "in flight there (a packet was duplicated or corrupted)",
                        (long long)(now / c->clk->period), p->where, id);
            return -1;
        }
        msg_t m = s->m;
        p->offer_last = 1;
        if (p->use.kind == NIC_BLOCK_UB_SEND) {
            m.kind = MSG_PACKET;
            m.psn = p->bout.ub.pkt_psn;
            m.tpn = p->bout.ub.pkt_dst_tpn;
            m.tassn = p->bout.ub.pkt_tassn;
            m.jetty = p->bout.ub.pkt_jetty;
            m.last = p->bout.ub.pkt_last;
            uint32_t plen = p->bout.ub.pkt_len;
            if (!m.last) {
                /* one MTU segment of the message: it carries no bytes (the
                 * last does) and ends at the receiving NIC */
                m.flags |= MSG_SEG;
                m.data = 0;
                m.seg_len = plen;
                p->offer_last = 0;
            } else if (plen != m.len) {
                m.seg_len = plen; /* the last segment of several */
            }
        } else if (p->use.kind == NIC_BLOCK_RC_SEND) {
            m.kind = MSG_PACKET;
            m.psn = p->bout.rc.pkt_psn;
            m.tpn = p->bout.rc.pkt_dqpn;
            uint8_t op = p->bout.rc.pkt_opcode;
            /* a FIRST or MIDDLE packet of a SEND, WRITE or READ RESPONSE */
            m.last = !(op == RC_OP_SEND_FIRST || op == RC_OP_SEND_MIDDLE ||
                       op == RC_OP_WRITE_FIRST || op == RC_OP_WRITE_MIDDLE ||
                       op == RC_OP_READ_RESP_FIRST || op == RC_OP_READ_RESP_MIDDLE);
            uint32_t plen = p->bout.rc.pkt_len;
            if (!m.last) {
                m.flags |= MSG_SEG;
                m.data = 0;
                m.seg_len = plen;
                p->offer_last = 0;
            } else if (plen != m.len) {
                m.seg_len = plen; /* the last segment of several */
            }
        }
        if (p->in_message)
            m.flags |= MSG_NOT_FIRST; /* its message's first packet has left */
        else if (p->on_issue)
            p->on_issue(p->issue_ctx, &m, now);
        p->in_message = !p->offer_last;
        if (p->blk && !p->use.initiator) {
            /* a response goes back where its request came from */
            m.dst = s->m.src;
            m.src = s->m.dst;
        }
        m.t = now + c->clk->period; /* a register: seen from the next edge */
        if (p->emit && p->offer_last)
            p->emit(p->emit_ctx, &m, now);
        if (chan_push(p->out, &m, now)) {
            kernel_fail(k, "internal: %s: no room in '%s'", c->name, p->out->name);
            return -1;
        }
        p->offer = 1;
        p->pushed = 1;
        moved = 1;
    }
    if (p->wave)
        wave_wires(p, now);
    /* requests inside that never move again were lost by the block */
    if (p->inside > 0 && !moved && !p->offer) {
        if (++p->stalled_edges > STUCK_EDGES)
            p->lost = 1;
    } else {
        p->stalled_edges = 0;
    }
    return 0;
}

/* The edge at which the consumer took the offer, applied late: the port
 * slept through it, being sure of the take (see next_wake). */
static int lazy_take(nic_port_t *p)
{
    tick_t e = p->lazy_at;
    p->lazy_at = -1;
    if (!chan_taken_at(p->out, e)) {
        kernel_fail(p->c.k, "internal: %s: its output was not taken at the edge it was sure of",
                    p->c.name);
        return -1;
    }
    if (p->blk && !p->pipe.count && !p->wave && !p->ctx_pending) {
        /* (the edge as edge() would run it, with nothing taken from the
         * input, no completion and an empty stage pipeline: the take, the
         * block's edge, and an offer if the block has a next packet) */
        p->last_edge = e;
        taken_offer(p);
        block_inputs(p, 1);
        if (p->use.kind == NIC_BLOCK_UB_SEND)
            p->bin.ub.cmp_valid = 0;
        if (step_block(p, e))
            return -1;
        p->blk_empty = p->inside == 0;
        return edge_tail(p, e, 1);
    }
    msg_t acc = p->acc;
    int acc_valid = p->acc_valid; /* taken at the current edge, not at e */
    int cmp_valid = p->cmp_valid;
    p->acc_valid = 0;
    p->cmp_valid = 0;
    int rc = edge(p, e);
    p->acc = acc;
    p->acc_valid = acc_valid;
    p->cmp_valid = cmp_valid;
    return rc;
}

static tick_t nic_commit(comp_t *c, tick_t now)
{
    nic_port_t *p = (nic_port_t *)c;
    if (p->lazy_at >= 0 && now > p->lazy_at && lazy_take(p))
        return TICK_NEVER;
    p->lazy_at = -1;
    if (edge(p, now))
        return TICK_NEVER;
    return next_wake(p, now);
}

/* ... or earlier, for a completion the order tracker is to see while a
 * request waits for it. (With nothing held back a completion changes only a
 * count, which matters to the next request: it is taken at the next edge
 * the port runs anyway, with that request at the latest.) */
static tick_t next_wake(nic_port_t *p, tick_t now)
{
    tick_t t = next_wake_(p, now);
    if (p->cmp_in && !p->lost && p->bout.ub.held) {
        tick_t ct = chan_next_time(p->cmp_in, now);
        if (ct != TICK_NEVER) {
            ct = ct > now ? ct : now + p->c.clk->period;
            if (ct < t) {
                t = ct;
                p->lazy_at = p->lazy_at >= t ? -1 : p->lazy_at;
            }
        }
    }
    return t;
}

/* Edges from `now` (before `horizon`) at which only a block that cannot
 * jump (RTL, lockstep) works: a request inside it, nothing in the stage
 * pipeline, nothing to take from the input or the completions, nothing
 * offered, no context owed, no waveform. Each is the edge the port would
 * run - the block stepped with its idle request inputs and the consumer's
 * ready - without the rest of the edge's bookkeeping; an edge at which the
 * block comes out with a packet is finished as a whole edge. Returns the
 * first edge not run. */
static tick_t block_edges(nic_port_t *p, tick_t now, tick_t horizon, uint64_t *edges)
{
    comp_t *c = &p->c;
    tick_t period = c->clk->period;
    tick_t limit = horizon;
    tick_t ti = chan_next_time(p->in, now);
    if (ti < limit)
        limit = ti;
    if (p->cmp_in && (ti = chan_next_time(p->cmp_in, now)) < limit)
        limit = ti;
    if (now >= limit || p->inside <= 0 || p->offer || p->lazy_at >= 0 || p->ctx_gated ||
        p->ctx_pending || p->wave || p->pipe.count || p->pout.out_valid || p->lost)
        return now;
    uint32_t id;
    if (out_valid(p, &id))
        return now; /* (an offer to make: a whole edge) */
    /* until the block offers a packet nothing else changes: its request
     * inputs stay the idle ones, its pkt_ready follows the consumer's (which
     * rises at most once). The edges with the same inputs are one
     * block_run, which ends at the edge the packet comes out; a block that
     * wants the time (lockstep, a trace) is stepped edge by edge. */
    block_inputs(p, p->out->ready_at <= now);
    int ub = p->use.kind == NIC_BLOCK_UB_SEND;
    uint8_t *ready = ub ? &p->bin.ub.pkt_ready : &p->bin.rc.pkt_ready;
    size_t watch = ub ? offsetof(ub_tx_out_t, pkt_valid) : offsetof(rc_send_pipeline_out_t, pkt_valid);
    do {
        *ready = (uint8_t)(p->out->ready_at <= now);
        /* the edges from now: before the limit, before the consumer's ready
         * rises, and up to the one at which the watch below trips */
        tick_t until = !*ready && p->out->ready_at < limit ? p->out->ready_at : limit;
        int64_t n = STUCK_EDGES + 1 - p->stalled_edges;
        if ((until - now - 1) / period + 1 < n)
            n = (until - now - 1) / period + 1;
        int64_t r = 1;
        if (p->blk_time) {
            if (step_block(p, now))
                return TICK_NEVER;
        } else if ((r = block_run(p->blk, &p->bin, &p->bout, n, watch)) < 0) {
            block_failed(p, now + (-r - 1) * period);
            return TICK_NEVER;
        }
        now += (r - 1) * period; /* the last edge run */
        p->last_edge = now;
        *edges += (uint64_t)r;
        p->stalled_edges += r - 1; /* (the edges before it offered nothing) */
        if (out_valid(p, &id)) {
            /* the rest of the edge: the offer (or the hold for its
             * contexts), after which a whole edge is due */
            if (edge_tail(p, now, 0))
                return TICK_NEVER;
            return now + period;
        }
        /* (of the rest of the edge, only the watch for requests lost
         * inside has work) */
        if (++p->stalled_edges > STUCK_EDGES) {
            p->lost = 1;
            return now + period;
        }
        now += period;
    } while (now < limit);
    return now;
}

static tick_t nic_run(comp_t *c, tick_t now, tick_t horizon, uint64_t *edges)
{
    nic_port_t *p = (nic_port_t *)c;
    tick_t period = c->clk->period;
    for (;;) {
        nic_eval(c, now);
        tick_t next = nic_commit(c, now);
        (*edges)++;
        if (p->pushed || c->k->failed || next >= horizon)
            return next;
        if (next != now + period) {
            /* a jump: nothing reaches the port before the horizon and
             * nothing was woken, so its next edge is run here, as the kernel
             * would run it next */
            tick_t e = clock_edge_at_or_after(c->clk, next);
            if (e >= horizon || c->k->r_n)
                return next;
            now = e;
            continue;
        }
        now = next;
        if (p->blk && !p->blk_jump) {
            tick_t first = now;
            now = block_edges(p, now, horizon, edges);
            if (c->k->failed)
                return TICK_NEVER;
            if (now != first) {
                /* (the edge after the last one run: as next_wake would say) */
                if (p->pushed || now >= horizon || p->lost)
                    return next_wake(p, now - period);
            }
        }
    }
}

static const comp_ops_t nic_ops = {.eval = nic_eval, .commit = nic_commit, .run = nic_run};

/* ---- as a link of a chain ---- */

int nic_port_can_pass(const nic_port_t *p)
{
    return !p->blk && !p->wave && p->fast_forward && p->pipe.depth >= 1 &&
           (!p->n_ctx || p->ctx_pass);
}

tick_t nic_port_take(const nic_port_t *p, tick_t t)
{
    tick_t seen = clock_edge_at_or_after(p->c.clk, t);
    return p->last_edge >= 0 && seen <= p->last_edge ? p->last_edge + p->c.clk->period : seen;
}

int nic_port_rx_accept(nic_port_t *p, msg_t *m)
{
    if (!p->rx) {
        if (!(m->flags & (MSG_CORRUPT | MSG_COPY))) {
            if (m->flags & MSG_SEG) {
                p->segments++;
                return 0;
            }
            m->seg_len = 0;
            m->flags &= (uint8_t)~MSG_NOT_FIRST;
            return 1;
        }
        kernel_drop(p->c.k, m); /* nothing to tell them apart by */
        p->flag_drops++;
        return 0;
    }
    pkt_hdr_t h;
    memset(&h, 0, sizeof(h));
    h.proto = p->rx->cfg.proto;
    /* what the sending NIC put in the header: at the target, the request
     * (the initiator's transmit pipeline sent it), at the initiator its
     * response or acknowledgement */
    uint8_t op = nic_port_opcode(h.proto == PKT_UB, p->rx_at_target, m->opc);
    if (h.proto == PKT_UB) {
        h.tp_opcode = UB_TP_RELIABLE;
        h.ta_opcode = op;
        h.last = m->last;
        h.tassn = m->tassn;
        h.jetty = m->jetty;
    } else {
        h.tp_opcode = op;
    }
    h.len = m->len;
    h.dst_tpn = m->tpn;
    h.psn = m->psn;
    if (p->hdr_fields)
        p->hdr_fields(p->hdr_ctx, m, &h);
    rx_reason_t why = rx_check_fields_from(p->rx, &h, !(m->flags & MSG_CORRUPT), m->src);
    if (why == RX_TASSN || why == RX_BAD_TOKEN || why == RX_OUT_OF_SEGMENT || why == RX_NO_ACCESS) {
        /* in sequence, but refused by the transaction layer: not executed;
         * the target answers with a negative acknowledgement */
        m->flags |= MSG_NAK;
    } else if (why != RX_OK) {
        kernel_drop(p->c.k, m);
        return 0;
    }
    m->flags &= (uint8_t)~MSG_COPY; /* its original was refused: this one goes on */
    if (m->flags & MSG_SEG) {
        p->segments++; /* in sequence: its message goes on with its last packet */
        return 0;
    }
    m->seg_len = 0;
    m->flags &= (uint8_t)~MSG_NOT_FIRST;
    return 1;
}

tick_t nic_port_pass(nic_port_t *p, msg_t *m, tick_t t)
{
    /* taken at an edge (one per edge), then checked: a refused packet has
     * used its edge, as in the clocked port */
    uint32_t id = m->id;
    tick_t edge = nic_port_take(p, t);
    p->last_edge = edge;
    if (!nic_port_rx_accept(p, m))
        return TICK_NEVER;
    if (p->arrive_point != CHAN_NO_PROBE)
        kernel_probe(p->c.k, p->arrive_point, id, t);
    kernel_probe(p->c.k, p->align_point, id, clock_edge_at_or_after(p->c.clk, t));
    tick_t period = p->c.clk->period;
    tick_t out = edge + (tick_t)(p->pipe.depth - 1) * period; /* in its output register */
    for (int i = 0; i < p->n_ctx; i++) {
        /* its records, looked up as it enters: each hits, in (with the rest
         * of the pipeline from the stage that reads them) before it reaches
         * the output (nic_port_contexts_kept) */
        char err[384];
        tick_t in;
        int kind = p->ctx_kind[i];
        if (ctx_cache_pass(p->ctx[i], id, (unsigned)kind, ctx_record(p, kind, m),
                           kind != CTX_SEGMENT, (uint32_t)m->op, edge, &in, err, sizeof err)) {
            kernel_fail(p->c.k, "%s NIC at cycle %lld: %s", p->where, (long long)(edge / period),
                        err);
            return TICK_NEVER;
        }
        if (in + p->ctx_after > out) {
            kernel_fail(p->c.k, "internal: %s NIC at cycle %lld: the contexts of request %u are "
                        "in after it reached the output", p->where, (long long)(edge / period), id);
            return TICK_NEVER;
        }
    }
    tick_t leave = out + period;
    kernel_probe(p->c.k, p->nic_point, id, leave);
    if (p->emit)
        p->emit(p->emit_ctx, m, leave);
    return leave;
}

int nic_port_init(nic_port_t *p, const char *name, const clockdom_t *clk, const nic_pipe_cfg_t *pc,
                  chan_t *in, chan_t *out, int align_point, int nic_point, const char *where)
{
    memset(p, 0, sizeof(*p));
    snprintf(p->c.name, sizeof(p->c.name), "%s", name);
    p->c.ops = &nic_ops;
    p->c.clk = clk;
    p->in = in;
    p->out = out;
    in->dst = &p->c;
    out->src = &p->c;
    out->pop_point = nic_point;
    out->pop_at_first = 1; /* a message leaves with its first packet */
    nic_pipe_init(&p->pipe, pc);
    nic_pipe_reset(&p->pipe, &p->pout);
    p->align_point = align_point;
    p->nic_point = nic_point;
    p->arrive_point = CHAN_NO_PROBE;
    p->where = where;
    p->last_edge = -1;
    p->lazy_at = -1;
    p->take_at = -1;
    p->fast_forward = 1;
    p->tab_mask = 63;
    p->tab = calloc(p->tab_mask + 1, sizeof(*p->tab));
    return p->tab ? 0 : -1;
}

void nic_port_attach(nic_port_t *p, block_inst_t *blk, const nic_block_use_t *use)
{
    p->blk = blk;
    p->blk_time = block_wants_time(blk);
    p->blk_jump = block_can_jump(blk);
    p->use = *use;
    p->idle_jetty = nic_jetty_of(0, use->jetties, use->seed);
    block_reset(blk);
    /* one idle edge gives the wires after reset (it changes nothing) */
    block_fixed_inputs(p);
    block_inputs(p, 1);
    block_step(blk, &p->bin, &p->bout, 0);
    p->blk_empty = 1;
}

/* A request arriving at the input: in_valid from that moment (it is taken
 * at the port's next edge, or later). */
static void wave_arrival(void *ctx, const msg_t *m, tick_t now)
{
    nic_port_t *p = ctx;
    const msg_t *h = chan_first(p->in);
    if (m->t != now || !h || h->id != m->id)
        return; /* seen later, or behind another request */
    wave_time(p->wave, p->wave_offset_ps + (uint64_t)(now / p->wave_per_ps));
    wave_set(p->wave, p->w_in_valid, 1);
    wave_set(p->wave, p->w_in_tag, m->id);
}

void nic_port_wave(nic_port_t *p, wave_t *w, uint64_t offset_ps, int64_t per_ps, const char *sc,
                   const char *block_scope)
{
    char name[256];
    p->wave = w;
    p->wave_offset_ps = offset_ps;
    p->wave_per_ps = per_ps;
    p->fast_forward = 0;
#define SIG(field, nm, width)                        \
    snprintf(name, sizeof(name), "%s.%s", sc, nm);   \
    p->field = wave_add(w, name, width)
    SIG(w_in_valid, "in_valid_i", 1);
    SIG(w_in_ready, "in_ready_o", 1);
    SIG(w_in_tag, "in_tag_i", 32);
    SIG(w_out_valid, "out_valid_o", 1);
    SIG(w_out_tag, "out_tag_o", 32);
    SIG(w_slots, "slot_valid", p->pipe.depth > 0 ? p->pipe.depth : 1);
#undef SIG
    int slot = 0;
    for (int k = 0; k < p->pipe.cfg.n_stages; k++) {
        snprintf(name, sizeof(name), "%s.st%02d_%s_valid", sc, k, p->pipe.cfg.stage_name[k]);
        p->w_stage[k] = wave_add(w, name, 1);
        p->stage_mask[k] = 0;
        for (int c = 0; c < p->pipe.cfg.stage_cycles[k]; c++)
            p->stage_mask[k] |= 1ull << slot++;
    }
    if (p->blk) {
        block_trace(p->blk, w, block_scope);
        p->blk_time = block_wants_time(p->blk);
        p->blk_jump = block_can_jump(p->blk);
    }
    p->in->on_push = wave_arrival;
    p->in->on_push_ctx = p;
}

void nic_port_wave_now(nic_port_t *p, tick_t t)
{
    if (p->wave)
        wave_wires(p, t);
}

void nic_port_free(nic_port_t *p)
{
    for (int i = 0; i < p->n_ctx; i++) {
        ctx_cache_free(p->ctx[i]);
        free(p->ctx[i]);
    }
    p->n_ctx = 0;
    if (p->blk)
        block_free(p->blk);
    free(p->tab);
    p->tab = NULL;
}
