// The SystemC endpoint, link, memory and engine (ub_endpoint.h).
#include "ub_endpoint.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>

extern "C" {
#include "sc_engine.h"
#include "urma.h"
#include "urma_host.h"
}

using namespace sc_core;

namespace ub_sc {

// ---- memory ------------------------------------------------------------------

ub_memory::ub_memory(sc_module_name n, uint64_t size) : sc_module(n), socket("socket"), bytes_(size)
{
    socket.register_b_transport(this, &ub_memory::b_transport);
    socket.register_get_direct_mem_ptr(this, &ub_memory::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &ub_memory::transport_dbg);
}

void ub_memory::resize(uint64_t size)
{
    bytes_.assign(size, 0);
}

unsigned ub_memory::transport_dbg(tlm::tlm_generic_payload &p)
{
    uint64_t a = p.get_address();
    unsigned len = p.get_data_length();
    if (a > bytes_.size() || len > bytes_.size() - a)
        return 0;
    if (p.is_read())
        std::memcpy(p.get_data_ptr(), bytes_.data() + a, len);
    else if (p.is_write())
        std::memcpy(bytes_.data() + a, p.get_data_ptr(), len);
    return len;
}

void ub_memory::b_transport(tlm::tlm_generic_payload &p, sc_time &)
{
    if (p.get_byte_enable_ptr() || p.get_streaming_width() < p.get_data_length()) {
        p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    uint64_t a = p.get_address();
    if (a > bytes_.size() || p.get_data_length() > bytes_.size() - a) {
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    transport_dbg(p);
    p.set_dmi_allowed(true);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool ub_memory::get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi &dmi)
{
    if (bytes_.empty())
        return false;
    dmi.set_dmi_ptr(bytes_.data());
    dmi.set_start_address(0);
    dmi.set_end_address(bytes_.size() - 1);
    dmi.allow_read_write();
    dmi.set_read_latency(SC_ZERO_TIME);
    dmi.set_write_latency(SC_ZERO_TIME);
    return true;
}

// ---- link ------------------------------------------------------------------------

ub_link::ub_link(sc_module_name n)
    : sc_module(n), in_a("in_a"), in_b("in_b"), out_a("out_a"), out_b("out_b")
{
    in_a.register_b_transport(this, &ub_link::from_a);
    in_b.register_b_transport(this, &ub_link::from_b);
}

void ub_link::from_a(tlm::tlm_generic_payload &p, sc_time &d)
{
    packets[0]++;
    out_b->b_transport(p, d);
}

void ub_link::from_b(tlm::tlm_generic_payload &p, sc_time &d)
{
    packets[1]++;
    out_a->b_transport(p, d);
}

// ---- endpoint --------------------------------------------------------------------

ub_endpoint::ub_endpoint(sc_module_name n, ub_system *sys, int node)
    : sc_module(n), host("host"), mem("mem"), link_tx("link_tx"), link_rx("link_rx"), sys_(sys),
      node_(node)
{
    host.register_b_transport(this, &ub_endpoint::host_transport);
    link_rx.register_b_transport(this, &ub_endpoint::rx_transport);
    SC_THREAD(main);
}

// The node's kernel, run in SystemC time: each of its instants at the
// SystemC time of its tick, woken early by a packet that arrives (or a post
// on the host socket).
void ub_endpoint::main()
{
    uint64_t seen = 0;
    for (;;) {
        while (!sys_->r_ || sys_->run_id_ == seen)
            wait(start_ev_);
        seen = sys_->run_id_;
        const engine_run_t *r = sys_->r_;
        kernel_t *k = r->k[node_];
        while (!engine_done(r) && !sys_->abort_) {
            tick_t nt = kernel_next_time(k);
            if (nt == TICK_NEVER) {
                wait(wake_ev_);
                continue;
            }
            sc_time at = sys_->to_sc(nt), now = sc_time_stamp();
            if (at > now) {
                wait(at - now, wake_ev_);
                continue;
            }
            if (at < now) {
                kernel_fail(k, "internal: %s has an instant at %s, before the SystemC time %s",
                            name(), at.to_string().c_str(), now.to_string().c_str());
                break;
            }
            engine_bound(r, node_);
            if (sys_->host_mode_ && k->ext_horizon > nt + 1)
                k->ext_horizon = nt + 1; /* a post (and what follows it) may come at any moment */
            kernel_run_until(k, nt);
            instants_++;
        }
        sys_->finish(node_);
    }
}

void ub_endpoint::host_ready()
{
    ready_ = true;
    ready_event.notify();
}

void ub_endpoint::transmit(int link, const msg_t *m)
{
    msg_t copy = *m;
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_address((uint64_t)link);
    p.set_data_ptr(reinterpret_cast<unsigned char *>(&copy));
    p.set_data_length(sizeof copy);
    p.set_streaming_width(sizeof copy);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time at = sys_->to_sc(m->t), now = sc_time_stamp();
    sc_time d = at > now ? at - now : SC_ZERO_TIME; // its time of flight
    sent_++;
    link_tx->b_transport(p, d);
    if (p.get_response_status() != tlm::TLM_OK_RESPONSE)
        sys_->fail(node_, std::string(name()) + ": the link refused a packet (" +
                              p.get_response_string() + ")");
}

void ub_endpoint::rx_transport(tlm::tlm_generic_payload &p, sc_time &)
{
    const engine_run_t *r = sys_->r_;
    if (!r || p.get_data_length() != sizeof(msg_t) || !p.is_write()) {
        p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    msg_t m;
    std::memcpy(&m, p.get_data_ptr(), sizeof m);
    received_++;
    if (r->deliver(r->net, (int)p.get_address(), &m)) {
        p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    wake_ev_.notify(); // its next instant may be earlier now
}

// ---- the host socket (host mode) -----------------------------------------------------

struct host_state {
    urma_context_t *ini = nullptr, *tgt = nullptr;
    urma_jfc_t *jfc = nullptr;
    urma_jfs_t *jfs = nullptr;
    urma_target_seg_t *tseg = nullptr;
    ub_endpoint *ep = nullptr;
};

static void on_cq(urma_jfc_t *, void *arg)
{
    static_cast<host_state *>(arg)->ep->cq_event.notify();
}

// The host side's verbs objects, at time 0: a completion queue, a Jetty,
// and the target's whole memory as a segment imported by the initiator.
static int host_start(void *arg, urma_context_t *const *nodes, int n)
{
    host_state *s = static_cast<host_state *>(arg);
    if (n < 2)
        return -1;
    s->ini = nodes[0];
    s->tgt = nodes[1];
    uint64_t size = 0;
    urma_node_memory(s->tgt, &size);
    urma_seg_cfg_t sc = {.va = 0, .len = size, .token = 0x5eed, .access = URMA_ACCESS_WRITE};
    urma_seg_t *seg = urma_register_seg(s->tgt, &sc);
    if (!seg) {
        urma_fail(s->ini, "the target's memory as a segment: %s", urma_last_error(s->tgt));
        return -1;
    }
    urma_seg_info_t info = urma_seg_info(seg);
    s->tseg = urma_import_seg(s->ini, &info, 0x5eed);
    urma_jfc_cfg_t qc = {.depth = 4096, .notify = on_cq, .arg = s};
    s->jfc = s->tseg ? urma_create_jfc(s->ini, &qc) : nullptr;
    urma_jetty_cfg_t jc = {.jfs = {.depth = 1024, .jfc = s->jfc, .mode = URMA_TM_DEFAULT}, .jfr = nullptr};
    urma_jetty_t *jt = s->jfc ? urma_create_jetty(s->ini, &jc) : nullptr;
    if (!jt) {
        urma_fail(s->ini, "the initiator's queues: %s", urma_last_error(s->ini));
        return -1;
    }
    s->jfs = urma_jetty_jfs(jt);
    s->ep->host_ready();
    return 0;
}

void ub_endpoint::host_transport(tlm::tlm_generic_payload &p, sc_time &d)
{
    host_state *s = sys_->hs_;
    const engine_run_t *r = sys_->r_;
    if (node_ != 0 || !s || !r || !s->jfs) {
        p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (p.get_address() == UB_EP_POST && p.is_write() && p.get_data_length() == sizeof(ub_ep_wr)) {
        ub_ep_wr wr;
        std::memcpy(&wr, p.get_data_ptr(), sizeof wr);
        kernel_t *k = r->k[0];
        tick_t t = sys_->to_tick(sc_time_stamp() + d);
        if (t < k->now)
            t = k->now;
        if (t == k->clocked_at)
            t++; /* the clocked parts of that instant have run: a tick later */
        urma_host_at(sys_->host_, t);
        int rc = wr.opcode == URMA_OPC_READ
                     ? urma_read(s->jfs, s->tseg, wr.local_va, wr.remote_va, wr.len, wr.user_ctx)
                 : wr.opcode == URMA_OPC_WRITE
                     ? urma_write(s->jfs, s->tseg, wr.remote_va, wr.local_va, wr.len, wr.user_ctx)
                     : URMA_EINVAL;
        if (rc) {
            SC_REPORT_WARNING("ub_endpoint", (std::string(name()) + ": post refused: " +
                                              urma_last_error(s->ini)).c_str());
            p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        wake_ev_.notify();
        p.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (p.get_address() == UB_EP_POLL && p.is_read() && p.get_data_length() == sizeof(ub_ep_cr)) {
        urma_cr_t cr;
        ub_ep_cr out{};
        if (urma_poll_jfc(s->jfc, 1, &cr) == 1) {
            out.valid = 1;
            out.status = (uint32_t)cr.status;
            out.opcode = (uint32_t)cr.opcode;
            out.len = cr.completion_len;
            out.user_ctx = cr.user_ctx;
            out.time_ps = cr.time_ps;
        }
        std::memcpy(p.get_data_ptr(), &out, sizeof out);
        p.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// ---- system -----------------------------------------------------------------------

static void fs_resolution()
{
    static bool set = false;
    if (!set) {
        set = true;
        try {
            sc_set_time_resolution(1, SC_FS);
        } catch (const std::exception &) {
            /* fixed already: by the caller, or by an earlier sc_time */
        }
    }
    double res = sc_get_time_resolution().to_seconds();
    if (res < 0.999e-15 || res > 1.001e-15)
        SC_REPORT_ERROR("ub_system", "the SystemC time resolution must be 1 fs: make the ub_system "
                                     "before any other sc_time, or call "
                                     "sc_set_time_resolution(1, SC_FS) first");
}

ub_system::ub_system(sc_module_name n, bool own_memory)
    : sc_module(n), a("a", this, 0), b("b", this, 1), link("link"), own_memory_(own_memory)
{
    fs_resolution();
    ep_[0] = &a;
    ep_[1] = &b;
    a.link_tx.bind(link.in_a);
    b.link_tx.bind(link.in_b);
    link.out_a.bind(a.link_rx);
    link.out_b.bind(b.link_rx);
    if (own_memory) {
        mem_[0].reset(new ub_memory("mem_a", 0));
        mem_[1].reset(new ub_memory("mem_b", 0));
        mem_a = mem_[0].get();
        mem_b = mem_[1].get();
        a.mem.bind(mem_a->socket);
        b.mem.bind(mem_b->socket);
    }
    eng_.name = "systemc";
    eng_.ctx = this;
    eng_.send = &ub_system::send;
    eng_.run = &ub_system::run;
}

void ub_system::before_end_of_elaboration()
{
    for (int i = 0; i < 2; i++) {
        if (ep_[i]->host.get_base_port().size() != 0)
            continue;
        idle_[i].reset(new tlm_utils::simple_initiator_socket<ub_system>(i ? "idle_b" : "idle_a"));
        idle_[i]->bind(ep_[i]->host);
    }
}

sc_time ub_system::to_sc(tick_t t) const
{
    __int128 fs = (__int128)t * 1000 / per_ps_;
    return base_ + sc_time::from_value((sc_dt::uint64)fs);
}

tick_t ub_system::to_tick(const sc_time &t) const
{
    if (t <= base_)
        return 0;
    __int128 fs = (__int128)(t - base_).value();
    /* the first tick whose time is at or after t: floor(tick*1000/L) >= fs,
     * that is tick*1000/L >= fs (fs is whole), tick = ceil(fs*L/1000) */
    return (tick_t)((fs * per_ps_ + 999) / 1000);
}

void ub_system::fail(int node, const std::string &why)
{
    if (r_)
        kernel_fail(r_->k[node], "%s", why.c_str());
}

static void wake_node(void *ctx)
{
    static_cast<sc_event *>(ctx)->notify();
}

void ub_system::begin(const engine_run_t *r, bool host_mode)
{
    r_ = r;
    host_mode_ = host_mode;
    abort_ = false;
    finished_ = 0;
    per_ps_ = r->k[0]->tb.per_ps;
    base_ = sc_time_stamp();
    run_id_++;
    if (per_ps_ > 1000) {
        kernel_fail(r->k[0], "the SystemC engine keeps time in femtoseconds: a time base of %lld "
                             "ticks per ps (several clocks) is finer than that",
                    (long long)per_ps_);
        return;
    }
    /* the nodes' memories: behind the mem sockets, by direct memory access */
    for (int i = 0; i < 2 && r->use_memory; i++) {
        if (own_memory_)
            mem_[i]->resize(r->mem_size[i]);
        tlm::tlm_generic_payload p;
        tlm::tlm_dmi dmi;
        p.set_command(tlm::TLM_READ_COMMAND);
        p.set_address(0);
        if (!ep_[i]->mem->get_direct_mem_ptr(p, dmi) || !dmi.is_read_write_allowed() ||
            dmi.get_start_address() != 0 || dmi.get_end_address() + 1 < r->mem_size[i]) {
            kernel_fail(r->k[0], "%s: the memory behind its mem socket must give direct access to "
                                 "[0, %llu) for reading and writing",
                        ep_[i]->name(), (unsigned long long)r->mem_size[i]);
            return;
        }
        if (r->use_memory(r->owner, i, dmi.get_dmi_ptr(), dmi.get_end_address() + 1)) {
            kernel_fail(r->k[0], "%s: its memory is too small", ep_[i]->name());
            return;
        }
    }
    /* a node woken from outside its own runs (a send landing at the target
     * wakes the initiator's host, a post from the CPU) looks again */
    for (int i = 0; i < 2; i++) {
        r->k[i]->on_wake = wake_node;
        r->k[i]->on_wake_ctx = &ep_[i]->wake_ev_;
    }
    for (auto *e : ep_)
        e->start_ev_.notify(SC_ZERO_TIME);
}

void ub_system::finish(int)
{
    finished_++;
    for (auto *e : ep_)
        e->wake_ev_.notify();
    if (finished_ == 2) {
        for (int i = 0; i < 2; i++)
            r_->k[i]->on_wake = nullptr;
        r_ = nullptr;
    }
}

void ub_system::send(void *ctx, int link, const msg_t *m)
{
    ub_system *s = static_cast<ub_system *>(ctx);
    const engine_run_t *r = s->r_;
    int from = 1 - r->far_node[link];
    s->ep_[from]->transmit(link, m);
    /* what it sent may make the far end due earlier: the sender may not run
     * its own edges past that */
    engine_bound(r, from);
}

int ub_system::run(void *ctx, const engine_run_t *r)
{
    ub_system *s = static_cast<ub_system *>(ctx);
    try {
        s->begin(r, false);
        if (r->k[0]->failed) {
            s->r_ = nullptr;
            return engine_result(r);
        }
        sc_start();
        if (s->r_) { /* every node waits for a packet that never comes */
            s->abort_ = true;
            for (auto *e : s->ep_)
                e->wake_ev_.notify(SC_ZERO_TIME);
            sc_start();
        }
    } catch (const std::exception &e) {
        if (!r->k[0]->failed)
            kernel_fail(r->k[0], "SystemC: %s", e.what());
        s->r_ = nullptr;
    }
    return engine_result(r);
}

// ---- a pair from a configuration -------------------------------------------------------

ub_pair::ub_pair(sc_module_name n, const char *path, backend_kind_t backend, const char *config_file,
                 uint64_t mem_bytes, bool own_memory)
    : ub_system(n, own_memory)
{
    char err[600];
    cfg_ = static_cast<config_t *>(std::calloc(1, sizeof(config_t)));
    v_ = static_cast<verbs_net_t *>(std::calloc(1, sizeof(verbs_net_t)));
    hs_ = new host_state;
    hs_->ep = &a;
    if (!cfg_ || !v_)
        SC_REPORT_FATAL("ub_pair", "out of memory");
    config_init(cfg_);
    int rc = config_file ? config_load_file(cfg_, config_file, err, sizeof err)
                         : config_load_defaults(cfg_, err, sizeof err);
    if (!rc)
        rc = config_validate(cfg_, err, sizeof err);
    if (!rc && !(path_ = config_find(cfg_, path))) {
        std::snprintf(err, sizeof err, "no path '%s' in the configuration", path);
        rc = -1;
    }
    urma_workload_t wl = {"host socket", host_start, hs_};
    if (!rc)
        rc = verbs_net_time(v_, path_, err, sizeof err);
    verbs_net_opts_t vo{};
    vo.max_outstanding = 1024;
    vo.mem_bytes[0] = vo.mem_bytes[1] = mem_bytes;
    vo.engine = engine();
    vo.net.payload = -1;
    vo.net.backend = backend;
    vo.net.in_time_order = 0;
    for (int i = 0; i < CFG_MAX_STAGES; i++) {
        vo.net.align_point[i] = vo.net.end_point[i] = CHAN_NO_PROBE;
        vo.net.queue_point[i] = CHAN_NO_PROBE;
    }
    vo.post_point = vo.done_point = CHAN_NO_PROBE;
    if (!rc)
        rc = verbs_net_build(v_, path_, &vo, &wl, err, sizeof err);
    if (rc)
        SC_REPORT_ERROR("ub_pair", err);
    host_ = v_->host;
}

void ub_pair::end_of_elaboration()
{
    run_ = verbs_net_engine_run(v_);
    begin(&run_, true);
    if (run_.k[0]->failed)
        SC_REPORT_ERROR("ub_pair", run_.k[0]->err);
}

ub_pair::~ub_pair()
{
    if (v_)
        verbs_net_free(v_);
    std::free(v_);
    std::free(cfg_);
    delete hs_;
}

} // namespace ub_sc

// ---- for C callers ------------------------------------------------------------------

static ub_sc::ub_system *g_system;

extern "C" const sim_engine_t *engine_systemc(void)
{
    if (!g_system) {
        setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
        g_system = new ub_sc::ub_system("ubsim");
    }
    return g_system->engine();
}

// A program that runs the engine from its own main() has no sc_main; one
// that has one keeps its own.
__attribute__((weak)) int sc_main(int, char **) { return 1; }
