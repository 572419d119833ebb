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

/* The 64 bits of ring v from PSN psn on (bit i: PSN psn + i): two words of
 * the ring, shifted. */
static uint64_t word_at(const uint64_t *v, uint32_t psn)
{
    uint32_t i = psn % TP_W, j = i / 64, sh = i % 64;
    uint64_t w = v[j] >> sh;
    if (sh)
        w |= v[(j + 1) % TP_NWORDS] << (64 - sh);
    return w;
}

/* A SACK's channel c is being merged: its acked ring is not read. */
static int merging(const transport_state_t *s, int c)
{
    return s->mg_on && (s->mg_n || s->mg_tail) && s->mg_c == c;
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
    s->o.sq_ready = 1;
}

/* x is at or beyond y, both within [base, base + 2^23) */
static uint32_t farther(uint32_t x, uint32_t y, uint32_t base)
{
    return ((x - base) & M) >= ((y - base) & M) ? x : y;
}

void transport_step(transport_state_t *s, const transport_in_t *in, transport_out_t *out)
{
    transport_out_t *o = &s->o;
    if (!s->inited) { /* every channel's sequence starts at cfg_psn_init */
        const uint32_t p0 = in->cfg_psn_init & M;
        for (int c = 0; c < TP_CH; c++) {
            s->nxt[c] = s->una[c] = s->rptr[c] = s->rend[c] = s->rnd_end[c] = p0;
            s->exp[c] = p0;
            s->hi[c] = (p0 - 1) & M; /* one before it: nothing received */
        }
        s->inited = 1;
    }
    const unsigned bits = transport_bmap_bits(in->cfg_bmap_code);
    const int gbn = in->cfg_gbn & 1;
    const uint32_t win = in->cfg_window > TP_W ? TP_W : in->cfg_window; /* the ring's size at most */
    uint32_t nxt_old[TP_CH];
    memcpy(nxt_old, s->nxt, sizeof nxt_old);

    /* ---------------- transmit ---------------- */
    const int out_free = !o->pkt_valid || in->pkt_ready;
    /* T1: the resend scan, on the lowest channel with one due */
    int cs = -1, emit_r = 0, adv = 0;
    uint32_t rp = 0;
    for (int c = 0; c < TP_CH; c++)
        if (!(s->fail >> c & 1) && s->rptr[c] != s->rend[c] && !merging(s, c)) {
            cs = c;
            break;
        }
    if (cs >= 0) {
        rp = s->rptr[cs];
        int skip = !gbn && bit_get(s->acked[cs], rp);
        emit_r = !skip && out_free;
        adv = skip || emit_r;
    }
    uint16_t rhdl = cs >= 0 ? s->desc[cs][rp % TP_W] : 0;
    /* T2: the new packet at the head of the FIFO */
    int emit_n = 0, drop_n = 0, hc = s->sq_c[0] & (TP_CH - 1);
    uint16_t hh = s->sq_h[0];
    if (s->sq_n) {
        if (s->fail >> hc & 1)
            drop_n = 1;
        else
            emit_n = out_free && !emit_r && ((s->nxt[hc] - s->una[hc]) & M) < win &&
                     s->rptr[hc] == s->rend[hc];
    }
    /* T3: timers count down */
    uint8_t expire = 0;
    for (int c = 0; c < TP_CH; c++) {
        if (!(s->fail >> c & 1) && s->tmr[c] == 1)
            expire |= (uint8_t)(1u << c);
        s->tmr[c] = s->tmr[c] > 1 ? s->tmr[c] - 1 : 0;
    }
    /* T4: the scan moves on; the new packet takes its PSN; the FIFO */
    if (adv) {
        s->rptr[cs] = (rp + 1) & M;
        if (emit_r)
            s->rnd_rs |= (uint8_t)(1u << cs);
        if (s->rptr[cs] == s->rend[cs]) {
            /* the round is over: if it resent anything, watch for a SACK
             * that reports a packet sent after it */
            if (s->rnd_rs >> cs & 1) {
                s->rnd_on |= (uint8_t)(1u << cs);
                s->rnd_end[cs] = nxt_old[cs];
            }
            s->rnd_rs &= (uint8_t)~(1u << cs);
        }
    }
    if (emit_n) {
        uint32_t p = s->nxt[hc];
        s->desc[hc][p % TP_W] = hh;
        bit_put(s->acked[hc], p, 0);
        s->nxt[hc] = (p + 1) & M;
    }
    if (emit_n || drop_n) {
        s->sq_c[0] = s->sq_c[1];
        s->sq_h[0] = s->sq_h[1];
        s->sq_n--;
    }
    if (in->sq_valid && o->sq_ready) {
        s->sq_c[s->sq_n] = in->sq_ch & (TP_CH - 1);
        s->sq_h[s->sq_n] = in->sq_hdl;
        s->sq_n++;
    }
    /* M: a word of the SACK being merged, shifted onto the ring: its low
     * part ORed into ring word mg_pos with the high part of the word before;
     * after the last word that high part alone */
    if (in->ack_wvalid && s->mg_n) {
        if (s->mg_on) {
            uint64_t w = in->ack_word;
            if (s->mg_left < 64)
                w &= s->mg_left ? ~0ull >> (64 - s->mg_left) : 0;
            s->mg_left = s->mg_left < 64 ? 0 : (uint16_t)(s->mg_left - 64);
            s->acked[s->mg_c][s->mg_pos] |= w << s->mg_s | s->mg_carry;
            s->mg_carry = s->mg_s ? w >> (64 - s->mg_s) : 0;
            s->mg_pos = (uint8_t)((s->mg_pos + 1) % TP_NWORDS);
        }
        s->mg_n--;
        s->mg_tail = !s->mg_n && s->mg_on && s->mg_s;
    } else if (s->mg_tail) {
        s->acked[s->mg_c][s->mg_pos] |= s->mg_carry;
        s->mg_tail = 0;
    }
    /* T5: an acknowledgement (a header abandons the words of one before it:
     * the sender of the words never does that) */
    if (in->ack_valid) {
        s->mg_n = in->ack_kind == TP_SACK ? (uint8_t)transport_bmap_words(in->ack_code) : 0;
        s->mg_on = 0;
        s->mg_tail = 0;
        s->mg_carry = 0;
    }
    if (in->ack_valid && !(s->fail >> (in->ack_ch & (TP_CH - 1)) & 1)) {
        int c = in->ack_ch & (TP_CH - 1);
        uint32_t b = in->ack_base & M, una = s->una[c], nx = nxt_old[c];
        if (((b - una) & M) <= ((nx - una) & M)) {
            if (b != una) {
                s->una[c] = b;
                s->retries[c] = 0;
                s->rto[c] = in->cfg_rto;
                s->tmr[c] = b != s->nxt[c] ? in->cfg_rto : 0;
                expire &= (uint8_t)~(1u << c);
            }
            uint32_t lim = (nx - b) & M;
            if (in->ack_kind == TP_NAK) {
                s->rptr[c] = b;
                s->rend[c] = nx;
            } else {
                uint32_t rl = (s->rptr[c] - b) & M, el = (s->rend[c] - b) & M;
                if (rl > lim)
                    s->rptr[c] = b;
                if (el > lim)
                    s->rend[c] = b;
                if (in->ack_kind == TP_SACK) {
                    /* its words follow: bits naming PSNs never sent are
                     * left out */
                    uint32_t n = transport_bmap_bits(in->ack_code);
                    s->mg_on = 1;
                    s->mg_c = (uint8_t)c;
                    s->mg_left = (uint16_t)(n > lim ? lim : n);
                    s->mg_pos = (uint8_t)(b % TP_W / 64);
                    s->mg_s = (uint8_t)(b % 64);
                    uint32_t hi = in->ack_hi & M;
                    if (((hi - b) & M) < lim) {
                        s->rend[c] = farther(s->rend[c], (hi + 1) & M, b);
                        /* a packet sent after the last round's resends has
                         * arrived, and holes remain: those resends were
                         * lost too, so the holes go again */
                        uint32_t re = (s->rnd_end[c] - b) & M;
                        if (re > lim) /* (all of that round acknowledged) */
                            s->rnd_on &= (uint8_t)~(1u << c);
                        else if ((s->rnd_on >> c & 1) && ((hi - b) & M) >= re) {
                            s->rptr[c] = b;
                            s->rnd_on &= (uint8_t)~(1u << c);
                        }
                    }
                }
            }
        }
    }
    /* T6: timeouts */
    for (int c = 0; c < TP_CH; c++) {
        if (!(expire >> c & 1))
            continue;
        if (s->retries[c] + 1u > in->cfg_retry_max) {
            s->fail |= (uint8_t)(1u << c);
            s->tmr[c] = 0;
        } else {
            s->retries[c]++;
            if (in->cfg_backoff & 1)
                s->rto[c] = s->rto[c] >= 0x80000000u ? 0xFFFFFFFFu : s->rto[c] * 2;
            s->tmr[c] = s->rto[c];
            s->rptr[c] = s->una[c];
            s->rend[c] = s->nxt[c];
            s->rnd_on &= (uint8_t)~(1u << c);
            s->rnd_rs &= (uint8_t)~(1u << c);
        }
    }
    /* T7: a packet that leaves starts its channel's timer (unless an
     * acknowledgement at this edge covered everything sent) */
    int sc = emit_r ? cs : emit_n ? hc : -1;
    if (sc >= 0 && !(s->fail >> sc & 1) && s->tmr[sc] == 0 && s->nxt[sc] != s->una[sc]) {
        if (s->rto[sc] == 0)
            s->rto[sc] = in->cfg_rto;
        s->tmr[sc] = s->rto[sc];
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
        o->pkt_psn = nxt_old[hc];
        o->pkt_hdl = hh;
        o->pkt_retx = 0;
    } else if (out_free) {
        o->pkt_valid = 0;
    }
    o->sq_ready = s->sq_n < 2;
    memset(o->una, 0, sizeof o->una);
    for (int c = 0; c < TP_CH; c++) {
        unsigned b0 = 24u * (unsigned)c;
        o->una[b0 / 64] |= (uint64_t)s->una[c] << (b0 % 64);
        if (b0 % 64 > 40)
            o->una[b0 / 64 + 1] |= (uint64_t)s->una[c] >> (64 - b0 % 64);
    }
    o->fail = s->fail;
    o->tmo = expire != 0;

    /* ---------------- receive ---------------- */
    /* R2: delivery, on the lowest channel whose next PSN is held */
    int dc = -1;
    for (int c = 0; c < TP_CH; c++)
        if (bit_get(s->ring[c], s->exp[c])) {
            dc = c;
            break;
        }
    uint32_t dpsn = dc >= 0 ? s->exp[dc] : 0;
    /* R1: the verdict on an arriving packet, against the registers as this
     * edge's delivery leaves them (the next PSN one further, one packet
     * fewer held, on the channel that delivers) */
    int rv = -1, rc = in->rx_ch & (TP_CH - 1);
    uint32_t moving = dc == rc;
    uint32_t rpsn = in->rx_psn & M, rd = (rpsn - s->exp[rc] - moving) & M;
    if (in->rx_valid) {
        uint32_t d = rd;
        if (gbn)
            rv = d == 0 ? (bit_get(s->ring[rc], rpsn) ? TP_DUP : TP_ACCEPT)
                        : d >= HALF ? TP_DUP : TP_GAP;
        else if (d >= HALF)
            rv = TP_DUP;
        else if (d >= bits)
            rv = TP_BEYOND;
        else if (bit_get(s->ring[rc], rpsn))
            rv = TP_DUP;
        else if (d && s->held[rc] - moving >= in->cfg_ooo_cap)
            rv = TP_FULL;
        else
            rv = TP_ACCEPT;
    }
    /* R3: an acknowledgement out, built from the registers; a SACK's words
     * follow its header, one an edge, the bits of PSNs delivered by then
     * set */
    const int streaming = s->ao_n != 0;
    o->ao_wvalid = 0;
    if (streaming) {
        int c = o->ao_ch;
        uint32_t p = (o->ao_base + s->ao_off) & M, dd = (s->exp[c] - p) & M;
        uint64_t w = word_at(s->ring[c], p);
        if (dd < HALF)
            w |= dd >= 64 ? ~0ull : (1ull << dd) - 1;
        o->ao_wvalid = 1;
        o->ao_word = w;
        s->ao_off = (uint16_t)(s->ao_off + 64);
        s->ao_n--;
    }
    const int ao_free = (!o->ao_valid || in->ao_ready) && !streaming;
    int ac = -1;
    uint8_t owed = s->ack_pend | s->nak_pend;
    if (ao_free)
        for (int c = 0; c < TP_CH; c++)
            if (owed >> c & 1) {
                ac = c;
                break;
            }
    if (ac >= 0) {
        uint32_t e = s->exp[ac];
        int gap = s->held[ac] > bit_get(s->ring[ac], e);
        o->ao_valid = 1;
        o->ao_ch = (uint8_t)ac;
        o->ao_kind = (s->nak_pend >> ac & 1) ? TP_NAK : (!gbn && gap) ? TP_SACK : TP_ACK;
        o->ao_base = e;
        o->ao_hi = s->hi[ac];
        o->ao_code = in->cfg_bmap_code > 4 ? 4 : in->cfg_bmap_code;
        s->ao_n = o->ao_kind == TP_SACK ? (uint8_t)(bits / 64) : 0;
        s->ao_off = 0;
        s->ack_pend &= (uint8_t)~(1u << ac);
        s->nak_pend &= (uint8_t)~(1u << ac);
    } else if (ao_free) {
        o->ao_valid = 0;
    }
    /* R4: updates */
    if (dc >= 0) {
        bit_put(s->ring[dc], dpsn, 0);
        s->exp[dc] = (dpsn + 1) & M;
        s->held[dc]--;
        s->ack_pend |= (uint8_t)(1u << dc);
        s->nak_sent &= (uint8_t)~(1u << dc);
    }
    if (rv == TP_ACCEPT) {
        bit_put(s->ring[rc], rpsn, 1);
        s->held[rc]++;
        uint32_t dh = (rpsn - s->hi[rc]) & M;
        if (dh && dh < HALF)
            s->hi[rc] = rpsn;
    }
    if (rv >= 0) {
        /* an in-order packet is acknowledged once delivered */
        if (rv == TP_GAP) {
            if (!(s->nak_sent >> rc & 1)) {
                s->nak_pend |= (uint8_t)(1u << rc);
                s->nak_sent |= (uint8_t)(1u << rc);
            }
        } else if (rv != TP_ACCEPT || rd != 0) {
            s->ack_pend |= (uint8_t)(1u << rc);
        }
    }
    o->rxv_valid = rv >= 0;
    o->rxv_ch = (uint8_t)rc;
    o->rxv_psn = rpsn;
    o->rxv_verdict = (uint8_t)(rv >= 0 ? rv : 0);
    o->dlv_valid = dc >= 0;
    o->dlv_ch = (uint8_t)(dc >= 0 ? dc : 0);
    o->dlv_psn = dpsn;

    /* busy: anything in flight, waiting, held or owed */
    int busy = s->sq_n || o->pkt_valid || o->ao_valid || o->dlv_valid || o->rxv_valid ||
               s->ack_pend || s->nak_pend || s->mg_n || s->mg_tail || s->ao_n;
    for (int c = 0; c < TP_CH && !busy; c++)
        busy = (!(s->fail >> c & 1) && (s->nxt[c] != s->una[c] || s->rptr[c] != s->rend[c])) ||
               s->held[c];
    o->busy = (uint8_t)busy;
    *out = *o;
}

int64_t transport_quiet(const transport_state_t *s, const transport_in_t *in)
{
    if (in->sq_valid || in->ack_valid || in->ack_wvalid || in->rx_valid || !s->inited)
        return 0;
    const transport_out_t *o = &s->o;
    if (s->sq_n || o->pkt_valid || o->ao_valid || o->dlv_valid || o->rxv_valid || o->tmo ||
        o->ao_wvalid || s->ack_pend || s->nak_pend || s->mg_n || s->mg_tail || s->ao_n)
        return 0;
    int64_t q = INT64_MAX / 4;
    for (int c = 0; c < TP_CH; c++) {
        if (s->fail >> c & 1)
            continue;
        if (s->rptr[c] != s->rend[c] || bit_get(s->ring[c], s->exp[c]))
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
