#include "latency.h"

#include "mem.h"
#include "payload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "path_net.h"
#include "path_topo.h"
#include "topo_file.h"

enum { POINT_POST = -1, POINT_DONE = -2 };

/* The host: posts reads into the path and takes their completions. */
typedef struct {
    comp_t c;
    struct latency_sim *s;
    chan_t *out, *in;
    int started;
} host_t;

struct latency_sim {
    const path_cfg_t *path;
    const latency_opts_t *opts;
    latency_result_t *res;
    kernel_t k;
    path_net_t net;
    host_t host;
    int64_t n_slots;
    uint32_t *free_ids;
    int64_t n_free;
    uint64_t *op_of;         /* without faults: the read each slot holds */
    /* the bytes reads return: the target's memory, the payloads in flight */
    node_mem_t target_mem;
    uint64_t seg_base, seg_len, stride;
    uint32_t read_len;
    payload_pool_t pool;
    /* with faults: every read its own id (its number), its state, when it
     * was posted; the oldest unresolved one times out first */
    uint8_t *state;          /* READ_OUT, READ_DONE, READ_TIMED_OUT; NULL without faults */
    tick_t *posted_at;
    int64_t in_flight, oldest;
    tick_t timeout;
    int64_t payload;
    int lossy;               /* reads may be lost (faults, or a switch that
                                drops): each has an id and a deadline */
    uint16_t from_node, to_node; /* the initiator and the target */
    /* the report, built from probe records */
    tick_t *t_post, *t_last; /* per request id */
    __int128 sum_total, sum_row[LAT_MAX_ROWS]; /* cannot overflow */
    hist_t totals;
    int row_of_stage[CFG_MAX_STAGES];  /* the configured row */
    int align_row[CFG_MAX_STAGES];     /* the derived row before it, or -1 */
    int queue_row[CFG_MAX_STAGES];     /* a switch's queueing row after it, or -1 */
    int stage_of_row[LAT_MAX_ROWS];
    int send_row, send_align_row, exec_row;
    uint8_t plain[LAT_MAX_ROWS];       /* a row's probe only adds to the sums */
    int64_t row_n[LAT_MAX_ROWS];       /* probes of each row (kept with faults) */
    tick_t delay_ticks[CFG_MAX_STAGES], ser_ticks[CFG_MAX_STAGES];
    char *err;
    int errlen;
    wave_sig_t w_stage_name, w_op;
};
typedef struct latency_sim sim_t;

enum { READ_OUT = 0, READ_DONE = 1, READ_TIMED_OUT = 2 };

/* ---- the host -------------------------------------------------------------- */

/* ---- the bytes a read returns ------------------------------------------------ */

/* Where read `op` reads in the target's segment. */
static uint64_t read_addr(const sim_t *s, uint64_t op)
{
    return s->seg_base + (op % (s->seg_len / s->stride)) * s->stride;
}

/* The target's response leaves: it carries the bytes at its read's address. */
static void target_emit(void *ctx, msg_t *m)
{
    sim_t *s = ctx;
    if (m->data)
        return; /* (never: a response is made once) */
    m->dst = s->from_node; /* the response goes back to the initiator */
    m->data = payload_new(&s->pool, s->target_mem.bytes + read_addr(s, m->op), s->read_len);
    if (!m->data)
        kernel_fail(&s->k, "out of memory for the bytes of read %llu", (unsigned long long)m->op);
}

/* The initiator checks that a completed read brought back the bytes stored
 * at the target; returns 0, or -1 after failing the run. */
