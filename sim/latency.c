#include "latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventq.h"
#include "nic_pipe.h"

enum { EV_STAGE_DONE = 1 };

#define NPORTS 4 /* node * 2 + pipe */
#define QCAP 8

/* One NIC pipeline and the requests waiting at its input. */
typedef struct {
    nic_pipe_t pipe;
    nic_pipe_out_t out;          /* wires during the current cycle */
    uint32_t q_tag[QCAP];
    tick_t q_arrival[QCAP];
    int q_head, q_n;
    /* waveform handles */
    wave_sig_t w_in_valid, w_in_ready, w_in_tag, w_out_valid, w_out_tag, w_slots;
    wave_sig_t w_stage[NIC_PIPE_MAX_STAGES];
    uint64_t stage_mask[NIC_PIPE_MAX_STAGES];
} port_t;

struct latency_sim {
    const path_cfg_t *path;
    const latency_opts_t *opts;
    latency_result_t *res;
    timebase_t tb;
    eventq_t q;
    port_t port[NPORTS];
    tick_t link_free[2];
    tick_t ser_ticks[CFG_MAX_STAGES]; /* per wire stage */
    tick_t delay_ticks[CFG_MAX_STAGES];
    int row_of_stage[CFG_MAX_STAGES];   /* the configured row */
    int align_row[CFG_MAX_STAGES];      /* derived row before it, or -1 */
    /* the op in flight */
    int64_t op;        /* index of the op in flight */
    int stage;         /* its current stage */
    tick_t op_start, stage_start, nic_start;
    tick_t meas[LAT_MAX_ROWS];
    tick_t *totals;
    int64_t done;
    int failed;
    char *err;
    int errlen;
    wave_sig_t w_stage_name, w_op;
};
typedef struct latency_sim sim_t;

static uint64_t wave_ps(const sim_t *s, tick_t t)
{
    return s->opts->wave_offset_ps + (uint64_t)(t / s->tb.mhz);
}

static int port_index(int node, int pipe) { return node * 2 + pipe; }

static void start_stage(sim_t *s, int i, tick_t t);
static void wave_port(sim_t *s, port_t *pt);

static void finish_op(sim_t *s, tick_t t)
{
    latency_result_t *r = s->res;
    tick_t total = t - s->op_start;
    tick_t sum = 0;
    for (int k = 0; k < r->n_rows; k++) {
        r->rows[k].sim_sum += s->meas[k];
        sum += s->meas[k];
    }
    if (sum != total && !s->failed) {
        /* every tick of an op belongs to exactly one row */
        snprintf(s->err, (size_t)s->errlen, "internal: op %lld rows add to %lld ticks, total %lld",
                 (long long)s->op, (long long)sum, (long long)total);
        s->failed = 1;
    }
    s->totals[s->op] = total;
    r->sim_sum += total;
    r->end_time = t;
    s->done++;
    if (s->opts->progress && (s->done & 0xffff) == 0)
        s->opts->progress(s->opts->progress_ctx, s->path->name, s->done, s->opts->ops);
    if (s->done < s->opts->ops) {
        s->op++;
        s->op_start = t;
        memset(s->meas, 0, sizeof(s->meas));
        start_stage(s, 0, t);
    }
}

