// UB send pipeline: latency, issue interval, fairness, PSN assignment,
// back-pressure, reset, and C-vs-RTL lockstep (including a planted bug).
//
// Most tests run the block in lockstep, so every check is made on the C
// model while the RTL is compared with it port by port on every cycle. The
// block is driven through the shared harness (block_harness.h).
#include <gtest/gtest.h>

#include <deque>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" {
#include "blocks.h"
#include "ub_pkg.h"
#include "ub_send_pipeline.h"
#include "ub_tx.h"
}

#include "block_harness.h"
#include "test_util.h"

namespace {

constexpr uint64_t kPeriodPs = 3106;

struct Req {
    uint8_t opcode = UB_TA_WRITE, mode = URMA_OI, order = UB_ORDER_NO, fence = 0, comp = 0;
    uint32_t jetty = 0, dst = 0, len = 64, token = 0x1234, tag = 0;
    uint64_t addr = 0x1000;
};

struct Pkt {
    ub_tx_out_t o;
    uint64_t taken;  // step index of the edge at which it was taken
};

using Pipe = harness::Stream<ub_tx_in_t, ub_tx_out_t>;

// One block instance with a source of requests and a sink of packets.
// step() applies one edge: the next request is offered when offer(step)
// says so, pkt_ready is ready(step).
struct Harness : Pipe {
    std::vector<Req> reqs;
    size_t next = 0;                    // next request to offer
    std::vector<int64_t> accepted;      // step index of acceptance, per request
    std::vector<int64_t> first_seen;    // step whose outputs first showed it
    std::vector<Pkt> pkts;              // in the order taken
    std::function<bool(uint64_t)> ready = [](uint64_t) { return true; };
    std::function<bool(uint64_t)> offer = [](uint64_t) { return true; };
    bool check_stable = true;
    // Every request's completion comes back the edge after its last packet
    // left (the order tracker counts it done); one per edge.
    bool loopback = true;
    std::deque<uint8_t> completions;

    explicit Harness(backend_kind_t k) : Pipe(&ub_tx_class, k, kPeriodPs) { init(); }
    Harness(const block_class_t *cls, const block_opts_t *o) : Pipe(cls, o) { init(); }

    void init()
    {
        out = reset_outputs();
        in.cfg_psn_init = 0;
        in.cfg_tpn_base = 0x100;
    }
    // Requests offered but not yet accepted are offered again after a reset;
    // the ones inside are lost by design (Pipe::reset).

    void add(const Req &r)
    {
        reqs.push_back(r);
        reqs.back().tag = (uint32_t)(reqs.size() - 1);
        accepted.push_back(-1);
        first_seen.push_back(-1);
    }

