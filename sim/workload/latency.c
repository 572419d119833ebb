#include "latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventq.h"
#include "nic_pipe.h"
#include "rc_send_pipeline.h"
#include "ub_send_pipeline.h"

enum { EV_STAGE_DONE = 1 };

#define NPORTS 4 /* node * 2 + pipe */
#define STUCK_CYCLES 10000 /* idle-but-busy ports for this long: requests were lost */

/* One NIC pipeline: its configured stages, optionally followed by a
 * modelled block, and the requests waiting at its input. */
typedef struct {
    int node, pipe;
    nic_pipe_t pipe_m;
    nic_pipe_out_t pout;         /* stage wires during the current cycle */
    nic_block_t kind;
    block_inst_t *blk;
    union {
        ub_send_pipeline_in_t ub;
        rc_send_pipeline_in_t rc;
    } bin;
    union {
        ub_send_pipeline_out_t ub;
        rc_send_pipeline_out_t rc;
    } bout;                      /* block wires during the current cycle */
    int64_t inside;              /* requests waiting at, or inside, the port */
    int feeds_wire;              /* link direction its output feeds, or -1 */
    /* requests waiting at the input: op slot and arrival time */
    uint32_t *q_slot;
    tick_t *q_arrival;
    int64_t q_head, q_n, q_cap;
    /* waveform handles */
    wave_sig_t w_in_valid, w_in_ready, w_in_tag, w_out_valid, w_out_tag, w_slots;
    wave_sig_t w_stage[NIC_PIPE_MAX_STAGES];
    uint64_t stage_mask[NIC_PIPE_MAX_STAGES];
} port_t;

/* One read in flight. */
typedef struct {
    int64_t op;
    int stage;
    int at_port;  /* the NIC port holding this request, or -1 */
    tick_t op_start, stage_start, nic_start;
    tick_t *meas; /* n_rows */
} opslot_t;

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
    int send_stage, exec_stage;         /* stages counted as sent / executed */
    int64_t payload;
    int jetties;
    uint32_t idle_jetty; /* the Jetty input while no request is offered */
    int64_t n_slots;
    opslot_t *slots;
    tick_t *meas_mem;
    int64_t *free_slots, n_free;
    tick_t *totals;
    int64_t last_progress; /* edge index of the last request moving in or out of a port */
    int64_t inside;        /* requests waiting at, or inside, any port */
    int failed;
    char *err;
    int errlen;
    wave_sig_t w_stage_name, w_op;
};
typedef struct latency_sim sim_t;

static void start_stage(sim_t *s, int64_t slot, int i, tick_t t);
static void wave_port(sim_t *s, port_t *pt);

static uint64_t wave_ps(const sim_t *s, tick_t t)
{
    return s->opts->wave_offset_ps + (uint64_t)(t / s->tb.mhz);
}

static int port_index(int node, int pipe) { return node * 2 + pipe; }

static void fail(sim_t *s, const char *msg)
{
    if (!s->failed)
        snprintf(s->err, (size_t)s->errlen, "path '%s': %s", s->path->name, msg);
    s->failed = 1;
}

/* ---- ops ------------------------------------------------------------------ */

static void post_op(sim_t *s, tick_t t)
{
    int64_t k = s->free_slots[--s->n_free];
    opslot_t *o = &s->slots[k];
    o->op = s->res->posted++;
    o->op_start = t;
    o->at_port = -1;
    memset(o->meas, 0, (size_t)s->res->n_rows * sizeof(tick_t));
    start_stage(s, k, 0, t);
}

static void finish_op(sim_t *s, int64_t k, tick_t t)
{
    latency_result_t *r = s->res;
    opslot_t *o = &s->slots[k];
    tick_t total = t - o->op_start;
    tick_t sum = 0;
    for (int i = 0; i < r->n_rows; i++) {
        r->rows[i].sim_sum += o->meas[i];
        sum += o->meas[i];
    }
    if (sum != total) /* every tick of an op belongs to exactly one row */
        fail(s, "internal: an op's rows do not add up to its total");
    s->totals[o->op] = total;
    r->sim_sum += total;
    r->end_time = t;
    r->completed++;
    if (s->opts->progress && (r->completed & 0xffff) == 0)
        s->opts->progress(s->opts->progress_ctx, s->path->name, r->completed, s->opts->ops);
    s->free_slots[s->n_free++] = k;
    if (r->posted < s->opts->ops)
        post_op(s, t);
}

