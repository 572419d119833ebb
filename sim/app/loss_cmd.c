/* ubsim loss: the command and its report. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "loss.h"
#include "report.h"
#include "text.h"
#include "transport.h"
#include "wave.h"

static const char *const usage_loss =
    "usage: ubsim loss [options]\n"
    "\n"
    "Goodput and message completion time against packet loss. Node A sends\n"
    "messages, cut into MTU-sized packets, to node B over a link that loses\n"
    "packets in both directions (data and acknowledgements); the transport block\n"
    "at each end (docs/transport.md) acknowledges, resends and reorders. For each\n"
    "scheme and loss rate it prints the goodput as a fraction of the same\n"
    "scheme's loss-free run, the mean, p50 and p99 message time (from a\n"
    "message's first packet on the wire to the moment the receiver can deliver\n"
    "all of it), and the packets and bytes resent and acknowledgements sent.\n"
    "Every delivery is checked against what was sent (order, exactly once,\n"
    "content); a difference fails the run.\n"
    "\n"
    "Schemes: sack (selective acknowledgement: only missing packets are resent),\n"
    "gbn32 (go-back-N with a flight of 32 packets, the RoCE baseline's), and\n"
    "gbnW (go-back-N with the configured window W).\n"
    "\n"
    "With --fault, one run with exactly those faults instead of the sweep (one\n"
    "message unless --messages says otherwise), for worked examples:\n"
    "  ubsim loss --message 32768 --mtu 4096 --link-ns 1000 --fault drop=fwd:1 \\\n"
    "             --rto-ns 10000 --scheme sack --format json\n"
    "prints {\"deliverable_ns\", \"buffered_bytes_peak\", \"resent_bytes\",\n"
    "\"resent_packets\", ...} of that message.\n"
    "\n"
    "options:\n"
    "  --loss LIST          loss probabilities, comma-separated (default\n"
    "                       0,1e-4,1e-3,1e-2,5e-2,1e-1)\n"
    "  --scheme S           sack, gbn (go-back-N: gbn32 and gbnW in a sweep, the\n"
    "                       configured window in a single run), gbn32 (the\n"
    "                       baseline's flight of 32 alone) or gbnW (go-back-N with\n"
    "                       a window of W packets alone; both set --window), or\n"
    "                       all (default): the names the report prints\n"
    "  --message BYTES      bytes per message (default 65536)\n"
    "  --mix LIST           message sizes in bytes, used in turn (instead of\n"
    "                       --message)\n"
    "  --messages N         messages per run (default 2000; 1 with --fault)\n"
    "  --mtu BYTES          payload bytes per packet (default 4096)\n"
    "  --window N           packets in flight per channel, 1 to the bitmap size\n"
    "                       (default 256)\n"
    "  --bitmap BITS        the receiver's SACK bitmap: 64, 128, 256 (default),\n"
    "                       512 or 1024 bits; also its receive window\n"
    "  --ooo-cap N          packets the receiver holds beyond a gap, 0 to 1024\n"
    "                       (default 1024)\n"
    "  --rto-ns NS          a fixed retransmission timeout (default: 25600 ns,\n"
    "                       doubling at each retry)\n"
    "  --retry-max N        timeouts in a row before the channel fails and its\n"
    "                       messages end in errors, 0 to 15 (default 7)\n"
    "  --channels N         messages go round-robin over N transport channels,\n"
    "                       1 to 4 (default 1)\n"
    "  --link-ns NS         one-way propagation delay of the link (default 100)\n"
    "  --link-gbytes G      link rate in gigabytes per second (default 50)\n"
    "  --reread-ns NS       what a resend costs: its payload is read from the\n"
    "                       sender's memory again, so it reaches the link NS\n"
    "                       later (default 0)\n"
    "  --fault SPEC         a single run with these faults (see 'ubsim latency\n"
    "                       --help': loss, dup, reorder, corrupt, drop=DIR:K, seed)\n"
    "  --seed N             the faults' seed in a sweep (default 1)\n"
    "  --backend B          transport blocks as c (default), rtl or lockstep\n"
    "  --format FMT         table (default), csv or json\n"
    "  --wave FILE.fst      a single run (--fault): node A's transport traced in\n"
    "                       FILE.fst, node B's in FILE_b.fst, by the backend that\n"
    "                       runs it (the Verilator FST, or on c the C model's\n"
    "                       ports laid out alike); lockstep adds the C model's in\n"
    "                       FILE-c.fst and FILE_b-c.fst. 'ubsim diff' compares\n"
    "                       any two cycle by cycle (waves/transport.gtkw shows\n"
    "                       them)\n"
    "  --progress, --quiet  progress on stderr (default: when it is a terminal)\n"
    CLI_VECTORS_HELP
    "  -h, --help           this text\n";

static int parse_list(const char *cmd, const char *opt, const char *v, double *out, int max, int whole,
                      int *n)
{
    const char *what = whole ? "whole numbers of bytes (1 to 4294967295)" : "probabilities from 0 to 1";
    char buf[1024], *item[LOSS_MAX_POINTS > LOSS_MAX_MIX ? LOSS_MAX_POINTS : LOSS_MAX_MIX];
    const int room = (int)(sizeof item / sizeof *item);
    int k = text_list_split(v, buf, sizeof buf, item, max < room ? max : room);
    *n = 0;
    if (k == TEXT_LIST_TOO_MANY)
        return cli_usage_error(cmd, "%s: at most %d values", opt, max);
    if (k < 0)
        return cli_usage_error(cmd, "%s: expected %s, comma-separated, got '%s': %s", opt, what, v,
                               text_list_error(k));
    for (int i = 0; i < k; i++) {
        double x;
        if (text_parse_real(item[i], &x) || x < 0 || (!whole && x > 1) ||
            (whole && (x < 1 || x != floor(x) || x > 4294967295.0)))
            return cli_usage_error(cmd, "%s: expected %s, comma-separated, got '%s'", opt, what, v);
        out[(*n)++] = x;
    }
    return 0;
}

static void progress(void *ctx, int done, int total)
{
    (void)ctx;
    fprintf(stderr, "\rubsim loss: %d / %d runs", done, total);
    if (done == total)
        fprintf(stderr, "\n");
}

static void single_json(cJSON *o, const tpb_result_t *r)
{
    if (r->msgs_done)
        cJSON_AddNumberToObject(o, "deliverable_ns", r->deliverable_ns);
    else
        cJSON_AddNullToObject(o, "deliverable_ns");
    cJSON_AddNumberToObject(o, "buffered_bytes_peak", (double)r->buffered_bytes_peak);
    cJSON_AddNumberToObject(o, "resent_bytes", (double)r->bytes_resent);
    cJSON_AddNumberToObject(o, "resent_packets", (double)r->pkts_resent);
    cJSON_AddNumberToObject(o, "packets_sent", (double)r->pkts_sent);
    cJSON_AddNumberToObject(o, "acks_sent", (double)r->acks_sent);
    cJSON_AddNumberToObject(o, "sacks_sent", (double)r->sacks_sent);
    cJSON_AddNumberToObject(o, "naks_sent", (double)r->naks_sent);
    cJSON_AddNumberToObject(o, "timeouts", (double)r->timeouts);
    cJSON_AddNumberToObject(o, "messages_done", (double)r->msgs_done);
    cJSON_AddNumberToObject(o, "messages_failed", (double)r->msgs_failed);
    cJSON_AddNumberToObject(o, "bytes_delivered", (double)r->bytes_delivered);
    cJSON_AddNumberToObject(o, "goodput_gbytes_per_s", r->goodput_gbytes_per_s);
    if (r->msgs_done) {
        cJSON_AddNumberToObject(o, "mean_ns", r->mean_ns);
        cJSON_AddNumberToObject(o, "p50_ns", r->p50_ns);
        cJSON_AddNumberToObject(o, "p99_ns", r->p99_ns);
    } else { /* no message was delivered: no message time */
        cJSON_AddNullToObject(o, "mean_ns");
        cJSON_AddNullToObject(o, "p50_ns");
        cJSON_AddNullToObject(o, "p99_ns");
    }
    cJSON *v = cJSON_AddObjectToObject(o, "receiver");
    for (int i = 0; i < 5; i++)
        cJSON_AddNumberToObject(v, transport_verdict_name(i), (double)r->verdict[i]);
    const char *dn[2] = {"forward", "back"};
    cJSON *l = cJSON_AddObjectToObject(o, "link");
    for (int d = 0; d < 2; d++) {
        cJSON *w = cJSON_AddObjectToObject(l, dn[d]);
        cJSON_AddNumberToObject(w, "lost", (double)r->lost[d]);
        cJSON_AddNumberToObject(w, "duplicated", (double)r->duplicated[d]);
        cJSON_AddNumberToObject(w, "reordered", (double)r->reordered[d]);
        cJSON_AddNumberToObject(w, "corrupted", (double)r->crc_drops[d]);
    }
}