    void step()
    {
        const uint64_t now = steps;
        bool have = next < reqs.size() && offer(now);
        if (have) {
            const Req &r = reqs[next];
            in.wr_opcode = r.opcode;
            in.wr_mode = r.mode;
            in.wr_order = r.order;
            in.wr_fence = r.fence;
            in.wr_comp_order = r.comp;
            in.wr_jetty = r.jetty;
            in.wr_dst = r.dst;
            in.wr_len = r.len;
            in.wr_addr = r.addr;
            in.wr_token = r.token;
            in.wr_tag = r.tag;
        }
        in.cmp_valid = 0;
        if (loopback && !completions.empty()) {
            in.cmp_valid = 1;
            in.cmp_q = completions.front();
            completions.pop_front();
        }
        Edge e = handshake(have, ready(now));
        const ub_tx_out_t &prev = e.shown;
        if (e.taken && prev.pkt_last)
            completions.push_back((uint8_t)(prev.pkt_jetty & (UBSP_NUM_QUEUES - 1)));
        if (e.accepted)
            accepted[next++] = (int64_t)now;
        if (e.taken)
            pkts.push_back({prev, now});
        if (check_stable && prev.pkt_valid && !in.pkt_ready) {
            // A packet not taken stays on the outputs unchanged.
            EXPECT_TRUE(out.pkt_valid);
            EXPECT_EQ(out.pkt_tag, prev.pkt_tag);
            EXPECT_EQ(out.pkt_psn, prev.pkt_psn);
        }
        if (out.pkt_valid && out.pkt_tag < first_seen.size() && first_seen[out.pkt_tag] < 0)
            first_seen[out.pkt_tag] = (int64_t)now;
    }
    void run(uint64_t n)
    {
        for (uint64_t i = 0; i < n; i++)
            step();
    }
    // Steps until every request has come out (or the limit).
    void drain(uint64_t limit = 1000000)
    {
        for (uint64_t i = 0; i < limit && pkts.size() < reqs.size(); i++)
            step();
    }
};

TEST(UbSendPipeline, IdleLatency24ForEveryModeAndOrder)
{
    Harness h(BACKEND_LOCKSTEP);
    const uint8_t modes[] = {URMA_OT, URMA_OI, URMA_OL, URMA_NO};
    int n = 0;
    for (uint8_t m : modes)
        for (uint8_t ord = 0; ord < 3; ord++)
            for (uint8_t f = 0; f < 2; f++) {
                Req r;
                r.mode = m;
                r.order = ord;
                r.fence = f;
                r.comp = (uint8_t)(ord & 1);
                r.jetty = (uint32_t)(n * 37);
                r.dst = (uint32_t)(n * 5);
                r.opcode = ord == 2 ? UB_TA_READ : UB_TA_WRITE;
                h.add(r);
                n++;
            }
    // One request at a time on an idle pipeline.
    h.offer = [&](uint64_t s) { return s % 40 == 0; };
    h.drain();
    ASSERT_EQ(h.pkts.size(), h.reqs.size());
    for (size_t i = 0; i < h.reqs.size(); i++) {
        const Pkt &p = h.pkts[i];
        ASSERT_EQ(p.o.pkt_tag, i);
        EXPECT_EQ(h.first_seen[i] - h.accepted[i], UBSP_LATENCY - 1) << "request " << i;
        EXPECT_EQ((int64_t)p.taken - h.accepted[i], UBSP_LATENCY) << "request " << i;
        const Req &r = h.reqs[i];
        EXPECT_EQ(p.o.pkt_tp_opcode, ub_mode_reliable(r.mode) ? UB_TP_RELIABLE : UB_TP_UNRELIABLE);
        EXPECT_EQ(p.o.pkt_order, ub_wire_order(r.order, r.fence));
        EXPECT_EQ(p.o.pkt_mode, r.mode);
        EXPECT_EQ(p.o.pkt_comp_order, r.comp);
        EXPECT_EQ(p.o.pkt_ta_opcode, r.opcode);
        EXPECT_EQ(p.o.pkt_jetty, r.jetty);
        EXPECT_EQ(p.o.pkt_dst, r.dst);
        EXPECT_EQ(p.o.pkt_src_tpn, 0x100u + (r.dst % UBSP_NUM_CHANNELS));
        EXPECT_EQ(p.o.pkt_last, 1);
        EXPECT_EQ(p.o.pkt_ack_req, r.mode == URMA_OL);
    }
    EXPECT_EQ(h.rc_any, 0);
}

// Back-to-back burst; returns the intervals between packets.
static std::vector<uint64_t> burst_intervals(backend_kind_t k, int n, uint32_t jetties,
                                             uint32_t seed)
{
    Harness h(k);
    std::mt19937 rng(seed);
    for (int i = 0; i < n; i++) {
        Req r;
        r.jetty = jetties == 1 ? 7 : rng() % jetties;
        r.dst = rng() % 64;
        r.mode = (uint8_t)(1 + rng() % 4);
        r.order = (uint8_t)(rng() % 2); /* no waiting: NO, RO */
        h.add(r);
    }
    h.drain();
    EXPECT_EQ(h.pkts.size(), (size_t)n);
    EXPECT_EQ(h.rc_any, 0);
    EXPECT_EQ(h.pkts[0].taken - h.accepted[0], (uint64_t)UBSP_LATENCY);
    std::vector<uint64_t> iv;
    for (size_t i = 1; i < h.pkts.size(); i++)
        iv.push_back(h.pkts[i].taken - h.pkts[i - 1].taken);
    return iv;
}

TEST(UbSendPipeline, SteadyIntervalTwoOneJetty)
{
    auto iv = burst_intervals(BACKEND_LOCKSTEP, 1000, 1, 1);
    for (size_t i = 0; i < iv.size(); i++)
        ASSERT_EQ(iv[i], (uint64_t)UBSP_II) << "packet " << i + 1;
}

TEST(UbSendPipeline, SteadyIntervalTwoManyJetties)
{
    for (uint32_t j : {2u, 8u, 64u, 1000u}) {
        auto iv = burst_intervals(BACKEND_LOCKSTEP, 1000, j, j);
        for (size_t i = 0; i < iv.size(); i++)
            ASSERT_EQ(iv[i], (uint64_t)UBSP_II) << j << " jetties, packet " << i + 1;
    }
}

TEST(UbSendPipeline, RoundRobinFairness)
{
    Harness h(BACKEND_LOCKSTEP);
    // Ten fillers on Jetty 7 fill the back end while the MAC is stalled.
    for (int i = 0; i < 10; i++) {
        Req r;
        r.jetty = 7;
        h.add(r);
    }
    // Then four requests each from Jetties 0..3, submitted Jetty by Jetty.
    for (uint32_t j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) {
            Req r;
            r.jetty = j;
            h.add(r);
        }
    h.ready = [](uint64_t s) { return s >= 200; };
    // The fillers are all picked before the others arrive.
    h.offer = [&](uint64_t s) { return h.next < 10 || s >= 60; };
    h.run(200);
    EXPECT_TRUE(h.pkts.empty());
    EXPECT_EQ(h.next, h.reqs.size());  // all accepted while stalled
    h.drain();
    ASSERT_EQ(h.pkts.size(), h.reqs.size());
    std::string seq;
    for (const Pkt &p : h.pkts)
        seq += std::to_string(p.o.pkt_jetty);
    for (int i = 0; i < 10; i++)
        EXPECT_EQ(h.pkts[i].o.pkt_jetty, 7u) << seq;
    // A FIFO would give 0,0,0,0,1,1,...; the rotating priority alternates.
    for (int i = 0; i < 16; i++)
        EXPECT_EQ(h.pkts[10 + i].o.pkt_jetty, (uint32_t)(i % 4)) << "packet " << 10 + i;
    // TASSN counts per Jetty.
    std::map<uint32_t, uint16_t> tassn;
    for (const Pkt &p : h.pkts)
        EXPECT_EQ(p.o.pkt_tassn, tassn[p.o.pkt_jetty]++);
    EXPECT_EQ(h.rc_any, 0);
}

TEST(UbSendPipeline, PsnPerChannelWrapsModulo2To24)
{
    Harness h(BACKEND_LOCKSTEP);
    h.in.cfg_psn_init = 0xFFFFF0;
    std::mt19937 rng(7);
    for (int i = 0; i < 400; i++) {
        Req r;
        r.jetty = rng() % 32;
        r.dst = rng() % 5 + 16 * (rng() % 3);  // channels 0..4, several EIDs each
        r.mode = (uint8_t)(1 + rng() % 4);
        h.add(r);
    }
    h.drain();
    ASSERT_EQ(h.pkts.size(), h.reqs.size());
    std::map<uint32_t, uint32_t> next_psn;
    bool wrapped = false;
    for (const Pkt &p : h.pkts) {
        uint32_t ch = p.o.pkt_dst % UBSP_NUM_CHANNELS;
        EXPECT_EQ(p.o.pkt_src_tpn, 0x100u + ch);
        EXPECT_EQ(p.o.pkt_dst_tpn, 0x100u + ch);
        uint32_t want = next_psn.count(ch) ? next_psn[ch] : 0xFFFFF0u;
        EXPECT_EQ(p.o.pkt_psn, want);
        EXPECT_EQ(p.o.pkt_tpmsn, want);
        if (next_psn.count(ch)) {
            EXPECT_TRUE(ub_psn_lt(want == 0 ? 0xFFFFFF : want - 1, p.o.pkt_psn));
        }
        if (p.o.pkt_psn == 0)
            wrapped = true;
        next_psn[ch] = ub_psn_add(p.o.pkt_psn, 1);
        EXPECT_EQ(p.o.pkt_ack_req,
                  ub_mode_reliable(p.o.pkt_mode) &&
                      (p.o.pkt_mode == URMA_OL || (p.o.pkt_psn & 15) == 15));
    }
    EXPECT_TRUE(wrapped);
    EXPECT_EQ(h.rc_any, 0);
}

// Random offers and random back-pressure: every tag exactly once, per-Jetty
// order and per-channel PSN order kept.
static void backpressure_run(backend_kind_t k, uint32_t seed, int n, double p_ready)
{
    Harness h(k);
    std::mt19937 rng(seed);
    h.in.cfg_psn_init = rng() & 0xFFFFFF;
    for (int i = 0; i < n; i++) {
        Req r;
        r.jetty = rng() % 40;
        r.dst = rng() % 40;
        r.mode = (uint8_t)(1 + rng() % 4);
        r.order = (uint8_t)(rng() % 3);
        r.fence = rng() & 1;
        r.addr = ((uint64_t)rng() << 32) | rng();
        r.len = rng();
        r.token = rng();
        h.add(r);
    }
    std::bernoulli_distribution rd(p_ready), of(0.7);
    h.ready = [&](uint64_t) { return rd(rng); };
    h.offer = [&](uint64_t) { return of(rng); };
    h.drain(50 * (uint64_t)n);
    h.run(200);  // nothing more may come out
    ASSERT_EQ(h.pkts.size(), h.reqs.size());
    std::vector<int> seen(h.reqs.size(), 0);
    std::map<uint32_t, int64_t> last_tag_of_jetty;
    std::map<uint32_t, uint32_t> next_psn;
    for (const Pkt &p : h.pkts) {
        ASSERT_LT(p.o.pkt_tag, h.reqs.size());
        EXPECT_EQ(seen[p.o.pkt_tag]++, 0) << "duplicate tag " << p.o.pkt_tag;
        const Req &r = h.reqs[p.o.pkt_tag];
        EXPECT_EQ(p.o.pkt_jetty, r.jetty);
        EXPECT_EQ(p.o.pkt_addr, r.addr);
        EXPECT_EQ(p.o.pkt_len, r.len);
        EXPECT_EQ(p.o.pkt_token, r.token);
        auto it = last_tag_of_jetty.find(r.jetty);
        if (it != last_tag_of_jetty.end()) {
            EXPECT_GT((int64_t)p.o.pkt_tag, it->second) << "Jetty order";
        }
        last_tag_of_jetty[r.jetty] = p.o.pkt_tag;
        uint32_t ch = r.dst % UBSP_NUM_CHANNELS;
        if (next_psn.count(ch)) {
            EXPECT_EQ(p.o.pkt_psn, next_psn[ch]);
        }
        next_psn[ch] = ub_psn_add(p.o.pkt_psn, 1);
    }
    EXPECT_EQ(h.rc_any, 0);
}

TEST(UbSendPipeline, BackPressureNeverDropsOrDuplicates)
{
    backpressure_run(BACKEND_LOCKSTEP, 11, 3000, 0.5);
    backpressure_run(BACKEND_LOCKSTEP, 12, 3000, 0.1);
    backpressure_run(BACKEND_LOCKSTEP, 13, 3000, 0.9);
    backpressure_run(BACKEND_RTL, 14, 2000, 0.3);
}

TEST(UbSendPipeline, ResetInMidTraffic)
{
    Harness h(BACKEND_LOCKSTEP);
    h.in.cfg_psn_init = 100;
    for (int i = 0; i < 200; i++) {
        Req r;
        r.jetty = 3;
        r.dst = 2;
        h.add(r);
    }
    h.ready = [](uint64_t s) { return s % 3 != 0; };
    h.run(150);
    ASSERT_GT(h.pkts.size(), 10u);
    h.reset();
    // After reset: empty, ready, PSN and TASSN restart, latency 24 again.
    h.ready = [](uint64_t) { return true; };
    size_t before = h.pkts.size();
    size_t first_new = h.next;
    h.offer = [&](uint64_t s) { return s >= 200; };
    while (h.steps < 200)
        h.step();
    EXPECT_EQ(h.pkts.size(), before);  // everything inside was dropped
    h.run(30);
    ASSERT_GT(h.pkts.size(), before);
    const Pkt &p = h.pkts[before];
    EXPECT_EQ(p.o.pkt_tag, first_new);
    EXPECT_EQ(p.o.pkt_psn, 100u);
    EXPECT_EQ(p.o.pkt_tassn, 0u);
    EXPECT_EQ((int64_t)p.taken - h.accepted[first_new], UBSP_LATENCY);
    EXPECT_EQ(h.rc_any, 0);
}

// Skipping idle steps (no valid input, nothing inside) changes nothing.
TEST(UbSendPipeline, IdleStepsCanBeSkipped)
{
    ub_tx_state_t a, b;
    ub_tx_reset(&a);
    ub_tx_reset(&b);
    ub_tx_in_t in{};
    ub_tx_out_t oa{}, ob{};
    std::mt19937 rng(5);
    in.pkt_ready = 1;
    int skipped = 0;
    for (int c = 0; c < 200000; c++) {
        bool burst = (c / 500) % 3 == 0;
        in.wr_valid = burst && (rng() & 1);
        in.wr_jetty = rng() & 0xFFFFF;
        in.wr_dst = rng() & 0xFFFFF;
        in.wr_mode = (uint8_t)(1 + rng() % 4);
        in.wr_tag = (uint32_t)c;
        in.pkt_ready = (rng() % 4) != 0;
        ub_tx_step(&a, &in, &oa);
        if (!in.wr_valid && !ub_tx_busy(&b)) {
            skipped++;
            continue;
        }
        ub_tx_step(&b, &in, &ob);
        ASSERT_EQ(std::memcmp(&oa, &ob, sizeof oa), 0) << "cycle " << c;
    }
    EXPECT_GT(skipped, 50000);
}

// Long MAC stalls fill every stage, the output buffer and so every slot of
// the RTL's packet memory (at most 12 requests in flight; a C model alongside
// counts them). Lockstep checks that the RTL ring never overwrites a slot in
// use.
TEST(UbSendPipeline, StallsFillThePipelineLockstep)
{
    Harness h(BACKEND_LOCKSTEP);
    ub_tx_state_t ref;
    ub_tx_reset(&ref);
    std::mt19937 rng(21);
    for (int i = 0; i < 4000; i++) {
        Req r;
        r.jetty = rng() % 24;
        r.dst = rng() % 24;
        r.mode = (uint8_t)(1 + rng() % 4);
        h.add(r);
    }
    h.ready = [](uint64_t s) { return (s / 40) % 2 == 1 && (s % 3) != 0; };
    unsigned max_inflight = 0;
    uint64_t full = 0;
    for (uint64_t c = 0; c < 20000 && h.pkts.size() < h.reqs.size(); c++) {
        h.step();
        ub_tx_out_t o;
        ub_tx_step(&ref, &h.in, &o);
        unsigned n = ref.sp.be_count + ref.sp.out_cnt;
        max_inflight = std::max(max_inflight, n);
        full += n == 12;
    }
    EXPECT_EQ(h.pkts.size(), h.reqs.size());
    EXPECT_EQ(max_inflight, 12u);
    EXPECT_GT(full, 1000u);
    EXPECT_EQ(h.rc_any, 0);
}

// A request longer than the MTU leaves as one packet per MTU segment, one a
// cycle while the MAC takes them: consecutive PSNs, MTU-sized but the last,
// the address moving on, only the last marked (and, ROL, asking for the
// acknowledgement); the channel's next request starts after them. A read
// request and an acknowledgement stay one packet whatever length they name,
// and a request of exactly one MTU is one packet.
TEST(UbSendPipeline, LongRequestsLeaveAsMtuPackets)
{
    for (backend_kind_t be : {BACKEND_C, BACKEND_RTL, BACKEND_LOCKSTEP}) {
        SCOPED_TRACE(backend_name(be));
        Harness h(be);
        h.in.cfg_mtu_log2 = 12;
        Req w;
        w.len = 10000;
        w.dst = 3;
        w.mode = URMA_OL;
        w.addr = 0x10000;
        h.add(w);
        Req r = w;
        r.opcode = UB_TA_READ;
        h.add(r);
        Req a = w;
        a.opcode = UB_TA_TAACK;
        h.add(a);
        Req x = w;
        x.len = 4096;
        h.add(x);
        h.run(200);
        ASSERT_EQ(h.pkts.size(), 6u);
        const uint32_t lens[6] = {4096, 4096, 1808, 10000, 10000, 4096};
        const uint8_t last[6] = {0, 0, 1, 1, 1, 1};
        for (int i = 0; i < 6; i++) {
            const ub_tx_out_t &o = h.pkts[i].o;
            EXPECT_EQ(o.pkt_psn, (uint32_t)i) << i; // each packet its PSN
            EXPECT_EQ(o.pkt_len, lens[i]) << i;
            EXPECT_EQ(o.pkt_last, last[i]) << i;
            EXPECT_EQ(o.pkt_ack_req, last[i]) << i; // ROL: at each message's end
            EXPECT_EQ(o.pkt_tag, i < 3 ? 0u : (uint32_t)(i - 2)) << i;
            EXPECT_EQ(o.pkt_tpmsn, i < 3 ? 0u : (uint32_t)(i - 2)) << i; // one per message
        }
        EXPECT_EQ(h.pkts[1].o.pkt_addr, 0x10000u + 4096);
        EXPECT_EQ(h.pkts[2].o.pkt_addr, 0x10000u + 8192);
        EXPECT_EQ(h.pkts[1].taken, h.pkts[0].taken + 1); // one a cycle
        EXPECT_EQ(h.pkts[2].taken, h.pkts[1].taken + 1);
        EXPECT_EQ(h.pkts[0].taken, (uint64_t)h.accepted[0] + 24); // the first as soon as ever
    }
}

// --- lockstep ----------------------------------------------------------------

// One cycle's random request fields (and a completion at random: the order
// tracker releases what waits), for the path or the bare pipeline.
template <class In>
void random_request(std::mt19937_64 &rng, uint64_t c, In &in)
{
    uint64_t r = rng();
    in.wr_opcode = (uint8_t)(r >> 8);
    in.wr_mode = (uint8_t)((r >> 16) & 7);
    in.wr_order = (uint8_t)((r >> 19) & 3);
    in.wr_fence = (r >> 21) & 1;
    in.wr_comp_order = (r >> 22) & 1;
    in.wr_jetty = (uint32_t)(((r >> 23) & 1) ? (r >> 24) & 0xFFFFF : (r >> 24) & 15);
    in.wr_dst = (uint32_t)(r >> 44) & 0xFFFFF;
    uint64_t r2 = rng();
    /* with an MTU, lengths of up to 16 packets of 256 B (or one of 64 KiB) */
    in.wr_len = in.cfg_mtu_log2 ? (uint32_t)r2 % 4097 : (uint32_t)r2;
    in.wr_token = (uint32_t)(r2 >> 32);
    in.wr_addr = rng();
    in.wr_tag = (uint32_t)c;
    uint64_t r3 = rng();
    in.cmp_valid = (r3 & 3) == 0;
    in.cmp_q = (uint8_t)((r3 >> 2) & 7);
}

TEST(UbSendPipeline, RandomLockstepZeroMismatches)
{
    harness::RandomSpec<ub_tx_in_t> spec;
    spec.cycles = testutil::run_cycles(1000000, 100000);
    spec.seed = 2026;
    spec.period_ps = kPeriodPs;
    spec.phase = 997;
    spec.reset_every = testutil::reset_interval(250000);
    std::string wave = "/tmp/ubsp_lockstep_" + std::to_string(getpid()) + ".vcd";
    spec.mismatch_wave = wave.c_str();
    spec.new_phase = [](std::mt19937_64 &rng, ub_tx_in_t &in) {
        if (rng() % 8 == 0) {
            in.cfg_psn_init = rng() & 0xFFFFFF;
            in.cfg_tpn_base = rng() & 0xFFF000;
            in.cfg_mtu_log2 = rng() % 3 ? (uint8_t)(8 + rng() % 9) : 0; /* MTU 256 B..64 KiB */
        }
    };
    spec.payload = [](std::mt19937_64 &rng, uint64_t c, ub_tx_in_t &in) { random_request(rng, c, in); };
    harness::RandomStats st =
        harness::random_lockstep<ub_tx_in_t, ub_tx_out_t>(&ub_tx_class, spec);
    EXPECT_EQ(st.mismatches, 0u);
    EXPECT_EQ(st.cycles, spec.cycles);
    if (!testutil::cycles_override()) { // (a brief run for vectors covers less)
        EXPECT_GT(st.packets, spec.cycles / 10);
    }
    EXPECT_GE(st.resets, spec.cycles / spec.reset_every);
    std::printf("[ lockstep ] %llu cycles, %llu requests accepted, %llu packets, %llu resets, "
                "%llu mismatches, %.2f s\n",
                (unsigned long long)st.cycles, (unsigned long long)st.accepted,
                (unsigned long long)st.packets, (unsigned long long)st.resets,
                (unsigned long long)st.mismatches, st.secs);
    std::remove(wave.c_str());
}

// The pipeline alone, its port to the channel table driven at random as
// well (answers at any edge, with or without a request before): C = RTL,
// the holding register included.
TEST(UbSendPipeline, BarePipelineRandomLockstep)
{
    harness::RandomSpec<ub_send_pipeline_in_t> spec;
    spec.cycles = testutil::run_cycles(1000000, 100000);
    spec.seed = 77;
    spec.period_ps = kPeriodPs;
    spec.phase = 997;
    spec.reset_every = testutil::reset_interval(250000);
    std::string wave = "/tmp/ubsp_bare_" + std::to_string(getpid()) + ".vcd";
    spec.mismatch_wave = wave.c_str();
    spec.new_phase = [](std::mt19937_64 &rng, ub_send_pipeline_in_t &in) {
        if (rng() % 8 == 0)
            in.cfg_mtu_log2 = rng() % 3 ? (uint8_t)(8 + rng() % 9) : 0;
    };
    spec.payload = [](std::mt19937_64 &rng, uint64_t c, ub_send_pipeline_in_t &in) {
        random_request(rng, c, in);
        uint64_t r = rng();
        in.seq_valid = (r & 3) == 0;
        in.seq_psn = (uint32_t)(r >> 8) & 0xFFFFFF;
        in.seq_tpmsn = (uint32_t)(r >> 32) & 0xFFFFFF;
    };
    harness::RandomStats st = harness::random_lockstep<ub_send_pipeline_in_t, ub_send_pipeline_out_t>(
        &ub_send_pipeline_class, spec);
    EXPECT_EQ(st.mismatches, 0u);
    EXPECT_EQ(st.cycles, spec.cycles);
    EXPECT_GT(st.packets, 0u);
    std::remove(wave.c_str());
}

// The pipeline numbers nothing itself: each request asks the table once, at
// the edge it enters S13 (13 edges after it is picked into S0), and its
// packets carry whatever the table answered at the next edge, PSN by PSN
// from the first.
TEST(UbSendPipeline, PacketsCarryTheChannelTablesAnswer)
{
    ub_send_pipeline_state_t s;
    ub_send_pipeline_reset(&s);
    ub_send_pipeline_in_t in{}, idle{};
    idle.pkt_ready = 1;
    idle.cfg_mtu_log2 = 12;
    in = idle;
    in.wr_valid = 1;
    in.wr_opcode = UB_TA_WRITE;
    in.wr_mode = URMA_OT;
    in.wr_dst = 0x23; // channel 3
    in.wr_len = 3 * 4096; // three packets
    ub_send_pipeline_out_t out{};
    ub_send_pipeline_step(&s, &in, &out); // accepted at edge 0
    std::vector<uint32_t> psns, tpmsns;
    int asked_at = -1, asks = 0;
    for (int e = 1; e < 60; e++) {
        ub_send_pipeline_in_t i = idle;
        if (out.seq_rq) {
            asks++;
            asked_at = e - 1;
            EXPECT_EQ(out.seq_ch, 3u);
            EXPECT_EQ(out.seq_nseg, 2u);
        }
        if (asked_at >= 0 && e == asked_at + 2) { // the table's answer, a cycle later
            i.seq_valid = 1;
            i.seq_psn = 0xFFFFFE;
            i.seq_tpmsn = 0x00ABCD;
        }
        if (out.pkt_valid) {
            psns.push_back(out.pkt_psn);
            tpmsns.push_back(out.pkt_tpmsn);
        }
        ub_send_pipeline_step(&s, &i, &out);
    }
    EXPECT_EQ(asks, 1);
    // accepted at 0: the intake register, its queue at 1, S0 at 2, S13 at 15
    EXPECT_EQ(asked_at, 2 + UBSP_ST_SEQ_ASK);
    EXPECT_EQ(psns, (std::vector<uint32_t>{0xFFFFFE, 0xFFFFFF, 0}));
    EXPECT_EQ(tpmsns, (std::vector<uint32_t>{0xABCD, 0xABCD, 0xABCD}));
}

// The channel table alone: every answer is the channel's next PSN and TPMSN
// (from cfg_psn_init on first use), the channel moving on by the packets and
// one message; C = RTL at every edge.
TEST(UbSendPipeline, ChannelTableNumbersEachChannelInLockstep)
{
    block_opts_t o = harness::opts(BACKEND_LOCKSTEP, kPeriodPs);
    std::string wave = "/tmp/tp_chan_" + std::to_string(getpid()) + ".vcd";
    o.mismatch_wave = wave.c_str();
    char err[256];
    block_inst_t *b = block_new(&tp_chan_class, &o, err, sizeof err);
    ASSERT_NE(b, nullptr) << err;
    block_reset(b);
    std::mt19937_64 rng(5);
    std::map<unsigned, std::pair<uint32_t, uint32_t>> next; // channel -> PSN, TPMSN
    tp_chan_in_t in{};
    tp_chan_out_t out{};
    in.cfg_psn_init = 0xFFFFF0;
    bool pending = false;
    uint32_t want_psn = 0, want_tpmsn = 0;
    uint64_t answers = 0;
    const uint64_t cycles = testutil::run_cycles(1000000, 100000);
    const uint64_t every = testutil::reset_interval(250000);
    for (uint64_t c = 0; c < cycles; c++) {
        if (c % every == every / 2) { // a reset: every channel starts again
            block_reset(b);
            next.clear();
            pending = false;
        }
        uint64_t r = rng();
        in.rq_valid = (r & 3) != 0;
        in.rq_ch = (uint8_t)((r >> 2) & 15);
        in.rq_nseg = (r >> 8) & 1 ? (uint32_t)(r >> 10) & 0xFFFFFF : (uint32_t)(r >> 10) & 7;
        if (in.rq_valid) {
            auto it = next.find(in.rq_ch);
            auto cur = it == next.end() ? std::make_pair(in.cfg_psn_init, in.cfg_psn_init) : it->second;
            next[in.rq_ch] = {(cur.first + in.rq_nseg + 1) & 0xFFFFFF, (cur.second + 1) & 0xFFFFFF};
            ASSERT_EQ(block_step(b, &in, &out, 0), 0) << "cycle " << c;
            pending = true;
            want_psn = cur.first;
            want_tpmsn = cur.second;
        } else {
            ASSERT_EQ(block_step(b, &in, &out, 0), 0) << "cycle " << c;
            pending = false;
        }
        ASSERT_EQ(out.rs_valid, pending ? 1 : 0);
        if (pending) {
            answers++;
            ASSERT_EQ(out.rs_psn, want_psn) << "cycle " << c;
            ASSERT_EQ(out.rs_tpmsn, want_tpmsn) << "cycle " << c;
        }
    }
    EXPECT_GT(answers, cycles / 2);
    EXPECT_EQ(block_cycles(b), cycles);
    EXPECT_EQ(block_mismatches(b), 0u);
    block_free(b);
    std::remove(wave.c_str());
}

// A class whose C model corrupts bit 0 of pkt_psn at one cycle.
constexpr uint64_t kBugCycle = 5000;

TEST(UbSendPipeline, LockstepCatchesInjectedBug)
{
    block_class_t cls =
        harness::with_bug(ub_tx_class, "ub_send_pipeline_buggy", "pkt_psn", 0, kBugCycle);
    FILE *rep = std::tmpfile();
    ASSERT_NE(rep, nullptr);
    // VCD so the content can be checked here (FST goes through the same
    // wave.h calls).
    std::string wave = "/tmp/ubsp_bug_" + std::to_string(getpid()) + ".vcd";
    block_opts_t o = harness::opts(BACKEND_LOCKSTEP, kPeriodPs);
    o.mismatch_wave = wave.c_str();
    o.report = rep;
    Harness h(&cls, &o);
    std::mt19937 rng(3);
    for (int i = 0; i < 4000; i++) {
        Req r;
        r.jetty = rng() % 100;
        r.dst = rng() % 100;
        h.add(r);
    }
    int64_t first = -1;
    for (uint64_t c = 0; c < 6000; c++) {
        h.step();
        if (h.rc_any && first < 0)
            first = (int64_t)c;
    }
    EXPECT_EQ(first, (int64_t)kBugCycle);
    EXPECT_EQ(block_mismatches(h.inst), 1u);
    std::string r = testutil::slurp(rep);
    std::printf("%s", r.c_str());
    EXPECT_NE(r.find("lockstep mismatch: cycle 5000, block ub_send_pipeline_buggy, port pkt_psn_o: C=0x"),
              std::string::npos)
        << r;
    EXPECT_NE(r.find(wave), std::string::npos) << r;
    FILE *f = std::fopen(wave.c_str(), "rb");
    ASSERT_NE(f, nullptr) << "mismatch waveform not written";
    std::string vcd = testutil::slurp(f);
    for (const char *s : {"$scope module in", "$scope module c", "$scope module rtl",
                          "wr_tag_i", "pkt_psn_o", "pkt_ready_i"})
        EXPECT_NE(vcd.find(s), std::string::npos) << s;
    // 64 cycles of history: the first recorded edge is cycle 5000 - 63.
    EXPECT_NE(vcd.find("#" + std::to_string((kBugCycle - 63) * kPeriodPs)), std::string::npos);
    EXPECT_NE(vcd.find("#" + std::to_string(kBugCycle * kPeriodPs)), std::string::npos);
    std::remove(wave.c_str());
}

}  // namespace

