// Verilated RTL backend of the UB send pipeline (rtl/ub_send_pipeline.sv)
// behind the C interface of cmodel/ub_send_pipeline.h.
//
// One VerilatedContext per instance. step(): drive the inputs from the
// struct, raise the clock and evaluate (the edge), read the outputs, lower
// the clock and evaluate: exactly two evaluations per step. Verilator only
// detects the next rising edge if it has seen the clock low, but the falling
// evaluation is nearly free: every output is a register and no
// combinational logic of the RTL reads an input, so Verilator has nothing to
// compute there (no input-combinational "ico" region at all).
//
// Tracing costs nothing unless a trace file is given: only then is tracing
// enabled in the context and an FST writer attached. The model traces
// itself, dumping at now_ps right after the rising edge and half a period
// later. The model's top scope is Verilator's default "TOP", so the ports
// appear as TOP.ub_send_pipeline.<port>_i / _o (the names the C model's port
// dump uses too; waves/ub_send_pipeline.gtkw shows them).
#include <cstdint>
#include <cstdlib>
#include <new>

// Verilator's headers are not clean under -Wextra -Werror.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vub_send_pipeline.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#pragma GCC diagnostic pop

extern "C" {
#include "blocks.h"
}

namespace {

struct Inst {
    VerilatedContext ctx;
    Vub_send_pipeline *top = nullptr;
    VerilatedFstC *fst = nullptr;
    uint64_t period_ps = 0;
    uint64_t last_ps = 0;
    bool dumped = false;
};

void dump(Inst *s, uint64_t t)
{
    if (!s->fst)
        return;
    if (s->dumped && t <= s->last_ps)
        t = s->last_ps + 1; // trace time must increase
    s->fst->dump(t);
    s->last_ps = t;
    s->dumped = true;
}

void drive(Vub_send_pipeline *t, const ub_send_pipeline_in_t *in)
{
    t->wr_valid_i = in->wr_valid & 1u;
    t->wr_opcode_i = in->wr_opcode;
    t->wr_mode_i = in->wr_mode & 7u;
    t->wr_order_i = in->wr_order & 3u;
    t->wr_fence_i = in->wr_fence & 1u;
    t->wr_comp_order_i = in->wr_comp_order & 1u;
    t->wr_jetty_i = in->wr_jetty & 0xFFFFFu;
    t->wr_dst_i = in->wr_dst & 0xFFFFFu;
    t->wr_len_i = in->wr_len;
    t->wr_addr_i = in->wr_addr;
    t->wr_token_i = in->wr_token;
    t->wr_tag_i = in->wr_tag;
    t->pkt_ready_i = in->pkt_ready & 1u;
    t->cfg_psn_init_i = in->cfg_psn_init & 0xFFFFFFu;
    t->cfg_tpn_base_i = in->cfg_tpn_base & 0xFFFFFFu;
}

void sample(const Vub_send_pipeline *t, ub_send_pipeline_out_t *o)
{
    o->wr_ready = t->wr_ready_o;
    o->pkt_valid = t->pkt_valid_o;
    o->pkt_tp_opcode = t->pkt_tp_opcode_o;
    o->pkt_last = t->pkt_last_o;
    o->pkt_src_tpn = t->pkt_src_tpn_o;
    o->pkt_dst_tpn = t->pkt_dst_tpn_o;
    o->pkt_psn = t->pkt_psn_o;
    o->pkt_tpmsn = t->pkt_tpmsn_o;
    o->pkt_ack_req = t->pkt_ack_req_o;
    o->pkt_ta_opcode = t->pkt_ta_opcode_o;
    o->pkt_order = t->pkt_order_o;
    o->pkt_tassn = t->pkt_tassn_o;
    o->pkt_jetty = t->pkt_jetty_o;
    o->pkt_token = t->pkt_token_o;
    o->pkt_len = t->pkt_len_o;
    o->pkt_addr = t->pkt_addr_o;
    o->pkt_tag = t->pkt_tag_o;
    o->pkt_dst = t->pkt_dst_o;
    o->pkt_mode = t->pkt_mode_o;
    o->pkt_comp_order = t->pkt_comp_order_o;
}

} // namespace

extern "C" void *ub_send_pipeline_rtl_create(const char *fst_path, uint64_t period_ps)
{
    Inst *s = new (std::nothrow) Inst;
    if (!s)
        return nullptr;
    s->period_ps = period_ps ? period_ps : 1;
    s->ctx.timeprecision(-12); // trace time unit: 1 ps
    if (fst_path)
        s->ctx.traceEverOn(true);
    s->top = new Vub_send_pipeline(&s->ctx, "TOP");
    if (fst_path) {
        s->fst = new VerilatedFstC;
        s->top->trace(s->fst, 99);
        s->fst->open(fst_path);
    }
    ub_send_pipeline_rtl_reset(s);
    return s;
}

extern "C" void ub_send_pipeline_rtl_reset(void *self)
{
    Inst *s = static_cast<Inst *>(self);
    Vub_send_pipeline *t = s->top;
    ub_send_pipeline_in_t idle = {};
    drive(t, &idle);
    t->clk_i = 0;
    t->rst_ni = 1;
    t->eval();
    t->rst_ni = 0; // asynchronous assert, held across one edge
    t->eval();
    t->clk_i = 1;
    t->eval();
    t->clk_i = 0;
    t->eval();
    t->rst_ni = 1;
    t->eval();
}

extern "C" void ub_send_pipeline_rtl_step(void *self, const void *in, void *out,
                                          uint64_t now_ps)
{
    Inst *s = static_cast<Inst *>(self);
    Vub_send_pipeline *t = s->top;
    drive(t, static_cast<const ub_send_pipeline_in_t *>(in));
    t->clk_i = 1;
    t->eval();
    sample(t, static_cast<ub_send_pipeline_out_t *>(out));
    dump(s, now_ps);
    t->clk_i = 0;
    t->eval();
    dump(s, now_ps + s->period_ps / 2);
}

extern "C" void ub_send_pipeline_rtl_destroy(void *self)
{
    Inst *s = static_cast<Inst *>(self);
    if (!s)
        return;
    if (s->fst) {
        s->fst->close();
        delete s->fst;
    }
    s->top->final();
    delete s->top;
    delete s;
}