static void start_stage(sim_t *s, int i, tick_t t)
{
    const path_cfg_t *p = s->path;
    s->stage = i;
    s->stage_start = t;
    if (i == p->n_stages) {
        if (s->opts->wave) {
            wave_time(s->opts->wave, wave_ps(s, t));
            wave_set_str(s->opts->wave, s->w_stage_name, "idle");
        }
        finish_op(s, t);
        return;
    }
    const stage_cfg_t *st = &p->stages[i];
    if (s->opts->wave) {
        wave_time(s->opts->wave, wave_ps(s, t));
        wave_set_str(s->opts->wave, s->w_stage_name, st->name);
        wave_set(s->opts->wave, s->w_op, (uint64_t)s->op);
    }
    switch (st->kind) {
    case STAGE_DELAY:
        eventq_push(&s->q, t + s->delay_ticks[i], EV_STAGE_DONE, (uint32_t)i);
        break;
    case STAGE_WIRE: {
        tick_t begin = t > s->link_free[st->wire_dir] ? t : s->link_free[st->wire_dir];
        tick_t end = begin + s->ser_ticks[i];
        s->link_free[st->wire_dir] = end;
        s->meas[s->align_row[i]] = end - t; /* serialisation (and any queueing) */
        s->stage_start = end;
        eventq_push(&s->q, end + tb_from_ps(&s->tb, p->wire_one_way_ps), EV_STAGE_DONE,
                    (uint32_t)i);
        break;
    }
    case STAGE_NIC: {
        port_t *pt = &s->port[port_index(st->node, st->pipe)];
        if (pt->q_n == QCAP) {
            snprintf(s->err, (size_t)s->errlen, "internal: NIC input queue overflow");
            s->failed = 1;
            return;
        }
        int j = (pt->q_head + pt->q_n++) % QCAP;
        pt->q_tag[j] = (uint32_t)i;
        pt->q_arrival[j] = t;
        if (s->opts->wave) /* the request waits at the input from now on */
            wave_port(s, pt);
        break;
    }
    default:
        break;
    }
}

static void stage_done(sim_t *s, int i, tick_t t)
{
    s->meas[s->row_of_stage[i]] = t - s->stage_start;
    start_stage(s, i + 1, t);
}

static int port_busy(const port_t *pt) { return pt->q_n > 0 || !nic_pipe_empty(&pt->pipe); }

/* Records a port's wires for the cycle that starts at the current wave time:
 * its outputs, and the request waiting at its input (if any). */
static void wave_port(sim_t *s, port_t *pt)
{
    wave_t *w = s->opts->wave;
    wave_set(w, pt->w_in_valid, pt->q_n > 0);
    if (pt->q_n)
        wave_set(w, pt->w_in_tag, pt->q_tag[pt->q_head]);
    wave_set(w, pt->w_in_ready, pt->out.in_ready);
    wave_set(w, pt->w_out_valid, pt->out.out_valid);
    wave_set(w, pt->w_out_tag, pt->out.out_tag);
    wave_set(w, pt->w_slots, pt->out.slot_valid);
    for (int k = 0; k < pt->pipe.cfg.n_stages; k++)
        wave_set(w, pt->w_stage[k], (pt->out.slot_valid & pt->stage_mask[k]) != 0);
}

/* One NIC clock edge at time te for every port. */
static void clock_edge(sim_t *s, tick_t te, int step_all)
{
    uint32_t leaving[NPORTS];
    int n_leaving = 0;
    int leaving_port[NPORTS];
    if (s->opts->wave)
        wave_time(s->opts->wave, wave_ps(s, te));
    for (int k = 0; k < NPORTS; k++) {
        port_t *pt = &s->port[k];
        if (!step_all && !port_busy(pt))
            continue; /* an idle pipeline with no input keeps its state */
        nic_pipe_in_t in = {0, 0, 1};
        if (pt->q_n && pt->q_arrival[pt->q_head] <= te) {
            in.in_valid = 1;
            in.in_tag = pt->q_tag[pt->q_head];
        }
        if (pt->out.out_valid) { /* consumer samples the output at this edge */
            leaving[n_leaving] = pt->out.out_tag;
            leaving_port[n_leaving++] = k;
        }
        int accepted = in.in_valid && pt->out.in_ready;
        nic_pipe_step(&pt->pipe, &in, &pt->out);
        if (accepted) {
            int stg = (int)in.in_tag;
            s->meas[s->align_row[stg]] = te - pt->q_arrival[pt->q_head];
            s->nic_start = te;
            pt->q_head = (pt->q_head + 1) % QCAP;
            pt->q_n--;
        }
        if (s->opts->wave)
            wave_port(s, pt);
    }
    for (int n = 0; n < n_leaving; n++) {
        int stg = (int)leaving[n];
        (void)leaving_port[n];
        s->stage_start = s->nic_start;
        stage_done(s, stg, te);
    }
}

