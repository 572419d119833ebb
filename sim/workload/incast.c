#include "incast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path_net.h"
#include "path_topo.h"
#include "switch.h"
#include "urma.h"
#include "urma_host.h"

#define TOKEN 0x1ca5u
#define SEG_BASE 0x10000u

typedef struct incast_sim incast_sim_t;

/* One sender: its workload state. */
typedef struct {
    incast_sim_t *sim;
    int idx;
    urma_context_t *ctx, *tgt;
    urma_jfs_t *jfs;
    urma_target_seg_t *tseg;
    int64_t issued, in_flight, completed, errors;
    uint64_t first_post_ps, last_done_ps;
    double sum_ns;
    uint8_t *wrote_ok;        /* per slot: a write of it succeeded */
    uint64_t *post_ps;        /* per slot: when its request was posted */
    int *free_slot;           /* slots with no request in flight */
    int n_free;
    int finished;
} sender_t;

struct incast_sim {
    const incast_opts_t *o;
    incast_result_t *r;
    int n;
    kernel_t k;
    clockdom_t nic_clk, sw_clk;
    switch_comp_t sw;
    int sw_made;
    path_cfg_t *pre, *suf, mid;   /* the sub-paths: per sender, and shared */
    path_net_t **pre_net, **suf_net, *mid_net;
    chan_t *cmp;                  /* per sender: completions to its order tracker */
    urma_host_t **host;
    sender_t *snd;
    urma_seg_info_t seg;          /* the target's segment */
    uint64_t stride, region, buf_base;
    int finished;
};

/* ---- the workload ------------------------------------------------------------------ */

static uint8_t fill_byte(int sender, uint64_t slot, uint64_t i)
{
    return (uint8_t)(sender * 29 + slot * 7 + i * 13 + (i >> 7));
}

static uint64_t remote_at(const incast_sim_t *s, int sender, uint64_t slot)
{
    return s->seg.va + (uint64_t)sender * s->region + slot * s->stride;
}

/* A request on a free slot (its buffer, its region of the target, its post
 * time are the slot's until it completes). */
static void post_next(sender_t *d)
{
    incast_sim_t *s = d->sim;
    uint64_t slot = (uint64_t)d->free_slot[--d->n_free];
    uint64_t local = s->buf_base + slot * s->stride;
    uint32_t len = (uint32_t)s->o->payload;
    int rc = s->o->write ? urma_write(d->jfs, d->tseg, remote_at(s, d->idx, slot), local, len, slot)
                         : urma_read(d->jfs, d->tseg, local, remote_at(s, d->idx, slot), len, slot);
    if (rc) {
        urma_fail(d->ctx, "sender %d: %s", d->idx, urma_last_error(d->ctx));
        return;
    }
    d->post_ps[slot] = urma_now_ps(d->ctx);
    if (d->issued == 0)
        d->first_post_ps = d->post_ps[slot];
    d->issued++;
    d->in_flight++;
}

/* The target's memory against what the successful writes put there. */
static void check_writes(incast_sim_t *s)
{
    const uint8_t *tm = urma_node_memory(s->snd[0].tgt, NULL);
    for (int i = 0; i < s->n; i++) {
        sender_t *d = &s->snd[i];
        for (int slot = 0; slot < s->o->window; slot++) {
            if (!d->wrote_ok[slot])
                continue;
            const uint8_t *at = tm + remote_at(s, i, (uint64_t)slot);
            for (int64_t b = 0; b < s->o->payload; b++) {
                if (at[b] != fill_byte(i, (uint64_t)slot, (uint64_t)b)) {
                    urma_fail(d->ctx, "sender %d's write of slot %d: the target holds other bytes "
                                      "than it wrote (byte %lld): a wrong result would have been "
                                      "reported as good",
                              i, slot, (long long)b);
                    return;
                }
            }
            s->r->bytes_checked += s->o->payload;
        }
    }
}

