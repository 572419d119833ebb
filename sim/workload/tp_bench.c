/* Two nodes, a faulty link, a transport block at each end: see tp_bench.h. */
#include "tp_bench.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "hist.h"
#include "packet.h"
#include "parts.h"
#include "transport.h"
#include "ub_pkg.h"

#define HDL_N 65536u
#define CH_LOG 2048u /* per channel: packets submitted, not yet acknowledged */

typedef struct {
    uint64_t msg, off;
    uint32_t len;
    uint8_t last, ch, used;
    uint64_t sig;
} body_t;

/* a packet on a link: its bytes (packet.h) */
typedef struct {
    uint64_t at, seq;   /* arrival (units), tie-break */
    uint8_t *buf;
    uint32_t n;
} wpkt_t;

/* a data packet the receiver holds: its bytes and what they say */
typedef struct {
    uint8_t *buf;       /* NULL: none */
    pkt_hdr_t h;
    const uint8_t *payload;
} rxpkt_t;

typedef struct {
    wpkt_t *v;
    int64_t n, cap;
    uint64_t seq;
} heap_t;

static int lt(const wpkt_t *a, const wpkt_t *b) { return a->at < b->at || (a->at == b->at && a->seq < b->seq); }

static int heap_push(heap_t *h, wpkt_t *p)
{
    if (h->n == h->cap) {
        int64_t nc = h->cap ? h->cap * 2 : 64;
        wpkt_t *nv = realloc(h->v, (size_t)nc * sizeof *nv);
        if (!nv)
            return -1;
        h->v = nv;
        h->cap = nc;
    }
    p->seq = h->seq++;
    int64_t i = h->n++;
    while (i > 0 && lt(p, &h->v[(i - 1) / 2])) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = *p;
    return 0;
}