static int setup(sim_t *s)
{
    const path_cfg_t *p = s->path;
    latency_result_t *r = s->res;
    memset(r, 0, sizeof(*r));
    r->tb = s->tb;
    for (int i = 0; i < p->n_stages; i++) {
        const stage_cfg_t *st = &p->stages[i];
        s->align_row[i] = -1;
        if (st->kind == STAGE_NIC || st->kind == STAGE_WIRE) {
            lat_row_t *d = &r->rows[r->n_rows];
            s->align_row[i] = r->n_rows++;
            d->derived = 1;
            d->stage = i;
            if (st->kind == STAGE_NIC) {
                d->category = CAT_ALIGNMENT;
                snprintf(d->name, sizeof(d->name), "align.%s", st->name);
                snprintf(d->label, sizeof(d->label), "clock alignment: wait for %s %s edge",
                         st->node == NODE_INITIATOR ? "initiator" : "target",
                         st->pipe == PIPE_TX ? "NIC tx" : "NIC rx");
            } else {
                d->category = CAT_SERIALISATION;
                snprintf(d->name, sizeof(d->name), "serialise.%s", st->name);
                snprintf(d->label, sizeof(d->label), "wire serialisation, %lld B at %g GB/s",
                         (long long)st->bytes, p->wire_gbytes_per_s);
            }
        }
        lat_row_t *row = &r->rows[r->n_rows];
        s->row_of_stage[i] = r->n_rows++;
        snprintf(row->name, sizeof(row->name), "%s", st->name);
        snprintf(row->label, sizeof(row->label), "%s", st->label[0] ? st->label : st->name);
        row->category = st->category;
        row->stage = i;
        switch (st->kind) {
        case STAGE_DELAY:
            s->delay_ticks[i] = tb_from_ps(&s->tb, st->delay_ps);
            row->calc = s->delay_ticks[i];
            break;
        case STAGE_WIRE: {
            row->calc = tb_from_ps(&s->tb, p->wire_one_way_ps);
            /* bytes / (GB/s) = ns; ticks = ns * 1000 * mhz, rounded up */
            double t = (double)st->bytes / p->wire_gbytes_per_s * 1000.0 * (double)s->tb.mhz;
            tick_t ti = (tick_t)t;
            if ((double)ti < t)
                ti++;
            s->ser_ticks[i] = ti;
            break;
        }
        case STAGE_NIC: {
            const nic_pipe_cfg_t *pc = st->pipe == PIPE_TX ? &p->tx : &p->rx;
            row->calc = (tick_t)nic_pipe_depth(pc) * TICKS_PER_CYCLE;
            break;
        }
        default:
            break;
        }
        r->calc_total += row->calc;
    }
    for (int node = 0; node < 2; node++)
        for (int pipe = 0; pipe < 2; pipe++) {
            port_t *pt = &s->port[port_index(node, pipe)];
            const nic_pipe_cfg_t *pc = pipe == PIPE_TX ? &p->tx : &p->rx;
            if ((pipe == PIPE_TX && !p->have_tx) || (pipe == PIPE_RX && !p->have_rx)) {
                nic_pipe_cfg_t one = {.n_stages = 1, .stage_cycles = {1}};
                pc = &one;
                nic_pipe_init(&pt->pipe, pc);
            } else {
                nic_pipe_init(&pt->pipe, pc);
            }
            nic_pipe_reset(&pt->pipe, &pt->out);
        }
    return 0;
}

static void setup_wave(sim_t *s)
{
    wave_t *w = s->opts->wave;
    char name[256];
    const char *nodes[2] = {"nodeA", "nodeB"};
    const char *pipes[2] = {"nic_tx", "nic_rx"};
    snprintf(name, sizeof(name), "%s.op.stage", s->path->name);
    s->w_stage_name = wave_add_str(w, name);
    snprintf(name, sizeof(name), "%s.op.index", s->path->name);
    s->w_op = wave_add(w, name, 32);
    for (int node = 0; node < 2; node++)
        for (int pipe = 0; pipe < 2; pipe++) {
            port_t *pt = &s->port[port_index(node, pipe)];
            char sc[160];
            snprintf(sc, sizeof(sc), "%s.%s.%s", s->path->name, nodes[node], pipes[pipe]);
#define SIG(field, nm, width)                                   \
    snprintf(name, sizeof(name), "%s.%s", sc, nm);              \
    pt->field = wave_add(w, name, width)
            SIG(w_in_valid, "in_valid_i", 1);
            SIG(w_in_ready, "in_ready_o", 1);
            SIG(w_in_tag, "in_tag_i", 32);
            SIG(w_out_valid, "out_valid_o", 1);
            SIG(w_out_tag, "out_tag_o", 32);
            SIG(w_slots, "slot_valid", pt->pipe.depth > 0 ? pt->pipe.depth : 1);
#undef SIG
            int slot = 0;
            for (int k = 0; k < pt->pipe.cfg.n_stages; k++) {
                snprintf(name, sizeof(name), "%s.st%02d_%s_valid", sc, k, pt->pipe.cfg.stage_name[k]);
                pt->w_stage[k] = wave_add(w, name, 1);
                pt->stage_mask[k] = 0;
                for (int c = 0; c < pt->pipe.cfg.stage_cycles[k]; c++)
                    pt->stage_mask[k] |= 1ull << slot++;
            }
        }
}

