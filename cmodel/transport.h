/* Selective-acknowledgement transport, C reference model (docs/transport.md
 * has the rules).
 *
 * One block holds both halves of a node's transport: the transmit half
 * numbers the packets the node sends (per channel: next PSN, oldest PSN not
 * acknowledged, a ring of descriptors and of selectively acknowledged bits,
 * the resend scan, the retransmission timer) and resends what is missing;
 * the receive half judges each arriving data packet against the next PSN it
 * expects, holds packets that arrived beyond a gap, delivers in order, and
 * owes acknowledgements (ACK, SACK with a bitmap, or go-back-N's NAK).
 *
 * Cycle convention (sim/core/block.h): step(in) is one rising edge; the
 * outputs are registers. The RTL twin is rtl/transport.sv with the ports of
 * transport_ports.h (RTL names add _i/_o). This model needs nothing outside
 * cmodel/. */
#ifndef UB_TRANSPORT_H
#define UB_TRANSPORT_H

#include <stdint.h>

#include "block_ports.h"
#include "transport_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TP_CH 4               /* transport channels (RTL parameter CH) */
#define TP_W 1024             /* ring size: the largest bitmap and window */
#define TP_WORD 64            /* a bitmap crosses the ack ports in words */
#define TP_NWORDS (TP_W / TP_WORD)
#define TP_PSN_MASK 0xFFFFFFu /* PSNs are 24 bits */

typedef enum {
    TP_ACCEPT = 0, /* in sequence, or held beyond a gap */
    TP_DUP = 1,    /* delivered or held already */
    TP_FULL = 2,   /* beyond a gap, and the out-of-order buffer is full */
    TP_BEYOND = 3, /* beyond the bitmap (the receive window) */
    TP_GAP = 4,    /* go-back-N: beyond the next expected PSN */
} tp_verdict_t;

enum { TP_ACK = 0, TP_SACK = 1, TP_NAK = 2 };

typedef struct { TRANSPORT_PORTS(PORTS_FIELDS_IN) } transport_in_t;
typedef struct { TRANSPORT_PORTS(PORTS_FIELDS_OUT) } transport_out_t;
TRANSPORT_PORTS(PORTS_CHECK)

typedef struct {
    /* transmit half, per channel: PSNs nxt, una and rptr; the flight and
     * the resend scan as offsets from una (0..TP_W, 11 bits in the RTL):
     * fl = nxt - una, PSNs [una + rpo, una + reo) are due for a resend */
    uint32_t nxt[TP_CH], una[TP_CH], rptr[TP_CH];
    uint16_t fl[TP_CH], rpo[TP_CH], reo[TP_CH];
    uint32_t tmr[TP_CH];               /* edges left before the timeout; 0: stopped */
    uint32_t rto[TP_CH];               /* the current timeout */
    uint8_t retries[TP_CH];
    uint8_t fail;
    /* resend rounds: rnd_rs bit c, the round under way resent something;
     * rnd_on bit c, a finished round's resends are watched: a SACK whose
     * highest PSN is at or beyond una + rno[c] (sent after them) starts the
     * next round */
    uint8_t rnd_rs, rnd_on;
    uint16_t rno[TP_CH];
    /* the scan's registered view of each channel (bit c): sv, sd and sa
     * are valid; sd, a PSN is due (rpo != reo); sa, the acked bit of PSN
     * rptr. An acknowledgement, a timeout or a merge clears sv, and the
     * edge after reads them anew. */
    uint8_t sv, sd, sa;
    /* bit c: a packet left at the last edge while the timer was stopped:
     * it starts at this one */
    uint8_t st;
    uint64_t acked[TP_CH][TP_NWORDS];
    uint16_t desc[TP_CH][TP_W];
    /* an acknowledgement's header is taken at one edge (ack_ready drops for
     * the next) into these registers and applied at the edge after: k_d =
     * base - una (k_take: at most the flight, k_d its low 11 bits), k_lim =
     * the flight then less k_d, k_hb = hi - base, k_hu = hi - una (11 bits) */
    uint8_t k_v, k_ch, k_kind, k_code, k_take;
    uint32_t k_b, k_hb;
    uint16_t k_d, k_lim, k_hu;
    /* a SACK's words are registered as they come (w_v, w_word) and merged
     * from there, a word an edge, into acked[mg_c]: mg_n words still to
     * come (mg_on: merged, else the header was stale and they are only
     * consumed); each word shifted onto the ring by mg_s bits, for ring
     * word mg_pos, its high part carried into the next (mg_tail: the
     * carry of the last word is written at the edge after it); mg_left
     * bits of the bitmap still name PSNs sent */
    uint8_t w_v;
    uint64_t w_word;
    uint8_t mg_n, mg_on, mg_c, mg_pos, mg_s, mg_tail;
    uint16_t mg_left;
    uint64_t mg_carry;
    /* the ring word a merged word makes: ORed into acked[mw_c][mw_pos] at
     * the edge after (the channel's scan waits for it too) */
    uint8_t mw_v, mw_c, mw_pos;
    uint64_t mw_data;
    /* new packets waiting for their window: a 2-entry ring (sq_r the head) */
    uint8_t sq_n, sq_r;
    uint8_t sq_c[2];
    uint16_t sq_h[2];
    /* receive half, per channel */
    uint32_t exp[TP_CH], hi[TP_CH];
    uint16_t held[TP_CH];
    uint64_t ring[TP_CH][TP_NWORDS];
    uint8_t hd; /* bit c: ring[c]'s bit at exp[c] (the next PSN is held) */
    /* the data packet taken at the last edge, judged at this one (x_*): its
     * channel and PSN; its ring bit; bit k of x_zero / x_behind / x_beyond:
     * its distance d from exp then is k, d - k is behind, d - k is beyond
     * the bitmap (k deliveries on its channel before the verdict); x_nhi /
     * x_nprev: newer than the highest PSN received / than the packet judged
     * at that edge; x_same(_ch): that packet's PSN and channel (its own
     * channel); x_mv: that edge delivered on its channel. x_pacc, x_phi:
     * that packet was accepted, set hi. */
    uint8_t x_v, x_ch, x_bit, x_zero, x_behind, x_beyond, x_nhi, x_nprev, x_same, x_same_ch, x_mv;
    uint8_t x_pacc, x_phi;
    uint32_t x_psn;
    uint8_t ack_pend, nak_pend, nak_sent;
    /* the outgoing SACK's words: ao_n still to read from the ring */
    uint8_t ao_n;
    uint32_t ao_p;  /* the PSN of the next word's bit 0 */
    uint8_t ao_s;   /* the header's base modulo 64: the words' shift */
    /* a word read from the ring (the two ring words it spans) and the
     * distance from its first PSN to exp then, put out at the next edge */
    uint8_t w2_v;
    uint64_t w2_lo, w2_hi;
    uint32_t w2_dd;
    uint8_t ao_fresh; /* the acknowledgement register was loaded at the last edge */
    /* 0 until the first edge after reset, which starts every channel's PSNs
     * at cfg_psn_init and takes nothing else */
    uint8_t inited;
    /* the output registers */
    transport_out_t o;
} transport_state_t;

