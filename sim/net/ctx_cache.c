/* A context cache run by the NIC pipeline it serves (see parts.h).
 *
 * At each edge it has work at, it is given a record arriving from memory
 * (a fill) and the oldest lookup not yet presented (if it is ready), is
 * stepped, and hands on what it put out: an answer to the pipeline (in from
 * the next edge), a fetch (its record arrives `miss` ticks later), a
 * write-back (counted). Its clock is gated while it has nothing to do -
 * every lookup answered, none due, no fetch under way, the block not busy
 * (but for lowering the answer it just gave, with no miss register in use) -
 * and it wakes for the next lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"

static void idle_inputs(ctx_cache_t *cc)
{
    cc->in.rq_valid = 0;
    cc->in.rq_write = 0;
    cc->in.fill_valid = 0;
    cc->in.mreq_ready = 1;
}

static int grow(void **v, int *cap, size_t size, int n)
{
    if (n < *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 16;
    void *nv = realloc(*v, (size_t)nc * size);
    if (!nv)
        return -1;
    *v = nv;
    *cap = nc;
    return 0;
}

int ctx_cache_init(ctx_cache_t *cc, block_inst_t *blk, const ctx_cfg_t *cfg, tick_t period,
                   tick_t miss, int64_t per_ps, const char *where)
{
    memset(cc, 0, sizeof(*cc));
    cc->blk = blk;
    cc->period = period;
    cc->per_ps = per_ps;
    cc->miss = miss;
    cc->last = -1;
    snprintf(cc->where, sizeof cc->where, "%s", where);
    for (int i = 0; i < CTX_TAGS; i++) {
        cc->tag_id[i] = -1;
        cc->promised[i] = -1;
    }
    context_cache_in_t *in = &cc->in;
    in->cfg_capacity = (uint32_t)cfg->cache_bytes;
    in->cfg_sets_log2 = (uint8_t)cfg->sets_log2;
    in->cfg_ways = (uint8_t)cfg->ways;
    for (int k = 0; k < 4; k++)
        in->cfg_rec_bytes |= (uint64_t)(cfg->rec[k] & 0x7FF) << (11 * k);
    in->cfg_random = 0;
    in->cfg_seed = 1;
    in->cfg_hit_cycles = (uint8_t)cfg->hit_cycles;
    cc->hit_edges = in->cfg_hit_cycles > CC_MIN_HIT ? in->cfg_hit_cycles : CC_MIN_HIT;
    cc->v_done.ans = -1;
    idle_inputs(cc);
    cc->can_jump = block_can_jump(blk);
    cc->wants_time = block_wants_time(blk);
    block_reset(blk);
    block_step(blk, &cc->in, &cc->out, 0); /* the wires after reset */
    cc->misses_idle = cc->out.misses;
    return 0;
}

/* ---- hits answered without stepping ------------------------------------------
 *
 * A lookup that hits in a C model with nothing else under way (no lookup
 * queued, unanswered or in the cache's lookup pipeline, no fetch, no miss
 * register in use) changes, at the edge that decides it, only its record
 * (data), its set's replacement tree and the hit count; its answer comes
 * hit_edges - 1 edges after its lookup whatever else happens, as no other
 * answer can take that edge (lookups come one an edge, hits answer in order
 * after the same number of edges, and misses are not under way). Taking
 * its changes at once, not at the edge that decides it, changes nothing
 * another lookup sees: a lookup after it is decided after it too. Such a
 * hit is taken at once (context_cache_hit) and the edges its lookup and
 * answer make the cache run are counted, not stepped: the cache runs from
 * its lookup edge through its answer edge, and is gated from the edge after
 * (lowering the answer is left to the next edge it runs, as when stepped).
 * Before the model must step again (any other lookup) the registers are set
 * as the steps would have left them (v_sync), but that a hit still in the
 * lookup pipeline then waits among the decided ones for its answer edge
 * (where the model answers it at the same edge). */

/* The hits answered before edge t leave the ring (the last of them is the
 * last answer given before t). */
static void v_prune(ctx_cache_t *cc, tick_t t)
{
    while (cc->v_n && cc->v_q[cc->v_head].ans < t) {
        cc->v_done = cc->v_q[cc->v_head];
        cc->v_head = (cc->v_head + 1) & 15;
        cc->v_n--;
    }
}

