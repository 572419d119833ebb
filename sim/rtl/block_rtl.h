// The RTL backend of every block: a Verilated model behind the block_impl_t
// functions of sim/core/block.h, its ports driven and sampled as the block's
// port list says (cmodel/block_ports.h). A block's shim is a few lines:
//
//     #include "block_rtl.h"
//     #include "Vub_send_pipeline.h"            // the Verilated model, V<block>
//     #include "Vub_send_pipeline___024root.h"  // its root (clock edge detection)
//     #if __has_include("Vub_send_pipeline_f.h")  // the same without trace code
//     #include "Vub_send_pipeline_f.h"
//     #include "Vub_send_pipeline_f___024root.h"
//     #define BLOCK_RTL_UNTRACED 1
//     #else
//     #define BLOCK_RTL_UNTRACED 0
//     #endif
//
//     #define BLOCK_NAME ub_send_pipeline
//     BLOCK_RTL(UB_SEND_PIPELINE_PORTS)
//
// which defines the C functions <block>_rtl_create / _reset / _step / _run /
// _destroy that BLOCK_RTL_DECL declares and BLOCK_CLASS points to.
//
// Two models of the block: V<block>, Verilated with --trace-fst, and, where
// the build made it (the Makefile's build/vlf/; it defines
// BLOCK_RTL_WANT_UNTRACED, and the shim does not compile without it),
// V<block>_f, Verilated from the same RTL with the same options but without
// trace code. An instance made with a trace file holds the first, any other
// the second, whose evaluation carries no bookkeeping for a trace (Pick,
// below). The checked flavour has the first only.
//
// One VerilatedContext per instance, of one thread (no worker pool): an
// instance is stepped by the thread that runs its simulation, and several
// simulations may run side by side (sim/core/jobs.h). step(): drive the inputs from the
// struct, raise the clock and evaluate (the edge), read the outputs, lower
// the clock. Verilator only detects the next rising edge if it has seen the
// clock low. Every output is a register and nothing reads the falling edge
// (the rule for blocks, block.h), so evaluating the low clock changes no
// value: when no trace is written and the model shows where it keeps the
// clock's last value (lower_clock), that value is set instead (the clock
// port itself stays at 1), and a step is one evaluation, of the model's
// root (edge); otherwise it is two, through eval().
//
// reset(): all inputs 0, rst_ni asserted (asynchronously) across one clock
// edge, then released with the clock low. No trace samples are written
// during reset.
//
// Tracing costs nothing unless a trace file is given: only then is tracing
// enabled in the context and an FST writer attached. The model traces
// itself, dumping at now_ps right after the rising edge and half a period
// later (trace time strictly increasing: a time not after the last dump is
// moved just past it). The model's top scope is Verilator's default "TOP",
// so the ports appear as TOP.<block>.<port>_i / _o, the names the C model's
// port dump uses too (block_trace).
//
// Ports: a port of W bits is a CData / SData / IData / QData for W <= 8 / 16 /
// 32 / 64 and a VlWide<(W + 31) / 32> of 32-bit words above that; the C
// field is the matching uint8_t .. uint64_t, or uint64_t[(W + 63) / 64]. A
// port list whose widths put a port in a different size class than the
// Verilated model does not compile; scripts/portcheck.py, run when the model
// is built, names every difference in name, direction and width.
#ifndef UB_BLOCK_RTL_H
#define UB_BLOCK_RTL_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>

// Verilator's headers are not clean under -Wextra -Werror.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "verilated.h"
#include "verilated_fst_c.h"
#pragma GCC diagnostic pop

extern "C" {
#include "block.h"
#include "wave.h"
}

namespace block_rtl {

template <unsigned W>
constexpr uint64_t mask64()
{
    return W >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << W) - 1;
}

// The type Verilator gives a port of W bits.
template <unsigned W, class = void>
struct vl_port {
    using type = VlWide<(W + 31) / 32>;
};
template <unsigned W>
struct vl_port<W, typename std::enable_if<(W >= 1 && W <= 8)>::type> {
    using type = CData;
};
template <unsigned W>
struct vl_port<W, typename std::enable_if<(W > 8 && W <= 16)>::type> {
    using type = SData;
};
template <unsigned W>
struct vl_port<W, typename std::enable_if<(W > 16 && W <= 32)>::type> {
    using type = IData;
};
template <unsigned W>
struct vl_port<W, typename std::enable_if<(W > 32 && W <= 64)>::type> {
    using type = QData;
};

