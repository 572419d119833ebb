#include "rate.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jobs.h"
#include "latency.h"
#include "report.h"
#include "text.h"

static const char *const usage_rate =
    "usage: ubsim rate [options]\n"
    "\n"
    "Posts bursts of K reads at once on the initiator and counts each request\n"
    "when its packet leaves the initiator's NIC (sent) and again when the\n"
    "target's NIC hands it to memory (executed); the read completes when its\n"
    "response has been received and its completion handled. Reports the\n"
    "delivered rate, the steady-state issue interval, a histogram of the\n"
    "intervals between departures, and checks posted = sent = executed =\n"
    "completed (any difference: exit status 1). The UB stack runs the UB send\n"
    "pipeline (ub_async path), the RoCE stack the RC send pipeline (pcie_nic).\n"
    "\n"
    "With a finite number of request slots N (a slot is held from submission\n"
    "until the completion is handled), it also shows the measured throughput\n"
    "next to min(B_path, N*m/T0, m/delta): T0 the slot occupancy of one read\n"
    "alone, delta the steady departure interval of an unthrottled burst (both\n"
    "measured by runs of their own), B_path the payload rate of the wire that\n"
    "carries the data.\n"
    "\n"
    "options:\n"
    "  --stack S            ub, roce or both (default both)\n"
    "  --burst K            burst size; repeatable or comma separated\n"
    "                       (default 16,256,1000,10000)\n"
    "  --payload M          bytes read per request (default 64)\n"
    "  --slots N            request slots (default: one per request of the burst)\n"
    "  --jetties J          UB requests come from J Jetties (default 8)\n"
    "  --backend B          send pipelines as c (default), rtl or lockstep\n"
    "  --config FILE        load FILE instead of the built-in paths (repeatable)\n"
    "  --set SEC.KEY=VALUE  override a config key (repeatable)\n"
    "  --link-ns L          one-way wire delay in ns\n"
    CLI_TOPOLOGY_HELP
    "  --ub-path NAME       path the UB stack runs (default ub_async)\n"
    "  --roce-path NAME     path the RoCE stack runs (default pcie_nic); either\n"
    "                       path needs a send pipeline ([nic] tx_block)\n"
    "  --format FMT         table (default), csv or json\n"
    "  --wave FILE          (one stack, one burst) dump the NIC pipelines and the\n"
    "                       send pipeline's ports to FILE (.fst or .vcd) under\n"
    "                       the names the RTL's own FST uses (TOP.ub_tx.*\n"
    "                       or TOP.rc_send_pipeline.*); with --backend rtl or\n"
    "                       lockstep also the Verilated RTL to FILE's name with\n"
    "                       -rtl.fst, with c or lockstep the C model's ports\n"
    "                       alone to -c.fst, laid out as the RTL's (a clk_i at\n"
    "                       every edge: 'ubsim diff X-c.fst Y-rtl.fst' compares\n"
    "                       them cycle by cycle). Open any with\n"
    "                       waves/ub_send_pipeline.gtkw or waves/rc_send_pipeline.gtkw\n"
    "  --seed N             seed of the Jetty choice (default 1)\n"
    "  --step-all           step every NIC cycle (identical results, slower)\n"
    "  --fault SPEC         faults on the wires (see 'ubsim latency --help' and\n"
    "                       docs/packets.md); the conservation check then asks\n"
    "                       that every read ended, completed or failed, and\n"
    "                       nothing completed that was not executed\n"
    "  --timeout-us T       with --fault, or a switch on a --topology path: a read\n"
    "                       with no completion after T us\n"
    "                       fails (default 1000)\n"
    "  --progress           progress on stderr (default: when stderr is a terminal)\n"
    "  --quiet              no progress output\n"
    CLI_VECTORS_HELP
    CLI_TRANSPORT_HELP
    CLI_ENGINE_HELP
    CLI_JOBS_HELP
    CLI_JOBS_RATE_HELP
    "  -h, --help           this text\n";

/* Histogram (may be NULL) and median of the intervals between departures, in
 * cycles; departures happen at clock edges, so intervals are whole cycles. */
/* Histogram (may be NULL) and median of the intervals between departures, in
 * cycles; departures happen at clock edges, so intervals are whole cycles. */