/* A lookup at edge t answered without stepping: 1 with its record in from
 * *in, or 0 (nothing changed) when it must be stepped. */
static int v_hit(ctx_cache_t *cc, uint32_t id, unsigned kind, uint32_t rec, int write,
                 uint32_t wdata, tick_t t, tick_t *in)
{
    if (cc->q_n || cc->tags_used || cc->f_n)
        return 0;
    context_cache_state_t *s = block_c_state(cc->blk);
    if (!s)
        return 0;
    const tick_t P = cc->period;
    if (!cc->v_on) {
        if (t <= cc->last || !context_cache_clean(s))
            return 0;
        const context_cache_out_t *o = &cc->out;
        /* the edges before t are gated (active() notes the miss count of an
         * idle cache), and so is the one after the answer, as long as no
         * lookup missed since it was last idle */
        if (!o->busy && cc->last >= 0 && t > cc->last + P)
            cc->misses_idle = o->misses;
        if (o->misses != cc->misses_idle)
            return 0;
    } else if (t <= cc->v_lookup) {
        return 0;
    }
    if (cc->v_on)
        v_prune(cc, t);
    if (cc->v_on && cc->v_n == 16)
        return 0; /* (not with at most 15 edges per hit) */
    uint32_t data;
    if (!context_cache_hit(s, &cc->in, kind, rec, write, wdata, &data, &cc->out))
        return 0;
    tick_t ans = t + (tick_t)(cc->hit_edges - 1) * P;
    if (!cc->v_on) {
        cc->v_on = 1;
        cc->v_edges = 0;
        cc->v_head = cc->v_n = 0;
        cc->v_done.ans = -1;
    }
    cc->v_edges += t > cc->last ? (uint32_t)cc->hit_edges : (uint32_t)((ans - cc->last) / P);
    /* its tag: the lowest one not held by a hit still to answer (as a
     * stepped lookup would take it) */
    unsigned held = 0;
    for (int i = 0; i < cc->v_n; i++)
        held |= 1u << cc->v_q[(cc->v_head + i) & 15].tag;
    uint8_t tag = (uint8_t)__builtin_ctz(~held);
    cc->v_q[(cc->v_head + cc->v_n++) & 15] = (struct ctx_vhit){ans, id, data, tag};
    cc->v_lookup = t;
    cc->v_taken++;
    if (ans > cc->last)
        cc->last = ans;
    *in = ans + P;
    return 1;
}

/* Before the model steps at edge e: the registers as the steps of the edges
 * run since it last stepped would have left them, through the edge before e
 * (or through the last answer, when that is earlier); the hits still to
 * answer hold their tags, their answers promised. */
static void v_sync(ctx_cache_t *cc, tick_t e)
{
    if (!cc->v_on)
        return;
    context_cache_state_t *s = block_c_state(cc->blk);
    const tick_t P = cc->period;
    tick_t through = e <= cc->last ? e - P : cc->last;
    uint32_t n = cc->v_edges - (uint32_t)((cc->last - through) / P);
    uint32_t after = s->now + n; /* the edge count after `through` */
    v_prune(cc, through + P);
    context_cache_pending_t pend[16];
    for (int i = 0; i < cc->v_n; i++) {
        const struct ctx_vhit *h = &cc->v_q[(cc->v_head + i) & 15];
        pend[i] = (context_cache_pending_t){after + (uint32_t)((h->ans - through) / P) - 1,
                                            h->tag, h->data};
        cc->tag_id[h->tag] = h->id;
        cc->promised[h->tag] = h->ans + P;
        cc->last_tag = h->tag;
    }
    cc->tags_used = cc->v_n;
    int answered = cc->v_done.ans >= 0;
    context_cache_resume(s, n, pend, cc->v_n, answered, cc->v_done.tag, cc->v_done.data,
                         answered && cc->v_done.ans == through, &cc->out);
    cc->last = through;
    cc->v_on = 0;
    cc->v_n = 0;
    cc->v_done.ans = -1;
}

