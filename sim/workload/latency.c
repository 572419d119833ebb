#include "latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "path_net.h"
#include "path_topo.h"
#include "topo_file.h"
#include "urma_host.h"
#include "verbs_net.h"

enum { POINT_POST = -1, POINT_DONE = -2 };

/* A read's probe records kept until it completes (latency_sim.held). */
typedef struct {
    tick_t t;
    int32_t point;
} held_rec_t;
typedef struct {
    held_rec_t *r;
    uint32_t n, cap;
} held_t;
#define HELD_CLOSED UINT32_MAX /* held_t.cap of a read that completed or failed */

struct latency_sim {
    const path_cfg_t *path;
    const latency_opts_t *opts;
    latency_result_t *res;
    verbs_net_t v;           /* the kernel, the path, the hosts */
    int64_t n_slots;
    /* the workload, written against the verbs: reads of `payload` bytes
     * cycling through a segment of the target's memory, each into one of a
     * ring of buffers at the initiator, checked against the target's bytes */
    urma_context_t *ini, *tgt;
    urma_jfc_t *jfc;
    urma_jfs_t **jfs;         /* one per Jetty */
    int n_jetties;
    urma_target_seg_t *tseg;
    uint64_t seg_base, seg_len, stride, buf_base, n_buf;
    int64_t issued, in_flight;
    int moves_data;
    int lossy;               /* reads may be lost (faults, or a switch that
                                drops): each has an id and a deadline */
    int64_t payload;
    /* the report, built from probe records */
    tick_t *t_post, *t_last; /* per request id */
    __int128 sum_total, sum_row[LAT_MAX_ROWS]; /* cannot overflow */
    hist_t totals;
    int row_of_stage[CFG_MAX_STAGES];  /* the configured row */
    int align_row[CFG_MAX_STAGES];     /* the derived row before it, or -1 */
    int queue_row[CFG_MAX_STAGES];     /* a switch's queueing row after it, or -1 */
    /* the transport's rows of a run of wires: tp_tx_row at its first wire,
     * tp_rx_row at its last; or -1 */
    int tp_tx_row[CFG_MAX_STAGES], tp_rx_row[CFG_MAX_STAGES];
    int stage_of_row[LAT_MAX_ROWS];
    int send_row, send_align_row, exec_row;
    uint8_t plain[LAT_MAX_ROWS];       /* a row's probe only adds to the sums */
    int64_t row_n[LAT_MAX_ROWS];       /* probes of each row (kept with faults) */
    /* With reordering faults or the transport, a packet can be overtaken:
     * on a topology one that a duplicate or a resend overtook on one link
     * still records its passage through the later links and switches, and
     * a part running ahead may record those before the kept copy's
     * arrival. Each read's records are then kept (held[id]) and turned into
     * rows when it completes, in time order, without the records of the
     * links and switches of a run after its kept copy arrived or after the
     * read completed. Only completed reads make the rows then, and every
     * row's mean is over all of them (released), so the total is the mean
     * read.
     * run_of_row: the run of links a row lies inside (before its last
     * link's arrival), or -1; run_end_row: that arrival's row. */
    held_t *held;
    int64_t released;
    int8_t run_of_row[LAT_MAX_ROWS];
    int run_end_row[CFG_MAX_STAGES];
    int n_runs;
    char *err;
    int errlen;
    wave_sig_t w_stage_name, w_op;
};
typedef struct latency_sim sim_t;

/* ---- the workload -------------------------------------------------------------- */

#define SEG_TOKEN 0x5eedu

/* Where read `op` reads in the target's segment. */
static uint64_t read_addr(const sim_t *s, uint64_t op)
{
    return s->seg_base + (op % (s->seg_len / s->stride)) * s->stride;
}

/* A read may be posted: a slot is free and reads are left. */
static int may_post(const sim_t *s)
{
    return s->issued < s->opts->ops && s->in_flight < s->n_slots;
}

