// The example of docs/systemc.md: a CPU model of one's own drives a ub_pair
// through its host socket (100 dependent reads). make test builds and runs it.
#include <cstdio>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include "ub_endpoint.h"   // -Isim/systemc and the simulator's include folders

struct cpu : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<cpu> bus;
    ub_sc::ub_endpoint *ep;
    uint64_t done = 0, last_ps = 0;
    SC_HAS_PROCESS(cpu);
    cpu(sc_core::sc_module_name n, ub_sc::ub_endpoint *e) : sc_module(n), bus("bus"), ep(e)
    {
        SC_THREAD(run);
    }
    void access(tlm::tlm_command cmd, uint64_t addr, void *data, unsigned len)
    {
        tlm::tlm_generic_payload p;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        p.set_command(cmd);
        p.set_address(addr);
        p.set_data_ptr(static_cast<unsigned char *>(data));
        p.set_data_length(len);
        p.set_streaming_width(len);
        bus->b_transport(p, d);
    }
    void run()
    {
        if (!ep->ready())
            wait(ep->ready_event);
        for (uint64_t i = 0; i < 100; i++) {
            ub_sc::ub_ep_wr wr{URMA_OPC_READ, 64, 0x1000, 0x10000 + 64 * i, i};
            access(tlm::TLM_WRITE_COMMAND, ub_sc::UB_EP_POST, &wr, sizeof wr);
            ub_sc::ub_ep_cr cr{};
            while (access(tlm::TLM_READ_COMMAND, ub_sc::UB_EP_POLL, &cr, sizeof cr), !cr.valid)
                wait(ep->cq_event);
            // cr.time_ps: when read i completed; its 64 B are at 0x1000 in pair.mem_a
            done += cr.status == URMA_CR_SUCCESS && cr.user_ctx == i;
            last_ps = cr.time_ps;
        }
    }
};

int sc_main(int, char **)
{
    ub_sc::ub_pair pair("pair", "ub_async", BACKEND_RTL); // first: it sets 1 fs
    cpu c("cpu", &pair.a);
    c.bus.bind(pair.a.host);
    sc_core::sc_start();
    std::printf("sc_cpu_example: %llu reads, the last completed at %llu ps\n",
                (unsigned long long)c.done, (unsigned long long)c.last_ps);
    return c.done == 100 ? 0 : 1;
}
