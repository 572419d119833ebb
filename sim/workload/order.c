#include "order.h"

#include <stdio.h>
#include <string.h>

#include "blocks.h"

/* ---- the UB send pipeline, edge by edge --------------------------------------- */

typedef struct {
    block_inst_t *b;
    ub_tx_in_t in;
    ub_tx_out_t out; /* after the last edge */
    int64_t edge;
    uint32_t next_tag;
} ubh_t;

typedef struct {
    uint8_t mode, order, fence;
    unsigned q; /* the initiator's queue (its Jetty) */
} ub_req_t;

static void ubh_reset(ubh_t *h)
{
    block_reset(h->b);
    memset(&h->in, 0, sizeof h->in);
    memset(&h->out, 0, sizeof h->out);
    h->out.wr_ready = 1;
    h->in.pkt_ready = 1;
    h->in.cfg_tpn_base = 0x100;
    h->in.cfg_mtu_log2 = 12;
    h->edge = 0;
}

/* One edge: offers r (or nothing), a completion of queue cmp_q (or -1).
 * *accepted says r was taken at this edge, *taken_tag the tag of the packet
 * taken at it (or -1). Returns 0, or -1 on a lockstep mismatch. */
static int ubh_edge(ubh_t *h, const ub_req_t *r, int cmp_q, int *accepted, int64_t *taken_tag)
{
    ub_tx_in_t *in = &h->in;
    in->wr_valid = r != NULL;
    if (r) {
        in->wr_opcode = UB_TA_WRITE;
        in->wr_mode = r->mode;
        in->wr_order = r->order;
        in->wr_fence = r->fence;
        in->wr_jetty = r->q;
        in->wr_dst = 1;
        in->wr_len = 64;
        in->wr_addr = 0x1000;
        in->wr_token = 0x5eed;
        in->wr_tag = h->next_tag;
    }
    in->cmp_valid = cmp_q >= 0;
    in->cmp_q = (uint8_t)(cmp_q >= 0 ? cmp_q : 0);
    *accepted = r && h->out.wr_ready;
    *taken_tag = h->out.pkt_valid && h->out.pkt_last ? (int64_t)h->out.pkt_tag : -1;
    if (*accepted)
        h->next_tag++;
    int rc = block_step(h->b, in, &h->out, 0);
    h->edge++;
    return rc ? -1 : 0;
}

/* Offers r until it is accepted; returns the edge it was accepted at, or -1. */
static int64_t ubh_post(ubh_t *h, const ub_req_t *r, int64_t *taken, int *n_taken)
{
    for (int i = 0; i < ORDER_LIMIT; i++) {
        int acc;
        int64_t tag;
        int64_t e = h->edge;
        if (ubh_edge(h, r, -1, &acc, &tag))
            return -1;
        if (tag >= 0 && taken)
            taken[(*n_taken)++] = tag;
        if (acc)
            return e;
    }
    return -1;
}

static const uint8_t modes[4] = {URMA_OI, URMA_OT, URMA_OL, URMA_NO};

static int first_packet(ubh_t *h, order_result_t *r)
{
    for (int m = 0; m < 4; m++)
        for (uint8_t ord = 0; ord < 3; ord++)
            for (uint8_t f = 0; f < 2; f++) {
                ubh_reset(h);
                ub_req_t q = {modes[m], ord, f, 3};
                int64_t a = ubh_post(h, &q, NULL, NULL), t = -1;
                for (int i = 0; a >= 0 && i < ORDER_LIMIT && t < 0; i++) {
                    int acc;
                    int64_t e = h->edge, tag;
                    if (ubh_edge(h, NULL, -1, &acc, &tag))
                        return -1;
                    if (tag >= 0)
                        t = e;
                }
                order_first_t *x = &r->first[r->n_first++];
                *x = (order_first_t){modes[m], ord, f, a >= 0 && t >= 0 ? t - a : -1};
            }
    return 0;
}

/* Steps idle edges until n packets have been taken in all (taken[] holds
 * their tags), or the limit; returns the edge of the n-th, or -1. */
static int64_t ubh_until(ubh_t *h, int n, int64_t *taken, int *n_taken, int64_t limit)
{
    for (int64_t i = 0; i < limit && *n_taken < n; i++) {
        int acc;
        int64_t e = h->edge, tag;
        if (ubh_edge(h, NULL, -1, &acc, &tag))
            return -1;
        if (tag >= 0) {
            taken[(*n_taken)++] = tag;
            if (*n_taken == n)
                return e;
        }
    }
    return -1;
}

static int gated_wait(ubh_t *h, order_result_t *r)
{
    for (int k = 1; k <= ORDER_MAX_GATED; k++) {
        ubh_reset(h);
        int64_t taken[64];
        int n = 0;
        ub_req_t no = {URMA_OI, UB_ORDER_NO, 0, 0}, so = {URMA_OI, UB_ORDER_SO, 0, 0};
        for (int i = 0; i < k; i++)
            ubh_post(h, &no, taken, &n);
        ubh_until(h, k, taken, &n, ORDER_LIMIT); /* they left; their completions are held */
        ubh_post(h, &so, taken, &n);
        ubh_until(h, k + 1, taken, &n, 100); /* (it stays: nothing completed) */
        int64_t last = -1, t = -1;
        for (int i = 0; i < k && n == k; i++) { /* the completions, 10 cycles apart */
            int acc;
            int64_t tag;
            last = h->edge;
            if (ubh_edge(h, NULL, 0, &acc, &tag))
                return -1;
            for (int j = 0; j < 9 && i + 1 < k; j++)
                if (ubh_edge(h, NULL, -1, &acc, &tag))
                    return -1;
        }
        if (n == k)
            t = ubh_until(h, k + 1, taken, &n, ORDER_LIMIT);
        r->gated[r->n_gated++] = (order_gated_t){k, t >= 0 && last >= 0 ? t - last : -1};
    }
    return 0;
}

