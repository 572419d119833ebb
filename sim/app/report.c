#include "report.h"

#include "topo_file.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

int report_format_parse(const char *s)
{
    if (strcmp(s, "table") == 0) return FMT_TABLE;
    if (strcmp(s, "csv") == 0) return FMT_CSV;
    if (strcmp(s, "json") == 0) return FMT_JSON;
    return -1;
}

/* x as printed with three decimals, without a minus sign on a value that
 * prints as zero (a difference of sums, -1e-13, printed "-0.000") */
static double shown3(double x)
{
    return x > -0.0005 && x < 0.0005 ? 0.0 : x;
}

/* sums of the derived rows, as means over all ops, in ns */
static void derived_ns(const latency_result_t *r, double *align, double *ser)
{
    tick_t a = 0, s = 0;
    for (int i = 0; i < r->n_rows; i++) {
        if (r->rows[i].category == CAT_ALIGNMENT) a += r->rows[i].sim_sum;
        if (r->rows[i].category == CAT_SERIALISATION) s += r->rows[i].sim_sum;
    }
    double ops = (double)(r->ops ? r->ops : 1);
    *align = tb_to_ns(&r->tb, a) / ops;
    *ser = tb_to_ns(&r->tb, s) / ops;
    if (r->fx.on) { /* each row over the reads that reached it */
        *align = *ser = 0;
        for (int i = 0; i < r->n_rows; i++) {
            if (r->rows[i].category == CAT_ALIGNMENT)
                *align += lat_row_sim_ns(r, i);
            if (r->rows[i].category == CAT_SERIALISATION)
                *ser += lat_row_sim_ns(r, i);
        }
    }
}

static const char *const dir_name[2] = {"forward", "back"};
static const char *const node_name[2] = {"initiator", "target"};

void report_faults_text(FILE *f, const lat_faults_t *x, const char *indent)
{
    if (!x->on)
        return;
    fprintf(f, "%sreads: %lld completed, %lld ended in an error (no completion within %g us)",
            indent, (long long)x->completed, (long long)x->errors, (double)x->timeout_ps / 1e6);
    if (x->stale)
        fprintf(f, ", %lld completions came after their timeout", (long long)x->stale);
    if (x->unchecked)
        fprintf(f, ", %lld corrupted or duplicate packets refused where no receive checks run",
                (long long)x->unchecked);
    fprintf(f, "\n");
    for (int d = 0; d < 2; d++) {
        if (!x->faulted[d])
            continue;
        const fault_link_t *l = &x->faults[d];
        fprintf(f,
                "%sfaults on the %s wire: %llu packets, lost %llu, dropped by the list %llu, "
                "duplicated %llu, reordered %llu, corrupted %llu\n",
                indent, dir_name[d], (unsigned long long)l->sent, (unsigned long long)l->lost,
                (unsigned long long)l->dropped, (unsigned long long)l->duplicated,
                (unsigned long long)l->reordered, (unsigned long long)l->corrupted);
    }
    for (int node = 1; node >= 0; node--) {
        if (!x->rx_checked[node])
            continue;
        fprintf(f, "%sreceive checks at the %s: ok %llu", indent, node_name[node],
                (unsigned long long)x->rx_counts[node][RX_OK]);
        for (int k = 1; k < RX_N_REASONS; k++)
            if (x->rx_counts[node][k])
                fprintf(f, ", %s %llu", rx_reason_name((rx_reason_t)k),
                        (unsigned long long)x->rx_counts[node][k]);
        fprintf(f, "\n");
    }
}