static int cmp_tick(const void *a, const void *b)
{
    tick_t x = *(const tick_t *)a, y = *(const tick_t *)b;
    return (x > y) - (x < y);
}

static tick_t percentile(const tick_t *sorted, int64_t n, int pct)
{
    /* nearest rank */
    int64_t rank = (n * pct + 99) / 100;
    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
}

latency_sim_t *latency_create(const path_cfg_t *path, const latency_opts_t *opts,
                              latency_result_t *res, char *err, int errlen)
{
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
    s->tb.mhz = path->nic_mhz;
    eventq_init(&s->q);
    s->totals = malloc((size_t)opts->ops * sizeof(tick_t));
    if (!s->totals) {
        snprintf(err, (size_t)errlen, "out of memory for %lld ops", (long long)opts->ops);
        free(s);
        return NULL;
    }
    setup(s);
    if (opts->wave)
        setup_wave(s); /* every signal is declared before any path runs */
    return s;
}

void latency_destroy(latency_sim_t *s)
{
    if (!s)
        return;
    eventq_free(&s->q);
    free(s->totals);
    free(s);
}

int latency_simulate(latency_sim_t *s)
{
    const latency_opts_t *opts = s->opts;
    latency_result_t *res = s->res;
    if (opts->wave) {
        wave_time(opts->wave, wave_ps(s, 0));
        for (int p = 0; p < NPORTS; p++)
            wave_port(s, &s->port[p]);
    }
    start_stage(s, 0, 0);
    int64_t k = 0;
    for (;;) {
        tick_t te = tb_edge_time(k);
        while (!eventq_empty(&s->q) && eventq_next_time(&s->q) <= te) {
            event_t e = eventq_pop(&s->q);
            stage_done(s, (int)e.arg, e.time);
        }
        if (s->failed)
            return -1;
        int busy = 0;
        for (int p = 0; p < NPORTS; p++)
            busy |= port_busy(&s->port[p]);
        if (!busy) {
            if (eventq_empty(&s->q))
                break;
            if (!opts->step_every_cycle) {
                int64_t next = tb_edge_at_or_after(eventq_next_time(&s->q));
                k = next > k ? next : k;
                continue;
            }
        }
        clock_edge(s, te, opts->step_every_cycle);
        res->edges_stepped++;
        k++;
    }
    if (s->done != opts->ops) {
        snprintf(s->err, (size_t)s->errlen, "path '%s': %lld of %lld ops completed",
                 s->path->name, (long long)s->done, (long long)opts->ops);
        return -1;
    }
    res->ops = opts->ops;
    res->edges_spanned = (uint64_t)tb_edge_at_or_after(res->end_time);
    qsort(s->totals, (size_t)opts->ops, sizeof(tick_t), cmp_tick);
    res->min = s->totals[0];
    res->max = s->totals[opts->ops - 1];
    res->p50 = percentile(s->totals, opts->ops, 50);
    res->p99 = percentile(s->totals, opts->ops, 99);
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

double lat_row_sim_ns(const latency_result_t *r, int row)
{
    return tb_to_ns(&r->tb, r->rows[row].sim_sum) / (double)(r->ops ? r->ops : 1);
}

double lat_sim_total_ns(const latency_result_t *r)
{
    return tb_to_ns(&r->tb, r->sim_sum) / (double)(r->ops ? r->ops : 1);
}
