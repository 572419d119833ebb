// The SystemC endpoint as a user drives it (sim/systemc/ub_endpoint.h): a
// CPU module of the test's own posts dependent reads (and writes) through
// the host socket of a ub_pair and waits on its completion event. Checked:
// every completion comes back once, in order, with its bytes in the
// initiator's memory equal to the target's (both memories behind the
// endpoints' mem sockets, one of them a memory the test binds itself);
// the link module carried one request and one response per read; and the
// mean time from post to completion, measured in SystemC time, equals the
// native simulator's mean total for the same reads on the same path to the
// femtosecond, on the C model and on the RTL. Prints "N passed, N failed".
#include <systemc>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sc_check.h"

#include "ub_endpoint.h"

extern "C" {
#include "latency.h"
#include "urma.h"
}

using namespace sc_core;
using ub_sc::ub_ep_cr;
using ub_sc::ub_ep_wr;

namespace {

using sc_check::check;

// A CPU model: n dependent 64 B reads of the target's memory, then n_wr
// writes of 256 B, each posted the moment the previous one completed.
struct Cpu : sc_module {
    tlm_utils::simple_initiator_socket<Cpu> bus;
    ub_sc::ub_endpoint *ep = nullptr;
    ub_sc::ub_memory *ma = nullptr, *mb = nullptr; // the initiator's and the target's
    uint8_t *mem_a = nullptr, *mem_b = nullptr;
    int n = 0, n_wr = 0;
    // measured
    double sum_fs = 0;
    int completed = 0, in_order = 0, bytes_ok = 0, writes_ok = 0;
    bool done = false;

    SC_HAS_PROCESS(Cpu);
    explicit Cpu(sc_module_name nm) : sc_module(nm), bus("bus") { SC_THREAD(run); }

    // One transaction on the host socket; true when it was answered OK.
    bool access(tlm::tlm_command cmd, uint64_t addr, void *data, unsigned len)
    {
        tlm::tlm_generic_payload p;
        sc_time d = SC_ZERO_TIME;
        p.set_command(cmd);
        p.set_address(addr);
        p.set_data_ptr(static_cast<unsigned char *>(data));
        p.set_data_length(len);
        p.set_streaming_width(len);
        bus->b_transport(p, d);
        return p.is_response_ok();
    }

    bool post(uint32_t opc, uint32_t len, uint64_t local, uint64_t remote, uint64_t ctx)
    {
        ub_ep_wr wr{opc, len, local, remote, ctx};
        return access(tlm::TLM_WRITE_COMMAND, ub_sc::UB_EP_POST, &wr, sizeof wr);
    }

    ub_ep_cr poll()
    {
        ub_ep_cr cr{};
        access(tlm::TLM_READ_COMMAND, ub_sc::UB_EP_POLL, &cr, sizeof cr);
        return cr;
    }

    ub_ep_cr wait_one()
    {
        for (;;) {
            ub_ep_cr cr = poll();
            if (cr.valid)
                return cr;
            wait(ep->cq_event);
        }
    }

    void run()
    {
        if (!ep->ready())
            wait(ep->ready_event);
        mem_a = ma->data();
        mem_b = mb->data();
        for (uint64_t i = 0; i < 0x10000; i++)
            mem_b[0x10000 + i] = (uint8_t)(i * 7 + 3);
        for (int i = 0; i < n; i++) {
            uint64_t local = 0x1000 + (uint64_t)(i % 16) * 64, remote = 0x10000 + (uint64_t)(i % 1024) * 64;
            sc_time t0 = sc_time_stamp();
            if (!post(URMA_OPC_READ, 64, local, remote, (uint64_t)i))
                break;
            ub_ep_cr cr = wait_one();
            sum_fs += (double)(sc_time_stamp() - t0).value();
            completed++;
            in_order += cr.user_ctx == (uint64_t)i && cr.status == URMA_CR_SUCCESS && cr.len == 64;
            bytes_ok += std::memcmp(mem_a + local, mem_b + remote, 64) == 0;
        }
        for (int i = 0; i < n_wr; i++) {
            uint64_t local = 0x8000, remote = 0x40000 + (uint64_t)i * 256;
            for (int b = 0; b < 256; b++)
                mem_a[local + b] = (uint8_t)(i + b);
            if (!post(URMA_OPC_WRITE, 256, local, remote, 1000 + (uint64_t)i))
                break;
            ub_ep_cr cr = wait_one();
            writes_ok += cr.user_ctx == 1000 + (uint64_t)i && cr.status == URMA_CR_SUCCESS &&
                         std::memcmp(mem_a + local, mem_b + remote, 256) == 0;
        }
        done = true;
    }
};

// What the native simulator measures for n dependent reads on the path.
double native_mean_fs(const path_cfg_t *path, backend_kind_t be, int n)
{
    latency_opts_t o{};
    o.ops = n;
    o.slots = 1;
    o.payload = 64;
    o.backend = be;
    latency_result_t r;
    char err[512];
    if (latency_run(path, &o, &r, err, sizeof err)) {
        check(false, std::string("native run: ") + err);
        return -1;
    }
    return (double)r.sim_sum * 1000.0 / (double)r.tb.per_ps / n;
}

}  // namespace