void report_faults_json(cJSON *o, const lat_faults_t *x)
{
    if (!x->on)
        return;
    cJSON *reads = cJSON_AddObjectToObject(o, "reads");
    cJSON_AddNumberToObject(reads, "completed", (double)x->completed);
    cJSON_AddNumberToObject(reads, "errors", (double)x->errors);
    cJSON_AddNumberToObject(reads, "late_completions", (double)x->stale);
    cJSON_AddNumberToObject(reads, "refused_unchecked", (double)x->unchecked);
    cJSON_AddNumberToObject(reads, "timeout_us", (double)x->timeout_ps / 1e6);
    cJSON *faults = cJSON_AddObjectToObject(o, "faults");
    for (int d = 0; d < 2; d++) {
        if (!x->faulted[d])
            continue;
        const fault_link_t *l = &x->faults[d];
        cJSON *w = cJSON_AddObjectToObject(faults, dir_name[d]);
        cJSON_AddNumberToObject(w, "packets", (double)l->sent);
        cJSON_AddNumberToObject(w, "lost", (double)l->lost);
        cJSON_AddNumberToObject(w, "dropped", (double)l->dropped);
        cJSON_AddNumberToObject(w, "duplicated", (double)l->duplicated);
        cJSON_AddNumberToObject(w, "reordered", (double)l->reordered);
        cJSON_AddNumberToObject(w, "corrupted", (double)l->corrupted);
    }
    cJSON *rx = cJSON_AddObjectToObject(o, "rx_checks");
    for (int node = 1; node >= 0; node--) {
        if (!x->rx_checked[node])
            continue;
        cJSON *n = cJSON_AddObjectToObject(rx, node_name[node]);
        for (int k = 0; k < RX_N_REASONS; k++)
            cJSON_AddNumberToObject(n, rx_reason_name((rx_reason_t)k), (double)x->rx_counts[node][k]);
    }
}

void report_faults_csv(FILE *f, const char *path, const lat_faults_t *x)
{
    if (!x->on)
        return;
    fprintf(f, "%s,,reads.completed,reads that completed,count,1,,%lld\n", path,
            (long long)x->completed);
    fprintf(f, "%s,,reads.errors,reads that ended in an error,count,1,,%lld\n", path,
            (long long)x->errors);
    fprintf(f, "%s,,reads.late_completions,completions after their timeout,count,1,,%lld\n", path,
            (long long)x->stale);
    fprintf(f, "%s,,reads.refused_unchecked,packets refused where no receive checks run,count,1,,%lld\n",
            path, (long long)x->unchecked);
    static const char *const what[6] = {"packets", "lost", "dropped", "duplicated", "reordered",
                                        "corrupted"};
    for (int d = 0; d < 2; d++) {
        if (!x->faulted[d])
            continue;
        const fault_link_t *l = &x->faults[d];
        uint64_t v[6] = {l->sent, l->lost, l->dropped, l->duplicated, l->reordered, l->corrupted};
        for (int i = 0; i < 6; i++)
            fprintf(f, "%s,,faults.%s.%s,%s on the %s wire,count,1,,%llu\n", path, dir_name[d],
                    what[i], what[i], dir_name[d], (unsigned long long)v[i]);
    }
    for (int node = 1; node >= 0; node--) {
        if (!x->rx_checked[node])
            continue;
        for (int k = 0; k < RX_N_REASONS; k++)
            fprintf(f, "%s,,rx_checks.%s.%s,receive check at the %s: %s,count,1,,%llu\n", path,
                    node_name[node], rx_reason_name((rx_reason_t)k), node_name[node],
                    rx_reason_name((rx_reason_t)k), (unsigned long long)x->rx_counts[node][k]);
    }
}

void report_ctx_text(FILE *f, const lat_ctx_t *c, const char *indent)
{
    if (!c->on || !c->misses)
        return;
    fprintf(f, "%scontexts: %llu lookups, %llu hits, %llu misses (%llu merged), %llu evictions; "
               "requests held %llu cycles for them\n",
            indent, (unsigned long long)(c->hits + c->misses), (unsigned long long)c->hits,
            (unsigned long long)c->misses, (unsigned long long)c->merged,
            (unsigned long long)c->evictions, (unsigned long long)c->held_cycles);
}