void transport_reset(transport_state_t *s);
void transport_step(transport_state_t *s, const transport_in_t *in, transport_out_t *out);
/* Fast-forward (block.h): edges over which, with `in` held, no output can
 * change (only timers run), and the jump over n of them. */
int64_t transport_quiet(const transport_state_t *s, const transport_in_t *in);
void transport_advance(transport_state_t *s, const transport_in_t *in, int n);

/* The bitmap bits of a size code (codes above 4 are 4), and its words. */
static inline unsigned transport_bmap_bits(unsigned code) { return 64u << (code > 4 ? 4 : code); }
static inline unsigned transport_bmap_words(unsigned code) { return transport_bmap_bits(code) / TP_WORD; }
/* Channel c's field of the una output. */
static inline uint32_t transport_out_una(const transport_out_t *o, int c)
{
    unsigned b = 24u * (unsigned)c;
    uint64_t lo = o->una[b / 64] >> (b % 64);
    if (b % 64 > 40)
        lo |= o->una[b / 64 + 1] << (64 - b % 64);
    return (uint32_t)lo & TP_PSN_MASK;
}
const char *transport_verdict_name(int v);

/* A SACK's bitmap on the ack ports, a word an edge (transport_ports.h).
 *
 * In: present the header at an edge, then call transport_words_start with
 * its bitmap and code, and transport_words_feed before each later edge: it
 * puts the next word on ack_word (ack_wvalid = 1) and returns 1, or clears
 * ack_wvalid and returns 0 once every word is in (a new header may then be
 * presented at that edge).
 * Out: call transport_words_out after every edge, saying whether the edge
 * loaded a new header into the acknowledgement register: a SACK's starts the
 * collection of its words, kept as they come out (w[] is the bitmap once it
 * returns 1). */
typedef struct {
    uint64_t w[TP_NWORDS];
    uint8_t n, k; /* words in all; words fed or collected */
} transport_words_t;
void transport_words_start(transport_words_t *f, const uint64_t *bmap, unsigned code);
int transport_words_feed(transport_words_t *f, transport_in_t *in);
/* After an edge: `fresh`, the edge loaded a new header into the
 * acknowledgement register. Returns 1 when an acknowledgement is whole: a
 * header without words at once, a SACK at the edge of its last word. */
int transport_words_out(transport_words_t *f, const transport_out_t *o, int fresh);
/* words still to feed or collect */
static inline int transport_words_due(const transport_words_t *f) { return f->k < f->n; }

#ifdef __cplusplus
}
#endif

#endif
