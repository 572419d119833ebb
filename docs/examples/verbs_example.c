/* A workload of one's own, written against the verbs (sim/verbs/urma.h) and
 * run on a simulated path: build with `make example`, run as
 *
 *     build/verbs_example [PATH] [--backend c|rtl|lockstep] [--fault SPEC]
 *                         [--transport on|sack|gbn]
 *
 * (PATH is one of the configured paths; default ub_async). Node 1 registers
 * a segment and posts a receive buffer on a Jetty; node 0 writes 4 KiB
 * into the segment, reads them back and compares, sends a message, and tries
 * a read with the wrong token, which the target must refuse. Every
 * completion is printed with its simulated time. --fault makes the links
 * lossy (as ubsim's option: loss=0.1,seed=2, drop=fwd:1, ...) and
 * --transport runs the NICs' transport, which resends what they lose, so
 * that the checks still pass. Exit status 0 when every check passed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fault.h"
#include "urma.h"
#include "verbs_run.h"

#define SEG_VA 0x100000u
#define SEG_LEN 0x10000u
#define TOKEN 0xc0ffee

typedef struct {
    urma_context_t *a, *b;          /* the initiator and the target */
    urma_jfs_t *jfs;
    urma_target_seg_t *seg, *bad;   /* the segment, with its token and without */
    urma_target_jetty_t *peer;
    int failures, recvs, steps;
} demo_t;

enum { WRITE = 1, READ_BACK, SEND, BAD_READ };
static const char *const what[] = {"", "write 4 KiB", "read them back", "send 64 B",
                                   "read with a wrong token"};

static void check(demo_t *d, int ok, const char *msg)
{
    printf("    %s: %s\n", ok ? "ok  " : "FAIL", msg);
    d->failures += !ok;
}

/* A post that fails ends the run: its completion would never come. */
static void posted(demo_t *d, int rc)
{
    if (rc)
        urma_fail(d->a, "post: %s", urma_last_error(d->a));
}

/* The initiator's completions drive the workload, one step at a time. */
static void on_initiator(urma_jfc_t *jfc, void *arg)
{
    demo_t *d = arg;
    urma_cr_t cr;
    while (urma_poll_jfc(jfc, 1, &cr) == 1) {
        printf("%10.1f ns  node 0: %-24s status %d, %u B\n", cr.time_ps / 1000.0,
               what[cr.user_ctx], (int)cr.status, cr.completion_len);
        uint8_t *mem = urma_node_memory(d->a, NULL);
        switch (cr.user_ctx) {
        case WRITE:
            check(d, cr.status == URMA_CR_SUCCESS, "the write completed");
            memset(mem + 0x20000, 0, 4096);
            posted(d, urma_read(d->jfs, d->seg, 0x20000, SEG_VA + 0x100, 4096, READ_BACK));
            break;
        case READ_BACK:
            check(d, cr.status == URMA_CR_SUCCESS && !memcmp(mem + 0x20000, mem + 0x1000, 4096),
                  "the read brought back the bytes written");
            strcpy((char *)mem + 0x3000, "hello from node 0");
            posted(d, urma_send(d->jfs, d->peer, 0x3000, 64, SEND));
            break;
        case SEND:
            check(d, cr.status == URMA_CR_SUCCESS, "the send landed");
            posted(d, urma_read(d->jfs, d->bad, 0x20000, SEG_VA, 64, BAD_READ));
            break;
        case BAD_READ:
            check(d, cr.status == URMA_CR_REM_ACCESS_ABORT_ERR, "the target refused the wrong token");
            urma_stop(d->a);
            break;
        }
        d->steps++;
    }
}

/* The target's receive completions. */
static void on_target(urma_jfc_t *jfc, void *arg)
{
    demo_t *d = arg;
    urma_cr_t cr;
    while (urma_poll_jfc(jfc, 1, &cr) == 1) {
        const char *msg = (const char *)urma_node_memory(d->b, NULL) + 0x8000;
        printf("%10.1f ns  node 1: received %u B into buffer %llu: \"%s\"\n", cr.time_ps / 1000.0,
               cr.completion_len, (unsigned long long)cr.user_ctx, msg);
        check(d, cr.status == URMA_CR_SUCCESS && !strcmp(msg, "hello from node 0"),
              "the message is in the receive buffer");
        d->recvs++;
    }
}