void report_ctx_json(cJSON *o, const lat_ctx_t *c)
{
    if (!c->on || !c->misses)
        return;
    cJSON *x = cJSON_AddObjectToObject(o, "contexts");
    cJSON_AddNumberToObject(x, "hits", (double)c->hits);
    cJSON_AddNumberToObject(x, "misses", (double)c->misses);
    cJSON_AddNumberToObject(x, "merged", (double)c->merged);
    cJSON_AddNumberToObject(x, "evictions", (double)c->evictions);
    cJSON_AddNumberToObject(x, "held_cycles", (double)c->held_cycles);
}

void report_ctx_csv(FILE *f, const char *path, const lat_ctx_t *c)
{
    if (!c->on || !c->misses)
        return;
    const char *what[5] = {"hits", "misses", "merged", "evictions", "held_cycles"};
    uint64_t v[5] = {c->hits, c->misses, c->merged, c->evictions, c->held_cycles};
    for (int i = 0; i < 5; i++)
        fprintf(f, "%s,,contexts.%s,context lookups: %s,count,1,,%llu\n", path, what[i], what[i],
                (unsigned long long)v[i]);
}

/* ---- the transport (--transport) ---- */

#define TP_KEYS 16
static void tp_values(const path_tp_counts_t *t, const char **k, uint64_t *v)
{
    const char *keys[TP_KEYS] = {"sent",      "resent",       "resent_payload_bytes", "delivered",
                                 "acks_sent", "acks_taken",   "duplicates",   "beyond_window",
                                 "buffer_full", "gaps",       "corrupt",      "acks_corrupt",
                                 "timeouts",  "dropped_after_failure", "held_peak",
                                 "acks_malformed"};
    uint64_t vals[TP_KEYS] = {t->sent,      t->resent,     t->resent_bytes, t->delivered,
                              t->acks_sent, t->acks_taken, t->duplicates,   t->beyond,
                              t->full,      t->gaps,       t->corrupt,      t->acks_corrupt,
                              t->timeouts,  t->dropped_failed, (uint64_t)t->held_peak,
                              t->acks_malformed};
    memcpy(k, keys, sizeof keys);
    memcpy(v, vals, sizeof vals);
}

static const char *tp_scheme(int gbn) { return gbn ? "go-back-N" : "selective ack"; }

void report_tp_text(FILE *f, int on, int gbn, const path_tp_counts_t *t, const char *indent)
{
    if (!on)
        return;
    fprintf(f, "%stransport (%s): %llu packets sent, %llu resent (%llu B of payload), %llu "
               "timeouts; %llu acknowledgements sent, %llu taken (%llu corrupted); received: %llu "
               "delivered in order, %llu duplicates, %llu beyond the window, %llu with the buffer "
               "full, %llu beyond a gap, %llu corrupted; at most %lld held",
            indent, tp_scheme(gbn), (unsigned long long)t->sent, (unsigned long long)t->resent,
            (unsigned long long)t->resent_bytes, (unsigned long long)t->timeouts,
            (unsigned long long)t->acks_sent, (unsigned long long)t->acks_taken,
            (unsigned long long)t->acks_corrupt, (unsigned long long)t->delivered,
            (unsigned long long)t->duplicates, (unsigned long long)t->beyond,
            (unsigned long long)t->full, (unsigned long long)t->gaps,
            (unsigned long long)t->corrupt, (long long)t->held_peak);
    if (t->failed)
        fprintf(f, "; a channel reached the retry limit, %llu packets dropped after it",
                (unsigned long long)t->dropped_failed);
    fprintf(f, "\n");
}

void report_tp_json(cJSON *o, int on, int gbn, const path_tp_counts_t *t)
{
    if (!on)
        return;
    cJSON *x = cJSON_AddObjectToObject(o, "transport");
    cJSON_AddStringToObject(x, "scheme", gbn ? "gbn" : "sack");
    const char *k[TP_KEYS];
    uint64_t v[TP_KEYS];
    tp_values(t, k, v);
    for (int i = 0; i < TP_KEYS; i++)
        cJSON_AddNumberToObject(x, k[i], (double)v[i]);
    cJSON_AddBoolToObject(x, "failed", t->failed);
}