int ctx_cache_lookup(ctx_cache_t *cc, uint32_t id, unsigned kind, uint32_t rec, int write,
                     uint32_t wdata, tick_t t)
{
    v_sync(cc, t);
    if (grow((void **)&cc->q, &cc->q_cap, sizeof(*cc->q), cc->q_n + 1))
        return -1;
    /* keep the ring contiguous from q_head: append at the end, compacting
     * when it reaches the capacity */
    if (cc->q_head + cc->q_n >= cc->q_cap) {
        memmove(cc->q, cc->q + cc->q_head, (size_t)cc->q_n * sizeof(*cc->q));
        cc->q_head = 0;
    }
    cc->q[cc->q_head + cc->q_n++] = (struct ctx_lookup){t, id, rec & 0xFFFFFF, wdata,
                                                        (uint8_t)(kind & 3), (uint8_t)(write != 0)};
    return 0;
}

/* Whether a lookup is due at edge e. */
static int lookup_due(const ctx_cache_t *cc, tick_t e)
{
    return cc->q_n > 0 && cc->q[cc->q_head].t <= e;
}

/* Whether a hit its lookup promised answers at edge e (its answer is out
 * from the next edge): the edge is stepped, no jump can cross it. */
static int answer_due(const ctx_cache_t *cc, tick_t e)
{
    return cc->tags_used == 1 && cc->promised[cc->last_tag] == e + cc->period;
}

/* Whether it has work at edge e (else its clock is gated). Once every
 * lookup is answered, the only thing left may be to lower the answer it
 * just gave: when no lookup has missed since it was last idle (so no miss
 * register can be in use), that is done on the next edge it runs. */
static int active(ctx_cache_t *cc, tick_t e)
{
    if (lookup_due(cc, e) || cc->tags_used > 0 || cc->f_n > 0)
        return 1;
    const context_cache_out_t *o = &cc->out;
    if (!o->busy) {
        cc->misses_idle = o->misses;
        return 0;
    }
    return !(o->rsp_valid && !o->mreq_valid && !o->wb_valid && o->misses == cc->misses_idle);
}

/* One edge at t. */
static int step(ctx_cache_t *cc, tick_t t, char *err, int errlen)
{
    idle_inputs(cc);
    if (cc->f_n && cc->f[cc->f_head].t <= t) {
        struct ctx_fetch *f = &cc->f[cc->f_head];
        cc->in.fill_valid = 1;
        cc->in.fill_tag = f->tag;
        cc->in.fill_data = f->id;
        cc->f_head++;
        if (--cc->f_n == 0)
            cc->f_head = 0;
    }
    if (lookup_due(cc, t) && cc->out.rq_ready && cc->tags_used < CTX_TAGS) {
        struct ctx_lookup *l = &cc->q[cc->q_head];
        int tag = 0;
        while (cc->tag_id[tag] >= 0)
            tag++;
        cc->tag_id[tag] = l->id;
        cc->tags_used++;
        cc->last_tag = tag;
        cc->in.rq_valid = 1;
        cc->in.rq_kind = l->kind;
        cc->in.rq_id = l->rec;
        cc->in.rq_tag = (uint8_t)tag;
        cc->in.rq_write = l->write;
        cc->in.rq_wdata = l->wdata;
        cc->decide_by = t + CC_LOOKUP_EDGES * cc->period;
        cc->q_head++;
        if (--cc->q_n == 0)
            cc->q_head = 0;
    }
    if (block_step(cc->blk, &cc->in, &cc->out, cc->wants_time ? (uint64_t)(t / cc->per_ps) : 0)) {
        snprintf(err, (size_t)errlen, "lockstep mismatch between the C model and the RTL of the %s "
                 "context cache (the report above has the block's own cycle)", cc->where);
        return -1;
    }
    const context_cache_out_t *o = &cc->out;
    if (o->rsp_valid) {
        int64_t id = cc->tag_id[o->rsp_tag];
        if (id < 0) {
            snprintf(err, (size_t)errlen, "the %s context cache answered tag %u, which no lookup "
                     "holds", cc->where, o->rsp_tag);
            return -1;
        }
        cc->tag_id[o->rsp_tag] = -1;
        cc->tags_used--;
        tick_t *pr = &cc->promised[o->rsp_tag];
        if (*pr >= 0) {
            /* a hit seen at its lookup: as promised? */
            if (*pr != t + cc->period || !o->rsp_hit) {
                snprintf(err, (size_t)errlen, "the %s context cache answered request %u (%s) at "
                         "%lld ticks, not a hit at %lld ticks as its lookup promised",
                         cc->where, (uint32_t)id, o->rsp_hit ? "a hit" : "a miss",
                         (long long)(t + cc->period), (long long)*pr);
                return -1;
            }
            *pr = -1;
        } else {
            cc->answer(cc->answer_ctx, (uint32_t)id, t + cc->period);
        }
    }
    if (o->mreq_valid) {
        if (cc->f_head && cc->f_head + cc->f_n + 1 >= cc->f_cap) {
            /* the taken ones at the front make room */
            memmove(cc->f, cc->f + cc->f_head, (size_t)cc->f_n * sizeof(*cc->f));
            cc->f_head = 0;
        }
        if (grow((void **)&cc->f, &cc->f_cap, sizeof(*cc->f), cc->f_head + cc->f_n + 1)) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
        cc->f[cc->f_head + cc->f_n++] = (struct ctx_fetch){t + cc->miss, o->mreq_id, o->mreq_tag};
    }
    if (o->wb_valid)
        cc->writebacks++;
    cc->last = t;
    return 0;
}

