#include "path_net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "nic_pipe.h"
#include "topo_file.h"
#include "rc_send_pipeline.h"
#include "ub_tx.h"

static const char *node_name(int node) { return node == NODE_INITIATOR ? "nodeA" : "nodeB"; }
static const char *pipe_name(int pipe) { return pipe == PIPE_TX ? "nic_tx" : "nic_rx"; }

static const char *where(int node, int pipe)
{
    static const char *w[2][2] = {{"initiator's transmit", "initiator's receive"},
                                  {"target's transmit", "target's receive"}};
    return w[node][pipe];
}

static void link_xfer(void *ctx, const msg_t *m)
{
    struct path_link *l = ctx;
    l->net->link_send(l->net->link_ctx, l->stage, m);
}

int path_net_arrive(path_net_t *net, int stage, const msg_t *m)
{
    return wire_arrive(&net->far[stage], m);
}

/* ---- the transport ---- */

static int on_link(const stage_cfg_t *st)
{
    return st->kind == STAGE_WIRE || st->kind == STAGE_SWITCH;
}

/* The last stage of the run of wires and switches that starts at stage f. */
static int run_end(const path_cfg_t *p, int f)
{
    int e = f;
    while (e + 1 < p->n_stages && on_link(&p->stages[e + 1]))
        e++;
    return e;
}

/* A path the transport can run on: packets numbered by a send-pipeline
 * block, every run of wires (and switches, on a topology) from one node's
 * NIC pipeline to the other's. */
static int tp_check(const path_cfg_t *p, const tp_cfg_t *cfg, char *err, int errlen)
{
    const char *why = NULL;
    if (p->tx_block == NIC_BLOCK_NONE)
        why = "the path's NICs have no send pipeline block to number their packets";
    else if (p->tx_block == NIC_BLOCK_RC_SEND && !cfg->gbn)
        why = TP_SACK_NOT_ON_ROCE;
    for (int f = 0; !why && f < p->n_stages; f++) {
        if (!on_link(&p->stages[f]) || (f > 0 && on_link(&p->stages[f - 1])))
            continue;
        int e = run_end(p, f);
        if (f == 0 || e + 1 == p->n_stages || p->stages[f - 1].kind != STAGE_NIC ||
            p->stages[e + 1].kind != STAGE_NIC || p->stages[f - 1].node == p->stages[e + 1].node)
            why = "each wire must run from one node's NIC pipeline to the other's";
    }
    if (why) {
        snprintf(err, (size_t)errlen, "path '%s': --transport: %s", p->name, why);
        return -1;
    }
    return 0;
}

/* Each node's transport, and each run of wires' channels to and from the
 * NICs at its ends (kept by its first wire; the ends are joined in
 * tp_connect, once the NICs and the wires exist). */
/* Where a lockstep block of path p writes the last cycles before a
 * mismatch: <path>[_<tag>]_<node>_<what>_mismatch.vcd. */
static void mismatch_name(char *buf, size_t len, const path_cfg_t *p, const path_net_opts_t *o,
                          const char *node, const char *what)
{
    snprintf(buf, len, "%s%s%s_%s_%s_mismatch.vcd", p->name, o->sim_tag ? "_" : "",
             o->sim_tag ? o->sim_tag : "", node, what);
}

static int tp_build(path_net_t *net, kernel_t *k, const path_cfg_t *p, const path_net_opts_t *o,
                    const clockdom_t *nclk, int64_t deep, char *err, int errlen)
{
    const tp_cfg_t *cfg = o->transport;
    int ub = p->tx_block == NIC_BLOCK_UB_SEND;
    /* acknowledgements carry their bytes, made on one node and read on the
     * other: one pool for both nodes' kernels (the run's, whose messages
     * carry data too, or one of the path's own) */
    kernel_t *ks[2] = {k, net->split ? o->far_k : NULL};
    payload_pool_t *pool = k->payloads ? k->payloads : ks[1] ? ks[1]->payloads : NULL;
    if (ks[1] && k->payloads && ks[1]->payloads && k->payloads != ks[1]->payloads) {
        snprintf(err, (size_t)errlen, "internal: path '%s': the two nodes keep message bytes in "
                 "different pools", p->name);
        return -1;
    }
    if (!pool) {
        pool = net->ack_pool = malloc(sizeof *net->ack_pool);
        if (!pool) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
        payload_init(pool);
    }
    for (int i = 0; i < 2; i++) {
        if (ks[i] && !ks[i]->payloads) {
            ks[i]->payloads = pool;
            net->ack_pool_k[i] = ks[i];
        }
    }
    for (int node = 0; node < 2; node++) {
        char name[96];
        snprintf(name, sizeof name, "%s.%s.transport", p->name, node_name(node));
        /* (split, each node's on its own kernel) */
        kernel_t *nk = net->split && node == NODE_TARGET ? o->far_k : k;
        net->tp[node] = calloc(1, sizeof *net->tp[node]);
        if (!net->tp[node]) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
        char mis[224];
        mismatch_name(mis, sizeof mis, p, o, node_name(node), "transport");
        block_opts_t bo = {.kind = o->backend, .mismatch_wave = mis, .report = o->report};
        if (tp_port_init(net->tp[node], name, nk, nclk, cfg, ub, &bo, err, errlen)) {
            free(net->tp[node]);
            net->tp[node] = NULL;
            return -1;
        }
        if (kernel_add(nk, &net->tp[node]->c, TICK_NEVER)) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
    }
    for (int i = 0; i < net->n; i++) {
        if (p->stages[i].kind != STAGE_WIRE || i == 0 || p->stages[i - 1].kind != STAGE_NIC)
            continue;
        tp_lane_t *l = net->lane[i] = calloc(1, sizeof *l);
        if (!l) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
        net->lane_in[run_end(p, i) + 1] = l;
        char name[96];
        const stage_cfg_t *st = &p->stages[i];
        snprintf(name, sizeof name, "%s.%s.to_transport", p->name, st->name);
        chan_init(&l->to_tp, name, 1, 0); /* (a NIC's output register) */
        l->to_tp.src_clk = nclk;
        snprintf(name, sizeof name, "%s.%s.from_transport", p->name, st->name);
        chan_init(&l->from_tp, name, deep, 0);
        l->from_tp.src_clk = nclk;
    }
    return 0;
}

