/* Selective-acknowledgement transport, C reference model: see transport.h
 * and docs/transport.md. Every decision of an edge is taken from the
 * registers before it (and the inputs); the updates follow in a fixed order
 * that the RTL mirrors. */
#include "transport.h"

#include <string.h>

#define M TP_PSN_MASK
#define HALF 0x800000u

static int bit_get(const uint64_t *v, uint32_t psn)
{
    uint32_t i = psn % TP_W;
    return (int)((v[i / 64] >> (i % 64)) & 1u);
}

/* A SACK's channel c is being merged: its acked ring is not read. */
static int merging(const transport_state_t *s, int c)
{
    return (s->mg_on && (s->mg_n || s->mg_tail) && s->mg_c == c) || (s->mw_v && s->mw_c == c);
}

static void bit_put(uint64_t *v, uint32_t psn, int on)
{
    uint32_t i = psn % TP_W;
    if (on)
        v[i / 64] |= 1ull << (i % 64);
    else
        v[i / 64] &= ~(1ull << (i % 64));
}

const char *transport_verdict_name(int v)
{
    switch (v) {
    case TP_ACCEPT: return "accept";
    case TP_DUP: return "duplicate";
    case TP_FULL: return "buffer_full";
    case TP_BEYOND: return "beyond_window";
    case TP_GAP: return "gap";
    default: return "?";
    }
}

void transport_reset(transport_state_t *s)
{
    memset(s, 0, sizeof *s);
    for (int c = 0; c < TP_CH; c++)
        s->hi[c] = M; /* "one before 0": nothing received */
}

#define OFS 0x7FFu /* offsets from una: 11 bits */

