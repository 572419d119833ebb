// The test harness shared by the block tests: one block instance stepped
// edge by edge, valid/ready bookkeeping, random stimulus in lockstep, and a
// planted bug to show that lockstep finds it.
//
//   harness::Block<In, Out>   a block_inst_t with its input and output
//                             structs; step() applies one edge at
//                             steps * period_ps
//   harness::Stream<In, Out>  a Block whose requests come in on wr_valid /
//                             wr_ready and whose packets leave on pkt_valid /
//                             pkt_ready (both send pipelines); handshake()
//                             says what an edge accepted and took
//   harness::random_lockstep  random requests, rates and resets through the
//                             lockstep backend; counts what went through
//   harness::with_bug         a copy of a block class whose C model (or RTL)
//                             flips one bit of one output port at one cycle
//   harness::run_planted      steps such a class in lockstep until the first
//                             mismatch; returns its edge and the report
//
// Cycle rules are sim/core/block.h's: a request is accepted at an edge where
// wr_valid (input) and the previous outputs' wr_ready are 1; a packet is
// taken at an edge where the previous outputs' pkt_valid and pkt_ready
// (input) are 1.
#ifndef UB_BLOCK_HARNESS_H
#define UB_BLOCK_HARNESS_H

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "block.h"
}

namespace harness {

inline bool short_run()
{
    const char *s = std::getenv("UBSIM_TEST_SHORT");
    return s && *s && *s != '0';
}

inline block_opts_t opts(backend_kind_t kind, uint64_t period_ps)
{
    block_opts_t o;
    std::memset(&o, 0, sizeof o);
    o.kind = kind;
    o.period_ps = period_ps;
    return o;
}

// One block instance and its wires.
template <class In, class Out>
class Block {
public:
    Block(const block_class_t *cls, backend_kind_t kind, uint64_t period_ps)
    {
        block_opts_t o = opts(kind, period_ps);
        init(cls, &o);
    }
    Block(const block_class_t *cls, const block_opts_t *o) { init(cls, o); }
    ~Block() { block_free(inst); }
    Block(const Block &) = delete;
    Block &operator=(const Block &) = delete;

    bool ok() const { return inst != nullptr; }

    // Synchronous reset; `after` is what the outputs show after it.
    void reset(const Out &after)
    {
        block_reset(inst);
        out = after;
    }

    // One edge with `in`, at time steps * period_ps. Returns block_step's
    // result (nonzero once lockstep found a mismatch); rc_any keeps the OR.
    int step()
    {
        int rc = block_step(inst, &in, &out, steps * period_ps);
        rc_any |= rc;
        steps++;
        return rc;
    }

    block_inst_t *inst = nullptr;
    In in{};
    Out out{};
    uint64_t steps = 0;  // edges applied through this object
    uint64_t period_ps = 1000;
    int rc_any = 0;
    std::string err;

private:
    void init(const block_class_t *cls, const block_opts_t *o)
    {
        period_ps = o->period_ps ? o->period_ps : 1000;
        char e[256] = "";
        inst = block_new(cls, o, e, sizeof e);
        err = e;
        EXPECT_NE(inst, nullptr) << err;
    }
};

// A block with a request stream in (wr_valid / wr_ready) and a packet stream
// out (pkt_valid / pkt_ready). After reset wr_ready is 1 and every other
// output 0.
template <class In, class Out>
class Stream : public Block<In, Out> {
public:
    using Block<In, Out>::Block;

    static Out reset_outputs()
    {
        Out o{};
        o.wr_ready = 1;
        return o;
    }
    void reset() { Block<In, Out>::reset(reset_outputs()); }

    struct Edge {
        bool accepted;  // the request on wr_* was accepted at this edge
        bool taken;     // the packet `shown` was taken at this edge
        Out shown;      // the outputs before the edge
        int rc;         // block_step's result
    };

