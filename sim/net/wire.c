/* One direction of a link. A packet handed over at time t starts to be
 * serialised when the link is free, holds the link for `ser` ticks and
 * arrives `prop` ticks after its last bit left. A clocked producer (a NIC)
 * hands over only at its clock edges and only while the link is free, so a
 * busy link back-pressures it; an event-timed producer's packets queue at the
 * link instead. Running ahead, a wire is a link of a chain (chain.c). */
#include <stdio.h>
#include <string.h>

#include "parts.h"

/* The earliest time the head of the input can be taken. */
static tick_t next_take(const wire_comp_t *w, tick_t now)
{
    tick_t t = chan_next_time(w->in, now);
    if (t == TICK_NEVER || !w->in_clk)
        return t;
    if (t < w->link_free)
        t = w->link_free;
    return clock_edge_at_or_after(w->in_clk, t);
}

tick_t wire_take(const wire_comp_t *w, tick_t t)
{
    /* a NIC's offer is taken at its first edge at which the link is free;
     * an event-timed producer's packet when it arrives */
    if (w->in_clk && t < w->link_free)
        t = clock_edge_at_or_after(w->in_clk, w->link_free);
    return t;
}

void wire_faults(wire_comp_t *w, const fault_spec_t *spec, const struct topo *t, int link, int dir,
                 tick_t reorder)
{
    w->fault = spec;
    w->reorder = reorder;
    fault_link_init(&w->fl, spec, t, link, dir);
}

void wire_sizes(wire_comp_t *w, uint32_t hdr_bytes, int fwd, int read_data, double gbytes_per_s,
                int64_t per_ps)
{
    w->sized = 1;
    w->hdr_bytes = hdr_bytes;
    w->fwd = fwd;
    w->read_data = read_data;
    w->gbytes_per_s = gbytes_per_s;
    w->per_ps = (double)per_ps;
    w->memo_bytes = 0;
}

tick_t wire_ser(wire_comp_t *w, msg_t *m)
{
    if (!w->sized) {
        if (w->bytes)
            m->bytes = w->bytes;
        return w->ser;
    }
    int data = m->opc == MSG_OP_READ ? w->read_data && !(m->flags & MSG_NAK) : w->fwd;
    uint32_t bytes = w->hdr_bytes + (data ? (m->seg_len ? m->seg_len : m->len) : 0);
    if (m->kind == MSG_TPACK)
        bytes = m->len; /* an acknowledgement: its own size */
    m->bytes = bytes;
    if (bytes != w->memo_bytes || !w->memo_bytes) {
        /* bytes / (GB/s) = ns; ticks = ns * 1000 * ticks per ps, rounded up */
        double t = (double)bytes / w->gbytes_per_s * 1000.0 * w->per_ps;
        tick_t ti = (tick_t)t;
        if ((double)ti < t)
            ti++;
        w->memo_bytes = bytes;
        w->memo_ser = ti;
    }
    return w->memo_ser;
}

/* The faults' decision on the packet serialised (for `ser`) until `end`:
 * its arrival (TICK_NEVER: lost), its flags, and a copy (w->copy_at). The
 * link stays busy for the copy too. */
static tick_t faulty_arrival(wire_comp_t *w, msg_t *m, tick_t end, tick_t ser)
{
    tick_t early = 0;
    if (w->cut_hdr >= 0) /* into a cut-through switch: once the header is in */
        early = ser > w->cut_hdr ? ser - w->cut_hdr : 0;
    tick_t at = end + w->prop - early;
    w->copy_at = -1;
    if (!w->fault)
        return at;
    fault_action_t a;
    fault_decide(&w->fl, w->fault, m->bytes ? m->bytes : 64, &a);
    if (a.lose)
        return TICK_NEVER;
    if (a.n_flip)
        m->flags |= MSG_CORRUPT;
    if (a.reorder)
        at += w->reorder;
    if (a.dup) {
        w->copy_at = at + ser;
        w->link_free += ser;
        w->in->ready_at = w->link_free;
    }
    return at;
}

tick_t wire_pass(wire_comp_t *w, msg_t *m, tick_t t)
{
    t = wire_take(w, t);
    tick_t ser = wire_ser(w, m);
    tick_t end = (t > w->link_free ? t : w->link_free) + ser;
    w->link_free = end;
    w->in->ready_at = end;
    /* (a duplicate made by an earlier link of a topology records nothing) */
    int probes = !(m->flags & (MSG_SEG | MSG_QUIET | MSG_COPY));
    if (probes)
        kernel_probe(w->c.k, w->ser_point, m->id, end);
    tick_t at = faulty_arrival(w, m, end, ser);
    if (at == TICK_NEVER)
        kernel_drop(w->c.k, m); /* lost */
    else if (probes && !w->rx_arrival)
        kernel_probe(w->c.k, w->arrive_point, m->id, at);
    return at;
}

/* Onto the wire: into its flight, or, split, to the far end's half. */
static int to_flight(wire_comp_t *w, const msg_t *m, tick_t now)
{
    if (w->xfer) {
        w->xfer(w->xfer_ctx, m);
        return 0;
    }
    return chan_push(&w->flight, m, now);
}