static int check_bytes(sim_t *s, const msg_t *m)
{
    if (!s->net.target_emits)
        return 0; /* a path with no target NIC to answer: no bytes to move */
    uint64_t at = read_addr(s, m->op);
    const char *why = NULL;
    if (!m->data)
        why = "brought no bytes back";
    else if (payload_len(&s->pool, m->data) != s->read_len)
        why = "brought back the wrong number of bytes";
    else if (memcmp(payload_bytes(&s->pool, m->data), s->target_mem.bytes + at, s->read_len))
        why = "brought back bytes other than those stored at the target";
    payload_release(&s->pool, m->data);
    if (!why) {
        s->res->bytes_checked++;
        return 0;
    }
    kernel_fail(&s->k, "read %llu of %u B at 0x%llx %s: a wrong result would have been reported "
                       "as good",
                (unsigned long long)m->op, s->read_len, (unsigned long long)at, why);
    return -1;
}

/* The target's memory: one segment, filled with bytes that differ from
 * address to address, that reads cycle through. */
static int setup_memory(sim_t *s, char *err, int errlen)
{
    s->read_len = (uint32_t)s->payload;
    s->stride = ((uint64_t)s->read_len + 63) / 64 * 64;
    s->seg_len = s->stride * 64 > (1u << 20) ? s->stride * 64 : (1u << 20);
    s->seg_base = 0x10000;
    if (node_mem_init(&s->target_mem, s->seg_base + s->seg_len)) {
        snprintf(err, (size_t)errlen, "out of memory for the target's %llu B segment",
                 (unsigned long long)s->seg_len);
        return -1;
    }
    char e[160];
    if (node_mem_register(&s->target_mem, s->seg_base, s->seg_len, 0x5eed, SEG_READ, e, sizeof e) < 0) {
        snprintf(err, (size_t)errlen, "%s", e);
        return -1;
    }
    uint64_t x = 0x2545f4914f6cdd1dull;
    for (uint64_t i = 0; i < s->seg_len; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(s->target_mem.bytes + s->seg_base + i, &x, 8);
    }
    payload_init(&s->pool);
    s->k.payloads = &s->pool;
    return 0;
}

/* A read may be posted: a slot is free and reads are left. */
static int may_post(const sim_t *s)
{
    if (s->res->posted >= s->opts->ops)
        return 0;
    return s->state ? s->in_flight < s->n_slots : s->n_free > 0;
}

static void post(sim_t *s, tick_t t)
{
    uint32_t id;
    if (s->state) {
        id = (uint32_t)s->res->posted;
        s->state[id] = READ_OUT;
        s->posted_at[id] = t;
        s->in_flight++;
    } else {
        id = s->free_ids[--s->n_free];
        s->op_of[id] = (uint64_t)s->res->posted;
    }
    msg_t m = {
        .t = t,
        .op = (uint64_t)s->res->posted,
        .id = id,
        .len = (uint32_t)s->payload,
        .kind = MSG_REQUEST,
        .dst = s->to_node,
    };
    kernel_probe(&s->k, POINT_POST, id, t);
    if (chan_push(s->host.out, &m, t))
        kernel_fail(&s->k, "internal: no room for a new request");
}