static int print_json(cJSON *root)
{
    return report_json_print(stdout, root) ? 1 : 0;
}

static void single_table(const char *scheme, const tpb_cfg_t *c, const tpb_result_t *r)
{
    printf("ubsim loss: %s, %llu message%s, MTU %u B, window %u, link %.1f GB/s and %.1f ns\n\n",
           scheme, (unsigned long long)c->n_msgs, c->n_msgs == 1 ? "" : "s", c->mtu, c->window,
           c->link_gbytes_per_s, c->link_ns);
    if (r->msgs_done)
        printf("deliverable at           %12.1f ns\n", r->deliverable_ns);
    else
        printf("deliverable at           %12s (no message was delivered)\n", "-");
    printf("receiver held at most    %12llu B\n", (unsigned long long)r->buffered_bytes_peak);
    printf("resent                   %12llu packets, %llu B\n", (unsigned long long)r->pkts_resent,
           (unsigned long long)r->bytes_resent);
    printf("packets sent             %12llu\n", (unsigned long long)r->pkts_sent);
    printf("acknowledgements sent    %12llu (SACK %llu, NAK %llu)\n", (unsigned long long)r->acks_sent,
           (unsigned long long)r->sacks_sent, (unsigned long long)r->naks_sent);
    printf("timeouts                 %12llu\n", (unsigned long long)r->timeouts);
    printf("messages                 %12llu deliverable, %llu failed\n",
           (unsigned long long)r->msgs_done, (unsigned long long)r->msgs_failed);
    printf("receiver verdicts       ");
    for (int i = 0; i < 5; i++)
        printf(" %s %llu", transport_verdict_name(i), (unsigned long long)r->verdict[i]);
    printf("\nlink forward: lost %llu, duplicated %llu, reordered %llu, corrupted %llu; back: lost "
           "%llu, duplicated %llu, reordered %llu, corrupted %llu\n",
           (unsigned long long)r->lost[0], (unsigned long long)r->duplicated[0],
           (unsigned long long)r->reordered[0], (unsigned long long)r->crc_drops[0],
           (unsigned long long)r->lost[1], (unsigned long long)r->duplicated[1],
           (unsigned long long)r->reordered[1], (unsigned long long)r->crc_drops[1]);
}