static void heap_pop(heap_t *h, wpkt_t *out)
{
    *out = h->v[0];
    wpkt_t last = h->v[--h->n];
    int64_t i = 0;
    for (;;) {
        int64_t l = 2 * i + 1, m = i;
        const wpkt_t *best = &last;
        if (l < h->n && lt(&h->v[l], best)) {
            m = l;
            best = &h->v[l];
        }
        if (l + 1 < h->n && lt(&h->v[l + 1], best))
            m = l + 1;
        if (m == i)
            break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (h->n)
        h->v[i] = last;
}

/* one direction of the link */
typedef struct {
    uint64_t free_at;  /* units */
    fault_link_t fl;
    heap_t flight;
} link_t;

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t sig_of(uint64_t msg, uint64_t off, uint32_t len, uint64_t seed)
{
    return mix(mix(mix(seed) ^ msg) ^ off) ^ len;
}

void tpb_cfg_default(tpb_cfg_t *c)
{
    memset(c, 0, sizeof *c);
    c->backend = BACKEND_C;
    c->bmap_code = 2;
    c->window = 256;
    c->ooo_cap = 1024;
    c->rto_ns = 25600;
    c->backoff = 1;
    c->retry_max = 7;
    c->mtu = 4096;
    c->msg_bytes = 4096;
    c->n_msgs = 1000;
    c->channels = 1;
    c->link_gbytes_per_s = 50;
    c->link_ns = 100;
    c->clock_mhz = 322;
    fault_spec_init(&c->fault);
}

typedef struct {
    const tpb_cfg_t *cfg;
    tpb_result_t *res;
    block_inst_t *blk[2];
    transport_in_t in[2];
    transport_out_t out[2];
    link_t link[2];
    /* a SACK's bitmap words: of one received by A, still to feed it; of
     * the one B puts out, still to collect (it leaves with the last) */
    transport_words_t ack_feed, ao_words;
    int ao_was_valid;
    uint64_t u_cycle, u_ns; /* units per cycle, per ns */
    /* sender */
    body_t hdl[HDL_N];
    uint64_t next_seq;            /* packets submitted */
    uint64_t src_msg, src_pk;     /* the source's next packet */
    uint64_t cur_msg[TP_CH], cur_pk[TP_CH]; /* the next delivery expected per channel */
    uint64_t done_ch[TP_CH];      /* messages deliverable per channel */
    uint32_t log[TP_CH][CH_LOG];  /* per channel: handles in PSN order */
    uint32_t log_head[TP_CH], log_n[TP_CH];
    uint32_t una[TP_CH];
    uint64_t *msg_start;          /* per message: first packet sent (units), or ~0 */
    /* receiver */
    rxpkt_t store[TP_CH][TP_W];
    rxpkt_t rx_pend;              /* the packet given to rx at this edge */
    rxpkt_t rx_judge;             /* the one given at the edge before: judged at this one */
    uint8_t *scratch;             /* a payload being made or checked */
    uint64_t delivered[TP_CH];    /* packets delivered per channel */
    uint64_t held_bytes;
    uint64_t msgs_deliverable;
    uint8_t failed_seen;
    hist_t hist;
    double sum_ns;
    uint64_t first_send, last_dlv;
} bench_t;

static uint64_t msg_size(const tpb_cfg_t *c, uint64_t m)
{
    return c->n_mix > 0 ? c->mix[m % (uint64_t)c->n_mix] : c->msg_bytes;
}

static uint64_t msg_pkts(const tpb_cfg_t *c, uint64_t m)
{
    return (msg_size(c, m) + c->mtu - 1) / c->mtu;
}

static void body_for(const bench_t *b, uint64_t msg, uint64_t pk, body_t *o)
{
    const tpb_cfg_t *c = b->cfg;
    o->msg = msg;
    o->off = pk * c->mtu;
    uint64_t rest = msg_size(c, msg) - o->off;
    o->len = (uint32_t)(rest < c->mtu ? rest : c->mtu);
    o->last = pk + 1 == msg_pkts(c, msg);
    o->ch = (uint8_t)(msg % (uint64_t)c->channels);
    o->sig = sig_of(msg, o->off, o->len, c->fault.seed);
    o->used = 1;
}

static uint64_t ceil_units(double v)
{
    double f = ceil(v - 1e-9);
    return f < 0 ? 0 : (uint64_t)f;
}

/* The payload of a packet: bytes that follow from its content signature. */
static void fill_payload(uint8_t *p, uint32_t len, uint64_t sig)
{
    uint64_t x = sig;
    for (uint32_t i = 0; i < len; i += 8) {
        x = mix(x);
        for (uint32_t j = 0; j < 8 && i + j < len; j++)
            p[i + j] = (uint8_t)(x >> (8 * j));
    }
}

/* A data packet as bytes: a UB RTPH (reliable data, its channel as the TPN,
 * its message number as TPMSN), a TAH of a write of the whole message (the
 * address names the message and the offset), the payload, the CRC. */
static uint8_t *encode_data(bench_t *b, int ch, uint32_t psn, const body_t *body, uint32_t *n)
{
    pkt_hdr_t h;
    memset(&h, 0, sizeof h);
    h.proto = PKT_UB;
    h.last = body->last;
    h.tp_opcode = UB_TP_RELIABLE;
    h.ack_req = 1;
    h.src_tpn = (uint32_t)ch;
    h.dst_tpn = (uint32_t)ch;
    h.psn = psn;
    h.tpmsn = (uint32_t)(body->msg & TP_PSN_MASK);
    h.ta_opcode = 0x03; /* write */
    h.mode = 2;         /* ROI */
    h.tassn = (uint16_t)body->msg;
    h.addr = body->msg << 32 | body->off;
    h.len = (uint32_t)msg_size(b->cfg, body->msg);
    h.payload_len = body->len;
    fill_payload(b->scratch, body->len, body->sig);
    size_t cap = pkt_wire_bytes(&h);
    uint8_t *buf = malloc(cap);
    if (!buf || pkt_encode(&h, b->scratch, buf, cap, NULL) != cap) {
        free(buf);
        return NULL;
    }
    *n = (uint32_t)cap;
    return buf;
}

/* Sends p on link d, taken at `now` (units): serialisation, faults, flight. */
static int link_send(bench_t *b, int d, wpkt_t *p, uint64_t now)
{
    link_t *l = &b->link[d];
    tpb_result_t *r = b->res;
    uint32_t bytes = p->n;
    uint64_t ser = ceil_units((double)bytes / b->cfg->link_gbytes_per_s * (double)b->u_ns);
    uint64_t start = now > l->free_at ? now : l->free_at;
    uint64_t end = start + ser;
    l->free_at = end;
    fault_action_t a;
    fault_decide(&l->fl, &b->cfg->fault, bytes, &a);
    if (a.lose) {
        r->lost[d]++;
        free(p->buf);
        return 0;
    }
    p->at = end + ceil_units(b->cfg->link_ns * (double)b->u_ns);
    if (a.reorder) {
        p->at += ceil_units(b->cfg->fault.reorder_ns * (double)b->u_ns);
        r->reordered[d]++;
    }
    if (a.n_flip)
        fault_apply_flips(p->buf, &a);
    wpkt_t c = *p;
    if (a.dup) {
        c.buf = malloc(p->n);
        if (!c.buf)
            return -1;
        memcpy(c.buf, p->buf, p->n);
    }
    if (heap_push(&l->flight, p))
        return -1;
    if (a.dup) {
        r->duplicated[d]++;
        l->free_at += ser;
        c.at = p->at + ser;
        if (heap_push(&l->flight, &c))
            return -1;
    }
    return 0;
}

static int fail(char *err, int errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static int fail(char *err, int errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_cfg(const tpb_cfg_t *c, char *err, int errlen)
{
    if (c->bmap_code > 4)
        return fail(err, errlen, "bitmap size code %u: expected 0..4 (64..1024 bits)", c->bmap_code);
    unsigned bits = transport_bmap_bits(c->bmap_code);
    if (c->window < 1 || c->window > bits)
        return fail(err, errlen, "window %u: expected 1..%u packets (the bitmap's bits)", c->window, bits);
    if (c->ooo_cap > TP_W)
        return fail(err, errlen, "out-of-order buffer %u: expected 0..%u packets", c->ooo_cap, TP_W);
    if (c->retry_max > 15)
        return fail(err, errlen, "retry limit %u: expected 0..15", c->retry_max);
    if (c->mtu < 1 || c->n_msgs < 1 || (c->n_mix <= 0 && c->msg_bytes < 1))
        return fail(err, errlen, "mtu, message size and message count must be at least 1");
    for (int i = 0; i < c->n_mix; i++)
        if (c->mix[i] < 1)
            return fail(err, errlen, "message sizes must be at least 1 byte");
    if (c->channels < 1 || c->channels > TP_CH)
        return fail(err, errlen, "channels %d: expected 1..%d", c->channels, TP_CH);
    if (!(c->link_gbytes_per_s > 0) || c->link_ns < 0 || !(c->clock_mhz >= 1) ||
        c->clock_mhz != floor(c->clock_mhz))
        return fail(err, errlen, "link rate must be > 0, link delay >= 0, clock a whole number of MHz");
    if (!(c->reread_ns >= 0) || c->reread_ns > 1e9)
        return fail(err, errlen, "re-read delay must be 0 to 1e9 ns");
    if (c->rto_ns < 1)
        return fail(err, errlen, "timeout must be at least 1 ns");
    /* two nodes: a drop= names the one link, if any */
    return fault_check_links(&c->fault, NULL, NULL, err, errlen) ? -1 : 0;
}

/* A packet arriving at node 1 - d over link d: its bytes decoded and
 * checked; a good one is put on the node's transport inputs (returns 1),
 * anything else is counted and freed (returns 0). */
static int take_arrival(bench_t *b, int d, wpkt_t *p)
{
    tpb_result_t *r = b->res;
    transport_in_t *in = &b->in[1 - d];
    int op = pkt_ub_opcode(p->buf, p->n);
    if (op < 0) {
        r->crc_drops[d]++;
        free(p->buf);
        return 0;
    }
    if (op == UB_TP_ACK || op == UB_TP_SACK) {
        pkt_ack_t a;
        if (pkt_ack_decode(p->buf, p->n, &a) != PKT_OK) {
            r->malformed[d]++;
        } else if (a.dst_tpn >= (uint32_t)b->cfg->channels || d != 1) {
            r->wrong_tpn[d]++;
        } else {
            in->ack_valid = 1;
            in->ack_ch = (uint8_t)a.dst_tpn;
            tp_ack_to_block(&a, in, &b->ack_feed);
            free(p->buf);
            return 1;
        }
        free(p->buf);
        return 0;
    }
    rxpkt_t x = {p->buf, {0}, NULL};
    if (pkt_decode(p->buf, p->n, PKT_UB, &x.h, &x.payload) != PKT_OK || op != UB_TP_RELIABLE) {
        r->malformed[d]++;
    } else if (x.h.dst_tpn >= (uint32_t)b->cfg->channels || d != 0) {
        r->wrong_tpn[d]++;
    } else {
        in->rx_valid = 1;
        in->rx_ch = (uint8_t)x.h.dst_tpn;
        in->rx_psn = x.h.psn;
        b->rx_pend = x;
        return 1;
    }
    free(p->buf);
    return 0;
}

/* Outputs of the edge just run: what the link takes, what B keeps and
 * delivers, what A learns. */
static int after_edge(bench_t *b, uint64_t now, char *err, int errlen)
{
    const tpb_cfg_t *cfg = b->cfg;
    tpb_result_t *r = b->res;
    transport_out_t *ob = &b->out[1];
    /* B: the verdict on the packet of the edge before (taken into a
     * register at one edge, judged at the next), then delivery */
    if (ob->rxv_valid) {
        if (!b->rx_judge.buf)
            return fail(err, errlen, "internal: a verdict on PSN %u, which was never given", ob->rxv_psn);
        r->verdict[ob->rxv_verdict < 5 ? ob->rxv_verdict : 0]++;
        if (ob->rxv_verdict == TP_ACCEPT) {
            rxpkt_t *s = &b->store[ob->rxv_ch][ob->rxv_psn % TP_W];
            if (s->buf)
                return fail(err, errlen, "receiver accepted PSN %u on channel %u twice", ob->rxv_psn,
                            ob->rxv_ch);
            *s = b->rx_judge;
            b->held_bytes += s->h.payload_len;
            if (b->held_bytes > r->buffered_bytes_peak)
                r->buffered_bytes_peak = b->held_bytes;
        } else {
            free(b->rx_judge.buf); /* refused: counted by its verdict */
        }
        b->rx_judge.buf = NULL;
    } else if (b->rx_judge.buf) {
        return fail(err, errlen, "internal: no verdict on PSN %u", b->rx_judge.h.psn);
    }
    b->rx_judge = b->rx_pend;
    b->rx_pend.buf = NULL;
    if (ob->dlv_valid) {
        int c = ob->dlv_ch;
        rxpkt_t *s = &b->store[c][ob->dlv_psn % TP_W];
        uint64_t k = b->delivered[c], m = b->cur_msg[c];
        if (!s->buf)
            return fail(err, errlen, "channel %d delivered PSN %u that it never accepted", c, ob->dlv_psn);
        if (ob->dlv_psn != (uint32_t)(k & TP_PSN_MASK))
            return fail(err, errlen, "channel %d delivered PSN %u, expected %u", c, ob->dlv_psn,
                        (uint32_t)(k & TP_PSN_MASK));
        body_t want;
        body_for(b, m, b->cur_pk[c], &want);
        const pkt_hdr_t *h = &s->h;
        int same = m < cfg->n_msgs && h->addr == (want.msg << 32 | want.off) &&
                   h->tpmsn == (uint32_t)(want.msg & TP_PSN_MASK) && h->payload_len == want.len &&
                   h->last == want.last && h->len == msg_size(cfg, want.msg);
        if (same) {
            fill_payload(b->scratch, want.len, want.sig);
            same = memcmp(s->payload, b->scratch, want.len) == 0;
        }
        if (!same)
            return fail(err, errlen,
                        "channel %d: delivery %" PRIu64 " is message %" PRIu64 " offset %" PRIu64
                        " (%u B), expected message %" PRIu64 " offset %" PRIu64
                        " (%u B), or its bytes differ",
                        c, k, (uint64_t)(h->addr >> 32), (uint64_t)(h->addr & 0xffffffffu),
                        h->payload_len, want.msg, want.off, want.len);
        b->delivered[c]++;
        b->held_bytes -= h->payload_len;
        r->bytes_delivered += h->payload_len;
        free(s->buf);
        s->buf = NULL;
        b->last_dlv = now;
        if (++b->cur_pk[c] == msg_pkts(cfg, m)) {
            b->cur_pk[c] = 0;
            b->cur_msg[c] += (uint64_t)cfg->channels;
            b->done_ch[c]++;
        }
        if (want.last) {
            b->msgs_deliverable++;
            r->msgs_done++;
            uint64_t t = now - b->msg_start[m];
            hist_add(&b->hist, (tick_t)t);
            b->sum_ns += (double)t / (double)b->u_ns;
        }
    }
    return 0;
}

int tpb_run(const tpb_cfg_t *cfg, tpb_result_t *res, char *err, int errlen)
{
    memset(res, 0, sizeof *res);
    if (check_cfg(cfg, err, errlen))
        return -1;
    bench_t *b = calloc(1, sizeof *b);
    if (!b)
        return fail(err, errlen, "out of memory");
    b->cfg = cfg;
    b->res = res;
    int rc = -1;
    hist_init(&b->hist);
    b->u_ns = (uint64_t)cfg->clock_mhz; /* a cycle is 1000 units */
    b->u_cycle = 1000;
    for (int c = 0; c < TP_CH; c++)
        b->cur_msg[c] = (uint64_t)c;
    b->msg_start = malloc(cfg->n_msgs * sizeof *b->msg_start);
    b->scratch = malloc(cfg->mtu + 8u);
    if (!b->msg_start || !b->scratch) {
        fail(err, errlen, "out of memory (%" PRIu64 " messages)", cfg->n_msgs);
        goto out;
    }
    memset(b->msg_start, 0xff, cfg->n_msgs * sizeof *b->msg_start);
    block_opts_t bo = {.kind = cfg->backend, .period_ps = (uint64_t)(1e6 / cfg->clock_mhz)};
    for (int n = 0; n < 2; n++) {
        bo.rtl_fst_path = cfg->backend != BACKEND_C ? cfg->fst[n] : NULL;
        bo.c_fst_path = cfg->backend != BACKEND_RTL ? cfg->c_fst[n] : NULL;
        b->blk[n] = block_new(&transport_class, &bo, err, errlen);
        if (!b->blk[n])
            goto out;
        block_reset(b->blk[n]);
        transport_in_t *in = &b->in[n];
        memset(in, 0, sizeof *in);
        in->cfg_gbn = (uint8_t)(cfg->gbn != 0);
        in->cfg_bmap_code = (uint8_t)cfg->bmap_code;
        in->cfg_window = (uint16_t)cfg->window;
        in->cfg_ooo_cap = (uint16_t)cfg->ooo_cap;
        double rto = ceil((double)cfg->rto_ns * cfg->clock_mhz / 1000.0);
        in->cfg_rto = (uint32_t)(rto > 4e9 ? 4e9 : rto < 1 ? 1 : rto);
        in->cfg_backoff = (uint8_t)(cfg->backoff != 0);
        in->cfg_retry_max = (uint8_t)cfg->retry_max;
        memset(&b->out[n], 0, sizeof b->out[n]); /* (ready once the first edge is in) */
        fault_link_init(&b->link[n].fl, &cfg->fault, NULL, 0, n == 0 ? FAULT_FWD : FAULT_BACK);
    }
    b->first_send = UINT64_MAX;
    int can_jump = block_can_jump(b->blk[0]) && block_can_jump(b->blk[1]);
    uint64_t cyc = 0, next_progress = 1ull << 22;
    for (;;) {
        uint64_t now = cyc * b->u_cycle; /* this edge */
        transport_in_t *ia = &b->in[0], *ib = &b->in[1];
        transport_out_t *oa = &b->out[0], *ob = &b->out[1];
        /* A's source: the next packet, if its handle is free */
        int offer = 0;
        /* the messages of a failed channel are skipped (they end in errors) */
        while (b->src_msg < cfg->n_msgs && (oa->fail >> (b->src_msg % (uint64_t)cfg->channels) & 1)) {
            b->src_msg++;
            b->src_pk = 0;
        }
        if (b->src_msg < cfg->n_msgs) {
            uint32_t h = (uint32_t)(b->next_seq % HDL_N);
            int c = (int)(b->src_msg % (uint64_t)cfg->channels);
            if (!b->hdl[h].used && b->log_n[c] < CH_LOG) {
                offer = 1;
                ia->sq_valid = 1;
                ia->sq_ch = (uint8_t)c;
                ia->sq_hdl = (uint16_t)h;
            }
        }
        if (!offer)
            ia->sq_valid = 0;
        int take_sq = offer && oa->sq_ready;
        /* the links take the output registers when free */
        ia->pkt_ready = oa->pkt_valid && b->link[0].free_at <= now;
        ib->ao_ready = ob->ao_valid && b->link[1].free_at <= now &&
                       !transport_words_due(&b->ao_words);
        /* arrivals: one packet per node and edge (none on A's acknowledgement
         * inputs while it takes a SACK's words, or at the edge after it took
         * a header) */
        ib->rx_valid = 0;
        ia->ack_valid = 0;
        int feeding = transport_words_feed(&b->ack_feed, ia);
        for (int n = 0; n < 2; n++) {
            heap_t *h = &b->link[n].flight; /* link n arrives at node 1 - n */
            if (n == 1 && (feeding || !oa->ack_ready))
                break;
            while (h->n && h->v[0].at <= now) {
                wpkt_t p;
                heap_pop(h, &p);
                if (take_arrival(b, n, &p))
                    break; /* one taken at this edge */
            }
        }
        /* the packets the links take at this edge */
        if (ia->pkt_ready) {
            /* (a resend in the output register may have been acknowledged
             * meanwhile: its handle is free but not yet reused) */
            const body_t *body = &b->hdl[oa->pkt_hdl];
            if (!body->len) {
                fail(err, errlen, "A sent handle %u that never held a packet", oa->pkt_hdl);
                goto out;
            }
            res->pkts_sent++;
            if (oa->pkt_retx) {
                res->pkts_resent++;
                res->bytes_resent += body->len;
            } else if (body->off == 0 && b->msg_start[body->msg] == UINT64_MAX) {
                b->msg_start[body->msg] = now;
            }
            if (b->first_send == UINT64_MAX)
                b->first_send = now;
            wpkt_t p = {0};
            p.buf = encode_data(b, oa->pkt_ch, oa->pkt_psn, body, &p.n);
            uint64_t at = now + (oa->pkt_retx ? ceil_units(cfg->reread_ns * (double)b->u_ns) : 0);
            if (!p.buf || link_send(b, 0, &p, at)) {
                fail(err, errlen, "out of memory");
                goto out;
            }
        }
        if (ib->ao_ready) {
            pkt_ack_t a;
            tp_ack_from_block(ob, &b->ao_words, ob->ao_ch, &a);
            res->acks_sent++;
            if (a.sack)
                res->sacks_sent++;
            else if (a.nak)
                res->naks_sent++;
            wpkt_t p = {0};
            p.n = (uint32_t)pkt_ack_bytes(&a);
            p.buf = malloc(p.n);
            if (!p.buf || pkt_ack_encode(&a, p.buf, p.n, NULL) != p.n || link_send(b, 1, &p, now)) {
                fail(err, errlen, "out of memory");
                goto out;
            }
        }
        /* the edge */
        for (int n = 0; n < 2; n++)
            if (block_step(b->blk[n], &b->in[n], &b->out[n], (uint64_t)((double)cyc * 1e6 / cfg->clock_mhz))) {
                res->mismatches = block_mismatches(b->blk[n]);
                fail(err, errlen, "lockstep: the C model and the RTL of node %c's transport differ at cycle %" PRIu64, 'A' + n, cyc);
                goto out;
            }
        /* B's acknowledgement register: a SACK newly in it starts its words
         * (the link takes it once they are in) */
        (void)transport_words_out(&b->ao_words, ob, ob->ao_valid && (!b->ao_was_valid || ib->ao_ready));
        b->ao_was_valid = ob->ao_valid;
        if (take_sq) {
            uint32_t h = ia->sq_hdl;
            body_for(b, b->src_msg, b->src_pk, &b->hdl[h]);
            if (++b->src_pk == msg_pkts(cfg, b->src_msg)) {
                b->src_pk = 0;
                b->src_msg++;
            }
            int c = ia->sq_ch;
            b->log[c][(b->log_head[c] + b->log_n[c]) % CH_LOG] = h;
            b->log_n[c]++;
            b->next_seq++;
        }
        if (oa->tmo)
            res->timeouts++;
        /* A frees the handles its channels acknowledged */
        for (int c = 0; c < cfg->channels; c++) {
            uint32_t u = transport_out_una(oa, c);
            uint32_t n = (u - b->una[c]) & TP_PSN_MASK;
            if (n > b->log_n[c]) {
                fail(err, errlen, "channel %d acknowledged %u packets, only %u in flight", c, n, b->log_n[c]);
                goto out;
            }
            for (uint32_t i = 0; i < n; i++) {
                b->hdl[b->log[c][b->log_head[c]]].used = 0;
                b->log_head[c] = (b->log_head[c] + 1) % CH_LOG;
            }
            b->log_n[c] -= n;
            b->una[c] = u;
        }
        if (after_edge(b, now, err, errlen))
            goto out;
        for (int c = 0; c < cfg->channels; c++)
            if ((oa->fail & ~b->failed_seen) >> c & 1) {
                /* a failed channel's packets are given up: their handles free */
                b->failed_seen |= (uint8_t)(1u << c);
                for (uint32_t i = 0; i < b->log_n[c]; i++)
                    b->hdl[b->log[c][(b->log_head[c] + i) % CH_LOG]].used = 0;
                b->log_n[c] = 0;
            }
        cyc++;
        if (cfg->progress && cyc >= next_progress) {
            fprintf(stderr, "loss: %" PRIu64 " cycles, %" PRIu64 " of %" PRIu64 " messages deliverable\n",
                    cyc, b->msgs_deliverable, cfg->n_msgs);
            next_progress += 1ull << 22;
        }
        /* done: every message deliverable, or on a failed channel; nothing
         * in flight or owed */
        uint64_t failed_msgs = 0;
        if (b->failed_seen)
            for (int c = 0; c < cfg->channels; c++)
                if (b->failed_seen >> c & 1) {
                    /* channel c's messages not deliverable */
                    uint64_t mine = cfg->n_msgs / (uint64_t)cfg->channels +
                                    ((uint64_t)c < cfg->n_msgs % (uint64_t)cfg->channels);
                    failed_msgs += mine - b->done_ch[c];
                }
        int all_sent = b->src_msg >= cfg->n_msgs;
        /* (B may hold packets of a failed channel for ever: it is not waited
         * for once a channel failed) */
        if (all_sent && b->msgs_deliverable + failed_msgs >= cfg->n_msgs && !oa->busy &&
            (!ob->busy || b->failed_seen) && !b->link[0].flight.n && !b->link[1].flight.n) {
            res->msgs_failed = failed_msgs;
            break;
        }
        if (cfg->max_cycles && cyc > cfg->max_cycles) {
            fail(err, errlen,
                 "the run did not finish in %" PRIu64 " cycles: %" PRIu64 " of %" PRIu64
                 " messages deliverable",
                 cfg->max_cycles, b->msgs_deliverable, cfg->n_msgs);
            goto out;
        }
        /* jump over edges where only timers run */
        if (can_jump && b->src_msg >= cfg->n_msgs) {
            transport_in_t qa = *ia, qb = *ib;
            qa.ack_valid = qa.ack_wvalid = qa.rx_valid = qa.sq_valid = 0;
            qb.ack_valid = qb.ack_wvalid = qb.rx_valid = qb.sq_valid = 0;
            qa.pkt_ready = qb.ao_ready = 0;
            int64_t q = block_quiet(b->blk[0], &qa);
            int64_t q2 = block_quiet(b->blk[1], &qb);
            if (q2 < q)
                q = q2;
            for (int n = 0; n < 2; n++)
                if (b->link[n].flight.n) {
                    uint64_t at = b->link[n].flight.v[0].at;
                    uint64_t e = (at + b->u_cycle - 1) / b->u_cycle; /* its edge */
                    int64_t gap = e > cyc ? (int64_t)(e - cyc) : 0;
                    if (gap < q)
                        q = gap;
                }
            if (q >= INT64_MAX / 8 && !b->link[0].flight.n && !b->link[1].flight.n) {
                /* nothing can happen any more, and the run is not done */
                fail(err, errlen,
                     "the run stopped: nothing left in flight and no timer running, %" PRIu64
                     " of %" PRIu64 " messages deliverable",
                     b->msgs_deliverable, cfg->n_msgs);
                goto out;
            }
            if (q > 0) {
                *ia = qa;
                *ib = qb;
                block_advance(b->blk[0], ia, q);
                block_advance(b->blk[1], ib, q);
                cyc += (uint64_t)q;
            }
        }
    }
    res->cycles = cyc;
    if (b->first_send != UINT64_MAX && b->last_dlv >= b->first_send) {
        res->ns = (double)(b->last_dlv - b->first_send) / (double)b->u_ns;
        res->deliverable_ns = (double)b->last_dlv / (double)b->u_ns;
        if (res->ns > 0)
            res->goodput_gbytes_per_s = (double)res->bytes_delivered / res->ns;
    }
    if (res->msgs_done) {
        res->mean_ns = b->sum_ns / (double)res->msgs_done;
        res->p50_ns = (double)hist_percentile(&b->hist, 50) / (double)b->u_ns;
        res->p99_ns = (double)hist_percentile(&b->hist, 99) / (double)b->u_ns;
    }
    for (int n = 0; n < 2; n++)
        res->mismatches += block_mismatches(b->blk[n]);
    rc = 0;
out:
    for (int n = 0; n < 2; n++) {
        if (b->blk[n])
            block_free(b->blk[n]);
        for (int64_t i = 0; i < b->link[n].flight.n; i++)
            free(b->link[n].flight.v[i].buf);
        free(b->link[n].flight.v);
    }
    for (int c = 0; c < TP_CH; c++)
        for (int i = 0; i < TP_W; i++)
            free(b->store[c][i].buf);
    free(b->rx_pend.buf);
    free(b->rx_judge.buf);
    free(b->scratch);
    hist_free(&b->hist);
    free(b->msg_start);
    free(b);
    return rc;
}
