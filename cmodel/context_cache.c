/* Context cache, C reference model: see context_cache.h and
 * docs/context_cache.md. The steps of an edge run in a fixed order that the
 * RTL mirrors: (1) the request taken CC_LOOKUP_EDGES edges before is decided
 * (a hit updates its record and is queued for its answer; a miss joins or
 * takes a miss register); (2) a fill from memory completes its miss
 * register; (4a) a hit that is due answers; (3) the lowest miss register
 * that had its record before the edge answers its next waiter (if (4a) did
 * not answer), or once none is left evicts one record of its set or
 * installs its own, as planned CC_PLAN_EDGES edges before from the set as
 * it stood then, unless the request taken at the edge before is being
 * looked up in that set; (5) the next fetch goes out, for a miss register
 * taken before the edge. The request taken at the edge enters the lookup
 * pipeline. */
#include "context_cache.h"

#include <string.h>

void context_cache_reset(context_cache_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->lfsr = 1;
    s->o.rq_ready = 1;
}

/* The random generator one edge on, and n edges on (its period is
 * 2^16 - 1 from any state but 0, which it never holds). */
static inline uint16_t lfsr_next(uint16_t l)
{
    return (uint16_t)((l >> 1) ^ (-(l & 1u) & 0xB400u));
}
static uint16_t lfsr_after(uint16_t l, uint32_t n)
{
    for (uint32_t i = n % 65535u; i > 0; i--)
        l = lfsr_next(l);
    return l;
}

static uint32_t ways_of(const context_cache_in_t *in)
{
    uint32_t w = in->cfg_ways;
    return w < 1 ? 1 : w > CC_MAX_WAYS ? CC_MAX_WAYS : w;
}

static unsigned sets_log2(const context_cache_in_t *in)
{
    return in->cfg_sets_log2 > 6 ? 6 : in->cfg_sets_log2;
}

/* the way holding (kind, id) in set st, or -1 */
static int find(const context_cache_state_t *s, uint32_t st, uint32_t ways, unsigned kind, uint32_t id)
{
    if (s->hi[st] < ways)
        ways = s->hi[st];
    for (uint32_t w = 0; w < ways; w++) {
        const cc_entry_t *e = &s->e[st][w];
        if (e->valid && e->kind == kind && e->id == id)
            return (int)w;
    }
    return -1;
}

/* The pseudo-LRU tree of a set (context_cache.h): a lookup or an install
 * of way w turns every node above it away from it. */
static void plru_touch(uint8_t *t, uint32_t w)
{
    for (uint32_t n = CC_MAX_WAYS + w; n > 1; n >>= 1) {
        uint32_t p = n >> 1;
        if (n & 1) /* w under p's right child: the victim goes left */
            t[p >> 3] = (uint8_t)(t[p >> 3] & ~(1u << (p & 7)));
        else
            t[p >> 3] = (uint8_t)(t[p >> 3] | 1u << (p & 7));
    }
}

/* The victim of set st: down the tree from the root, at each node to the
 * child its bit names (or, for random replacement, bit h of lfsr ^ seed
 * where h is the child's height above the ways), unless no valid way below
 * that child is one the cache may use (below cfg_ways): then to the other.
 * 0 when the set has no such way (a configuration changed under it). */
static uint32_t plru_victim(const context_cache_state_t *s, uint32_t st, uint32_t ways,
                            int random, uint32_t rbits)
{
    uint8_t has[2 * CC_MAX_WAYS]; /* node n: a usable valid way below it */
    for (uint32_t w = 0; w < CC_MAX_WAYS; w++)
        has[CC_MAX_WAYS + w] = w < ways && s->e[st][w].valid;
    for (uint32_t n = CC_MAX_WAYS - 1; n >= 1; n--)
        has[n] = has[2 * n] | has[2 * n + 1];
    if (!has[1])
        return 0;
    const uint8_t *t = s->plru[st];
    uint32_t n = 1;
    for (int h = 6; h >= 0; h--) {
        uint32_t d = random ? rbits >> h & 1 : (uint32_t)(t[n >> 3] >> (n & 7) & 1);
        uint32_t c = 2 * n + d;
        n = has[c] ? c : c ^ 1;
    }
    return n - CC_MAX_WAYS;
}

