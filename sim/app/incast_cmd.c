/* ubsim incast: the command and its report. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "incast.h"
#include "report.h"

static const char *const usage_incast =
    "usage: ubsim incast [options]\n"
    "\n"
    "N initiators write to (or read from) one target through a switch, all at\n"
    "once, each keeping a window of requests in flight. Prints, per sender, the\n"
    "requests that completed and that ended in an error, and its goodput (the\n"
    "payload of its successful requests over the time from its first post to its\n"
    "last completion); the switch's drops and its fullest output queue; and the\n"
    "receive checks by reason. A packet the switch's buffer cannot hold is dropped\n"
    "and its request ends in an error after the timeout: incast runs without the\n"
    "transport (nothing is resent), so the packets behind a drop on the same\n"
    "channel are refused (psn_gap) and end in errors too. At the end the target's\n"
    "memory is compared with what the successful writes put there (reads: each\n"
    "read's bytes with the target's); any difference fails the run.\n"
    "\n"
    "options:\n"
    "  --senders N          initiators, 1 to 16 (default: 8 on the built-in\n"
    "                       topology, every node but the target on a --topology;\n"
    "                       the target keeps a channel per sender, so their node\n"
    "                       numbers must differ modulo 16)\n"
    "  --payload BYTES      bytes per request (default 4096)\n"
    "  --ops K              requests per sender (default 64)\n"
    "  --window W           requests in flight per sender (default 4)\n"
    "  --op OP              write (default) or read\n"
    "  --topology FILE      nodes, a switch and links (configs/topo/*.ini): the\n"
    "                       target and every sender must hang off one switch.\n"
    "                       Default: a star of N senders s0.. and a target T on a\n"
    "                       switch S (256 KiB per port, 10 cycles at 500 MHz,\n"
    "                       store-and-forward), links of 50 GB/s and 100 ns\n"
    "  --to NODE            the target (default: the topology's last node); the\n"
    "                       senders are the first N other nodes\n"
    "  --path NAME          the read path whose stages each request crosses\n"
    "                       (default ub_async; pcie_nic for the RoCE baseline)\n"
    "  --config FILE        load FILE instead of the built-in paths (repeatable)\n"
    "  --set SEC.KEY=VALUE  override a config key (repeatable)\n"
    "  --backend B          send pipelines as c (default), rtl or lockstep\n"
    "  --fault SPEC         faults on every link too, each link on its own (see\n"
    "                       'ubsim latency --help'); drop=LINK.fwd|back:K names\n"
    "                       a link (on the built-in star: s0.., T)\n"
    "  --timeout-us T       a request with no completion after T us fails\n"
    "                       (default 1000)\n"
    "  --format FMT         table (default), csv or json\n"
    "  --step-all           step every NIC cycle (identical results, slower)\n"
    "  --seed N             accepted for uniformity (the run is deterministic;\n"
    "                       --fault has its own seed)\n"
    "  --progress, --quiet  progress on stderr (default: when it is a terminal)\n"
    CLI_VECTORS_HELP
    "  -h, --help           this text\n";

static void progress(void *ctx, int64_t done, int64_t total)
{
    (void)ctx;
    fprintf(stderr, "\rubsim incast: %lld / %lld senders done", (long long)done, (long long)total);
    if (done == total)
        fprintf(stderr, "\n");
}

static void print_table(const incast_result_t *r, const char *path, const char *topo, int64_t payload,
                        int write, int window)
{
    printf("ubsim incast: %d sender%s %s %lld B each %s %s through switch %s (topology %s, path %s, "
           "window %d)\n\n",
           r->n, r->n == 1 ? "" : "s", r->n == 1 ? (write ? "writes" : "reads") : (write ? "write" : "read"),
           (long long)payload, write ? "to" : "from", r->target, r->sw.name, topo, path,
           window);
    printf("%-12s %10s %8s %14s %12s\n", "sender", "completed", "errors", "goodput GB/s", "mean ns");
    for (int i = 0; i < r->n; i++)
        printf("%-12s %10lld %8lld %14.3f %12.1f\n", r->s[i].node, (long long)r->s[i].completed,
               (long long)r->s[i].errors, r->s[i].goodput_gbytes_per_s, r->s[i].mean_ns);
    printf("%-12s %10s %8s %14.3f\n", "all", "", "", r->goodput_gbytes_per_s);
    printf("\nswitch %s: received %llu, forwarded %llu, dropped %llu (buffer full), unroutable %llu, "
           "peak queue %lld B\n",
           r->sw.name, (unsigned long long)r->sw.received, (unsigned long long)r->sw.forwarded,
           (unsigned long long)r->sw.dropped, (unsigned long long)r->sw.unroutable,
           (long long)r->sw.peak_queue_bytes);
    printf("target executed %lld requests; %lld B of %s compared, all as expected\n",
           (long long)r->executed, (long long)r->bytes_checked,
           write ? "the target's memory" : "read buffers");
    const uint64_t *rx[2] = {r->rx_target, r->rx_initiators};
    const char *who[2] = {"the target", "the senders"};
    for (int k = 0; k < 2; k++) {
        printf("receive checks at %s: ok %llu", who[k], (unsigned long long)rx[k][RX_OK]);
        for (int q = 1; q < RX_N_REASONS; q++)
            if (rx[k][q])
                printf(", %s %llu", rx_reason_name((rx_reason_t)q), (unsigned long long)rx[k][q]);
        printf("\n");
    }
    for (int d = 0; d < 2 && r->faulted; d++) {
        const fault_link_t *l = &r->faults[d];
        printf("faults on the %s links: %llu packets, lost %llu, dropped by the list %llu, "
               "duplicated %llu, reordered %llu, corrupted %llu\n",
               d == FAULT_FWD ? "forward" : "back", (unsigned long long)l->sent,
               (unsigned long long)l->lost, (unsigned long long)l->dropped,
               (unsigned long long)l->duplicated, (unsigned long long)l->reordered,
               (unsigned long long)l->corrupted);
    }
    printf("simulated %.1f ns\n", r->end_ns);
}

static void print_csv(const incast_result_t *r)
{
    printf("sender,completed,errors,goodput_gbytes_per_s,mean_ns\n");
    for (int i = 0; i < r->n; i++)
        printf("%s,%lld,%lld,%.6f,%.3f\n", r->s[i].node, (long long)r->s[i].completed,
               (long long)r->s[i].errors, r->s[i].goodput_gbytes_per_s, r->s[i].mean_ns);
    printf("all,,,%.6f,\n", r->goodput_gbytes_per_s);
    printf("switch.%s.received,%llu,,,\n", r->sw.name, (unsigned long long)r->sw.received);
    printf("switch.%s.forwarded,%llu,,,\n", r->sw.name, (unsigned long long)r->sw.forwarded);
    printf("switch.%s.drops,%llu,,,\n", r->sw.name, (unsigned long long)r->sw.dropped);
    printf("switch.%s.unroutable,%llu,,,\n", r->sw.name, (unsigned long long)r->sw.unroutable);
    printf("switch.%s.peak_queue_bytes,%lld,,,\n", r->sw.name, (long long)r->sw.peak_queue_bytes);
    printf("target.executed,%lld,,,\n", (long long)r->executed);
    printf("bytes_checked,%lld,,,\n", (long long)r->bytes_checked);
    for (int q = 0; q < RX_N_REASONS; q++)
        printf("rx.target.%s,%llu,,,\n", rx_reason_name((rx_reason_t)q),
               (unsigned long long)r->rx_target[q]);
    for (int q = 0; q < RX_N_REASONS; q++)
        printf("rx.senders.%s,%llu,,,\n", rx_reason_name((rx_reason_t)q),
               (unsigned long long)r->rx_initiators[q]);
}

static int print_json(const incast_result_t *r, const char *path, const char *topo, int64_t payload,
                      int write)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "path", path);
    cJSON_AddStringToObject(root, "topology", topo);
    cJSON_AddStringToObject(root, "op", write ? "write" : "read");
    cJSON_AddNumberToObject(root, "payload", (double)payload);
    cJSON_AddStringToObject(root, "target", r->target);
    cJSON *arr = cJSON_AddArrayToObject(root, "senders");
    for (int i = 0; i < r->n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "node", r->s[i].node);
        cJSON_AddNumberToObject(o, "completed", (double)r->s[i].completed);
        cJSON_AddNumberToObject(o, "errors", (double)r->s[i].errors);
        cJSON_AddNumberToObject(o, "goodput_gbytes_per_s", r->s[i].goodput_gbytes_per_s);
        cJSON_AddNumberToObject(o, "mean_ns", r->s[i].mean_ns);
    }
    cJSON_AddNumberToObject(root, "goodput_gbytes_per_s", r->goodput_gbytes_per_s);
    cJSON *sw = cJSON_AddObjectToObject(root, "switch");
    cJSON_AddStringToObject(sw, "name", r->sw.name);
    cJSON_AddNumberToObject(sw, "received", (double)r->sw.received);
    cJSON_AddNumberToObject(sw, "forwarded", (double)r->sw.forwarded);
    cJSON_AddNumberToObject(sw, "drops", (double)r->sw.dropped);
    cJSON_AddNumberToObject(sw, "unroutable", (double)r->sw.unroutable);
    cJSON_AddNumberToObject(sw, "peak_queue_bytes", (double)r->sw.peak_queue_bytes);
    cJSON *rx = cJSON_AddObjectToObject(root, "rx_checks");
    cJSON *rt = cJSON_AddObjectToObject(rx, "target"), *ri = cJSON_AddObjectToObject(rx, "senders");
    for (int q = 0; q < RX_N_REASONS; q++) {
        cJSON_AddNumberToObject(rt, rx_reason_name((rx_reason_t)q), (double)r->rx_target[q]);
        cJSON_AddNumberToObject(ri, rx_reason_name((rx_reason_t)q), (double)r->rx_initiators[q]);
    }
    if (r->faulted) {
        cJSON *f = cJSON_AddObjectToObject(root, "faults");
        for (int d = 0; d < 2; d++) {
            const fault_link_t *l = &r->faults[d];
            cJSON *w = cJSON_AddObjectToObject(f, d == FAULT_FWD ? "forward" : "back");
            cJSON_AddNumberToObject(w, "packets", (double)l->sent);
            cJSON_AddNumberToObject(w, "lost", (double)l->lost);
            cJSON_AddNumberToObject(w, "dropped", (double)l->dropped);
            cJSON_AddNumberToObject(w, "duplicated", (double)l->duplicated);
            cJSON_AddNumberToObject(w, "reordered", (double)l->reordered);
            cJSON_AddNumberToObject(w, "corrupted", (double)l->corrupted);
        }
    }
    cJSON_AddNumberToObject(root, "executed", (double)r->executed);
    cJSON_AddNumberToObject(root, "bytes_checked", (double)r->bytes_checked);
    cJSON_AddNumberToObject(root, "end_ns", r->end_ns);
    return report_json_print(stdout, root);
}

int cmd_incast(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "incast"};
    cli_config_opts_t co = {0};
    cli_run_opts_t ro;
    cli_run_defaults(&ro, 0);
    long long senders = 0, payload = 4096, ops = 64, window = 4;
    int write = 1;
    const char *path_name = "ub_async";
    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_incast, stdout);
            return 0;
        } else if (cli_opt_value(&A, "--topology", &v, &bad)) {
            co.topology = v;
        } else if (cli_opt_value(&A, "--from", &v, &bad)) {
            if (!bad)
                bad = cli_usage_error(A.cmd, "--from: the senders are every node but the target "
                                             "(--senders N takes the first N)");
        } else if (cli_config_option(&A, &co, &bad) || cli_run_option(&A, &ro, &bad)) {
        } else if (cli_opt_value(&A, "--senders", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &senders) || senders > INCAST_MAX_SENDERS))
                bad = cli_usage_error(A.cmd, "--senders: expected 1 to %d, got '%s'",
                                      INCAST_MAX_SENDERS, v);
        } else if (cli_opt_value(&A, "--payload", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &payload) || payload > (1 << 24)))
                bad = cli_usage_error(A.cmd, "--payload: expected 1 to %d bytes, got '%s'", 1 << 24, v);
        } else if (cli_opt_value(&A, "--ops", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &ops) || ops > 100000000))
                bad = cli_usage_error(A.cmd, "--ops: expected 1 to 100000000, got '%s'", v);
        } else if (cli_opt_value(&A, "--window", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &window) || window > 65536))
                bad = cli_usage_error(A.cmd, "--window: expected 1 to 65536, got '%s'", v);
        } else if (cli_opt_value(&A, "--op", &v, &bad)) {
            if (!bad && strcmp(v, "write") && strcmp(v, "read"))
                bad = cli_usage_error(A.cmd, "--op: expected write or read, got '%s'", v);
            write = !bad && strcmp(v, "write") == 0;
        } else if (cli_opt_value(&A, "--path", &v, &bad)) {
            path_name = v;
        } else {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        }
        if (bad)
            return bad;
    }
    if (ro.wave) {
        fprintf(stderr, "ubsim incast: --wave: not available for incast (use latency or rate)\n");
        return 2;
    }
    if (co.link_ns) {
        fprintf(stderr, "ubsim incast: --link-ns: each link's delay is its one_way_ns in the "
                        "topology\n");
        return 2;
    }
    if (cli_wire_set(&co)) {
        fprintf(stderr, "ubsim incast: --set %s: each link's delay and bandwidth are its one_way_ns "
                        "and gbytes_per_s in the topology\n",
                cli_wire_set(&co));
        return 2;
    }
    /* the paths alone: the topology is laid over the chosen one here */
    const char *topo_file = co.topology, *to = co.to;
    co.topology = NULL;
    co.to = NULL;
    static config_t cfg;
    int rc = cli_load_config(&cfg, &co, A.cmd);
    if (rc)
        return rc;
    const path_cfg_t *path = config_find(&cfg, path_name);
    if (!path) {
        char known[512];
        cli_path_names(&cfg, known, sizeof known);
        fprintf(stderr, "ubsim incast: --path: unknown path '%s' (loaded: %s)\n", path_name, known);
        return 2;
    }
    static topo_file_t tf;
    char err[600];
    if (topo_file) {
        if (topo_load_file(&tf, topo_file, err, sizeof err)) {
            fprintf(stderr, "ubsim incast: --topology: %s\n", err);
            return 2;
        }
    } else if (incast_default_topology(&tf, senders > 0 ? (int)senders : 8, err, sizeof err)) {
        fprintf(stderr, "ubsim incast: %s\n", err);
        return 2;
    }
    int target = tf.t.n_nodes - 1;
    if (to && (target = topo_find_node(&tf.t, to)) < 0) {
        fprintf(stderr, "ubsim incast: --to: no node '%s' in topology '%s'\n", to, tf.name);
        return 2;
    }
    if (senders == 0 && tf.t.n_nodes - 1 > INCAST_MAX_SENDERS) {
        fprintf(stderr, "ubsim incast: topology '%s' has %d nodes besides the target %s, and at most "
                        "%d can send: choose them with --senders N (the first N)\n",
                tf.name, tf.t.n_nodes - 1, tf.t.node[target].name, INCAST_MAX_SENDERS);
        return 2;
    }
    int list[INCAST_MAX_SENDERS], n = 0;
    for (int i = 0; i < tf.t.n_nodes && n < INCAST_MAX_SENDERS; i++)
        if (i != target && (senders == 0 || n < senders))
            list[n++] = i;
    if (senders > n || n == 0) {
        fprintf(stderr, "ubsim incast: --senders: topology '%s' has %d node%s besides the target "
                        "%s, not %lld\n",
                tf.name, n, n == 1 ? "" : "s", tf.t.node[target].name, senders);
        return 2;
    }
    incast_opts_t o = {
        .payload = payload,
        .ops = ops,
        .window = (int)window,
        .write = write,
        .backend = (backend_kind_t)ro.backend,
        .fault = ro.have_fault ? &ro.fault : NULL,
        .timeout_ps = ro.timeout_us * 1000000,
        .step_every_cycle = ro.step_all,
        .progress = ro.show_progress ? progress : NULL,
    };
    if (incast_check(path, &tf, target, list, n, err, sizeof err) ||
        (o.fault && fault_check_links(o.fault, &tf.t, tf.name, err, sizeof err))) {
        fprintf(stderr, "ubsim incast: %s\n", err);
        return 2;
    }
    static incast_result_t r;
    if (incast_run(path, &tf, target, list, n, &o, &r, err, sizeof err)) {
        fprintf(stderr, "ubsim incast: %s\n", err);
        return 1;
    }
    switch ((report_format_t)ro.format) {
    case FMT_TABLE:
        print_table(&r, path->name, tf.name, payload, write, (int)window);
        return 0;
    case FMT_CSV:
        print_csv(&r);
        return 0;
    case FMT_JSON:
        return print_json(&r, path->name, tf.name, payload, write) ? 1 : 0;
    }
    return 1;
}
