// Tests of the RoCE RC send pipeline (cmodel/rc_send_pipeline.c and
// rtl/rc_send_pipeline.sv): latency, issue interval, PSN arithmetic,
// back-pressure, reset, idle skipping and C-vs-RTL lockstep. The block is
// driven through the shared harness (block_harness.h).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "blocks.h"
#include "rc_send_pipeline.h"
}

#include "block_harness.h"
#include "test_util.h"

namespace {

constexpr uint64_t kPeriodPs = 3106;  // 322 MHz, rounded; only for traces
constexpr double kCycleNs = 1000.0 / 322.0;

using harness::short_run;

struct Wr {
    uint32_t qpn;
    uint8_t opcode;
    uint32_t len;
    uint64_t addr;
    uint32_t rkey;
    uint32_t tag;
};

struct Pkt {
    rc_send_pipeline_out_t o;
    uint64_t step;  // step whose edge took the packet (downstream sample)
};

// One pipeline instance (the harness's valid/ready Stream) with a
// work-request source and a packet sink.
class Dut : public harness::Stream<rc_send_pipeline_in_t, rc_send_pipeline_out_t> {
public:
    // (no MTU unless a test sets one: every request one packet)
    explicit Dut(backend_kind_t kind) : Stream(&rc_send_pipeline_class, kind, kPeriodPs) { reset(); }