static int find_mshr(const context_cache_state_t *s, unsigned kind, uint32_t id)
{
    if (!s->m_used)
        return -1;
    for (int i = 0; i < CC_MSHRS; i++)
        if (s->m[i].state != CC_FREE && s->m[i].kind == kind && s->m[i].id == id)
            return i;
    return -1;
}

void context_cache_step(context_cache_state_t *s, const context_cache_in_t *in, context_cache_out_t *out)
{
    context_cache_out_t *o = &s->o;
    const uint32_t ways = ways_of(in);
    const unsigned lg = sets_log2(in);
    const uint32_t budget = in->cfg_capacity >> lg;
    const uint32_t hc = in->cfg_hit_cycles > CC_MIN_HIT ? in->cfg_hit_cycles : CC_MIN_HIT;
    const uint16_t lfsr = s->lfsr;
    int mreq_free = !o->mreq_valid || in->mreq_ready;
    const int taken = in->rq_valid && o->rq_ready;
    /* for rq_ready: the free miss registers and the most waiters of one in
     * use, before the edge */
    const unsigned n_free = CC_MSHRS - s->m_used;
    unsigned most = 0;
    for (int i = 0; s->m_used && i < CC_MSHRS; i++)
        if (s->m[i].state != CC_FREE && s->m[i].n > most)
            most = s->m[i].n;

    /* (3)'s plan for the lowest filled miss register once it has no waiter
     * left and its record can fit a set: started from the set as it stands
     * before this edge (its free way, its bytes, its tree's victim), carried
     * out when its count has run down; a different register served, or none,
     * drops it. Only a carried-out plan changes the set's valid bits and
     * bytes, so a plan's free way and victim hold until then; hits in
     * between move the tree but not the plan's victim. */
    int act = 0;
    {
        int fm0 = -1;
        for (int i = 0; s->m_used && i < CC_MSHRS && fm0 < 0; i++)
            if (s->m[i].state == CC_FILLED)
                fm0 = i;
        if (fm0 >= 0 && s->m[fm0].n == 0 && context_cache_rec(in, s->m[fm0].kind) <= budget) {
            const cc_mshr_t *m = &s->m[fm0];
            if (s->pl_on && s->pl_fm == fm0) {
                if (s->pl_cnt)
                    s->pl_cnt--;
                else
                    act = 1;
            } else {
                uint32_t st = context_cache_set(m->kind, m->id, lg);
                int free_w = -1;
                for (uint32_t w = 0; w < ways && free_w < 0; w++)
                    if (!s->e[st][w].valid)
                        free_w = (int)w;
                s->pl_on = 1;
                s->pl_fm = (uint8_t)fm0;
                s->pl_cnt = CC_PLAN_EDGES - 1;
                s->pl_free = free_w >= 0;
                s->pl_fw = (uint8_t)(free_w >= 0 ? free_w : 0);
                s->pl_fit = s->used[st] + context_cache_rec(in, m->kind) <= budget;
                s->pl_victim = (uint8_t)plru_victim(s, st, ways, in->cfg_random,
                                                    (uint32_t)(lfsr ^ in->cfg_seed));
            }
        } else {
            s->pl_on = 0;
        }
    }

    /* (1) the request decided */
    int appended = -1, alloc = -1;
    /* a write request decided: a write hit takes the record memory's one
     * write port, and an install due waits behind any write */
    int wrote = 0;
    const cc_lookup_t *rq = &s->pb;
    if (rq->valid) {
        wrote = rq->write;
        unsigned kind = rq->kind;
        uint32_t id = rq->id;
        int mi = find_mshr(s, kind, id);
        uint32_t st = context_cache_set(kind, id, lg);
        int w = mi < 0 ? find(s, st, ways, kind, id) : -1;
        if (mi >= 0 && s->m[mi].state == CC_FILLED && s->m[mi].n == 0) {
            /* its record has arrived and every earlier request was
             * answered: a hit on the miss register's copy */
            cc_mshr_t *m = &s->m[mi];
            if (rq->write) {
                m->data = rq->wdata;
                m->dirty = 1;
            }
            unsigned t = (s->f_head + s->f_n) % CC_HIT_FIFO;
            s->fifo[t].due = s->now + hc - 1 - CC_LOOKUP_EDGES;
            s->fifo[t].tag = rq->tag;
            s->fifo[t].data = m->data;
            s->f_n++;
            o->hits++;
        } else if (mi >= 0) {
            cc_mshr_t *m = &s->m[mi];
            m->w[(m->head + m->n) % CC_WAITERS] = (cc_waiter_t){rq->tag, rq->write, rq->wdata};
            m->n++;
            appended = mi;
            o->misses++;
            o->merged++;
        } else if (w >= 0) {
            cc_entry_t *e = &s->e[st][w];
            if (rq->write) {
                e->data = rq->wdata;
                e->dirty = 1;
            }
            plru_touch(s->plru[st], (uint32_t)w);
            unsigned t = (s->f_head + s->f_n) % CC_HIT_FIFO;
            s->fifo[t].due = s->now + hc - 1 - CC_LOOKUP_EDGES;
            s->fifo[t].tag = rq->tag;
            s->fifo[t].data = e->data;
            s->f_n++;
            o->hits++;
        } else {
            int f = -1;
            for (int i = 0; i < CC_MSHRS && f < 0; i++)
                if (s->m[i].state == CC_FREE)
                    f = i;
            cc_mshr_t *m = &s->m[f]; /* rq_ready promised one */
            memset(m, 0, sizeof *m);
            s->m_used++;
            m->state = CC_WAIT;
            m->kind = (uint8_t)kind;
            m->id = id;
            m->w[0] = (cc_waiter_t){rq->tag, rq->write, rq->wdata};
            m->n = 1;
            alloc = f;
            o->misses++;
        }
    }
    /* (2) a fill */
    int filled = -1; /* served by (3) from the next edge on */
    if (in->fill_valid) {
        int mi = in->fill_tag % CC_MSHRS; /* the register whose fetch it answers */
        if (s->m[mi].state == CC_WAIT && s->m[mi].sent) {
            s->m[mi].state = CC_FILLED;
            s->m[mi].data = in->fill_data;
            filled = mi;
        }
    }
    /* (4a) a hit due now answers */
    int rsp = 0;
    if (s->f_n && s->fifo[s->f_head].due == s->now) {
        o->rsp_valid = 1;
        o->rsp_tag = s->fifo[s->f_head].tag;
        o->rsp_data = s->fifo[s->f_head].data;
        o->rsp_hit = 1;
        s->f_head = (uint8_t)((s->f_head + 1) % CC_HIT_FIFO);
        s->f_n--;
        rsp = 1;
    }
    /* (3) the lowest filled miss register */
    o->wb_valid = 0;
    int fm = -1;
    for (int i = 0; s->m_used && i < CC_MSHRS && fm < 0; i++)
        if (s->m[i].state == CC_FILLED && i != filled)
            fm = i;
    if (fm >= 0) {
        cc_mshr_t *m = &s->m[fm];
        /* a waiter that joined at this edge is answered from the next */
        int older = m->n - (fm == appended);
        if (m->n) {
            if (!rsp && older > 0) { /* answer its next waiter */
                cc_waiter_t *w = &m->w[m->head];
                if (w->write) {
                    m->data = w->wdata;
                    m->dirty = 1;
                }
                o->rsp_valid = 1;
                o->rsp_tag = w->tag;
                o->rsp_data = m->data;
                o->rsp_hit = 0;
                m->head = (uint8_t)((m->head + 1) % CC_WAITERS);
                m->n--;
                rsp = 1;
            }
        } else {
            uint32_t st = context_cache_set(m->kind, m->id, lg);
            uint32_t rec = context_cache_rec(in, m->kind);
            if (rec > budget) {
                /* it can never fit: not kept; a dirty one goes back */
                if (m->dirty) {
                    o->wb_valid = 1;
                    o->wb_kind = m->kind;
                    o->wb_id = m->id;
                    o->wb_data = m->data;
                    o->wb_bytes = (uint16_t)rec;
                }
                m->state = CC_FREE;
                s->m_used--;
            } else if (!act || (s->pa.valid && context_cache_set(s->pa.kind, s->pa.id, lg) == st)) {
                /* its plan is being worked out, or it waits while the
                 * request taken at the edge before reads the set's tags */
            } else if (s->pl_free && s->pl_fit) {
                /* installed, unless (1) took a write request (a write hit
                 * takes the record memory's one write port): then at the
                 * next edge */
                if (!wrote) {
                    uint32_t free_w = s->pl_fw;
                    cc_entry_t *e = &s->e[st][free_w];
                    e->valid = 1;
                    if (free_w >= s->hi[st])
                        s->hi[st] = (uint8_t)(free_w + 1);
                    e->dirty = m->dirty;
                    e->kind = m->kind;
                    e->id = m->id;
                    e->data = m->data;
                    plru_touch(s->plru[st], free_w);
                    s->used[st] += rec;
                    m->state = CC_FREE;
                    s->m_used--;
                    s->pl_on = 0;
                }
            } else {
                /* evict one: the pseudo-LRU tree's victim */
                uint32_t v = s->pl_victim;
                cc_entry_t *e = &s->e[st][v];
                uint32_t eb = context_cache_rec(in, e->kind);
                /* the record is on the write-back port, valid if dirty */
                o->wb_valid = e->dirty ? 1 : 0;
                o->wb_kind = e->kind;
                o->wb_id = e->id;
                o->wb_data = e->data;
                o->wb_bytes = (uint16_t)eb;
                s->used[st] -= eb;
                e->valid = 0;
                while (s->hi[st] && !s->e[st][s->hi[st] - 1].valid)
                    s->hi[st]--;
                o->evictions++;
                s->pl_on = 0;
            }
        }
    }
    if (!rsp)
        o->rsp_valid = 0;
    /* (5) the next fetch */
    if (mreq_free) {
        int q = -1;
        for (int i = 0; s->m_used && i < CC_MSHRS && q < 0; i++)
            if (s->m[i].state == CC_WAIT && !s->m[i].sent && i != alloc)
                q = i;
        if (q >= 0) {
            s->m[q].sent = 1;
            o->mreq_valid = 1;
            o->mreq_kind = s->m[q].kind;
            o->mreq_id = s->m[q].id;
            o->mreq_bytes = (uint16_t)context_cache_rec(in, s->m[q].kind);
            o->mreq_tag = (uint8_t)q;
        } else {
            o->mreq_valid = 0;
        }
    }
    /* ready for the next request: for it and every request in the lookup
     * pipeline (the one decided at this edge, the two behind it), a miss
     * register free before the edge, and room for all of them in every one
     * in use (each may miss; a register freed or a waiter answered at this
     * edge counts from the next) */
    const unsigned k = (unsigned)s->pb.valid + s->pa.valid + (unsigned)taken;
    o->rq_ready = (uint8_t)(n_free >= k + 1 && most + k + 1 <= CC_WAITERS);
    s->pb = s->pa;
    s->pa = (cc_lookup_t){0};
    if (taken)
        s->pa = (cc_lookup_t){1, (uint8_t)(in->rq_kind & 3), in->rq_tag, (uint8_t)(in->rq_write & 1),
                              in->rq_id & 0xFFFFFF, in->rq_wdata};
    o->busy = (uint8_t)(s->m_used || s->f_n || s->pa.valid || s->pb.valid || o->rsp_valid ||
                        o->mreq_valid || o->wb_valid);
    s->now++;
    s->lfsr = lfsr_next(lfsr);
    *out = *o;
}