template <unsigned W, class P>
constexpr void check_port()
{
    static_assert(std::is_same<P, typename vl_port<W>::type>::value,
                  "the Verilated port is not of the port list's width (see scripts/portcheck.py)");
}

// Scalar ports (up to 64 bits).
template <unsigned W, class P, class F>
inline void put(P &port, const F &field)
{
    check_port<W, P>();
    port = static_cast<P>(static_cast<uint64_t>(field) & mask64<W>());
}
template <unsigned W, class P, class F>
inline void get(const P &port, F &field)
{
    check_port<W, P>();
    field = static_cast<F>(static_cast<uint64_t>(port) & mask64<W>());
}

// Wide ports: 32-bit words in the model, 64-bit words in the C struct.
template <unsigned W, std::size_t N32, std::size_t N64>
inline void put(VlWide<N32> &port, const uint64_t (&field)[N64])
{
    check_port<W, VlWide<N32>>();
    static_assert(N64 == (W + 63) / 64, "the C field of a wide port has (W + 63) / 64 words");
    for (std::size_t i = 0; i < N32; i++)
        port[i] = static_cast<EData>(field[i / 2] >> (32 * (i % 2)));
    if (W % 32)
        port[N32 - 1] &= static_cast<EData>((UINT64_C(1) << (W % 32)) - 1);
}
template <unsigned W, std::size_t N32, std::size_t N64>
inline void get(const VlWide<N32> &port, uint64_t (&field)[N64])
{
    check_port<W, VlWide<N32>>();
    static_assert(N64 == (W + 63) / 64, "the C field of a wide port has (W + 63) / 64 words");
    for (std::size_t i = 0; i < N64; i++) {
        uint64_t lo = port[2 * i];
        uint64_t hi = 2 * i + 1 < N32 ? static_cast<uint64_t>(port[2 * i + 1]) : 0;
        field[i] = lo | (hi << 32);
    }
    if (W % 64)
        field[N64 - 1] &= (UINT64_C(1) << (W % 64)) - 1;
}

// Which of the block's two models an instance holds (see Pick, below).
struct InstBase {
    bool untraced = false;
};

// One instance of a block's Verilated model. Ports provides Model (the
// Verilated class), In, Out and drive(Model *, const In *), sample(Model *,
// Out *), generated from the port list by BLOCK_RTL.
template <class Ports>
struct Inst : InstBase {
    VerilatedContext ctx;
    typename Ports::Model *top = nullptr;
    VerilatedFstC *fst = nullptr;
    int fst_watch = -1;  // wave_fst_watch: a full disk is an error, not SIGBUS
    uint64_t period_ps = 0;
    uint64_t last_ps = 0;
    bool dumped = false;
    // The inputs last driven: the model keeps its input ports' values, so
    // an edge whose inputs are the same bytes drives nothing again.
    typename Ports::In last_in{};

    void dump(uint64_t t)
    {
        if (!fst)
            return;
        if (dumped && t <= last_ps)
            t = last_ps + 1;  // trace time must increase
        fst->dump(t);
        last_ps = t;
        dumped = true;
    }
};

template <class Ports>
void reset_one(Inst<Ports> *s)
{
    typename Ports::Model *t = s->top;
    typename Ports::In idle{};
    Ports::drive(t, &idle);
    std::memcpy(static_cast<void *>(&s->last_in), &idle, sizeof idle);
    t->clk_i = 0;
    t->rst_ni = 1;
    t->eval();
    t->rst_ni = 0;  // asynchronous assert, held across one edge
    t->eval();
    t->clk_i = 1;
    t->eval();
    t->clk_i = 0;
    t->eval();
    t->rst_ni = 1;
    t->eval();
}

// Verilator's runtime notes the last context made, and the FST writer's
// signal handler list is shared: instances are made and unmade one at a time
// (their steps need no lock).
inline std::mutex &lifecycle_lock()
{
    static std::mutex m;
    return m;
}

template <class Ports>
InstBase *create_one(const char *fst_path, uint64_t period_ps)
{
    std::lock_guard<std::mutex> hold(lifecycle_lock());
    Inst<Ports> *s = new (std::nothrow) Inst<Ports>;
    if (!s)
        return nullptr;
    s->untraced = !Ports::traced;
    s->period_ps = period_ps ? period_ps : 1;
    s->ctx.timeprecision(-12);  // trace time unit: 1 ps
    // The models are Verilated without --threads: a context's pool of
    // worker threads (by default one per processor, started with the first
    // model) would only sit idle, one per instance.
    s->ctx.threads(1);
    if constexpr (Ports::traced) {
        if (fst_path)
            s->ctx.traceEverOn(true);
    }
    s->top = new typename Ports::Model(&s->ctx, "TOP");
    if constexpr (Ports::traced) {
        if (fst_path) {
            s->fst = new VerilatedFstC;
            s->top->trace(s->fst, 99);
            s->fst->open(fst_path);
            s->fst_watch = wave_fst_watch(fst_path);
        }
    }
    reset_one<Ports>(s);
    return s;
}

