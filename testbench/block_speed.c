/* What one clock edge of a block costs through the block API (block_step),
 * on each backend: `make bench` runs it (scripts/bench.py, section 6).
 *
 *   build/block_speed [EDGES [REPS]]
 *
 * Each case steps one block EDGES times (default 2,000,000) with a request
 * offered at every edge and the output never held back, on the C model, the
 * Verilated RTL and lockstep, and prints the median over REPS runs (default
 * 3) of the wall time per edge, with the packets that came out (the same on
 * every backend, or the program fails). The cases:
 *   ub_send_pipeline  busy: a UB read offered at every edge, its sequence port
 *                     answered at the edge after it asks; idle: nothing
 *                     offered, nothing inside
 *   ub_tx             the UB transmit path (the pipeline with its channel
 *                     table and order tracker), as the NIC runs it
 *   rc_send_pipeline  a RoCE RC read request offered at every edge
 * One line per case and backend: "case backend ns_per_edge packets". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "block.h"
#include "blocks.h"
#include "rc_send_pipeline.h"
#include "ub_pkg.h"
#include "ub_send_pipeline.h"
#include "ub_tx.h"

#define MAX_REPS 15

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static block_inst_t *open_block(const block_class_t *cls, backend_kind_t kind)
{
    block_opts_t o;
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.period_ps = 3106;
    char err[512];
    block_inst_t *b = block_new(cls, &o, err, sizeof err);
    if (!b) {
        fprintf(stderr, "block_speed: %s\n", err);
        exit(1);
    }
    return b;
}

static void mismatch(const char *what)
{
    fprintf(stderr, "block_speed: %s: lockstep found the C model and the RTL apart\n", what);
    exit(1);
}

/* Each runner steps n edges; returns the packets that came out. */

static long ub_pipeline(block_inst_t *b, long n, int busy)
{
    ub_send_pipeline_in_t in;
    ub_send_pipeline_out_t out;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.wr_valid = (uint8_t)busy;
    in.wr_opcode = UB_TA_READ;
    in.wr_mode = URMA_OL;
    in.wr_len = 64;
    in.wr_token = 0x5eed;
    in.pkt_ready = 1;
    in.cfg_tpn_base = 0x100;
    in.cfg_mtu_log2 = 12;
    long pkts = 0;
    uint8_t asked = 0;
    for (long i = 0; i < n; i++) {
        in.wr_jetty = (uint32_t)(i & 7);
        in.wr_dst = (uint32_t)(i & 15);
        in.wr_tag = (uint32_t)i;
        in.wr_addr = (uint64_t)i * 64;
        in.seq_valid = asked; /* the answer to last edge's request */
        in.seq_psn = (uint32_t)i & 0xFFFFFF;
        in.seq_tpmsn = (uint32_t)i & 0xFFFFFF;
        if (block_step(b, &in, &out, 0))
            mismatch("ub_send_pipeline");
        asked = out.seq_rq;
        pkts += out.pkt_valid;
    }
    return pkts;
}

static long ub_transmit(block_inst_t *b, long n)
{
    ub_tx_in_t in;
    ub_tx_out_t out;
    memset(&in, 0, sizeof in);
    in.wr_valid = 1;
    in.wr_opcode = UB_TA_READ;
    in.wr_mode = URMA_OL;
    in.wr_len = 64;
    in.wr_token = 0x5eed;
    in.pkt_ready = 1;
    in.cfg_tpn_base = 0x100;
    in.cfg_mtu_log2 = 12;
    long pkts = 0;
    for (long i = 0; i < n; i++) {
        in.wr_jetty = (uint32_t)(i & 7);
        in.wr_dst = (uint32_t)(i & 15);
        in.wr_tag = (uint32_t)i;
        in.wr_addr = (uint64_t)i * 64;
        if (block_step(b, &in, &out, 0))
            mismatch("ub_tx");
        pkts += out.pkt_valid;
    }
    return pkts;
}

static long rc_pipeline(block_inst_t *b, long n)
{
    rc_send_pipeline_in_t in;
    rc_send_pipeline_out_t out;
    memset(&in, 0, sizeof in);
    in.wr_valid = 1;
    in.wr_opcode = RC_OP_READ_REQUEST;
    in.wr_len = 64;
    in.pkt_ready = 1;
    in.cfg_mtu_log2 = 12;
    long pkts = 0;
    for (long i = 0; i < n; i++) {
        in.wr_qpn = (uint32_t)(i & 15);
        in.wr_tag = (uint32_t)i;
        in.wr_addr = (uint64_t)i * 64;
        if (block_step(b, &in, &out, 0))
            mismatch("rc_send_pipeline");
        pkts += out.pkt_valid;
    }
    return pkts;
}

enum { UB_BUSY, UB_IDLE, UB_TX, RC_BUSY, N_CASES };

static const char *const case_name[N_CASES] = {"ub_send_pipeline", "ub_send_pipeline_idle", "ub_tx",
                                               "rc_send_pipeline"};
static const block_class_t *case_class(int c)
{
    return c == UB_TX ? &ub_tx_class : c == RC_BUSY ? &rc_send_pipeline_class : &ub_send_pipeline_class;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long whole(const char *s, long lo, long hi, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "block_speed: %s: expected a whole number from %ld to %ld, got '%s'\n", what, lo,
                hi, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc > 3 || (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))) {
        fprintf(argc > 3 ? stderr : stdout, "usage: block_speed [EDGES [REPS]] (defaults 2000000 and 3)\n");
        return argc > 3 ? 2 : 0;
    }
    long n = argc > 1 ? whole(argv[1], 1, 1000000000L, "EDGES") : 2000000;
    int reps = argc > 2 ? (int)whole(argv[2], 1, MAX_REPS, "REPS") : 3;
    static const char *const backend_name[3] = {"c", "rtl", "lockstep"};
    printf("case backend ns_per_edge packets\n");
    for (int c = 0; c < N_CASES; c++) {
        long first_pkts = -1;
        for (int k = 0; k < 3; k++) {
            double t[MAX_REPS];
            long pkts = 0;
            for (int r = 0; r < reps; r++) {
                block_inst_t *b = open_block(case_class(c), (backend_kind_t)k);
                double t0 = seconds();
                pkts = c == UB_BUSY   ? ub_pipeline(b, n, 1)
                       : c == UB_IDLE ? ub_pipeline(b, n, 0)
                       : c == UB_TX   ? ub_transmit(b, n)
                                      : rc_pipeline(b, n);
                t[r] = (seconds() - t0) * 1e9 / (double)n;
                block_free(b);
            }
            if (first_pkts >= 0 && pkts != first_pkts) {
                fprintf(stderr, "block_speed: %s: %ld packets on %s, %ld on c\n", case_name[c], pkts,
                        backend_name[k], first_pkts);
                return 1;
            }
            first_pkts = pkts;
            qsort(t, (size_t)reps, sizeof t[0], by_value);
            double median = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
            printf("%s %s %.1f %ld\n", case_name[c], backend_name[k], median, pkts);
            fflush(stdout);
        }
    }
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "block_speed: cannot write to standard output\n");
        return 1;
    }
    return 0;
}