static void enqueue(sim_t *s, port_t *pt, int64_t k, tick_t t)
{
    if (pt->q_n == pt->q_cap) {
        fail(s, "internal: NIC input queue overflow");
        return;
    }
    int64_t j = (pt->q_head + pt->q_n++) % pt->q_cap;
    pt->inside++;
    s->inside++;
    pt->q_slot[j] = (uint32_t)k;
    pt->q_arrival[j] = t;
    if (s->opts->wave) /* the request waits at the input from now on */
        wave_port(s, pt);
}

static void start_stage(sim_t *s, int64_t k, int i, tick_t t)
{
    const path_cfg_t *p = s->path;
    opslot_t *o = &s->slots[k];
    o->stage = i;
    o->stage_start = t;
    if (s->opts->wave && s->n_slots == 1) {
        wave_time(s->opts->wave, wave_ps(s, t));
        wave_set_str(s->opts->wave, s->w_stage_name, i == p->n_stages ? "idle" : p->stages[i].name);
        wave_set(s->opts->wave, s->w_op, (uint64_t)o->op);
    }
    if (i == p->n_stages) {
        finish_op(s, k, t);
        return;
    }
    const stage_cfg_t *st = &p->stages[i];
    switch (st->kind) {
    case STAGE_DELAY:
        eventq_push(&s->q, t + s->delay_ticks[i], EV_STAGE_DONE, (uint32_t)k);
        break;
    case STAGE_WIRE: {
        tick_t begin = t > s->link_free[st->wire_dir] ? t : s->link_free[st->wire_dir];
        tick_t end = begin + s->ser_ticks[i];
        s->link_free[st->wire_dir] = end;
        o->meas[s->align_row[i]] = end - t; /* serialisation (and any wait for the link) */
        o->stage_start = end;
        eventq_push(&s->q, end + tb_from_ps(&s->tb, p->wire_one_way_ps), EV_STAGE_DONE,
                    (uint32_t)k);
        break;
    }
    case STAGE_NIC:
        if (i == s->send_stage && s->res->first_at_nic < 0)
            s->res->first_at_nic = t;
        enqueue(s, &s->port[port_index(st->node, st->pipe)], k, t);
        break;
    default:
        break;
    }
}

static void stage_done(sim_t *s, int64_t k, tick_t t)
{
    opslot_t *o = &s->slots[k];
    o->meas[s->row_of_stage[o->stage]] = t - o->stage_start;
    start_stage(s, k, o->stage + 1, t);
}

/* ---- NIC ports ------------------------------------------------------------- */

/* A port with nothing waiting or inside keeps its state when stepped. */
static int port_busy(const port_t *pt) { return pt->inside > 0; }

/* The port's output as the consumer sees it this cycle. */
static int port_out_valid(const port_t *pt, uint32_t *tag)
{
    switch (pt->kind) {
    case NIC_BLOCK_UB_SEND:
        *tag = pt->bout.ub.pkt_tag;
        return pt->bout.ub.pkt_valid;
    case NIC_BLOCK_RC_SEND:
        *tag = pt->bout.rc.pkt_tag;
        return pt->bout.rc.pkt_valid;
    default:
        *tag = pt->pout.out_tag;
        return pt->pout.out_valid;
    }
}

static int block_in_ready(const port_t *pt)
{
    switch (pt->kind) {
    case NIC_BLOCK_UB_SEND: return pt->bout.ub.wr_ready;
    case NIC_BLOCK_RC_SEND: return pt->bout.rc.wr_ready;
    default: return 1;
    }
}

/* A well-mixed 64-bit hash (splitmix64's finaliser). */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The block's inputs that are the same for every request of the run. */
static void block_fixed_inputs(sim_t *s, port_t *pt)
{
    uint32_t len = (uint32_t)(s->payload >= 0 ? s->payload : 64);
    memset(&pt->bin, 0, sizeof(pt->bin));
    if (pt->kind == NIC_BLOCK_UB_SEND) {
        ub_send_pipeline_in_t *in = &pt->bin.ub;
        in->wr_opcode = pt->node == NODE_INITIATOR ? UB_TA_READ : UB_TA_READ_RESP;
        in->wr_mode = URMA_OT;
        in->wr_order = UB_ORDER_NO;
        in->wr_dst = pt->node == NODE_INITIATOR ? 1 : 0; /* the other node */
        in->wr_len = len;
        in->wr_token = 0x5eed;
        in->cfg_tpn_base = 0x100;
    } else {
        rc_send_pipeline_in_t *in = &pt->bin.rc;
        in->wr_qpn = 1; /* one connection */
        in->wr_opcode = pt->node == NODE_INITIATOR ? RC_OP_READ_REQUEST : 0x10 /* READ RESPONSE ONLY */;
        in->wr_len = len;
        in->wr_rkey = 0x5eed;
    }
}