int sc_main(int, char **)
{
    sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
    const int n = std::getenv("UBSIM_TEST_SHORT") ? 50 : 300, n_wr = 20;

    // on the C model, with its own memories
    ub_sc::ub_pair c_pair("c_pair", "ub_async", BACKEND_C);
    // on the RTL, its target's memory a module of the test's
    ub_sc::ub_memory their_a("their_a", 1u << 20), their_b("their_b", 2u << 20);
    ub_sc::ub_pair rtl_pair("rtl_pair", "ub_async", BACKEND_RTL, nullptr, 1u << 20, false);
    rtl_pair.a.mem.bind(their_a.socket);
    rtl_pair.b.mem.bind(their_b.socket);
    // the PCIe NIC's path too
    ub_sc::ub_pair rc_pair("rc_pair", "pcie_nic", BACKEND_C);

    struct Bench {
        const char *name;
        ub_sc::ub_pair *pair;
        Cpu *cpu;
        backend_kind_t be;
    } b[3] = {{"ub_async on C", &c_pair, new Cpu("cpu_c"), BACKEND_C},
              {"ub_async on RTL", &rtl_pair, new Cpu("cpu_rtl"), BACKEND_RTL},
              {"pcie_nic on C", &rc_pair, new Cpu("cpu_rc"), BACKEND_C}};
    for (auto &x : b) {
        x.cpu->bus.bind(x.pair->a.host);
        x.cpu->ep = &x.pair->a;
        x.cpu->n = n;
        x.cpu->n_wr = n_wr;
    }
    b[0].cpu->ma = c_pair.mem_a;
    b[0].cpu->mb = c_pair.mem_b;
    b[1].cpu->ma = &their_a;
    b[1].cpu->mb = &their_b;
    b[2].cpu->ma = rc_pair.mem_a;
    b[2].cpu->mb = rc_pair.mem_b;
    sc_start(sc_time(10, SC_MS));

    for (auto &x : b) {
        Cpu *c = x.cpu;
        std::string nm = x.name;
        check(c->done, nm + ": the CPU finished");
        check(c->completed == n, nm + ": " + std::to_string(c->completed) + " of " + std::to_string(n) +
                                     " reads completed");
        check(c->in_order == n, nm + ": every completion in order, successful, 64 B (" +
                                    std::to_string(c->in_order) + ")");
        check(c->bytes_ok == n, nm + ": every read brought the target's bytes (" + std::to_string(c->bytes_ok) +
                                    ")");
        check(c->writes_ok == n_wr, nm + ": every write landed in the target's memory (" +
                                        std::to_string(c->writes_ok) + ")");
        check(x.pair->link.packets[0] == (uint64_t)(n + n_wr) && x.pair->link.packets[1] == (uint64_t)(n + n_wr),
              nm + ": the link carried " + std::to_string(x.pair->link.packets[0]) + " requests and " +
                  std::to_string(x.pair->link.packets[1]) + " answers");
        double mean_fs = c->completed ? c->sum_fs / c->completed : 0;
        double native = native_mean_fs(x.pair->path(), x.be, n);
        char line[200];
        std::snprintf(line, sizeof line, "%s: mean read %.6f ns through the host socket, native %.6f ns",
                      x.name, mean_fs / 1e6, native / 1e6);
        std::printf("%s\n", line);
        check(std::fabs(mean_fs - native) <= 1.0, std::string(line) + ": equal to 1 fs");
    }
    return sc_check::finish("sc_endpoint_test");
}
