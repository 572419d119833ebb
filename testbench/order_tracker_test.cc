// The order tracker (cmodel/order_tracker.c, rtl/order_tracker.sv): the rules
// table of docs/order_tracker.md, queue by queue; a held head holds only its
// own queue; completions release it at the edge they arrive; C and RTL agree
// on every output every cycle under random stimulus, and a deliberate bug is
// caught.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

extern "C" {
#include "blocks.h"
#include "order_tracker.h"
#include "ub_pkg.h"
}

#include "block_harness.h"
#include "test_util.h"

namespace {

constexpr uint64_t kPeriodPs = 3106;

using Ot = harness::Block<order_tracker_in_t, order_tracker_out_t>;

struct Dut {
    block_opts_t o;
    Ot b;
    explicit Dut(backend_kind_t k, const block_class_t *cls = &order_tracker_class)
        : o(harness::opts(k, kPeriodPs)), b(cls, &o)
    {
    }
    // One edge: what happened at it.
    order_tracker_out_t edge(int acc_q = -1, uint8_t mode = URMA_OI, uint8_t order = UB_ORDER_NO,
                             uint8_t fence = 0, int pick_q = -1, int cmp_q = -1)
    {
        std::memset(&b.in, 0, sizeof b.in);
        if (acc_q >= 0) {
            b.in.acc_valid = 1;
            b.in.acc_q = (uint8_t)acc_q;
            b.in.acc_mode = mode;
            b.in.acc_order = order;
            b.in.acc_fence = fence;
        }
        if (pick_q >= 0) {
            b.in.pick_valid = 1;
            b.in.pick_q = (uint8_t)pick_q;
        }
        if (cmp_q >= 0) {
            b.in.cmp_valid = 1;
            b.in.cmp_q = (uint8_t)cmp_q;
        }
        EXPECT_EQ(b.step(), 0);
        return b.out;
    }
};

class OrderTrackerBackend : public ::testing::TestWithParam<backend_kind_t> {};

std::string label(const ::testing::TestParamInfo<backend_kind_t> &i) { return backend_name(i.param); }

// The rules table, row by row: with one request outstanding, which heads
// may go.
TEST(OrderTracker, TheRulesTable)
{
    struct Row {
        uint8_t mode, order, fence;
        bool waits; // with a predecessor outstanding
    } rows[] = {
        {URMA_NO, UB_ORDER_SO, 1, false}, {URMA_NO, UB_ORDER_NO, 0, false},
        {URMA_OT, UB_ORDER_SO, 0, false}, {URMA_OT, UB_ORDER_RO, 0, false},
        {URMA_OT, UB_ORDER_NO, 1, true},  {URMA_OI, UB_ORDER_NO, 0, false},
        {URMA_OI, UB_ORDER_RO, 0, false}, {URMA_OI, UB_ORDER_SO, 0, true},
        {URMA_OI, UB_ORDER_RO, 1, true},  {URMA_OL, UB_ORDER_SO, 0, true},
        {URMA_OL, UB_ORDER_NO, 0, false}, {URMA_OL, UB_ORDER_NO, 1, true},
    };
    for (const Row &r : rows) {
        EXPECT_EQ(order_tracker_eligible(r.mode, r.order, r.fence, 1), !r.waits)
            << (int)r.mode << " " << (int)r.order << " " << (int)r.fence;
        EXPECT_TRUE(order_tracker_eligible(r.mode, r.order, r.fence, 0)); // nothing outstanding
    }
    EXPECT_FALSE(order_tracker_eligible(URMA_NO, UB_ORDER_NO, 0, OT_COUNT_MAX));
}

// An SO head waits while its initiator has anything outstanding, and is
// eligible at the edge the last completion arrives; another initiator's
// heads go meanwhile.
TEST_P(OrderTrackerBackend, AHeldHeadHoldsOnlyItsQueueUntilTheLastCompletion)
{
    Dut d(GetParam());
    ASSERT_TRUE(d.b.ok());
    order_tracker_out_t o = d.edge(2, URMA_OI, UB_ORDER_NO); // a request of queue 2
    EXPECT_EQ(o.elig, 1u << 2);
    o = d.edge(-1, 0, 0, 0, 2); // picked: one outstanding
    EXPECT_EQ(o.elig, 0u);
    EXPECT_EQ(o.busy, 1);
    o = d.edge(2, URMA_OI, UB_ORDER_NO); // a second one, picked too: two outstanding
    o = d.edge(-1, 0, 0, 0, 2);
    o = d.edge(2, URMA_OI, UB_ORDER_SO); // an SO behind them
    EXPECT_EQ(o.elig, 0u);
    EXPECT_EQ(o.held, 1u << 2);
    o = d.edge(5, URMA_OI, UB_ORDER_NO); // queue 5 is not held back
    EXPECT_EQ(o.elig, 1u << 5);
    EXPECT_EQ(o.held, 1u << 2);
    o = d.edge(-1, 0, 0, 0, -1, 2); // one completion: one left
    EXPECT_EQ(o.held, 1u << 2);
    o = d.edge(-1, 0, 0, 0, -1, 2); // the last: eligible at this edge
    EXPECT_EQ(o.elig, (1u << 2) | (1u << 5));
    EXPECT_EQ(o.held, 0u);
    o = d.edge(-1, 0, 0, 0, 2);    // picked
    o = d.edge(-1, 0, 0, 0, 5);
    o = d.edge(-1, 0, 0, 0, -1, 2);
    o = d.edge(-1, 0, 0, 0, -1, 5);
    EXPECT_EQ(o.busy, 0);
    EXPECT_EQ(block_mismatches(d.b.inst), 0u);
}

// A fence waits in every reliable mode, also ROT; nothing waits in UNO.
TEST_P(OrderTrackerBackend, FencesWaitButNotInUno)
{
    Dut d(GetParam());
    d.edge(0, URMA_OT, UB_ORDER_NO);
    d.edge(-1, 0, 0, 0, 0);
    order_tracker_out_t o = d.edge(0, URMA_OT, UB_ORDER_SO); // ROT SO: the target orders
    EXPECT_EQ(o.elig, 1u);
    d.edge(-1, 0, 0, 0, 0);
    o = d.edge(0, URMA_OT, UB_ORDER_NO, 1); // a fence waits
    EXPECT_EQ(o.held, 1u);
    d.edge(1, URMA_NO, UB_ORDER_SO, 1);
    d.edge(-1, 0, 0, 0, 1);
    o = d.edge(1, URMA_NO, UB_ORDER_SO, 1); // UNO: never
    EXPECT_EQ(o.elig, 1u << 1);
}

// A pick and a completion of one queue at the same edge cancel out; a
// completion with nothing outstanding changes nothing; a full queue takes no
// more.
TEST_P(OrderTrackerBackend, EdgeCases)
{
    Dut d(GetParam());
    d.edge(3, URMA_OI, UB_ORDER_NO);
    order_tracker_out_t o = d.edge(3, URMA_OI, UB_ORDER_SO, 0, 3, 3); // pick + completion
    EXPECT_EQ(o.elig, 1u << 3); // nothing outstanding: the SO head may go
    o = d.edge(-1, 0, 0, 0, -1, 3);  // a stray completion
    EXPECT_EQ(o.elig, 1u << 3);
    for (int i = 0; i < 12; i++)
        o = d.edge(4, URMA_OI, UB_ORDER_SO);
    for (int i = 0; i < OT_FIFO_DEPTH; i++)
        o = d.edge(-1, 0, 0, 0, 4, 4); // each picked and completed at once
    EXPECT_EQ(o.elig & (1u << 4), 0u); // the ones beyond the FIFO were not kept
    EXPECT_EQ(block_mismatches(d.b.inst), 0u);
}

// Events at one edge in the order the model takes them: a pick of an empty
// queue pops nothing but counts one outstanding, and a request accepted at
// that edge becomes the head (an SO one then waits for that count); a pick
// of a full queue makes room for a request accepted at the same edge.
TEST_P(OrderTrackerBackend, APickAndAnAcceptanceAtOneEdge)
{
    Dut d(GetParam());
    ASSERT_TRUE(d.b.ok());
    order_tracker_out_t o = d.edge(1, URMA_OI, UB_ORDER_SO, 0, 1); // empty queue 1: picked and accepted
    EXPECT_EQ(o.elig, 0u);
    EXPECT_EQ(o.held, 1u << 1);
    EXPECT_EQ(o.busy, 1);
    o = d.edge(-1, 0, 0, 0, -1, 1); // its completion: the SO head may go
    EXPECT_EQ(o.elig, 1u << 1);
    EXPECT_EQ(o.held, 0u);
    for (int i = 0; i < OT_FIFO_DEPTH; i++)
        o = d.edge(2, URMA_OL, UB_ORDER_NO); // queue 2 full
    o = d.edge(2, URMA_OL, UB_ORDER_SO, 0, 2); // popped one, and the SO is kept behind the rest
    EXPECT_EQ(o.elig & (1u << 2), 1u << 2);
    for (int i = 0; i < OT_FIFO_DEPTH - 1; i++)
        o = d.edge(-1, 0, 0, 0, 2); // the other seven leave: 8 outstanding
    EXPECT_EQ(o.held, 1u << 2);
    for (int i = 0; i < OT_FIFO_DEPTH; i++) {
        EXPECT_EQ(o.elig & (1u << 2), 0u) << i;
        o = d.edge(-1, 0, 0, 0, -1, 2);
    }
    EXPECT_EQ(o.elig & (1u << 2), 1u << 2); // at the edge of the last completion
    o = d.edge(-1, 0, 0, 0, 2);
    EXPECT_EQ(o.elig & (1u << 2), 0u); // nothing left behind it
    EXPECT_EQ(o.held & (1u << 2), 0u);
    EXPECT_EQ(block_mismatches(d.b.inst), 0u);
}

// The outstanding count is 24 bits and saturates: a pick with a request
// behind it every edge keeps an unordered head eligible until 2^24 - 1 are
// outstanding; then it is held (no more can be counted), a pick beyond the
// limit changes no count, and the first completion lets the head go again.
TEST_P(OrderTrackerBackend, TheOutstandingCountSaturates)
{
    Dut d(GetParam());
    ASSERT_TRUE(d.b.ok());
    order_tracker_in_t &in = d.b.in;
    std::memset(&in, 0, sizeof in);
    in.pick_valid = 1; // the head of queue 6 leaves, a new one arrives behind it
    in.pick_q = 6;
    in.acc_valid = 1;
    in.acc_q = 6;
    in.acc_mode = URMA_NO;
    in.acc_order = UB_ORDER_NO;
    const uint64_t limit = 1ull << 25;
    uint64_t e = 0, first_held = 0;
    bool held = false;
    for (; e < limit && !held; e++) {
        ASSERT_EQ(d.b.step(), 0) << "edge " << e;
        if (d.b.out.elig != 1u << 6) {
            held = true;
            first_held = e;
            EXPECT_EQ(d.b.out.held, 1u << 6);
        }
    }
    ASSERT_TRUE(held);
    EXPECT_EQ(first_held, (1ull << 24) - 2); // after 2^24 - 1 picks
    // more picks: the count stays where it is
    for (int i = 0; i < 3; i++) {
        ASSERT_EQ(d.b.step(), 0);
        EXPECT_EQ(d.b.out.elig, 0u) << i;
        EXPECT_EQ(d.b.out.held, 1u << 6) << i;
    }
    // one completion: one below the limit, the head may go
    order_tracker_out_t o = d.edge(-1, 0, 0, 0, -1, 6);
    EXPECT_EQ(o.elig, 1u << 6);
    EXPECT_EQ(o.held, 0u);
    EXPECT_EQ(o.busy, 1);
    EXPECT_EQ(block_mismatches(d.b.inst), 0u);
}

INSTANTIATE_TEST_SUITE_P(OrderTracker, OrderTrackerBackend,
                         ::testing::Values(BACKEND_C, BACKEND_RTL, BACKEND_LOCKSTEP), label);

void random_edge(std::mt19937_64 &rng, order_tracker_in_t *in, int rate)
{
    uint64_t r = rng();
    in->acc_valid = (r & 15) < (uint64_t)rate;
    in->acc_q = (uint8_t)((r >> 4) & 7);
    in->acc_mode = (uint8_t)((r >> 7) & 7);
    in->acc_order = (uint8_t)((r >> 10) & 3);
    in->acc_fence = (r >> 12) % 5 == 0;
    in->pick_valid = ((r >> 16) & 15) < (uint64_t)rate;
    in->pick_q = (uint8_t)((r >> 20) & 7);
    in->cmp_valid = ((r >> 24) & 15) < (uint64_t)rate;
    in->cmp_q = (uint8_t)((r >> 28) & 7);
}

// C and RTL agree on every output port every cycle, under random traffic at
// random rates and resets.
TEST(OrderTrackerLockstep, RandomMillionCycles)
{
    Dut d(BACKEND_LOCKSTEP);
    ASSERT_TRUE(d.b.ok());
    std::mt19937_64 rng(2026);
    uint64_t cycles = testutil::run_cycles(1000000, 100000), held = 0, elig = 0;
    const uint64_t every = testutil::reset_interval(250000);
    int rate = 8;
    for (uint64_t c = 0; c < cycles; c++) {
        if (c % 1000 == 0)
            rate = (int)(rng() % 17);
        if (c % every == every / 2)
            d.b.reset(order_tracker_out_t{});
        random_edge(rng, &d.b.in, rate);
        ASSERT_EQ(d.b.step(), 0) << "cycle " << c;
        held += __builtin_popcount(d.b.out.held);
        elig += __builtin_popcount(d.b.out.elig);
    }
    EXPECT_EQ(block_mismatches(d.b.inst), 0u);
    EXPECT_GT(held, cycles / 10); // the stimulus holds heads back, and lets them go
    EXPECT_GT(elig, cycles / 10);
}

// A deliberately wrong bit in the RTL's view is caught at its cycle.
TEST(OrderTrackerLockstep, AnInjectedBugIsCaught)
{
    block_class_t cls = harness::with_bug(order_tracker_class, "order_tracker_buggy", "elig", 0, 777);
    std::mt19937_64 rng(5);
    std::string wave = "/tmp/ubsim_order_tracker_bug_" + std::to_string(getpid()) + ".vcd";
    harness::Planted p = harness::run_planted<Ot>(&cls, kPeriodPs, 2000, wave.c_str(),
                                                  [&](Ot &b, int64_t) { random_edge(rng, &b.in, 8); });
    std::remove(wave.c_str());
    EXPECT_EQ(p.first, 777);
    EXPECT_NE(p.report.find("lockstep mismatch: cycle 777, block order_tracker_buggy, port elig_o"),
              std::string::npos)
        << p.report;
}

} // namespace