static void post(sim_t *s)
{
    uint64_t op = (uint64_t)s->issued++;
    uint32_t j = nic_jetty_of(op, s->n_jetties, s->opts->seed);
    uint64_t buf = s->buf_base + (op % s->n_buf) * s->stride;
    s->in_flight++;
    if (urma_read(s->jfs[j], s->tseg, buf, read_addr(s, op), (uint32_t)s->payload, op))
        urma_fail(s->ini, "read %llu: %s", (unsigned long long)op, urma_last_error(s->ini));
}

/* Every completion: a read that brought back the bytes stored at the
 * target (anything else fails the run: a wrong result would have been
 * reported as good), or one that ended in an error. */
static void on_completions(urma_jfc_t *jfc, void *arg)
{
    sim_t *s = arg;
    latency_result_t *r = s->res;
    urma_cr_t cr[16];
    int n;
    while ((n = urma_poll_jfc(jfc, 16, cr)) > 0) {
        for (int i = 0; i < n; i++) {
            uint64_t op = cr[i].user_ctx;
            s->in_flight--;
            if (cr[i].status != URMA_CR_SUCCESS) {
                r->errors++;
                if (s->held) { /* (its records make no row; its id is its number) */
                    free(s->held[op].r);
                    s->held[op] = (held_t){NULL, 0, HELD_CLOSED};
                }
            } else {
                if (s->moves_data) {
                    uint64_t buf = s->buf_base + (op % s->n_buf) * s->stride, at = read_addr(s, op);
                    const uint8_t *mine = urma_node_memory(s->ini, NULL) + buf;
                    const uint8_t *theirs = urma_node_memory(s->tgt, NULL) + at;
                    if (cr[i].completion_len != (uint32_t)s->payload ||
                        memcmp(mine, theirs, (size_t)s->payload)) {
                        urma_fail(s->ini, "read %llu of %lld B at 0x%llx brought back bytes other "
                                          "than those stored at the target: a wrong result would "
                                          "have been reported as good",
                                  (unsigned long long)op, (long long)s->payload,
                                  (unsigned long long)at);
                        return;
                    }
                    r->bytes_checked++;
                }
                r->completed++;
                if (s->opts->progress && (r->completed & 0xffff) == 0)
                    s->opts->progress(s->opts->progress_ctx, s->path->name, r->completed,
                                      s->opts->ops);
            }
        }
        if (r->completed + r->errors == s->opts->ops) {
            urma_stop(s->ini);
            return;
        }
    }
    while (may_post(s))
        post(s);
}

/* At time 0: the target registers a segment filled with bytes that differ
 * from address to address, the initiator imports it with its token, makes a
 * completion queue and the Jetties, and posts its first reads. */
static int start(void *arg, urma_context_t *const *nodes, int n_nodes)
{
    sim_t *s = arg;
    (void)n_nodes;
    s->ini = nodes[0];
    s->tgt = nodes[1];
    urma_seg_cfg_t sc = {.va = s->seg_base, .len = s->seg_len, .token = SEG_TOKEN,
                         .access = URMA_ACCESS_READ | URMA_ACCESS_WRITE};
    urma_seg_t *seg = urma_register_seg(s->tgt, &sc);
    if (!seg) {
        urma_fail(s->ini, "the target's segment: %s", urma_last_error(s->tgt));
        return -1;
    }
    uint8_t *tb = urma_node_memory(s->tgt, NULL);
    uint64_t x = 0x2545f4914f6cdd1dull;
    /* (the reads cycle through the segment: only the bytes they reach are
     * filled, from its start, the rest of it stays zero) */
    uint64_t reads = (uint64_t)s->opts->ops, span = s->seg_len / s->stride;
    uint64_t fill = (reads < span ? reads : span) * s->stride;
    for (uint64_t i = 0; i < fill; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(tb + s->seg_base + i, &x, 8);
    }
    urma_seg_info_t info = urma_seg_info(seg);
    s->tseg = urma_import_seg(s->ini, &info, SEG_TOKEN);
    /* (each completion is polled the moment it is added: a short queue) */
    urma_jfc_cfg_t qc = {.depth = 64, .notify = on_completions, .arg = s};
    s->jfc = s->tseg ? urma_create_jfc(s->ini, &qc) : NULL;
    for (int j = 0; s->jfc && j < s->n_jetties; j++) {
        urma_jetty_cfg_t jc = {.jfs = {.depth = (uint32_t)s->n_slots, .jfc = s->jfc}};
        urma_jetty_t *jt = urma_create_jetty(s->ini, &jc);
        if (!jt)
            break;
        s->jfs[j] = urma_jetty_jfs(jt);
    }
    if (!s->jfc || !s->jfs[s->n_jetties - 1]) {
        urma_fail(s->ini, "the initiator's queues: %s", urma_last_error(s->ini));
        return -1;
    }
    while (may_post(s))
        post(s);
    return 0;
}