static int64_t departure_intervals(const latency_result_t *lr, int64_t *hist)
{
    int64_t n = lr->sent > 1 ? lr->sent - 1 : 0;
    if (n == 0)
        return 0;
    if (hist)
        memcpy(hist, lr->dep_hist, sizeof(lr->dep_hist));
    /* the median, from the histogram while it lies below the overflow bin */
    int64_t seen = 0, want = (n + 1) / 2;
    for (int c = 0; c < LAT_DEP_HIST; c++) {
        seen += lr->dep_hist[c];
        if (seen >= want)
            return c;
    }
    return lr->dep_longest; /* beyond the histogram: at least LAT_DEP_HIST */
}

/* The request slots a burst uses: --slots, or one per request. */
static int64_t slots_in_use(const rate_opts_t *o)
{
    return o->slots > 0 && o->slots < o->burst ? o->slots : o->burst;
}

int rate_run(const path_cfg_t *path, const rate_opts_t *o, rate_result_t *r, char *err,
             int errlen)
{
    memset(r, 0, sizeof(*r));
    if (path->tx_block == NIC_BLOCK_NONE) {
        snprintf(err, (size_t)errlen,
                 "path '%s': its transmit pipeline has no send pipeline block ([nic] tx_block)",
                 path->name);
        return -1;
    }
    /* (the names of its lockstep mismatch waveforms say which burst: the
     * simulations of a command may run side by side) */
    char tag[48], dtag[56];
    snprintf(tag, sizeof tag, "burst%lld", (long long)o->burst);
    snprintf(dtag, sizeof dtag, "%s_delta", tag);
    latency_opts_t lo = {
        .report = o->report,
        .sim_tag = tag,
        .ops = o->burst,
        .slots = slots_in_use(o),
        .payload = o->payload,
        .jetties = o->jetties,
        .seed = o->seed,
        .backend = o->backend,
        .engine = o->engine,
        .rtl_wave = o->rtl_wave,
        .c_wave = o->c_wave,
        .block_scope = path->tx_block == NIC_BLOCK_UB_SEND ? "TOP.ub_tx"
                                                           : "TOP.rc_send_pipeline",
        .step_every_cycle = o->step_every_cycle,
        .fault = o->fault,
        .timeout_ps = o->timeout_ps,
        .transport = o->transport,
        .wave = o->wave,
        .no_percentiles = 1,
    };
    latency_result_t lr;
    int rc = latency_run(path, &lo, &lr, err, errlen);
    if (rc == -1) {
        latency_result_free(&lr);
        return -1;
    }
    /* rc == -2: requests were lost; the counts below show it */
    const timebase_t *tb = &lr.tb;
    r->burst = o->burst;
    r->slots = lo.slots;
    r->payload = o->payload;
    r->posted = lr.posted;
    r->sent = lr.sent;
    r->executed = lr.executed;
    r->completed = lr.completed;
    r->fx = lr.fx;
    r->ctx = lr.ctx;
    r->tp_on = lr.tp_on;
    r->tp_gbn = lr.tp_gbn;
    r->tp = lr.tp;
    r->n_switches = lr.n_switches;
    memcpy(r->sw, lr.sw, sizeof r->sw);
    if (lr.fx.on) /* (faults, or a switch that may drop) every read ended, and nothing completed that was not executed */
        r->conserved = r->posted == o->burst && lr.completed + lr.errors == o->burst &&
                       r->sent <= r->posted && r->executed <= r->sent &&
                       r->completed <= r->executed;
    else
        r->conserved = r->posted == o->burst && r->sent == o->burst &&
                       r->executed == o->burst && r->completed == o->burst;
    r->edges_stepped = lr.edges_stepped;
    r->edges_spanned = lr.edges_spanned;
    r->lockstep_mismatches = lr.lockstep_mismatches;

    r->interval_cycles = departure_intervals(&lr, r->hist);
    r->interval_ns = tb_period_ns(tb) * (double)r->interval_cycles;
    if (lr.sent > 0 && lr.first_at_nic >= 0) {
        double win = tb_to_ns(tb, lr.last_sent_at - lr.first_at_nic) / 1000.0;
        r->rate_per_us = win > 0 ? (double)lr.sent / win : 0;
        double ewin = tb_to_ns(tb, lr.last_executed_at - lr.first_at_nic) / 1000.0;
        r->executed_per_us = ewin > 0 ? (double)lr.executed / ewin : 0;
    }

    /* the concurrency model */
    double m = (double)o->payload;
    r->slot_time_ns = lat_sim_total_ns(&lr);
    double end_ns = tb_to_ns(tb, lr.end_time);
    r->throughput_gbytes_per_s = end_ns > 0 ? (double)lr.completed * m / end_ns : 0;
    r->path_gbytes_per_s = path->wire_gbytes_per_s;
    int first = 1; /* the slowest link that carries the data */
    for (int i = 0; i < path->n_stages; i++) {
        const stage_cfg_t *st = &path->stages[i];
        if (st->kind == STAGE_WIRE && st->payload_bytes > 0) {
            /* a header per packet of the MTU */
            double mtu = (double)(path->mtu_bytes > 0 ? path->mtu_bytes : 4096);
            double packets = path->tx_block != NIC_BLOCK_NONE ? ceil(m / mtu) : 1;
            double bytes = (double)(st->bytes - st->payload_bytes) * packets + m;
            double g = stage_gbytes_per_s(path, st) * m / bytes;
            if (first || g < r->path_gbytes_per_s)
                r->path_gbytes_per_s = g;
            first = 0;
        }
    }
    /* T0: one read alone, same path and payload */
    latency_opts_t one = {.ops = 1, .slots = 1, .payload = o->payload, .backend = BACKEND_C,
                          .engine = o->engine};
    latency_result_t l1;
    if (latency_run(path, &one, &l1, err, errlen)) {
        latency_result_free(&lr);
        return -1;
    }
    r->idle_time_ns = lat_sim_total_ns(&l1);
    r->t0_known = l1.completed > 0;
    r->t_known = lr.completed > 0;
    latency_result_free(&l1);
    r->slots_gbytes_per_s = (double)r->slots * m / r->idle_time_ns;
    /* delta: the steady interval of an unthrottled burst of the same reads */
    latency_opts_t burst = {.ops = 64, .slots = 64, .payload = o->payload, .backend = o->backend,
                            .jetties = o->jetties, .seed = o->seed, .engine = o->engine,
                            .report = o->report, .sim_tag = dtag};
    latency_result_t lb;
    if (latency_run(path, &burst, &lb, err, errlen)) {
        latency_result_free(&lb);
        latency_result_free(&lr);
        return -1;
    }
    r->delta_ns = tb_period_ns(tb) * (double)departure_intervals(&lb, NULL);
    latency_result_free(&lb);
    r->issue_gbytes_per_s = m / r->delta_ns;
    r->binding = "B_path";
    r->bound_gbytes_per_s = r->path_gbytes_per_s;
    if (r->slots_gbytes_per_s < r->bound_gbytes_per_s) {
        r->bound_gbytes_per_s = r->slots_gbytes_per_s;
        r->binding = "N*m/T0";
    }
    if (r->issue_gbytes_per_s < r->bound_gbytes_per_s) {
        r->bound_gbytes_per_s = r->issue_gbytes_per_s;
        r->binding = "m/delta";
    }
    latency_result_free(&lr);
    return 0;
}