// Whether the model keeps the clock's value from its last evaluation where
// its edge detection reads it (Verilator 5's __Vtrigrprev__TOP__clk_i, in
// the root class, which the block's shim includes). Then a step that writes
// no trace lowers the clock without evaluating: every output is a register,
// nothing reads the falling edge, so that evaluation changes no value, and
// recording the low clock is all the next rising edge needs. Any other
// model takes both evaluations.
template <class R, class = void>
struct keeps_clk_prev : std::false_type {
};
template <class R>
struct keeps_clk_prev<R, decltype((void)std::declval<R &>().__Vtrigrprev__TOP__clk_i)>
    : std::true_type {
};

// One evaluation of an edge that writes no trace. Model::eval() is Verilator's
// eval_step(): it marks the model active for a trace, runs the first
// evaluation's initialisation, notes the evaluating thread, evaluates the
// root (V<block>___024root___eval, which computes every value the edge
// changes) and then empties the message queue of a multi-threaded model.
// A model Verilated without --threads, already evaluated (reset did that)
// and not traced needs only the root's evaluation; where the model has that
// function (Ports::root_eval, a weak reference: Verilator 5's name for it),
// step and run call it directly, one call in place of three (about 4% of a
// dependent read on the RTL backend; make bench). Otherwise, and for every
// edge that writes a trace, Model::eval().
template <class Ports>
inline void edge(typename Ports::Model *t)
{
    if (Ports::root_eval)
        Ports::root_eval(t->rootp);
    else
        t->eval();
}

// Lowering the clock: on the untraced path above (keeps_clk_prev), the clock
// port itself stays at 1: only the edge detection's copy is lowered, which
// is all the next evaluation reads of the low clock, and raise_clock() then
// stores nothing. (The evaluation begins by copying
// the clock and the reset, neighbouring bytes, with one 16-bit load; right
// behind a one-byte store to the clock, that load waits for the store to
// reach the cache instead of taking its value: about a sixth of an edge's
// time on the RTL backend, make bench.)
template <class Model>
inline void lower_clock(Model *t, bool traced)
{
    using Root = typename std::remove_pointer<decltype(t->rootp)>::type;
    if constexpr (keeps_clk_prev<Root>::value) {
        if (!traced) {
            t->rootp->__Vtrigrprev__TOP__clk_i = 0;
            return;
        }
    }
    t->clk_i = 0;
    t->eval();
}

template <class Model>
inline void raise_clock(Model *t)
{
    if (!t->clk_i)
        t->clk_i = 1;
}

template <class Ports>
void step_one(Inst<Ports> *s, const void *in, void *out, uint64_t now_ps)
{
    typename Ports::Model *t = s->top;
    if (std::memcmp(in, &s->last_in, sizeof s->last_in) != 0) {
        Ports::drive(t, static_cast<const typename Ports::In *>(in));
        std::memcpy(static_cast<void *>(&s->last_in), in, sizeof s->last_in);
    }
    raise_clock(t);
    if (s->fst)
        t->eval();
    else
        edge<Ports>(t);
    Ports::sample(t, static_cast<typename Ports::Out *>(out));
    s->dump(now_ps);
    lower_clock(t, s->fst != nullptr);
    s->dump(now_ps + s->period_ps / 2);
}

// Up to n edges with the inputs held (block_impl_t.run): the outputs are
// sampled once, after the last edge, which is the first at which the watched
// 8-bit output port is nonzero (or the n-th). A `watch` that is no such port
// (by its offset in the output struct) is read from the outputs sampled at
// every edge. Never used with a trace.
template <class Ports>
int64_t run_one(Inst<Ports> *s, const void *in, void *out, int64_t n, std::size_t watch)
{
    typename Ports::Model *t = s->top;
    typename Ports::Out *o = static_cast<typename Ports::Out *>(out);
    if (n <= 0)
        return 0;
    const CData *w = Ports::watched(t, watch);
    if (std::memcmp(in, &s->last_in, sizeof s->last_in) != 0) {
        Ports::drive(t, static_cast<const typename Ports::In *>(in));
        std::memcpy(static_cast<void *>(&s->last_in), in, sizeof s->last_in);
    }
    int64_t i = 0;
    for (;;) {
        raise_clock(t);
        edge<Ports>(t);
        ++i;
        if (!w) {
            Ports::sample(t, o);
            if (i >= n || reinterpret_cast<const unsigned char *>(o)[watch])
                break;
        } else if (i >= n || *w) {
            Ports::sample(t, o);
            break;
        }
        lower_clock(t, false);
    }
    lower_clock(t, false);
    return i;
}