int ctx_cache_run(ctx_cache_t *cc, tick_t t, char *err, int errlen)
{
    if (cc->v_on)
        return 0; /* only hits, answered: gated after the last answer */
    if (!cc->q_n && !active(cc, t)) {
        cc->last = t; /* idle: gated through t */
        return 0;
    }
    const tick_t P = cc->period;
    if (cc->last < 0)
        cc->last = t - P;
    while (cc->last < t) {
        tick_t e = cc->last + P; /* the next edge */
        if (!active(cc, e)) {
            /* gated until its next lookup is due (an edge of the same clock) */
            tick_t next = cc->q_n ? cc->q[cc->q_head].t : TICK_NEVER;
            if (next > t) {
                cc->last = t;
                break;
            }
            cc->last = next - P;
            continue;
        }
        if (!lookup_due(cc, e) && cc->can_jump && !answer_due(cc, e)) {
            /* it only waits (for its answer edge, or for memory): a C model
             * jumps over the edges in which nothing changes */
            idle_inputs(cc);
            int64_t n = block_quiet(cc->blk, &cc->in);
            if (cc->f_n) {
                tick_t f = cc->f[cc->f_head].t;
                int64_t to_fill = f > e ? (f - e + P - 1) / P : 0;
                if (to_fill < n)
                    n = to_fill;
            }
            if (cc->q_n) {
                int64_t to_q = (cc->q[cc->q_head].t - e) / P;
                if (to_q < n)
                    n = to_q;
            }
            int64_t to_t = (t - e) / P + 1; /* edges e .. t */
            if (n >= to_t) {
                block_advance(cc->blk, &cc->in, to_t);
                cc->last = t;
                break;
            }
            if (n > 0) {
                block_advance(cc->blk, &cc->in, n);
                cc->last = e + (n - 1) * P;
                continue;
            }
        }
        if (step(cc, e, err, errlen))
            return -1;
    }
    return 0;
}

void ctx_cache_warm(ctx_cache_t *cc, unsigned kind, uint32_t id)
{
    context_cache_in_t *in = &cc->in;
    idle_inputs(cc);
    for (int e = 0; e < 64 && !cc->out.rq_ready; e++)
        block_step(cc->blk, in, &cc->out, 0);
    in->rq_valid = 1;
    in->rq_kind = (uint8_t)(kind & 3);
    in->rq_id = id & 0xFFFFFF;
    in->rq_tag = 0;
    block_step(cc->blk, in, &cc->out, 0);
    idle_inputs(cc);
    for (int e = 0; e < 256 && !cc->out.rsp_valid; e++) {
        if (cc->out.mreq_valid) {
            in->fill_valid = 1;
            in->fill_tag = cc->out.mreq_tag;
            in->fill_data = cc->out.mreq_id;
        }
        block_step(cc->blk, in, &cc->out, 0);
        idle_inputs(cc);
    }
    for (int e = 0; e < 64 && cc->out.busy; e++)
        block_step(cc->blk, in, &cc->out, 0);
    cc->misses_idle = cc->out.misses;
    cc->warm_hits = cc->out.hits;
    cc->warm_misses = cc->out.misses;
    cc->warm_merged = cc->out.merged;
    cc->warm_evictions = cc->out.evictions;
}