/* What has arrived goes on to the receiver (a whole wire, or a far end;
 * rx_arrival: the receiver records the arrival of the copy it keeps). */
static int deliver(comp_t *c, chan_t *flight, chan_t *out, int arrive_point, int rx_arrival, tick_t now)
{
    while (chan_peek(flight, now)) {
        msg_t m = chan_pop(flight, now);
        if (!rx_arrival && !(m.flags & (MSG_COPY | MSG_SEG | MSG_QUIET)))
            kernel_probe(c->k, arrive_point, m.id, now);
        m.t = now;
        if (chan_push(out, &m, now)) {
            kernel_fail(c->k, "internal: %s: no room in '%s'", c->name, out->name);
            return -1;
        }
    }
    return 0;
}

static tick_t wire_commit(comp_t *c, tick_t now)
{
    wire_comp_t *w = (wire_comp_t *)c;
    /* deliver what has arrived */
    if (deliver(c, &w->flight, w->out, w->arrive_point, w->rx_arrival, now))
        return TICK_NEVER;
    /* take what is handed over */
    while (chan_peek(w->in, now) && (!w->in_clk || w->link_free <= now)) {
        msg_t m = chan_pop(w->in, now);
        tick_t begin = now > w->link_free ? now : w->link_free;
        tick_t ser = wire_ser(w, &m);
        tick_t end = begin + ser;
        w->link_free = end;
        w->in->ready_at = end;
        if (!(m.flags & (MSG_SEG | MSG_QUIET | MSG_COPY)))
            kernel_probe(c->k, w->ser_point, m.id, end);
        tick_t at = faulty_arrival(w, &m, end, ser);
        if (at == TICK_NEVER) {
            kernel_drop(c->k, &m); /* lost */
            continue;
        }
        m.t = at;
        if (to_flight(w, &m, now)) {
            kernel_fail(c->k, "internal: %s: too many packets on the wire", c->name);
            return TICK_NEVER;
        }
        if (w->copy_at >= 0) {
            msg_t copy = m;
            copy.t = w->copy_at;
            copy.flags |= MSG_COPY;
            kernel_copy(c->k, &copy);
            if (to_flight(w, &copy, now)) {
                kernel_fail(c->k, "internal: %s: too many packets on the wire", c->name);
                return TICK_NEVER;
            }
        }
    }
    tick_t a = chan_next_time(&w->flight, now), b = next_take(w, now);
    return a < b ? a : b;
}

static const comp_ops_t wire_ops = {.commit = wire_commit};

int wire_init(wire_comp_t *w, const char *name, chan_t *in, chan_t *out, const clockdom_t *in_clk,
              tick_t ser, tick_t prop, int ser_point, int arrive_point, int64_t max_flight)
{
    memset(w, 0, sizeof(*w));
    snprintf(w->c.name, sizeof(w->c.name), "%s", name);
    w->c.ops = &wire_ops;
    w->c.clk = NULL;
    w->in = in;
    w->out = out;
    w->in_clk = in_clk;
    w->ser = ser;
    w->prop = prop;
    w->link_free = 0;
    w->cut_hdr = -1;
    w->copy_at = -1;
    w->ser_point = ser_point;
    w->arrive_point = arrive_point;
    in->dst = &w->c;
    out->src = &w->c;
    char fn[80];
    snprintf(fn, sizeof(fn), "%s.flight", name);
    chan_init(&w->flight, fn, max_flight, 0);
    w->flight.src = w->flight.dst = &w->c;
    return 0;
}

void wire_free(wire_comp_t *w) { chan_free(&w->flight); }

/* ---- the far end of a split wire ---- */

static tick_t wire_rx_commit(comp_t *c, tick_t now)
{
    wire_rx_comp_t *r = (wire_rx_comp_t *)c;
    if (deliver(c, &r->flight, r->out, r->arrive_point, r->rx_arrival, now))
        return TICK_NEVER;
    return chan_next_time(&r->flight, now);
}

static const comp_ops_t wire_rx_ops = {.commit = wire_rx_commit};

int wire_split(wire_comp_t *w, wire_rx_comp_t *r, void (*xfer)(void *ctx, const msg_t *m), void *ctx,
               int64_t max_flight)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->c.name, sizeof(r->c.name), "%.59s.far", w->c.name);
    r->c.ops = &wire_rx_ops;
    r->out = w->out;
    r->arrive_point = w->arrive_point;
    w->out->src = &r->c;
    w->xfer = xfer;
    w->xfer_ctx = ctx;
    char fn[80];
    snprintf(fn, sizeof(fn), "%.63s.flight", r->c.name);
    if (chan_init(&r->flight, fn, max_flight, 0))
        return -1;
    r->flight.src = &w->c;
    r->flight.dst = &r->c;
    r->flight.sorted = w->flight.sorted;
    return 0;
}

int wire_arrive(wire_rx_comp_t *r, const msg_t *m)
{
    return chan_push(&r->flight, m, r->c.k->now < m->t ? r->c.k->now : m->t);
}

void wire_rx_free(wire_rx_comp_t *r) { chan_free(&r->flight); }