/* ---- the report: probe records in, rows out --------------------------------- */

static void wave_stage(sim_t *s, int stage, tick_t t)
{
    wave_t *w = s->opts->wave;
    wave_time(w, s->opts->wave_offset_ps + (uint64_t)(t / s->v.k.tb.per_ps));
    wave_set_str(w, s->w_stage_name, stage >= s->path->n_stages ? "idle" : s->path->stages[stage].name);
}

static void on_other_probe(sim_t *s, int point, uint32_t id, tick_t t);

static void on_probe(void *ctx, int point, uint32_t id, tick_t t)
{
    sim_t *s = ctx;
    if (point >= 0 && s->plain[point]) { /* most probes: a row's sums */
        tick_t d = t - s->t_last[id];
        s->sum_row[point] += d;
        s->sum_total += d;
        s->t_last[id] = t;
        return;
    }
    on_other_probe(s, point, id, t);
}

static int hold(sim_t *s, uint32_t id, int point, tick_t t)
{
    held_t *h = &s->held[id];
    if (h->cap == HELD_CLOSED)
        return 0; /* (a late copy's record) */
    if (h->n == h->cap) {
        /* (about one record per row) */
        uint32_t cap = h->cap ? 2 * h->cap : (uint32_t)s->res->n_rows;
        held_rec_t *r = realloc(h->r, cap * sizeof *r);
        if (!r)
            return -1;
        h->r = r;
        h->cap = cap;
    }
    h->r[h->n++] = (held_rec_t){t, point};
    return 0;
}

static int held_cmp(const void *a, const void *b)
{
    const held_rec_t *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->point > y->point) - (x->point < y->point); /* (the path's order) */
}

/* Read id completed at t_done: its records into the rows, in time order. */
static void release(sim_t *s, uint32_t id, tick_t t_done)
{
    held_t *h = &s->held[id];
    tick_t arrived[CFG_MAX_STAGES];
    for (int k = 0; k < s->n_runs; k++)
        arrived[k] = TICK_NEVER;
    for (uint32_t i = 0; i < h->n; i++)
        for (int k = 0; k < s->n_runs; k++)
            if (h->r[i].point == s->run_end_row[k] && h->r[i].t < arrived[k])
                arrived[k] = h->r[i].t;
    uint32_t m = 0;
    for (uint32_t i = 0; i < h->n; i++) {
        const held_rec_t *x = &h->r[i];
        int k = s->run_of_row[x->point];
        if (x->t > t_done || (k >= 0 && x->t > arrived[k]))
            continue; /* (a copy that was not kept, or late) */
        h->r[m++] = *x;
    }
    qsort(h->r, m, sizeof *h->r, held_cmp);
    tick_t last = s->t_post[id];
    for (uint32_t i = 0; i < m; i++) {
        int row = h->r[i].point;
        s->sum_row[row] += h->r[i].t - last;
        s->sum_total += h->r[i].t - last;
        if (i == 0 || row != h->r[i - 1].point) /* (a row recorded twice at one time counts once) */
            s->row_n[row]++;
        last = h->r[i].t;
    }
    s->released++;
    free(h->r);
    *h = (held_t){NULL, 0, HELD_CLOSED};
}