void report_tp_csv(FILE *f, const char *path, int on, int gbn, const path_tp_counts_t *t)
{
    if (!on)
        return;
    const char *k[TP_KEYS];
    uint64_t v[TP_KEYS];
    tp_values(t, k, v);
    for (int i = 0; i < TP_KEYS; i++)
        fprintf(f, "%s,,transport.%s,transport (%s): %s,count,1,,%llu\n", path, k[i],
                tp_scheme(gbn), k[i], (unsigned long long)v[i]);
}

void report_switches_text(FILE *f, const lat_switch_t *sw, int n, const char *indent)
{
    for (int i = 0; i < n; i++) {
        const lat_switch_t *w = &sw[i];
        fprintf(f, "%sswitch %s: received %llu, forwarded %llu, dropped %llu (buffer full), "
                   "unroutable %llu, peak queue %lld B\n",
                indent, w->name, (unsigned long long)w->received, (unsigned long long)w->forwarded,
                (unsigned long long)w->dropped, (unsigned long long)w->unroutable,
                (long long)w->peak_queue_bytes);
    }
}

void report_switches_json(cJSON *o, const lat_switch_t *sw, int n)
{
    if (!n)
        return;
    cJSON *arr = cJSON_AddArrayToObject(o, "switches");
    for (int i = 0; i < n; i++) {
        const lat_switch_t *w = &sw[i];
        cJSON *s = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, s);
        cJSON_AddStringToObject(s, "name", w->name);
        cJSON_AddNumberToObject(s, "received", (double)w->received);
        cJSON_AddNumberToObject(s, "forwarded", (double)w->forwarded);
        cJSON_AddNumberToObject(s, "drops", (double)w->dropped);
        cJSON_AddNumberToObject(s, "unroutable", (double)w->unroutable);
        cJSON_AddNumberToObject(s, "peak_queue_bytes", (double)w->peak_queue_bytes);
    }
}

static void switches_csv(FILE *f, const char *path, const latency_result_t *r)
{
    for (int i = 0; i < r->n_switches; i++) {
        const lat_switch_t *w = &r->sw[i];
        const char *what[5] = {"received", "forwarded", "drops", "unroutable", "peak_queue_bytes"};
        int64_t v[5] = {(int64_t)w->received, (int64_t)w->forwarded, (int64_t)w->dropped,
                        (int64_t)w->unroutable, w->peak_queue_bytes};
        for (int k = 0; k < 5; k++)
            fprintf(f, "%s,,switch.%s.%s,switch %s: %s,%s,1,,%lld\n", path, w->name, what[k],
                    w->name, what[k], k == 4 ? "bytes" : "count", (long long)v[k]);
    }
}

/* "topology star3, A to T" or the path's own wire. */
void report_where_text(FILE *f, const path_cfg_t *p)
{
    if (p->topo)
        fprintf(f, "topology %s, %s to %s", p->topo->name, p->topo->t.node[p->from_node].name,
                p->topo->t.node[p->to_node].name);
    else
        fprintf(f, "one-way wire %g ns, wire %g GB/s", (double)p->wire_one_way_ps / 1000.0,
                p->wire_gbytes_per_s);
}

static void row_label(const path_cfg_t *p, const latency_result_t *r, int i, char *buf, size_t n)
{
    const lat_row_t *row = &r->rows[i];
    const stage_cfg_t *st = &p->stages[row->stage];
    if (!row->derived && st->kind == STAGE_NIC)
        snprintf(buf, n, "%s [%lld cy]", row->label, (long long)(row->calc / r->tb.cycle));
    else
        snprintf(buf, n, "%s", row->label);
}

