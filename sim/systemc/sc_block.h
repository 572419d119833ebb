// SystemC models of the blocks: each block as an sc_module clocked by the
// sc_clock of its domain, with one port per entry of its port list (an
// sc_in / sc_out of sc_dt::sc_bv<width>, named like the RTL's: <port>_i,
// <port>_o). The module keeps a block instance of the simulator
// (sim/core/block.h), so the same module runs the C model, the Verilated
// RTL or both in lockstep, chosen when it is made: the module interface
// does not change with the flavour.
//
// Cycle contract (the block rule): at each rising edge of clk_i the module
// reads its inputs (the values of the cycle that ends at that edge), steps
// the block once and writes the outputs the block shows after the edge.
// A testbench drives the inputs between edges (for example at the falling
// edge). The block is reset when the module is made; reset() resets it
// again (between edges), after which the outputs are the given values.
//
//     UB_SC_BLOCK(ub_send_pipeline, UB_SEND_PIPELINE_PORTS)
//
// defines `struct ub_send_pipeline_sc` with the constructor
// (sc_module_name, backend_kind_t, period_ps), and `ub_send_pipeline_sc_wires`:
// a signal per port, bind(module), drive(&in_struct), sample(&out_struct).
// The outputs are 0 until the first edge (or reset()).
#ifndef UB_SC_BLOCK_H
#define UB_SC_BLOCK_H

#include <systemc>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include "blocks.h"
}

namespace ub_sc {

// sc_bv<W> <-> 64-bit words, least significant first (through the 32-bit
// words sc_bv keeps: get_word / set_word).
template <int W>
void to_words(const sc_dt::sc_bv<W> &v, uint64_t *w)
{
    const int n32 = (W + 31) / 32;
    for (int i = 0; i < (W + 63) / 64; i++) {
        uint64_t lo = v.get_word(2 * i);
        uint64_t hi = 2 * i + 1 < n32 ? v.get_word(2 * i + 1) : 0;
        w[i] = lo | hi << 32;
    }
    if (W % 64)
        w[(W - 1) / 64] &= (UINT64_C(1) << (W % 64)) - 1;
}

template <int W>
sc_dt::sc_bv<W> from_words(const uint64_t *w)
{
    sc_dt::sc_bv<W> v;
    const int n32 = (W + 31) / 32;
    for (int i = 0; i < n32; i++) {
        uint32_t d = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
        if (i == n32 - 1 && W % 32)
            d &= (UINT32_C(1) << (W % 32)) - 1;
        v.set_word(i, d);
    }
    return v;
}

// What every block module shares: the block instance and its wires.
class BlockCore {
public:
    BlockCore(const block_class_t *cls, backend_kind_t kind, uint64_t period_ps, const char *name)
        : cls_(cls), in_(cls->in_size ? cls->in_size : 1), out_(cls->out_size ? cls->out_size : 1)
    {
        block_opts_t o;
        std::memset(&o, 0, sizeof o);
        o.kind = kind;
        o.period_ps = period_ps;
        mismatch_ = std::string(name) + "_mismatch.vcd";
        o.mismatch_wave = mismatch_.c_str();
        char err[256] = "";
        blk_ = block_new(cls, &o, err, sizeof err);
        if (!blk_)
            throw std::runtime_error(std::string(name) + ": " + err);
        int maxw = 1;
        for (int i = 0; i < cls->n_in; i++)
            maxw = port_words(&cls->in_ports[i]) > maxw ? port_words(&cls->in_ports[i]) : maxw;
        for (int i = 0; i < cls->n_out; i++)
            maxw = port_words(&cls->out_ports[i]) > maxw ? port_words(&cls->out_ports[i]) : maxw;
        words_.resize((size_t)maxw);
    }
    ~BlockCore() { block_free(blk_); }
    BlockCore(const BlockCore &) = delete;
    BlockCore &operator=(const BlockCore &) = delete;

    block_inst_t *inst() const { return blk_; }
    // Lockstep mismatches so far (0 on the C and RTL flavours).
    uint64_t mismatches() const { return block_mismatches(blk_); }
    uint64_t cycles() const { return block_cycles(blk_); }

protected:
    const block_class_t *cls_;
    block_inst_t *blk_ = nullptr;
    std::vector<unsigned char> in_, out_;
    std::vector<uint64_t> words_;
    std::string mismatch_;
    int in_k_ = 0, out_k_ = 0;  // the port being read / written

    template <int W>
    void take_in(const sc_dt::sc_bv<W> &v)
    {
        to_words<W>(v, words_.data());
        port_set_words(&cls_->in_ports[in_k_++], in_.data(), words_.data());
    }
    template <int W>
    sc_dt::sc_bv<W> give_out()
    {
        port_get_words(&cls_->out_ports[out_k_++], out_.data(), words_.data());
        return from_words<W>(words_.data());
    }
    void step_block()
    {
        uint64_t now_ps = (uint64_t)(sc_core::sc_time_stamp().to_seconds() * 1e12 + 0.5);
        block_step(blk_, in_.data(), out_.data(), now_ps);
    }
};

}  // namespace ub_sc

