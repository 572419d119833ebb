/* A node's transport between its NIC pipelines and the wires (see parts.h
 * and docs/transport.md).
 *
 * At each edge it takes at most one packet from its NIC's transmit pipeline
 * (the block's sq), one packet off the wire (rx) and one acknowledgement
 * from the peer (ack), steps the transport block and acts on its outputs:
 * a packet to send or resend goes to the wire, a verdict keeps or drops the
 * packet judged, a delivery hands the next packet in order to the NIC's
 * receive pipeline, an acknowledgement goes to the peer over its lane.
 * Packets leave and arrive as msg_t; the retransmission buffer keeps each
 * packet sent (its descriptor, and a reference to the bytes it carries)
 * until the peer acknowledges it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "packet.h"
#include "parts.h"

#define W_MASK (TP_W - 1)

static void idle_inputs(tp_port_t *t)
{
    t->in.sq_valid = 0;
    t->in.rx_valid = 0;
    t->in.ack_valid = 0;
    t->in.ack_wvalid = 0;
}

/* The wire takes the packet in the output register at `now` when it has
 * taken everything put out before and its link is free by the time a
 * packet put out now would be seen (the wire publishes when its link is
 * free on its input; a wire running ahead in a chain takes a packet the
 * moment it is put out, one that waits for its times when it is due, and
 * both publish the same): the transport runs no further ahead of the link
 * than a packet, and a packet's timer starts as it goes onto the wire, not
 * in a queue in front of it. */
static uint8_t wire_ready(const tp_port_t *t, tick_t now)
{
    return t->tx_out && t->tx_out->count == 0 && t->tx_out->ready_at <= now + t->c.clk->period;
}

void tp_ack_from_block(const transport_out_t *o, const transport_words_t *bmap, uint32_t tpn,
                       pkt_ack_t *a)
{
    memset(a, 0, sizeof *a);
    a->sack = o->ao_kind == TP_SACK;
    a->nak = o->ao_kind == TP_NAK;
    a->src_tpn = a->dst_tpn = tpn;
    a->psn = o->ao_base;
    if (a->sack) {
        a->code = o->ao_code;
        a->hi_psn = o->ao_hi;
        for (unsigned w = 0; w < transport_bmap_words(o->ao_code) && w < bmap->n; w++)
            a->bmap[w] = bmap->w[w];
    }
}

void tp_ack_to_block(const pkt_ack_t *a, transport_in_t *in, transport_words_t *feed)
{
    in->ack_kind = a->sack ? TP_SACK : a->nak ? TP_NAK : TP_ACK;
    in->ack_base = a->psn & TP_PSN_MASK;
    in->ack_hi = a->sack ? a->hi_psn & TP_PSN_MASK : 0;
    in->ack_code = a->sack ? a->code : 0;
    if (a->sack)
        transport_words_start(feed, a->bmap, a->code);
    else
        memset(feed, 0, sizeof *feed);
}

/* RoCE's AETH syndromes: an ACK (no credit count), a NAK for a PSN
 * sequence error. */
#define RC_SYN_ACK 0x1F
#define RC_SYN_NAK_SEQ 0x60
#define RC_ACK_FRAME_BYTES 66 /* BTH + AETH + ICRC in a RoCEv2 frame */

/* The acknowledgement the block puts out, as the bytes of its packet: UB's
 * TPACK (a NAK: its response status) or TPSACK with its bitmap; RoCE's
 * ACKNOWLEDGE, whose BTH PSN is the last PSN received in order (an ACK) or
 * the one expected (a NAK). Returns their number, or 0 (a field out of
 * range: an internal error). */
static size_t ack_encode(const tp_port_t *t, const transport_out_t *o, uint8_t *buf, size_t cap)
{
    pkt_err_t err;
    if (t->ub) {
        pkt_ack_t a;
        tp_ack_from_block(o, &t->ao_words, t->rx_tpn, &a);
        return pkt_ack_encode(&a, buf, cap, &err);
    }
    pkt_hdr_t h;
    memset(&h, 0, sizeof h);
    h.proto = PKT_RC;
    h.tp_opcode = RC_OP_ACKNOWLEDGE;
    h.pkey = 0xFFFF;
    h.dst_tpn = t->rx_tpn;
    int nak = o->ao_kind == TP_NAK;
    h.syndrome = nak ? RC_SYN_NAK_SEQ : RC_SYN_ACK;
    h.psn = nak ? o->ao_base : (o->ao_base - 1u) & TP_PSN_MASK;
    return pkt_encode(&h, NULL, buf, cap, &err);
}

