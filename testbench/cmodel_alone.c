/* The C models stand alone: this program is compiled with the cmodel/ sources
 * and -Icmodel only (no simulator, no Verilator; `make cmodel-alone`, run by
 * `make all` and `make test`). It steps every block a few cycles, checks
 * that a request comes out as a packet, and exits 0. */
#include <stdio.h>
#include <string.h>

#include "context_cache.h"
#include "nic_pipe.h"
#include "order_tracker.h"
#include "rc_send_pipeline.h"
#include "transport.h"
#include "ub_pkg.h"
#include "ub_send_pipeline.h"
#include "ub_tx.h"

static int fail(const char *what)
{
    fprintf(stderr, "cmodel_alone: %s\n", what);
    return 1;
}

/* The UB transmit path: the send pipeline numbered by its channel table. */
static int ub_send(void)
{
    ub_tx_state_t s;
    ub_tx_in_t in;
    ub_tx_out_t out;
    memset(&in, 0, sizeof in);
    ub_tx_reset(&s);
    in.wr_valid = 1;
    in.wr_opcode = UB_TA_WRITE;
    in.wr_mode = URMA_OL;
    in.wr_jetty = 5;
    in.wr_dst = 3;
    in.wr_tag = 77;
    in.pkt_ready = 1;
    in.cfg_psn_init = 10;
    in.cfg_tpn_base = 0x100;
    for (int c = 0; c < 3 * UBSP_LATENCY; c++) {
        ub_tx_step(&s, &in, &out);
        in.wr_valid = 0;
        if (out.pkt_valid) {
            if (c != UBSP_LATENCY - 1 || out.pkt_tag != 77 || out.pkt_psn != 10 ||
                out.pkt_src_tpn != 0x103 || out.pkt_tp_opcode != UB_TP_RELIABLE ||
                !out.pkt_ack_req)
                return fail("ub_send_pipeline: wrong packet");
            return ub_tx_busy(&s) ? 0 : fail("ub_send_pipeline: not busy");
        }
    }
    return fail("ub_send_pipeline: no packet");
}

static int rc_send(void)
{
    rc_send_pipeline_state_t s;
    rc_send_pipeline_in_t in;
    rc_send_pipeline_out_t out;
    memset(&in, 0, sizeof in);
    rc_send_pipeline_reset(&s);
    in.wr_valid = 1;
    in.wr_qpn = 9;
    in.wr_opcode = RC_OP_READ_REQUEST;
    in.wr_len = 3 * RC_SEND_MTU;
    in.wr_tag = 5;
    in.pkt_ready = 1;
    in.cfg_psn_init = 100;
    in.cfg_mtu_log2 = RC_SEND_MTU_LOG2;
    for (int c = 0; c < 3 * RC_SEND_LATENCY; c++) {
        rc_send_pipeline_step(&s, &in, &out);
        in.wr_valid = 0;
        if (out.pkt_valid) {
            if (c != RC_SEND_LATENCY - 1 || out.pkt_tag != 5 || out.pkt_psn != 100 ||
                out.pkt_dqpn != 9 || !out.pkt_ack_req)
                return fail("rc_send_pipeline: wrong packet");
            return rc_send_psn_count(RC_OP_READ_REQUEST, 3 * RC_SEND_MTU, RC_SEND_MTU_LOG2) == 3
                       ? 0
                       : fail("rc_send_pipeline: PSN count");
        }
    }
    return fail("rc_send_pipeline: no packet");
}

static int pipe(void)
{
    nic_pipe_cfg_t cfg;
    char err[128];
    if (nic_pipe_parse("a:2 b:3", &cfg, err, (int)sizeof err) != 0)
        return fail(err);
    nic_pipe_t p;
    nic_pipe_in_t in = {1, 42, 1};
    nic_pipe_out_t out;
    nic_pipe_init(&p, &cfg);
    nic_pipe_reset(&p, &out);
    for (int c = 0; c < 20; c++) {
        nic_pipe_step(&p, &in, &out);
        in.in_valid = 0;
        if (out.out_valid)
            return c == 4 && out.out_tag == 42 ? 0 : fail("nic_pipe: wrong output");
    }
    return fail("nic_pipe: no output");
}

static int tracker(void)
{
    order_tracker_state_t s;
    order_tracker_in_t in;
    order_tracker_out_t out;
    memset(&in, 0, sizeof in);
    order_tracker_reset(&s);
    in.acc_valid = 1;
    in.acc_q = 2;
    in.acc_mode = URMA_OI;
    in.acc_order = UB_ORDER_NO;
    order_tracker_step(&s, &in, &out);
    return (out.elig >> 2 & 1) && out.busy ? 0 : fail("order_tracker: head not eligible");
}

/* two transports back to back: a packet from one is delivered by the other,
 * whose acknowledgement frees the first's window */
static int transport(void)
{
    static transport_state_t a, b;
    transport_in_t ia, ib;
    transport_out_t oa, ob;
    memset(&ia, 0, sizeof ia);
    memset(&ib, 0, sizeof ib);
    transport_reset(&a);
    transport_reset(&b);
    ia.cfg_window = ib.cfg_window = 8;
    ia.cfg_ooo_cap = ib.cfg_ooo_cap = 8;
    ia.cfg_rto = ib.cfg_rto = 100;
    ia.sq_valid = 1;
    ia.sq_hdl = 7;
    int delivered = 0;
    uint8_t ready = 0; /* sq_ready before the edge (0 until the first) */
    memset(&oa, 0, sizeof oa);
    for (int c = 0; c < 20; c++) {
        const int taken = ia.sq_valid && ready;
        transport_step(&a, &ia, &oa);
        transport_step(&b, &ib, &ob);
        if (taken)
            ia.sq_valid = 0;
        ready = oa.sq_ready;
        ia.pkt_ready = oa.pkt_valid;
        ib.rx_valid = oa.pkt_valid;
        ib.rx_psn = oa.pkt_psn;
        ib.ao_ready = ob.ao_valid && oa.ack_ready;
        ia.ack_valid = ob.ao_valid;
        ia.ack_kind = ob.ao_kind;
        ia.ack_base = ob.ao_base;
        delivered |= ob.dlv_valid;
    }
    return delivered && transport_out_una(&oa, 0) == 1 ? 0 : fail("transport: not delivered and acknowledged");
}

static int cache(void)
{
    static context_cache_state_t s;
    context_cache_in_t in;
    context_cache_out_t out;
    memset(&in, 0, sizeof in);
    context_cache_reset(&s);
    in.cfg_capacity = 1024;
    in.cfg_ways = 4;
    in.cfg_rec_bytes = 56;
    in.cfg_hit_cycles = 1;
    in.rq_valid = 1;
    in.rq_id = 3;
    in.mreq_ready = 1;
    int fetched = 0;
    for (int c = 0; c < 20; c++) {
        context_cache_step(&s, &in, &out);
        in.rq_valid = 0;
        in.fill_valid = out.mreq_valid;
        in.fill_tag = out.mreq_tag;
        fetched |= out.mreq_valid;
        if (out.rsp_valid)
            return fetched && !out.rsp_hit && out.misses == 1 ? 0 : fail("context_cache: wrong answer");
    }
    return fail("context_cache: no answer");
}

int main(void)
{
    int rc = ub_send() | rc_send() | pipe() | tracker() | transport() | cache();
    if (rc == 0)
        printf("cmodel_alone: ub_send_pipeline, rc_send_pipeline, nic_pipe, order_tracker, transport, "
               "context_cache stepped without sim/\n");
    return rc;
}
