/* A fixed delay: a request taken at time t is handed on at t + delay, in
 * order. A request offered by a clocked producer is taken at the producer's
 * edge where it is seen; one from an event-timed producer the moment it
 * arrives. Running ahead, a delay is a link of a chain (chain.c). */
#include <stdio.h>
#include <string.h>

#include "parts.h"

tick_t delay_pass(delay_comp_t *d, const msg_t *m, tick_t t)
{
    t += d->delay;
    if (!(m->flags & MSG_COPY)) /* a duplicate no receiver has accepted */
        kernel_probe(d->c.k, d->point, m->id, t);
    return t;
}

static tick_t delay_commit(comp_t *c, tick_t now)
{
    delay_comp_t *d = (delay_comp_t *)c;
    while (chan_peek(&d->line, now)) {
        msg_t m = chan_pop(&d->line, now);
        if (!(m.flags & MSG_COPY))
            kernel_probe(c->k, d->point, m.id, now);
        m.t = now;
        if (chan_push(d->out, &m, now)) {
            kernel_fail(c->k, "internal: %s: no room in '%s'", c->name, d->out->name);
            return TICK_NEVER;
        }
    }
    while (chan_peek(d->in, now)) {
        msg_t m = chan_pop(d->in, now);
        if (d->line.latency == 0) { /* due at once */
            if (!(m.flags & MSG_COPY))
                kernel_probe(c->k, d->point, m.id, now);
            m.t = now;
            if (chan_push(d->out, &m, now)) {
                kernel_fail(c->k, "internal: %s: no room in '%s'", c->name, d->out->name);
                return TICK_NEVER;
            }
        } else if (chan_push(&d->line, &m, now)) {
            kernel_fail(c->k, "internal: %s: too many requests in the delay", c->name);
            return TICK_NEVER;
        }
    }
    tick_t a = chan_next_time(&d->line, now), b = chan_next_time(d->in, now);
    return a < b ? a : b;
}

static const comp_ops_t delay_ops = {.commit = delay_commit};

int delay_init(delay_comp_t *d, const char *name, chan_t *in, chan_t *out, tick_t delay, int point,
               int64_t max_inside)
{
    memset(d, 0, sizeof(*d));
    d->delay = delay;
    snprintf(d->c.name, sizeof(d->c.name), "%s", name);
    d->c.ops = &delay_ops;
    d->c.clk = NULL;
    d->in = in;
    d->out = out;
    d->point = point;
    in->dst = &d->c;
    in->always_ready = 1;
    out->src = &d->c;
    char ln[80];
    snprintf(ln, sizeof(ln), "%s.line", name);
    chan_init(&d->line, ln, max_inside, delay);
    d->line.src = d->line.dst = &d->c;
    return 0;
}

void delay_free(delay_comp_t *d) { chan_free(&d->line); }

void delay_in_channel(delay_comp_t *d)
{
    d->in->latency = d->delay;
    d->line.latency = 0;
}