// per port list entry: the declaration, the read at an edge, the write after it
#define UB_SC_DECL(dir, name, width, ctype) UB_SC_DECL_##dir(name, width)
#define UB_SC_DECL_IN(name, width) sc_core::sc_in<sc_dt::sc_bv<width>> name##_i{#name "_i"};
#define UB_SC_DECL_OUT(name, width) sc_core::sc_out<sc_dt::sc_bv<width>> name##_o{#name "_o"};
#define UB_SC_READ(dir, name, width, ctype) UB_SC_READ_##dir(name, width)
#define UB_SC_READ_IN(name, width) take_in<width>(name##_i.read());
#define UB_SC_READ_OUT(name, width)
#define UB_SC_WRITE(dir, name, width, ctype) UB_SC_WRITE_##dir(name, width)
#define UB_SC_WRITE_IN(name, width)
#define UB_SC_WRITE_OUT(name, width) name##_o.write(give_out<width>());

// the wires of a module: one sc_signal per port, bound to it, driven from an
// input struct and read into an output struct
#define UB_SC_SIG(dir, name, width, ctype) sc_core::sc_signal<sc_dt::sc_bv<width>> name;
#define UB_SC_BIND(dir, name, width, ctype) UB_SC_BIND_##dir(name)
#define UB_SC_BIND_IN(name) m.name##_i(name);
#define UB_SC_BIND_OUT(name) m.name##_o(name);
#define UB_SC_DRIVE(dir, name, width, ctype) UB_SC_DRIVE_##dir(name, width)
#define UB_SC_DRIVE_IN(name, width)                                                          \
    {                                                                                        \
        port_get_words(&cls->in_ports[k++], in, w);                                          \
        name.write(ub_sc::from_words<width>(w));                                             \
    }
#define UB_SC_DRIVE_OUT(name, width)
#define UB_SC_SAMPLE(dir, name, width, ctype) UB_SC_SAMPLE_##dir(name, width)
#define UB_SC_SAMPLE_IN(name, width)
#define UB_SC_SAMPLE_OUT(name, width)                                                        \
    {                                                                                        \
        ub_sc::to_words<width>(name.read(), w);                                              \
        port_set_words(&cls->out_ports[k++], out, w);                                        \
    }

#define UB_SC_BLOCK(NAME, PORTS)                                                             \
    struct NAME##_sc : sc_core::sc_module, ub_sc::BlockCore {                                \
        sc_core::sc_in<bool> clk_i{"clk_i"};                                                 \
        PORTS(UB_SC_DECL)                                                                    \
        SC_HAS_PROCESS(NAME##_sc);                                                           \
        NAME##_sc(sc_core::sc_module_name n, backend_kind_t kind, uint64_t period_ps)        \
            : sc_core::sc_module(n), ub_sc::BlockCore(&NAME##_class, kind, period_ps,        \
                                                      (const char *)n)                       \
        {                                                                                    \
            SC_METHOD(edge);                                                                 \
            sensitive << clk_i.pos();                                                        \
            dont_initialize();                                                               \
        }                                                                                    \
        /* between edges: the block back to its reset state, the outputs to `after` */       \
        void reset(const NAME##_out_t &after)                                                \
        {                                                                                    \
            block_reset(blk_);                                                               \
            std::memcpy(out_.data(), &after, sizeof after);                                  \
            write_outputs();                                                                 \
        }                                                                                    \
        void write_outputs()                                                                 \
        {                                                                                    \
            out_k_ = 0;                                                                      \
            PORTS(UB_SC_WRITE)                                                               \
        }                                                                                    \
        void edge()                                                                          \
        {                                                                                    \
            in_k_ = 0;                                                                       \
            PORTS(UB_SC_READ)                                                                \
            step_block();                                                                    \
            write_outputs();                                                                 \
        }                                                                                    \
    };                                                                                       \
    struct NAME##_sc_wires {                                                                 \
        PORTS(UB_SC_SIG)                                                                     \
        uint64_t w[64];                                                                      \
        void bind(NAME##_sc &m) { PORTS(UB_SC_BIND) }                                        \
        void drive(const NAME##_in_t *in)                                                    \
        {                                                                                    \
            const block_class_t *cls = &NAME##_class;                                        \
            int k = 0;                                                                       \
            PORTS(UB_SC_DRIVE)                                                               \
            (void)k;                                                                         \
        }                                                                                    \
        void sample(NAME##_out_t *out)                                                       \
        {                                                                                    \
            const block_class_t *cls = &NAME##_class;                                        \
            int k = 0;                                                                       \
            PORTS(UB_SC_SAMPLE)                                                              \
            (void)k;                                                                         \
        }                                                                                    \
    };

UB_SC_BLOCK(ub_send_pipeline, UB_SEND_PIPELINE_PORTS)
UB_SC_BLOCK(ub_tx, UB_TX_PORTS)
UB_SC_BLOCK(tp_chan, TP_CHAN_PORTS)
UB_SC_BLOCK(rc_send_pipeline, RC_SEND_PIPELINE_PORTS)
UB_SC_BLOCK(order_tracker, ORDER_TRACKER_PORTS)
UB_SC_BLOCK(transport, TRANSPORT_PORTS)
UB_SC_BLOCK(context_cache, CONTEXT_CACHE_PORTS)

#endif
