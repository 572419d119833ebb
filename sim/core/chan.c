#include "chan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

int chan_init(chan_t *c, const char *name, int64_t depth, tick_t latency)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    c->depth = depth > 0 ? depth : 1;
    c->latency = latency;
    c->last_pop = -1;
    c->pop_point = CHAN_NO_PROBE;
    return 0;
}

void chan_free(chan_t *c)
{
    free(c->buf);
    c->buf = NULL;
    c->cap = c->count = c->nent = 0;
}

static int resize(chan_t *c, int64_t ncap)
{
    msg_t *nb = malloc((size_t)ncap * sizeof(msg_t));
    if (!nb)
        return -1;
    for (int64_t i = 0; i < c->nent; i++)
        nb[i] = c->buf[(c->head + i) % c->cap];
    free(c->buf);
    c->buf = nb;
    c->cap = ncap;
    c->head = 0;
    return 0;
}

/* m, sent at t, can join entry e: alike but for the next id and op. */
static int joins(const msg_t *e, const msg_t *m, tick_t t)
{
    return e->t == t && e->id + e->more + 1 == m->id && e->op + e->more + 1 == m->op &&
           e->len == m->len && e->jetty == m->jetty && e->kind == m->kind && e->last == m->last &&
           e->tassn == m->tassn && e->psn == m->psn && e->tpn == m->tpn && e->bytes == m->bytes &&
           e->dst == m->dst && e->src == m->src && e->opc == m->opc && e->seg_len == m->seg_len &&
           e->ord == m->ord &&
           e->flags == m->flags && !e->data && !m->data &&
           e->more < UINT32_MAX;
}

int chan_on_edge_(const chan_t *c, tick_t now)
{
    const clockdom_t *k = c->src_clk;
    return now >= k->phase && (now - k->phase) % k->period == 0;
}

tick_t chan_next_time_(const chan_t *c, tick_t now)
{
    tick_t t = c->buf[c->head].t > now ? c->buf[c->head].t : now;
    return clock_edge_at_or_after(c->src_clk, t);
}

/* A message that overtakes some already held (a sorted channel): it goes
 * in before the first one visible later than it. */
static int push_sorted(chan_t *c, const msg_t *m, tick_t t, tick_t now)
{
    if (c->nent == c->cap && resize(c, c->cap ? c->cap * 2 : 4))
        return -1;
    int64_t k = c->nent; /* its place, counted from the head */
    while (k > 0 && c->buf[(c->head + k - 1) % c->cap].t > t)
        k--;
    for (int64_t j = c->nent; j > k; j--)
        c->buf[(c->head + j) % c->cap] = c->buf[(c->head + j - 1) % c->cap];
    msg_t *e = &c->buf[(c->head + k) % c->cap];
    *e = *m;
    e->t = t;
    e->more = 0;
    c->nent++;
    c->count++;
    c->pushed++;
    /* a new head is seen sooner: tell the consumer */
    if (c->dst && k == 0)
        kernel_wake(c->dst, c->dst->ahead ? now : t);
    return 0;
}

int chan_push(chan_t *c, const msg_t *m, tick_t now)
{
    if (c->count >= c->depth)
        return -1;
    /* sent at m->t (a part running ahead sends in the future), or now */
    tick_t t = (m->t > now ? m->t : now) + c->latency;
    msg_t *e = NULL;
    if (c->nent > 0) {
        int64_t last = c->head + c->nent - 1;
        e = &c->buf[last >= c->cap ? last - c->cap : last];
        if (c->sorted && e->t > t)
            return push_sorted(c, m, t, now);
        if (!joins(e, m, t))
            e = NULL;
    }
    if (e) {
        e->more++;
    } else {
        if (c->nent == c->cap && resize(c, c->cap ? c->cap * 2 : 4))
            return -1;
        int64_t tail = c->head + c->nent;
        e = &c->buf[tail >= c->cap ? tail - c->cap : tail];
        *e = *m; /* written in place: no copy through the stack */
        e->t = t;
        e->more = 0;
        c->nent++;
    }
    c->count++;
    c->pushed++;
    if (c->on_push) {
        msg_t x = *m;
        x.t = t;
        x.more = 0;
        c->on_push(c->on_push_ctx, &x, now);
    }
    if (c->dst && c->nent == 1 && !e->more) /* a later message is seen once this one is popped */
        kernel_wake(c->dst, c->dst->ahead ? now : t);
    return 0;
}

msg_t chan_pop(chan_t *c, tick_t now)
{
    msg_t *h = &c->buf[c->head];
    msg_t m = *h;
    m.more = 0;
    if (h->more) { /* the rest of the burst stays */
        h->more--;
        h->id++;
        h->op++;
    } else {
        if (++c->head == c->cap)
            c->head = 0;
        c->nent--;
        if (c->cap > 64 && c->nent < c->cap / 4)
            resize(c, c->cap / 2); /* on failure it keeps the larger ring */
    }
    c->count--;
    c->popped++;
    c->last_pop = now;
    if (c->pop_point != CHAN_NO_PROBE && c->src &&
        !(m.flags & ((c->pop_at_first ? MSG_NOT_FIRST : MSG_SEG) | MSG_QUIET | MSG_COPY)))
        kernel_probe(c->src->k, c->pop_point, m.id, now);
    return m;
}
