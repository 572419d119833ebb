/* The verbs (urma.h) and the hosts that run them (urma_host.h). */
#include "urma_host.h"

#include "order_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NODES = 2, INITIATOR = 0, TARGET = 1 };
enum { WR_FREE = 0, WR_OUT, WR_DONE, WR_TIMED_OUT };

struct urma_jfc {
    urma_context_t *ctx;
    urma_jfc_cfg_t cfg;
    urma_cr_t *ring;
    uint32_t head, count;
    uint32_t users;           /* queues that complete into it */
};

struct urma_jfs {
    urma_context_t *ctx;
    urma_jfs_cfg_t cfg;
    uint32_t id;
    uint32_t outstanding;
    int dead;
};

struct urma_jfr {
    urma_context_t *ctx;
    urma_jfr_cfg_t cfg;
    uint32_t id;
    urma_jfr_wr_t *ring;      /* posted receive buffers (copies) */
    uint32_t head, count;
    uint32_t users;
};

struct urma_jetty {
    urma_jfs_t jfs;           /* its send queue; jfs.id is the Jetty's id */
    urma_jfr_t *jfr;
};

struct urma_seg {
    urma_context_t *ctx;
    urma_seg_cfg_t cfg;
};

struct urma_target_seg {
    urma_context_t *ctx;
    urma_seg_info_t info;
    uint32_t token;
};

struct urma_target_jetty {
    urma_context_t *ctx;
    uint32_t node, jetty_id;
};

/* Everything a context made, freed with it. */
typedef struct {
    void **v;
    int n, cap;
} owned_t;

struct urma_context {
    urma_host_t *h;
    int idx;                  /* INITIATOR or TARGET */
    uint32_t node;
    node_mem_t mem;
    int mem_lent;             /* mem.bytes belong to someone else */
    kernel_t *k;              /* the node's kernel, or NULL: the host's */
    uint32_t next_id;         /* Jetty / JFS / JFR numbers */
    urma_jfs_t **jfs_tab;     /* send queues by number (NULL: not one) */
    uint32_t n_jfs_tab;
    urma_jetty_t **jetties;   /* by id (NULL: not a Jetty) */
    uint32_t n_jetties;
    owned_t owned;
    char err[256];
};

/* A request in flight, by its record's index: 32 bytes, as a burst of
 * millions keeps one each (what the message carries - its length, its
 * operation - is not repeated here). */
typedef struct {
    uint64_t user_ctx, local_va;
    uint64_t remote_va;       /* read, write: in the target's segment; send: the target Jetty */
    uint32_t token;           /* read, write: the imported segment's */
    uint32_t meta;            /* the JFS (bits 0..23), opc (24..25), state (26..27),
                                 issued (28), its NIC told it is done (29) */
} wr_rec_t;

enum { REC_ISSUED = 1u << 28, REC_TOLD = 1u << 29 };

static inline uint32_t rec_jfs(const wr_rec_t *r) { return r->meta & 0xFFFFFFu; }
static inline unsigned rec_opc(const wr_rec_t *r) { return (r->meta >> 24) & 3u; }
static inline unsigned rec_state(const wr_rec_t *r) { return (r->meta >> 26) & 3u; }
static inline void rec_set_state(wr_rec_t *r, unsigned st)
{
    r->meta = (r->meta & ~(3u << 26)) | (st << 26);
}

/* A receive completion at the target, due at a time. */
typedef struct {
    tick_t t;
    urma_jfc_t *jfc;
    urma_cr_t cr;
} due_cr_t;

struct urma_host {
    comp_t c;
    kernel_t *k;
    urma_host_cfg_t cfg;
    urma_workload_t wl;
    urma_context_t ctx[NODES];
    urma_context_t *ctxp[NODES];
    urma_context_t *tgt;      /* the target: ctx[TARGET], or another host's */
    chan_t *out, *in;
    chan_t *cmp_out;          /* completions for the send pipeline's order tracker, or NULL */
    order_check_t *oc;        /* an ordering checker watching, or NULL */
    payload_pool_t pool;
    payload_pool_t *pool_p;   /* its own, or the sharing owner's */
    int started, moves_data;
    tick_t now;
    /* ids */
    wr_rec_t *rec;
    int64_t n_rec;            /* records allocated */
    tick_t *posted_at;        /* with losses: when each was posted */
    int64_t free_head, n_free; /* without losses: free records, linked
                                  through their user_ctx */
    int64_t in_flight, oldest; /* with losses */
    uint64_t next_op;
    /* receive completions waiting for their time */
    due_cr_t *due;
    int64_t n_due, cap_due;
    urma_host_stats_t st;
};

/* ---- small helpers ------------------------------------------------------------ */

/* A request's message id from its record's index, and back (hosts sharing a
 * target number their requests apart: id = index * stride + offset). */
static inline uint32_t msg_id(const urma_host_t *h, int64_t idx)
{
    return (uint32_t)(idx * h->cfg.id_stride + h->cfg.id_offset);
}

static inline int64_t rec_index(const urma_host_t *h, uint32_t id)
{
    if (id < h->cfg.id_offset)
        return -1;
    return (int64_t)((id - h->cfg.id_offset) / h->cfg.id_stride);
}