/* ---- the command ------------------------------------------------------------ */

typedef struct {
    const char *stack;
    const path_cfg_t *path;
    rate_result_t r;
    char err[512]; /* why it failed */
    cli_report_t report; /* its lockstep mismatch report */
} rate_row_t;

/* The memory a simulation keeps per request it follows - each in flight
 * (the host's record of 32 B, the workload's time of its last probe, 8 B,
 * with room to spare), or with faults or switches each of the burst (which
 * also keeps its post time and deadline) - and what the simulations running
 * side by side may keep together: one that follows a million requests or
 * more runs alone, so that side by side costs no more memory than the
 * largest alone. */
#define RATE_BYTES_PER_SLOT 48
#define RATE_BYTES_PER_LOSSY_READ 64
#define RATE_SIDE_BY_SIDE_BYTES (1000000ull * RATE_BYTES_PER_SLOT)

/* The rows of a command, each run by rate_job on one of the worker threads. */
typedef struct {
    rate_row_t *rows;
    const rate_opts_t *opts;
    int n;
    int progress;
    int done; /* rows finished (under jobs_lock) */
} rate_jobs_t;

static int rate_job(void *ctx, int i)
{
    rate_jobs_t *J = ctx;
    rate_row_t *row = &J->rows[i];
    jobs_lock();
    if (J->progress)
        fprintf(stderr, "\rubsim rate: %s, burst %lld ... (%d of %d done)        ", row->stack,
                (long long)J->opts[i].burst, J->done, J->n);
    jobs_unlock();
    int rc = rate_run(row->path, &J->opts[i], &row->r, row->err, sizeof row->err);
    jobs_lock();
    J->done++;
    if (J->progress && !rc)
        fprintf(stderr, "\rubsim rate: %s, burst %lld done (%d of %d done)        ", row->stack,
                (long long)J->opts[i].burst, J->done, J->n);
    jobs_unlock();
    return rc;
}