/* Posts, completions, and the rows that count departures and executions. */
static __attribute__((noinline)) void on_other_probe(sim_t *s, int point, uint32_t id, tick_t t)
{
    latency_result_t *r = s->res;
    int waves = s->opts->wave && s->n_slots == 1;
    /* what is left of a read that has ended (or will end: a part running
     * ahead records probes before their time) in an error */
    if (s->lossy && urma_host_ended(s->v.host, id, t))
        return;
    if (point == POINT_POST) {
        if (s->t_post)
            s->t_post[id] = t;
        s->t_last[id] = t;
        r->posted++;
        if (waves) {
            wave_stage(s, 0, t);
            wave_set(s->opts->wave, s->w_op, (uint64_t)(r->posted - 1));
        }
        return;
    }
    if (point == POINT_DONE) { /* (the workload counts it) */
        if (s->held)
            release(s, id, t);
        if (!s->opts->no_percentiles && hist_add(&s->totals, t - s->t_post[id]))
            kernel_fail(&s->v.k, "out of memory");
        r->end_time = t;
        return;
    }
    lat_row_t *row = &r->rows[point];
    if (s->held) {
        if (hold(s, id, point, t))
            kernel_fail(&s->v.k, "out of memory");
    } else {
        s->sum_row[point] += t - s->t_last[id];
        s->row_n[point]++;
        s->sum_total += t - s->t_last[id];
    }
    if (point == s->send_align_row && (r->first_at_nic < 0 || s->t_last[id] < r->first_at_nic))
        r->first_at_nic = s->t_last[id];
    s->t_last[id] = t;
    if (point == s->send_row) {
        if (r->sent > 0) {
            int64_t c = (t - r->last_sent_at) / r->tb.cycle;
            r->dep_hist[c < LAT_DEP_HIST ? c : LAT_DEP_HIST]++;
            if (c > r->dep_longest)
                r->dep_longest = c;
        }
        r->last_sent_at = t;
        r->sent++;
    }
    if (point == s->exec_row) {
        r->executed++;
        r->last_executed_at = t;
    }
    if (waves && !row->derived)
        wave_stage(s, s->stage_of_row[point] + 1, t);
}

/* ---- set-up ------------------------------------------------------------------ */

/* A new derived row (measured, not configured) of stage i: its index. */
static int derived_row(sim_t *s, int i, category_t cat)
{
    latency_result_t *r = s->res;
    lat_row_t *d = &r->rows[r->n_rows];
    s->stage_of_row[r->n_rows] = i;
    d->derived = 1;
    d->stage = i;
    d->category = cat;
    return r->n_rows++;
}