/* The Jetty a request comes from. */
static uint32_t jetty_of(const sim_t *s, int64_t op)
{
    if (s->jetties == 1)
        return 0;
    return (uint32_t)(mix64((uint64_t)op ^ s->opts->seed) % (uint64_t)s->jetties);
}

/* Sets the block's per-request inputs from the op in the stage pipeline's
 * last slot (valid or not: an idle request has wr_valid = 0 and op 0). */
static void block_inputs(sim_t *s, port_t *pt, int wr_valid, uint32_t slot, int out_ready)
{
    int64_t op = wr_valid ? s->slots[slot].op : 0;
    uint32_t tag = wr_valid ? slot : 0;
    if (pt->kind == NIC_BLOCK_UB_SEND) {
        ub_send_pipeline_in_t *in = &pt->bin.ub;
        in->wr_valid = (uint8_t)wr_valid;
        in->wr_jetty = wr_valid ? jetty_of(s, op) : s->idle_jetty;
        in->wr_addr = (uint64_t)op * 64u;
        in->wr_tag = tag;
        in->pkt_ready = (uint8_t)out_ready;
    } else {
        rc_send_pipeline_in_t *in = &pt->bin.rc;
        in->wr_valid = (uint8_t)wr_valid;
        in->wr_addr = (uint64_t)op * 64u;
        in->wr_tag = tag;
        in->pkt_ready = (uint8_t)out_ready;
    }
}

/* Records a port's wires for the cycle that starts at the current wave time:
 * its outputs, and the request waiting at its input (if any). */
static void wave_port(sim_t *s, port_t *pt)
{
    wave_t *w = s->opts->wave;
    uint32_t tag;
    int valid = port_out_valid(pt, &tag);
    wave_set(w, pt->w_in_valid, pt->q_n > 0);
    if (pt->q_n)
        wave_set(w, pt->w_in_tag, pt->q_slot[pt->q_head]);
    wave_set(w, pt->w_in_ready, pt->pout.in_ready);
    wave_set(w, pt->w_out_valid, (uint64_t)valid);
    if (valid)
        wave_set(w, pt->w_out_tag, tag);
    uint64_t slots = nic_pipe_slot_mask(&pt->pipe_m);
    wave_set(w, pt->w_slots, slots);
    for (int k = 0; k < pt->pipe_m.cfg.n_stages; k++)
        wave_set(w, pt->w_stage[k], (slots & pt->stage_mask[k]) != 0);
}

/* Runs every event due by time t (in time order). */
static void drain_events(sim_t *s, tick_t t)
{
    while (!s->failed && !eventq_empty(&s->q) && eventq_next_time(&s->q) <= t) {
        event_t e = eventq_pop(&s->q);
        stage_done(s, (int64_t)e.arg, e.time);
    }
}

/* The consumer takes the request tagged `tag` from port k at edge te. */
static void take(sim_t *s, int k, uint32_t tag, tick_t te)
{
    if (tag >= (uint64_t)s->n_slots || s->slots[tag].at_port != k) {
        char msg[200];
        snprintf(msg, sizeof(msg),
                 "cycle %lld: the %s NIC's %s pipeline emitted tag %u, which is not a request in "
                 "flight there (a packet was duplicated or corrupted)",
                 (long long)(te / TICKS_PER_CYCLE), k / 2 == NODE_INITIATOR ? "initiator" : "target",
                 k % 2 == PIPE_TX ? "transmit" : "receive", tag);
        fail(s, msg);
        return;
    }
    opslot_t *o = &s->slots[tag];
    o->at_port = -1;
    s->port[k].inside--;
    s->inside--;
    s->last_progress = te / TICKS_PER_CYCLE;
    if (o->stage == s->send_stage) {
        if (s->res->sent_at)
            s->res->sent_at[s->res->sent] = te;
        s->res->sent++;
    }
    if (o->stage == s->exec_stage) {
        s->res->executed++;
        s->res->last_executed_at = te;
    }
    o->stage_start = o->nic_start;
    stage_done(s, tag, te);
}

