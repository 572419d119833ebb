// RTL backend of the RoCE RC send pipeline: the Verilated
// rtl/rc_send_pipeline.sv behind the block_impl_t functions declared in
// cmodel/rc_send_pipeline.h. One VerilatedContext per instance.
#include <cstdint>
#include <new>

// Verilator's own headers are not clean under -Wextra -Werror.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vrc_send_pipeline.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#pragma GCC diagnostic pop

extern "C" {
#include "blocks.h"
}

namespace {

struct RcSendRtl {
    VerilatedContext *ctx = nullptr;
    Vrc_send_pipeline *top = nullptr;
    VerilatedFstC *fst = nullptr;
    uint64_t half_ps = 0;
    uint64_t last_ps = 0;
    bool dumped = false;
};

// Dumps at t, keeping trace time strictly increasing (reset and steps may
// ask for the same time twice).
void dump(RcSendRtl *r, uint64_t t)
{
    if (!r->fst)
        return;
    if (r->dumped && t <= r->last_ps)
        t = r->last_ps + 1;
    r->fst->dump(t);
    r->last_ps = t;
    r->dumped = true;
}

void drive(Vrc_send_pipeline *t, const rc_send_pipeline_in_t *in)
{
    t->wr_valid_i = in->wr_valid & 1u;
    t->wr_qpn_i = in->wr_qpn & 0xFFFFFFu;
    t->wr_opcode_i = in->wr_opcode;
    t->wr_len_i = in->wr_len;
    t->wr_addr_i = in->wr_addr;
    t->wr_rkey_i = in->wr_rkey;
    t->wr_tag_i = in->wr_tag;
    t->pkt_ready_i = in->pkt_ready & 1u;
    t->cfg_psn_init_i = in->cfg_psn_init & 0xFFFFFFu;
}

void sample(const Vrc_send_pipeline *t, rc_send_pipeline_out_t *out)
{
    out->wr_ready = t->wr_ready_o;
    out->pkt_valid = t->pkt_valid_o;
    out->pkt_opcode = t->pkt_opcode_o;
    out->pkt_ack_req = t->pkt_ack_req_o;
    out->pkt_dqpn = t->pkt_dqpn_o;
    out->pkt_psn = t->pkt_psn_o;
    out->pkt_len = t->pkt_len_o;
    out->pkt_addr = t->pkt_addr_o;
    out->pkt_rkey = t->pkt_rkey_o;
    out->pkt_tag = t->pkt_tag_o;
}

}  // namespace

extern "C" void *rc_send_pipeline_rtl_create(const char *fst_path, uint64_t period_ps)
{
    RcSendRtl *r = new (std::nothrow) RcSendRtl;
    if (!r)
        return nullptr;
    r->ctx = new VerilatedContext;
    r->ctx->debug(0);
    r->ctx->randReset(0);
    r->ctx->timeprecision(-12);  // trace time unit: 1 ps
    r->half_ps = period_ps / 2 ? period_ps / 2 : 1;
    if (fst_path)
        r->ctx->traceEverOn(true);
    r->top = new Vrc_send_pipeline{r->ctx, "TOP"};
    if (fst_path) {
        r->fst = new VerilatedFstC;
        r->top->trace(r->fst, 99);
        r->fst->open(fst_path);
    }
    r->top->clk_i = 0;
    r->top->rst_ni = 1;
    r->top->eval();
    rc_send_pipeline_rtl_reset(r);
    return r;
}

extern "C" void rc_send_pipeline_rtl_reset(void *self)
{
    RcSendRtl *r = static_cast<RcSendRtl *>(self);
    Vrc_send_pipeline *t = r->top;
    const uint64_t t0 = r->dumped ? r->last_ps + 1 : 0;
    t->rst_ni = 0;
    t->clk_i = 0;
    t->eval();
    dump(r, t0);
    t->clk_i = 1;
    t->eval();
    dump(r, t0 + r->half_ps);
    t->clk_i = 0;
    t->eval();
    t->rst_ni = 1;
    t->eval();
    dump(r, t0 + 2 * r->half_ps);
}

extern "C" void rc_send_pipeline_rtl_step(void *self, const void *in, void *out,
                                          uint64_t now_ps)
{
    RcSendRtl *r = static_cast<RcSendRtl *>(self);
    Vrc_send_pipeline *t = r->top;
    drive(t, static_cast<const rc_send_pipeline_in_t *>(in));
    t->clk_i = 1;
    t->eval();
    sample(t, static_cast<rc_send_pipeline_out_t *>(out));
    dump(r, now_ps);
    t->clk_i = 0;
    t->eval();
    dump(r, now_ps + r->half_ps);
}

extern "C" void rc_send_pipeline_rtl_destroy(void *self)
{
    RcSendRtl *r = static_cast<RcSendRtl *>(self);
    if (!r)
        return;
    if (r->fst) {
        r->fst->close();
        delete r->fst;
    }
    r->top->final();
    delete r->top;
    delete r->ctx;
    delete r;
}