int ctx_cache_keeps(const ctx_cfg_t *cfg, unsigned kind, uint32_t first, uint32_t n)
{
    char berr[256];
    block_opts_t bo = {.kind = BACKEND_C, .trial = 1};
    block_inst_t *b = block_new(&context_cache_class, &bo, berr, sizeof berr);
    ctx_cache_t *cc = calloc(1, sizeof *cc);
    if (!b || !cc || ctx_cache_init(cc, b, cfg, 1, 1, 1, "trial")) {
        if (b)
            block_free(b);
        free(cc);
        return -1;
    }
    for (uint32_t r = 0; r < n; r++)
        ctx_cache_warm(cc, kind, first + r);
    uint32_t misses = cc->out.misses, evictions = cc->out.evictions;
    for (uint32_t r = 0; r < n; r++)
        ctx_cache_warm(cc, kind, first + r);
    int keeps = cc->out.misses == misses && cc->out.evictions == evictions;
    ctx_cache_free(cc);
    free(cc);
    return keeps;
}

int ctx_cache_present(ctx_cache_t *cc, uint32_t id, unsigned kind, uint32_t rec, int write,
                      uint32_t wdata, tick_t t, tick_t *in, char *err, int errlen)
{
    if (!cc->v_on && (cc->tags_used || cc->f_n) && t - cc->period > cc->last &&
        block_c_state(cc->blk)) {
        /* (what is owed before this edge first, as the run below would: the
         * lookup may then find nothing else under way) */
        if (ctx_cache_run(cc, t - cc->period, err, errlen))
            return -1;
    }
    if (v_hit(cc, id, kind, rec, write, wdata, t, in))
        return 1;
    /* (ctx_cache_lookup brings the model up to date first: v_sync) */
    if (ctx_cache_lookup(cc, id, kind, rec, write, wdata, t)) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    /* a stepped lookup is decided CC_LOOKUP_EDGES edges after it is taken:
     * hit or miss, its answer will tell */
    return ctx_cache_run(cc, t, err, errlen) ? -1 : 0;
}

int ctx_cache_pass(ctx_cache_t *cc, uint32_t id, unsigned kind, uint32_t rec, int write,
                   uint32_t wdata, tick_t t, tick_t *in, char *err, int errlen)
{
    int rc = ctx_cache_present(cc, id, kind, rec, write, wdata, t, in, err, errlen);
    if (rc != 0)
        return rc == 1 ? 0 : -1;
    /* stepped: taken at t, it must hit; on a C model, its record is in
     * now (nothing can evict it before it is decided); on any backend its
     * answer is checked against the promise when it comes (step) */
    const context_cache_state_t *s = block_c_state(cc->blk);
    if (cc->q_n || (s && !context_cache_holds(s, &cc->in, kind, rec))) {
        snprintf(err, (size_t)errlen, "the %s context cache %s the lookup of request %u at %lld "
                 "ticks, which was to hit", cc->where, cc->q_n ? "did not take" : "missed", id,
                 (long long)t);
        return -1;
    }
    *in = t + (tick_t)cc->hit_edges * cc->period;
    cc->promised[cc->last_tag] = *in;
    return 0;
}

int ctx_cache_settle(ctx_cache_t *cc, char *err, int errlen)
{
    return cc->decide_by > cc->last && !cc->v_on ? ctx_cache_run(cc, cc->decide_by, err, errlen) : 0;
}

void ctx_cache_counts(const ctx_cache_t *cc, uint64_t *hits, uint64_t *misses, uint64_t *merged,
                      uint64_t *evictions)
{
    *hits = (uint32_t)(cc->out.hits - cc->warm_hits);
    *misses = (uint32_t)(cc->out.misses - cc->warm_misses);
    *merged = (uint32_t)(cc->out.merged - cc->warm_merged);
    *evictions = (uint32_t)(cc->out.evictions - cc->warm_evictions);
}

void ctx_cache_free(ctx_cache_t *cc)
{
    if (cc->blk)
        block_free(cc->blk);
    cc->blk = NULL;
    free(cc->q);
    free(cc->f);
    cc->q = NULL;
    cc->f = NULL;
}