/* One NIC clock edge at time te for every port. First the consumers take
 * what the ports offer, and whatever that hands on at this very instant
 * (zero-delay stages, a NIC feeding a NIC) reaches its next port before that
 * port samples its input; then every port steps. */
static void clock_edge(sim_t *s, tick_t te, int step_all)
{
    int out_ready[NPORTS], stepped[NPORTS];
    uint64_t now_ps = (uint64_t)(te / s->tb.mhz);
    if (s->opts->wave)
        wave_time(s->opts->wave, wave_ps(s, te));
    for (int k = 0; k < NPORTS; k++) {
        port_t *pt = &s->port[k];
        stepped[k] = step_all || port_busy(pt);
        /* the consumer (the MAC, or the next stage) is ready this cycle if
         * the link it feeds is free by this edge */
        out_ready[k] = pt->feeds_wire < 0 || s->link_free[pt->feeds_wire] <= te;
        uint32_t tag;
        if (stepped[k] && port_out_valid(pt, &tag) && out_ready[k])
            take(s, k, tag, te);
    }
    drain_events(s, te);
    for (int k = 0; k < NPORTS && !s->failed; k++) {
        port_t *pt = &s->port[k];
        if (!stepped[k] && !port_busy(pt))
            continue; /* an idle pipeline with no input keeps its state */
        nic_pipe_in_t in = {0, 0, 1};
        if (pt->q_n && pt->q_arrival[pt->q_head] <= te) {
            in.in_valid = 1;
            in.in_tag = pt->q_slot[pt->q_head];
        }
        int accepted = in.in_valid && pt->pout.in_ready;
        if (pt->blk) {
            /* stage pipeline -> block handshake, on last cycle's wires */
            in.out_ready = (uint8_t)block_in_ready(pt);
            block_inputs(s, pt, pt->pout.out_valid, pt->pout.out_tag, out_ready[k]);
            if (block_step(pt->blk, &pt->bin, &pt->bout, now_ps)) {
                char msg[200];
                snprintf(msg, sizeof(msg),
                         "lockstep mismatch between the C model and the RTL of the %s NIC's %s at "
                         "NIC cycle %lld (%.3f ns; the block's own cycle count is in the report "
                         "above)",
                         k / 2 == NODE_INITIATOR ? "initiator" : "target",
                         nic_block_name(pt->kind), (long long)(te / TICKS_PER_CYCLE),
                         tb_to_ns(&s->tb, te));
                fail(s, msg);
            }
        } else {
            in.out_ready = (uint8_t)out_ready[k];
        }
        nic_pipe_step(&pt->pipe_m, &in, &pt->pout);
        if (accepted) {
            opslot_t *o = &s->slots[in.in_tag];
            tick_t arrival = pt->q_arrival[pt->q_head];
            tick_t edge = tb_edge_time(tb_edge_at_or_after(arrival));
            o->meas[s->align_row[o->stage]] = edge - arrival;
            o->nic_start = edge; /* any further wait for the pipeline is NIC time */
            o->at_port = k;
            s->last_progress = te / TICKS_PER_CYCLE;
            pt->q_head = (pt->q_head + 1) % pt->q_cap;
            pt->q_n--;
        }
        if (s->opts->wave)
            wave_port(s, pt);
    }
}

/* ---- set-up --------------------------------------------------------------- */

static int setup_rows(sim_t *s)
{
    const path_cfg_t *p = s->path;
    latency_result_t *r = s->res;
    s->send_stage = s->exec_stage = -1;
    for (int i = 0; i < p->n_stages; i++) {
        const stage_cfg_t *st = &p->stages[i];
        s->align_row[i] = -1;
        if (st->kind == STAGE_NIC) {
            if (s->send_stage < 0 && st->node == NODE_INITIATOR && st->pipe == PIPE_TX)
                s->send_stage = i;
            if (s->exec_stage < 0 && st->node == NODE_TARGET && st->pipe == PIPE_RX)
                s->exec_stage = i;
        }
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
            int64_t bytes = st->bytes;
            if (s->payload >= 0 && st->payload_bytes > 0) /* this packet carries the data */
                bytes += s->payload - st->payload_bytes;
            snprintf(r->rows[s->align_row[i]].label, sizeof(r->rows[0].label),
                     "wire serialisation, %lld B at %g GB/s", (long long)bytes,
                     p->wire_gbytes_per_s);
            /* bytes / (GB/s) = ns; ticks = ns * 1000 * mhz, rounded up */
            double t = (double)bytes / p->wire_gbytes_per_s * 1000.0 * (double)s->tb.mhz;
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
            row->calc = (tick_t)cycles * TICKS_PER_CYCLE;
            /* the link this NIC stage's output feeds, if the next stage is a wire */
            if (i + 1 < p->n_stages && p->stages[i + 1].kind == STAGE_WIRE)
                s->port[port_index(st->node, st->pipe)].feeds_wire = p->stages[i + 1].wire_dir;
            break;
        }
        default:
            break;
        }
        r->calc_total += row->calc;
    }
    return 0;
}