static void setup_rows(sim_t *s)
{
    const path_cfg_t *p = s->path;
    latency_result_t *r = s->res;
    int send_stage = -1, exec_stage = -1, run_start = -1;
    memset(s->run_of_row, -1, sizeof s->run_of_row);
    for (int i = 0; i < p->n_stages; i++) {
        const stage_cfg_t *st = &p->stages[i];
        s->align_row[i] = s->queue_row[i] = s->tp_tx_row[i] = s->tp_rx_row[i] = -1;
        /* (a run of wires, with switches between them, from NIC to NIC) */
        int run_first = st->kind == STAGE_WIRE && i > 0 && p->stages[i - 1].kind == STAGE_NIC;
        int run_last = st->kind == STAGE_WIRE && i + 1 < p->n_stages &&
                       p->stages[i + 1].kind == STAGE_NIC;
        if (run_first)
            run_start = i;
        if (run_first && s->opts->transport) {
            /* from the sending NIC to the (first) wire, through its transport */
            s->tp_tx_row[i] = derived_row(s, i, CAT_TRANSPORT);
            lat_row_t *d = &r->rows[s->tp_tx_row[i]];
            snprintf(d->name, sizeof(d->name), "transport.tx.%s", st->name);
            snprintf(d->label, sizeof(d->label), "%s transport sends it",
                     p->stages[i - 1].node == NODE_INITIATOR ? "initiator" : "target");
        }
        if (st->kind == STAGE_NIC) {
            if (send_stage < 0 && st->node == NODE_INITIATOR && st->pipe == PIPE_TX)
                send_stage = i;
            if (exec_stage < 0 && st->node == NODE_TARGET && st->pipe == PIPE_RX)
                exec_stage = i;
        }
        if (st->kind == STAGE_NIC || st->kind == STAGE_WIRE || st->kind == STAGE_SWITCH) {
            s->align_row[i] = derived_row(s, i, st->kind == STAGE_WIRE ? CAT_SERIALISATION
                                                                        : CAT_ALIGNMENT);
            lat_row_t *d = &r->rows[s->align_row[i]];
            if (st->kind == STAGE_NIC) {
                snprintf(d->name, sizeof(d->name), "align.%s", st->name);
                snprintf(d->label, sizeof(d->label), "clock alignment: wait for %s %s edge",
                         st->node == NODE_INITIATOR ? "initiator" : "target",
                         st->pipe == PIPE_TX ? "NIC tx" : "NIC rx");
            } else if (st->kind == STAGE_SWITCH) {
                snprintf(d->name, sizeof(d->name), "align.%s", st->name);
                snprintf(d->label, sizeof(d->label), "clock alignment: wait for switch %s edge",
                         p->topo->t.sw[st->sw].name);
            } else {
                snprintf(d->name, sizeof(d->name), "serialise.%s", st->name);
            }
        }
        lat_row_t *row = &r->rows[r->n_rows];
        s->stage_of_row[r->n_rows] = i;
        s->row_of_stage[i] = r->n_rows++;
        snprintf(row->name, sizeof(row->name), "%s", st->name);
        snprintf(row->label, sizeof(row->label), "%s", st->label[0] ? st->label : st->name);
        row->category = st->category;
        row->stage = i;
        switch (st->kind) {
        case STAGE_DELAY:
            row->calc = tb_from_ps(&s->v.k.tb, st->delay_ps);
            break;
        case STAGE_SWITCH: {
            const topo_switch_t *ts = &p->topo->t.sw[st->sw];
            row->calc = (tick_t)ts->fwd_cycles * tb_period(&s->v.k.tb, ts->clock_mhz);
            s->queue_row[i] = derived_row(s, i, CAT_QUEUEING);
            lat_row_t *q = &r->rows[s->queue_row[i]];
            snprintf(q->name, sizeof(q->name), "queue.%s", st->name);
            snprintf(q->label, sizeof(q->label), "switch %s: output register and queue of port %d",
                     ts->name, st->sw_out);
            break;
        }
        case STAGE_WIRE: {
            row->calc = tb_from_ps(&s->v.k.tb, stage_one_way_ps(p, st));
            int64_t bytes = st->bytes, packets = 1;
            if (s->payload >= 0 && st->payload_bytes > 0) { /* these packets carry the data */
                int64_t mtu = p->mtu_bytes > 0 ? p->mtu_bytes : 4096;
                packets = p->tx_block != NIC_BLOCK_NONE ? (s->payload + mtu - 1) / mtu : 1;
                bytes = (st->bytes - st->payload_bytes) * packets + s->payload;
            }
            double gbytes_per_s = stage_gbytes_per_s(p, st);
            if (packets > 1)
                snprintf(r->rows[s->align_row[i]].label, sizeof(r->rows[0].label),
                         "wire serialisation, %lld B in %lld packets at %g GB/s", (long long)bytes,
                         (long long)packets, gbytes_per_s);
            else
                snprintf(r->rows[s->align_row[i]].label, sizeof(r->rows[0].label),
                         "wire serialisation, %lld B at %g GB/s", (long long)bytes, gbytes_per_s);
            break;
        }
        case STAGE_NIC: {
            const nic_pipe_cfg_t *pc = st->pipe == PIPE_TX ? &p->tx : &p->rx;
            int cycles = nic_pipe_depth(pc);
            if (st->pipe == PIPE_TX)
                cycles += nic_block_latency(p->tx_block);
            row->calc = (tick_t)cycles * s->v.k.tb.cycle;
            break;
        }
        default:
            break;
        }
        r->calc_total += row->calc;
        if (run_last && run_start >= 0) {
            /* (the run's rows, from its first link's serialisation to its
             * last link's arrival) */
            s->run_end_row[s->n_runs] = s->row_of_stage[i];
            for (int k = s->align_row[run_start]; k < s->row_of_stage[i]; k++)
                s->run_of_row[k] = (int8_t)s->n_runs;
            s->n_runs++;
            run_start = -1;
        }
        if (run_last && s->opts->transport) {
            /* held by the receiving transport until in order, then to its NIC */
            s->tp_rx_row[i] = derived_row(s, i, CAT_TRANSPORT);
            lat_row_t *d = &r->rows[s->tp_rx_row[i]];
            snprintf(d->name, sizeof(d->name), "transport.rx.%s", st->name);
            snprintf(d->label, sizeof(d->label), "%s transport delivers it in order",
                     p->stages[i + 1].node == NODE_INITIATOR ? "initiator" : "target");
        }
    }
    s->send_row = send_stage >= 0 ? s->row_of_stage[send_stage] : -1;
    s->send_align_row = send_stage >= 0 ? s->align_row[send_stage] : -1;
    s->exec_row = exec_stage >= 0 ? s->row_of_stage[exec_stage] : -1;
}