static tick_t host_commit(comp_t *c, tick_t now)
{
    host_t *h = (host_t *)c;
    sim_t *s = h->s;
    latency_result_t *r = s->res;
    if (!h->started) {
        h->started = 1;
        while (may_post(s))
            post(s, now);
    }
    while (chan_peek(h->in, now)) {
        msg_t m = chan_pop(h->in, now);
        if (m.flags & (MSG_CORRUPT | MSG_COPY)) {
            /* a path with no receive pipeline to check it: the host does */
            r->host_refused++;
            payload_release(&s->pool, m.data);
            continue;
        }
        /* the initiator checks that a completion is its read's */
        if (m.op != (s->state ? (uint64_t)m.id : s->op_of[m.id])) {
            kernel_fail(&s->k,
                        "a completion for read %llu came back in the slot of read %llu: a wrong "
                        "result would have been reported as good",
                        (unsigned long long)m.op,
                        (unsigned long long)(s->state ? (uint64_t)m.id : s->op_of[m.id]));
            return TICK_NEVER;
        }
        if (s->state) {
            if ((int64_t)m.id >= r->posted || s->state[m.id] != READ_OUT) {
                r->stale++; /* after its timeout: it already ended in an error */
                payload_release(&s->pool, m.data);
                continue;
            }
            s->state[m.id] = READ_DONE;
            s->in_flight--;
        } else {
            s->free_ids[s->n_free++] = m.id;
        }
        if (check_bytes(s, &m))
            return TICK_NEVER;
        kernel_probe(&s->k, POINT_DONE, m.id, now);
        if (may_post(s))
            post(s, now);
    }
    if (!s->state)
        return chan_next_time(h->in, now);
    /* reads with no completion within the timeout end in an error */
    /* a completion at the very deadline still counts (whatever order the
     * parts of that instant run in): a read fails after its deadline */
    while (s->oldest < r->posted &&
           (s->state[s->oldest] != READ_OUT || s->posted_at[s->oldest] + s->timeout < now)) {
        if (s->state[s->oldest] == READ_OUT) {
            s->state[s->oldest] = READ_TIMED_OUT;
            s->in_flight--;
            r->errors++;
            if (r->completed + r->errors == s->opts->ops)
                kernel_stop(&s->k);
        }
        s->oldest++;
    }
    while (may_post(s))
        post(s, now);
    tick_t next = chan_next_time(h->in, now);
    if (s->oldest < r->posted && s->posted_at[s->oldest] + s->timeout + 1 < next)
        next = s->posted_at[s->oldest] + s->timeout + 1;
    return next;
}

static const comp_ops_t host_ops = {.commit = host_commit};

/* ---- the report: probe records in, rows out --------------------------------- */