namespace {

// A 64 B read of `jetty` to `dst`, offered on the idle inputs `idle`.
ub_tx_in_t read_request(const ub_tx_in_t &idle, uint8_t mode, uint32_t jetty, uint32_t dst,
                        uint32_t tag)
{
    ub_tx_in_t in = idle;
    in.wr_valid = 1;
    in.wr_opcode = UB_TA_READ;
    in.wr_mode = mode;
    in.wr_jetty = jetty;
    in.wr_dst = dst;
    in.wr_len = 64;
    in.wr_tag = tag;
    return in;
}

// The C model's fast-forward: from every state with one request inside
// (intake, queue or back end), advance(n) for every n <= quiet() leaves the
// model exactly where n idle steps do, and the outputs stay put meanwhile.
TEST(UbSendPipeline, FastForwardEqualsIdleSteps)
{
    ub_tx_in_t idle{};
    idle.cfg_tpn_base = 0x100;
    idle.cfg_psn_init = 0xFFFFF0;  // near the wrap, and an ack request due
    idle.pkt_ready = 1;
    for (uint32_t jetty : {0u, 5u, 77u}) {
        ub_tx_state_t s;
        ub_tx_reset(&s);
        ub_tx_out_t out;
        // a few requests through first, so the contexts hold state
        for (int r = 0; r < 3; r++) {
            ub_tx_in_t in = read_request(idle, URMA_OL, jetty, 3, 100 + r);
            ub_tx_step(&s, &in, &out);
            for (int k = 0; k < 30; k++)
                ub_tx_step(&s, &idle, &out);
        }
        EXPECT_EQ(ub_tx_quiet(&s, &idle), 0) << "empty: nothing to jump";
        ub_tx_in_t in = idle;
        in.wr_valid = 1;
        in.wr_jetty = jetty;
        in.wr_dst = 3;
        in.wr_tag = 7;
        ub_tx_step(&s, &in, &out);
        int seen = 0;
        for (int at = 0; at < 24; at++) {
            int q = ub_tx_quiet(&s, &idle);
            EXPECT_EQ(ub_tx_quiet(&s, &in), 0) << "a request offered: not quiet";
            for (int n = 1; n <= q; n++) {
                ub_tx_state_t a = s, b = s;
                ub_tx_out_t oa = out;
                for (int k = 0; k < n; k++) {
                    ub_tx_step(&a, &idle, &oa);
                    ASSERT_EQ(oa.pkt_valid, 0) << "outputs change inside the quiet stretch";
                    ASSERT_EQ(oa.wr_ready, 1);
                }
                ub_tx_advance(&b, &idle, n);
                ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "jetty " << jetty << " at " << at << " n " << n;
                seen++;
            }
            ub_tx_step(&s, &idle, &out);
        }
        EXPECT_GT(seen, 200);
    }
}

}  // namespace