/* An acknowledgement's bytes back into the block's inputs: 0, or -1 when
 * they are not one (malformed: counted and dropped). */
static int ack_decode(tp_port_t *t, const uint8_t *b, size_t n)
{
    transport_in_t *in = &t->in;
    if (t->ub) {
        pkt_ack_t a;
        if (pkt_ack_decode(b, n, &a) != PKT_OK)
            return -1;
        tp_ack_to_block(&a, in, &t->ack_feed);
        return 0;
    }
    pkt_hdr_t h;
    if (pkt_decode(b, n, PKT_RC, &h, NULL) != PKT_OK || h.tp_opcode != RC_OP_ACKNOWLEDGE ||
        (h.syndrome != RC_SYN_ACK && h.syndrome != RC_SYN_NAK_SEQ))
        return -1;
    int nak = h.syndrome == RC_SYN_NAK_SEQ;
    in->ack_kind = nak ? TP_NAK : TP_ACK;
    in->ack_base = nak ? h.psn & TP_PSN_MASK : (h.psn + 1u) & TP_PSN_MASK;
    in->ack_hi = 0;
    in->ack_code = 0;
    return 0;
}

static void tp_eval(comp_t *c, tick_t now)
{
    tp_port_t *t = (tp_port_t *)c;
    kernel_t *k = c->k;
    idle_inputs(t);
    /* (while the wire is busy, what it owes is acknowledged at once when
     * it is free: one acknowledgement for all; a SACK's register is taken
     * once its words are in) */
    t->in.pkt_ready = wire_ready(t, now);
    t->in.ao_ready = t->in.pkt_ready && !transport_words_due(&t->ao_words);
    /* the next word of a SACK received */
    int feeding = transport_words_feed(&t->ack_feed, &t->in);
    const msg_t *h;
    if (t->failed && t->tx_in && (h = chan_peek(t->tx_in, now)) != NULL) {
        /* its channel reached the retry limit: what its NIC sends is lost
         * (the reads end in errors at their timeout) */
        msg_t m = chan_pop(t->tx_in, now);
        t->dropped_failed++;
        kernel_drop(k, &m);
    } else if (t->out.sq_ready && t->tx_in && (h = chan_peek(t->tx_in, now)) != NULL) {
        uint32_t hdl = t->taken & W_MASK;
        if (t->desc_used[hdl]) {
            kernel_fail(k, "internal: %s: the retransmission buffer's slot %u is in use", c->name,
                        hdl);
            return;
        }
        t->desc[hdl] = chan_pop(t->tx_in, now);
        t->desc_used[hdl] = 1;
        t->taken++;
        t->in.sq_valid = 1;
        t->in.sq_ch = 0;
        t->in.sq_hdl = (uint16_t)hdl;
    }
    /* what the wire brings: data packets and the peer's acknowledgements,
     * one of each at most, in the order they came */
    int took_data = 0, took_ack = 0;
    while (t->rx_in && (h = chan_peek(t->rx_in, now)) != NULL) {
        int ack = h->kind == MSG_TPACK;
        /* (an acknowledgement waits while the block takes a SACK's words,
         * or at the edge after it took a header) */
        if (ack ? took_ack || feeding || !t->out.ack_ready : took_data)
            break;
        msg_t m = chan_pop(t->rx_in, now);
        if (ack) {
            took_ack = 1;
            if (m.flags & MSG_CORRUPT) { /* its checksum fails */
                t->acks_corrupt++;
            } else if (!m.data || !k->payloads ||
                       ack_decode(t, payload_bytes(k->payloads, m.data),
                                  payload_len(k->payloads, m.data))) {
                t->acks_malformed++;
            } else {
                t->in.ack_valid = 1;
                t->in.ack_ch = 0;
                t->acks_taken++;
            }
            kernel_drop(k, &m); /* (its bytes are read) */
            continue;
        }
        took_data = 1;
        if (m.flags & MSG_CORRUPT) { /* its checksum fails: gone */
            t->corrupt++;
            kernel_drop(k, &m);
        } else {
            t->in.rx_valid = 1;
            t->in.rx_ch = 0;
            t->in.rx_psn = m.psn & TP_PSN_MASK;
            t->rx_tpn = m.tpn;
            t->rx_pend = m;
        }
    }
}