static void print_table(const rate_row_t *rows, int n, const char *backend, int64_t slots_opt,
                        int64_t payload)
{
    const path_cfg_t *p0 = rows[0].path;
    printf("ubsim rate: %lld B reads, backend %s, NIC clock %lld MHz, ", (long long)payload, backend,
           (long long)p0->nic_mhz);
    if (p0->topo) {
        report_where_text(stdout, p0);
        printf(", ");
    } else {
        printf("one-way wire %g ns, ", (double)p0->wire_one_way_ps / 1000.0);
    }
    if (slots_opt > 0) /* (the golden header keeps "slots one per request") */
        printf("slots %lld (a burst no larger than that is not limited)\n\n", (long long)slots_opt);
    else
        printf("slots one per request\n\n");
    printf("%-5s %7s %9s %12s %12s %6s %8s %8s %9s %10s\n", "stack", "burst", "sent/us",
           "executed/us", "interval ns", "cycles", "posted", "sent", "executed", "completed");
    for (int i = 0; i < n; i++) {
        const rate_result_t *r = &rows[i].r;
        char iv[16] = "-", cy[16] = "-"; /* one request has no interval */
        if (r->sent > 1) {
            snprintf(iv, sizeof(iv), "%.3f", r->interval_ns);
            snprintf(cy, sizeof(cy), "%lld", (long long)r->interval_cycles);
        }
        printf("%-5s %7lld %9.2f %12.2f %12s %6s %8lld %8lld %9lld %10lld%s\n", rows[i].stack,
               (long long)r->burst, r->rate_per_us, r->executed_per_us, iv, cy,
               (long long)r->posted, (long long)r->sent, (long long)r->executed,
               (long long)r->completed, r->conserved ? "" : "  << NOT CONSERVED");
    }
    printf("\ninter-departure intervals at the initiator's NIC (cycles: count)\n");
    for (int i = 0; i < n; i++) {
        const rate_result_t *r = &rows[i].r;
        printf("  %-4s burst %6lld:", rows[i].stack, (long long)r->burst);
        for (int c = 0; c <= RATE_HIST_MAX; c++)
            if (r->hist[c])
                printf(" %s%d: %lld", c == RATE_HIST_MAX ? ">=" : "", c, (long long)r->hist[c]);
        printf("\n");
    }
    printf("\nthroughput: B_eff <= min(B_path, N*m/T0, m/delta)   (GB/s; T0, T in ns)\n");
    printf("  T0: a read's slot occupancy alone; T: measured in this run (N/T is Little's law)\n");
    printf("%-5s %7s %6s %8s %10s %9s %9s %9s %9s %9s  %s\n", "stack", "burst", "slots", "T0", "T",
           "B_eff", "B_path", "N*m/T0", "m/delta", "bound", "binding");
    for (int i = 0; i < n; i++) {
        const rate_result_t *r = &rows[i].r;
        /* (what no completed read measured is '-') */
        char t0[16] = "-", t[16] = "-", slots[16] = "-", bound[16] = "-";
        if (r->t0_known) {
            snprintf(t0, sizeof t0, "%.1f", r->idle_time_ns);
            snprintf(slots, sizeof slots, "%.3f", r->slots_gbytes_per_s);
        }
        if (r->t_known)
            snprintf(t, sizeof t, "%.1f", r->slot_time_ns);
        if (r->t0_known)
            snprintf(bound, sizeof bound, "%.3f", r->bound_gbytes_per_s);
        printf("%-5s %7lld %6lld %8s %10s %9.3f %9.3f %9s %9.3f %9s  %s\n", rows[i].stack,
               (long long)r->burst, (long long)r->slots, t0, t, r->throughput_gbytes_per_s, r->path_gbytes_per_s,
               slots, r->issue_gbytes_per_s, bound, r->t0_known ? r->binding : "-");
    }
    for (int i = 0; i < n; i++) {
        const rate_result_t *r = &rows[i].r;
        if (r->ctx.on && r->ctx.misses) {
            printf("\n%s burst %lld:\n", rows[i].stack, (long long)r->burst);
            report_ctx_text(stdout, &r->ctx, "  ");
        }
        if (r->tp_on) {
            printf("\n%s burst %lld:\n", rows[i].stack, (long long)r->burst);
            report_tp_text(stdout, r->tp_on, r->tp_gbn, &r->tp, "  ");
        }
        if (!r->fx.on)
            continue;
        printf("\n%s burst %lld, %s:\n", rows[i].stack, (long long)r->burst,
               r->n_switches ? "through switches" : "with faults");
        report_faults_text(stdout, &r->fx, "  ");
        report_switches_text(stdout, r->sw, r->n_switches, "  ");
    }
}

