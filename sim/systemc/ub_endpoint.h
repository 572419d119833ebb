// A UB endpoint as a SystemC module, and two of them joined by a link.
//
//   ub_endpoint   one node: its verbs host side, its NIC pipelines (the
//                 send pipeline runs as the C model, the Verilated RTL or
//                 both in lockstep) and the delays around them, on the
//                 simulator's kernel, run by a thread in SystemC time.
//                 Sockets (TLM-2.0, base protocol):
//                   host     target: a CPU model posts work requests and
//                            takes completion records (ub_ep_wr, ub_ep_cr;
//                            UB_EP_POST, UB_EP_POLL), cq_event tells it one
//                            arrived;
//                   mem      initiator: the node's memory; the endpoint asks
//                            it for direct memory access to its whole range
//                            and every byte a request moves is read from or
//                            written into it;
//                   link_tx  initiator, link_rx target: packets to and from
//                            the link.
//   ub_link       the medium between two endpoints: every packet is a
//                 transaction (its bytes a msg_t, its address the link
//                 stage) whose delay is its time of flight; it counts them.
//   ub_memory     a plain memory with DMI (each endpoint's, unless one binds
//                 a memory model of one's own).
//   ub_system     two endpoints, a link and their memories, and the engine
//                 (sim/core/engine.h) that runs a simulation split in two
//                 nodes on them: `ubsim latency --engine systemc`.
//   ub_pair       a ub_system built from a path configuration, its host
//                 socket open to a CPU model of one's own (docs/systemc.md).
//
// Time: the simulator's ticks are exact (1/322 ps at 322 MHz); SystemC's
// time is a whole number of femtoseconds (1 fs resolution, set when the
// first ub_system is made). A kernel's instant at tick t runs at SystemC time
// base + floor(t * 1000 / ticks_per_ps) fs: distinct ticks stay distinct and
// in order, and every figure is computed from ticks, so the engine's results
// equal the native simulator's exactly.
#ifndef UB_SC_ENDPOINT_H
#define UB_SC_ENDPOINT_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "config.h"
#include "engine.h"
#include "verbs_net.h"
}

namespace ub_sc {

// Host socket addresses.
enum : uint64_t {
    UB_EP_POST = 0x00, // write a ub_ep_wr: posted at the transaction's time
    UB_EP_POLL = 0x40, // read a ub_ep_cr: the oldest completion (valid 0: none)
};

struct ub_ep_wr {
    uint32_t opcode;     // URMA_OPC_READ or URMA_OPC_WRITE
    uint32_t len;        // bytes
    uint64_t local_va;   // in the initiator's memory
    uint64_t remote_va;  // in the target's memory (its segment is all of it)
    uint64_t user_ctx;   // comes back in the completion
};

struct ub_ep_cr {
    uint32_t valid;      // 1: a record
    uint32_t status;     // urma_cr_status_t
    uint32_t opcode;
    uint32_t len;        // bytes moved
    uint64_t user_ctx;
    uint64_t time_ps;    // when it completed
};

class ub_system;

struct ub_memory : sc_core::sc_module {
    tlm_utils::simple_target_socket<ub_memory> socket;
    ub_memory(sc_core::sc_module_name n, uint64_t size);
    void resize(uint64_t size); // all zero
    uint64_t size() const { return bytes_.size(); }
    uint8_t *data() { return bytes_.data(); }

private:
    std::vector<uint8_t> bytes_;
    void b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &p, tlm::tlm_dmi &dmi);
    unsigned transport_dbg(tlm::tlm_generic_payload &p);
};

struct ub_endpoint : sc_core::sc_module {
    tlm_utils::simple_target_socket<ub_endpoint> host;
    tlm_utils::simple_initiator_socket<ub_endpoint> mem;
    tlm_utils::simple_initiator_socket<ub_endpoint> link_tx;
    tlm_utils::simple_target_socket<ub_endpoint> link_rx;
    sc_core::sc_event cq_event; // a completion record arrived (host socket)
    sc_core::sc_event ready_event; // the host socket takes work requests from now on
    bool ready() const { return ready_; }
    void host_ready(); // (called by the endpoint's host side once it is set up)

