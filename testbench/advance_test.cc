// Fast-forward is exact: for every block whose C model can jump (its class
// has quiet and advance; sim/core/blocks.c lists every class), from random
// states, advance(n) leaves the state byte for byte where n steps with the
// same inputs held leave it, for n = 1, 2, a random count and the whole
// quiet count; those n steps change no output (what quiet promises); and
// where the class has quiet_taking, a step that takes the offered request
// followed by advance(n - 1) with nothing offered equals n steps.
//
// The states: a run of random edges from reset, each either idle (no input
// but the configuration) or random (every other input port a random value
// of its width), with a share of random edges that differs from run to run,
// checked at every edge; the configuration (cfg_* ports) is the run's from
// reset on, all zeros or random. A new block gets this test by being listed
// in block_classes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "blocks.h"
}

#include "block_harness.h"

namespace {

// The most edges one check steps (a quiet count can be unbounded).
constexpr int64_t kMaxN = 3000;

struct Model {
    const block_class_t *cls;
    void *s;
    explicit Model(const block_class_t *c) : cls(c), s(c->c.create(nullptr, 1000)) {}
    ~Model() { cls->c.destroy(s); }
    Model(const Model &) = delete;
    Model &operator=(const Model &) = delete;
    void copy_from(const Model &o) { std::memcpy(s, o.s, cls->c_state_size); }
    bool same(const Model &o) const { return std::memcmp(s, o.s, cls->c_state_size) == 0; }
};

bool is_config(const port_desc_t *p) { return std::strncmp(p->name, "cfg_", 4) == 0; }

void random_port(const port_desc_t *p, std::mt19937_64 &rng, void *in)
{
    std::vector<uint64_t> w((size_t)port_words(p));
    for (auto &x : w)
        x = rng();
    port_set_words(p, in, w.data());
}

// Random values on every port but the configuration's (cfg_*), which keeps
// the run's: a block's configuration changes only in reset.
void random_input(const block_class_t *cls, std::mt19937_64 &rng, const std::vector<uint8_t> &config,
                  std::vector<uint8_t> &in)
{
    in = config;
    for (int i = 0; i < cls->n_in; i++)
        if (!is_config(&cls->in_ports[i]))
            random_port(&cls->in_ports[i], rng, in.data());
}

// A random configuration: every cfg_* port a random value of its width,
// every other port 0 (an idle input under that configuration).
std::vector<uint8_t> random_config(const block_class_t *cls, std::mt19937_64 &rng)
{
    std::vector<uint8_t> in(cls->in_size, 0);
    for (int i = 0; i < cls->n_in; i++)
        if (is_config(&cls->in_ports[i]))
            random_port(&cls->in_ports[i], rng, in.data());
    return in;
}

// The first output that differs between two output structs, as text ("" if
// none).
std::string changed_output(const block_class_t *cls, const std::vector<uint8_t> &now,
                           const std::vector<uint8_t> &before)
{
    for (int i = 0; i < cls->n_out; i++) {
        const port_desc_t *p = &cls->out_ports[i];
        if (!port_equal(p, now.data(), before.data()))
            return std::string("output ") + p->name + " changed (from " +
                   std::to_string(port_get(p, before.data())) + " to " + std::to_string(port_get(p, now.data())) +
                   ")";
    }
    return "";
}

// From the state of `m` (whose last outputs are `last`): n steps with `in`
// held against advance(n). Returns a failure text, or "".
std::string check_advance(const Model &m, const std::vector<uint8_t> &last, const std::vector<uint8_t> &in,
                          int64_t n)
{
    const block_class_t *cls = m.cls;
    Model stepped(cls), jumped(cls);
    stepped.copy_from(m);
    jumped.copy_from(m);
    std::vector<uint8_t> out(cls->out_size), prev(last);
    for (int64_t k = 0; k < n; k++) {
        std::fill(out.begin(), out.end(), 0);
        cls->c.step(stepped.s, in.data(), out.data(), 0);
        std::string why = changed_output(cls, out, prev);
        if (!why.empty())
            return why + " at edge " + std::to_string(k + 1) + " of the " + std::to_string(n) + " quiet ones";
        prev = out;
    }
    cls->c.advance(jumped.s, in.data(), n);
    if (!stepped.same(jumped))
        return "advance(" + std::to_string(n) + ") left another state than " + std::to_string(n) + " steps";
    return "";
}

// The same for quiet_taking: the first edge a step (taking the request in
// `in`), the rest an advance with nothing offered (`idle`).
std::string check_taking(const Model &m, const std::vector<uint8_t> &in, const std::vector<uint8_t> &idle,
                         int64_t n)
{
    const block_class_t *cls = m.cls;
    Model stepped(cls), jumped(cls);
    stepped.copy_from(m);
    jumped.copy_from(m);
    std::vector<uint8_t> out(cls->out_size), first(cls->out_size);
    cls->c.step(stepped.s, in.data(), first.data(), 0);
    cls->c.step(jumped.s, in.data(), out.data(), 0);
    for (int64_t k = 1; k < n; k++) {
        cls->c.step(stepped.s, idle.data(), out.data(), 0);
        std::string why = changed_output(cls, out, first);
        if (!why.empty())
            return why + " at edge " + std::to_string(k + 1) + " of the " + std::to_string(n) +
                   " after a request was taken";
    }
    if (n > 1)
        cls->c.advance(jumped.s, idle.data(), n - 1);
    if (!stepped.same(jumped))
        return "a step taking the request and advance(" + std::to_string(n - 1) + ") left another state than " +
               std::to_string(n) + " steps";
    return "";
}

TEST(Advance, EqualsThatManyStepsForEveryBlockThatJumps)
{
    const int runs = harness::short_run() ? 8 : 40, edges = harness::short_run() ? 200 : 600;
    int jumping = 0;
    for (int b = 0; b < n_block_classes; b++) {
        const block_class_t *cls = block_classes[b];
        ASSERT_GT(cls->c_state_size, 0u) << cls->name;
        if (!cls->c.quiet || !cls->c.advance) {
            EXPECT_FALSE(cls->c.quiet || cls->c.advance || cls->c.quiet_taking)
                << cls->name << ": a fast-forward needs quiet and advance both";
            continue;
        }
        jumping++;
        std::mt19937_64 rng(0x5eed0000u + (unsigned)b);
        int64_t checked = 0, quiet_seen = 0, taking_checked = 0;
        for (int run = 0; run < runs; run++) {
            // the run's configuration (half the runs all zeros), held from
            // reset on; idle: nothing else on the inputs
            const std::vector<uint8_t> idle =
                run % 2 ? random_config(cls, rng) : std::vector<uint8_t>(cls->in_size, 0);
            Model m(cls);
            std::vector<uint8_t> in(cls->in_size), out(cls->out_size, 0);
            // the share of random edges, from always idle to always random
            const double busy = (double)run / (runs - 1);
            std::uniform_real_distribution<double> u(0, 1);
            for (int e = 0; e < edges; e++) {
                // the next edge of the run (its outputs: what quiet edges keep)
                if (u(rng) < busy)
                    random_input(cls, rng, idle, in);
                else
                    in = idle;
                cls->c.step(m.s, in.data(), out.data(), 0);
                // the inputs to hold: idle, or a random one
                std::vector<uint8_t> hold(cls->in_size);
                if (u(rng) < 0.5)
                    hold = idle;
                else
                    random_input(cls, rng, idle, hold);
                int64_t q = cls->c.quiet(m.s, hold.data());
                ASSERT_GE(q, 0) << cls->name;
                if (q > 0) {
                    quiet_seen++;
                    int64_t top = q < kMaxN ? q : kMaxN;
                    for (int64_t n : {int64_t{1}, int64_t{2}, (int64_t)(1 + rng() % (uint64_t)top), top}) {
                        if (n > top)
                            continue;
                        std::string why = check_advance(m, out, hold, n);
                        ASSERT_EQ(why, "") << cls->name << ", run " << run << ", edge " << e << ": quiet " << q;
                        checked++;
                    }
                }
                if (cls->c.quiet_taking) {
                    int64_t qt = cls->c.quiet_taking(m.s, hold.data());
                    ASSERT_GE(qt, 0) << cls->name;
                    if (qt > 1) {
                        int64_t top = qt < kMaxN ? qt : kMaxN;
                        for (int64_t n : {int64_t{2}, (int64_t)(2 + rng() % (uint64_t)(top - 1)), top}) {
                            if (n > top)
                                continue;
                            std::string why = check_taking(m, hold, idle, n);
                            ASSERT_EQ(why, "") << cls->name << ", run " << run << ", edge " << e
                                               << ": quiet_taking " << qt;
                            taking_checked++;
                        }
                    }
                }
            }
        }
        // each block must have been seen quiet, or this test proves nothing
        EXPECT_GT(quiet_seen, 0) << cls->name;
        EXPECT_GT(checked, 0) << cls->name;
        if (cls->c.quiet_taking) {
            EXPECT_GT(taking_checked, 0) << cls->name;
        }
        std::printf("advance: %-18s %8lld jumps checked against steps, %lld with a request taken\n", cls->name,
                    (long long)checked, (long long)taking_checked);
    }
    // the send pipelines, the channel table, the transport and the cache
    EXPECT_GE(jumping, 6);
}

}  // namespace