static void on_completions(urma_jfc_t *jfc, void *arg)
{
    sender_t *d = arg;
    incast_sim_t *s = d->sim;
    urma_cr_t cr[16];
    int n;
    while ((n = urma_poll_jfc(jfc, 16, cr)) > 0) {
        for (int i = 0; i < n; i++) {
            uint64_t slot = cr[i].user_ctx;
            d->in_flight--;
            d->free_slot[d->n_free++] = (int)slot;
            if (cr[i].status != URMA_CR_SUCCESS) {
                d->errors++;
                continue;
            }
            d->completed++;
            d->last_done_ps = cr[i].time_ps;
            d->sum_ns += (double)(cr[i].time_ps - d->post_ps[slot]) / 1000.0;
            if (s->o->write) {
                d->wrote_ok[slot] = 1;
            } else {
                const uint8_t *mine = urma_node_memory(d->ctx, NULL) + s->buf_base + slot * s->stride;
                const uint8_t *theirs = urma_node_memory(d->tgt, NULL) + remote_at(s, d->idx, slot);
                if (memcmp(mine, theirs, (size_t)s->o->payload)) {
                    urma_fail(d->ctx, "sender %d's read of slot %llu brought back other bytes "
                                      "than the target holds: a wrong result would have been "
                                      "reported as good",
                              d->idx, (unsigned long long)slot);
                    return;
                }
                s->r->bytes_checked += s->o->payload;
            }
        }
    }
    while (d->issued < s->o->ops && d->in_flight < s->o->window)
        post_next(d);
    if (!d->finished && d->in_flight == 0 && d->issued == s->o->ops) {
        d->finished = 1;
        s->finished++;
        if (s->o->progress)
            s->o->progress(s->o->progress_ctx, s->finished, s->n);
        if (s->finished == s->n) {
            if (s->o->write)
                check_writes(s);
            urma_stop(d->ctx);
        }
    }
}

static int start(void *arg, urma_context_t *const *nodes, int n_nodes)
{
    sender_t *d = arg;
    incast_sim_t *s = d->sim;
    (void)n_nodes;
    d->ctx = nodes[0];
    d->tgt = nodes[1];
    d->tseg = urma_import_seg(d->ctx, &s->seg, TOKEN);
    urma_jfc_cfg_t qc = {.depth = (uint32_t)s->o->window + 16, .notify = on_completions, .arg = d};
    urma_jfc_t *jfc = d->tseg ? urma_create_jfc(d->ctx, &qc) : NULL;
    urma_jfs_cfg_t jc = {.depth = (uint32_t)s->o->window, .jfc = jfc};
    d->jfs = jfc ? urma_create_jfs(d->ctx, &jc) : NULL;
    if (!d->jfs) {
        urma_fail(d->ctx, "sender %d: %s", d->idx, urma_last_error(d->ctx));
        return -1;
    }
    uint8_t *mem = urma_node_memory(d->ctx, NULL);
    for (int slot = 0; slot < s->o->window; slot++)
        for (int64_t b = 0; b < s->o->payload; b++)
            mem[s->buf_base + (uint64_t)slot * s->stride + (uint64_t)b] =
                fill_byte(d->idx, (uint64_t)slot, (uint64_t)b);
    while (d->issued < s->o->ops && d->in_flight < s->o->window)
        post_next(d);
    return 0;
}

/* The target's transmit pipeline and receive checks serve every sender: a
 * request's id says whose it is. */
static void target_emit(void *ctx, msg_t *m, tick_t t)
{
    incast_sim_t *s = ctx;
    urma_host_emit(s->host[m->id % (uint32_t)s->n], m, t);
}

static uint32_t req_jetty(void *ctx, const msg_t *m)
{
    incast_sim_t *s = ctx;
    return urma_host_jetty(s->host[m->id % (uint32_t)s->n], m);
}

static void target_fields(void *ctx, const msg_t *m, pkt_hdr_t *h)
{
    incast_sim_t *s = ctx;
    urma_host_fields(s->host[m->id % (uint32_t)s->n], m, h);
}

/* ---- the netlist ----------------------------------------------------------------------- */

/* The stages [from, to) of e, as a path of their own. */
static void sub_path(const path_cfg_t *e, int from, int to, const char *who, path_cfg_t *out)
{
    *out = *e;
    snprintf(out->name, sizeof out->name, "%.24s.%.12s", e->name, who);
    out->n_stages = to - from;
    memmove(out->stages, e->stages + from, (size_t)(to - from) * sizeof(stage_cfg_t));
}