static tick_t next_wake(tp_port_t *t, tick_t now)
{
    tick_t period = t->c.clk->period, w = TICK_NEVER;
    chan_t *ins[2] = {t->out.sq_ready || t->failed ? t->tx_in : NULL, t->rx_in};
    for (int i = 0; i < 2; i++) {
        if (!ins[i])
            continue;
        tick_t a = chan_next_time(ins[i], now);
        if (a != TICK_NEVER) {
            a = a > now ? a : now + period;
            if (a < w)
                w = a;
        }
    }
    if (t->out.busy) {
        tick_t b = now + period;
        if (t->blk_jump) {
            /* only its timers run: it sleeps until one expires */
            int64_t q = block_quiet(t->blk, &t->in);
            if (q > 0)
                b = q > (TICK_NEVER - now) / period - 2 ? TICK_NEVER : now + (q + 1) * period;
        }
        if (b < w)
            w = b;
    }
    return w;
}

static tick_t tp_commit(comp_t *c, tick_t now)
{
    tp_port_t *t = (tp_port_t *)c;
    kernel_t *k = c->k;
    tick_t period = c->clk->period;
    if (k->failed)
        return TICK_NEVER;
    if (t->blk_jump && t->last_edge >= 0 && now > t->last_edge + period) {
        /* the edges it slept through: only its timers ran (a block that
         * cannot jump is stepped at every edge while busy, and an idle one
         * changes nothing at an edge with no input) */
        transport_in_t held = t->in;
        idle_inputs(t);
        int64_t skip = (now - t->last_edge) / period - 1;
        int64_t q = block_quiet(t->blk, &t->in); /* (0: an output changes, such
                                                    as a timeout's flag falling) */
        if (q > 0 && skip > q) {
            kernel_fail(k, "internal: %s slept through an edge at which its block had work (a "
                        "timer)", c->name);
            return TICK_NEVER;
        }
        block_advance(t->blk, &t->in, skip);
        t->in = held;
    }
    t->last_edge = now;
    uint64_t now_ps = block_wants_time(t->blk) ? (uint64_t)(now / k->tb.per_ps) : 0;
    if (block_step(t->blk, &t->in, &t->out, now_ps)) {
        kernel_fail(k, "lockstep mismatch between the C model and the RTL of the %s transport at "
                    "NIC cycle %lld (the report above has the block's own cycle)",
                    c->name, (long long)(now / period));
        return TICK_NEVER;
    }
    int judged = t->in.rx_valid;
    /* a packet in the output register is new when the register was empty or
     * the wire took the previous one at this edge */
    int fresh = t->out.pkt_valid && (!t->pkt_was_valid || t->in.pkt_ready);
    /* (a SACK's bitmap follows its header, a word an edge: it leaves with
     * the last) */
    int fresh_ack = transport_words_out(&t->ao_words, &t->out,
                                        t->out.ao_valid && (!t->ao_was_valid || t->in.ao_ready));
    t->pkt_was_valid = t->out.pkt_valid;
    t->ao_was_valid = t->out.ao_valid;
    idle_inputs(t);
    const transport_out_t *o = &t->out;
    /* the next packet in order to the NIC (held since an earlier edge) */
    if (o->dlv_valid) {
        uint32_t slot = o->dlv_psn & W_MASK;
        if (!t->held_used[slot] || (t->held[slot].psn & TP_PSN_MASK) != o->dlv_psn) {
            kernel_fail(k, "internal: %s delivered PSN %u, which it does not hold", c->name,
                        o->dlv_psn);
            return TICK_NEVER;
        }
        msg_t m = t->held[slot];
        t->held_used[slot] = 0;
        t->n_held--;
        t->delivered++;
        if (!t->ub) {
            /* RoCE: the packet's header PSN is its send pipeline's, which
             * numbers a read request by the response packets it asks for,
             * and the go-back-N transport numbers each packet: the model
             * reads the header PSN back from the sender's descriptor, which
             * stays until this delivery is acknowledged. (UB's packets
             * carry the one PSN their channel table gave them.) */
            if (!t->peer->desc_used[slot]) {
                kernel_fail(k, "internal: %s delivered PSN %u, whose sender holds no descriptor",
                            c->name, o->dlv_psn);
                return TICK_NEVER;
            }
            m.psn = t->peer->desc[slot].psn;
        }
        m.flags &= (uint8_t)~MSG_QUIET;
        m.t = now + period; /* a register: seen from the next edge */
        if (!(m.flags & MSG_SEG))
            kernel_probe(k, t->rx_point, m.id, m.t);
        if (chan_push(t->rx_out, &m, now)) {
            kernel_fail(k, "internal: %s: no room in '%s'", c->name, t->rx_out->name);
            return TICK_NEVER;
        }
    }
    /* the verdict on the packet taken at the edge before (the block takes
     * it into a register at one edge and judges it at the next) */
    if (t->judging) {
        if (!o->rxv_valid) {
            kernel_fail(k, "internal: %s gave no verdict on PSN %u", c->name, t->rx_judge.psn);
            return TICK_NEVER;
        }
        t->verdict[o->rxv_verdict < 5 ? o->rxv_verdict : 0]++;
        if (o->rxv_verdict == TP_ACCEPT) {
            uint32_t slot = o->rxv_psn & W_MASK;
            if (t->held_used[slot]) {
                kernel_fail(k, "internal: %s accepted PSN %u twice", c->name, o->rxv_psn);
                return TICK_NEVER;
            }
            t->held[slot] = t->rx_judge;
            t->held_used[slot] = 1;
            /* the copy it keeps arrived then (the wire leaves that to it) */
            if (!(t->rx_judge.flags & MSG_SEG))
                kernel_probe(k, t->arrive_point, t->rx_judge.id, t->rx_judge.t);
            if (++t->n_held > t->held_peak)
                t->held_peak = t->n_held;
        } else {
            kernel_drop(k, &t->rx_judge); /* a duplicate, or no room for it: gone */
        }
    }
    t->judging = judged;
    if (judged)
        t->rx_judge = t->rx_pend;
    /* a packet to send: new, or again */
    if (fresh) {
        uint32_t slot = o->pkt_hdl & W_MASK;
        if (!t->desc_used[slot]) {
            kernel_fail(k, "internal: %s sent handle %u, which holds no packet", c->name,
                        o->pkt_hdl);
            return TICK_NEVER;
        }
        msg_t m = t->desc[slot];
        if (t->ub && m.psn != o->pkt_psn) {
            /* UB: the transport sends under the PSN the channel table gave
             * the packet (it numbers the same packets of the same channel
             * from the same first PSN) */
            kernel_fail(k, "internal: %s sent PSN %u for a packet its channel table numbered %u",
                        c->name, o->pkt_psn, m.psn);
            return TICK_NEVER;
        }
        m.psn = o->pkt_psn; /* on the wire: the transport's sequence */
        m.flags &= (uint8_t)~(MSG_COPY | MSG_CORRUPT | MSG_QUIET);
        if (o->pkt_retx) {
            /* the first transmission recorded the probes */
            m.flags |= MSG_QUIET;
            t->resent++;
            /* the data it carries (a read's request carries none, its
             * response the read's bytes; a write's request its data) */
            int data = m.opc == MSG_OP_READ ? !t->tx_fwd && !(m.flags & MSG_NAK) : t->tx_fwd;
            if (data)
                t->resent_bytes += m.seg_len ? m.seg_len : m.len;
        }
        t->sent++;
        if (m.data && k->payloads)
            payload_ref(k->payloads, m.data); /* (the buffer keeps its own) */
        m.t = now + period;
        if (!(m.flags & (MSG_SEG | MSG_QUIET)))
            kernel_probe(k, t->tx_point, m.id, m.t);
        if (chan_push(t->tx_out, &m, now)) {
            kernel_fail(k, "internal: %s: no room in '%s'", c->name, t->tx_out->name);
            return TICK_NEVER;
        }
    }
    /* what the peer acknowledged leaves the buffer */
    uint32_t una = transport_out_una(o, 0);
    while (t->una != una && ((una - t->una) & TP_PSN_MASK) <= TP_W) {
        uint32_t slot = t->una & W_MASK;
        if (t->desc_used[slot] == 1)
            kernel_drop(k, &t->desc[slot]);
        t->desc_used[slot] = 0;
        t->una = (t->una + 1) & TP_PSN_MASK;
    }
    /* an acknowledgement to the peer */
    if (fresh_ack) {
        uint8_t bytes[UB_RTPH_BYTES + PKT_UB_SAETPH_BYTES + TP_W / 8 + PKT_CRC_BYTES];
        size_t n = ack_encode(t, o, bytes, sizeof bytes);
        msg_t a;
        memset(&a, 0, sizeof a);
        a.kind = MSG_TPACK;
        a.id = (uint32_t)t->acks_sent;
        a.src = t->node;
        a.dst = t->peer_node; /* (switches route by it) */
        a.data = n && k->payloads ? payload_new(k->payloads, bytes, (uint32_t)n) : 0;
        if (!a.data) {
            kernel_fail(k, "internal: %s: no bytes for an acknowledgement (%s)", c->name,
                        n ? "out of memory" : "a field out of range");
            return TICK_NEVER;
        }
        /* its bytes on the wire (a RoCE one in its RoCEv2 frame) */
        a.len = t->ub ? (uint32_t)n : RC_ACK_FRAME_BYTES;
        a.flags = MSG_QUIET;
        a.last = 1;
        a.t = now + period;
        /* onto the reverse link, behind this node's own packets */
        if (chan_push(t->tx_out, &a, now)) {
            kernel_fail(k, "internal: %s: no room in '%s'", c->name, t->tx_out->name);
            return TICK_NEVER;
        }
        t->acks_sent++;
    }
    if (o->tmo)
        t->timeouts++;
    if (o->fail && !t->failed) {
        /* nothing will be resent: the buffer lets go of what it kept */
        t->failed = o->fail;
        for (int i = 0; i < TP_W; i++) {
            if (t->desc_used[i] == 1) {
                /* (its bytes go; its header PSN stays for a copy still on
                 * the way, which the peer may yet deliver) */
                kernel_drop(k, &t->desc[i]);
                t->desc[i].data = 0;
                t->desc_used[i] = 2;
            }
        }
    }
    return next_wake(t, now);
}