    SC_HAS_PROCESS(ub_endpoint);
    ub_endpoint(sc_core::sc_module_name n, ub_system *sys, int node);

    uint64_t instants() const { return instants_; }
    uint64_t packets_sent() const { return sent_; }
    uint64_t packets_received() const { return received_; }

private:
    friend class ub_system;
    ub_system *sys_;
    int node_;
    sc_core::sc_event start_ev_, wake_ev_;
    uint64_t instants_ = 0, sent_ = 0, received_ = 0;
    bool ready_ = false;
    void main();
    void transmit(int link, const msg_t *m);
    void host_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
    void rx_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
};

struct ub_link : sc_core::sc_module {
    tlm_utils::simple_target_socket<ub_link> in_a, in_b;      // from each endpoint
    tlm_utils::simple_initiator_socket<ub_link> out_a, out_b; // to each endpoint
    uint64_t packets[2] = {0, 0};                             // a->b, b->a
    ub_link(sc_core::sc_module_name n);

private:
    void from_a(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
    void from_b(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
};

class ub_system : public sc_core::sc_module {
public:
    ub_endpoint a, b; // the initiator's node, the target's
    ub_link link;
    ub_memory *mem_a = nullptr, *mem_b = nullptr; // their memories (own_memory), else NULL

    // own_memory: the endpoints' mem sockets are bound to mem_a and mem_b,
    // sized for each run (false: bind a.mem and b.mem to memories of one's
    // own, which must give direct memory access to the whole node memory).
    ub_system(sc_core::sc_module_name n, bool own_memory = true);
    // The engine that runs a split simulation on these modules (each run
    // calls sc_start, so it is for a program that leaves SystemC to it).
    const sim_engine_t *engine() { return &eng_; }

protected:
    // a host socket nobody drives is bound to one of these
    std::unique_ptr<tlm_utils::simple_initiator_socket<ub_system>> idle_[2];
    std::unique_ptr<ub_memory> mem_[2];
    void before_end_of_elaboration() override;
    friend struct ub_endpoint;
    sim_engine_t eng_;
    const engine_run_t *r_ = nullptr;
    uint64_t run_id_ = 0;
    int finished_ = 0;
    bool abort_ = false;
    bool host_mode_ = false;   // a CPU posts through a's host socket
    bool own_memory_;
    sc_core::sc_time base_;    // SystemC time of tick 0
    int64_t per_ps_ = 1;
    ub_endpoint *ep_[2];
    urma_host_t *host_ = nullptr; // host mode: the verbs host
    struct host_state *hs_ = nullptr;

    // starts a run on the modules (before sc_start, or between two)
    void begin(const engine_run_t *r, bool host_mode);
    void finish(int node);
    sc_core::sc_time to_sc(tick_t t) const;
    tick_t to_tick(const sc_core::sc_time &t) const; // the first tick at or after t
    void fail(int node, const std::string &why);
    static void send(void *ctx, int link, const msg_t *m);
    static int run(void *ctx, const engine_run_t *r);
};

// A two-node system built from a path configuration (one of the built-in
// ones, by name, or a file), whose host socket a CPU model of one's own
// drives: made before sc_start, it runs when the simulation runs.
class ub_pair : public ub_system {
public:
    ub_pair(sc_core::sc_module_name n, const char *path = "ub_async",
            backend_kind_t backend = BACKEND_C, const char *config_file = nullptr,
            uint64_t mem_bytes = 1u << 20, bool own_memory = true);
    ~ub_pair();
    const path_cfg_t *path() const { return path_; }

private:
    config_t *cfg_ = nullptr;
    const path_cfg_t *path_ = nullptr;
    verbs_net_t *v_ = nullptr;
    engine_run_t run_{};
    void end_of_elaboration() override;
};

} // namespace ub_sc

#endif