/* Where a sender's expanded path meets the switch: the forward switch
 * stage f and the back one g; 0, or -1 when the route is not link, switch,
 * link each way. */
static int split_points(const path_cfg_t *e, int *f, int *g)
{
    int sw[4], n = 0;
    for (int i = 0; i < e->n_stages; i++)
        if (e->stages[i].kind == STAGE_SWITCH) {
            if (n == 4)
                return -1;
            sw[n++] = i;
        }
    if (n != 2 || e->stages[sw[0]].sw != e->stages[sw[1]].sw)
        return -1;
    *f = sw[0];
    *g = sw[1];
    return 0;
}

static path_net_opts_t net_opts(const incast_sim_t *s)
{
    path_net_opts_t no = {
        .max_inside = (int64_t)s->n * s->o->window,
        .payload = s->o->payload,
        .jetties = 1,
        .backend = s->o->backend,
        .fault = s->o->fault,
        .lossy = 1,
        .nic_clk = &s->nic_clk,
        .in_time_order = s->o->in_time_order,
    };
    for (int i = 0; i < CFG_MAX_STAGES; i++)
        no.align_point[i] = no.end_point[i] = no.queue_point[i] = CHAN_NO_PROBE;
    return no;
}

static double per_byte(const incast_sim_t *s, const path_cfg_t *p, const stage_cfg_t *st)
{
    return 1000.0 * (double)s->k.tb.per_ps / stage_gbytes_per_s(p, st);
}

static void free_sim(incast_sim_t *s)
{
    for (int i = 0; i < s->n; i++) {
        if (s->pre_net && s->pre_net[i]) {
            path_net_free(s->pre_net[i]);
            free(s->pre_net[i]);
        }
        if (s->suf_net && s->suf_net[i]) {
            path_net_free(s->suf_net[i]);
            free(s->suf_net[i]);
        }
    }
    if (s->mid_net) {
        path_net_free(s->mid_net);
        free(s->mid_net);
    }
    for (int i = 0; s->cmp && i < s->n; i++)
        chan_free(&s->cmp[i]);
    free(s->cmp);
    if (s->sw_made)
        switch_free(&s->sw);
    kernel_free(&s->k);
    for (int i = s->n - 1; s->host && i >= 0; i--) /* the target's owner last */
        urma_host_free(s->host[i]);
    for (int i = 0; s->snd && i < s->n; i++) {
        free(s->snd[i].wrote_ok);
        free(s->snd[i].post_ps);
        free(s->snd[i].free_slot);
    }
    free(s->pre);
    free(s->suf);
    free(s->pre_net);
    free(s->suf_net);
    free(s->host);
    free(s->snd);
}

/* Sender i's path to the target, laid over tf, into e: f and g the stages
 * of its way into and out of the switch. It must cross exactly one switch,
 * sw (when sw >= 0: the one the earlier senders meet at). 0, or -1 with a
 * message. */
static int sender_route(const path_cfg_t *path, const topo_file_t *tf, int target, const int *senders,
                        int i, int sw, path_cfg_t *e, int *f, int *g, char *err, int errlen)
{
    const topo_t *t = &tf->t;
    if (path_on_topology(path, tf, senders[i], target, e, err, errlen))
        return -1;
    if (split_points(e, f, g) || *f == 0 || *g + 1 >= e->n_stages) {
        snprintf(err, (size_t)errlen, "sender %s must reach %s through exactly one "
                                      "switch (a link into it, a link out of it)",
                 t->node[senders[i]].name, t->node[target].name);
        return -1;
    }
    if (sw >= 0 && e->stages[*f].sw != sw) {
        snprintf(err, (size_t)errlen, "senders %s and %s reach %s through different "
                                      "switches; they must meet at one",
                 t->node[senders[0]].name, t->node[senders[i]].name, t->node[target].name);
        return -1;
    }
    return 0;
}