static const comp_ops_t tp_ops = {.eval = tp_eval, .commit = tp_commit};

int tp_port_init(tp_port_t *t, const char *name, kernel_t *k, const clockdom_t *clk,
                 const tp_cfg_t *cfg, int ub, const block_opts_t *opts, char *err, int errlen)
{
    memset(t, 0, sizeof(*t));
    snprintf(t->c.name, sizeof(t->c.name), "%s", name);
    t->c.ops = &tp_ops;
    t->c.clk = clk;
    t->c.k = k;
    t->ub = ub;
    t->last_edge = -1;
    char berr[256];
    block_opts_t bo = *opts;
    bo.period_ps = (uint64_t)(clk->period / k->tb.per_ps);
    t->blk = block_new(&transport_class, &bo, berr, sizeof berr);
    if (!t->blk) {
        snprintf(err, (size_t)errlen, "%s: %s", name, berr);
        return -1;
    }
    t->blk_jump = block_can_jump(t->blk);
    transport_in_t *in = &t->in;
    in->cfg_gbn = (uint8_t)(cfg->gbn != 0);
    in->cfg_bmap_code = (uint8_t)cfg->bmap_code;
    in->cfg_window = (uint16_t)cfg->window;
    in->cfg_ooo_cap = (uint16_t)cfg->ooo_cap;
    /* the timeout in NIC cycles, rounded up */
    int64_t per_ps = clk->period / k->tb.per_ps;
    int64_t rto = (cfg->rto_ps + per_ps - 1) / per_ps;
    in->cfg_rto = (uint32_t)(rto < 1 ? 1 : rto > UINT32_MAX ? UINT32_MAX : rto);
    in->cfg_backoff = (uint8_t)(cfg->backoff != 0);
    in->cfg_retry_max = (uint8_t)cfg->retry_max;
    in->cfg_psn_init = 0; /* (as the send pipelines': the receive checks follow it) */
    idle_inputs(t);
    block_reset(t->blk);
    /* the first edge after reset starts the sequences and gives the wires */
    block_step(t->blk, &t->in, &t->out, 0);
    return 0;
}