static void print_table(FILE *f, const path_cfg_t *const *paths, const latency_result_t *res, int n)
{
    for (int k = 0; k < n; k++) {
        const path_cfg_t *p = paths[k];
        const latency_result_t *r = &res[k];
        fprintf(f, "%s: %s\n", p->name, p->title[0] ? p->title : p->name);
        fprintf(f, "  NIC clock %lld MHz (%.5f ns/cycle), ", (long long)p->nic_mhz,
                tb_period_ns(&r->tb));
        report_where_text(f, p);
        fprintf(f, ", %lld op%s\n", (long long)r->ops, r->ops == 1 ? "" : "s (mean per op)");
        fprintf(f, "  %3s  %-60s %-15s %10s %10s\n", "#", "stage", "category", "calc ns", "sim ns");
        int num = 0;
        for (int i = 0; i < r->n_rows; i++) {
            const lat_row_t *row = &r->rows[i];
            char label[200];
            row_label(p, r, i, label, sizeof(label));
            char idx[16] = "";
            if (!row->derived)
                snprintf(idx, sizeof(idx), "%d", ++num);
            double sim = lat_row_sim_ns(r, i);
            if (row->derived && r->rows[i].sim_sum == 0)
                continue; /* e.g. no clock alignment needed: nothing to show */
            if (row->derived)
                fprintf(f, "  %3s  %-60.60s %-15s %10s %10.3f\n", idx, label,
                        category_name(row->category), "-", sim);
            else
                fprintf(f, "  %3s  %-60.60s %-15s %10.3f %10.3f\n", idx, label,
                        category_name(row->category), tb_to_ns(&r->tb, row->calc), sim);
        }
        double align, ser;
        derived_ns(r, &align, &ser);
        double calc = tb_to_ns(&r->tb, r->calc_total), sim = lat_sim_total_ns(r);
        fprintf(f, "  %3s  %-60s %-15s %10.3f %10.3f\n", "", "total", "", calc, sim);
        /* every tick of the measured total is in some row; whatever the
         * configured rows took beyond their configured values (waiting for
         * a busy pipeline) is named too, so the equation always holds */
        double queue = 0, ahead = 0, tp = 0;
        for (int i = 0; i < r->n_rows; i++) {
            const lat_row_t *row = &r->rows[i];
            if (row->category == CAT_QUEUEING)
                queue += lat_row_sim_ns(r, i);
            if (row->category == CAT_TRANSPORT)
                tp += lat_row_sim_ns(r, i);
            /* the configured value, for the reads that recorded the row
             * (on a topology a resent copy records nothing on the links
             * and switches it passes: the time is in the run's last link,
             * and with the transport that share is its) */
            double calc_i = tb_to_ns(&r->tb, row->calc);
            if (!row->derived && r->fx.on && row->n > 0 && row->reached < row->n) {
                double base = calc_i * (double)row->reached / (double)row->n;
                if (r->tp_on)
                    tp -= calc_i - base;
                calc_i = base;
            }
            /* with the transport, what a wire's row took beyond its delay is
             * the wait for a resend (its original was lost) */
            if (r->tp_on && row->category == CAT_WIRE && !row->derived) {
                double over = lat_row_sim_ns(r, i) - calc_i;
                if (over > 0)
                    tp += over;
            }
            /* a link into a cut-through switch hands a packet on before its
             * last bit: its row is that much shorter */
            double d = calc_i - lat_row_sim_ns(r, i);
            if (row->category == CAT_WIRE && !row->derived && d > 0)
                ahead += d;
        }
        double other = sim - calc - align - ser - queue - tp + ahead;
        int none = r->fx.on && r->completed == 0;
        if (none) {
            /* (the rows hold only what failed reads did before they ended) */
            fprintf(f, "       calculated %.0f ns; no read completed: nothing measured\n", calc);
        } else {
            fprintf(f, "       calculated %.0f ns; measured %.3f ns = calculated + clock "
                       "alignment %.3f + wire serialisation %.3f",
                    calc, sim, align, ser);
            if (r->n_switches)
                fprintf(f, " + switch queues %.3f", queue);
            if (r->tp_on)
                fprintf(f, " + transport %.3f", tp);
            if (ahead > 0.0005)
                fprintf(f, " - cut-through %.3f", ahead);
            if (other > 0.0005 || other < -0.0005)
                fprintf(f, " + waiting in busy stages %.3f", other);
            fprintf(f, "\n");
        }
        if (r->ops > 1 && !none)
            fprintf(f, "       per op: mean %.3f, p50 %.3f, p99 %.3f, min %.3f, max %.3f ns\n", sim,
                    tb_to_ns(&r->tb, r->p50), tb_to_ns(&r->tb, r->p99),
                    tb_to_ns(&r->tb, r->min), tb_to_ns(&r->tb, r->max));
        report_faults_text(f, &r->fx, "       ");
        report_ctx_text(f, &r->ctx, "       ");
        report_tp_text(f, r->tp_on, r->tp_gbn, &r->tp, "       ");
        report_switches_text(f, r->sw, r->n_switches, "       ");
        fprintf(f, "\n");
    }
    if (n > 1) {
        /* the rest of sim - calc (switch queues, the transport, waiting in
         * busy stages), as a column only when some path has any */
        int any = 0;
        for (int k = 0; k < n; k++) {
            double align, ser, rest;
            derived_ns(&res[k], &align, &ser);
            rest = lat_sim_total_ns(&res[k]) - tb_to_ns(&res[k].tb, res[k].calc_total) - align - ser;
            if (!(res[k].fx.on && res[k].completed == 0) && (rest > 0.0005 || rest < -0.0005))
                any = 1;
        }
        fprintf(f, "%-18s %10s %10s %10s %14s", "summary", "calc ns", "sim ns", "alignment",
                "serialisation");
        fprintf(f, any ? " %10s\n" : "\n", "other");
        for (int k = 0; k < n; k++) {
            double align, ser;
            derived_ns(&res[k], &align, &ser);
            double calc = tb_to_ns(&res[k].tb, res[k].calc_total), sim = lat_sim_total_ns(&res[k]);
            fprintf(f, "%-18s %10.3f %10.3f %10.3f %14.3f", paths[k]->name, calc, sim, align, ser);
            if (any && res[k].fx.on && res[k].completed == 0)
                fprintf(f, " %10s", "-"); /* no read completed: nothing measured */
            else if (any)
                fprintf(f, " %10.3f", shown3(sim - calc - align - ser));
            fprintf(f, "\n");
        }
        if (any)
            fprintf(f, "(other: switch queues, the transport, waiting in busy stages, less cut-through; "
                       "each path above says which)\n");
    }
}

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void print_csv(FILE *f, const path_cfg_t *const *paths, const latency_result_t *res, int n)
{
    fprintf(f, "path,row,stage,label,category,derived,calc_ns,sim_ns\n");
    for (int k = 0; k < n; k++) {
        const latency_result_t *r = &res[k];
        for (int i = 0; i < r->n_rows; i++) {
            const lat_row_t *row = &r->rows[i];
            fprintf(f, "%s,%d,%s,", paths[k]->name, i + 1, row->name);
            csv_field(f, row->label);
            fprintf(f, ",");
            csv_field(f, category_name(row->category));
            fprintf(f, ",%d,%.6f,%.6f\n", row->derived, tb_to_ns(&r->tb, row->calc),
                    lat_row_sim_ns(r, i));
        }
        fprintf(f, "%s,%d,total,total,total,0,%.6f,", paths[k]->name, r->n_rows + 1,
                tb_to_ns(&r->tb, r->calc_total));
        if (r->fx.on && r->completed == 0)
            fprintf(f, "\n"); /* no read completed: nothing measured */
        else
            fprintf(f, "%.6f\n", lat_sim_total_ns(r));
        report_faults_csv(f, paths[k]->name, &r->fx);
        report_ctx_csv(f, paths[k]->name, &r->ctx);
        report_tp_csv(f, paths[k]->name, r->tp_on, r->tp_gbn, &r->tp);
        switches_csv(f, paths[k]->name, r);
    }
}