static void setup_wave(sim_t *s)
{
    wave_t *w = s->opts->wave;
    char name[256];
    if (s->n_slots == 1) { /* one read at a time: show which stage it is in */
        snprintf(name, sizeof(name), "%s.op.stage", s->path->name);
        s->w_stage_name = wave_add_str(w, name);
        snprintf(name, sizeof(name), "%s.op.index", s->path->name);
        s->w_op = wave_add(w, name, 32);
    }
    path_net_wave(&s->v.net, w, s->opts->wave_offset_ps, s->opts->block_scope);
}

latency_sim_t *latency_create(const path_cfg_t *path, const latency_opts_t *opts,
                              latency_result_t *res, char *err, int errlen)
{
    memset(res, 0, sizeof(*res));
    res->first_at_nic = -1;
    if (opts->ops < 1) {
        snprintf(err, (size_t)errlen, "expected at least 1 op, got %lld", (long long)opts->ops);
        return NULL;
    }
    sim_t *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(err, (size_t)errlen, "out of memory");
        return NULL;
    }
    s->path = path;
    s->opts = opts;
    s->res = res;
    s->err = err;
    s->errlen = errlen;
    hist_init(&s->totals);
    if (verbs_net_time(&s->v, path, err, errlen)) {
        latency_destroy(s);
        return NULL;
    }
    res->tb = s->v.k.tb;
    s->v.k.step_all = opts->step_every_cycle;
    s->v.k.probe = on_probe;
    s->v.k.probe_ctx = s;
    /* a read moves the payload asked for, or what the path's configured
     * response carries (64 B if it names none) */
    s->payload = 64;
    for (int i = path->n_stages - 1; i >= 0; i--)
        if (path->stages[i].kind == STAGE_WIRE && path->stages[i].payload_bytes > 0)
            s->payload = path->stages[i].payload_bytes;
    if (opts->payload > 0)
        s->payload = opts->payload;
    s->lossy = verbs_net_lossy(path, opts->fault);
    s->n_slots = opts->slots > 0 ? opts->slots : 1;
    if (s->n_slots > opts->ops)
        s->n_slots = opts->ops;
    if (s->n_slots > UINT32_MAX) {
        snprintf(err, (size_t)errlen, "at most %u reads in flight", UINT32_MAX);
        latency_destroy(s);
        return NULL;
    }
    s->n_jetties = opts->jetties > 0 ? opts->jetties : 1;
    s->jfs = calloc((size_t)s->n_jetties, sizeof(*s->jfs));
    setup_rows(s);
    /* with faults a read may end in an error while its packets are still
     * on their way: every read gets an id of its own (its number) */
    int64_t n_ids = s->lossy ? opts->ops : s->n_slots;
    if (s->lossy && opts->ops > UINT32_MAX) {
        snprintf(err, (size_t)errlen, "at most %u reads with --fault or a switch", UINT32_MAX);
        latency_destroy(s);
        return NULL;
    }
    for (int i = 0; i < res->n_rows; i++)
        s->plain[i] = i != s->send_row && i != s->send_align_row && i != s->exec_row &&
                      !(opts->wave && s->n_slots == 1) && !s->lossy;
    /* (without reordering or resends a packet is never overtaken, and the
     * rows are made as the records come) */
    int reorders = opts->fault && (opts->fault->dir[0].reorder > 0 || opts->fault->dir[1].reorder > 0);
    if (s->lossy && (opts->transport || reorders)) {
        s->held = calloc((size_t)n_ids, sizeof *s->held);
        if (!s->held) {
            snprintf(err, (size_t)errlen, "out of memory for %lld reads", (long long)n_ids);
            latency_destroy(s);
            return NULL;
        }
    }
    if (!opts->no_percentiles || s->held)
        s->t_post = malloc((size_t)n_ids * sizeof(tick_t));
    s->t_last = malloc((size_t)n_ids * sizeof(tick_t));
    if (((!opts->no_percentiles || s->held) && !s->t_post) || !s->t_last || !s->jfs) {
        snprintf(err, (size_t)errlen, "out of memory for %lld reads in flight", (long long)n_ids);
        latency_destroy(s);
        return NULL;
    }
    /* the memories: the target's segment (reads cycle through at least
     * 1 MiB of it), the initiator's ring of buffers (a read's bytes are
     * checked the moment they land) */
    s->stride = ((uint64_t)s->payload + 63) / 64 * 64;
    s->seg_len = s->stride * 64 > (1u << 20) ? s->stride * 64 : (1u << 20);
    s->seg_base = 0x10000;
    s->n_buf = s->n_slots < 256 ? (uint64_t)s->n_slots : 256;
    s->buf_base = 0x10000;
    verbs_net_opts_t vo = {
        .max_outstanding = s->n_slots,
        .timeout_ps = opts->timeout_ps,
        .post_point = POINT_POST,
        .done_point = POINT_DONE,
        .engine = opts->engine,
        .mem_bytes = {s->buf_base + s->n_buf * s->stride, s->seg_base + s->seg_len},
        .net = {
            .in_time_order = opts->wave != NULL || opts->in_time_order,
            .payload = s->payload,
            .jetties = opts->jetties,
            .seed = opts->seed,
            .backend = opts->backend,
            .tx_class = opts->tx_class,
            .rtl_wave = opts->rtl_wave,
            .c_wave = opts->c_wave,
            .block_scope = opts->block_scope,
            .fault = opts->fault,
            .report = opts->report,
            .sim_tag = opts->sim_tag,
            .transport = opts->transport,
        },
    };
    for (int i = 0; i < path->n_stages; i++) {
        vo.net.tp_tx_point[i] = s->tp_tx_row[i];
        vo.net.tp_rx_point[i] = s->tp_rx_row[i];
        vo.net.align_point[i] = s->align_row[i];
        vo.net.end_point[i] = s->row_of_stage[i];
        vo.net.queue_point[i] = s->queue_row[i] >= 0 ? s->queue_row[i] : CHAN_NO_PROBE;
    }
    urma_workload_t wl = {.name = "reads", .start = start, .arg = s};
    if (verbs_net_build(&s->v, path, &vo, &wl, err, errlen)) {
        latency_destroy(s);
        return NULL;
    }
    s->moves_data = s->v.net.target_emits;
    if (opts->wave)
        setup_wave(s); /* every signal is declared before any path runs */
    return s;
}