void transport_step(transport_state_t *s, const transport_in_t *in, transport_out_t *out)
{
    transport_out_t *o = &s->o;
    if (!s->inited) {
        /* the first edge after reset starts every channel's sequence at
         * cfg_psn_init and takes nothing (no input may be valid then) */
        const uint32_t p0 = in->cfg_psn_init & M;
        for (int c = 0; c < TP_CH; c++) {
            s->nxt[c] = s->una[c] = s->rptr[c] = p0;
            s->exp[c] = p0;
            s->hi[c] = (p0 - 1) & M; /* one before it: nothing received */
        }
        s->inited = 1;
        o->sq_ready = 1;
        o->ack_ready = 1;
        for (int c = 0; c < TP_CH; c++) {
            unsigned b0 = 24u * (unsigned)c;
            o->una[b0 / 64] |= (uint64_t)p0 << (b0 % 64);
            if (b0 % 64 > 40)
                o->una[b0 / 64 + 1] |= (uint64_t)p0 >> (64 - b0 % 64);
        }
        *out = *o;
        return;
    }
    const unsigned bits = transport_bmap_bits(in->cfg_bmap_code);
    const int gbn = in->cfg_gbn & 1;
    const uint32_t win = in->cfg_window > TP_W ? TP_W : in->cfg_window; /* the ring's size at most */

    /* ---------------- transmit ----------------
     * Every decision is taken from the registers (and the inputs) before
     * the edge; the updates follow. */
    const int out_free = !o->pkt_valid || in->pkt_ready;
    /* T1: the resend scan. A channel whose acknowledgement is applied at
     * this edge, or whose SACK is being merged, waits; one whose registered
     * view is stale reads it; one whose due PSN is acknowledged skips it;
     * the lowest with a due PSN not acknowledged resends it once the output
     * register is free. */
    uint8_t blk = 0, rdm = 0, skip = 0, cand = 0;
    for (int c = 0; c < TP_CH; c++) {
        const uint8_t m = (uint8_t)(1u << c);
        if ((s->k_v && s->k_ch == c) || merging(s, c))
            blk |= m;
        if ((s->fail & m) || (blk & m))
            continue;
        if (!(s->sv & m))
            rdm |= m;
        else if (s->sd & m)
            *((s->sa & m) ? &skip : &cand) |= m;
    }
    int cs = -1;
    for (int c = 0; c < TP_CH && cs < 0; c++)
        if (cand >> c & 1)
            cs = c;
    const int emit_r = cs >= 0 && out_free;
    const uint8_t adv = (uint8_t)(skip | (emit_r ? 1u << cs : 0u));
    const uint32_t rp = cs >= 0 ? s->rptr[cs] : 0;
    const uint16_t rhdl = cs >= 0 ? s->desc[cs][rp % TP_W] : 0;
    /* the scan's next view, read before this edge's writes */
    uint8_t sd_n = s->sd, sa_n = s->sa;
    for (int c = 0; c < TP_CH; c++) {
        const uint8_t m = (uint8_t)(1u << c);
        if (!((rdm | adv) & m))
            continue;
        const int a = (adv & m) != 0;
        const int due = ((s->rpo[c] + (unsigned)a) & OFS) != s->reo[c];
        const int ak = !gbn && bit_get(s->acked[c], (s->rptr[c] + (uint32_t)a) & M);
        sd_n = (uint8_t)(due ? sd_n | m : sd_n & ~m);
        sa_n = (uint8_t)(ak ? sa_n | m : sa_n & ~m);
    }
    /* T2: the new packet at the head of the FIFO: its channel has room in
     * its window and nothing due for a resend */
    int emit_n = 0, drop_n = 0;
    const int hc = s->sq_c[s->sq_r] & (TP_CH - 1);
    const uint16_t hh = s->sq_h[s->sq_r];
    if (s->sq_n) {
        if (s->fail >> hc & 1)
            drop_n = 1;
        else
            emit_n = out_free && !emit_r && s->fl[hc] < win && s->rpo[hc] == s->reo[hc] &&
                     s->tmr[hc] != 1; /* (not as its channel times out) */
    }
    /* T3: timers */
    uint8_t expire = 0;
    uint32_t tmr_old[TP_CH];
    uint16_t fl_old[TP_CH];
    const uint8_t st_old = s->st;
    for (int c = 0; c < TP_CH; c++) {
        tmr_old[c] = s->tmr[c];
        fl_old[c] = s->fl[c];
        if (!(s->fail >> c & 1) && s->tmr[c] == 1)
            expire |= (uint8_t)(1u << c);
    }
    /* T5: the acknowledgement taken at the last edge, against the channel's
     * registers as they are now (its scan waits at this edge) */
    const int kc = s->k_ch & (TP_CH - 1);
    const int take = s->k_v && s->k_take && !(s->fail >> kc & 1);
    const uint32_t kd = s->k_d;
    const int prog = take && kd != 0;
    uint16_t a_rpo = 0, a_reo = 0, a_rno = 0, a_flm = 0;
    int a_rptr_b = 0, a_rnd_off = 0;
    if (take) {
        a_flm = (uint16_t)((s->fl[kc] - kd) & OFS);
        a_rno = (uint16_t)((s->rno[kc] - kd) & OFS);
        a_rnd_off = s->rno[kc] < kd; /* (that round is all acknowledged) */
        if (s->k_kind == TP_NAK) {
            a_rptr_b = 1;
            a_reo = a_flm;
        } else {
            /* scan pointers behind the base move up to it */
            a_rptr_b = s->rpo[kc] < kd;
            a_rpo = a_rptr_b ? 0 : (uint16_t)((s->rpo[kc] - kd) & OFS);
            a_reo = s->reo[kc] < kd ? 0 : (uint16_t)((s->reo[kc] - kd) & OFS);
            if (s->k_kind == TP_SACK && s->k_hb < s->k_lim) {
                /* every PSN up to hi not acknowledged is missing: the scan
                 * reaches hi + 1, starting no earlier than it is */
                /* (its offset from una is hu + 1: the scan's end, once
                 * clamped to the base, is nearer than that exactly when
                 * reo < hu + 1) */
                if (s->reo[kc] < ((s->k_hu + 1u) & OFS))
                    a_reo = (uint16_t)((s->k_hb + 1) & OFS);
                /* a packet sent after the last round's resends has arrived,
                 * and holes remain: those resends were lost too, so the
                 * holes go again */
                if (!a_rnd_off && (s->rnd_on >> kc & 1) && s->k_hu >= s->rno[kc]) {
                    a_rptr_b = 1;
                    a_rpo = 0;
                    a_rnd_off = 1;
                }
            }
        }
    }
    /* T4..T7: the updates */
    uint8_t probe = 0; /* channels whose timeout resends una whatever its acked bit */
    for (int c = 0; c < TP_CH; c++) {
        const uint8_t m = (uint8_t)(1u << c);
        const int en = emit_n && hc == c;
        if (take && kc == c) {
            if (prog) {
                s->una[c] = s->k_b;
                s->retries[c] = 0;
                s->rto[c] = in->cfg_rto;
            }
            s->rptr[c] = a_rptr_b ? s->k_b : s->rptr[c];
            s->rpo[c] = a_rpo;
            s->reo[c] = a_reo;
            s->rno[c] = a_rno;
            if (a_rnd_off)
                s->rnd_on &= (uint8_t)~m;
            s->fl[c] = (uint16_t)((a_flm + (unsigned)en) & OFS);
        } else {
            if (adv & m) {
                s->rptr[c] = (s->rptr[c] + 1) & M;
                s->rpo[c] = (uint16_t)((s->rpo[c] + 1) & OFS);
                if (emit_r && cs == c)
                    s->rnd_rs |= m;
                if (s->rpo[c] == s->reo[c]) {
                    /* the round is over: if it resent anything, watch for a
                     * SACK that reports a packet sent after it */
                    if (s->rnd_rs & m) {
                        s->rnd_on |= m;
                        s->rno[c] = s->fl[c];
                    }
                    s->rnd_rs &= (uint8_t)~m;
                }
            }
            if (en)
                s->fl[c] = (uint16_t)((s->fl[c] + 1) & OFS);
        }
        if (en) {
            uint32_t p = s->nxt[c];
            s->desc[c][p % TP_W] = hh;
            bit_put(s->acked[c], p, 0);
            s->nxt[c] = (p + 1) & M;
        }
        /* timers: progress restarts it (stops it when nothing is left in
         * flight); a timeout; a packet that leaves starts a stopped one */
        s->tmr[c] = tmr_old[c] > 1 ? tmr_old[c] - 1 : 0;
        if (prog && kc == c) {
            s->tmr[c] = a_flm ? in->cfg_rto : 0; /* (a packet leaving now: below) */
            expire &= (uint8_t)~m;
        }
        if (expire & m) {
            if (s->retries[c] + 1u > in->cfg_retry_max) {
                s->fail |= m;
                s->tmr[c] = 0;
            } else {
                s->retries[c]++;
                if (in->cfg_backoff & 1)
                    s->rto[c] = s->rto[c] >= 0x80000000u ? 0xFFFFFFFFu : s->rto[c] * 2;
                s->tmr[c] = s->rto[c];
                probe |= m;
                s->rptr[c] = s->una[c];
                s->rpo[c] = 0;
                s->reo[c] = s->fl[c];
                s->rnd_on &= (uint8_t)~m;
                s->rnd_rs &= (uint8_t)~m;
            }
        }
        /* (a packet that left at the last edge, its timer stopped then) */
        if ((st_old & m) && !(prog && kc == c)) {
            if (s->rto[c] == 0)
                s->rto[c] = in->cfg_rto;
            s->tmr[c] = s->rto[c];
        }
        /* a packet that leaves while its channel's timer stays stopped
         * starts it at the next edge */
        const int sent = (emit_r && cs == c) || en;
        const int stopped = (prog && kc == c) ? a_flm == 0 : tmr_old[c] == 0;
        if (sent && stopped)
            s->st |= m;
        else
            s->st &= (uint8_t)~m;
        /* the scan's view */
        if ((blk | expire) & m)
            s->sv &= (uint8_t)~m;
        else if (rdm & m)
            s->sv |= m;
    }
    s->sd = sd_n;
    s->sa = sa_n;
    /* the FIFO */
    if (emit_n || drop_n) {
        s->sq_r ^= 1;
        s->sq_n--;
    }
    if (in->sq_valid && o->sq_ready) {
        const int w = (s->sq_r + s->sq_n) & 1;
        s->sq_c[w] = in->sq_ch & (TP_CH - 1);
        s->sq_h[w] = in->sq_hdl;
        s->sq_n++;
    }
    /* M2: the ring word worked out at the last edge is ORed in */
    if (s->mw_v)
        s->acked[s->mw_c][s->mw_pos] |= s->mw_data;
    /* M1: the registered word of the SACK being merged, shifted onto the
     * ring: its low part, with the high part of the word before, makes the
     * ring word mg_pos's bits (ORed in at the next edge); after the last
     * word that high part alone */
    s->mw_v = 0;
    if (s->w_v && s->mg_n) {
        if (s->mg_on) {
            uint64_t w = s->w_word;
            if (s->mg_left < 64)
                w &= s->mg_left ? ~0ull >> (64 - s->mg_left) : 0;
            s->mg_left = s->mg_left < 64 ? 0 : (uint16_t)(s->mg_left - 64);
            s->mw_v = 1;
            s->mw_c = s->mg_c;
            s->mw_pos = s->mg_pos;
            s->mw_data = w << s->mg_s | s->mg_carry;
            s->mg_carry = s->mg_s ? w >> (64 - s->mg_s) : 0;
            s->mg_pos = (uint8_t)((s->mg_pos + 1) % TP_NWORDS);
        }
        s->mg_n--;
        s->mg_tail = !s->mg_n && s->mg_on && s->mg_s;
    } else if (s->mg_tail) {
        s->mw_v = 1;
        s->mw_c = s->mg_c;
        s->mw_pos = s->mg_pos;
        s->mw_data = s->mg_carry;
        s->mg_tail = 0;
    }
    /* a timeout forgets the selective acknowledgement of the oldest packet
     * in flight: it is resent whatever the SACKs said, and the receiver
     * answers with its cumulative acknowledgement (without it, a sender
     * whose last acknowledgements were lost would wait for ever for packets
     * it believes acknowledged) */
    for (int c = 0; c < TP_CH; c++)
        if (probe >> c & 1)
            bit_put(s->acked[c], s->una[c], 0);
    s->w_v = in->ack_wvalid;
    s->w_word = in->ack_wvalid ? in->ack_word : 0;
    /* the header applied at this edge sets the merge up for its words (a
     * header abandons the words of one before it: the sender of the words
     * never does that) */
    if (s->k_v) {
        s->mg_n = s->k_kind == TP_SACK ? (uint8_t)transport_bmap_words(s->k_code) : 0;
        s->mg_on = 0;
        s->mg_tail = 0;
        s->mg_carry = 0;
        if (take && s->k_kind == TP_SACK) {
            /* bits naming PSNs never sent are left out */
            uint32_t n = transport_bmap_bits(s->k_code);
            s->mg_on = 1;
            s->mg_c = (uint8_t)kc;
            s->mg_left = (uint16_t)(n > s->k_lim ? s->k_lim : n);
            s->mg_pos = (uint8_t)(s->k_b % TP_W / 64);
            s->mg_s = (uint8_t)(s->k_b % 64);
        }
    }
    /* the header taken at this edge, against the registers before it: its
     * base within [una, nxt] (else it is stale or forged and changes
     * nothing but the words it announces) */
    const int hdr = in->ack_valid && o->ack_ready;
    s->k_v = (uint8_t)hdr;
    if (hdr) {
        const int c = in->ack_ch & (TP_CH - 1);
        const uint32_t b = in->ack_base & M, hi = in->ack_hi & M, d = (b - s->una[c]) & M;
        s->k_ch = (uint8_t)c;
        s->k_kind = in->ack_kind;
        s->k_code = in->ack_code;
        s->k_b = b;
        s->k_take = d <= fl_old[c];
        s->k_d = (uint16_t)(d & OFS);
        s->k_lim = (uint16_t)((fl_old[c] - d) & OFS);
        s->k_hb = (hi - b) & M;
        s->k_hu = (uint16_t)((hi - s->una[c]) & OFS);
    }
    /* T8: output registers */
    if (emit_r) {
        o->pkt_valid = 1;
        o->pkt_ch = (uint8_t)cs;
        o->pkt_psn = rp;
        o->pkt_hdl = rhdl;
        o->pkt_retx = 1;
    } else if (emit_n) {
        o->pkt_valid = 1;
        o->pkt_ch = (uint8_t)hc;
        o->pkt_psn = (s->nxt[hc] - 1) & M;
        o->pkt_hdl = hh;
        o->pkt_retx = 0;
    } else if (out_free) {
        o->pkt_valid = 0;
    }
    o->sq_ready = s->sq_n < 2;
    o->ack_ready = !hdr;
    memset(o->una, 0, sizeof o->una);
    for (int c = 0; c < TP_CH; c++) {
        unsigned b0 = 24u * (unsigned)c;
        o->una[b0 / 64] |= (uint64_t)s->una[c] << (b0 % 64);
        if (b0 % 64 > 40)
            o->una[b0 / 64 + 1] |= (uint64_t)s->una[c] >> (64 - b0 % 64);
    }
    o->fail = s->fail;
    o->tmo = expire != 0;

    /* ---------------- receive ----------------
     * A data packet is taken into registers at one edge (X: its ring bit
     * and its distance from exp read there) and judged at the next (V),
     * against the registers as that edge's delivery leaves them. */
    /* R2: delivery, on the lowest channel whose next PSN is held (hd: the
     * ring bit at exp, kept in a register) */
    int dc = -1;
    for (int c = 0; c < TP_CH && dc < 0; c++)
        if (s->hd >> c & 1)
            dc = c;
    const uint32_t dpsn = dc >= 0 ? s->exp[dc] : 0;
    /* R1: the verdict on the packet taken at the last edge: k = the
     * deliveries on its channel since its distance was read */
    int rv = -1, zero = 0;
    const int xc = s->x_ch & (TP_CH - 1);
    const uint32_t xpsn = s->x_psn;
    const int mv2 = dc == xc;
    if (s->x_v) {
        const int k = (s->x_mv & 1) + mv2;
        zero = s->x_zero >> k & 1;
        const int behind = s->x_behind >> k & 1, beyond = s->x_beyond >> k & 1;
        const int bit = s->x_bit || (s->x_same && s->x_pacc);
        const int full = s->held[xc] >= in->cfg_ooo_cap + (unsigned)mv2;
        if (gbn)
            rv = zero ? (bit ? TP_DUP : TP_ACCEPT) : behind ? TP_DUP : TP_GAP;
        else if (behind)
            rv = TP_DUP;
        else if (beyond)
            rv = TP_BEYOND;
        else if (bit)
            rv = TP_DUP;
        else if (!zero && full)
            rv = TP_FULL;
        else
            rv = TP_ACCEPT;
    }
    const int acc = rv == TP_ACCEPT;
    const int set_hi = acc && ((s->x_same_ch && s->x_phi) ? s->x_nprev : s->x_nhi);
    /* R3: an acknowledgement out, built from the registers (a new one two
     * edges after the last at the earliest, so the peer, which takes one
     * header every other edge, keeps up); a SACK's words follow its header,
     * read from the ring a word an edge into a register (with the PSNs
     * delivered by then set) and put out at the edge after */
    o->ao_wvalid = 0;
    if (s->w2_v) {
        uint64_t w = s->w2_lo >> s->ao_s;
        if (s->ao_s)
            w |= s->w2_hi << (64 - s->ao_s);
        if (s->w2_dd < HALF)
            w |= s->w2_dd >= 64 ? ~0ull : (1ull << s->w2_dd) - 1;
        o->ao_wvalid = 1;
        o->ao_word = w;
    }
    const int streaming = s->ao_n != 0 || s->w2_v;
    int w2_next = 0;
    if (s->ao_n) {
        int c = o->ao_ch;
        uint32_t i = s->ao_p % TP_W, j = i / 64;
        s->w2_lo = s->ring[c][j];
        s->w2_hi = s->ring[c][(j + 1) % TP_NWORDS];
        s->w2_dd = (s->exp[c] - s->ao_p) & M;
        s->ao_p = (s->ao_p + 64) & M;
        s->ao_n--;
        w2_next = 1;
    }
    s->w2_v = (uint8_t)w2_next;
    const int ao_gone = (!o->ao_valid || in->ao_ready) && !streaming;
    const int ao_free = ao_gone && !s->ao_fresh;
    int ac = -1;
    uint8_t owed = s->ack_pend | s->nak_pend;
    if (ao_free)
        for (int c = 0; c < TP_CH && ac < 0; c++)
            if (owed >> c & 1)
                ac = c;
    if (ac >= 0) {
        uint32_t e = s->exp[ac];
        int gap = s->held[ac] > (unsigned)(s->hd >> ac & 1);
        o->ao_valid = 1;
        o->ao_ch = (uint8_t)ac;
        o->ao_kind = (s->nak_pend >> ac & 1) ? TP_NAK : (!gbn && gap) ? TP_SACK : TP_ACK;
        o->ao_base = e;
        o->ao_hi = s->hi[ac];
        o->ao_code = in->cfg_bmap_code > 4 ? 4 : in->cfg_bmap_code;
        s->ao_n = o->ao_kind == TP_SACK ? (uint8_t)(bits / 64) : 0;
        s->ao_p = e;
        s->ao_s = (uint8_t)(e % 64);
        s->ack_pend &= (uint8_t)~(1u << ac);
        s->nak_pend &= (uint8_t)~(1u << ac);
    } else if (ao_gone) {
        o->ao_valid = 0;
    }
    s->ao_fresh = ac >= 0;
    /* the packet taken at this edge (X), against the registers before it:
     * its ring bit, its distance d from exp (for k = 0, 1, 2 deliveries on
     * its channel before it is judged: d == k, d - k behind, d - k beyond
     * the bitmap), whether it is newer than the highest PSN received or
     * than the packet judged now, and whether it is that packet */
    int x_v = in->rx_valid, x_c = in->rx_ch & (TP_CH - 1);
    uint32_t x_psn = in->rx_psn & M;
    uint8_t x_bit = 0, x_zero = 0, x_behind = 0, x_beyond = 0, x_nhi = 0, x_nprev = 0, x_same = 0,
            x_same_ch = 0, x_mv = 0;
    if (x_v) {
        const uint32_t d = (x_psn - s->exp[x_c]) & M;
        x_bit = (uint8_t)bit_get(s->ring[x_c], x_psn);
        for (unsigned k = 0; k < 3; k++) {
            x_zero |= (uint8_t)((d == k) << k);
            x_behind |= (uint8_t)((((d - k) & M) >= HALF) << k);
            x_beyond |= (uint8_t)((d >= bits + k) << k);
        }
        x_nhi = ((x_psn - s->hi[x_c] - 1) & M) < HALF - 1;
        x_nprev = ((x_psn - xpsn - 1) & M) < HALF - 1;
        x_same_ch = s->x_v && xc == x_c;
        x_same = x_same_ch && xpsn == x_psn;
        x_mv = dc == x_c;
    }
    /* R4: updates */
    for (int c = 0; c < TP_CH; c++) {
        const uint8_t m = (uint8_t)(1u << c);
        const int dl = dc == c, ac_c = acc && xc == c;
        const int hd = (ac_c && zero) || (dl ? bit_get(s->ring[c], (s->exp[c] + 1) & M) : (s->hd & m) != 0);
        s->hd = (uint8_t)(hd ? s->hd | m : s->hd & ~m);
    }
    if (dc >= 0) {
        bit_put(s->ring[dc], dpsn, 0);
        s->exp[dc] = (dpsn + 1) & M;
        s->held[dc]--;
        s->ack_pend |= (uint8_t)(1u << dc);
        s->nak_sent &= (uint8_t)~(1u << dc);
    }
    if (acc) {
        bit_put(s->ring[xc], xpsn, 1);
        s->held[xc]++;
        if (set_hi)
            s->hi[xc] = xpsn;
    }
    if (rv >= 0) {
        /* an in-order packet is acknowledged once delivered */
        if (rv == TP_GAP) {
            if (!(s->nak_sent >> xc & 1)) {
                s->nak_pend |= (uint8_t)(1u << xc);
                s->nak_sent |= (uint8_t)(1u << xc);
            }
        } else if (rv != TP_ACCEPT || !zero) {
            s->ack_pend |= (uint8_t)(1u << xc);
        }
    }
    o->rxv_valid = rv >= 0;
    o->rxv_ch = (uint8_t)xc;
    o->rxv_psn = xpsn;
    o->rxv_verdict = (uint8_t)(rv >= 0 ? rv : 0);
    o->dlv_valid = dc >= 0;
    o->dlv_ch = (uint8_t)(dc >= 0 ? dc : 0);
    o->dlv_psn = dpsn;
    s->x_pacc = (uint8_t)acc;
    s->x_phi = (uint8_t)set_hi;
    s->x_v = (uint8_t)x_v;
    s->x_ch = (uint8_t)(x_v ? x_c : 0);
    s->x_psn = x_v ? x_psn : 0;
    s->x_bit = x_bit;
    s->x_zero = x_zero;
    s->x_behind = x_behind;
    s->x_beyond = x_beyond;
    s->x_nhi = x_nhi;
    s->x_nprev = x_nprev;
    s->x_same = x_same;
    s->x_same_ch = x_same_ch;
    s->x_mv = x_mv;

    /* busy: anything in flight, waiting, held or owed */
    int busy = s->sq_n || s->k_v || s->w_v || s->mw_v || s->st || s->x_v || s->w2_v || o->pkt_valid ||
               o->ao_valid || o->dlv_valid || o->rxv_valid || s->ack_pend || s->nak_pend ||
               s->mg_n || s->mg_tail || s->ao_n;
    for (int c = 0; c < TP_CH && !busy; c++)
        busy = (!(s->fail >> c & 1) && (s->fl[c] || s->rpo[c] != s->reo[c])) ||
               s->held[c];
    o->busy = (uint8_t)busy;
    *out = *o;
}