static int start(void *arg, urma_context_t *const *nodes, int n_nodes)
{
    demo_t *d = arg;
    (void)n_nodes;
    d->a = nodes[0];
    d->b = nodes[1];
    /* node 1: a segment, and a Jetty with receive buffers */
    urma_seg_cfg_t sc = {.va = SEG_VA, .len = SEG_LEN, .token = TOKEN,
                         .access = URMA_ACCESS_READ | URMA_ACCESS_WRITE};
    urma_seg_t *seg = urma_register_seg(d->b, &sc);
    urma_jfc_cfg_t bq = {.depth = 8, .notify = on_target, .arg = d};
    urma_jfc_t *b_jfc = urma_create_jfc(d->b, &bq);
    urma_jfr_cfg_t rc = {.depth = 4, .jfc = b_jfc};
    urma_jfr_t *jfr = b_jfc ? urma_create_jfr(d->b, &rc) : NULL;
    urma_jetty_cfg_t bj = {.jfs = {.depth = 4, .jfc = b_jfc}, .jfr = jfr};
    urma_jetty_t *b_jetty = jfr ? urma_create_jetty(d->b, &bj) : NULL;
    urma_jfr_wr_t buf = {.user_ctx = 1, .local_va = 0x8000, .len = 256};
    if (!seg || !b_jetty || urma_post_jetty_recv_wr(b_jetty, &buf, NULL)) {
        urma_fail(d->a, "node 1's set-up: %s", urma_last_error(d->b));
        return -1;
    }
    /* node 0: imports them, and a queue pair of its own */
    urma_seg_info_t info = urma_seg_info(seg);
    d->seg = urma_import_seg(d->a, &info, TOKEN);
    d->bad = urma_import_seg(d->a, &info, TOKEN + 1);
    d->peer = urma_import_jetty(d->a, urma_node_id(d->b), urma_jetty_id(b_jetty));
    urma_jfc_cfg_t aq = {.depth = 8, .notify = on_initiator, .arg = d};
    urma_jfc_t *a_jfc = urma_create_jfc(d->a, &aq);
    urma_jfs_cfg_t jc = {.depth = 4, .jfc = a_jfc};
    d->jfs = a_jfc ? urma_create_jfs(d->a, &jc) : NULL;
    if (!d->seg || !d->bad || !d->peer || !d->jfs) {
        urma_fail(d->a, "node 0's set-up: %s", urma_last_error(d->a));
        return -1;
    }
    uint8_t *mem = urma_node_memory(d->a, NULL);
    for (int i = 0; i < 4096; i++)
        mem[0x1000 + i] = (uint8_t)(i * 7 + 3);
    if (urma_write(d->jfs, d->seg, SEG_VA + 0x100, 0x1000, 4096, WRITE)) {
        urma_fail(d->a, "write: %s", urma_last_error(d->a));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *path_name = "ub_async";
    verbs_run_opts_t opts = {.backend = BACKEND_C};
    static fault_spec_t faults;
    static tp_cfg_t tp;
    const char *tp_mode = NULL;
    char err[512];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            int b = backend_parse(argv[++i]);
            if (b < 0) {
                fprintf(stderr, "verbs_example: --backend: expected c, rtl or lockstep\n");
                return 2;
            }
            opts.backend = (backend_kind_t)b;
        } else if (!strcmp(argv[i], "--fault") && i + 1 < argc) {
            fault_spec_init(&faults);
            if (fault_parse(argv[++i], &faults, err, sizeof err)) {
                fprintf(stderr, "verbs_example: %s\n", err);
                return 2;
            }
            opts.fault = &faults;
        } else if (!strcmp(argv[i], "--transport") && i + 1 < argc) {
            tp_mode = argv[++i];
            if (strcmp(tp_mode, "on") && strcmp(tp_mode, "sack") && strcmp(tp_mode, "gbn")) {
                fprintf(stderr, "verbs_example: --transport: expected on, sack or gbn, got '%s'\n",
                        tp_mode);
                return 2;
            }
        } else if (argv[i][0] != '-') {
            path_name = argv[i];
        } else {
            fprintf(stderr, "usage: verbs_example [PATH] [--backend c|rtl|lockstep] [--fault SPEC] "
                            "[--transport on|sack|gbn]\n");
            return 2;
        }
    }
    static config_t cfg;
    config_init(&cfg);
    if (config_load_defaults(&cfg, err, sizeof err) || config_validate(&cfg, err, sizeof err)) {
        fprintf(stderr, "verbs_example: %s\n", err);
        return 2;
    }
    const path_cfg_t *path = config_find(&cfg, path_name);
    if (!path) {
        fprintf(stderr, "verbs_example: no path '%s'\n", path_name);
        return 2;
    }
    if (tp_mode && path->tx_block == NIC_BLOCK_NONE) {
        fprintf(stderr, "verbs_example: --transport: path '%s' has no send pipeline to number "
                        "its packets\n", path->name);
        return 2;
    }
    if (tp_mode && !strcmp(tp_mode, "sack") && path->tx_block == NIC_BLOCK_RC_SEND) {
        fprintf(stderr, "verbs_example: --transport sack: path '%s': %s\n", path->name,
                TP_SACK_NOT_ON_ROCE);
        return 2;
    }
    if (tp_mode) {
        /* on: selective ack on UB, go-back-N on the RoCE baseline */
        int gbn = !strcmp(tp_mode, "gbn") || (!strcmp(tp_mode, "on") && path->tx_block == NIC_BLOCK_RC_SEND);
        tp_cfg_default(&tp, gbn);
        opts.transport = &tp;
    }
    printf("path %s, backend %s\n", path->name, backend_name(opts.backend));
    demo_t d = {0};
    urma_workload_t wl = {.name = "demo", .start = start, .arg = &d};
    verbs_run_result_t r;
    if (verbs_run(path, &opts, &wl, &r, err, sizeof err)) {
        fprintf(stderr, "verbs_example: %s\n", err);
        return 1;
    }
    if (d.recvs != 1)
        check(&d, 0, "one message received");
    if (d.steps != 4)
        check(&d, 0, "four requests completed");
    printf("%lld requests, %lld completed, %lld refused by the target; simulated %.1f ns\n",
           (long long)r.host.posted, (long long)r.host.completed, (long long)r.host.refused,
           r.end_ns);
    if (r.tp_on)
        printf("transport: %llu packets sent, %llu resent, %llu timeouts; %llu delivered in order\n",
               (unsigned long long)r.tp.sent, (unsigned long long)r.tp.resent,
               (unsigned long long)r.tp.timeouts, (unsigned long long)r.tp.delivered);
    printf("%s\n", d.failures ? "SOME CHECKS FAILED" : "all checks passed");
    return d.failures ? 1 : 0;
}
