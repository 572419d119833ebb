/* A fixed delay: a request taken at time t is handed on at t + delay, in
 * order. A request offered by a clocked producer is taken at the producer's
 * edge where it is seen; one from an event-timed producer the moment it
 * arrives. */
#include <stdio.h>

#include "parts.h"

/* Running ahead: each request is handed on the moment it is taken, marked
 * with the time it is due. */
static tick_t delay_ahead(delay_comp_t *d, tick_t now)
{
    comp_t *c = &d->c;
    const msg_t *h;
    while ((h = chan_first(d->in)) != NULL) {
        /* taken when it is offered (a delay is always ready) */
        msg_t m = chan_pop(d->in, h->t);
        tick_t due = m.t + d->line.latency;
        kernel_probe(c->k, d->point, m.id, due);
        for (int i = 0; i < d->n_fused; i++) {
            due += d->fused_delay[i];
            kernel_probe(c->k, d->fused_point[i], m.id, due);
        }
        m.t = due;
        if (chan_push(d->out, &m, now)) {
            kernel_fail(c->k, "internal: %s: no room in '%s'", c->name, d->out->name);
            return TICK_NEVER;
        }
    }
    return TICK_NEVER; /* woken by the next push */
}

static tick_t delay_commit(comp_t *c, tick_t now)
{
    delay_comp_t *d = (delay_comp_t *)c;
    if (c->ahead)
        return delay_ahead(d, now);
    while (chan_peek(&d->line, now)) {
        msg_t m = chan_pop(&d->line, now);
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

int delay_fuse(delay_comp_t *d, tick_t delay, int point, chan_t *out)
{
    if (d->n_fused == DELAY_MAX_FUSED)
        return -1;
    d->fused_delay[d->n_fused] = delay;
    d->fused_point[d->n_fused++] = point;
    d->out = out;
    out->src = &d->c;
    return 0;
}