/* Wire stage i's receiver records its arrival, for the copy it keeps. */
static void arrival_by_receiver(path_net_t *net, int i)
{
    net->wire[i].rx_arrival = 1;
    if (net->split)
        net->far[i].rx_arrival = 1;
}

/* Joins each run of wires' ends to the transports: the sender's transmit
 * lane feeds its first wire, the receiver's receive lane takes what its
 * last one brings and hands it to its NIC; the receiver's acknowledgements
 * go back on its own wires to the sender (its transmit lane), among its
 * packets (through the switches of a topology, routed to the sender). */
static int tp_connect(path_net_t *net, const path_cfg_t *p, const path_net_opts_t *o)
{
    for (int f = 0; f < net->n; f++) {
        tp_lane_t *l = net->lane[f];
        if (!l)
            continue;
        int e = run_end(p, f);
        int from = p->stages[f - 1].node, to = p->stages[e + 1].node;
        tp_port_t *s = net->tp[from], *r = net->tp[to];
        tp_port_lanes(s, &l->to_tp, &net->ch[f], NULL, NULL, r);
        tp_port_lanes(r, NULL, NULL, &net->ch[e + 1], &l->from_tp, s);
        s->tx_point = o->tp_tx_point[f];
        s->tx_fwd = p->stages[f].wire_dir == WIRE_FORWARD;
        r->rx_point = o->tp_rx_point[e];
        r->arrive_point = o->end_point[e];
        arrival_by_receiver(net, e);
    }
    for (int node = 0; node < 2; node++) {
        int me = node == NODE_TARGET ? 1 : 0;
        if (p->topo)
            me = node == NODE_TARGET ? p->to_node : p->from_node;
        net->tp[node]->node = (uint16_t)me;
        net->tp[1 - node]->peer_node = (uint16_t)me;
    }
    return 0;
}

int path_net_tp_counts(const path_net_t *net, path_tp_counts_t *c)
{
    memset(c, 0, sizeof *c);
    if (!net->tp[0])
        return 0;
    for (int node = 0; node < 2; node++) {
        const tp_port_t *t = net->tp[node];
        c->sent += t->sent;
        c->resent += t->resent;
        c->resent_bytes += t->resent_bytes;
        c->delivered += t->delivered;
        c->acks_sent += t->acks_sent;
        c->acks_taken += t->acks_taken;
        c->acks_malformed += t->acks_malformed;
        c->duplicates += t->verdict[TP_DUP];
        c->beyond += t->verdict[TP_BEYOND];
        c->full += t->verdict[TP_FULL];
        c->gaps += t->verdict[TP_GAP];
        c->corrupt += t->corrupt;
        c->acks_corrupt += t->acks_corrupt;
        c->dropped_failed += t->dropped_failed;
        c->timeouts += t->timeouts;
        if (t->held_peak > c->held_peak)
            c->held_peak = t->held_peak;
        c->failed |= t->failed != 0;
    }
    return 1;
}

int path_net_fault_check(const fault_spec_t *f, const path_cfg_t *p, char *err, int errlen)
{
    return fault_check_links(f, p->topo ? &p->topo->t : NULL, p->topo ? p->topo->name : NULL, err,
                             errlen);
}