static int iso_ub(ubh_t *h, order_result_t *r)
{
    ubh_reset(h);
    int64_t taken[64];
    int n = 0;
    ub_req_t no = {URMA_OI, UB_ORDER_NO, 0, 0}, so = {URMA_OI, UB_ORDER_SO, 0, 0};
    ubh_post(h, &no, taken, &n);
    ubh_until(h, 1, taken, &n, ORDER_LIMIT);
    ubh_post(h, &so, taken, &n); /* stalled: its predecessor never completes */
    int base = n;
    int64_t first = -1;
    for (int i = 0; i < 8; i++) { /* 4 other initiators, 2 requests each */
        ub_req_t q = {URMA_OI, UB_ORDER_NO, 0, 1 + (unsigned)(i % 4)};
        int64_t a = ubh_post(h, &q, taken, &n);
        if (first < 0)
            first = a;
    }
    int64_t t = ubh_until(h, base + 8, taken, &n, ORDER_LIMIT);
    order_iso_t *x = &r->iso[r->n_iso++];
    *x = (order_iso_t){"ub", "per initiator", 4, 8, t >= 0 && first >= 0 ? t - first : -1, t < 0};
    return 0;
}

/* ---- the RoCE baseline: queue pairs in front of the RC send pipeline ---------- */

#define RC_MAX_WR 32

typedef struct {
    unsigned qpn;
    int fence;
    uint32_t tag;
} rc_wr_t;

/* Queue pairs run in order: each is a FIFO; its head is offered only when it
 * may go (a fenced one when everything earlier on its queue pair has
 * completed), and everything behind it waits. Queue pairs take turns. */
static int iso_rc(backend_kind_t be, int shared, order_result_t *r, char *err, int errlen)
{
    block_opts_t bo = {.kind = be, .period_ps = 3106};
    block_inst_t *b = block_new(&rc_send_pipeline_class, &bo, err, errlen);
    if (!b)
        return -1;
    rc_send_pipeline_in_t in;
    rc_send_pipeline_out_t out;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    out.wr_ready = 1;
    in.pkt_ready = 1;
    in.cfg_mtu_log2 = 12;
    rc_wr_t q[8][RC_MAX_WR]; /* per queue pair 1..7 */
    int head[8] = {0}, len[8] = {0}, outstanding[8] = {0};
    /* queue pair 1: a request, then a fenced one that waits for it (its
     * completion never comes); then the 8 requests of 4 initiators */
    q[1][len[1]++] = (rc_wr_t){1, 0, 100};
    q[1][len[1]++] = (rc_wr_t){1, 1, 101};
    for (int i = 0; i < 8; i++) {
        unsigned qp = shared ? 1 : 2 + (unsigned)(i % 4);
        q[qp][len[qp]++] = (rc_wr_t){qp, 0, (uint32_t)i};
    }
    int64_t first = -1, last = -1;
    int sent = 0, rr = 1, rc = 0;
    for (int64_t e = 0; e < ORDER_LIMIT && sent < 8; e++) {
        /* the packet taken at this edge (the outputs of the last one) */
        if (out.pkt_valid && out.pkt_tag < 8 && ++sent == 8)
            last = e;
        /* the next queue pair whose head may go, in turn */
        int pick = -1;
        for (int k = 0; k < 7 && pick < 0; k++) {
            int qp = 1 + (rr - 1 + k) % 7;
            if (head[qp] < len[qp] && (!q[qp][head[qp]].fence || outstanding[qp] == 0))
                pick = qp;
        }
        in.wr_valid = pick >= 0;
        if (pick >= 0) {
            const rc_wr_t *w = &q[pick][head[pick]];
            in.wr_qpn = w->qpn;
            in.wr_opcode = RC_OP_WRITE_ONLY;
            in.wr_len = 64;
            in.wr_addr = 0x1000;
            in.wr_tag = w->tag;
            if (out.wr_ready) { /* accepted at this edge */
                head[pick]++;
                outstanding[pick]++;
                rr = 1 + pick % 7;
                if (w->tag < 8 && first < 0)
                    first = e;
            }
        }
        if (block_step(b, &in, &out, 0)) {
            snprintf(err, (size_t)errlen, "lockstep mismatch in the RC send pipeline");
            rc = -1;
            break;
        }
    }
    r->lockstep_mismatches += block_mismatches(b);
    block_free(b);
    if (rc)
        return -1;
    order_iso_t *x = &r->iso[r->n_iso++];
    *x = (order_iso_t){"roce", shared ? "shared" : "separate", 4, 8,
                       last >= 0 && first >= 0 ? last - first : -1, last < 0};
    return 0;
}

int order_run(backend_kind_t be, order_result_t *r, char *err, int errlen)
{
    memset(r, 0, sizeof *r);
    ubh_t h = {0};
    block_opts_t bo = {.kind = be, .period_ps = 3106};
    h.b = block_new(&ub_tx_class, &bo, err, errlen);
    if (!h.b)
        return -1;
    int rc = first_packet(&h, r) || gated_wait(&h, r) || iso_ub(&h, r) ? -1 : 0;
    r->lockstep_mismatches += block_mismatches(h.b);
    block_free(h.b);
    if (rc) {
        snprintf(err, (size_t)errlen, "lockstep mismatch in the UB send pipeline");
        return -1;
    }
    if (iso_rc(be, 1, r, err, errlen) || iso_rc(be, 0, r, err, errlen))
        return -1;
    return 0;
}