static void wave_stage(sim_t *s, int stage, tick_t t)
{
    wave_t *w = s->opts->wave;
    wave_time(w, s->opts->wave_offset_ps + (uint64_t)(t / s->k.tb.per_ps));
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

/* Posts, completions, and the rows that count departures and executions. */
static __attribute__((noinline)) void on_other_probe(sim_t *s, int point, uint32_t id, tick_t t)
{
    latency_result_t *r = s->res;
    int waves = s->opts->wave && s->n_slots == 1;
    /* what is left of a read that has ended (or will end: a part running
     * ahead records probes before their time) in an error */
    if (s->state && (s->state[id] == READ_TIMED_OUT ||
                     (s->state[id] == READ_OUT && t > s->posted_at[id] + s->timeout)))
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
    if (point == POINT_DONE) {
        if (s->t_post && hist_add(&s->totals, t - s->t_post[id]))
            kernel_fail(&s->k, "out of memory");
        r->end_time = t;
        r->completed++;
        if (s->opts->progress && (r->completed & 0xffff) == 0)
            s->opts->progress(s->opts->progress_ctx, s->path->name, r->completed, s->opts->ops);
        if (r->completed + r->errors == s->opts->ops)
            kernel_stop(&s->k);
        return;
    }
    lat_row_t *row = &r->rows[point];
    s->sum_row[point] += t - s->t_last[id];
    s->row_n[point]++;
    s->sum_total += t - s->t_last[id];
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

static void setup_rows(sim_t *s)
{
    const path_cfg_t *p = s->path;
    latency_result_t *r = s->res;
    int send_stage = -1, exec_stage = -1;
    for (int i = 0; i < p->n_stages; i++) {
        const stage_cfg_t *st = &p->stages[i];
        s->align_row[i] = s->queue_row[i] = -1;
        if (st->kind == STAGE_NIC) {
            if (send_stage < 0 && st->node == NODE_INITIATOR && st->pipe == PIPE_TX)
                send_stage = i;
            if (exec_stage < 0 && st->node == NODE_TARGET && st->pipe == PIPE_RX)
                exec_stage = i;
        }
        if (st->kind == STAGE_NIC || st->kind == STAGE_WIRE || st->kind == STAGE_SWITCH) {
            lat_row_t *d = &r->rows[r->n_rows];
            s->stage_of_row[r->n_rows] = i;
            s->align_row[i] = r->n_rows++;
            d->derived = 1;
            d->stage = i;
            if (st->kind == STAGE_NIC) {
                d->category = CAT_ALIGNMENT;
                snprintf(d->name, sizeof(d->name), "align.%s", st->name);
                snprintf(d->label, sizeof(d->label), "clock alignment: wait for %s %s edge",
                         st->node == NODE_INITIATOR ? "initiator" : "target",
                         st->pipe == PIPE_TX ? "NIC tx" : "NIC rx");
            } else if (st->kind == STAGE_SWITCH) {
                d->category = CAT_ALIGNMENT;
                snprintf(d->name, sizeof(d->name), "align.%s", st->name);
                snprintf(d->label, sizeof(d->label), "clock alignment: wait for switch %s edge",
                         p->topo->t.sw[st->sw].name);
            } else {
                d->category = CAT_SERIALISATION;
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
            s->delay_ticks[i] = tb_from_ps(&s->k.tb, st->delay_ps);
            row->calc = s->delay_ticks[i];
            break;
        case STAGE_SWITCH: {
            const topo_switch_t *ts = &p->topo->t.sw[st->sw];
            row->calc = (tick_t)ts->fwd_cycles * tb_period(&s->k.tb, ts->clock_mhz);
            lat_row_t *q = &r->rows[r->n_rows];
            s->stage_of_row[r->n_rows] = i;
            s->queue_row[i] = r->n_rows++;
            q->derived = 1;
            q->stage = i;
            q->category = CAT_QUEUEING;
            snprintf(q->name, sizeof(q->name), "queue.%s", st->name);
            snprintf(q->label, sizeof(q->label), "switch %s: output register and queue of port %d",
                     ts->name, st->sw_out);
            break;
        }
        case STAGE_WIRE: {
            row->calc = tb_from_ps(&s->k.tb, stage_one_way_ps(p, st));
            int64_t bytes = st->bytes;
            if (s->payload >= 0 && st->payload_bytes > 0) /* this packet carries the data */
                bytes += s->payload - st->payload_bytes;
            double gbps = stage_gbytes_per_s(p, st);
            snprintf(r->rows[s->align_row[i]].label, sizeof(r->rows[0].label),
                     "wire serialisation, %lld B at %g GB/s", (long long)bytes, gbps);
            /* bytes / (GB/s) = ns; ticks = ns * 1000 * ticks per ps, rounded up */
            double t = (double)bytes / gbps * 1000.0 * (double)s->k.tb.per_ps;
            tick_t ti = (tick_t)t;
            if ((double)ti < t)
                ti++;
            s->ser_ticks[i] = ti;
            break;
        }
        case STAGE_NIC: {
            const nic_pipe_cfg_t *pc = st->pipe == PIPE_TX ? &p->tx : &p->rx;
            int cycles = nic_pipe_depth(pc);
            if (st->pipe == PIPE_TX)
                cycles += nic_block_latency(p->tx_block);
            row->calc = (tick_t)cycles * s->k.tb.cycle;
            break;
        }
        default:
            break;
        }
        r->calc_total += row->calc;
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
    path_net_wave(&s->net, w, s->opts->wave_offset_ps, s->opts->block_scope);
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
    kernel_init(&s->k);
    hist_init(&s->totals);
    /* the time base holds the NIC's clock and every switch's on the path */
    int64_t sw_mhz[CFG_MAX_STAGES];
    int n_sw = 0;
    for (int i = 0; i < path->n_stages; i++)
        if (path->stages[i].kind == STAGE_SWITCH && path->topo)
            sw_mhz[n_sw++] = path->topo->t.sw[path->stages[i].sw].clock_mhz;
    if (tb_init(&s->k.tb, path->nic_mhz, sw_mhz, n_sw)) {
        snprintf(err, (size_t)errlen, "path '%s': bad NIC clock %lld MHz", path->name,
                 (long long)path->nic_mhz);
        free(s);
        return NULL;
    }
    res->tb = s->k.tb;
    s->k.step_all = opts->step_every_cycle;
    s->k.probe = on_probe;
    s->k.probe_ctx = s;
    /* a read moves the payload asked for, or what the path's configured
     * response carries (64 B if it names none) */
    s->payload = 64;
    for (int i = path->n_stages - 1; i >= 0; i--)
        if (path->stages[i].kind == STAGE_WIRE && path->stages[i].payload_bytes > 0)
            s->payload = path->stages[i].payload_bytes;
    if (opts->payload > 0)
        s->payload = opts->payload;
    s->lossy = opts->fault != NULL || path_has_switch(path);
    s->from_node = (uint16_t)(path->topo ? path->from_node : 0);
    s->to_node = (uint16_t)(path->topo ? path->to_node : 1);
    s->n_slots = opts->slots > 0 ? opts->slots : 1;
    if (s->n_slots > opts->ops)
        s->n_slots = opts->ops;
    if (s->n_slots > UINT32_MAX) {
        snprintf(err, (size_t)errlen, "at most %u reads in flight", UINT32_MAX);
        free(s);
        return NULL;
    }
    setup_rows(s);
    if (setup_memory(s, err, errlen)) {
        latency_destroy(s);
        return NULL;
    }
    /* with faults a read may end in an error while its packets are still
     * on their way: every read gets an id of its own (its number) */
    int64_t n_ids = s->lossy ? opts->ops : s->n_slots;
    if (s->lossy && opts->ops > UINT32_MAX) {
        snprintf(err, (size_t)errlen, "at most %u reads with --fault or a switch", UINT32_MAX);
        free(s);
        return NULL;
    }
    for (int i = 0; i < res->n_rows; i++)
        s->plain[i] = i != s->send_row && i != s->send_align_row && i != s->exec_row &&
                      !(opts->wave && s->n_slots == 1) && !s->lossy;
    s->free_ids = malloc((size_t)s->n_slots * sizeof(uint32_t));
    s->op_of = malloc((size_t)s->n_slots * sizeof(uint64_t));
    if (!opts->no_percentiles)
        s->t_post = malloc((size_t)n_ids * sizeof(tick_t));
    s->t_last = malloc((size_t)n_ids * sizeof(tick_t));
    if (s->lossy) {
        s->state = malloc((size_t)n_ids);
        s->posted_at = malloc((size_t)n_ids * sizeof(tick_t));
        s->timeout = tb_from_ps(&s->k.tb, opts->timeout_ps > 0 ? opts->timeout_ps : LAT_TIMEOUT_PS);
    }
    if (!s->free_ids || !s->op_of || (!opts->no_percentiles && !s->t_post) || !s->t_last ||
        (s->lossy && (!s->state || !s->posted_at))) {
        snprintf(err, (size_t)errlen, "out of memory for %lld reads in flight", (long long)n_ids);
        latency_destroy(s);
        return NULL;
    }
    for (int64_t k = 0; k < s->n_slots; k++)
        s->free_ids[s->n_slots - 1 - k] = (uint32_t)k; /* id 0 first */
    s->n_free = s->n_slots;

    path_net_opts_t no = {
        .max_inside = s->n_slots,
        .in_time_order = opts->wave != NULL || opts->in_time_order,
        .payload = s->payload,
        .jetties = opts->jetties,
        .seed = opts->seed,
        .backend = opts->backend,
        .tx_class = opts->tx_class,
        .rtl_wave = opts->rtl_wave,
        .block_scope = opts->block_scope,
        .fault = opts->fault,
        .lossy = s->lossy,
        .target_emit = target_emit,
        .target_emit_ctx = s,
    };
    for (int i = 0; i < path->n_stages; i++) {
        no.align_point[i] = s->align_row[i];
        no.end_point[i] = s->row_of_stage[i];
        no.queue_point[i] = s->queue_row[i] >= 0 ? s->queue_row[i] : CHAN_NO_PROBE;
        no.delay_ticks[i] = s->delay_ticks[i];
        no.ser_ticks[i] = s->ser_ticks[i];
    }
    if (path_net_build(&s->net, &s->k, path, &no, err, errlen)) {
        latency_destroy(s);
        return NULL;
    }
    host_t *h = &s->host;
    snprintf(h->c.name, sizeof(h->c.name), "%s.host", path->name);
    h->c.ops = &host_ops;
    h->s = s;
    h->out = &s->net.ch[0];
    h->in = &s->net.ch[s->net.n];
    h->out->src = &h->c;
    h->in->dst = &h->c;
    if (kernel_add(&s->k, &h->c, 0)) {
        snprintf(err, (size_t)errlen, "out of memory");
        latency_destroy(s);
        return NULL;
    }
    if (opts->wave)
        setup_wave(s); /* every signal is declared before any path runs */
    return s;
}

void latency_destroy(latency_sim_t *s)
{
    if (!s)
        return;
    path_net_free(&s->net);
    kernel_free(&s->k);
    hist_free(&s->totals);
    free(s->free_ids);
    free(s->op_of);
    free(s->t_post);
    free(s->t_last);
    free(s->state);
    free(s->posted_at);
    node_mem_free(&s->target_mem);
    payload_free_all(&s->pool);
    free(s);
}

static tick_t clamp_ticks(__int128 v) { return v > INT64_MAX ? INT64_MAX : (tick_t)v; }

int latency_simulate(latency_sim_t *s)
{
    const latency_opts_t *opts = s->opts;
    latency_result_t *res = s->res;
    if (opts->wave) {
        wave_time(opts->wave, opts->wave_offset_ps);
        for (int i = 0; i < s->net.n; i++)
            if (s->net.kind[i] == STAGE_NIC)
                nic_port_wave_now(&s->net.port[i], 0);
    }
    int rc = kernel_run(&s->k);
    for (int i = 0; i < res->n_rows; i++) {
        res->rows[i].sim_sum = clamp_ticks(s->sum_row[i]);
        res->rows[i].sim_sum_f = (double)s->sum_row[i];
        res->rows[i].n = s->row_n[i];
    }
    res->sim_sum = clamp_ticks(s->sum_total);
    res->sim_sum_f = (double)s->sum_total;
    res->edges_stepped = s->k.instants;
    res->lockstep_mismatches = path_net_mismatches(&s->net);
    for (int node = 0; node < 2; node++)
        res->fx.rx_checked[node] = path_net_rx_counts(&s->net, node == 0 ? NODE_INITIATOR : NODE_TARGET,
                                                   res->fx.rx_counts[node]);
    for (int dir = 0; dir < 2; dir++)
        res->fx.faulted[dir] = path_net_fault_counts(&s->net, dir, &res->fx.faults[dir]);
    for (int i = 0; s->path->topo && i < s->path->topo->t.n_switches; i++) {
        if (res->n_switches == LAT_MAX_SWITCHES)
            break;
        lat_switch_t *w = &res->sw[res->n_switches];
        if (!path_net_switch_counts(&s->net, i, &w->received, &w->forwarded, &w->dropped,
                                    &w->unroutable, &w->peak_queue_bytes))
            continue;
        snprintf(w->name, sizeof w->name, "%s", s->path->topo->t.sw[i].name);
        res->n_switches++;
    }
    if (rc) {
        snprintf(s->err, (size_t)s->errlen, "path '%s': %s", s->path->name, s->k.err);
        return -1;
    }
    res->fx.on = s->lossy;
    res->fx.timeout_ps = s->lossy ? (opts->timeout_ps > 0 ? opts->timeout_ps : LAT_TIMEOUT_PS) : 0;
    res->fx.completed = res->completed;
    res->fx.errors = res->errors;
    res->fx.stale = res->stale;
    res->fx.unchecked = res->host_refused + (int64_t)path_net_flag_drops(&s->net);
    if (res->errors && s->k.now > res->end_time)
        res->end_time = s->k.now; /* the last read ended in an error */
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