namespace {

// The jump that starts with taking a request: from an empty pipeline with a
// request offered, quiet_taking() counts edges whose outputs stay those of
// the empty pipeline when the first takes the request and the rest are idle;
// after the taking step, quiet() allows the rest as one advance; the packet
// comes out at the edge after. A request the order tracker holds, a busy
// pipeline or a completion at the edge: no such jump.
TEST(UbSendPipeline, TakingJumpEqualsSteps)
{
    ub_tx_in_t idle{};
    idle.cfg_tpn_base = 0x100;
    idle.cfg_psn_init = 0x10;
    idle.pkt_ready = 1;
    struct Case {
        uint8_t mode, order, fence;
        int unanswered;  // requests of the queue left without a completion
        bool jumps;
    };
    const Case cases[] = {
        {URMA_OT, UB_ORDER_NO, 0, 0, true}, {URMA_OT, UB_ORDER_NO, 0, 2, true},
        {URMA_OL, UB_ORDER_SO, 0, 0, true}, {URMA_OL, UB_ORDER_SO, 0, 1, false},
        {URMA_OL, UB_ORDER_NO, 0, 3, true}, {URMA_OT, UB_ORDER_NO, 1, 1, false},
        {URMA_NO, UB_ORDER_SO, 1, 2, true},
    };
    int jumped = 0;
    for (const Case &c : cases) {
        for (uint32_t jetty : {0u, 13u}) {
            ub_tx_state_t s;
            ub_tx_reset(&s);
            ub_tx_out_t out;
            ub_tx_in_t in = read_request(idle, URMA_OT, jetty, 2, 0);
            // some requests through first, `unanswered` of them without a
            // completion
            for (int r = 0; r < 3 + c.unanswered; r++) {
                in.wr_tag = 50 + r;
                ub_tx_step(&s, &in, &out);
                for (int k = 0; k < 30; k++)
                    ub_tx_step(&s, &idle, &out);
                if (r < 3) {
                    ub_tx_in_t cmp = idle;
                    cmp.cmp_valid = 1;
                    cmp.cmp_q = jetty & 7;
                    ub_tx_step(&s, &cmp, &out);
                }
            }
            ub_tx_step(&s, &idle, &out);
            ASSERT_FALSE(ub_tx_busy(&s));
            const ub_tx_out_t empty = out;
            in.wr_mode = c.mode;
            in.wr_order = c.order;
            in.wr_fence = c.fence;
            in.wr_tag = 9;
            int q = ub_tx_quiet_taking(&s, &in);
            EXPECT_EQ(q > 0, c.jumps) << "mode " << int(c.mode) << " order " << int(c.order)
                                      << " fence " << int(c.fence) << " unanswered " << c.unanswered;
            ub_tx_in_t with_cmp = in;
            with_cmp.cmp_valid = 1;
            EXPECT_EQ(ub_tx_quiet_taking(&s, &with_cmp), 0) << "a completion at the edge";
            if (q == 0)
                continue;
            jumped++;
            ub_tx_state_t a = s;
            ub_tx_out_t oa;
            ub_tx_step(&a, &in, &oa);
            EXPECT_EQ(std::memcmp(&oa, &empty, sizeof oa), 0) << "the taking edge changes an output";
            EXPECT_EQ(ub_tx_quiet_taking(&a, &in), 0) << "busy: no taking jump";
            EXPECT_GE(ub_tx_quiet(&a, &idle), q - 1) << "the rest is one advance";
            ub_tx_state_t b = a;
            for (int k = 1; k < q; k++) {
                ub_tx_step(&a, &idle, &oa);
                ASSERT_EQ(std::memcmp(&oa, &empty, sizeof oa), 0) << "edge " << k + 1 << " of " << q;
            }
            ub_tx_advance(&b, &idle, q - 1);
            EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
            ub_tx_step(&a, &idle, &oa);
            EXPECT_EQ(oa.pkt_valid, 1) << "the packet comes out at the edge after";
            EXPECT_EQ(oa.pkt_tag, 9u);
        }
    }
    EXPECT_GE(jumped, 8);
}

}  // namespace