/* With faults, the CSV has these columns too. */
static void csv_fault_header(void)
{
    static const char *const what[6] = {"packets", "lost", "dropped", "duplicated", "reordered",
                                        "corrupted"};
    printf(",errors,late_completions");
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 6; i++)
            printf(",%s_%s", d == FAULT_FWD ? "fwd" : "back", what[i]);
    for (int node = 1; node >= 0; node--)
        for (int k = 0; k < RX_N_REASONS; k++)
            printf(",rx_%s_%s", node == 1 ? "target" : "initiator", rx_reason_name((rx_reason_t)k));
}

static void csv_fault_fields(const lat_faults_t *x)
{
    printf(",%lld,%lld", (long long)x->errors, (long long)x->stale);
    for (int d = 0; d < 2; d++) {
        const fault_link_t *l = &x->faults[d];
        printf(",%llu,%llu,%llu,%llu,%llu,%llu", (unsigned long long)l->sent,
               (unsigned long long)l->lost, (unsigned long long)l->dropped,
               (unsigned long long)l->duplicated, (unsigned long long)l->reordered,
               (unsigned long long)l->corrupted);
    }
    for (int node = 1; node >= 0; node--)
        for (int k = 0; k < RX_N_REASONS; k++)
            printf(",%llu", (unsigned long long)x->rx_counts[node][k]);
}

static void print_csv(const rate_row_t *rows, int n)
{
    printf("stack,burst,slots,payload,sent_per_us,executed_per_us,interval_ns,interval_cycles,"
           "posted,sent,executed,completed,conserved,slot_time_ns,idle_slot_time_ns,throughput_gbytes_per_s,path_gbytes_per_s,"
           "slots_gbytes_per_s,issue_gbytes_per_s,binding");
    int faults = n > 0 && rows[0].r.fx.on;
    if (faults)
        csv_fault_header();
    printf("\n");
    for (int i = 0; i < n; i++) {
        const rate_result_t *r = &rows[i].r;
        /* (what no completed read measured is an empty field) */
        char t0[32] = "", t[32] = "", slots[32] = "";
        if (r->t0_known) {
            snprintf(t0, sizeof t0, "%.6f", r->idle_time_ns);
            snprintf(slots, sizeof slots, "%.6f", r->slots_gbytes_per_s);
        }
        if (r->t_known)
            snprintf(t, sizeof t, "%.6f", r->slot_time_ns);
        printf("%s,%lld,%lld,%lld,%.6f,%.6f,%.6f,%lld,%lld,%lld,%lld,%lld,%d,%s,%s,%.6f,%.6f,"
               "%s,%.6f,%s",
               rows[i].stack, (long long)r->burst, (long long)r->slots, (long long)r->payload,
               r->rate_per_us, r->executed_per_us, r->interval_ns, (long long)r->interval_cycles,
               (long long)r->posted, (long long)r->sent, (long long)r->executed,
               (long long)r->completed, r->conserved, t, t0, r->throughput_gbytes_per_s,
               r->path_gbytes_per_s, slots, r->issue_gbytes_per_s, r->t0_known ? r->binding : "");
        if (faults)
            csv_fault_fields(&r->fx);
        printf("\n");
    }
}