// The Verilated port behind an output field of one byte, or nullptr.
template <class P>
inline const CData *byte_port(const P &port)
{
    if constexpr (std::is_same<P, CData>::value)
        return &port;
    else
        return nullptr;
}

template <class Ports>
void destroy_one(Inst<Ports> *s)
{
    std::lock_guard<std::mutex> hold(lifecycle_lock());
    if (s->fst) {
        s->fst->close();
        wave_fst_unwatch(s->fst_watch);
        delete s->fst;
    }
    s->top->final();
    // (Verilator frees a model's scopes through the thread's current
    // context, the last one used on this thread, which may be gone by
    // now: make it this model's own first)
    Verilated::threadContextp(&s->ctx);
    delete s->top;
    delete s;
}

// The block's functions over its two models: Traced (V<block>, with trace
// code) and Untraced (V<block>_f, without; where the build has no untraced
// model, as in the checked flavour, the same class as Traced). An instance
// made without a trace file holds the untraced model, whose evaluation
// carries no trace bookkeeping (make bench: about a tenth less time per
// edge of the transmit path); with a trace file, the traced one. Both are
// Verilated from the same RTL with the same options but --trace.
template <class Traced, class Untraced>
struct Pick {
    static constexpr bool two = !std::is_same<Traced, Untraced>::value;

    template <class F>
    static auto with(void *self, F &&f)
    {
        InstBase *b = static_cast<InstBase *>(self);
        if (two && b->untraced)
            return f(static_cast<Inst<Untraced> *>(b));
        return f(static_cast<Inst<Traced> *>(b));
    }

    static void *create(const char *fst_path, uint64_t period_ps)
    {
        if (two && !fst_path)
            return create_one<Untraced>(fst_path, period_ps);
        return create_one<Traced>(fst_path, period_ps);
    }
    static void reset(void *self)
    {
        with(self, [](auto *s) { reset_one(s); });
    }
    static void step(void *self, const void *in, void *out, uint64_t now_ps)
    {
        with(self, [&](auto *s) { step_one(s, in, out, now_ps); });
    }
    static int64_t run(void *self, const void *in, void *out, int64_t n, std::size_t watch)
    {
        return with(self, [&](auto *s) { return run_one(s, in, out, n, watch); });
    }
    static void destroy(void *self)
    {
        if (self)
            with(self, [](auto *s) { destroy_one(s); });
    }
};

}  // namespace block_rtl

