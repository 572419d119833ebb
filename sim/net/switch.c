#include "switch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int switch_cfg_check(const switch_cfg_t *cfg, char *err, int errlen)
{
    if (cfg->n_ports < 2 || cfg->n_ports > SW_MAX_PORTS) {
        snprintf(err, (size_t)errlen, "a switch has 2 to %d ports, not %d", SW_MAX_PORTS,
                 cfg->n_ports);
        return -1;
    }
    if (cfg->buffer_bytes <= 0 || cfg->buffer_bytes > ((int64_t)1 << 40)) {
        snprintf(err, (size_t)errlen,
                 "a switch port's buffer holds 1 byte to 1 TiB, not %lld bytes",
                 (long long)cfg->buffer_bytes);
        return -1;
    }
    if (cfg->fwd_cycles < 0) {
        snprintf(err, (size_t)errlen, "forwarding latency of %d cycles", cfg->fwd_cycles);
        return -1;
    }
    if (cfg->cut_through && cfg->header_bytes <= 0) {
        snprintf(err, (size_t)errlen, "a cut-through switch needs the header's size in bytes");
        return -1;
    }
    return 0;
}

static tick_t switch_next(switch_comp_t *s, tick_t now);

static void switch_eval(comp_t *c, tick_t now)
{
    switch_comp_t *s = (switch_comp_t *)c;
    s->taken_n = 0;
    for (int p = 0; p < s->cfg.n_ports; p++) {
        chan_t *in = s->port[p].in;
        if (!in)
            continue;
        while (chan_peek(in, now)) {
            if (s->taken_n == s->taken_cap) {
                int64_t ncap = s->taken_cap ? s->taken_cap * 2 : 16;
                struct sw_arrival *nt = realloc(s->taken, (size_t)ncap * sizeof(*nt));
                if (!nt) {
                    kernel_fail(c->k, "out of memory");
                    return;
                }
                s->taken = nt;
                s->taken_cap = ncap;
            }
            s->taken[s->taken_n].port = p;
            s->taken[s->taken_n++].m = chan_pop(in, now);
        }
    }
}

static tick_t switch_commit(comp_t *c, tick_t now)
{
    switch_comp_t *s = (switch_comp_t *)c;
    tick_t period = c->clk->period;
    /* the links' side of the handshakes at this edge */
    for (int p = 0; p < s->cfg.n_ports; p++) {
        switch_port_t *o = &s->port[p];
        if (o->offer && chan_taken_at(o->out, now)) {
            o->offer = 0;
            o->bytes -= o->offer_bytes;
            o->forwarded++;
        }
    }
    /* what was taken, to its output queue, in port order */
    for (int64_t i = 0; i < s->taken_n; i++) {
        msg_t m = s->taken[i].m;
        s->received++;
        const switch_port_t *ip = &s->port[s->taken[i].port];
        if (!(m.flags & (MSG_SEG | MSG_QUIET | MSG_COPY)))
            kernel_probe(c->k, ip->take_point != CHAN_NO_PROBE ? ip->take_point : s->take_point,
                         m.id, now);
        int p = m.dst < SW_MAX_NODES ? s->route[m.dst] : -1;
        if (p < 0 || !s->port[p].out) {
            s->unroutable++; /* no route, or a route to a port with no link */
            kernel_drop(c->k, &m);
            continue;
        }
        switch_port_t *o = &s->port[p];
        if (m.bytes == 0)
            m.bytes = 1; /* a packet of unknown size holds a byte of the buffer */
        if (o->bytes + (int64_t)m.bytes > s->cfg.buffer_bytes) {
            o->dropped++;
            kernel_drop(c->k, &m);
            continue;
        }
        m.t = now + (tick_t)s->cfg.fwd_cycles * period;
        if (ip->ready_point != CHAN_NO_PROBE && !(m.flags & (MSG_SEG | MSG_QUIET | MSG_COPY)))
            kernel_probe(c->k, ip->ready_point, m.id, m.t);
        if (chan_push(&o->q, &m, now)) {
            kernel_fail(c->k, "internal: %s: queue of port %d", c->name, p);
            return TICK_NEVER;
        }
        o->bytes += m.bytes;
        if (o->bytes > o->peak)
            o->peak = o->bytes;
    }
    s->taken_n = 0;
    /* a new offer on every free output whose head may leave */
    for (int p = 0; p < s->cfg.n_ports; p++) {
        switch_port_t *o = &s->port[p];
        if (o->offer || !o->out || !chan_peek(&o->q, now))
            continue;
        msg_t m = chan_pop(&o->q, now);
        o->offer_bytes = m.bytes;
        m.t = now + period; /* a register: seen from the next edge */
        if (chan_push(o->out, &m, now)) {
            kernel_fail(c->k, "internal: %s: output %d offered twice", c->name, p);
            return TICK_NEVER;
        }
        o->offer = 1;
    }
    return switch_next(s, now);
}