int64_t context_cache_quiet(const context_cache_state_t *s, const context_cache_in_t *in)
{
    if (in->rq_valid || in->fill_valid || s->pa.valid || s->pb.valid)
        return 0;
    const context_cache_out_t *o = &s->o;
    if (o->rsp_valid || o->mreq_valid || o->wb_valid)
        return 0;
    unsigned most = 0;
    for (int i = 0; s->m_used && i < CC_MSHRS; i++) {
        if (s->m[i].state == CC_FILLED || (s->m[i].state == CC_WAIT && !s->m[i].sent))
            return 0;
        if (s->m[i].state != CC_FREE && s->m[i].n > most)
            most = s->m[i].n;
    }
    /* rq_ready as the next edge works it out with nothing in the lookup
     * pipeline (it was worked out with the lookups then in it) */
    if (o->rq_ready != (CC_MSHRS - s->m_used >= 1 && most + 1 <= CC_WAITERS))
        return 0;
    /* a hit waiting for its answer edge: the edges before it change nothing */
    if (s->f_n)
        return (int64_t)(uint32_t)(s->fifo[s->f_head].due - s->now);
    return INT64_MAX / 4;
}

void context_cache_advance(context_cache_state_t *s, const context_cache_in_t *in, int n)
{
    (void)in;
    s->now += (uint32_t)n;
    s->lfsr = lfsr_after(s->lfsr, (uint32_t)n);
}