/* The W of "gbnW" (1 to TP_W, digits only) into *w; nonzero if s is no
 * such name. */
static int gbn_window_of(const char *s, unsigned *w)
{
    long long x = 0;
    if (strncmp(s, "gbn", 3) != 0 || s[3] < '1' || s[3] > '9' || strspn(s + 3, "0123456789") != strlen(s + 3) ||
        cli_parse_int(s + 3, 1, &x) || x > TP_W)
        return 1;
    *w = (unsigned)x;
    return 0;
}

int cmd_loss(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "loss"};
    cli_run_opts_t ro;
    cli_run_defaults(&ro, 1);
    tpb_cfg_t c;
    tpb_cfg_default(&c);
    c.msg_bytes = 65536;
    c.n_msgs = 2000;
    double loss[LOSS_MAX_POINTS] = {0, 1e-4, 1e-3, 1e-2, 5e-2, 1e-1};
    int n_loss = 6;
    double mixd[LOSS_MAX_MIX];
    uint64_t mix[LOSS_MAX_MIX];
    int n_mix = 0, have_messages = 0, fixed_rto = 0, have_loss = 0, have_message = 0;
    const char *scheme = "all";
    unsigned gbn_window = 0; /* the W of --scheme gbnW */
    int have_window = 0;
    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0;
        long long x = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_loss, stdout);
            return 0;
        } else if (cli_opt_value(&A, "--loss", &v, &bad)) {
            if (!bad)
                bad = parse_list(A.cmd, "--loss", v, loss, LOSS_MAX_POINTS, 0, &n_loss);
            have_loss = 1;
        } else if (cli_opt_value(&A, "--mix", &v, &bad)) {
            if (!bad)
                bad = parse_list(A.cmd, "--mix", v, mixd, LOSS_MAX_MIX, 1, &n_mix);
        } else if (cli_opt_value(&A, "--scheme", &v, &bad)) {
            if (!bad && strcmp(v, "sack") && strcmp(v, "gbn") && strcmp(v, "all") &&
                gbn_window_of(v, &gbn_window))
                bad = cli_usage_error(A.cmd,
                                      "--scheme: expected sack, gbn, gbn32, gbnW (go-back-N with a window of W "
                                      "packets, 1 to %d) or all, got '%s'",
                                      TP_W, v);
            scheme = v;
        } else if (cli_opt_value(&A, "--message", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 0xFFFFFFFFll))
                bad = cli_usage_error(A.cmd, "--message: expected 1 to %lld bytes (a 32-bit length), got '%s'",
                                      0xFFFFFFFFll, v);
            c.msg_bytes = (uint64_t)x;
            have_message = 1;
        } else if (cli_opt_value(&A, "--messages", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 100000000))
                bad = cli_usage_error(A.cmd, "--messages: expected 1 to 100000000, got '%s'", v);
            c.n_msgs = (uint64_t)x;
            have_messages = 1;
        } else if (cli_opt_value(&A, "--mtu", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 65536))
                bad = cli_usage_error(A.cmd, "--mtu: expected 1 to 65536 bytes, got '%s'", v);
            c.mtu = (uint32_t)x;
        } else if (cli_opt_value(&A, "--window", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > TP_W))
                bad = cli_usage_error(A.cmd, "--window: expected 1 to %d packets, got '%s'", TP_W, v);
            c.window = (unsigned)x;
            have_window = 1;
        } else if (cli_opt_value(&A, "--bitmap", &v, &bad)) {
            int code = -1;
            if (!bad && !cli_parse_int(v, 64, &x))
                for (int k = 0; k <= 4; k++)
                    if (x == 64ll << k)
                        code = k;
            if (!bad && code < 0)
                bad = cli_usage_error(A.cmd, "--bitmap: expected 64, 128, 256, 512 or 1024 bits, got '%s'", v);
            c.bmap_code = (unsigned)(code < 0 ? 0 : code);
        } else if (cli_opt_value(&A, "--ooo-cap", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 0, &x) || x > TP_W))
                bad = cli_usage_error(A.cmd, "--ooo-cap: expected 0 to %d packets, got '%s'", TP_W, v);
            c.ooo_cap = (unsigned)x;
        } else if (cli_opt_value(&A, "--rto-ns", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 1000000000))
                bad = cli_usage_error(A.cmd, "--rto-ns: expected 1 to 1000000000 ns, got '%s'", v);
            c.rto_ns = (uint64_t)x;
            fixed_rto = 1;
        } else if (cli_opt_value(&A, "--retry-max", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 0, &x) || x > 15))
                bad = cli_usage_error(A.cmd, "--retry-max: expected 0 to 15, got '%s'", v);
            c.retry_max = (unsigned)x;
        } else if (cli_opt_value(&A, "--channels", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > TP_CH))
                bad = cli_usage_error(A.cmd, "--channels: expected 1 to %d, got '%s'", TP_CH, v);
            c.channels = (int)x;
        } else if (cli_opt_value(&A, "--link-ns", &v, &bad)) {
            double d = 0;
            if (!bad && (text_parse_real(v, &d) || !(d >= 0) || d > 1e9))
                bad = cli_usage_error(A.cmd, "--link-ns: expected 0 to 1e9 ns, got '%s'", v);
            c.link_ns = d;
        } else if (cli_opt_value(&A, "--reread-ns", &v, &bad)) {
            double d = 0;
            if (!bad && (text_parse_real(v, &d) || !(d >= 0) || d > 1e9))
                bad = cli_usage_error(A.cmd, "--reread-ns: expected 0 to 1e9 ns, got '%s'", v);
            c.reread_ns = d;
        } else if (cli_opt_value(&A, "--link-gbytes", &v, &bad)) {
            double d = 0;
            if (!bad && (text_parse_real(v, &d) || !(d > 0) || d > 1e6))
                bad = cli_usage_error(A.cmd, "--link-gbytes: expected a rate above 0 GB/s, got '%s'", v);
            c.link_gbytes_per_s = d;
        } else if (strcmp(arg, "--link-gbps") == 0 || strncmp(arg, "--link-gbps=", 12) == 0) {
            bad = cli_usage_error(A.cmd, "--link-gbps is now --link-gbytes (the same rate, in gigabytes per "
                                         "second, not gigabits)");
        } else if (strcmp(arg, "--step-all") == 0 || strncmp(arg, "--timeout-us", 12) == 0) {
            bad = cli_usage_error(A.cmd, "%s: not available for loss (the timeout is --rto-ns)", arg);
        } else if (cli_run_option(&A, &ro, &bad)) {
        } else {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        }
        if (bad)
            return bad;
    }
    if (have_message && n_mix) {
        fprintf(stderr, "ubsim loss: --message and --mix: give one (--mix sends its sizes in turn "
                        "instead of one size)\n");
        return 2;
    }
    if (have_loss && ro.have_fault) {
        fprintf(stderr, "ubsim loss: --loss and --fault: give one (--loss sweeps loss rates; --fault "
                        "is one run with exactly its faults, loss=P among them)\n");
        return 2;
    }
    /* --scheme gbnW names the window: gbn32 is the baseline's scheme (a
     * flight of at most 32), any other W the configured-window scheme */
    int gbn_named = strncmp(scheme, "gbn", 3) == 0 && scheme[3] != '\0';
    if (gbn_named) {
        if (have_window && c.window != gbn_window) {
            fprintf(stderr, "ubsim loss: --scheme %s names a window of %u packets, --window says %u: give one\n",
                    scheme, gbn_window, c.window);
            return 2;
        }
        c.window = gbn_window;
        if (c.window > transport_bmap_bits(c.bmap_code)) {
            fprintf(stderr, "ubsim loss: --scheme %s: a window of %u packets, more than the bitmap's %u bits "
                            "(--bitmap)\n",
                    scheme, c.window, transport_bmap_bits(c.bmap_code));
            return 2;
        }
    }
    if (c.window > transport_bmap_bits(c.bmap_code)) {
        fprintf(stderr, "ubsim loss: --window %u: at most the bitmap's %u bits (--bitmap)\n", c.window,
                transport_bmap_bits(c.bmap_code));
        return 2;
    }
    for (int i = 0; i < n_mix; i++)
        mix[i] = (uint64_t)mixd[i];
    c.mix = mix;
    c.n_mix = n_mix;
    c.backend = (backend_kind_t)ro.backend;
    c.backoff = !fixed_rto;
    c.progress = ro.show_progress;
    char err[600];
    report_format_t fmt = (report_format_t)ro.format;
    char wave_b[1024], wave_c[1024], wave_bc[1024];
    if (ro.wave) {
        if (!ro.have_fault) {
            fprintf(stderr, "ubsim loss: --wave: a single run (--fault) (the trace of each node's "
                            "transport)\n");
            return 2;
        }
        size_t wl = strlen(ro.wave);
        if (wl < 4 || strcmp(ro.wave + wl - 4, ".fst") != 0) {
            fprintf(stderr, "ubsim loss: --wave: expected a FILE.fst name, got '%s' (the transports' "
                            "traces are FST files)\n", ro.wave);
            return 2;
        }
        if (cli_wave_sibling(ro.wave, "_b.fst", wave_b, sizeof wave_b) ||
            cli_wave_sibling(ro.wave, "-c.fst", wave_c, sizeof wave_c) ||
            cli_wave_sibling(ro.wave, "_b-c.fst", wave_bc, sizeof wave_bc)) {
            fprintf(stderr, "ubsim loss: --wave: name too long\n");
            return 2;
        }
        if (cli_wave_creatable(ro.wave, err, sizeof err)) {
            fprintf(stderr, "ubsim loss: --wave: %s\n", err);
            return 2;
        }
        if (c.backend == BACKEND_C) { /* the C models' traces under the names given */
            c.c_fst[0] = ro.wave;
            c.c_fst[1] = wave_b;
        } else {
            c.fst[0] = ro.wave;
            c.fst[1] = wave_b;
        }
        if (c.backend == BACKEND_LOCKSTEP) {
            c.c_fst[0] = wave_c;
            c.c_fst[1] = wave_bc;
        }
    }
    if (ro.have_fault) {
        /* one run with exactly the faults given */
        c.fault = ro.fault;
        if (!have_messages)
            c.n_msgs = 1;
        c.gbn = strncmp(scheme, "gbn", 3) == 0;
        if (strcmp(scheme, "all") == 0) {
            fprintf(stderr, "ubsim loss: --fault: a single run: say --scheme sack or gbn\n");
            return 2;
        }
        if (fault_check_links(&c.fault, NULL, NULL, err, sizeof err)) { /* two nodes, one link */
            fprintf(stderr, "ubsim loss: %s\n", err);
            return 2;
        }
        tpb_result_t r;
        if (tpb_run(&c, &r, err, sizeof err)) {
            fprintf(stderr, "ubsim loss: %s\n", err);
            return 1;
        }
        /* the C models' traces are finished now: each whole (a full disk)? */
        for (int n = 0; n < 2; n++) {
            if (c.c_fst[n] && wave_fst_verify(c.c_fst[n], err, sizeof err)) {
                fprintf(stderr, "ubsim loss: --wave: could not finish writing the C model's waveform: %s\n",
                        err);
                return 1;
            }
        }
        if (fmt == FMT_JSON) {
            cJSON *root = cJSON_CreateObject();
            cJSON_AddStringToObject(root, "scheme", scheme);
            single_json(root, &r);
            return print_json(root);
        }
        if (fmt == FMT_CSV) {
            printf("scheme,deliverable_ns,buffered_bytes_peak,resent_bytes,resent_packets,acks_sent,"
                   "timeouts,messages_done,messages_failed\n");
            char dn[32] = ""; /* empty: no message delivered */
            if (r.msgs_done)
                snprintf(dn, sizeof dn, "%.3f", r.deliverable_ns);
            printf("%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", scheme, dn,
                   (unsigned long long)r.buffered_bytes_peak, (unsigned long long)r.bytes_resent,
                   (unsigned long long)r.pkts_resent, (unsigned long long)r.acks_sent,
                   (unsigned long long)r.timeouts, (unsigned long long)r.msgs_done,
                   (unsigned long long)r.msgs_failed);
            return 0;
        }
        single_table(scheme, &c, &r);
        return 0;
    }
    c.fault.seed = (uint64_t)ro.seed;
    unsigned schemes = strcmp(scheme, "sack") == 0  ? 1u << LOSS_SACK
                       : strcmp(scheme, "gbn") == 0 ? (1u << LOSS_GBN32) | (1u << LOSS_GBN_WIN)
                       : !gbn_named                 ? 7u
                       : gbn_window == 32           ? 1u << LOSS_GBN32
                                                    : 1u << LOSS_GBN_WIN;
    static loss_point_t pts[LOSS_MAX_POINTS * LOSS_N_SCHEMES];
    int n = loss_sweep(&c, schemes, loss, n_loss, pts, LOSS_MAX_POINTS * LOSS_N_SCHEMES,
                       ro.show_progress ? progress : NULL, NULL, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "ubsim loss: %s\n", err);
        return 1;
    }
    char name[32];
    if (fmt == FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON *cfg = cJSON_AddObjectToObject(root, "config");
        if (n_mix) {
            cJSON *m = cJSON_AddArrayToObject(cfg, "mix");
            for (int i = 0; i < n_mix; i++)
                cJSON_AddItemToArray(m, cJSON_CreateNumber((double)mix[i]));
        } else {
            cJSON_AddNumberToObject(cfg, "message", (double)c.msg_bytes);
        }
        cJSON_AddNumberToObject(cfg, "messages", (double)c.n_msgs);
        cJSON_AddNumberToObject(cfg, "mtu", c.mtu);
        cJSON_AddNumberToObject(cfg, "window", c.window);
        cJSON_AddNumberToObject(cfg, "bitmap_bits", transport_bmap_bits(c.bmap_code));
        cJSON_AddNumberToObject(cfg, "ooo_cap", c.ooo_cap);
        cJSON_AddNumberToObject(cfg, "rto_ns", (double)c.rto_ns);
        cJSON_AddBoolToObject(cfg, "rto_backoff", c.backoff);
        cJSON_AddNumberToObject(cfg, "link_ns", c.link_ns);
        cJSON_AddNumberToObject(cfg, "link_gbytes_per_s", c.link_gbytes_per_s);
        cJSON_AddNumberToObject(cfg, "reread_ns", c.reread_ns);
        cJSON_AddNumberToObject(cfg, "seed", (double)c.fault.seed);
        cJSON *arr = cJSON_AddArrayToObject(root, "points");
        for (int i = 0; i < n; i++) {
            const loss_point_t *p = &pts[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(arr, o);
            cJSON_AddStringToObject(o, "scheme", loss_scheme_name(p->scheme, p->window, name, sizeof name));
            cJSON_AddNumberToObject(o, "loss", p->loss);
            cJSON_AddNumberToObject(o, "goodput_fraction", p->goodput_fraction);
            cJSON_AddNumberToObject(o, "goodput_gbytes_per_s", p->r.goodput_gbytes_per_s);
            if (p->r.msgs_done) {
                cJSON_AddNumberToObject(o, "mean_ns", p->r.mean_ns);
                cJSON_AddNumberToObject(o, "p50_ns", p->r.p50_ns);
                cJSON_AddNumberToObject(o, "p99_ns", p->r.p99_ns);
            } else { /* no message was delivered: no message time */
                cJSON_AddNullToObject(o, "mean_ns");
                cJSON_AddNullToObject(o, "p50_ns");
                cJSON_AddNullToObject(o, "p99_ns");
            }
            cJSON_AddNumberToObject(o, "resent_packets", (double)p->r.pkts_resent);
            cJSON_AddNumberToObject(o, "resent_bytes", (double)p->r.bytes_resent);
            cJSON_AddNumberToObject(o, "acks_sent", (double)p->r.acks_sent);
            cJSON_AddNumberToObject(o, "timeouts", (double)p->r.timeouts);
            cJSON_AddNumberToObject(o, "messages_failed", (double)p->r.msgs_failed);
        }
        return print_json(root);
    }
    if (fmt == FMT_CSV) {
        printf("scheme,loss,goodput_fraction,goodput_gbytes_per_s,mean_ns,p50_ns,p99_ns,resent_packets,"
               "resent_bytes,acks_sent,timeouts,messages_failed\n");
        for (int i = 0; i < n; i++) {
            const loss_point_t *p = &pts[i];
            char t[3][32] = {"", "", ""}; /* empty: no message delivered */
            if (p->r.msgs_done) {
                snprintf(t[0], sizeof t[0], "%.3f", p->r.mean_ns);
                snprintf(t[1], sizeof t[1], "%.3f", p->r.p50_ns);
                snprintf(t[2], sizeof t[2], "%.3f", p->r.p99_ns);
            }
            printf("%s,%g,%.6f,%.6f,%s,%s,%s,%llu,%llu,%llu,%llu,%llu\n",
                   loss_scheme_name(p->scheme, p->window, name, sizeof name), p->loss,
                   p->goodput_fraction, p->r.goodput_gbytes_per_s, t[0], t[1], t[2],
                   (unsigned long long)p->r.pkts_resent, (unsigned long long)p->r.bytes_resent,
                   (unsigned long long)p->r.acks_sent, (unsigned long long)p->r.timeouts,
                   (unsigned long long)p->r.msgs_failed);
        }
        return 0;
    }
    char what[64];
    if (n_mix)
        snprintf(what, sizeof what, n_mix == 1 ? "%d size" : "%d sizes in turn", n_mix);
    else
        snprintf(what, sizeof what, "%llu B", (unsigned long long)c.msg_bytes);
    printf("ubsim loss: %llu messages of %s, MTU %u B, window %u, bitmap %u bits, link %.1f GB/s "
           "and %.1f ns, timeout %llu ns%s, loss in both directions (seed %llu)\n\n",
           (unsigned long long)c.n_msgs, what, c.mtu, c.window,
           transport_bmap_bits(c.bmap_code), c.link_gbytes_per_s, c.link_ns, (unsigned long long)c.rto_ns,
           c.backoff ? " doubling" : " fixed", (unsigned long long)c.fault.seed);
    printf("%-8s %8s %9s %10s %10s %10s %10s %12s %8s %6s %7s\n", "scheme", "loss", "goodput", "mean ns",
           "p50 ns", "p99 ns", "resent", "resent B", "acks", "tmo", "failed");
    for (int i = 0; i < n; i++) {
        const loss_point_t *p = &pts[i];
        char t[3][32] = {"-", "-", "-"}; /* no message delivered */
        if (p->r.msgs_done) {
            snprintf(t[0], sizeof t[0], "%.1f", p->r.mean_ns);
            snprintf(t[1], sizeof t[1], "%.1f", p->r.p50_ns);
            snprintf(t[2], sizeof t[2], "%.1f", p->r.p99_ns);
        }
        printf("%-8s %8g %8.1f%% %10s %10s %10s %10llu %12llu %8llu %6llu %7llu\n",
               loss_scheme_name(p->scheme, p->window, name, sizeof name), p->loss,
               100.0 * p->goodput_fraction, t[0], t[1], t[2], (unsigned long long)p->r.pkts_resent,
               (unsigned long long)p->r.bytes_resent, (unsigned long long)p->r.acks_sent,
               (unsigned long long)p->r.timeouts, (unsigned long long)p->r.msgs_failed);
    }
    return 0;
}