static int setup_ports(sim_t *s)
{
    const path_cfg_t *p = s->path;
    for (int node = 0; node < 2; node++)
        for (int pipe = 0; pipe < 2; pipe++) {
            port_t *pt = &s->port[port_index(node, pipe)];
            pt->node = node;
            pt->pipe = pipe;
            const nic_pipe_cfg_t *pc = pipe == PIPE_TX ? &p->tx : &p->rx;
            nic_pipe_cfg_t one = {.n_stages = 1, .stage_cycles = {1}, .stage_name = {"unused"}};
            if ((pipe == PIPE_TX && !p->have_tx) || (pipe == PIPE_RX && !p->have_rx))
                pc = &one;
            nic_pipe_init(&pt->pipe_m, pc);
            nic_pipe_reset(&pt->pipe_m, &pt->pout);
            pt->q_cap = s->n_slots;
            pt->q_slot = calloc((size_t)pt->q_cap, sizeof(*pt->q_slot));
            pt->q_arrival = calloc((size_t)pt->q_cap, sizeof(*pt->q_arrival));
            if (!pt->q_slot || !pt->q_arrival) {
                snprintf(s->err, (size_t)s->errlen, "out of memory");
                return -1;
            }
            if (pipe != PIPE_TX || p->tx_block == NIC_BLOCK_NONE)
                continue;
            pt->kind = p->tx_block;
            const block_class_t *cls =
                pt->kind == NIC_BLOCK_UB_SEND ? &ub_send_pipeline_class : &rc_send_pipeline_class;
            if (s->opts->tx_class)
                cls = s->opts->tx_class;
            char mismatch[128];
            snprintf(mismatch, sizeof(mismatch), "%s_%s_%s_mismatch.vcd", p->name,
                     node == NODE_INITIATOR ? "nodeA" : "nodeB", cls->name);
            block_opts_t bo = {
                .kind = s->opts->backend,
                .period_ps = (uint64_t)(TICKS_PER_CYCLE / s->tb.mhz),
                .rtl_fst_path = node == NODE_INITIATOR ? s->opts->rtl_wave : NULL,
                .mismatch_wave = mismatch,
            };
            char berr[256];
            pt->blk = block_new(cls, &bo, berr, sizeof(berr));
            if (!pt->blk) {
                snprintf(s->err, (size_t)s->errlen, "path '%s': %s", p->name, berr);
                return -1;
            }
            block_reset(pt->blk);
            /* one idle edge gives the wires after reset (it changes nothing) */
            block_fixed_inputs(s, pt);
            block_inputs(s, pt, 0, 0, 1);
            block_step(pt->blk, &pt->bin, &pt->bout, 0);
        }
    return 0;
}