// Drive / sample code of one port list entry.
#define BLOCK_RTL_DRIVE(dir, name, width, ctype) BLOCK_RTL_DRIVE_##dir(name, width)
#define BLOCK_RTL_DRIVE_IN(name, width) ::block_rtl::put<width>(top->name##_i, in->name);
#define BLOCK_RTL_DRIVE_OUT(name, width)
#define BLOCK_RTL_SAMPLE(dir, name, width, ctype) BLOCK_RTL_SAMPLE_##dir(name, width)
#define BLOCK_RTL_SAMPLE_IN(name, width)
#define BLOCK_RTL_SAMPLE_OUT(name, width) ::block_rtl::get<width>(top->name##_o, out->name);
#define BLOCK_RTL_WATCH(dir, name, width, ctype) BLOCK_RTL_WATCH_##dir(name, width)
#define BLOCK_RTL_WATCH_IN(name, width)
#define BLOCK_RTL_WATCH_OUT(name, width) \
    if (off == offsetof(Out, name))      \
        return ::block_rtl::byte_port(top->name##_o);

// The ports of one Verilated class M (V<block> or V<block>_f) of the block
// BLOCK_NAME, as the struct NAME; TRACED: whether M has trace code.
#define BLOCK_RTL_ROOT(M) BLOCK_CAT(M, ___024root)
#define BLOCK_RTL_PORTS_OF(NAME, M, TRACED, PORTS)                                         \
    void BLOCK_CAT(BLOCK_RTL_ROOT(M), ___eval)(BLOCK_RTL_ROOT(M) *) __attribute__((weak)); \
    namespace {                                                                            \
    struct NAME {                                                                          \
        using Model = M;                                                                   \
        using In = BLOCK_ID(_in_t);                                                        \
        using Out = BLOCK_ID(_out_t);                                                      \
        static constexpr bool traced = TRACED;                                             \
        static constexpr void (*root_eval)(BLOCK_RTL_ROOT(M) *) =                          \
            BLOCK_CAT(BLOCK_RTL_ROOT(M), ___eval);                                         \
        static void drive(Model *top, const In *in)                                        \
        {                                                                                  \
            (void)top;                                                                     \
            (void)in;                                                                      \
            PORTS(BLOCK_RTL_DRIVE)                                                         \
        }                                                                                  \
        static void sample(Model *top, Out *out)                                           \
        {                                                                                  \
            (void)top;                                                                     \
            (void)out;                                                                     \
            PORTS(BLOCK_RTL_SAMPLE)                                                        \
        }                                                                                  \
        static const CData *watched(Model *top, std::size_t off)                           \
        {                                                                                  \
            (void)top;                                                                     \
            (void)off;                                                                     \
            PORTS(BLOCK_RTL_WATCH)                                                         \
            return nullptr;                                                                \
        }                                                                                  \
    };                                                                                     \
    }

// The untraced model, where the shim found its header (BLOCK_RTL_UNTRACED 1),
// else the traced one in its place.
#define BLOCK_RTL_UNTRACED_PORTS_1(PORTS)                                                  \
    BLOCK_RTL_PORTS_OF(BLOCK_ID(_rtl_untraced), BLOCK_CAT(BLOCK_CAT(V, BLOCK_NAME), _f),   \
                       false, PORTS)
#define BLOCK_RTL_UNTRACED_PORTS_0(PORTS)                                                  \
    static_assert(!BLOCK_RTL_WANT_UNTRACED_,                                               \
                  "the build asks for the untraced model (V<block>_f.h), not found");       \
    namespace {                                                                            \
    using BLOCK_ID(_rtl_untraced) = BLOCK_ID(_rtl_traced);                                 \
    }
// (a shim that does not define BLOCK_RTL_UNTRACED has the traced model only)
#define BLOCK_RTL_UNTRACED_PORTS_BLOCK_RTL_UNTRACED BLOCK_RTL_UNTRACED_PORTS_0

// The RTL shim of the block BLOCK_NAME (Verilated classes V<BLOCK_NAME> and,
// where BLOCK_RTL_UNTRACED is 1, V<BLOCK_NAME>_f) from its port list.
#ifdef BLOCK_RTL_WANT_UNTRACED
#define BLOCK_RTL_WANT_UNTRACED_ 1
#else
#define BLOCK_RTL_WANT_UNTRACED_ 0
#endif
#define BLOCK_RTL(PORTS)                                                                   \
    BLOCK_RTL_PORTS_OF(BLOCK_ID(_rtl_traced), BLOCK_CAT(V, BLOCK_NAME), true, PORTS)       \
    BLOCK_CAT(BLOCK_RTL_UNTRACED_PORTS_, BLOCK_RTL_UNTRACED)(PORTS)                        \
    namespace {                                                                            \
    using BLOCK_ID(_rtl_pick) =                                                            \
        ::block_rtl::Pick<BLOCK_ID(_rtl_traced), BLOCK_ID(_rtl_untraced)>;                 \
    }                                                                                      \
    extern "C" void *BLOCK_ID(_rtl_create)(const char *fst_path, uint64_t period_ps)      \
    {                                                                                      \
        return BLOCK_ID(_rtl_pick)::create(fst_path, period_ps);                           \
    }                                                                                      \
    extern "C" void BLOCK_ID(_rtl_reset)(void *self)                                       \
    {                                                                                      \
        BLOCK_ID(_rtl_pick)::reset(self);                                                  \
    }                                                                                      \
    extern "C" void BLOCK_ID(_rtl_step)(void *self, const void *in, void *out,             \
                                        uint64_t now_ps)                                   \
    {                                                                                      \
        BLOCK_ID(_rtl_pick)::step(self, in, out, now_ps);                                  \
    }                                                                                      \
    extern "C" int64_t BLOCK_ID(_rtl_run)(void *self, const void *in, void *out,          \
                                          int64_t n, size_t watch)                         \
    {                                                                                      \
        return BLOCK_ID(_rtl_pick)::run(self, in, out, n, watch);                          \
    }                                                                                      \
    extern "C" void BLOCK_ID(_rtl_destroy)(void *self)                                     \
    {                                                                                      \
        BLOCK_ID(_rtl_pick)::destroy(self);                                                \
    }

#endif