    // One edge with wr_valid = offer and pkt_ready = ready; the request
    // fields are whatever the caller left in `in`.
    Edge handshake(bool offer, bool ready)
    {
        Edge e;
        e.shown = this->out;
        this->in.wr_valid = offer;
        this->in.pkt_ready = ready;
        e.accepted = offer && e.shown.wr_ready;
        e.taken = e.shown.pkt_valid && ready;
        e.rc = this->step();
        return e;
    }
};

// --- random stimulus in lockstep --------------------------------------------

template <class In>
struct RandomSpec {
    uint64_t cycles = 1000000;
    uint64_t seed = 2026;
    uint64_t period_ps = 1000;
    // Every `phase` cycles the rates of wr_valid and pkt_ready change (each
    // 0/16 .. 16/16, drawn at random) and new_phase may change `in` (say,
    // the configuration inputs).
    uint64_t phase = 1000;
    std::function<void(std::mt19937_64 &, In &)> new_phase;
    // A block reset in the middle of every reset_every cycles (0: none).
    uint64_t reset_every = 0;
    // The request fields of one cycle (wr_valid and pkt_ready are set here).
    std::function<void(std::mt19937_64 &, uint64_t cycle, In &)> payload;
    const char *mismatch_wave = nullptr;  // block_opts_t's
};

struct RandomStats {
    uint64_t cycles = 0;    // edges applied
    uint64_t accepted = 0;  // requests accepted
    uint64_t packets = 0;   // packets taken
    uint64_t resets = 0;
    uint64_t mismatches = 0;
    double secs = 0;
};

// Runs spec.cycles edges of random stimulus through the lockstep backend and
// stops at the first mismatch (reported as a test failure).
template <class In, class Out>
RandomStats random_lockstep(const block_class_t *cls, const RandomSpec<In> &spec)
{
    RandomStats st;
    block_opts_t o = opts(BACKEND_LOCKSTEP, spec.period_ps);
    o.mismatch_wave = spec.mismatch_wave;
    Stream<In, Out> s(cls, &o);
    if (!s.ok())
        return st;
    std::mt19937_64 rng(spec.seed);
    unsigned p_valid = 8, p_ready = 8;  // out of 16
    auto t0 = std::chrono::steady_clock::now();
    for (uint64_t c = 0; c < spec.cycles; c++) {
        if (c % spec.phase == 0) {
            p_valid = (unsigned)(rng() % 17);
            p_ready = (unsigned)(rng() % 17);
            if (spec.new_phase)
                spec.new_phase(rng, s.in);
        }
        if (spec.reset_every && c % spec.reset_every == spec.reset_every / 2) {
            s.reset();
            st.resets++;
        }
        uint64_t r = rng();
        if (spec.payload)
            spec.payload(rng, c, s.in);
        typename Stream<In, Out>::Edge e = s.handshake((r & 15) < p_valid, ((r >> 4) & 15) < p_ready);
        st.accepted += e.accepted;
        st.packets += e.taken;
        if (e.rc) {
            ADD_FAILURE() << "lockstep mismatch at cycle " << c;
            break;
        }
    }
    st.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    st.cycles = block_cycles(s.inst);
    st.mismatches = block_mismatches(s.inst);
    return st;
}

// --- a planted bug ------------------------------------------------------------

enum Side { C_MODEL, RTL };

// The bug of the class with_bug made last (one at a time is enough for tests).
struct BugSpec {
    block_impl_t impl;    // the implementation wrapped
    port_desc_t port;     // the output port corrupted
    int bit = 0;
    uint64_t cycle = 0;   // edge count (since create) at which it flips
};
inline BugSpec g_bug;

struct BugInst {
    void *inner;
    uint64_t edges;
};

inline void *bug_create(const char *fst_path, uint64_t period_ps)
{
    void *inner = g_bug.impl.create(fst_path, period_ps);
    if (!inner)
        return nullptr;
    BugInst *b = static_cast<BugInst *>(std::calloc(1, sizeof(BugInst)));
    if (b)
        b->inner = inner;
    return b;
}
inline void bug_reset(void *self) { g_bug.impl.reset(static_cast<BugInst *>(self)->inner); }
inline void bug_step(void *self, const void *in, void *out, uint64_t now_ps)
{
    BugInst *b = static_cast<BugInst *>(self);
    g_bug.impl.step(b->inner, in, out, now_ps);
    if (b->edges++ == g_bug.cycle) {
        std::vector<uint64_t> w((size_t)port_words(&g_bug.port));
        port_get_words(&g_bug.port, out, w.data());
        w[(size_t)g_bug.bit / 64] ^= UINT64_C(1) << (g_bug.bit % 64);
        port_set_words(&g_bug.port, out, w.data());
    }
}
inline void bug_destroy(void *self)
{
    BugInst *b = static_cast<BugInst *>(self);
    if (!b)
        return;
    g_bug.impl.destroy(b->inner);
    std::free(b);
}

// A copy of `cls` called `name` whose C model (or RTL) flips bit `bit` of the
// output port `port` in the outputs of edge `cycle` (counted from 0 since the
// instance was created).
inline block_class_t with_bug(const block_class_t &cls, const char *name, const char *port, int bit,
                              uint64_t cycle, Side side = C_MODEL)
{
    block_class_t c = cls;
    c.name = name;
    const port_desc_t *p = nullptr;
    for (int i = 0; i < cls.n_out; i++)
        if (!std::strcmp(cls.out_ports[i].name, port))
            p = &cls.out_ports[i];
    EXPECT_NE(p, nullptr) << "no output port " << port << " in " << cls.name;
    if (!p)
        return c;
    EXPECT_LT(bit, (int)p->width);
    g_bug.impl = side == C_MODEL ? cls.c : cls.rtl;
    g_bug.port = *p;
    g_bug.bit = bit;
    g_bug.cycle = cycle;
    block_impl_t bug = {bug_create, bug_reset, bug_step, bug_destroy, nullptr, nullptr, nullptr,
                        nullptr};
    (side == C_MODEL ? c.c : c.rtl) = bug;
    return c;
}

// What run_planted saw: the first edge whose step reported a mismatch (-1
// when none did) and everything the lockstep backend reported.
struct Planted {
    int64_t first = -1;
    std::string report;
};

// Steps an instance B (a Block or a class built on one, constructed from a
// class and options) of `cls` in lockstep for at most `edges` edges, or
// until the first mismatch; drive(b, edge) sets the inputs of each edge. The
// mismatch waveform goes to `wave` (nullptr: none).
template <class B, class Drive>
Planted run_planted(const block_class_t *cls, uint64_t period_ps, int64_t edges, const char *wave,
                    Drive drive)
{
    Planted p;
    FILE *rep = std::tmpfile();
    EXPECT_NE(rep, nullptr);
    if (!rep)
        return p;
    block_opts_t o = opts(BACKEND_LOCKSTEP, period_ps);
    o.report = rep;
    o.mismatch_wave = wave;
    {
        B b(cls, &o);
        EXPECT_TRUE(b.ok());
        for (int64_t c = 0; b.ok() && c < edges && p.first < 0; c++) {
            drive(b, c);
            if (b.step())
                p.first = c;
        }
    }
    std::rewind(rep);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, rep)) > 0)
        p.report.append(buf, n);
    std::fclose(rep);
    return p;
}

}  // namespace harness

#endif