int64_t transport_quiet(const transport_state_t *s, const transport_in_t *in)
{
    if (in->sq_valid || in->ack_valid || in->ack_wvalid || in->rx_valid || !s->inited || s->k_v ||
        s->w_v || s->mw_v || s->st || s->x_v || s->w2_v)
        return 0;
    const transport_out_t *o = &s->o;
    if (s->sq_n || o->pkt_valid || o->ao_valid || o->dlv_valid || o->rxv_valid || o->tmo ||
        o->ao_wvalid || s->ack_pend || s->nak_pend || s->mg_n || s->mg_tail || s->ao_n)
        return 0;
    int64_t q = INT64_MAX / 4;
    for (int c = 0; c < TP_CH; c++) {
        if (s->fail >> c & 1)
            continue;
        if (s->rpo[c] != s->reo[c] || !(s->sv >> c & 1) || (s->hd >> c & 1))
            return 0;
        if (s->tmr[c] && (int64_t)s->tmr[c] - 1 < q)
            q = (int64_t)s->tmr[c] - 1;
    }
    return q;
}

void transport_advance(transport_state_t *s, const transport_in_t *in, int n)
{
    (void)in;
    for (int c = 0; c < TP_CH; c++)
        if (s->tmr[c] && !(s->fail >> c & 1))
            s->tmr[c] -= (uint32_t)n;
}

void transport_words_start(transport_words_t *f, const uint64_t *bmap, unsigned code)
{
    memset(f, 0, sizeof *f);
    f->n = (uint8_t)transport_bmap_words(code);
    if (bmap)
        memcpy(f->w, bmap, f->n * sizeof f->w[0]);
}

int transport_words_feed(transport_words_t *f, transport_in_t *in)
{
    in->ack_wvalid = f->k < f->n;
    in->ack_word = in->ack_wvalid ? f->w[f->k++] : 0;
    return in->ack_wvalid;
}

static int transport_words_collect(transport_words_t *f, const transport_out_t *o)
{
    if (!o->ao_wvalid || f->k >= f->n)
        return 0;
    f->w[f->k++] = o->ao_word;
    return f->k == f->n;
}

int transport_words_out(transport_words_t *f, const transport_out_t *o, int fresh)
{
    if (fresh && o->ao_kind == TP_SACK) {
        transport_words_start(f, NULL, o->ao_code);
        return 0;
    }
    return fresh || transport_words_collect(f, o);
}