int context_cache_clean(const context_cache_state_t *s)
{
    const context_cache_out_t *o = &s->o;
    return !s->m_used && !s->f_n && !s->pa.valid && !s->pb.valid && !o->mreq_valid && !o->wb_valid &&
           o->rq_ready;
}

int context_cache_hit(context_cache_state_t *s, const context_cache_in_t *in, unsigned kind,
                      uint32_t id, int write, uint32_t wdata, uint32_t *data,
                      context_cache_out_t *out)
{
    kind &= 3;
    id &= 0xFFFFFF;
    uint32_t st = context_cache_set(kind, id, sets_log2(in));
    int w = find(s, st, ways_of(in), kind, id);
    if (w < 0)
        return 0;
    /* (step (1), a hit; no miss register is in use) */
    cc_entry_t *e = &s->e[st][w];
    if (write) {
        e->data = wdata;
        e->dirty = 1;
    }
    plru_touch(s->plru[st], (uint32_t)w);
    s->o.hits++;
    out->hits = s->o.hits;
    *data = e->data;
    return 1;
}

int context_cache_holds(const context_cache_state_t *s, const context_cache_in_t *in, unsigned kind,
                        uint32_t id)
{
    kind &= 3;
    id &= 0xFFFFFF;
    return find(s, context_cache_set(kind, id, sets_log2(in)), ways_of(in), kind, id) >= 0;
}

void context_cache_resume(context_cache_state_t *s, uint32_t n,
                          const context_cache_pending_t *pending, int n_pending, int answered,
                          uint8_t tag, uint32_t data, int up, context_cache_out_t *out)
{
    context_cache_out_t *o = &s->o;
    s->now += n;
    s->lfsr = lfsr_after(s->lfsr, n);
    s->f_head = 0;
    s->f_n = (uint8_t)n_pending;
    for (int i = 0; i < n_pending; i++) {
        s->fifo[i].due = pending[i].due;
        s->fifo[i].tag = pending[i].tag;
        s->fifo[i].data = pending[i].data;
    }
    if (answered) {
        o->rsp_tag = tag;
        o->rsp_data = data;
        o->rsp_hit = 1;
    }
    o->rsp_valid = (uint8_t)(answered && up);
    o->busy = (uint8_t)(s->f_n || o->rsp_valid);
    *out = *o;
}
