/* A switch: N ports, output-queued, at a clock of its own.
 *
 * Each port has an input (packets from the link into the switch) and an
 * output (offers to the link out of it, through a channel of depth 1, as a
 * NIC's output register). At each of its edges the switch takes every packet
 * that has reached an input, routes it by its destination node to an output
 * port, and queues it there if the queue has room for its bytes; a packet
 * that does not fit is dropped and counted, one with no route is counted
 * too (so is one routed to a port with no link). A packet of unknown size
 * (bytes 0) holds one byte of the buffer. A queued packet may leave `fwd_cycles` edges after it was taken, and
 * leaves in order when the link takes it (the link takes only while it is
 * free, so a busy link holds the queue). Its bytes count against the queue
 * from when it is queued until the link takes it.
 *
 * Store-and-forward: a packet is taken once its last bit has arrived.
 * Cut-through: once its header has; the link into a cut-through switch hands
 * a packet on once its header is in (wire_comp_t.cut_hdr, set by
 * switch_connect).
 *
 * A packet dropped or unroutable is given back (kernel_drop).
 * Every packet taken is counted once as forwarded, dropped or unroutable:
 * received = forwarded + dropped + unroutable + queued. */
#ifndef UB_SWITCH_H
#define UB_SWITCH_H

#include <stdint.h>

#include "kernel.h"
#include "parts.h"

#define SW_MAX_PORTS 64
#define SW_MAX_NODES 1024

typedef struct {
    int n_ports;
    int64_t buffer_bytes;    /* per output port */
    int fwd_cycles;          /* from taken to ready to leave, switch cycles (>= 0) */
    int cut_through;         /* 1: take a packet once its header is in */
    int64_t header_bytes;    /* what a cut-through switch waits for */
} switch_cfg_t;

typedef struct {
    chan_t *in, *out;
    chan_t q;                /* queued packets, each visible when it may leave */
    int64_t bytes, peak;     /* bytes queued now, and the most ever */
    int offer;               /* a packet is on offer on `out` */
    int take_point;          /* probes of the packets this port takes: when
                                taken, when ready to leave (CHAN_NO_PROBE:
                                none; the switch's take_point then) */
    int ready_point;
    uint32_t offer_bytes;
    uint64_t forwarded, dropped;
} switch_port_t;

typedef struct {
    comp_t c;
    switch_cfg_t cfg;
    switch_port_t port[SW_MAX_PORTS];
    int16_t route[SW_MAX_NODES]; /* destination node -> output port, or -1 */
    uint64_t received, unroutable;
    int take_point;          /* probe when a packet is taken (or CHAN_NO_PROBE) */
    int64_t taken_n;         /* scratch: packets taken at this edge */
    int64_t taken_cap;
    struct sw_arrival {
        int port;
        msg_t m;
    } *taken;
} switch_comp_t;

/* Checks cfg; returns 0, or -1 with a message. */
int switch_cfg_check(const switch_cfg_t *cfg, char *err, int errlen);
/* A switch at clock clk (cfg checked); every route is unset. Returns 0, or
 * -1 with a message. */
int switch_init(switch_comp_t *s, const char *name, const clockdom_t *clk,
                const switch_cfg_t *cfg, char *err, int errlen);
/* Joins port p (after the links are set up with wire_init): `in` carries
 * the packets of link `in_wire` into the switch (its hand-over at the header is set
 * for a cut-through switch; ser_per_byte is that link's serialisation of one
 * byte, in ticks), `out` (depth 1) carries its offers to link `out_wire`,
 * which then takes them at the switch's edges while it is free. The out
 * channel's pop_point, if set, records when a packet leaves. Returns 0, or
 * -1 for a port the switch does not have.
 *
 * Cut-through assumes what the links do: a link serialises every packet in
 * its configured time (so the header's head start is that time less the
 * header's), and the links in and out run at the same rate (so a packet
 * cannot leave before it has arrived whole). */
int switch_connect(switch_comp_t *s, int p, chan_t *in, wire_comp_t *in_wire,
                   double ser_per_byte, chan_t *out, wire_comp_t *out_wire);
/* The two halves of switch_connect, for a port whose links are set up at
 * different times. */
int switch_connect_in(switch_comp_t *s, int p, chan_t *in, wire_comp_t *in_wire,
                      double ser_per_byte);
int switch_connect_out(switch_comp_t *s, int p, chan_t *out, wire_comp_t *out_wire);
/* Packets for node `node` leave by port p; 0, or -1 for a port the switch
 * does not have. A route to a port without a link counts its packets as
 * unroutable. */
int switch_route(switch_comp_t *s, int node, int p);
void switch_free(switch_comp_t *s);

#endif