static void json_number_or_null(cJSON *o, const char *key, int known, double v)
{
    if (known)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static int print_json(const rate_row_t *rows, int n, const char *backend)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "backend", backend);
    cJSON *arr = cJSON_AddArrayToObject(root, "stacks");
    for (int i = 0; i < n; i++) {
        const rate_result_t *r = &rows[i].r;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "name", rows[i].stack);
        cJSON_AddStringToObject(o, "path", rows[i].path->name);
        cJSON_AddNumberToObject(o, "burst", (double)r->burst);
        cJSON_AddNumberToObject(o, "slots", (double)r->slots);
        cJSON_AddNumberToObject(o, "payload", (double)r->payload);
        cJSON_AddNumberToObject(o, "interval_ns", r->interval_ns);
        cJSON_AddNumberToObject(o, "interval_cycles", (double)r->interval_cycles);
        cJSON_AddNumberToObject(o, "rate_per_us", r->rate_per_us);
        cJSON_AddNumberToObject(o, "executed_per_us", r->executed_per_us);
        cJSON_AddNumberToObject(o, "posted", (double)r->posted);
        cJSON_AddNumberToObject(o, "sent", (double)r->sent);
        cJSON_AddNumberToObject(o, "executed", (double)r->executed);
        cJSON_AddNumberToObject(o, "completed", (double)r->completed);
        cJSON_AddBoolToObject(o, "conserved", r->conserved);
        cJSON *h = cJSON_AddObjectToObject(o, "interval_histogram_cycles");
        for (int c = 0; c <= RATE_HIST_MAX; c++)
            if (r->hist[c]) {
                char key[16];
                snprintf(key, sizeof(key), "%s%d", c == RATE_HIST_MAX ? ">=" : "", c);
                cJSON_AddNumberToObject(h, key, (double)r->hist[c]);
            }
        /* (what no completed read measured is null) */
        json_number_or_null(o, "slot_time_ns", r->t_known, r->slot_time_ns);
        json_number_or_null(o, "idle_slot_time_ns", r->t0_known, r->idle_time_ns);
        cJSON_AddNumberToObject(o, "throughput_gbytes_per_s", r->throughput_gbytes_per_s);
        cJSON *b = cJSON_AddObjectToObject(o, "bound");
        cJSON_AddNumberToObject(b, "path_gbytes_per_s", r->path_gbytes_per_s);
        json_number_or_null(b, "slots_gbytes_per_s", r->t0_known, r->slots_gbytes_per_s);
        cJSON_AddNumberToObject(b, "issue_gbytes_per_s", r->issue_gbytes_per_s);
        cJSON_AddNumberToObject(b, "delta_ns", r->delta_ns);
        json_number_or_null(b, "min_gbytes_per_s", r->t0_known, r->bound_gbytes_per_s);
        if (r->t0_known)
            cJSON_AddStringToObject(b, "binding", r->binding);
        else
            cJSON_AddNullToObject(b, "binding");
        cJSON_AddNumberToObject(o, "nic_edges_simulated", (double)r->edges_stepped);
        report_faults_json(o, &r->fx);
        report_ctx_json(o, &r->ctx);
        report_tp_json(o, r->tp_on, r->tp_gbn, &r->tp);
        report_switches_json(o, r->sw, r->n_switches);
        cJSON_AddNumberToObject(o, "nic_edges_spanned", (double)r->edges_spanned);
    }
    return report_json_print(stdout, root);
}