static int print_json(FILE *f, const path_cfg_t *const *paths, const latency_result_t *res, int n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(root, "paths");
    for (int k = 0; k < n; k++) {
        const path_cfg_t *p = paths[k];
        const latency_result_t *r = &res[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        double align, ser;
        derived_ns(r, &align, &ser);
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddStringToObject(o, "title", p->title);
        cJSON_AddNumberToObject(o, "nic_mhz", (double)p->nic_mhz);
        cJSON_AddNumberToObject(o, "wire_one_way_ns", (double)p->wire_one_way_ps / 1000.0);
        cJSON_AddNumberToObject(o, "ops", (double)r->ops);
        cJSON_AddNumberToObject(o, "calc_ns", tb_to_ns(&r->tb, r->calc_total));
        if (r->fx.on && r->completed == 0) { /* no read completed: nothing measured */
            for (const char *const *key = (const char *const[]){"sim_ns", "sim_p50_ns", "sim_p99_ns",
                                                                 "sim_min_ns", "sim_max_ns", NULL};
                 *key; key++)
                cJSON_AddNullToObject(o, *key);
        } else {
            cJSON_AddNumberToObject(o, "sim_ns", lat_sim_total_ns(r));
            cJSON_AddNumberToObject(o, "sim_p50_ns", tb_to_ns(&r->tb, r->p50));
            cJSON_AddNumberToObject(o, "sim_p99_ns", tb_to_ns(&r->tb, r->p99));
            cJSON_AddNumberToObject(o, "sim_min_ns", tb_to_ns(&r->tb, r->min));
            cJSON_AddNumberToObject(o, "sim_max_ns", tb_to_ns(&r->tb, r->max));
        }
        cJSON_AddNumberToObject(o, "alignment_ns", align);
        cJSON_AddNumberToObject(o, "serialisation_ns", ser);
        cJSON_AddNumberToObject(o, "nic_edges_simulated", (double)r->edges_stepped);
        cJSON_AddNumberToObject(o, "nic_edges_spanned", (double)r->edges_spanned);
        if (p->topo) {
            cJSON *t = cJSON_AddObjectToObject(o, "topology");
            cJSON_AddStringToObject(t, "name", p->topo->name);
            cJSON_AddStringToObject(t, "from", p->topo->t.node[p->from_node].name);
            cJSON_AddStringToObject(t, "to", p->topo->t.node[p->to_node].name);
        }
        report_faults_json(o, &r->fx);
        report_ctx_json(o, &r->ctx);
        report_tp_json(o, r->tp_on, r->tp_gbn, &r->tp);
        report_switches_json(o, r->sw, r->n_switches);
        cJSON *st = cJSON_AddArrayToObject(o, "stages");
        for (int i = 0; i < r->n_rows; i++) {
            const lat_row_t *row = &r->rows[i];
            cJSON *s = cJSON_CreateObject();
            cJSON_AddItemToArray(st, s);
            cJSON_AddStringToObject(s, "name", row->name);
            cJSON_AddStringToObject(s, "label", row->label);
            cJSON_AddStringToObject(s, "category", category_name(row->category));
            cJSON_AddBoolToObject(s, "derived", row->derived);
            cJSON_AddNumberToObject(s, "calc_ns", tb_to_ns(&r->tb, row->calc));
            cJSON_AddNumberToObject(s, "sim_ns", lat_row_sim_ns(r, i));
        }
    }
    return report_json_print(f, root);
}

int report_json_print(FILE *f, cJSON *root)
{
    char *txt = cJSON_Print(root);
    cJSON_Delete(root);
    if (!txt)
        return -1;
    fprintf(f, "%s\n", txt);
    free(txt);
    return 0;
}

int report_latency(FILE *f, report_format_t fmt, const path_cfg_t *const *paths,
                   const latency_result_t *res, int n)
{
    switch (fmt) {
    case FMT_TABLE: print_table(f, paths, res, n); return 0;
    case FMT_CSV: print_csv(f, paths, res, n); return 0;
    case FMT_JSON: return print_json(f, paths, res, n);
    }
    return -1;
}