static int build(incast_sim_t *s, const path_cfg_t *path, const topo_file_t *tf, int target,
                 const int *senders, char *err, int errlen)
{
    const topo_t *t = &tf->t;
    int n = s->n;
    s->pre = calloc((size_t)n, sizeof(path_cfg_t));
    s->suf = calloc((size_t)n, sizeof(path_cfg_t));
    s->pre_net = calloc((size_t)n, sizeof(*s->pre_net));
    s->suf_net = calloc((size_t)n, sizeof(*s->suf_net));
    s->host = calloc((size_t)n, sizeof(*s->host));
    s->snd = calloc((size_t)n, sizeof(*s->snd));
    s->mid_net = calloc(1, sizeof(*s->mid_net));
    s->cmp = calloc((size_t)n, sizeof(*s->cmp));
    if (!s->pre || !s->suf || !s->pre_net || !s->suf_net || !s->host || !s->snd || !s->mid_net) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    /* every sender's route: its link into the switch, the switch, the link
     * to the target (and the same way back) */
    static path_cfg_t e;
    int sw_index = -1, port_t = -1, port[INCAST_MAX_SENDERS];
    for (int i = 0; i < n; i++) {
        int f, g;
        if (sender_route(path, tf, target, senders, i, sw_index, &e, &f, &g, err, errlen))
            return -1;
        sw_index = e.stages[f].sw;
        port[i] = e.stages[f].sw_in;
        port_t = e.stages[f].sw_out;
        sub_path(&e, 0, f, t->node[senders[i]].name, &s->pre[i]);
        sub_path(&e, g + 1, e.n_stages, t->node[senders[i]].name, &s->suf[i]);
        if (i == 0)
            sub_path(&e, f + 1, g, t->node[target].name, &s->mid);
    }
    const topo_switch_t *ts = &t->sw[sw_index];
    int64_t mhz[1] = {ts->clock_mhz};
    if (tb_init(&s->k.tb, path->nic_mhz, mhz, 1)) {
        snprintf(err, (size_t)errlen, "no common time base for %lld and %lld MHz",
                 (long long)path->nic_mhz, (long long)ts->clock_mhz);
        return -1;
    }
    clock_init(&s->nic_clk, "nic", &s->k.tb, path->nic_mhz, 0);
    clock_init(&s->sw_clk, ts->name, &s->k.tb, ts->clock_mhz, 0);
    switch_cfg_t sc = {.n_ports = ts->n_ports, .buffer_bytes = ts->buffer_bytes,
                       .fwd_cycles = ts->fwd_cycles, .cut_through = ts->cut_through,
                       .header_bytes = ts->header_bytes};
    char name[96], e2[200];
    snprintf(name, sizeof name, "incast.%s", ts->name);
    if (switch_init(&s->sw, name, &s->sw_clk, &sc, e2, sizeof e2)) {
        snprintf(err, (size_t)errlen, "switch %s: %s", ts->name, e2);
        return -1;
    }
    s->sw_made = 1;
    for (int d = 0; d < t->n_nodes; d++)
        if (ts->route[d] >= 0)
            switch_route(&s->sw, d, ts->route[d]);
    if (kernel_add(&s->k, &s->sw.c, TICK_NEVER)) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    /* the hosts: the first owns the target's memory, the others share it */
    s->stride = ((uint64_t)s->o->payload + 63) / 64 * 64;
    s->region = s->stride * (uint64_t)s->o->window;
    s->buf_base = 0x1000;
    for (int i = 0; i < n; i++) {
        sender_t *d = &s->snd[i];
        d->sim = s;
        d->idx = i;
        d->wrote_ok = calloc((size_t)s->o->window, 1);
        d->post_ps = calloc((size_t)s->o->window, sizeof(uint64_t));
        d->free_slot = calloc((size_t)s->o->window, sizeof(int));
        for (int k = 0; d->free_slot && k < s->o->window; k++)
            d->free_slot[k] = s->o->window - 1 - k; /* slot 0 first */
        d->n_free = s->o->window;
        urma_host_cfg_t hc = {
            .max_outstanding = s->o->window,
            .lossy = 1,
            .timeout = tb_from_ps(&s->k.tb, s->o->timeout_ps > 0 ? s->o->timeout_ps : LAT_TIMEOUT_PS),
            .post_point = CHAN_NO_PROBE,
            .done_point = CHAN_NO_PROBE,
            .mem_bytes = {s->buf_base + s->region, SEG_BASE + s->region * (uint64_t)n},
            .node_id = {(uint32_t)senders[i], (uint32_t)target},
            .share_target = i ? s->host[0] : NULL,
            .id_offset = (uint32_t)i,
            .id_stride = (uint32_t)n,
        };
        urma_workload_t wl = {.name = "incast", .start = start, .arg = d};
        snprintf(name, sizeof name, "incast.%s.host", t->node[senders[i]].name);
        int got = d->wrote_ok && d->post_ps && d->free_slot;
        s->host[i] = got ? urma_host_new(&s->k, name, &hc, &wl, err, errlen) : NULL;
        if (!s->host[i]) {
            if (!got)
                snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
    }
    /* the target's segment, with what the reads read */
    urma_context_t *tc = urma_host_context(s->host[0], 1);
    urma_seg_cfg_t seg = {.va = SEG_BASE, .len = s->region * (uint64_t)n, .token = TOKEN,
                          .access = URMA_ACCESS_READ | URMA_ACCESS_WRITE};
    urma_seg_t *sg = urma_register_seg(tc, &seg);
    if (!sg) {
        snprintf(err, (size_t)errlen, "the target's segment: %s", urma_last_error(tc));
        return -1;
    }
    s->seg = urma_seg_info(sg);
    uint8_t *tm = urma_node_memory(tc, NULL);
    for (uint64_t b = 0; b < seg.len; b++)
        tm[SEG_BASE + b] = (uint8_t)(b * 131 + (b >> 9));
    /* the netlists */
    path_net_opts_t no = net_opts(s);
    no.first_clk = &s->sw_clk;
    no.rx_sources = (uint32_t)t->n_nodes;
    no.target_emit = target_emit;
    no.target_emit_ctx = s;
    no.target_mem = urma_host_mem(s->host[0], 1);
    no.target_fields = target_fields;
    if (path_net_build(s->mid_net, &s->k, &s->mid, &no, err, errlen))
        return -1;
    for (int i = 0; i < n; i++) {
        s->pre_net[i] = calloc(1, sizeof(path_net_t));
        s->suf_net[i] = calloc(1, sizeof(path_net_t));
        if (!s->pre_net[i] || !s->suf_net[i]) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
        path_net_opts_t po = net_opts(s);
        po.req_jetty = req_jetty;
        po.target_emit_ctx = s;
        if (path_net_build(s->pre_net[i], &s->k, &s->pre[i], &po, err, errlen))
            return -1;
        po.first_clk = &s->sw_clk;
        if (path_net_build(s->suf_net[i], &s->k, &s->suf[i], &po, err, errlen))
            return -1;
        path_net_t *pn = s->pre_net[i], *sn = s->suf_net[i];
        int last = pn->n - 1;
        if (switch_connect_in(&s->sw, port[i], &pn->ch[pn->n], &pn->wire[last],
                              per_byte(s, &s->pre[i], &s->pre[i].stages[last])) ||
            switch_connect_out(&s->sw, port[i], &sn->ch[0], &sn->wire[0])) {
            snprintf(err, (size_t)errlen, "switch %s has no port %d", ts->name, port[i]);
            return -1;
        }
        urma_host_set_moves_data(s->host[i], s->mid_net->target_emits);
        nic_port_t *tp = path_net_tracker_port(pn);
        if (tp && s->cmp) { /* completions reach the sender's order tracker */
            chan_init(&s->cmp[i], "completions", (int64_t)1 << 62, 0);
            tp->cmp_in = &s->cmp[i];
            tp->on_issue = urma_host_issued;
            tp->issue_ctx = s->host[i];
            urma_host_set_cmp(s->host[i], &s->cmp[i]);
        }
        if (urma_host_connect(s->host[i], &pn->ch[0], &sn->ch[sn->n], err, errlen))
            return -1;
    }
    path_net_t *m = s->mid_net;
    if (switch_connect_in(&s->sw, port_t, &m->ch[m->n], &m->wire[m->n - 1],
                          per_byte(s, &s->mid, &s->mid.stages[m->n - 1])) ||
        switch_connect_out(&s->sw, port_t, &m->ch[0], &m->wire[0])) {
        snprintf(err, (size_t)errlen, "switch %s has no port %d", ts->name, port_t);
        return -1;
    }
    return 0;
}

int incast_check(const path_cfg_t *path, const topo_file_t *tf, int target, const int *senders,
                 int n, char *err, int errlen)
{
    if (path->tx_block == NIC_BLOCK_NONE) {
        snprintf(err, (size_t)errlen, "path '%s' has no send pipeline ([nic] tx_block)",
                 path->name);
        return -1;
    }
    static path_cfg_t e;
    for (int i = 0, sw = -1; i < n; i++) {
        int f, g;
        if (sender_route(path, tf, target, senders, i, sw, &e, &f, &g, err, errlen))
            return -1;
        sw = e.stages[f].sw;
    }
    /* the target's send pipeline keeps a channel (UB: node % channels) or a
     * queue-pair context (RoCE: queue pair 1 + node, modulo the contexts) per
     * requester: two senders sharing one would see gaps in each other's
     * sequence */
    int ub = path->tx_block == NIC_BLOCK_UB_SEND;
    unsigned slots = ub ? UBSP_NUM_CHANNELS : RC_SEND_NUM_QPS;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            unsigned a = ub ? (unsigned)senders[i] % slots : (1u + (unsigned)senders[i]) % slots;
            unsigned b = ub ? (unsigned)senders[j] % slots : (1u + (unsigned)senders[j]) % slots;
            if (a == b) {
                snprintf(err, (size_t)errlen,
                         "senders %s and %s would share one of the target's %u %s (%s): "
                         "at most %u senders, whose node numbers differ modulo %u",
                         tf->t.node[senders[j]].name, tf->t.node[senders[i]].name, slots,
                         ub ? "transport channels" : "queue-pair contexts",
                         ub ? "node % 16" : "queue pair 1 + node, modulo 16", slots, slots);
                return -1;
            }
        }
    }
    return 0;
}