void tp_cfg_default(tp_cfg_t *c, int gbn)
{
    memset(c, 0, sizeof *c);
    c->gbn = gbn;
    c->bmap_code = 2; /* 256 bits */
    c->window = 256;
    c->ooo_cap = 1024;
    c->rto_ps = (int64_t)TP_RTO_NS * 1000;
    c->backoff = 1;
    c->retry_max = 7;
}

void tp_port_lanes(tp_port_t *t, chan_t *tx_in, chan_t *tx_out, chan_t *rx_in, chan_t *rx_out,
                   tp_port_t *peer)
{
    t->peer = peer;
    if (tx_in) {
        t->tx_in = tx_in;
        t->tx_out = tx_out;
        tx_in->dst = &t->c;
        tx_out->src = &t->c;
    }
    if (rx_in) {
        t->rx_in = rx_in;
        t->rx_out = rx_out;
        rx_in->dst = &t->c;
        rx_out->src = &t->c;
    }
}

void tp_port_free(tp_port_t *t)
{
    if (!t)
        return;
    for (int i = 0; i < TP_W; i++) {
        if (t->desc_used[i] == 1)
            kernel_drop(t->c.k, &t->desc[i]);
        if (t->held_used[i])
            kernel_drop(t->c.k, &t->held[i]);
        t->desc_used[i] = t->held_used[i] = 0;
    }
    if (t->blk)
        block_free(t->blk);
    t->blk = NULL;
}