    // Applies one edge. `offer` (may be null) is the request on the wr_*
    // inputs, `ready` the pkt_ready input. Returns true if the request was
    // accepted at this edge; a packet taken at this edge is appended to
    // `taken`.
    bool step(const Wr *offer, bool ready, std::vector<Pkt> *taken = nullptr) {
        if (offer) {
            in.wr_qpn = offer->qpn;
            in.wr_opcode = offer->opcode;
            in.wr_len = offer->len;
            in.wr_addr = offer->addr;
            in.wr_rkey = offer->rkey;
            in.wr_tag = offer->tag;
        }
        const uint64_t now = steps;
        const Edge e = handshake(offer != nullptr, ready);
        EXPECT_EQ(e.rc, 0) << "lockstep mismatch at step " << now;
        if (e.taken && taken)
            taken->push_back(Pkt{e.shown, now});
        return e.accepted;
    }
};

class RcSendBackend : public ::testing::TestWithParam<backend_kind_t> {};

std::string backend_label(const ::testing::TestParamInfo<backend_kind_t> &i) {
    return backend_name(i.param);
}

Wr make_wr(uint32_t qpn, uint8_t op, uint32_t len, uint32_t tag) {
    return Wr{qpn, op, len, 0x1000000000ull + tag * 64ull, 0xABCD0000u ^ qpn, tag};
}

// Expected PSN allocation: mirrors the RC rules (per context index).
struct PsnRef {
    explicit PsnRef(uint32_t init) : init_(init & RC_SEND_PSN_MASK) { clear(); }
    void clear() {
        for (auto &v : next_) v = init_;
    }
    uint32_t alloc(const Wr &w) {
        uint32_t &n = next_[w.qpn % RC_SEND_NUM_QPS];
        const uint32_t psn = n;
        n = (n + rc_send_psn_count(w.opcode, w.len, 0)) & RC_SEND_PSN_MASK;
        return psn;
    }
    uint32_t init_;
    uint32_t next_[RC_SEND_NUM_QPS];
};

void expect_pkt(const Pkt &p, const Wr &w, uint32_t psn) {
    EXPECT_EQ(p.o.pkt_tag, w.tag);
    EXPECT_EQ(p.o.pkt_opcode, w.opcode);
    EXPECT_EQ(p.o.pkt_dqpn, w.qpn & RC_SEND_QPN_MASK);
    EXPECT_EQ(p.o.pkt_psn, psn) << "tag " << w.tag;
    EXPECT_EQ(p.o.pkt_len, w.len);
    EXPECT_EQ(p.o.pkt_addr, w.addr);
    EXPECT_EQ(p.o.pkt_rkey, w.rkey);
    EXPECT_EQ(p.o.pkt_ack_req, rc_send_ack_req(w.opcode));
}

// Idle pipeline: a request accepted at step n is sampled downstream at edge
// n + 8 (pkt_valid in the outputs of step n + 7).
TEST_P(RcSendBackend, IdleLatencyIsEightCycles) {
    Dut d(GetParam());
    d.in.cfg_psn_init = 100;
    for (int rep = 0; rep < 3; ++rep) {
        const Wr w = make_wr(5 + rep, RC_OP_WRITE_ONLY, 64, 77 + rep);
        for (int i = 0; i < 5 * rep; ++i) d.step(nullptr, true);  // idle gap
        ASSERT_EQ(d.out.wr_ready, 1);
        const uint64_t n = d.steps;
        ASSERT_TRUE(d.step(&w, true));
        std::vector<Pkt> got;
        int k = 1;
        for (; k <= 7; ++k) {
            d.step(nullptr, true, &got);
            if (d.out.pkt_valid) break;
        }
        EXPECT_EQ(k, 7) << "pkt_valid must first show in the outputs of step n+7";
        d.step(nullptr, true, &got);
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(got[0].step - n, 8u);
        expect_pkt(got[0], w, 100);
        EXPECT_EQ(d.out.pkt_valid, 0);
    }
}

// Saturated input, no back-pressure: one packet every 6 cycles.
void run_interval(backend_kind_t kind, int nqps, int npkts) {
    Dut d(kind);
    d.in.cfg_psn_init = 0;
    std::vector<Wr> wrs;
    for (int i = 0; i < npkts; ++i)
        wrs.push_back(make_wr(0x100 + (uint32_t)(i % nqps), RC_OP_SEND_ONLY, 64, (uint32_t)i));
    std::vector<Pkt> got;
    size_t next = 0;
    PsnRef ref(0);
    std::vector<uint32_t> psn;
    while (got.size() < wrs.size()) {
        const Wr *offer = next < wrs.size() ? &wrs[next] : nullptr;
        if (d.step(offer, true, &got)) {
            psn.push_back(ref.alloc(wrs[next]));
            ++next;
        }
        ASSERT_LT(d.steps, (uint64_t)npkts * 10 + 100);
    }
    for (size_t i = 0; i < got.size(); ++i) expect_pkt(got[i], wrs[i], psn[i]);
    EXPECT_EQ(got[0].step, 8u);  // first request accepted at step 0
    for (size_t i = 1; i < got.size(); ++i)
        ASSERT_EQ(got[i].step - got[i - 1].step, (uint64_t)RC_SEND_LOOP_CYCLES) << "packet " << i;
    const double span_ns = (double)(got.back().step - got.front().step) * kCycleNs;
    const double rate = (double)(got.size() - 1) / span_ns * 1000.0;  // per us
    const double cyc = (double)(got.back().step - got.front().step) / (double)(got.size() - 1);
    std::printf("[ rc_send ] %s, %d QP(s): %zu packets, measured interval %.3f cycles = "
                "%.2f ns, %.1f M packets/s\n",
                backend_name(kind), nqps, got.size(), cyc, cyc * kCycleNs, rate);
    EXPECT_NEAR(rate, 53.67, 0.05);
}

TEST_P(RcSendBackend, IntervalSixCyclesOneQp) { run_interval(GetParam(), 1, 256); }
TEST_P(RcSendBackend, IntervalSixCyclesManyQps) { run_interval(GetParam(), 16, 1000); }

// PSNs per QP increase by one mod 2^24 and wrap; QPs are independent.
TEST_P(RcSendBackend, PsnWrapsPerQp) {
    Dut d(GetParam());
    const uint32_t init = 0xFFFFF8;
    d.in.cfg_psn_init = init;
    std::vector<Wr> wrs;
    for (uint32_t i = 0; i < 60; ++i)
        wrs.push_back(make_wr(i % 3 == 0 ? 3 : 0x20005, RC_OP_WRITE_ONLY, 128, i));
    std::vector<Pkt> got;
    size_t next = 0;
    while (got.size() < wrs.size()) {
        if (d.step(next < wrs.size() ? &wrs[next] : nullptr, true, &got)) ++next;
        ASSERT_LT(d.steps, 10000u);
    }
    uint32_t exp[2] = {init, init};
    bool wrapped = false;
    for (size_t i = 0; i < got.size(); ++i) {
        const int q = wrs[i].qpn == 3 ? 0 : 1;
        EXPECT_EQ(got[i].o.pkt_tag, wrs[i].tag);
        EXPECT_EQ(got[i].o.pkt_psn, exp[q]);
        if (got[i].o.pkt_psn == 0) wrapped = true;
        exp[q] = (exp[q] + 1) & RC_SEND_PSN_MASK;
    }
    EXPECT_TRUE(wrapped);
}

// An RDMA READ request consumes ceil(len / MTU) PSNs (at least one), one for
// each packet of its response; a WRITE ONLY longer than the MTU leaves as
// FIRST, MIDDLE... and LAST packets, one per MTU segment, each with the next
// PSN, only the last asking for an acknowledgement.
TEST_P(RcSendBackend, PsnsFollowThePackets) {
    Dut d(GetParam());
    const uint32_t init = 0xFFFF00;
    d.in.cfg_psn_init = init;
    d.in.cfg_mtu_log2 = RC_SEND_MTU_LOG2;
    const uint32_t lens[] = {0, 1, 4095, 4096, 4097, 8192, 65536, 65537, 1u << 31, 0xFFFFFFFFu, 64};
    std::vector<Wr> wrs;
    uint32_t tag = 0;
    size_t want = 0;
    auto packets = [](uint32_t len) { return len == 0 ? 1u : (uint32_t)(((uint64_t)len + 4095) / 4096); };
    for (uint32_t len : lens) {
        wrs.push_back(make_wr(9, RC_OP_READ_REQUEST, len, tag++));
        want += 1;
        if (len <= 70000) {
            wrs.push_back(make_wr(9, RC_OP_WRITE_ONLY, len, tag++));
            want += packets(len);
        }
    }
    std::vector<Pkt> got;
    size_t next = 0;
    while (got.size() < want) {
        if (d.step(next < wrs.size() ? &wrs[next] : nullptr, true, &got)) ++next;
        ASSERT_LT(d.steps, 10000u);
    }
    uint32_t exp = init;
    size_t k = 0;
    for (const Wr &w : wrs) {
        const uint32_t n = w.opcode == RC_OP_READ_REQUEST ? 1 : packets(w.len);
        for (uint32_t i = 0; i < n; i++, k++) {
            const rc_send_pipeline_out_t &o = got[k].o;
            EXPECT_EQ(o.pkt_tag, w.tag);
            EXPECT_EQ(o.pkt_psn, (exp + i) & RC_SEND_PSN_MASK) << "len " << w.len;
            uint8_t op = w.opcode;
            if (n > 1)
                op = i == 0 ? RC_OP_WRITE_FIRST : i + 1 == n ? RC_OP_WRITE_LAST : RC_OP_WRITE_MIDDLE;
            EXPECT_EQ(o.pkt_opcode, op);
            EXPECT_EQ(o.pkt_ack_req, i + 1 == n ? 1 : 0);
            EXPECT_EQ(o.pkt_len, n == 1 ? w.len : i + 1 < n ? 4096u : w.len - i * 4096u);
            EXPECT_EQ(o.pkt_addr, w.addr + (uint64_t)i * 4096u);
            if (i > 0) { // one a cycle
                EXPECT_EQ(got[k].step, got[k - 1].step + 1);
            }
        }
        const uint32_t adv = w.opcode == RC_OP_READ_REQUEST ? packets(w.len) : n;
        EXPECT_EQ(rc_send_psn_count(w.opcode, w.len, RC_SEND_MTU_LOG2), adv);
        exp = (exp + adv) & RC_SEND_PSN_MASK;
    }
    EXPECT_EQ(rc_send_psn_count(RC_OP_READ_REQUEST, 4097, RC_SEND_MTU_LOG2), 2u);
    EXPECT_EQ(rc_send_psn_count(RC_OP_READ_REQUEST, 0xFFFFFFFFu, RC_SEND_MTU_LOG2), 1u << 20);
    EXPECT_EQ(rc_send_psn_count(RC_OP_READ_REQUEST, 0xFFFFFFFFu, 0), 1u); // no MTU
    EXPECT_EQ(rc_send_psn_count(RC_OP_WRITE_ONLY, 8193, RC_SEND_MTU_LOG2), 3u);
    EXPECT_EQ(rc_send_ack_req(RC_OP_SEND_FIRST), 0);
    EXPECT_EQ(rc_send_ack_req(RC_OP_WRITE_MIDDLE), 0);
    EXPECT_EQ(rc_send_ack_req(RC_OP_SEND_ONLY), 1);
    EXPECT_EQ(rc_send_ack_req(RC_OP_READ_REQUEST), 1);
    EXPECT_EQ(rc_send_ack_req(0x64), 0);
}

// Random input gaps and random back-pressure: every tag exactly once, in
// order, with the right PSN; a held packet never changes while it waits.
void random_traffic(Dut &d, std::mt19937_64 &rng, int nwrs, uint32_t tag0, PsnRef &ref,
                    uint64_t max_steps) {
    std::deque<std::pair<Wr, uint32_t>> expect;  // accepted, not yet out
    std::vector<Wr> src;
    for (int i = 0; i < nwrs; ++i) {
        static const uint8_t ops[] = {RC_OP_SEND_ONLY, RC_OP_WRITE_ONLY, RC_OP_READ_REQUEST,
                                      RC_OP_SEND_FIRST, RC_OP_WRITE_LAST, 0x13};
        const uint32_t qpn = ((uint32_t)(rng() & 0xFFFFF) << 4) | (uint32_t)(rng() % 16);
        const uint32_t len = (rng() % 4 == 0) ? (uint32_t)rng() : (uint32_t)(rng() % 20000);
        src.push_back(make_wr(qpn, ops[rng() % 6], len, tag0 + (uint32_t)i));
    }
    size_t next = 0, done = 0;
    const int ready_pct = 10 + (int)(rng() % 80);
    const int valid_pct = 10 + (int)(rng() % 90);
    std::vector<Pkt> got;
    rc_send_pipeline_out_t held{};
    bool holding = false;
    const uint64_t start = d.steps;
    while (done < src.size()) {
        const bool offer = next < src.size() && (int)(rng() % 100) < valid_pct;
        const bool ready = (int)(rng() % 100) < ready_pct;
        got.clear();
        if (d.step(offer ? &src[next] : nullptr, ready, &got)) {
            expect.emplace_back(src[next], ref.alloc(src[next]));
            ++next;
        }
        for (const Pkt &p : got) {
            ASSERT_FALSE(expect.empty()) << "packet without a request (duplicate?)";
            expect_pkt(p, expect.front().first, expect.front().second);
            expect.pop_front();
            ++done;
        }
        if (holding && got.empty()) {
            rc_send_pipeline_out_t now = d.out;
            now.wr_ready = held.wr_ready;
            ASSERT_EQ(0, std::memcmp(&held, &now, sizeof held)) << "held packet changed";
        }
        holding = d.out.pkt_valid;
        held = d.out;
        ASSERT_LT(d.steps - start, max_steps) << "stuck";
    }
    // drained: nothing more comes out
    for (int i = 0; i < 20; ++i) {
        got.clear();
        d.step(nullptr, true, &got);
        ASSERT_TRUE(got.empty());
    }
    EXPECT_TRUE(expect.empty());
}

TEST_P(RcSendBackend, RandomBackPressureNoDropNoDuplicate) {
    Dut d(GetParam());
    std::mt19937_64 rng(12345);
    d.in.cfg_psn_init = 0xFFFFF0;
    PsnRef ref(0xFFFFF0);
    const int rounds = short_run() ? 4 : 12;
    for (int r = 0; r < rounds; ++r)
        random_traffic(d, rng, 500, (uint32_t)r * 1000u, ref, 500 * 200);
}

// Periodic back-pressure with a backlog of requests (the MAC frees once every
// `period` cycles, as the wire does in `ubsim rate`): OUT is a normal
// valid/ready output register that refills from C6 whenever it is empty or
// taken at the same edge, so once the pipeline is primed a packet leaves at
// every edge that samples pkt_ready = 1 (for any period >= the 6-cycle loop),
// and pkt_valid never drops while requests are waiting.
TEST_P(RcSendBackend, PeriodicBackPressurePacketOnEveryReadyCycle) {
    const int periods[] = {6, 7, 8, 13, 26, 27, 28, 40};
    for (int period : periods) {
        for (int phase : {0, 3, period - 1}) {
            SCOPED_TRACE("period " + std::to_string(period) + " phase " + std::to_string(phase));
            Dut d(GetParam());
            d.in.cfg_psn_init = 0xFFFFFA;  // PSNs wrap during the run
            PsnRef ref(0xFFFFFA);
            const int npkts = 40;
            std::vector<Wr> wrs;
            for (int i = 0; i < npkts; ++i)
                wrs.push_back(make_wr((uint32_t)(i % 3), i % 2 ? RC_OP_READ_REQUEST : RC_OP_SEND_ONLY,
                                      4096u * (uint32_t)(i % 4), (uint32_t)i));
            std::vector<uint32_t> psn;
            std::vector<Pkt> got;
            std::vector<uint64_t> ready_edges;  // edges sampling pkt_ready = 1
            size_t next = 0;
            while (got.size() < wrs.size()) {
                const bool ready = (int)(d.steps % (uint64_t)period) == phase;
                if (ready) ready_edges.push_back(d.steps);
                const Wr *offer = next < wrs.size() ? &wrs[next] : nullptr;  // backlog
                if (d.step(offer, ready, &got)) psn.push_back(ref.alloc(wrs[next++]));
                ASSERT_LT(d.steps, (uint64_t)(npkts + 4) * (uint64_t)period + 100);
            }
            for (size_t i = 0; i < got.size(); ++i) expect_pkt(got[i], wrs[i], psn[i]);
            // primed: the first packet is out; from then on every ready edge
            // takes the next packet, with no gap
            size_t k = 0;
            while (ready_edges[k] != got[0].step) ++k;
            for (size_t i = 1; i < got.size(); ++i)
                ASSERT_EQ(got[i].step, ready_edges[k + i]) << "packet " << i << " missed a ready cycle";
            // the first packet is taken at the first ready edge at or after the
            // idle latency (request 0 accepted at step 0)
            EXPECT_GE(got[0].step, (uint64_t)RC_SEND_LATENCY);
            EXPECT_LT(got[0].step, (uint64_t)RC_SEND_LATENCY + (uint64_t)period);
        }
    }
}

// After a long stall with requests waiting, the held packet in OUT and the
// one waiting in C6 go out at consecutive ready edges, then one every 6.
TEST_P(RcSendBackend, StallReleaseDrainsOutAndC6BackToBack) {
    Dut d(GetParam());
    d.in.cfg_psn_init = 0;
    PsnRef ref(0);
    std::vector<Wr> wrs;
    for (uint32_t i = 0; i < 12; ++i) wrs.push_back(make_wr(i % 5, RC_OP_WRITE_ONLY, 64, i));
    std::vector<uint32_t> psn;
    std::vector<Pkt> got;
    size_t next = 0;
    // stalled: fill OUT, the engine (C6) and S0
    for (int i = 0; i < 60; ++i) {
        const Wr *offer = next < wrs.size() ? &wrs[next] : nullptr;
        if (d.step(offer, false, &got)) psn.push_back(ref.alloc(wrs[next++]));
    }
    ASSERT_TRUE(got.empty());
    ASSERT_EQ(next, 3u);  // OUT, C6 and S0 hold one request each
    EXPECT_EQ(d.out.pkt_valid, 1);
    EXPECT_EQ(d.out.wr_ready, 0);
    const uint64_t t0 = d.steps;
    while (got.size() < wrs.size()) {
        const Wr *offer = next < wrs.size() ? &wrs[next] : nullptr;
        if (d.step(offer, true, &got)) psn.push_back(ref.alloc(wrs[next++]));
        ASSERT_LT(d.steps, t0 + 200);
    }
    for (size_t i = 0; i < got.size(); ++i) expect_pkt(got[i], wrs[i], psn[i]);
    EXPECT_EQ(got[0].step, t0);
    EXPECT_EQ(got[1].step, t0 + 1);
    for (size_t i = 2; i < got.size(); ++i)
        EXPECT_EQ(got[i].step - got[i - 1].step, (uint64_t)RC_SEND_LOOP_CYCLES) << "packet " << i;
}

// Reset while requests are in every stage: all of them are gone, every QP
// starts again at cfg_psn_init, and the pipeline works normally.
TEST_P(RcSendBackend, ResetMidTraffic) {
    Dut d(GetParam());
    std::mt19937_64 rng(99);
    d.in.cfg_psn_init = 0x123456;
    for (int r = 0; r < 20; ++r) {
        // load it up: saturated input, downstream stalled
        const int n = 1 + (int)(rng() % 40);
        uint32_t tag = 0;
        std::vector<Pkt> got;
        for (int i = 0; i < n; ++i) {
            const Wr w = make_wr((uint32_t)(rng() % 64), RC_OP_WRITE_ONLY, 64, tag);
            if (d.step(&w, rng() % 3 == 0, &got)) ++tag;
        }
        d.reset();
        d.in.cfg_psn_init = 0x123456 + (uint32_t)r;
        // the first idle step shows the reset outputs
        got.clear();
        d.step(nullptr, true, &got);
        EXPECT_TRUE(got.empty());
        EXPECT_EQ(d.out.pkt_valid, 0);
        EXPECT_EQ(d.out.wr_ready, 1);
        PsnRef ref(0x123456 + (uint32_t)r);
        random_traffic(d, rng, 30, 5000, ref, 30 * 300);
    }
}

// An empty pipeline with no input does not change: the simulator may skip
// stepping it. Same packets, same relative timing, with or without a gap.
TEST_P(RcSendBackend, IdleStepsChangeNothing) {
    const int gaps[] = {0, 1, 7, 1000};
    std::vector<std::vector<Pkt>> runs;
    for (int gap : gaps) {
        Dut d(GetParam());
        std::mt19937_64 rng(7);
        d.in.cfg_psn_init = 0xFFFFFE;
        PsnRef ref(0xFFFFFE);
        random_traffic(d, rng, 40, 0, ref, 40 * 300);  // drains at its end
        for (int i = 0; i < gap; ++i) d.step(nullptr, (i & 1) != 0);
        const uint64_t t0 = d.steps;
        std::vector<Pkt> got;
        for (uint32_t i = 0; i < 30; ++i) {
            const Wr w = make_wr(i % 4, RC_OP_READ_REQUEST, 5000 * i, 100 + i);
            while (!d.step(&w, true, &got)) {
            }
        }
        while (got.size() < 30) d.step(nullptr, true, &got);
        for (Pkt &p : got) p.step -= t0;
        runs.push_back(got);
    }
    for (size_t r = 1; r < runs.size(); ++r) {
        ASSERT_EQ(runs[r].size(), runs[0].size());
        for (size_t i = 0; i < runs[0].size(); ++i) {
            EXPECT_EQ(runs[r][i].step, runs[0][i].step);
            EXPECT_EQ(0, std::memcmp(&runs[r][i].o, &runs[0][i].o, sizeof runs[0][i].o));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(RcSend, RcSendBackend,
                         ::testing::Values(BACKEND_C, BACKEND_RTL, BACKEND_LOCKSTEP),
                         backend_label);

// The C step leaves its state untouched when empty and idle.
TEST(RcSendC, IdleStepKeepsStateBitForBit) {
    rc_send_pipeline_state_t s, before;
    rc_send_pipeline_reset(&s);
    rc_send_pipeline_in_t in{};
    rc_send_pipeline_out_t out{};
    in.cfg_psn_init = 5;
    in.wr_valid = 1;
    in.wr_qpn = 2;
    in.wr_opcode = RC_OP_SEND_ONLY;
    in.pkt_ready = 1;
    rc_send_pipeline_step(&s, &in, &out);
    EXPECT_TRUE(rc_send_pipeline_busy(&s));
    in.wr_valid = 0;
    for (int i = 0; i < 20; ++i) rc_send_pipeline_step(&s, &in, &out);
    EXPECT_FALSE(rc_send_pipeline_busy(&s));
    std::memcpy(&before, &s, sizeof s);
    for (int i = 0; i < 100; ++i) {
        in.pkt_ready = i & 1;
        in.cfg_psn_init = (uint32_t)i;
        in.wr_tag = (uint32_t)i;
        rc_send_pipeline_step(&s, &in, &out);
        ASSERT_EQ(0, std::memcmp(&before, &s, sizeof s));
        ASSERT_EQ(0, std::memcmp(&out, &s.out, sizeof out));
    }
}

// Fast-forward: over quiet() edges with the inputs held no output changes,
// and advance(n) leaves the state n such steps leave; with S0 empty and a
// request offered, or a packet in OUT, nothing is quiet.
TEST(RcSendC, QuietEdgesChangeNoOutputAndAdvanceEqualsSteps) {
    rc_send_pipeline_state_t s;
    rc_send_pipeline_reset(&s);
    rc_send_pipeline_out_t out{};
    unsigned seed = 99;
    auto rnd = [&seed]() { seed = seed * 1103515245u + 12345u; return (seed >> 16) & 0x7fff; };
    int jumps = 0;
    for (int cyc = 0; cyc < 20000; ++cyc) {
        rc_send_pipeline_in_t in{};
        in.cfg_psn_init = 7;
        in.wr_valid = rnd() % 3 != 0;
        in.wr_qpn = rnd() % 5;
        in.wr_opcode = rnd() % 2 ? RC_OP_READ_REQUEST : RC_OP_SEND_ONLY;
        in.wr_len = 64u << (rnd() % 8);
        in.wr_tag = (uint32_t)cyc;
        in.pkt_ready = rnd() % 4 != 0;
        int q = rc_send_pipeline_quiet(&s, &in);
        if ((in.wr_valid && s.out.wr_ready) || s.out.pkt_valid) {
            ASSERT_EQ(q, 0) << "cycle " << cyc;
        }
        for (int n = 1; n <= q; ++n) {
            rc_send_pipeline_state_t a = s, b = s;
            rc_send_pipeline_out_t oa{};
            for (int k = 0; k < n; ++k) {
                rc_send_pipeline_step(&a, &in, &oa);
                ASSERT_EQ(0, std::memcmp(&oa, &out, sizeof oa)) << "an output changed, cycle " << cyc;
            }
            rc_send_pipeline_advance(&b, &in, n);
            ASSERT_EQ(0, std::memcmp(&a, &b, sizeof a));
            ++jumps;
        }
        rc_send_pipeline_step(&s, &in, &out);
    }
    EXPECT_GT(jumps, 1000);
}

// Random stimulus through the lockstep backend: C and RTL agree on every
// output port every cycle.
TEST(RcSendLockstep, RandomStimulusMillionCycles) {
    harness::RandomSpec<rc_send_pipeline_in_t> spec;
    spec.cycles = testutil::run_cycles(1000000, 100000);
    spec.seed = 2026;
    spec.period_ps = kPeriodPs;
    spec.phase = 5000;
    spec.reset_every = testutil::reset_interval(150000);
    spec.new_phase = [](std::mt19937_64 &rng, rc_send_pipeline_in_t &in) {
        if (rng() % 4 == 0) in.cfg_psn_init = (uint32_t)rng() & 0xFFFFFF;
        if (rng() % 4 == 0) in.cfg_mtu_log2 = rng() % 3 ? (uint8_t)(8 + rng() % 9) : 0;
    };
    spec.payload = [](std::mt19937_64 &rng, uint64_t c, rc_send_pipeline_in_t &in) {
        static const uint8_t ops[] = {RC_OP_SEND_ONLY, RC_OP_WRITE_ONLY, RC_OP_READ_REQUEST,
                                      RC_OP_READ_RESP_ONLY, RC_OP_SEND_FIRST, RC_OP_WRITE_MIDDLE};
        const uint64_t r = rng();
        in.wr_opcode = (r >> 16) % 8 < 6 ? ops[(r >> 16) % 8] : (uint8_t)(r >> 20);
        in.wr_qpn = (uint32_t)(r >> 28) & 0xFFFFFF;
        const uint64_t r2 = rng();
        /* with an MTU, lengths of up to 64 packets of 256 B */
        in.wr_len = (r2 & 3) || in.cfg_mtu_log2 ? (uint32_t)((r2 >> 2) % 16385) : (uint32_t)(r2 >> 32);
        in.wr_addr = rng();
        in.wr_rkey = (uint32_t)r2 ^ 0x5a5a5a5a;
        in.wr_tag = (uint32_t)c;
    };
    const harness::RandomStats st =
        harness::random_lockstep<rc_send_pipeline_in_t, rc_send_pipeline_out_t>(&rc_send_pipeline_class,
                                                                                spec);
    EXPECT_EQ(st.mismatches, 0u);
    EXPECT_EQ(st.cycles, spec.cycles);
    EXPECT_GT(st.packets, spec.cycles / 100);
    std::printf("[ rc_send ] lockstep: %llu cycles, %llu packets, %llu resets, %llu mismatches, "
                "%.2f s (%.2f M cycles/s)\n",
                (unsigned long long)st.cycles, (unsigned long long)st.packets,
                (unsigned long long)st.resets, (unsigned long long)st.mismatches, st.secs,
                (double)st.cycles / st.secs / 1e6);
}

// The MTU input is sampled where the C model samples it (the engine's load
// edge for the segment count, OUT's edges for the lengths and addresses),
// also when it changes in the middle of a message: cfg_mtu_log2 (any value
// 0..31) and cfg_psn_init change every few cycles, C and RTL compared on
// every output port every cycle.
TEST(RcSendLockstep, MtuChangesEveryFewCycles) {
    harness::RandomSpec<rc_send_pipeline_in_t> spec;
    spec.cycles = testutil::run_cycles(300000, 30000);
    spec.seed = 77;
    spec.period_ps = kPeriodPs;
    spec.phase = 3;
    spec.reset_every = testutil::reset_interval(100000);
    spec.new_phase = [](std::mt19937_64 &rng, rc_send_pipeline_in_t &in) {
        const uint64_t r = rng();
        if (r % 2 == 0)
            in.cfg_mtu_log2 = (r >> 8) % 4 == 0 ? (uint8_t)((r >> 16) % 32) : (uint8_t)(6 + (r >> 16) % 4);
        if ((r >> 24) % 16 == 0)
            in.cfg_psn_init = (uint32_t)(r >> 32) & 0xFFFFFF;
    };
    spec.payload = [](std::mt19937_64 &rng, uint64_t c, rc_send_pipeline_in_t &in) {
        static const uint8_t ops[] = {RC_OP_SEND_ONLY, RC_OP_WRITE_ONLY, RC_OP_READ_REQUEST,
                                      RC_OP_READ_RESP_ONLY, RC_OP_ACKNOWLEDGE};
        const uint64_t r = rng();
        in.wr_opcode = ops[(r >> 16) % 5];
        in.wr_qpn = (uint32_t)(r >> 28) & 0xFFFFFF;
        /* mostly up to 8 packets of 64..512 B; now and then any length */
        in.wr_len = (r & 15) ? (uint32_t)((r >> 4) % 4097) : (uint32_t)(r >> 32);
        in.wr_addr = (r & 0x100) ? ~(uint64_t)0 - (rng() % 20000) : rng();  // carries into bit 32
        in.wr_rkey = (uint32_t)r;
        in.wr_tag = (uint32_t)c;
    };
    const harness::RandomStats st =
        harness::random_lockstep<rc_send_pipeline_in_t, rc_send_pipeline_out_t>(&rc_send_pipeline_class,
                                                                                spec);
    EXPECT_EQ(st.mismatches, 0u);
    EXPECT_EQ(st.cycles, spec.cycles);
    EXPECT_GT(st.packets, spec.cycles / 100);
}

// The RTL backend traces itself to an FST file when asked.
TEST(RcSendRtl, WritesFstTrace) {
    const std::string path = ::testing::TempDir() + "rc_send_pipeline_test.fst";
    std::remove(path.c_str());
    {
        block_opts_t o = harness::opts(BACKEND_RTL, kPeriodPs);
        o.rtl_fst_path = path.c_str();
        harness::Stream<rc_send_pipeline_in_t, rc_send_pipeline_out_t> s(&rc_send_pipeline_class, &o);
        ASSERT_TRUE(s.ok()) << s.err;
        s.reset();
        s.in.wr_opcode = RC_OP_READ_REQUEST;
        s.in.wr_len = 10000;
        for (uint64_t i = 0; i < 40; ++i) {
            s.in.wr_tag = (uint32_t)i;
            s.handshake(i < 3, true);
        }
    }
    FILE *f = std::fopen(path.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 0, SEEK_END);
    EXPECT_GT(std::ftell(f), 100);
    std::fclose(f);
}

// Speed of the C step under load (reported, loosely bounded).
TEST(RcSendC, StepIsFast) {
    rc_send_pipeline_state_t s;
    rc_send_pipeline_reset(&s);
    rc_send_pipeline_in_t in{};
    rc_send_pipeline_out_t out{};
    in.wr_valid = 1;
    in.wr_opcode = RC_OP_WRITE_ONLY;
    in.pkt_ready = 1;
    const uint64_t n = short_run() ? 1000000 : 20000000;
    uint64_t pkts = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < n; ++i) {
        in.wr_qpn = (uint32_t)i;
        rc_send_pipeline_step(&s, &in, &out);
        pkts += out.pkt_valid;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_GT(pkts, 0u);
    std::printf("[ rc_send ] C step, busy: %.1f ns/step\n", secs * 1e9 / (double)n);
}

}  // namespace