namespace {

// The RTL transmit path run over the edges with its inputs held (block_run,
// the Verilated model stepped in one call, its outputs sampled at the end):
// the same edges and outputs as stepping it edge by edge, ending at the edge
// its packet comes out, or after the edges asked for; stepping on from
// either gives the same outputs. A watched byte that is no one-byte port
// (the low byte of the packet's tag) is read from outputs sampled at every
// edge, with the same result; a run of no edges runs none.
TEST(UbTx, RtlRunEqualsSteps)
{
    char err[256] = "";
    block_opts_t o = {};
    o.kind = BACKEND_RTL;
    ub_tx_in_t idle{};
    idle.cfg_tpn_base = 0x100;
    idle.cfg_psn_init = 0x10;
    for (size_t watch : {offsetof(ub_tx_out_t, pkt_valid), offsetof(ub_tx_out_t, pkt_tag)}) {
        for (uint8_t ready : {1, 0}) {
            for (int64_t ask : {100, 9}) {
                block_inst_t *a = block_new(&ub_tx_class, &o, err, sizeof err);
                block_inst_t *b = block_new(&ub_tx_class, &o, err, sizeof err);
                ASSERT_NE(a, nullptr) << err;
                ASSERT_NE(b, nullptr) << err;
                idle.pkt_ready = ready;
                ub_tx_in_t in = read_request(idle, URMA_OT, 5, 2, 77);
                ub_tx_out_t oa, ob;
                std::memset(&oa, 0, sizeof oa);
                std::memset(&ob, 0, sizeof ob);
                ASSERT_EQ(block_step(a, &in, &oa, 0), 0);
                ASSERT_EQ(block_step(b, &in, &ob, 0), 0);
                EXPECT_EQ(block_run(a, &idle, &oa, 0, watch), 0);
                EXPECT_EQ(block_cycles(a), block_cycles(b));
                int64_t r = block_run(a, &idle, &oa, ask, watch);
                int64_t steps = 0;
                do {
                    ASSERT_EQ(block_step(b, &idle, &ob, 0), 0);
                    steps++;
                } while (!reinterpret_cast<const unsigned char *>(&ob)[watch] && steps < ask);
                EXPECT_EQ(r, steps) << "ready " << int(ready) << ", " << ask << " edges asked";
                EXPECT_EQ(oa.pkt_valid, ask == 100 ? 1 : 0);
                EXPECT_EQ(std::memcmp(&oa, &ob, sizeof oa), 0);
                EXPECT_EQ(block_cycles(a), block_cycles(b));
                idle.pkt_ready = 1;
                for (int k = 0; k < 30; k++) {
                    ASSERT_EQ(block_step(a, &idle, &oa, 0), 0);
                    ASSERT_EQ(block_step(b, &idle, &ob, 0), 0);
                    ASSERT_EQ(std::memcmp(&oa, &ob, sizeof oa), 0) << "edge " << k << " after the run";
                }
                block_free(a);
                block_free(b);
            }
        }
    }
}

}  // namespace