static int ctx_fail(urma_context_t *ctx, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int ctx_fail(urma_context_t *ctx, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    return code;
}

static void *own(urma_context_t *ctx, size_t size)
{
    owned_t *o = &ctx->owned;
    if (o->n == o->cap) {
        int ncap = o->cap ? o->cap * 2 : 16;
        void **nv = realloc(o->v, (size_t)ncap * sizeof(*nv));
        if (!nv)
            return NULL;
        o->v = nv;
        o->cap = ncap;
    }
    void *p = calloc(1, size);
    if (p)
        o->v[o->n++] = p;
    else
        ctx_fail(ctx, URMA_ENOMEM, "out of memory");
    return p;
}

static int in_memory(const urma_context_t *ctx, uint64_t va, uint64_t len)
{
    return len <= ctx->mem.size && va <= ctx->mem.size - len;
}

const char *urma_last_error(const urma_context_t *ctx) { return ctx->err; }
uint32_t urma_node_id(const urma_context_t *ctx) { return ctx->node; }

uint8_t *urma_node_memory(urma_context_t *ctx, uint64_t *size)
{
    if (size)
        *size = ctx->mem.size;
    return ctx->mem.bytes;
}

uint64_t urma_now_ps(const urma_context_t *ctx)
{
    const kernel_t *k = ctx->k ? ctx->k : ctx->h->k;
    return (uint64_t)(k->now / k->tb.per_ps);
}

void urma_stop(urma_context_t *ctx) { kernel_stop(ctx->h->k); }

void urma_fail(urma_context_t *ctx, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    kernel_fail(ctx->h->k, "%s", msg);
}

/* ---- objects ------------------------------------------------------------------ */

urma_jfc_t *urma_create_jfc(urma_context_t *ctx, const urma_jfc_cfg_t *cfg)
{
    if (!cfg || cfg->depth == 0 || cfg->depth > (1u << 24)) {
        ctx_fail(ctx, URMA_EINVAL, "urma_create_jfc: depth from 1 to %u expected", 1u << 24);
        return NULL;
    }
    urma_jfc_t *q = own(ctx, sizeof(*q));
    if (!q)
        return NULL;
    q->ring = own(ctx, (size_t)cfg->depth * sizeof(urma_cr_t));
    if (!q->ring)
        return NULL;
    q->ctx = ctx;
    q->cfg = *cfg;
    return q;
}

static int jfs_setup(urma_context_t *ctx, urma_jfs_t *s, const urma_jfs_cfg_t *cfg)
{
    if (!cfg || cfg->depth == 0 || !cfg->jfc || cfg->jfc->ctx != ctx)
        return ctx_fail(ctx, URMA_EINVAL, "a send queue needs a depth above 0 and a JFC of its "
                                          "own context");
    if ((unsigned)cfg->mode > URMA_TM_UNO)
        return ctx_fail(ctx, URMA_EINVAL, "a send queue's mode: ROT 1, ROI 2, ROL 3 or UNO 4 "
                                          "(0: ROT), not %d", (int)cfg->mode);
    if (ctx->next_id > 0xFFFFFFu)
        return ctx_fail(ctx, URMA_ENOMEM, "more than 2^24 queues");
    s->ctx = ctx;
    s->cfg = *cfg;
    s->id = ctx->next_id++;
    if (s->id >= ctx->n_jfs_tab) {
        uint32_t n = s->id + 1 > ctx->n_jfs_tab * 2 ? s->id + 1 : ctx->n_jfs_tab * 2;
        urma_jfs_t **nt = realloc(ctx->jfs_tab, (size_t)n * sizeof(*nt));
        if (!nt)
            return ctx_fail(ctx, URMA_ENOMEM, "out of memory");
        memset(nt + ctx->n_jfs_tab, 0, (size_t)(n - ctx->n_jfs_tab) * sizeof(*nt));
        ctx->jfs_tab = nt;
        ctx->n_jfs_tab = n;
    }
    ctx->jfs_tab[s->id] = s;
    cfg->jfc->users++;
    return 0;
}

urma_jfs_t *urma_create_jfs(urma_context_t *ctx, const urma_jfs_cfg_t *cfg)
{
    urma_jfs_t *s = own(ctx, sizeof(*s));
    if (!s || jfs_setup(ctx, s, cfg))
        return NULL;
    return s;
}

urma_jfr_t *urma_create_jfr(urma_context_t *ctx, const urma_jfr_cfg_t *cfg)
{
    if (!cfg || cfg->depth == 0 || cfg->depth > (1u << 24) || !cfg->jfc || cfg->jfc->ctx != ctx) {
        ctx_fail(ctx, URMA_EINVAL, "urma_create_jfr: a depth from 1 to %u and a JFC of its own "
                                   "context expected", 1u << 24);
        return NULL;
    }
    urma_jfr_t *r = own(ctx, sizeof(*r));
    if (!r)
        return NULL;
    r->ring = own(ctx, (size_t)cfg->depth * sizeof(urma_jfr_wr_t));
    if (!r->ring)
        return NULL;
    r->ctx = ctx;
    r->cfg = *cfg;
    r->id = ctx->next_id++;
    cfg->jfc->users++;
    return r;
}

urma_jetty_t *urma_create_jetty(urma_context_t *ctx, const urma_jetty_cfg_t *cfg)
{
    if (!cfg || (cfg->jfr && cfg->jfr->ctx != ctx)) {
        ctx_fail(ctx, URMA_EINVAL, "urma_create_jetty: a JFR of its own context expected");
        return NULL;
    }
    urma_jetty_t *j = own(ctx, sizeof(*j));
    if (!j || jfs_setup(ctx, &j->jfs, &cfg->jfs))
        return NULL;
    j->jfr = cfg->jfr;
    if (j->jfr)
        j->jfr->users++;
    if (j->jfs.id >= ctx->n_jetties) {
        uint32_t n = j->jfs.id + 1 > ctx->n_jetties * 2 ? j->jfs.id + 1 : ctx->n_jetties * 2;
        urma_jetty_t **nv = realloc(ctx->jetties, (size_t)n * sizeof(*nv));
        if (!nv) {
            ctx_fail(ctx, URMA_ENOMEM, "out of memory");
            return NULL;
        }
        memset(nv + ctx->n_jetties, 0, (size_t)(n - ctx->n_jetties) * sizeof(*nv));
        ctx->jetties = nv;
        ctx->n_jetties = n;
    }
    ctx->jetties[j->jfs.id] = j;
    return j;
}

int urma_delete_jfc(urma_jfc_t *jfc)
{
    if (jfc->users)
        return ctx_fail(jfc->ctx, URMA_EAGAIN, "urma_delete_jfc: queues still complete into it");
    return 0; /* freed with its context */
}

int urma_delete_jfs(urma_jfs_t *jfs)
{
    if (jfs->outstanding)
        return ctx_fail(jfs->ctx, URMA_EAGAIN, "urma_delete_jfs: %u requests outstanding",
                        jfs->outstanding);
    if (!jfs->dead)
        jfs->cfg.jfc->users--;
    jfs->dead = 1;
    return 0;
}

int urma_delete_jfr(urma_jfr_t *jfr)
{
    if (jfr->users)
        return ctx_fail(jfr->ctx, URMA_EAGAIN, "urma_delete_jfr: a Jetty still uses it");
    if (jfr->cfg.depth) /* (once) */
        jfr->cfg.jfc->users--;
    jfr->cfg.depth = 0;
    return 0;
}

int urma_delete_jetty(urma_jetty_t *jetty)
{
    int was = jetty->jfs.dead;
    int rc = urma_delete_jfs(&jetty->jfs);
    if (rc || was)
        return rc;
    if (jetty->jfr)
        jetty->jfr->users--;
    jetty->jfs.ctx->jetties[jetty->jfs.id] = NULL;
    return 0;
}

uint32_t urma_jetty_id(const urma_jetty_t *jetty) { return jetty->jfs.id; }
urma_jfs_t *urma_jetty_jfs(urma_jetty_t *jetty) { return &jetty->jfs; }

urma_seg_t *urma_register_seg(urma_context_t *ctx, const urma_seg_cfg_t *cfg)
{
    if (!cfg || !(cfg->access & (URMA_ACCESS_READ | URMA_ACCESS_WRITE))) {
        ctx_fail(ctx, URMA_EINVAL, "urma_register_seg: read or write access expected");
        return NULL;
    }
    int access = (cfg->access & URMA_ACCESS_READ ? SEG_READ : 0) |
                 (cfg->access & URMA_ACCESS_WRITE ? SEG_WRITE : 0);
    char e[200];
    if (node_mem_register(&ctx->mem, cfg->va, cfg->len, cfg->token, access, e, sizeof e) < 0) {
        ctx_fail(ctx, URMA_EINVAL, "urma_register_seg: %s", e);
        return NULL;
    }
    urma_seg_t *s = own(ctx, sizeof(*s));
    if (!s)
        return NULL;
    s->ctx = ctx;
    s->cfg = *cfg;
    return s;
}

int urma_unregister_seg(urma_seg_t *seg)
{
    node_mem_t *m = &seg->ctx->mem;
    for (int i = 0; i < m->n_seg; i++) {
        if (m->seg[i].base == seg->cfg.va && m->seg[i].len == seg->cfg.len) {
            m->seg[i] = m->seg[--m->n_seg];
            return 0;
        }
    }
    return ctx_fail(seg->ctx, URMA_EINVAL, "urma_unregister_seg: not registered");
}

urma_seg_info_t urma_seg_info(const urma_seg_t *seg)
{
    return (urma_seg_info_t){.node = seg->ctx->node, .va = seg->cfg.va, .len = seg->cfg.len};
}

urma_target_seg_t *urma_import_seg(urma_context_t *ctx, const urma_seg_info_t *info, uint32_t token)
{
    if (!info) {
        ctx_fail(ctx, URMA_EINVAL, "urma_import_seg: no segment");
        return NULL;
    }
    urma_target_seg_t *t = own(ctx, sizeof(*t));
    if (!t)
        return NULL;
    t->ctx = ctx;
    t->info = *info;
    t->token = token;
    return t;
}

urma_target_jetty_t *urma_import_jetty(urma_context_t *ctx, uint32_t node, uint32_t jetty_id)
{
    urma_target_jetty_t *t = own(ctx, sizeof(*t));
    if (!t)
        return NULL;
    t->ctx = ctx;
    t->node = node;
    t->jetty_id = jetty_id;
    return t;
}

/* ---- completions ----------------------------------------------------------------- */

static void jfc_add(urma_jfc_t *q, const urma_cr_t *cr)
{
    if (q->count == q->cfg.depth) {
        kernel_fail(q->ctx->h->k, "node %u: a JFC of depth %u overflowed: poll it, or make it "
                                  "deeper than the requests that complete into it",
                    q->ctx->node, q->cfg.depth);
        return;
    }
    uint32_t at = q->head + q->count;
    if (at >= q->cfg.depth)
        at -= q->cfg.depth;
    q->ring[at] = *cr;
    q->count++;
    if (q->cfg.notify)
        q->cfg.notify(q, q->cfg.arg);
}

int urma_poll_jfc(urma_jfc_t *jfc, int cr_cnt, urma_cr_t *cr)
{
    int n = 0;
    while (n < cr_cnt && jfc->count) {
        cr[n++] = jfc->ring[jfc->head];
        if (++jfc->head == jfc->cfg.depth)
            jfc->head = 0;
        jfc->count--;
    }
    return n;
}

/* ---- posting ------------------------------------------------------------------------ */

/* Room for records up to id `id`. */
/* Room for records up to index idx; exactly n when exact (without losses
 * the most in flight is known), else doubling. */
static int rec_room(urma_host_t *h, int64_t idx, int exact)
{
    if (idx < h->n_rec)
        return 0;
    int64_t n = exact ? idx + 1 : h->n_rec ? h->n_rec : 64;
    while (n <= idx)
        n *= 2;
    wr_rec_t *nr = realloc(h->rec, (size_t)n * sizeof(*nr));
    if (!nr)
        return -1;
    memset(nr + h->n_rec, 0, (size_t)(n - h->n_rec) * sizeof(*nr));
    h->rec = nr;
    if (h->cfg.lossy) {
        tick_t *np = realloc(h->posted_at, (size_t)n * sizeof(*np));
        if (!np)
            return -1;
        h->posted_at = np;
    }
    h->n_rec = n;
    return 0;
}

static int post_one(urma_jfs_t *jfs, const urma_jfs_wr_t *wr)
{
    urma_context_t *ctx = jfs->ctx;
    urma_host_t *h = ctx->h;
    if (jfs->dead)
        return ctx_fail(ctx, URMA_EINVAL, "post: the send queue was deleted");
    if (ctx->idx != INITIATOR)
        return ctx_fail(ctx, URMA_EINVAL, "post: node %u only answers in this simulation (node "
                                          "%u initiates)",
                        ctx->node, h->ctx[INITIATOR].node);
    if (wr->len == 0)
        return ctx_fail(ctx, URMA_EINVAL, "post: a request of 0 bytes");
    if ((unsigned)wr->order > URMA_ORDER_SO)
        return ctx_fail(ctx, URMA_EINVAL, "post: order %d (NO 0, RO 1 or SO 2 expected)",
                        (int)wr->order);
    if (!in_memory(ctx, wr->local_va, wr->len))
        return ctx_fail(ctx, URMA_ENOPERM, "post: local buffer 0x%llx + %u is outside node %u's "
                                           "%llu B memory",
                        (unsigned long long)wr->local_va, wr->len, ctx->node,
                        (unsigned long long)ctx->mem.size);
    uint64_t remote_va = 0;
    uint32_t token = 0, tjetty = 0, peer = h->tgt->node;
    uint8_t opc;
    switch (wr->opcode) {
    case URMA_OPC_READ:
    case URMA_OPC_WRITE:
        opc = wr->opcode == URMA_OPC_READ ? MSG_OP_READ : MSG_OP_WRITE;
        if (!wr->tseg || wr->tseg->ctx != ctx)
            return ctx_fail(ctx, URMA_EINVAL, "post: a read or write needs a segment imported "
                                              "by this context");
        if (wr->tseg->info.node != peer)
            return ctx_fail(ctx, URMA_EINVAL, "post: segment of node %u, but node %u is the only "
                                              "node this one reaches",
                            wr->tseg->info.node, peer);
        remote_va = wr->remote_va;
        token = wr->tseg->token;
        break;
    case URMA_OPC_SEND:
        opc = MSG_OP_SEND;
        if (!wr->tjetty || wr->tjetty->ctx != ctx || wr->tjetty->node != peer)
            return ctx_fail(ctx, URMA_EINVAL, "post: a send needs a Jetty of node %u imported by "
                                              "this context", peer);
        tjetty = wr->tjetty->jetty_id;
        break;
    default:
        return ctx_fail(ctx, URMA_EINVAL, "post: unknown opcode %d", (int)wr->opcode);
    }
    if (jfs->outstanding >= jfs->cfg.depth)
        return ctx_fail(ctx, URMA_EAGAIN, "post: the send queue holds %u requests already",
                        jfs->cfg.depth);
    int64_t idx;
    if (h->cfg.lossy) {
        if (h->in_flight >= h->cfg.max_outstanding)
            return ctx_fail(ctx, URMA_EAGAIN, "post: %lld requests in flight already",
                            (long long)h->cfg.max_outstanding);
        idx = (int64_t)h->next_op;
    } else {
        if (h->n_free == 0)
            return ctx_fail(ctx, URMA_EAGAIN, "post: %lld requests in flight already",
                            (long long)h->cfg.max_outstanding);
        idx = h->free_head;
    }
    /* message ids are 32 bits */
    if ((uint64_t)idx * h->cfg.id_stride + h->cfg.id_offset > UINT32_MAX)
        return ctx_fail(ctx, URMA_ENOMEM, "post: out of request ids (2^32 with %u hosts)",
                        h->cfg.id_stride);
    if (h->cfg.lossy && rec_room(h, idx, 0))
        return ctx_fail(ctx, URMA_ENOMEM, "post: out of memory for request records");
    msg_t m = {
        .t = h->now,
        .op = h->next_op,
        .id = msg_id(h, idx),
        .len = wr->len,
        .kind = MSG_REQUEST,
        .dst = (uint16_t)h->cfg.node_id[TARGET],
        .src = (uint16_t)h->cfg.node_id[INITIATOR],
        .opc = opc,
        .ord = (uint8_t)(((jfs->cfg.mode ? (unsigned)jfs->cfg.mode : URMA_TM_ROT) & 7u) << 3 |
                         (wr->fence ? 4u : 0u) | ((unsigned)wr->order & 3u)),
        /* (the Jetty is fetched from the record by the NIC, urma_host_jetty:
         * a burst of reads on several Jetties stays one channel entry) */
    };
    if (opc != MSG_OP_READ && h->moves_data) {
        m.data = payload_new(h->pool_p, ctx->mem.bytes + wr->local_va, wr->len);
        if (!m.data)
            return ctx_fail(ctx, URMA_ENOMEM, "post: out of memory for %u B of data", wr->len);
    }
    /* committed */
    wr_rec_t *r = &h->rec[idx];
    if (h->cfg.lossy) {
        h->in_flight++;
        h->posted_at[idx] = h->now;
    } else {
        h->free_head = (int64_t)r->user_ctx;
        h->n_free--;
    }
    h->next_op++;
    r->user_ctx = wr->user_ctx;
    r->local_va = wr->local_va;
    r->remote_va = opc == MSG_OP_SEND ? tjetty : remote_va;
    r->token = token;
    r->meta = jfs->id | (uint32_t)opc << 24 | (uint32_t)WR_OUT << 26;
    jfs->outstanding++;
    h->st.posted++;
    if (h->oc)
        order_check_post(h->oc, m.op, jfs->id, m.ord);
    kernel_probe(h->k, h->cfg.post_point, m.id, h->now);
    if (chan_push(h->out, &m, h->now))
        kernel_fail(h->k, "internal: no room for a new request");
    return 0;
}

int urma_post_jfs_wr(urma_jfs_t *jfs, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr)
{
    for (; wr; wr = wr->next) {
        int rc = post_one(jfs, wr);
        if (rc) {
            if (bad_wr)
                *bad_wr = wr;
            return rc;
        }
    }
    return 0;
}

int urma_post_jetty_send_wr(urma_jetty_t *jetty, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr)
{
    return urma_post_jfs_wr(&jetty->jfs, wr, bad_wr);
}

int urma_post_jfr_wr(urma_jfr_t *jfr, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr)
{
    for (; wr; wr = wr->next) {
        int rc = 0;
        if (jfr->cfg.depth == 0)
            rc = ctx_fail(jfr->ctx, URMA_EINVAL, "post: the receive queue was deleted");
        else if (jfr->count == jfr->cfg.depth)
            rc = ctx_fail(jfr->ctx, URMA_EAGAIN, "post: the receive queue holds %u buffers already",
                          jfr->cfg.depth);
        else if (wr->len == 0 || !in_memory(jfr->ctx, wr->local_va, wr->len))
            rc = ctx_fail(jfr->ctx, URMA_ENOPERM, "post: receive buffer 0x%llx + %u is outside node "
                                                  "%u's memory",
                          (unsigned long long)wr->local_va, wr->len, jfr->ctx->node);
        if (rc) {
            if (bad_wr)
                *bad_wr = wr;
            return rc;
        }
        uint32_t at = jfr->head + jfr->count;
        if (at >= jfr->cfg.depth)
            at -= jfr->cfg.depth;
        jfr->ring[at] = *wr;
        jfr->ring[at].next = NULL;
        jfr->count++;
    }
    return 0;
}

int urma_post_jetty_recv_wr(urma_jetty_t *jetty, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr)
{
    if (!jetty->jfr) {
        if (bad_wr)
            *bad_wr = wr;
        return ctx_fail(jetty->jfs.ctx, URMA_EINVAL, "post: the Jetty has no receive queue");
    }
    return urma_post_jfr_wr(jetty->jfr, wr, bad_wr);
}

int urma_read(urma_jfs_t *jfs, urma_target_seg_t *src_tseg, uint64_t dst_va, uint64_t src_va,
              uint32_t len, uint64_t user_ctx)
{
    urma_jfs_wr_t wr = {.opcode = URMA_OPC_READ, .user_ctx = user_ctx, .local_va = dst_va,
                        .len = len, .tseg = src_tseg, .remote_va = src_va};
    return post_one(jfs, &wr);
}

int urma_write(urma_jfs_t *jfs, urma_target_seg_t *dst_tseg, uint64_t dst_va, uint64_t src_va,
               uint32_t len, uint64_t user_ctx)
{
    urma_jfs_wr_t wr = {.opcode = URMA_OPC_WRITE, .user_ctx = user_ctx, .local_va = src_va,
                        .len = len, .tseg = dst_tseg, .remote_va = dst_va};
    return post_one(jfs, &wr);
}

int urma_send(urma_jfs_t *jfs, urma_target_jetty_t *tjetty, uint64_t src_va, uint32_t len,
              uint64_t user_ctx)
{
    urma_jfs_wr_t wr = {.opcode = URMA_OPC_SEND, .user_ctx = user_ctx, .local_va = src_va,
                        .len = len, .tjetty = tjetty};
    return post_one(jfs, &wr);
}

/* ---- the target -------------------------------------------------------------------- */

uint32_t urma_host_jetty(void *host, const msg_t *m)
{
    urma_host_t *h = host;
    int64_t i = rec_index(h, m->id);
    return i >= 0 && i < h->n_rec ? rec_jfs(&h->rec[i]) : 0;
}

void urma_host_fields(void *host, const msg_t *m, pkt_hdr_t *hd)
{
    urma_host_t *h = host;
    int64_t i = rec_index(h, m->id);
    if (i < 0 || i >= h->n_rec)
        return;
    const wr_rec_t *r = &h->rec[i];
    hd->addr = r->remote_va;
    hd->token = r->token;
}

static void due_add(urma_host_t *h, tick_t t, urma_jfc_t *jfc, const urma_cr_t *cr)
{
    if (h->n_due == h->cap_due) {
        int64_t n = h->cap_due ? h->cap_due * 2 : 16;
        due_cr_t *nd = realloc(h->due, (size_t)n * sizeof(*nd));
        if (!nd) {
            kernel_fail(h->k, "out of memory");
            return;
        }
        h->due = nd;
        h->cap_due = n;
    }
    /* seen by the target's host the instant after (a clocked part may not
     * wake another in its own instant) */
    h->due[h->n_due++] = (due_cr_t){t + 1, jfc, *cr};
    kernel_wake(&h->c, t + 1);
}

/* A send lands in the next receive buffer of the target Jetty; 0, or -1
 * when it is refused. */
static int land_send(urma_host_t *h, const wr_rec_t *r, uint32_t data, uint32_t len, tick_t t)
{
    urma_context_t *tc = h->tgt;
    urma_jetty_t *j = r->remote_va < tc->n_jetties ? tc->jetties[r->remote_va] : NULL;
    urma_jfr_t *q = j ? j->jfr : NULL;
    if (!q || q->count == 0) {
        h->st.no_recv_buffer++;
        return -1;
    }
    urma_jfr_wr_t b = q->ring[q->head];
    if (++q->head == q->cfg.depth)
        q->head = 0;
    q->count--;
    urma_cr_t cr = {.opcode = URMA_OPC_SEND, .recv = 1, .user_ctx = b.user_ctx,
                    .local_id = j->jfs.id, .time_ps = (uint64_t)(t / h->k->tb.per_ps)};
    if (len > b.len) {
        cr.status = URMA_CR_LOC_LEN_ERR;
    } else {
        if (data)
            node_mem_write(&tc->mem, b.local_va, payload_bytes(h->pool_p, data), len);
        cr.completion_len = len;
    }
    due_add(h, t, q->cfg.jfc, &cr);
    return cr.status == URMA_CR_SUCCESS ? 0 : -1;
}

void urma_host_emit(void *host, msg_t *m, tick_t t)
{
    urma_host_t *h = host;
    int64_t i = rec_index(h, m->id);
    if (i < 0 || i >= h->n_rec)
        return;
    const wr_rec_t *r = &h->rec[i];
    m->dst = (uint16_t)h->cfg.node_id[INITIATOR]; /* the answer goes back */
    m->src = (uint16_t)h->tgt->node;
    uint32_t data = m->data;
    m->data = 0;
    node_mem_t *tm = &h->tgt->mem;
    /* the memory a read or a write names: checked by the receive pipeline
     * where the path has one, and here again before a byte is touched (a
     * path without send pipelines has no receive checks) */
    if (!(m->flags & MSG_NAK) && h->moves_data && m->opc != MSG_OP_SEND &&
        node_mem_check(tm, r->token, r->remote_va, m->len,
                       m->opc == MSG_OP_READ ? SEG_READ : SEG_WRITE) != MEM_OK)
        m->flags |= MSG_NAK;
    if (!(m->flags & MSG_NAK) && h->moves_data) {
        h->st.executed++;
        if (h->oc)
            order_check_execute(h->oc, m->op, t);
        switch (m->opc) {
        case MSG_OP_READ:
            m->data = payload_new(h->pool_p, tm->bytes + r->remote_va, m->len);
            if (!m->data)
                kernel_fail(h->k, "out of memory for the bytes of request %llu",
                            (unsigned long long)m->op);
            break;
        case MSG_OP_WRITE:
            if (data)
                node_mem_write(tm, r->remote_va, payload_bytes(h->pool_p, data), m->len);
            break;
        case MSG_OP_SEND:
            if (land_send(h, r, data, m->len, t)) /* refused: a negative answer */
                m->flags |= MSG_NAK;
            break;
        }
    }
    payload_release(h->pool_p, data);
}

/* ---- the host component -------------------------------------------------------------- */

/* The initiator's NIC learns that a request it issued is done, once: when
 * its response arrives, or when the host gave up on it (after its issue; one
 * the host gave up on before the NIC issued it is done the moment it is
 * issued). Its order tracker counts it, and so does a checker. */
static void tell_nic(urma_host_t *h, int64_t idx, uint64_t op)
{
    wr_rec_t *r = &h->rec[idx];
    if (r->meta & REC_TOLD)
        return;
    r->meta |= REC_TOLD;
    if (h->cmp_out) {
        msg_t c = {.t = h->now, .jetty = rec_jfs(r), .kind = MSG_COMPLETION};
        if (chan_push(h->cmp_out, &c, h->now))
            kernel_fail(h->k, "internal: no room for a completion notice");
    }
    if (h->oc)
        order_check_complete(h->oc, op, h->now);
}

void urma_host_issued(void *host, const msg_t *m, tick_t t)
{
    urma_host_t *h = host;
    int64_t i = rec_index(h, m->id);
    if (i < 0 || i >= h->n_rec)
        return;
    wr_rec_t *r = &h->rec[i];
    if (h->oc)
        order_check_issue(h->oc, m->op, t);
    r->meta |= REC_ISSUED;
    if (rec_state(r) == WR_TIMED_OUT) { /* the host gave up on it already */
        tick_t now = h->now;
        h->now = t;
        tell_nic(h, i, m->op);
        h->now = now;
    }
}

static void complete(urma_host_t *h, uint32_t id, urma_cr_status_t status, uint32_t len,
                     uint64_t op)
{
    (void)op;
    wr_rec_t *r = &h->rec[id];
    urma_jfs_t *jfs = h->ctx[INITIATOR].jfs_tab[rec_jfs(r)];
    urma_cr_t cr = {
        .status = status,
        .opcode = rec_opc(r) == MSG_OP_READ    ? URMA_OPC_READ
                  : rec_opc(r) == MSG_OP_WRITE ? URMA_OPC_WRITE
                                               : URMA_OPC_SEND,
        .user_ctx = r->user_ctx,
        .completion_len = status == URMA_CR_SUCCESS ? len : 0,
        .local_id = jfs->id,
        .time_ps = (uint64_t)(h->now / h->k->tb.per_ps),
    };
    jfs->outstanding--;
    h->st.completed++;
    if (status != URMA_CR_SUCCESS)
        h->st.errors++;
    if (h->cfg.lossy) {
        rec_set_state(r, status == URMA_CR_ACK_TIMEOUT_ERR ? WR_TIMED_OUT : WR_DONE);
        h->in_flight--;
    } else {
        rec_set_state(r, WR_FREE);
        r->user_ctx = (uint64_t)h->free_head; /* (after the record was read) */
        h->free_head = id;
        h->n_free++;
    }
    jfc_add(jfs->cfg.jfc, &cr);
}

/* A response or acknowledgement arrives; returns -1 after failing the run. */
static int arrive(urma_host_t *h, msg_t *m)
{
    if (m->flags & (MSG_CORRUPT | MSG_COPY)) {
        /* a path with no receive pipeline to check it: the host does */
        h->st.flagged++;
        payload_release(h->pool_p, m->data);
        return 0;
    }
    int64_t idx = rec_index(h, m->id);
    wr_rec_t *r = idx >= 0 && idx < h->n_rec ? &h->rec[idx] : NULL;
    /* with losses a record is a request's own (index = its number) */
    if (h->cfg.lossy && (!r || (uint64_t)idx != m->op || rec_state(r) != WR_OUT)) {
        h->st.stale++; /* after its deadline: it ended in an error already */
        if (r && (uint64_t)idx == m->op)
            tell_nic(h, idx, m->op); /* (if it was not told at the deadline) */
        payload_release(h->pool_p, m->data);
        return 0;
    }
    if (!r || rec_state(r) != WR_OUT) {
        kernel_fail(h->k, "a completion for request %llu came back in slot %lld, which holds no "
                          "request: a wrong result would have been reported as good",
                    (unsigned long long)m->op, (long long)idx);
        return -1;
    }
    urma_cr_status_t status = URMA_CR_SUCCESS;
    if (m->flags & MSG_NAK) {
        status = URMA_CR_REM_ACCESS_ABORT_ERR;
        h->st.refused++;
    } else if (rec_opc(r) == MSG_OP_READ && h->moves_data) {
        const char *why = NULL;
        if (!m->data)
            why = "brought no bytes back";
        else if (payload_len(h->pool_p, m->data) != m->len)
            why = "brought back the wrong number of bytes";
        if (why) {
            kernel_fail(h->k, "read %llu of %u B %s: a wrong result would have been reported as "
                              "good",
                        (unsigned long long)m->op, m->len, why);
            return -1;
        }
        node_mem_write(&h->ctx[INITIATOR].mem, r->local_va, payload_bytes(h->pool_p, m->data),
                       m->len);
    }
    payload_release(h->pool_p, m->data);
    kernel_probe(h->k, h->cfg.done_point, m->id, h->now);
    tell_nic(h, idx, m->op);
    complete(h, (uint32_t)idx, status, m->len, m->op);
    return 0;
}

static tick_t host_commit(comp_t *c, tick_t now)
{
    urma_host_t *h = (urma_host_t *)c;
    h->now = now;
    if (!h->started) {
        h->started = 1;
        if (h->wl.start && h->wl.start(h->wl.arg, h->ctxp, NODES) && !h->k->failed)
            kernel_fail(h->k, "workload '%s' failed to start: %s",
                        h->wl.name ? h->wl.name : "?", h->ctx[INITIATOR].err);
    }
    while (chan_peek(h->in, now)) {
        msg_t m = chan_pop(h->in, now);
        if (arrive(h, &m))
            return TICK_NEVER;
    }
    /* receive completions whose time has come, in order */
    tick_t next = TICK_NEVER;
    if (h->n_due) {
        int64_t kept = 0;
        for (int64_t i = 0; i < h->n_due; i++) {
            due_cr_t d = h->due[i];
            if (d.t <= now) {
                jfc_add(d.jfc, &d.cr);
            } else {
                if (d.t < next)
                    next = d.t;
                h->due[kept++] = d;
            }
        }
        h->n_due = kept;
    }
    if (h->cfg.lossy) {
        /* requests with no completion within the timeout end in an error; a
         * completion at the very deadline still counts (whatever order the
         * parts of that instant run in): a request fails after it */
        while (h->oldest < (int64_t)h->next_op &&
               (rec_state(&h->rec[h->oldest]) != WR_OUT ||
                h->posted_at[h->oldest] + h->cfg.timeout < now)) {
            if (rec_state(&h->rec[h->oldest]) == WR_OUT) {
                h->st.timeouts++;
                if (h->rec[h->oldest].meta & REC_ISSUED)
                    tell_nic(h, h->oldest, (uint64_t)h->oldest);
                complete(h, (uint32_t)h->oldest, URMA_CR_ACK_TIMEOUT_ERR, 0, (uint64_t)h->oldest);
            }
            h->oldest++;
        }
        if (h->oldest < (int64_t)h->next_op &&
            h->posted_at[h->oldest] + h->cfg.timeout + 1 < next)
            next = h->posted_at[h->oldest] + h->cfg.timeout + 1;
    }
    tick_t a = chan_next_time(h->in, now);
    return a < next ? a : next;
}

static const comp_ops_t host_ops = {.commit = host_commit};

/* ---- set-up ----------------------------------------------------------------------------- */

urma_host_t *urma_host_new(kernel_t *k, const char *name, const urma_host_cfg_t *cfg,
                           const urma_workload_t *wl, char *err, int errlen)
{
    if (cfg->max_outstanding < 1 || cfg->max_outstanding > UINT32_MAX) {
        snprintf(err, (size_t)errlen, "from 1 to %u requests in flight, not %lld", UINT32_MAX,
                 (long long)cfg->max_outstanding);
        return NULL;
    }
    urma_host_t *h = calloc(1, sizeof(*h));
    if (!h) {
        snprintf(err, (size_t)errlen, "out of memory");
        return NULL;
    }
    snprintf(h->c.name, sizeof h->c.name, "%s", name);
    h->c.ops = &host_ops;
    h->k = k;
    h->cfg = *cfg;
    if (h->cfg.id_stride == 0)
        h->cfg.id_stride = 1;
    h->wl = *wl;
    h->moves_data = 1;
    urma_host_t *owner = cfg->share_target;
    if (owner) {
        h->pool_p = owner->pool_p;
    } else {
        payload_init(&h->pool);
        h->pool_p = &h->pool;
        k->payloads = h->pool_p;
    }
    h->tgt = owner ? owner->tgt : &h->ctx[TARGET];
    for (int i = 0; i < NODES; i++) {
        urma_context_t *x = &h->ctx[i];
        x->h = h;
        x->idx = i;
        x->node = cfg->node_id[i];
        h->ctxp[i] = i == TARGET ? h->tgt : x;
        if (i == TARGET && owner)
            continue; /* (another host's) */
        if (node_mem_init(&x->mem, cfg->mem_bytes[i])) {
            snprintf(err, (size_t)errlen, "out of memory for node %u's %llu B memory", x->node,
                     (unsigned long long)cfg->mem_bytes[i]);
            urma_host_free(h);
            return NULL;
        }
    }
    if (!cfg->lossy) {
        if (rec_room(h, cfg->max_outstanding - 1, 1)) {
            snprintf(err, (size_t)errlen, "out of memory for %lld requests in flight",
                     (long long)cfg->max_outstanding);
            urma_host_free(h);
            return NULL;
        }
        for (int64_t i = 0; i < cfg->max_outstanding; i++)
            h->rec[i].user_ctx = (uint64_t)(i + 1); /* the free list: record 0 first */
        h->free_head = 0;
        h->n_free = cfg->max_outstanding;
    }
    return h;
}

int urma_host_connect(urma_host_t *h, chan_t *out, chan_t *in, char *err, int errlen)
{
    h->out = out;
    h->in = in;
    out->src = &h->c;
    in->dst = &h->c;
    if (kernel_add(h->k, &h->c, 0)) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    return 0;
}

node_mem_t *urma_host_mem(urma_host_t *h, int node) { return &h->ctxp[node]->mem; }
urma_context_t *urma_host_context(urma_host_t *h, int node) { return h->ctxp[node]; }
payload_pool_t *urma_host_pool(urma_host_t *h) { return h->pool_p; }
const urma_host_stats_t *urma_host_stats(const urma_host_t *h) { return &h->st; }
void urma_host_set_moves_data(urma_host_t *h, int yes) { h->moves_data = yes; }

void urma_host_set_checker(urma_host_t *h, order_check_t *oc) { h->oc = oc; }

void urma_host_set_cmp(urma_host_t *h, chan_t *c)
{
    h->cmp_out = c;
    if (c)
        c->src = &h->c;
}

int urma_host_ended(const urma_host_t *h, uint32_t id, tick_t t)
{
    int64_t i = rec_index(h, id);
    if (!h->cfg.lossy || i < 0 || i >= h->n_rec)
        return 0;
    const wr_rec_t *r = &h->rec[i];
    return rec_state(r) == WR_TIMED_OUT ||
           (rec_state(r) == WR_OUT && t > h->posted_at[i] + h->cfg.timeout);
}

void urma_host_free(urma_host_t *h)
{
    if (!h)
        return;
    for (int i = 0; i < NODES; i++) {
        urma_context_t *x = &h->ctx[i];
        if (x->mem_lent)
            x->mem.bytes = NULL;
        node_mem_free(&x->mem);
        for (int j = 0; j < x->owned.n; j++)
            free(x->owned.v[j]);
        free(x->owned.v);
        free(x->jetties);
        free(x->jfs_tab);
    }
    if (!h->cfg.share_target)
        payload_free_all(&h->pool);
    free(h->rec);
    free(h->posted_at);
    free(h->due);
    free(h);
}

void urma_host_set_node_kernel(urma_host_t *h, int node, kernel_t *k) { h->ctxp[node]->k = k; }

int urma_host_use_memory(urma_host_t *h, int node, uint8_t *bytes, uint64_t size)
{
    urma_context_t *x = h->ctxp[node];
    if (!bytes || size < x->mem.size)
        return -1;
    memcpy(bytes, x->mem.bytes, (size_t)x->mem.size);
    if (!x->mem_lent)
        node_mem_drop_bytes(&x->mem);
    x->mem.bytes = bytes;
    x->mem_lent = 1;
    return 0;
}

void urma_host_at(urma_host_t *h, tick_t t)
{
    if (t > h->now)
        h->now = t;
}