int incast_run(const path_cfg_t *path, const topo_file_t *tf, int target, const int *senders,
               int n, const incast_opts_t *o, incast_result_t *r, char *err, int errlen)
{
    memset(r, 0, sizeof(*r));
    if (n < 1 || n > INCAST_MAX_SENDERS) {
        snprintf(err, (size_t)errlen, "1 to %d senders, not %d", INCAST_MAX_SENDERS, n);
        return -1;
    }
    if (o->payload < 1 || o->payload > (1 << 24) || o->ops < 1 || o->window < 1 ||
        o->window > (1 << 16)) {
        snprintf(err, (size_t)errlen, "a payload of 1 B to 16 MiB, at least 1 request and a "
                                      "window of 1 to 65536 expected");
        return -1;
    }
    if (incast_check(path, tf, target, senders, n, err, errlen))
        return -1;
    incast_sim_t *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    s->o = o;
    s->r = r;
    s->n = n;
    kernel_init(&s->k);
    s->k.step_all = o->step_every_cycle;
    int rc = build(s, path, tf, target, senders, err, errlen);
    if (rc == 0) {
        rc = kernel_run(&s->k) ? -1 : 0;
        if (rc)
            snprintf(err, (size_t)errlen, "%s", s->k.err);
    }
    if (rc == 0) {
        const topo_t *t = &tf->t;
        r->n = n;
        snprintf(r->target, sizeof r->target, "%s", t->node[target].name);
        double bytes = 0, first = -1, last = 0;
        for (int i = 0; i < n; i++) {
            sender_t *d = &s->snd[i];
            incast_sender_t *x = &r->s[i];
            snprintf(x->node, sizeof x->node, "%s", t->node[senders[i]].name);
            x->completed = d->completed;
            x->errors = d->errors;
            double span = (double)(d->last_done_ps - d->first_post_ps) / 1000.0;
            x->goodput_gbytes_per_s =
                d->completed && span > 0 ? (double)d->completed * (double)o->payload / span : 0;
            x->mean_ns = d->completed ? d->sum_ns / (double)d->completed : 0;
            bytes += (double)d->completed * (double)o->payload;
            if (first < 0 || (double)d->first_post_ps < first)
                first = (double)d->first_post_ps;
            if ((double)d->last_done_ps > last)
                last = (double)d->last_done_ps;
            r->executed += urma_host_stats(s->host[i])->executed;
        }
        r->goodput_gbytes_per_s = last > first ? bytes / ((last - first) / 1000.0) : 0;
        r->end_ns = tb_to_ns(&s->k.tb, s->k.now);
        uint64_t rcv = s->sw.received, un = s->sw.unroutable, fw = 0, dr = 0;
        int64_t peak = 0;
        for (int p = 0; p < s->sw.cfg.n_ports; p++) {
            fw += s->sw.port[p].forwarded;
            dr += s->sw.port[p].dropped;
            if (s->sw.port[p].peak > peak)
                peak = s->sw.port[p].peak;
        }
        r->sw = (lat_switch_t){.received = rcv, .forwarded = fw, .dropped = dr, .unroutable = un,
                               .peak_queue_bytes = peak};
        snprintf(r->sw.name, sizeof r->sw.name, "%s", s->sw.c.name + strlen("incast."));
        path_net_rx_counts(s->mid_net, NODE_TARGET, r->rx_target);
        for (int i = 0; i < n; i++) {
            path_net_rx_counts(s->suf_net[i], NODE_INITIATOR, r->rx_initiators);
            r->faulted |= path_net_fault_counts(s->pre_net[i], FAULT_FWD, &r->faults[FAULT_FWD]);
            r->faulted |= path_net_fault_counts(s->suf_net[i], FAULT_BACK, &r->faults[FAULT_BACK]);
            r->lockstep_mismatches += path_net_mismatches(s->pre_net[i]);
        }
        r->faulted |= path_net_fault_counts(s->mid_net, FAULT_FWD, &r->faults[FAULT_FWD]);
        r->faulted |= path_net_fault_counts(s->mid_net, FAULT_BACK, &r->faults[FAULT_BACK]);
        r->lockstep_mismatches += path_net_mismatches(s->mid_net);
        int64_t ended = 0;
        for (int i = 0; i < n; i++)
            ended += r->s[i].completed + r->s[i].errors;
        if (ended != (int64_t)n * o->ops) {
            snprintf(err, (size_t)errlen, "only %lld of %lld requests ended",
                     (long long)ended, (long long)n * o->ops);
            rc = -1;
        }
    }
    free_sim(s);
    free(s);
    return rc;
}