int path_net_build(path_net_t *net, kernel_t *k0, const path_cfg_t *p, const path_net_opts_t *o,
                   char *err, int errlen)
{
    memset(net, 0, sizeof(*net));
    kernel_t *k = k0; /* (the time base, and the kernel of a stage below) */
    net->split = o->far_k != NULL;
    if (net->split && (p->topo || !o->link_send)) {
        snprintf(err, (size_t)errlen, "path '%s': only a path between two nodes, joined by a "
                                      "link each way, can be split into its nodes (a path over a "
                                      "topology runs on one kernel)", p->name);
        return -1;
    }
    net->link_send = o->link_send;
    net->link_ctx = o->link_ctx;
    /* a drop= names a link of the topology (the commands check it first) */
    if (o->fault && path_net_fault_check(o->fault, p, err, errlen))
        return -1;
    /* the node each stage belongs to: a NIC's own, a wire's sender's, a
     * delay's the node the request is in */
    for (int i = 0, cur = NODE_INITIATOR; i < p->n_stages; i++) {
        const stage_cfg_t *st = &p->stages[i];
        if (st->kind == STAGE_NIC)
            cur = st->node;
        net->node_of[i] = cur;
        if (st->kind == STAGE_WIRE)
            cur = st->wire_dir == WIRE_FORWARD ? NODE_TARGET : NODE_INITIATOR;
    }
    /* split, only a wire crosses between the nodes, and every packet takes
     * time to cross it (the engines rely on it); the host sits at the
     * initiator, at both ends of the path */
    for (int i = 0; net->split && i < p->n_stages; i++) {
        const stage_cfg_t *st = &p->stages[i];
        int from = i ? net->node_of[i - 1] : NODE_INITIATOR;
        if (i && p->stages[i - 1].kind == STAGE_WIRE)
            from = p->stages[i - 1].wire_dir == WIRE_FORWARD ? NODE_TARGET : NODE_INITIATOR;
        const char *why = NULL;
        if (st->kind == STAGE_NIC && st->node != from)
            why = "it moves to the other node without a wire";
        else if (st->kind == STAGE_WIRE && stage_one_way_ps(p, st) <= 0 && st->bytes <= 0)
            why = "a packet would cross its wire in no time (give one_way_ns or bytes)";
        if (why) {
            snprintf(err, (size_t)errlen, "path '%s': stage '%s': the path cannot be split into its "
                     "nodes: %s", p->name, st->name, why);
            return -1;
        }
    }
    if (net->split && p->n_stages > 0) {
        const stage_cfg_t *last = &p->stages[p->n_stages - 1];
        int end = last->kind == STAGE_WIRE ? (last->wire_dir == WIRE_FORWARD ? NODE_TARGET : NODE_INITIATOR)
                                           : net->node_of[p->n_stages - 1];
        if (end != NODE_INITIATOR) {
            snprintf(err, (size_t)errlen, "path '%s': the path cannot be split into its nodes: it "
                     "does not come back to the initiator", p->name);
            return -1;
        }
    }
    net->path = p;
    net->n = p->n_stages;
    clock_init(&net->nic_clk, "nic", &k->tb, p->nic_mhz, 0);
    /* several netlists of one simulation share one NIC clock */
    const clockdom_t *nclk = o->nic_clk ? o->nic_clk : &net->nic_clk;
    /* without faults a channel never holds more than the packets of the
     * reads in flight (a read larger than the MTU is several packets);
     * with them duplicates, and packets of reads that already failed, add
     * to that: then only memory bounds it (storage grows on demand) */
    int64_t mtu = p->mtu_bytes > 0 ? p->mtu_bytes : 4096;
    int64_t pkts = p->tx_block != NIC_BLOCK_NONE && o->payload > mtu ? (o->payload + mtu - 1) / mtu : 1;
    int64_t deep = o->fault || o->lossy || o->transport ? ((int64_t)1 << 62)
                                                        : (o->max_inside + 1) * pkts;
    int used[2][2] = {{0, 0}, {0, 0}};
    if (o->transport && tp_check(p, o->transport, err, errlen))
        return -1;
    for (int i = 0; i <= net->n; i++) {
        /* a NIC's (or a switch's) output register is offered through a
         * channel of depth 1 */
        int from_nic = i > 0 && p->stages[i - 1].kind == STAGE_NIC;
        int from_sw = i > 0 && p->stages[i - 1].kind == STAGE_SWITCH;
        char name[64];
        snprintf(name, sizeof(name), "%s.ch%d", p->name, i);
        int clocked_in = i == 0 && o->first_clk; /* fed by a switch outside this netlist */
        /* (with a transport a wire's input is the transport's queue) */
        int to_tp_wire = o->transport && from_nic && i < net->n && p->stages[i].kind == STAGE_WIRE;
        chan_init(&net->ch[i], name, (from_nic || from_sw || clocked_in) && !to_tp_wire ? 1 : deep, 0);
        if (clocked_in)
            net->ch[i].src_clk = o->first_clk;
        if (from_nic)
            net->ch[i].src_clk = nclk;
    }
    if (o->transport && tp_build(net, k0, p, o, nclk, deep, err, errlen))
        return -1;
    for (int i = 0; i < net->n; i++) {
        const stage_cfg_t *st = &p->stages[i];
        char name[96];
        snprintf(name, sizeof(name), "%s.%s", p->name, st->name);
        chan_t *in = &net->ch[i], *out = &net->ch[i + 1];
        /* a NIC beside a wire with a transport: its side of the transport */
        if (st->kind == STAGE_NIC && i + 1 < net->n && net->lane[i + 1])
            out = &net->lane[i + 1]->to_tp;
        if (st->kind == STAGE_NIC && net->lane_in[i])
            in = &net->lane_in[i]->from_tp;
        k = net->split && net->node_of[i] == NODE_TARGET ? o->far_k : k0;
        const clockdom_t *in_clk = i > 0 && p->stages[i - 1].kind == STAGE_NIC ? nclk : NULL;
        net->kind[i] = st->kind;
        switch (st->kind) {
        case STAGE_DELAY:
            delay_init(&net->delay[i], name, in, out, tb_from_ps(&k->tb, st->delay_ps),
                       o->end_point[i], deep);
            break;
        case STAGE_WIRE: {
            wire_comp_t *w = &net->wire[i];
            wire_init(w, name, in, out, in_clk, 0 /* (sized per packet below) */,
                      tb_from_ps(&k->tb, stage_one_way_ps(p, st)), o->align_point[i],
                      o->end_point[i], deep);
            /* each packet sized by what it carries: the stage's bytes are
             * its header and, where payload_bytes is set, a read's data */
            wire_sizes(w, (uint32_t)(st->bytes - st->payload_bytes), st->wire_dir == WIRE_FORWARD,
                       st->payload_bytes > 0, stage_gbytes_per_s(p, st), k->tb.per_ps);
            if (o->fault) {
                int dir = st->wire_dir == WIRE_FORWARD ? FAULT_FWD : FAULT_BACK;
                /* each link of a topology, and each direction, faulty on
                 * its own (fault.h) */
                wire_faults(w, o->fault, p->topo ? &p->topo->t : NULL, st->has_link ? st->link : 0,
                            dir, tb_from_ps(&k->tb, (int64_t)llround(o->fault->reorder_ns * 1000.0)));
                /* a packet held back is overtaken: what it overtakes is seen first */
                if (o->fault->dir[dir].reorder > 0)
                    w->flight.sorted = out->sorted = 1;
            }
            if (net->split) {
                net->link[i] = (struct path_link){net, i};
                if (wire_split(w, &net->far[i], link_xfer, &net->link[i], deep)) {
                    snprintf(err, (size_t)errlen, "out of memory");
                    return -1;
                }
                kernel_t *fk = net->node_of[i] == NODE_TARGET ? k0 : o->far_k;
                if (kernel_add(fk, &net->far[i].c, TICK_NEVER)) {
                    snprintf(err, (size_t)errlen, "out of memory");
                    return -1;
                }
            }
            break;
        }
        case STAGE_NIC: {
            if (used[st->node][st->pipe]++) {
                snprintf(err, (size_t)errlen, "path '%s': stage '%s': the %s NIC pipeline is used twice",
                         p->name, st->name, where(st->node, st->pipe));
                return -1;
            }
            nic_port_t *pt = &net->port[i];
            const nic_pipe_cfg_t *pc = st->pipe == PIPE_TX ? &p->tx : &p->rx;
            if (nic_port_init(pt, name, nclk, pc, in, out, o->align_point[i],
                              o->end_point[i], where(st->node, st->pipe))) {
                snprintf(err, (size_t)errlen, "out of memory");
                return -1;
            }
            if (st->pipe == PIPE_TX && st->node == NODE_TARGET) {
                pt->emit = o->target_emit;
                pt->emit_ctx = o->target_emit_ctx;
                net->target_emits = o->target_emit != NULL;
            }
            if (st->pipe == PIPE_RX && p->tx_block != NIC_BLOCK_NONE) {
                /* what the send pipelines emit: UB on the channels of TPN
                 * 0x100 on, RoCE on queue pair 1; every PSN starts at 0;
                 * requests reach the target, read responses the initiator */
                int ub = p->tx_block == NIC_BLOCK_UB_SEND;
                /* the one channel each end uses: UB, the TPN of the channel
                 * to the receiving node (node % channels); RoCE, the queue
                 * pair of the connection (the initiator's is 1, the target
                 * answers node n on 1 + n) */
                uint32_t me = (uint32_t)(p->topo ? (st->node == NODE_TARGET ? p->to_node : p->from_node)
                                                 : (st->node == NODE_TARGET ? 1 : 0));
                uint32_t tpn = ub ? 0x100 + me % UBSP_NUM_CHANNELS
                                  : (st->node == NODE_TARGET ? 1 : (1 + me) & 0xFFFFFF);
                rx_cfg_t rc = {
                    .proto = ub ? PKT_UB : PKT_RC,
                    .tpn_base = tpn,
                    .n_tpn = 1,
                    .tassn_ctx = ub ? UBSP_NUM_JETTY_CTX : 0,
                    .mtu = (uint32_t)(p->mtu_bytes > 0 ? p->mtu_bytes : 4096),
                    .mem = st->node == NODE_TARGET ? o->target_mem : NULL,
                    .acks_numbered = !ub && st->node == NODE_INITIATOR,
                    .n_src = st->node == NODE_TARGET ? o->rx_sources : 1,
                };
                char rerr[160];
                if (rx_init(&net->rx[i], &rc, rerr, sizeof rerr)) {
                    snprintf(err, (size_t)errlen, "path '%s': %s", p->name, rerr);
                    return -1;
                }
                net->has_rx[i] = 1;
                pt->rx = &net->rx[i];
                pt->rx_at_target = st->node == NODE_TARGET;
                if (pt->rx_at_target) {
                    pt->hdr_fields = o->target_fields;
                    pt->hdr_ctx = o->target_emit_ctx;
                }
            }
            if (st->pipe == PIPE_TX && p->tx_block != NIC_BLOCK_NONE) {
                const block_class_t *cls = p->tx_block == NIC_BLOCK_UB_SEND ? &ub_tx_class
                                                                           : &rc_send_pipeline_class;
                if (o->tx_class)
                    cls = o->tx_class;
                char mismatch[224];
                mismatch_name(mismatch, sizeof mismatch, p, o, node_name(st->node), cls->name);
                block_opts_t bo = {
                    .kind = o->backend,
                    .period_ps = (uint64_t)(nclk->period / k->tb.per_ps),
                    .rtl_fst_path = st->node == NODE_INITIATOR ? o->rtl_wave : NULL,
                    .c_fst_path = st->node == NODE_INITIATOR ? o->c_wave : NULL,
                    .mismatch_wave = mismatch,
                    .report = o->report,
                };
                char berr[256];
                block_inst_t *b = block_new(cls, &bo, berr, sizeof(berr));
                if (!b) {
                    snprintf(err, (size_t)errlen, "path '%s': %s", p->name, berr);
                    return -1;
                }
                nic_block_use_t use = {
                    .kind = p->tx_block,
                    .initiator = st->node == NODE_INITIATOR,
                    .payload = o->payload,
                    .jetties = o->jetties > 0 ? o->jetties : 1,
                    .seed = o->seed,
                    .mtu_log2 = (unsigned)__builtin_ctzll((unsigned long long)(p->mtu_bytes > 0 ? p->mtu_bytes : 4096)),
                };
                nic_port_attach(pt, b, &use);
                if (use.initiator) {
                    pt->req_jetty = o->req_jetty;
                    pt->req_ctx = o->target_emit_ctx;
                }
            }
            break;
        }
        case STAGE_SWITCH: {
            const topo_switch_t *ts;
            if (!p->topo || st->sw < 0 || st->sw >= p->topo->t.n_switches || st->sw_in < 0 ||
                st->sw_out < 0 || i == 0 || i + 1 == net->n || p->stages[i - 1].kind != STAGE_WIRE ||
                p->stages[i + 1].kind != STAGE_WIRE) {
                snprintf(err, (size_t)errlen, "path '%s': stage '%s': a switch between two links "
                                              "of a topology expected", p->name, st->name);
                return -1;
            }
            ts = &p->topo->t.sw[st->sw];
            switch_comp_t *sw = net->sw[st->sw];
            if (!sw) {
                sw = net->sw[st->sw] = calloc(1, sizeof(*sw));
                if (!sw) {
                    snprintf(err, (size_t)errlen, "out of memory");
                    return -1;
                }
                clock_init(&net->sw_clk[st->sw], ts->name, &k->tb, ts->clock_mhz, 0);
                switch_cfg_t sc = {
                    .n_ports = ts->n_ports,
                    .buffer_bytes = ts->buffer_bytes,
                    .fwd_cycles = ts->fwd_cycles,
                    .cut_through = ts->cut_through,
                    .header_bytes = ts->header_bytes,
                };
                char sname[96], serr[160];
                snprintf(sname, sizeof sname, "%s.%s", p->name, ts->name);
                if (switch_init(sw, sname, &net->sw_clk[st->sw], &sc, serr, sizeof serr)) {
                    free(sw);
                    net->sw[st->sw] = NULL;
                    snprintf(err, (size_t)errlen, "path '%s': switch %s: %s", p->name, ts->name, serr);
                    return -1;
                }
                for (int d = 0; d < p->topo->t.n_nodes; d++)
                    if (ts->route[d] >= 0)
                        switch_route(sw, d, ts->route[d]);
                if (kernel_add(k, &sw->c, TICK_NEVER)) {
                    snprintf(err, (size_t)errlen, "out of memory");
                    return -1;
                }
            }
            sw->port[st->sw_in].take_point = o->align_point[i];
            sw->port[st->sw_in].ready_point = o->end_point[i];
            out->pop_point = o->queue_point[i];
            break;
        }
        default:
            snprintf(err, (size_t)errlen, "path '%s': stage '%s' has no kind", p->name, st->name);
            return -1;
        }
    }
    if (o->transport && tp_connect(net, p, o))
        return -1;
    /* on a topology a wire into a NIC pipeline leaves its arrival to that
     * NIC, which records it for the packet it accepts: a duplicate made on
     * an earlier link can overtake its original on the last one (between
     * two nodes the original always comes first, and its arrival is the
     * wire's, accepted or not) */
    for (int i = 0; p->topo && i + 1 < net->n; i++) {
        if (net->kind[i] != STAGE_WIRE || net->kind[i + 1] != STAGE_NIC || net->lane_in[i + 1])
            continue;
        arrival_by_receiver(net, i);
        net->port[i + 1].arrive_point = o->end_point[i];
    }
    /* context caches: the initiator's transmit pipeline reads its Jetty and
     * its channel (UB) or its queue pair (RC), the target's receive pipeline
     * its channel or its queue pair; each kind of record has a cache of its
     * own in the node (as a pipeline takes a request a cycle, a cache
     * answers a lookup a cycle) */
    if (p->ctx.cache_bytes > 0 && p->tx_block != NIC_BLOCK_NONE) {
        for (int i = 0; i < net->n; i++) {
            const stage_cfg_t *st = &p->stages[i];
            if (st->kind != STAGE_NIC)
                continue;
            int ini_tx = st->node == NODE_INITIATOR && st->pipe == PIPE_TX;
            int tgt_rx = st->node == NODE_TARGET && st->pipe == PIPE_RX;
            if (!ini_tx && !tgt_rx)
                continue;
            int kinds[2], nk = 0;
            if (p->tx_block == NIC_BLOCK_UB_SEND) {
                if (ini_tx)
                    kinds[nk++] = CTX_JETTY;
                kinds[nk++] = CTX_CHANNEL;
            } else {
                kinds[nk++] = CTX_QP;
            }
            static const char *kname[4] = {"jetty", "segment", "channel", "qp"};
            /* the pipeline reads its contexts need_cycle cycles after it took
             * the request: a request leaves no earlier than the rest of the
             * pipeline after they are in */
            int depth = net->port[i].pipe.depth + (ini_tx ? nic_block_latency(p->tx_block) : 0);
            int after = depth > p->ctx.need_cycle ? depth - p->ctx.need_cycle : 0;
            int kept = 1;
            for (int j = 0; j < nk; j++) {
                char mis[224], where[64], berr[256], what[32];
                snprintf(what, sizeof what, "%s_cache", kname[kinds[j]]);
                mismatch_name(mis, sizeof mis, p, o, node_name(st->node), what);
                snprintf(where, sizeof where, "%s %s", ini_tx ? "initiator's" : "target's",
                         kname[kinds[j]]);
                block_opts_t bo = {.kind = p->ctx.backend < 0 ? o->backend : (backend_kind_t)p->ctx.backend,
                                   .period_ps = (uint64_t)(nclk->period / k0->tb.per_ps),
                                   .mismatch_wave = mis,
                                   .report = o->report};
                block_inst_t *b = block_new(&context_cache_class, &bo, berr, sizeof berr);
                ctx_cache_t *cc = calloc(1, sizeof *cc);
                if (!b || !cc ||
                    ctx_cache_init(cc, b, &p->ctx, nclk->period, tb_from_ps(&k0->tb, p->ctx.miss_ps),
                                   k0->tb.per_ps, where) ||
                    nic_port_contexts(&net->port[i], kinds[j], cc, (tick_t)after * nclk->period)) {
                    if (cc && cc->blk)
                        ctx_cache_free(cc);
                    else if (b)
                        block_free(b);
                    free(cc);
                    snprintf(err, (size_t)errlen, "path '%s': %s", p->name, b ? "out of memory" : berr);
                    return -1;
                }
                /* the run starts with the records it reads in the cache, as
                 * far as they fit: Jetties by number (a workload's first
                 * ones), the channels and queue pairs of every node */
                uint32_t nodes = p->topo ? (uint32_t)p->topo->t.n_nodes : 2;
                uint32_t n_rec = kinds[j] == CTX_JETTY ? (uint32_t)(o->jetties > 0 ? o->jetties : 1) + 8
                                                       : nodes;
                for (uint32_t r = 0; r < n_rec; r++)
                    ctx_cache_warm(cc, (unsigned)kinds[j], kinds[j] == CTX_QP ? 1 + r : r);
                /* the target's pipeline asks for the channel or queue pair of
                 * a node: when all of them stay in and a hit is in before the
                 * request reaches the output, no request ever waits */
                if (tgt_rx) {
                    int keeps = ctx_cache_keeps(&p->ctx, (unsigned)kinds[j], kinds[j] == CTX_QP,
                                                n_rec);
                    if (keeps < 0) {
                        snprintf(err, (size_t)errlen, "out of memory");
                        return -1;
                    }
                    int hit = p->ctx.hit_cycles > CC_MIN_HIT ? p->ctx.hit_cycles : CC_MIN_HIT;
                    kept &= keeps && hit + after <= depth - 1;
                }
            }
            if (tgt_rx && kept)
                nic_port_contexts_kept(&net->port[i]);
        }
    }
    /* a switch joins the links on either side of it once both are built */
    for (int i = 0; i < net->n; i++) {
        if (net->kind[i] != STAGE_SWITCH)
            continue;
        const stage_cfg_t *st = &p->stages[i];
        switch_comp_t *sw = net->sw[st->sw];
        /* ticks per byte of the link in */
        double per_byte = 1000.0 * (double)k->tb.per_ps / stage_gbytes_per_s(p, &p->stages[i - 1]);
        if (switch_connect_in(sw, st->sw_in, &net->ch[i], &net->wire[i - 1], per_byte) ||
            switch_connect_out(sw, st->sw_out, &net->ch[i + 1], &net->wire[i + 1])) {
            snprintf(err, (size_t)errlen, "path '%s': stage '%s': switch %s has no port %d or %d",
                     p->name, st->name, p->topo->t.sw[st->sw].name, st->sw_in, st->sw_out);
            return -1;
        }
    }
    /* Runs of parts that never hold a request back become chains running
     * ahead (unless a waveform needs every probe at its own time): delays,
     * wires, and bare NIC pipelines that sit between an event-timed producer
     * and a delay (stepping every cycle keeps NIC pipelines clocked). */
    int link[CFG_MAX_STAGES];
    for (int i = 0; i < net->n; i++) {
        link[i] = -1;
        if (o->in_time_order)
            continue;
        if (net->kind[i] == STAGE_DELAY)
            link[i] = LINK_DELAY;
        else if (net->kind[i] == STAGE_WIRE && !net->split)
            link[i] = LINK_WIRE; /* (split, a wire ends a node's chain) */
        else if (net->kind[i] == STAGE_NIC && !k->step_all && nic_port_can_pass(&net->port[i]) &&
                 !net->lane_in[i] &&
                 (i == 0 || link[i - 1] >= 0) && i + 1 < net->n && net->kind[i + 1] == STAGE_DELAY &&
                 !(i > 0 && net->kind[i - 1] == STAGE_WIRE && net->ch[i].sorted))
            link[i] = LINK_NIC; /* (not behind a wire that reorders: the chain
                                   would take its packets in the wrong order) */
    }
    for (int i = 0; i < net->n; i++) {
        if (link[i] >= 0) {
            int j = i;
            while (j + 1 < net->n && link[j + 1] >= 0 && !net->lane_in[j + 1])
                j++;
            chain_comp_t *ch = &net->chain[net->n_chains++];
            char name[96];
            snprintf(name, sizeof(name), "%s.%s..%s", p->name, p->stages[i].name, p->stages[j].name);
            k = net->split && net->node_of[i] == NODE_TARGET ? o->far_k : k0;
            chain_init(ch, name, k, &net->ch[i], &net->ch[j + 1]);
            for (int m = i; m <= j; m++) {
                void *part = net->kind[m] == STAGE_DELAY  ? (void *)&net->delay[m]
                             : net->kind[m] == STAGE_WIRE ? (void *)&net->wire[m]
                                                          : (void *)&net->port[m];
                if (chain_add(ch, (link_kind_t)link[m], part)) {
                    snprintf(err, (size_t)errlen, "path '%s': more than %d parts in a row",
                             p->name, CHAIN_MAX_LINKS);
                    return -1;
                }
            }
            if (kernel_add(k, &ch->c, TICK_NEVER)) {
                snprintf(err, (size_t)errlen, "out of memory");
                return -1;
            }
            i = j;
            continue;
        }
        if (net->kind[i] == STAGE_SWITCH)
            continue; /* (added when made) */
        k = net->split && net->node_of[i] == NODE_TARGET ? o->far_k : k0;
        comp_t *c = net->kind[i] == STAGE_NIC     ? &net->port[i].c
                    : net->kind[i] == STAGE_WIRE ? &net->wire[i].c
                                                 : &net->delay[i].c;
        /* a delay seeing its requests from an event-timed producer sees
         * each once, when it is due */
        if (net->kind[i] == STAGE_DELAY && (i == 0 || net->kind[i - 1] != STAGE_NIC))
            delay_in_channel(&net->delay[i]);
        if (kernel_add(k, c, TICK_NEVER)) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

void path_net_wave(path_net_t *net, wave_t *w, uint64_t offset_ps, const char *block_scope)
{
    const path_cfg_t *p = net->path;
    for (int i = 0; i < net->n; i++) {
        if (net->kind[i] != STAGE_NIC)
            continue;
        const stage_cfg_t *st = &p->stages[i];
        char sc[160], bs[200];
        snprintf(sc, sizeof(sc), "%s.%s.%s", p->name, node_name(st->node), pipe_name(st->pipe));
        const char *scope = block_scope;
        if (!scope || st->node != NODE_INITIATOR) {
            snprintf(bs, sizeof(bs), "%s.%s", sc, nic_block_name(p->tx_block));
            scope = bs;
        }
        nic_port_wave(&net->port[i], w, offset_ps, net->port[i].c.k->tb.per_ps, sc, scope);
    }
}

int path_net_fault_counts(const path_net_t *net, int dir, fault_link_t *counts)
{
    int any = 0;
    for (int i = 0; i < net->n; i++) {
        if (net->kind[i] != STAGE_WIRE || !net->wire[i].fault ||
            (net->path->stages[i].wire_dir == WIRE_FORWARD ? FAULT_FWD : FAULT_BACK) != dir)
            continue;
        const fault_link_t *f = &net->wire[i].fl;
        counts->sent += f->sent;
        counts->lost += f->lost;
        counts->dropped += f->dropped;
        counts->duplicated += f->duplicated;
        counts->reordered += f->reordered;
        counts->corrupted += f->corrupted;
        any = 1;
    }
    return any;
}

uint64_t path_net_flag_drops(const path_net_t *net)
{
    uint64_t n = 0;
    for (int i = 0; i < net->n; i++)
        if (net->kind[i] == STAGE_NIC)
            n += net->port[i].flag_drops;
    return n;
}

int path_net_rx_counts(const path_net_t *net, int node, uint64_t *counts)
{
    int any = 0;
    for (int i = 0; i < net->n; i++) {
        if (!net->has_rx[i] || net->path->stages[i].node != node)
            continue;
        for (int r = 0; r < RX_N_REASONS; r++)
            counts[r] += net->rx[i].count[r];
        any = 1;
    }
    return any;
}

int path_net_switch_counts(const path_net_t *net, int sw, uint64_t *received, uint64_t *forwarded,
                           uint64_t *dropped, uint64_t *unroutable, int64_t *peak_queue_bytes)
{
    if (sw < 0 || sw >= TOPO_MAX_SWITCHES || !net->sw[sw])
        return 0;
    const switch_comp_t *s = net->sw[sw];
    *received = s->received;
    *unroutable = s->unroutable;
    *forwarded = *dropped = 0;
    *peak_queue_bytes = 0;
    for (int p = 0; p < s->cfg.n_ports; p++) {
        *forwarded += s->port[p].forwarded;
        *dropped += s->port[p].dropped;
        if (s->port[p].peak > *peak_queue_bytes)
            *peak_queue_bytes = s->port[p].peak;
    }
    return 1;
}

nic_port_t *path_net_tracker_port(path_net_t *net)
{
    for (int i = 0; i < net->n; i++) {
        const stage_cfg_t *st = &net->path->stages[i];
        if (net->kind[i] == STAGE_NIC && st->node == NODE_INITIATOR && st->pipe == PIPE_TX &&
            net->port[i].blk && net->port[i].use.kind == NIC_BLOCK_UB_SEND)
            return &net->port[i];
    }
    return NULL;
}

int path_net_ctx_counts(path_net_t *net, uint64_t *hits, uint64_t *misses, uint64_t *merged,
                        uint64_t *evictions, uint64_t *stalls)
{
    *hits = *misses = *merged = *evictions = *stalls = 0;
    int any = 0;
    for (int i = 0; i < net->n; i++) {
        if (net->kind[i] != STAGE_NIC || !net->port[i].n_ctx)
            continue;
        const nic_port_t *pt = &net->port[i];
        for (int j = 0; j < pt->n_ctx; j++) {
            uint64_t h, m, g, e;
            char err[384];
            if (ctx_cache_settle(pt->ctx[j], err, sizeof err))
                return -1;
            ctx_cache_counts(pt->ctx[j], &h, &m, &g, &e);
            *hits += h;
            *misses += m;
            *merged += g;
            *evictions += e;
        }
        *stalls += pt->ctx_stalls;
        any = 1;
    }
    return any;
}

uint64_t path_net_mismatches(const path_net_t *net)
{
    uint64_t m = 0;
    for (int i = 0; i < net->n; i++)
        for (int j = 0; net->kind[i] == STAGE_NIC && j < net->port[i].n_ctx; j++)
            m += block_mismatches(net->port[i].ctx[j]->blk);
    for (int i = 0; i < net->n; i++)
        if (net->kind[i] == STAGE_NIC && net->port[i].blk)
            m += block_mismatches(net->port[i].blk);
    return m;
}

void path_net_free(path_net_t *net)
{
    for (int i = 0; i < net->n; i++) {
        if (net->has_rx[i])
            rx_free(&net->rx[i]);
        if (net->kind[i] == STAGE_NIC)
            nic_port_free(&net->port[i]);
        else if (net->kind[i] == STAGE_WIRE)
            wire_free(&net->wire[i]);
        if (net->split && net->kind[i] == STAGE_WIRE)
            wire_rx_free(&net->far[i]);
        else if (net->kind[i] == STAGE_DELAY)
            delay_free(&net->delay[i]);
    }
    for (int node = 0; node < 2; node++) {
        if (net->tp[node]) {
            tp_port_free(net->tp[node]);
            free(net->tp[node]);
            net->tp[node] = NULL;
        }
    }
    for (int i = 0; i < net->n; i++) {
        tp_lane_t *l = net->lane[i];
        if (!l)
            continue;
        chan_free(&l->to_tp);
        chan_free(&l->from_tp);
        free(l);
        net->lane[i] = NULL;
    }
    memset(net->lane_in, 0, sizeof net->lane_in);
    for (int i = 0; i < TOPO_MAX_SWITCHES; i++) {
        if (net->sw[i]) {
            switch_free(net->sw[i]);
            free(net->sw[i]);
            net->sw[i] = NULL;
        }
    }
    for (int i = 0; i <= net->n; i++)
        chan_free(&net->ch[i]);
    for (int i = 0; i < 2; i++) { /* (the kernels given a pool by the path) */
        if (net->ack_pool_k[i])
            net->ack_pool_k[i]->payloads = NULL;
        net->ack_pool_k[i] = NULL;
    }
    if (net->ack_pool) { /* (last: what was in flight gave its bytes back) */
        payload_free_all(net->ack_pool);
        free(net->ack_pool);
        net->ack_pool = NULL;
    }
}