/* The next edge at which anything can happen. */
static tick_t switch_next(switch_comp_t *s, tick_t now)
{
    tick_t period = s->c.clk->period, t = TICK_NEVER;
    for (int p = 0; p < s->cfg.n_ports; p++) {
        switch_port_t *o = &s->port[p];
        tick_t a = o->in ? chan_next_time(o->in, now + 1) : TICK_NEVER;
        if (a < t)
            t = a;
        if (o->offer) {
            /* learn at the next edge whether the link took it */
            if (now + period < t)
                t = now + period;
        } else {
            tick_t b = chan_next_time(&o->q, now + 1);
            if (b < t)
                t = b;
        }
    }
    return t;
}

static const comp_ops_t switch_ops = {.eval = switch_eval, .commit = switch_commit};

int switch_init(switch_comp_t *s, const char *name, const clockdom_t *clk,
                const switch_cfg_t *cfg, char *err, int errlen)
{
    memset(s, 0, sizeof(*s));
    if (switch_cfg_check(cfg, err, errlen))
        return -1;
    snprintf(s->c.name, sizeof(s->c.name), "%s", name);
    s->c.ops = &switch_ops;
    s->c.clk = clk;
    s->cfg = *cfg;
    s->take_point = CHAN_NO_PROBE;
    for (int i = 0; i < SW_MAX_NODES; i++)
        s->route[i] = -1;
    for (int p = 0; p < cfg->n_ports; p++) {
        char qn[96];
        snprintf(qn, sizeof(qn), "%s.q%d", name, p);
        /* a queue never holds more packets than bytes */
        chan_init(&s->port[p].q, qn, cfg->buffer_bytes + 1, 0);
        s->port[p].q.src = s->port[p].q.dst = &s->c;
        s->port[p].take_point = s->port[p].ready_point = CHAN_NO_PROBE;
    }
    return 0;
}

int switch_connect_in(switch_comp_t *s, int p, chan_t *in, wire_comp_t *in_wire,
                      double ser_per_byte)
{
    if (p < 0 || p >= s->cfg.n_ports)
        return -1;
    s->port[p].in = in;
    if (in)
        in->dst = &s->c;
    if (in_wire && s->cfg.cut_through) {
        /* the rest of a packet behind its header arrives meanwhile */
        in_wire->cut_hdr = (tick_t)llround(ser_per_byte * (double)s->cfg.header_bytes);
    }
    return 0;
}

int switch_connect_out(switch_comp_t *s, int p, chan_t *out, wire_comp_t *out_wire)
{
    if (p < 0 || p >= s->cfg.n_ports)
        return -1;
    s->port[p].out = out;
    if (out) {
        out->src = &s->c;
        out->src_clk = s->c.clk;
    }
    if (out_wire)
        out_wire->in_clk = s->c.clk; /* takes offers at the switch's edges, while free */
    return 0;
}

int switch_connect(switch_comp_t *s, int p, chan_t *in, wire_comp_t *in_wire,
                   double ser_per_byte, chan_t *out, wire_comp_t *out_wire)
{
    if (switch_connect_in(s, p, in, in_wire, ser_per_byte))
        return -1;
    return switch_connect_out(s, p, out, out_wire);
}

int switch_route(switch_comp_t *s, int node, int p)
{
    if (node < 0 || node >= SW_MAX_NODES || p < 0 || p >= s->cfg.n_ports)
        return -1;
    s->route[node] = (int16_t)p;
    return 0;
}

void switch_free(switch_comp_t *s)
{
    for (int p = 0; p < s->cfg.n_ports; p++)
        chan_free(&s->port[p].q);
    free(s->taken);
    s->taken = NULL;
}