static void setup_wave(sim_t *s)
{
    wave_t *w = s->opts->wave;
    char name[256];
    const char *nodes[2] = {"nodeA", "nodeB"};
    const char *pipes[2] = {"nic_tx", "nic_rx"};
    if (s->n_slots == 1) { /* one read at a time: show which stage it is in */
        snprintf(name, sizeof(name), "%s.op.stage", s->path->name);
        s->w_stage_name = wave_add_str(w, name);
        snprintf(name, sizeof(name), "%s.op.index", s->path->name);
        s->w_op = wave_add(w, name, 32);
    }
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
            SIG(w_slots, "slot_valid", pt->pipe_m.depth > 0 ? pt->pipe_m.depth : 1);
#undef SIG
            int slot = 0;
            for (int k = 0; k < pt->pipe_m.cfg.n_stages; k++) {
                snprintf(name, sizeof(name), "%s.st%02d_%s_valid", sc, k,
                         pt->pipe_m.cfg.stage_name[k]);
                pt->w_stage[k] = wave_add(w, name, 1);
                pt->stage_mask[k] = 0;
                for (int c = 0; c < pt->pipe_m.cfg.stage_cycles[k]; c++)
                    pt->stage_mask[k] |= 1ull << slot++;
            }
            if (pt->blk) {
                const char *scope = s->opts->block_scope;
                char bs[200];
                if (!scope || node != NODE_INITIATOR) {
                    snprintf(bs, sizeof(bs), "%s.%s", sc, nic_block_name(pt->kind));
                    scope = bs;
                }
                block_trace(pt->blk, w, scope);
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
    int64_t rank = (n * pct + 99) / 100; /* nearest rank */
    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
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
    s->tb.mhz = path->nic_mhz;
    res->tb = s->tb;
    s->payload = opts->payload > 0 ? opts->payload : -1;
    s->jetties = opts->jetties > 0 ? opts->jetties : 1;
    s->idle_jetty = jetty_of(s, 0);
    s->n_slots = opts->slots > 0 ? opts->slots : 1;
    if (s->n_slots > opts->ops)
        s->n_slots = opts->ops;
    for (int i = 0; i < NPORTS; i++)
        s->port[i].feeds_wire = -1;
    eventq_init(&s->q);
    setup_rows(s);
    s->totals = malloc((size_t)opts->ops * sizeof(tick_t));
    s->slots = calloc((size_t)s->n_slots, sizeof(*s->slots));
    s->meas_mem = calloc((size_t)s->n_slots * (size_t)res->n_rows, sizeof(tick_t));
    s->free_slots = malloc((size_t)s->n_slots * sizeof(int64_t));
    if (opts->record_departures)
        res->sent_at = malloc((size_t)opts->ops * sizeof(tick_t));
    if (!s->totals || !s->slots || !s->meas_mem || !s->free_slots ||
        (opts->record_departures && !res->sent_at)) {
        snprintf(err, (size_t)errlen, "out of memory for %lld ops", (long long)opts->ops);
        latency_destroy(s);
        return NULL;
    }
    for (int64_t k = 0; k < s->n_slots; k++) {
        s->slots[k].meas = s->meas_mem + k * res->n_rows;
        s->free_slots[s->n_slots - 1 - k] = k; /* slot 0 first */
    }
    s->n_free = s->n_slots;
    if (setup_ports(s)) {
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
    for (int i = 0; i < NPORTS; i++) {
        free(s->port[i].q_slot);
        free(s->port[i].q_arrival);
        if (s->port[i].blk)
            block_free(s->port[i].blk);
    }
    eventq_free(&s->q);
    free(s->totals);
    free(s->slots);
    free(s->meas_mem);
    free(s->free_slots);
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
    while (s->n_free > 0 && res->posted < opts->ops)
        post_op(s, 0);
    int64_t k = 0;
    for (;;) {
        tick_t te = tb_edge_time(k);
        drain_events(s, te);
        if (s->failed)
            break;
        if (s->inside == 0) {
            if (eventq_empty(&s->q))
                break;
            if (!opts->step_every_cycle) {
                int64_t next = tb_edge_at_or_after(eventq_next_time(&s->q));
                k = next > k ? next : k;
                continue;
            }
        }
        /* nothing left to wait for but the ports, and they have moved nothing
         * for a long time: requests are stuck inside (a lost packet) */
        if (eventq_empty(&s->q) && s->link_free[0] <= te && s->link_free[1] <= te &&
            k - s->last_progress > STUCK_CYCLES)
            break;
        clock_edge(s, te, opts->step_every_cycle);
        res->edges_stepped++;
        k++;
        if (s->failed)
            break;
    }
    for (int p = 0; p < NPORTS; p++)
        if (s->port[p].blk)
            res->lockstep_mismatches += block_mismatches(s->port[p].blk);
    if (s->failed)
        return -1;
    if (res->completed != opts->ops) {
        snprintf(s->err, (size_t)s->errlen,
                 "path '%s': only %lld of %lld reads completed (posted %lld, sent %lld, "
                 "executed %lld): requests were lost",
                 s->path->name, (long long)res->completed, (long long)opts->ops,
                 (long long)res->posted,
                 (long long)res->sent, (long long)res->executed);
        res->ops = res->completed;
        return -2;
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

void latency_result_free(latency_result_t *res)
{
    free(res->sent_at);
    res->sent_at = NULL;
}

double lat_row_sim_ns(const latency_result_t *r, int row)
{
    return tb_to_ns(&r->tb, r->rows[row].sim_sum) / (double)(r->ops ? r->ops : 1);
}

double lat_sim_total_ns(const latency_result_t *r)
{
    return tb_to_ns(&r->tb, r->sim_sum) / (double)(r->ops ? r->ops : 1);
}