void latency_destroy(latency_sim_t *s)
{
    if (!s)
        return;
    verbs_net_free(&s->v);
    hist_free(&s->totals);
    if (s->held)
        for (int64_t i = 0; i < s->opts->ops; i++)
            free(s->held[i].r); /* (reads still on their way when the run stopped) */
    free(s->held);
    free(s->t_post);
    free(s->t_last);
    free(s->jfs);
    free(s);
}

static tick_t clamp_ticks(__int128 v) { return v > INT64_MAX ? INT64_MAX : (tick_t)v; }

int latency_simulate(latency_sim_t *s)
{
    const latency_opts_t *opts = s->opts;
    latency_result_t *res = s->res;
    if (opts->wave) {
        wave_time(opts->wave, opts->wave_offset_ps);
        for (int i = 0; i < s->v.net.n; i++)
            if (s->v.net.kind[i] == STAGE_NIC)
                nic_port_wave_now(&s->v.net.port[i], 0);
    }
    int rc = verbs_net_run(&s->v);
    for (int i = 0; i < res->n_rows; i++) {
        res->rows[i].sim_sum = clamp_ticks(s->sum_row[i]);
        res->rows[i].sim_sum_f = (double)s->sum_row[i];
        res->rows[i].n = s->held ? s->released : s->row_n[i];
        res->rows[i].reached = s->row_n[i];
    }
    res->sim_sum = clamp_ticks(s->sum_total);
    res->sim_sum_f = (double)s->sum_total;
    res->edges_stepped = verbs_net_instants(&s->v);
    /* (the caches settled first: a lookup still being decided counts) */
    res->ctx.on = path_net_ctx_counts(&s->v.net, &res->ctx.hits, &res->ctx.misses, &res->ctx.merged,
                                      &res->ctx.evictions, &res->ctx.held_cycles) > 0;
    res->lockstep_mismatches = path_net_mismatches(&s->v.net);
    verbs_net_counts(&s->v, &res->fx, res->sw, &res->n_switches);
    res->tp_on = path_net_tp_counts(&s->v.net, &res->tp);
    res->tp_gbn = opts->transport && opts->transport->gbn;
    if (rc) {
        snprintf(s->err, (size_t)s->errlen, "path '%s': %s", s->path->name, s->v.k.err);
        return -1;
    }
    res->fx.on = s->lossy;
    res->fx.timeout_ps = s->lossy ? (opts->timeout_ps > 0 ? opts->timeout_ps : LAT_TIMEOUT_PS) : 0;
    res->fx.completed = res->completed;
    res->fx.errors = res->errors;
    const urma_host_stats_t *hs = urma_host_stats(s->v.host);
    res->stale = hs->stale;
    res->host_refused = hs->flagged;
    res->fx.stale = res->stale;
    res->fx.unchecked = res->host_refused + (int64_t)path_net_flag_drops(&s->v.net);
    if (res->errors && s->v.k.now > res->end_time)
        res->end_time = s->v.k.now; /* the last read ended in an error */
    if (res->completed + res->errors != opts->ops) {
        snprintf(s->err, (size_t)s->errlen,
                 "path '%s': only %lld of %lld reads completed (posted %lld, sent %lld, "
                 "executed %lld): requests were lost",
                 s->path->name, (long long)res->completed, (long long)opts->ops,
                 (long long)res->posted, (long long)res->sent, (long long)res->executed);
        res->ops = res->completed;
        return -2;
    }
    res->ops = opts->ops;
    res->edges_spanned = (uint64_t)((res->end_time + res->tb.cycle - 1) / res->tb.cycle);
    if (s->t_post && res->completed > 0) {
        res->min = s->totals.min;
        res->max = s->totals.max;
        res->p50 = hist_percentile(&s->totals, 50);
        res->p99 = hist_percentile(&s->totals, 99);
    }
    return 0;
}

int latency_run(const path_cfg_t *path, const latency_opts_t *opts, latency_result_t *res,
                char *err, int errlen)
{
    latency_sim_t *s = latency_create(path, opts, res, err, errlen);
    if (!s)
        return -1;
    int rc = latency_simulate(s);
    latency_destroy(s);
    return rc;
}

void latency_result_free(latency_result_t *res) { (void)res; }

/* With faults a read may not reach every row: a row's mean is over the
 * reads that reached it, and the total the sum of the rows' means. */
double lat_row_sim_ns(const latency_result_t *r, int row)
{
    double n = (double)(r->ops ? r->ops : 1);
    if (r->fx.on)
        n = (double)(r->rows[row].n ? r->rows[row].n : 1);
    return r->rows[row].sim_sum_f / ((double)r->tb.per_ps * 1000.0) / n;
}

double lat_sim_total_ns(const latency_result_t *r)
{
    if (r->fx.on) {
        double t = 0;
        for (int i = 0; i < r->n_rows; i++)
            t += lat_row_sim_ns(r, i);
        return t;
    }
    return r->sim_sum_f / ((double)r->tb.per_ps * 1000.0) / (double)(r->ops ? r->ops : 1);
}
