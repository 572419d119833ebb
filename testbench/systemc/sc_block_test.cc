// The SystemC models of the blocks (sim/systemc/sc_block.h) against the
// simulator's own blocks: each module, on the C model, on the Verilated RTL
// and in lockstep, clocked by an sc_clock of the NIC's 322 MHz, gives on its
// ports, edge after edge, the outputs a block stepped natively gives with the
// same inputs; lockstep finds no mismatch. Prints "N passed, N failed".
#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>

#include "sc_check.h"

#include "sc_block.h"

namespace {

const uint64_t kPeriodPs = 3106;  // 322 MHz
using sc_check::check;

// One block's three modules on shared input wires, and a native block.
template <class Mod, class Wires, class In, class Out>
struct Bench {
    const block_class_t *cls;
    Wires w_c, w_rtl, w_ls;  // each module's wires, all driven with the same inputs
    Mod m_c, m_rtl, m_ls;
    block_inst_t *native = nullptr;
    In in{};
    Out expect{}, before{};
    uint64_t diffs = 0, edges = 0;
    uint64_t active = 0;  // edges after which some output was not 0
    uint64_t late = 0;    // edges at which the ports differ from the native
                          // outputs one edge late (the check is not blind)
    std::string first;

    Bench(const char *name, const block_class_t *c, sc_core::sc_clock &clk)
        : cls(c),
          m_c((std::string(name) + "_c").c_str(), BACKEND_C, kPeriodPs),
          m_rtl((std::string(name) + "_rtl").c_str(), BACKEND_RTL, kPeriodPs),
          m_ls((std::string(name) + "_lockstep").c_str(), BACKEND_LOCKSTEP, kPeriodPs)
    {
        for (Mod *m : {&m_c, &m_rtl, &m_ls})
            m->clk_i(clk);
        bind_inputs(m_c, w_c);
        bind_inputs(m_rtl, w_rtl);
        bind_inputs(m_ls, w_ls);
        char err[256] = "";
        block_opts_t o{};
        o.kind = BACKEND_C;
        o.period_ps = kPeriodPs;
        native = block_new(c, &o, err, sizeof err);
        if (!native)
            std::printf("native %s: %s\n", name, err);
    }
    ~Bench() { block_free(native); }

    // each module gets its own wires (outputs), all fed the same inputs
    void bind_inputs(Mod &m, Wires &w) { w.bind(m); }

    // At a falling edge: compare what the modules show after the last rising
    // edge, then drive the next inputs and step the native block with them.
    void fall(const In &next)
    {
        if (edges > 0) {
            Wires *ws[3] = {&w_c, &w_rtl, &w_ls};
            const char *fl[3] = {"c", "rtl", "lockstep"};
            for (int f = 0; f < 3; f++) {
                Out got{};
                ws[f]->sample(&got);
                int off = 0;
                for (int p = 0; p < cls->n_out; p++) {
                    if (!port_equal(&cls->out_ports[p], &got, &expect)) {
                        if (!diffs)
                            first = std::string(fl[f]) + ", edge " + std::to_string(edges - 1) + ", port " +
                                    cls->out_ports[p].name;
                        diffs++;
                    }
                    off |= !port_equal(&cls->out_ports[p], &got, &before);
                }
                late += f == 0 && off;
            }
            static const Out zero{};
            int any = 0;
            for (int p = 0; p < cls->n_out; p++)
                any |= !port_equal(&cls->out_ports[p], &expect, &zero);
            active += any;
        }
        before = expect;
        in = next;
        w_c.drive(&in);
        w_rtl.drive(&in);
        w_ls.drive(&in);
        block_step(native, &in, &expect, 0);
        edges++;
    }
};

template <class B>
void report(const char *name, B &b)
{
    check(b.native != nullptr, std::string(name) + ": native block");
    check(b.diffs == 0, std::string(name) + ": SystemC ports equal the native block's outputs (first: " +
                            b.first + ")");
    check(b.m_ls.mismatches() == 0, std::string(name) + ": lockstep finds no mismatch");
    check(b.active > b.edges / 10, std::string(name) + ": the stimulus moves the outputs (" +
                                       std::to_string(b.active) + " active edges)");
    check(b.late > 0, std::string(name) + ": outputs one edge late would be caught");
    check(b.m_c.cycles() + 1 == b.edges && b.m_rtl.cycles() + 1 == b.edges,
          std::string(name) + ": one step per edge (" + std::to_string(b.m_c.cycles()) + " steps, " +
              std::to_string(b.edges) + " edges driven)");
    std::printf("%s: %llu edges (%llu with an output not 0), %llu differences, lockstep mismatches %llu\n",
                name, (unsigned long long)b.edges, (unsigned long long)b.active, (unsigned long long)b.diffs,
                (unsigned long long)b.m_ls.mismatches());
}

}  // namespace