int cmd_rate(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "rate"};
    cli_config_opts_t co = {0};
    long long bursts[CLI_MAX_LIST];
    int n_bursts = 0;
    long long payload = 64, slots = 0, jetties = 8;
    cli_run_opts_t ro;
    cli_run_defaults(&ro, 1);
    int do_ub = 1, do_roce = 1;
    const sim_engine_t *engine = NULL;
    const char *engine_name = "native";
    const char *ub_path = "ub_async", *roce_path = "pcie_nic";
    cli_tp_opts_t tpo = {0};
    int jobs = 0;

    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_rate, stdout);
            return 0;
        } else if (cli_config_option(&A, &co, &bad) || cli_run_option(&A, &ro, &bad) ||
                   cli_engine_option(&A, &engine, &engine_name, &bad) ||
                   cli_transport_option(&A, &tpo, &bad) || cli_jobs_option(&A, &jobs, &bad)) {
        } else if (cli_opt_value(&A, "--stack", &v, &bad)) {
            if (bad) {
            } else if (strcmp(v, "ub") == 0) {
                do_ub = 1, do_roce = 0;
            } else if (strcmp(v, "roce") == 0) {
                do_ub = 0, do_roce = 1;
            } else if (strcmp(v, "both") == 0) {
                do_ub = 1, do_roce = 1;
            } else {
                bad = cli_usage_error(A.cmd, "--stack: expected ub, roce or both, got '%s'", v);
            }
        } else if (cli_opt_value(&A, "--burst", &v, &bad)) {
            char buf[256], *item[CLI_MAX_LIST]; /* CLI_MAX_LIST sizes of up to 7 digits and their commas */
            int n = bad ? 0 : text_list_split(v, buf, sizeof buf, item, CLI_MAX_LIST);
            if (n == TEXT_LIST_TOO_LONG)
                bad = cli_usage_error(A.cmd, "--burst: expected at most %d characters, got %zu",
                                      (int)sizeof(buf) - 1, strlen(v));
            else if (n == TEXT_LIST_TOO_MANY)
                bad = cli_usage_error(A.cmd, "--burst: at most %d sizes", CLI_MAX_LIST);
            else if (n < 0)
                bad = cli_usage_error(A.cmd, "--burst: expected whole numbers 1..2000000, "
                                      "comma-separated, got '%s': %s", v, text_list_error(n));
            for (int i = 0; i < n && !bad; i++) {
                long long k;
                if (cli_parse_int(item[i], 1, &k) || k > 2000000)
                    bad = cli_usage_error(A.cmd, "--burst: expected whole numbers 1..2000000, got '%s'",
                                          item[i]);
                else if (n_bursts == CLI_MAX_LIST)
                    bad = cli_usage_error(A.cmd, "--burst: at most %d sizes", CLI_MAX_LIST);
                else
                    bursts[n_bursts++] = k;
            }
        } else if (cli_opt_value(&A, "--payload", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &payload) || payload > 1 << 20))
                bad = cli_usage_error(A.cmd, "--payload: expected bytes 1..1048576, got '%s'", v);
        } else if (cli_opt_value(&A, "--slots", &v, &bad)) {
            if (!bad && cli_parse_int(v, 1, &slots))
                bad = cli_usage_error(A.cmd, "--slots: expected a whole number from 1 to 9223372036854775807, got '%s'", v);
        } else if (cli_opt_value(&A, "--jetties", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &jetties) || jetties > 1 << 20))
                bad = cli_usage_error(A.cmd, "--jetties: expected 1..1048576, got '%s'", v);
        } else if (cli_opt_value(&A, "--ub-path", &v, &bad)) {
            if (!bad) ub_path = v;
        } else if (cli_opt_value(&A, "--roce-path", &v, &bad)) {
            if (!bad) roce_path = v;
        } else {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        }
        if (bad)
            return bad;
    }
    if (n_bursts == 0) {
        static const long long def[] = {16, 256, 1000, 10000};
        for (int i = 0; i < 4; i++)
            bursts[n_bursts++] = def[i];
    }
    if (ro.wave && (n_bursts != 1 || do_ub + do_roce != 1))
        return cli_usage_error(A.cmd, "--wave: expected a single --burst and a single --stack "
                                      "(one simulation per waveform)");

    static config_t cfg;
    if (engine && co.topology)
        return cli_usage_error(A.cmd, "--engine %s: a path over a --topology runs only on the native "
                                      "engine", engine_name);
    int rc = cli_transport_check(&A, &tpo);
    if (rc)
        return rc;
    rc = cli_load_config(&cfg, &co, A.cmd);
    if (rc)
        return rc;
    const char *stack_names[2] = {"ub", "roce"};
    const char *stack_paths[2] = {ub_path, roce_path};
    const path_cfg_t *paths[2] = {NULL, NULL};
    for (int s = 0; s < 2; s++) {
        if (!(s == 0 ? do_ub : do_roce))
            continue;
        paths[s] = config_find(&cfg, stack_paths[s]);
        if (!paths[s]) {
            char known[512];
            cli_path_names(&cfg, known, sizeof(known));
            fprintf(stderr, "ubsim rate: --%s-path: unknown path '%s' (loaded: %s)\n",
                    stack_names[s], stack_paths[s], known);
            return 2;
        }
        /* the scenario counts departures from a send pipeline block: a path
         * without one is bad usage, found before anything runs */
        if (paths[s]->tx_block == NIC_BLOCK_NONE) {
            fprintf(stderr, "ubsim rate: --%s-path: path '%s' (%s:%d) has no send pipeline block: "
                            "expected '[nic] tx_block = ub_send_pipeline' or 'rc_send_pipeline'\n",
                    stack_names[s], paths[s]->name, paths[s]->file, paths[s]->line);
            return 2;
        }
        if ((rc = cli_transport_path_check("rate", &tpo, paths[s])) != 0)
            return rc;
    }

    char err[512];
    /* a drop= names a link the paths cross */
    for (int s = 0; s < 2 && ro.have_fault; s++) {
        if (paths[s] && path_net_fault_check(&ro.fault, paths[s], err, sizeof err)) {
            fprintf(stderr, "ubsim rate: %s\n", err);
            return 2;
        }
    }
    wave_t *w = NULL;
    char rtl_wave[1024] = "", c_wave[1024] = "";
    if (ro.wave) {
        w = wave_open(ro.wave, err, sizeof(err));
        if (!w) {
            fprintf(stderr, "ubsim rate: --wave: %s\n", err);
            return 2;
        }
        if (ro.backend != BACKEND_C)
            cli_wave_sibling(ro.wave, "-rtl.fst", rtl_wave, sizeof(rtl_wave));
        if (ro.backend != BACKEND_RTL)
            cli_wave_sibling(ro.wave, "-c.fst", c_wave, sizeof(c_wave));
    }

    /* every stack and burst is a simulation of its own: they run side by
     * side (--jobs), and the first that fails, in the order of the rows, is
     * the one reported */
    static rate_row_t rows[2 * CLI_MAX_LIST];
    static rate_opts_t opts[2 * CLI_MAX_LIST];
    static tp_cfg_t tpc[2];
    int n = 0;
    for (int s = 0; s < 2; s++) {
        if (!paths[s])
            continue;
        for (int b = 0; b < n_bursts; b++, n++) {
            opts[n] = (rate_opts_t){
                .burst = bursts[b],
                .slots = slots,
                .payload = payload,
                .jetties = (int)jetties,
                .seed = (uint64_t)ro.seed,
                .backend = (backend_kind_t)ro.backend,
                .engine = engine,
                .step_every_cycle = ro.step_all,
                .fault = ro.have_fault ? &ro.fault : NULL,
                .timeout_ps = ro.timeout_us * 1000000,
                .wave = w,
                .rtl_wave = rtl_wave[0] ? rtl_wave : NULL,
                .c_wave = c_wave[0] ? c_wave : NULL,
                .transport = cli_transport_cfg(&tpo, paths[s], &tpc[s]),
            };
            rows[n].stack = stack_names[s];
            rows[n].path = paths[s];
            opts[n].report = cli_report_open(&rows[n].report);
        }
    }
    rate_jobs_t J = {rows, opts, n, ro.show_progress, 0};
    uint64_t bytes[2 * CLI_MAX_LIST];
    for (int i = 0; i < n; i++)
        bytes[i] = ro.have_fault || co.topology
                       ? (uint64_t)opts[i].burst * RATE_BYTES_PER_LOSSY_READ
                       : (uint64_t)slots_in_use(&opts[i]) * RATE_BYTES_PER_SLOT;
    int first_failed = jobs_run_within(cli_jobs(jobs, w != NULL, engine_name), n, bytes,
                                       RATE_SIDE_BY_SIDE_BYTES, rate_job, &J);
    /* as one after the other: the mismatch reports of the rows up to the
     * first that failed, then its error */
    int failed = first_failed >= 0;
    for (int i = 0; i < n; i++)
        cli_report_close(&rows[i].report, !failed || i <= first_failed);
    if (failed)
        fprintf(stderr, "%subsim rate: %s\n", ro.show_progress ? "\n" : "", rows[first_failed].err);
    if (ro.show_progress)
        fprintf(stderr, "\r%79s\r", "");
    if (w && wave_close(w) && !failed) {
        fprintf(stderr, "ubsim rate: --wave: could not finish writing '%s'\n", ro.wave);
        failed = 1;
    }
    if (rtl_wave[0] && !failed && wave_fst_verify(rtl_wave, err, sizeof(err))) {
        fprintf(stderr, "ubsim rate: --wave: could not finish writing the RTL's waveform: %s\n", err);
        failed = 1;
    }
    if (c_wave[0] && !failed && wave_fst_verify(c_wave, err, sizeof(err))) {
        fprintf(stderr, "ubsim rate: --wave: could not finish writing the C model's waveform: %s\n",
                err);
        failed = 1;
    }
    if (failed)
        return 1;
    if (ro.format == FMT_TABLE)
        print_table(rows, n, backend_name((backend_kind_t)ro.backend), slots, payload);
    else if (ro.format == FMT_CSV)
        print_csv(rows, n);
    else if (print_json(rows, n, backend_name((backend_kind_t)ro.backend)))
        return 1;
    for (int i = 0; i < n; i++)
        if (!rows[i].r.conserved) {
            fprintf(stderr, "ubsim rate: conservation check failed for %s burst %lld: posted %lld, "
                            "sent %lld, executed %lld, completed %lld\n",
                    rows[i].stack, (long long)rows[i].r.burst, (long long)rows[i].r.posted,
                    (long long)rows[i].r.sent, (long long)rows[i].r.executed,
                    (long long)rows[i].r.completed);
            return 1;
        }
    return 0;
}
