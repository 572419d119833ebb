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
    c->cap = c->count = 0;
}

static int grow(chan_t *c)
{
    int64_t ncap = c->cap ? c->cap * 2 : 4;
    if (ncap > c->depth)
        ncap = c->depth;
    msg_t *nb = malloc((size_t)ncap * sizeof(msg_t));
    if (!nb)
        return -1;
    for (int64_t i = 0; i < c->count; i++)
        nb[i] = c->buf[(c->head + i) % c->cap];
    free(c->buf);
    c->buf = nb;
    c->cap = ncap;
    c->head = 0;
    return 0;
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

int chan_push(chan_t *c, const msg_t *m, tick_t now)
{
    if (c->count >= c->depth)
        return -1;
    if (c->count == c->cap && grow(c))
        return -1;
    int64_t tail = c->head + c->count;
    if (tail >= c->cap)
        tail -= c->cap;
    msg_t *slot = &c->buf[tail];
    *slot = *m;
    if (slot->t < now + c->latency)
        slot->t = now + c->latency;
    c->count++;
    c->pushed++;
    if (c->dst && c->count == 1) /* a later message is seen once this one is popped */
        kernel_wake(c->dst, slot->t);
    return 0;
}

msg_t chan_pop(chan_t *c, tick_t now)
{
    msg_t m = c->buf[c->head];
    if (++c->head == c->cap)
        c->head = 0;
    c->count--;
    c->popped++;
    c->last_pop = now;
    if (c->pop_point != CHAN_NO_PROBE && c->src)
        kernel_probe(c->src->k, c->pop_point, m.id, now);
    return m;
}