int sc_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    const long n = std::getenv("UBSIM_TEST_SHORT") ? 5000 : 50000;
    // the first rising edge half a period in, so that the inputs of edge 0
    // are on the wires before it
    sc_core::sc_clock clk("nic_clk", sc_core::sc_time((double)kPeriodPs, sc_core::SC_PS), 0.5,
                          sc_core::sc_time((double)kPeriodPs / 2, sc_core::SC_PS), true);

    Bench<ub_tx_sc, ub_tx_sc_wires, ub_tx_in_t, ub_tx_out_t> ub("ub_tx", &ub_tx_class, clk);
    Bench<rc_send_pipeline_sc, rc_send_pipeline_sc_wires, rc_send_pipeline_in_t, rc_send_pipeline_out_t> rc(
        "rc_send_pipeline", &rc_send_pipeline_class, clk);
    Bench<order_tracker_sc, order_tracker_sc_wires, order_tracker_in_t, order_tracker_out_t> ot(
        "order_tracker", &order_tracker_class, clk);
    Bench<transport_sc, transport_sc_wires, transport_in_t, transport_out_t> tp("transport", &transport_class,
                                                                               clk);
    Bench<context_cache_sc, context_cache_sc_wires, context_cache_in_t, context_cache_out_t> cc(
        "context_cache", &context_cache_class, clk);

    std::mt19937_64 rng(2026);
    struct Driver : sc_core::sc_module {
        std::function<void()> body;
        SC_HAS_PROCESS(Driver);
        Driver(sc_core::sc_module_name nm, std::function<void()> b) : sc_core::sc_module(nm), body(b)
        {
            SC_THREAD(run);
        }
        void run() { body(); }
    };
    Driver drv("driver", [&]() {
        // the first inputs before the first rising edge (at time 0)
        for (long e = 0; e <= n; e++) {
            if (e > 0)
                sc_core::wait(clk.negedge_event());
            ub_tx_in_t u{};
            uint64_t r = rng();
            u.wr_valid = (r & 3) != 0;
            u.wr_opcode = (uint8_t)(r >> 8);
            u.wr_mode = (uint8_t)((r >> 16) & 7);
            u.wr_order = (uint8_t)((r >> 19) & 3);
            u.wr_fence = (r >> 21) & 1;
            u.wr_jetty = (uint32_t)((r >> 24) & 15);
            u.wr_dst = (uint32_t)(r >> 44) & 0xFFFFF;
            u.wr_len = (uint32_t)(rng() % 4097);
            u.wr_addr = rng();
            u.wr_tag = (uint32_t)e;
            u.pkt_ready = (rng() % 4) != 0;
            u.cmp_valid = (rng() % 4) == 0;
            u.cmp_q = (uint8_t)(rng() % 8);
            u.cfg_mtu_log2 = 8;
            u.cfg_tpn_base = 0x100;
            u.cfg_psn_init = 0xFFFF00;
            ub.fall(u);
            rc_send_pipeline_in_t q{};
            q.wr_valid = (rng() & 1) != 0;
            q.wr_opcode = (uint8_t)(rng() % 2 ? RC_OP_READ_REQUEST : RC_OP_WRITE_ONLY);
            q.wr_qpn = (uint32_t)(rng() % 16);
            q.wr_len = (uint32_t)(rng() % 2048);
            q.wr_tag = (uint32_t)e;
            q.pkt_ready = (rng() % 3) != 0;
            q.cfg_mtu_log2 = 8;
            rc.fall(q);
            order_tracker_in_t o{};
            uint64_t ro = rng();
            o.acc_valid = ro & 1;
            o.acc_q = (uint8_t)((ro >> 1) & 7);
            o.acc_mode = (uint8_t)((ro >> 4) % 5);
            o.acc_order = (uint8_t)((ro >> 8) & 3);
            o.acc_fence = (ro >> 10) & 1;
            o.pick_valid = (ro >> 11) & 1;
            o.pick_q = (uint8_t)((ro >> 12) & 7);
            o.cmp_valid = (ro >> 15) & 1;
            o.cmp_q = (uint8_t)((ro >> 16) & 7);
            ot.fall(o);
            transport_in_t t{};
            t.cfg_window = 64;
            t.cfg_ooo_cap = 64;
            t.cfg_rto = 200;
            t.cfg_retry_max = 3;
            t.sq_valid = (rng() % 4) == 0;
            t.sq_ch = (uint8_t)(rng() % 4);
            t.sq_hdl = (uint16_t)e;
            t.pkt_ready = 1;
            t.ao_ready = 1;
            tp.fall(t);
            context_cache_in_t c{};
            c.cfg_capacity = 4096;
            c.cfg_sets_log2 = 2;
            c.cfg_ways = 8;
            c.cfg_rec_bytes = 56;
            c.cfg_hit_cycles = 2;
            c.rq_valid = (rng() % 3) == 0;
            c.rq_id = (uint32_t)(rng() % 64);
            c.rq_tag = (uint8_t)e;
            c.mreq_ready = 1;
            cc.fall(c);
        }
        sc_core::wait(clk.negedge_event());
        ub.fall(ub.in);  // (compares the last edge)
        rc.fall(rc.in);
        ot.fall(ot.in);
        tp.fall(tp.in);
        cc.fall(cc.in);
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    report("ub_tx", ub);
    report("rc_send_pipeline", rc);
    report("order_tracker", ot);
    report("transport", tp);
    report("context_cache", cc);
    return sc_check::finish("sc_block_test");
}