int incast_default_topology(topo_file_t *tf, int n, char *err, int errlen)
{
    memset(tf, 0, sizeof(*tf));
    topo_init(&tf->t);
    snprintf(tf->name, sizeof tf->name, "star%d", n + 1);
    snprintf(tf->description, sizeof tf->description, "%d senders and a target on one switch", n);
    snprintf(tf->file, sizeof tf->file, "(built in)");
    char e[200];
    for (int i = 0; i < n; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "s%d", i);
        if (topo_add_node(&tf->t, nm, e, sizeof e) < 0)
            goto fail;
    }
    if (topo_add_node(&tf->t, "T", e, sizeof e) < 0)
        goto fail;
    int sw = topo_add_switch(&tf->t, "S", n + 1, e, sizeof e);
    if (sw < 0)
        goto fail;
    topo_switch_t *ts = &tf->t.sw[sw];
    ts->buffer_bytes = 262144;
    ts->fwd_cycles = 10;
    ts->clock_mhz = 500;
    ts->cut_through = 0;
    ts->header_bytes = 40;
    for (int i = 0; i <= n; i++) {
        char a[16], b[16];
        snprintf(a, sizeof a, i < n ? "s%d" : "T", i);
        snprintf(b, sizeof b, "S:%d", i);
        int l = topo_add_link(&tf->t, a, b, 50.0, 100.0, e, sizeof e);
        if (l < 0)
            goto fail;
        /* each link named after its node, as configs/topo/star3.ini does
         * (what --fault drop=LINK.DIR:K names) */
        snprintf(tf->t.link[l].name, sizeof tf->t.link[l].name, "%s", a);
    }
    if (topo_check(&tf->t, e, sizeof e) || topo_routes(&tf->t, e, sizeof e))
        goto fail;
    return 0;
fail:
    snprintf(err, (size_t)errlen, "the built-in topology: %s", e);
    return -1;
}
