// The selective-acknowledgement transport (cmodel/transport.c,
// rtl/transport.sv) and the two-node bench around it
// (sim/workload/tp_bench.c): the worked example of one 32 KiB message with
// its first packet lost (one packet resent with selective ack, the whole
// flight with go-back-N); stale and forged acknowledgements change nothing;
// the retry limit ends in failure, never a hang; every byte delivered once,
// in order, under loss, duplication, reordering and corruption in both
// directions, on C, RTL and lockstep.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "blocks.h"
#include "tp_bench.h"
#include "transport.h"
}

#include "test_util.h"

namespace {

tpb_cfg_t base_cfg()
{
    tpb_cfg_t c;
    tpb_cfg_default(&c);
    c.max_cycles = 50000000;
    return c;
}

tpb_result_t run_ok(const tpb_cfg_t &c)
{
    tpb_result_t r;
    char err[512] = "";
    int rc = tpb_run(&c, &r, err, sizeof err);
    EXPECT_EQ(rc, 0) << err;
    return r;
}

void faults(tpb_cfg_t &c, const char *spec)
{
    char err[256];
    ASSERT_EQ(fault_parse(spec, &c.fault, err, sizeof err), 0) << err;
}

tpb_cfg_t worked(int gbn)
{
    tpb_cfg_t c = base_cfg();
    c.gbn = gbn;
    c.msg_bytes = 32768;
    c.mtu = 4096;
    c.n_msgs = 1;
    c.window = 32;
    c.link_ns = 1000; // all 8 packets leave before the first acknowledgement is back
    c.rto_ns = 10000;
    c.backoff = 0;
    faults(c, "drop=fwd:1");
    return c;
}

TEST(Transport, WorkedExampleSelectiveAckResendsOnlyTheLostPacket)
{
    tpb_result_t r = run_ok(worked(0));
    EXPECT_EQ(r.msgs_done, 1u);
    EXPECT_EQ(r.bytes_delivered, 32768u);
    EXPECT_EQ(r.pkts_resent, 1u);
    EXPECT_EQ(r.bytes_resent, 4096u);
    EXPECT_EQ(r.timeouts, 0u); // the SACK, not the timer, found the hole
    EXPECT_GT(r.sacks_sent, 0u);
    // the receiver held the 7 packets behind the hole while it waited
    EXPECT_EQ(r.buffered_bytes_peak, 8u * 4096u);
    EXPECT_EQ(r.verdict[TP_ACCEPT], 8u);
}

TEST(Transport, WorkedExampleGoBackNResendsTheWholeFlight)
{
    tpb_result_t s = run_ok(worked(0));
    tpb_result_t g = run_ok(worked(1));
    EXPECT_EQ(g.msgs_done, 1u);
    EXPECT_EQ(g.pkts_resent, 8u);
    EXPECT_EQ(g.bytes_resent, 8u * 4096u);
    EXPECT_EQ(g.verdict[TP_GAP], 7u); // dropped behind the hole
    EXPECT_EQ(g.naks_sent, 1u);
    EXPECT_LE(g.buffered_bytes_peak, 4096u);
    EXPECT_GT(g.deliverable_ns, s.deliverable_ns);
}

TEST(Transport, AnyOnePacketOfAMessageIsResentAlone)
{
    for (int k = 1; k <= 8; k++) {
        tpb_cfg_t c = worked(0);
        fault_spec_init(&c.fault);
        char spec[32];
        std::snprintf(spec, sizeof spec, "drop=fwd:%d", k);
        faults(c, spec);
        tpb_result_t r = run_ok(c);
        EXPECT_EQ(r.msgs_done, 1u) << k;
        EXPECT_EQ(r.pkts_resent, 1u) << k;
        EXPECT_EQ(r.bytes_resent, 4096u) << k;
    }
}

TEST(Transport, AResendPaysTheMemoryReadAgain)
{
    tpb_cfg_t c = worked(0);
    tpb_result_t r0 = run_ok(c);
    c.reread_ns = 200;
    tpb_result_t r1 = run_ok(c);
    // the lost packet's resend reaches the link 200 ns later; the message
    // becomes deliverable at least that much later (to the NIC cycle)
    EXPECT_GE(r1.deliverable_ns - r0.deliverable_ns, 200.0 - 3.2);
    EXPECT_LE(r1.deliverable_ns - r0.deliverable_ns, 200.0 + 3.2);
}

TEST(Transport, WorkedExampleIsExactlyReplayed)
{
    for (int gbn = 0; gbn < 2; gbn++) {
        tpb_result_t a = run_ok(worked(gbn));
        tpb_result_t b = run_ok(worked(gbn));
        EXPECT_EQ(a.deliverable_ns, b.deliverable_ns);
        EXPECT_EQ(a.cycles, b.cycles);
    }
}

TEST(Transport, SameResultOnRtlAndLockstep)
{
    for (int gbn = 0; gbn < 2; gbn++) {
        tpb_cfg_t c = worked(gbn);
        tpb_result_t cr = run_ok(c);
        c.backend = BACKEND_RTL;
        tpb_result_t rr = run_ok(c);
        c.backend = BACKEND_LOCKSTEP;
        tpb_result_t lr = run_ok(c);
        EXPECT_EQ(cr.deliverable_ns, rr.deliverable_ns);
        EXPECT_EQ(cr.deliverable_ns, lr.deliverable_ns);
        EXPECT_EQ(cr.pkts_resent, rr.pkts_resent);
        EXPECT_EQ(lr.mismatches, 0u);
    }
}

TEST(Transport, RetryLimitEndsInFailureNotAHang)
{
    tpb_cfg_t c = base_cfg();
    c.n_msgs = 4;
    c.rto_ns = 1000;
    c.retry_max = 3;
    faults(c, "fwd.loss=1");
    tpb_result_t r = run_ok(c);
    EXPECT_EQ(r.msgs_done, 0u);
    EXPECT_EQ(r.msgs_failed, 4u);
    EXPECT_EQ(r.timeouts, 4u); // 3 retries, then the limit
}

TEST(Transport, TimersJumpedOnCAsTheRtlStepsThem)
{
    // the C model's fast-forward skips the quiet cycles of its timers; the
    // RTL steps every one: the same run either way
    tpb_cfg_t c = base_cfg();
    c.n_msgs = 3;
    c.rto_ns = 2000;
    c.retry_max = 4;
    faults(c, "fwd.loss=0.5,back.loss=0.5,seed=11");
    tpb_result_t a = run_ok(c);
    c.backend = BACKEND_LOCKSTEP;
    tpb_result_t b = run_ok(c);
    EXPECT_GT(a.timeouts, 0u);
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.timeouts, b.timeouts);
    EXPECT_EQ(a.msgs_done, b.msgs_done);
    EXPECT_EQ(a.msgs_failed, b.msgs_failed);
    EXPECT_EQ(a.deliverable_ns, b.deliverable_ns);
    EXPECT_EQ(b.mismatches, 0u);
}

TEST(Transport, BackToBackSmallPacketsWithoutLossMeetNoGapAndNoFullBuffer)
{
    // 64 B packets reach the receiver every cycle: each one arrives while the
    // one before it is being delivered
    for (int gbn = 0; gbn < 2; gbn++)
        for (unsigned cap : {1u, 1024u}) {
            tpb_cfg_t c = base_cfg();
            c.gbn = gbn;
            c.mtu = 64;
            c.msg_bytes = 64;
            c.n_msgs = 3000;
            c.window = gbn ? 32 : 256;
            c.ooo_cap = cap;
            tpb_result_t r = run_ok(c);
            EXPECT_EQ(r.msgs_done, 3000u);
            EXPECT_EQ(r.pkts_resent, 0u) << gbn << " " << cap;
            EXPECT_EQ(r.verdict[TP_GAP], 0u);
            EXPECT_EQ(r.verdict[TP_FULL], 0u);
            EXPECT_EQ(r.naks_sent, 0u);
            EXPECT_EQ(r.timeouts, 0u);
            // one packet a cycle: 3000 packets in little more than 3000
            // cycles (go-back-N's flight of 32 is the limit there instead)
            if (!gbn) {
                EXPECT_LT(r.ns, 3000 * 1000.0 / 322 * 1.2);
            }
        }
}

TEST(Transport, AFailedChannelWhoseReceiverHoldsPacketsEndsTheRun)
{
    tpb_cfg_t c = base_cfg();
    c.n_msgs = 4;
    c.msg_bytes = 65536;
    c.rto_ns = 2000;
    c.retry_max = 0;
    faults(c, "fwd.loss=0.3,seed=1");
    c.max_cycles = 0; // no limit: it must end by itself
    tpb_result_t r = run_ok(c);
    EXPECT_EQ(r.msgs_done + r.msgs_failed, 4u);
    EXPECT_GT(r.msgs_failed, 0u);
}

TEST(Transport, LossWithoutFaultsResendsNothing)
{
    tpb_cfg_t c = base_cfg();
    c.n_msgs = 200;
    c.channels = 3;
    tpb_result_t r = run_ok(c);
    EXPECT_EQ(r.msgs_done, 200u);
    EXPECT_EQ(r.pkts_resent, 0u);
    EXPECT_EQ(r.timeouts, 0u);
    // the link is the limit: 4 KiB + 44 B at 50 GB/s is 82.8 ns a packet
    EXPECT_NEAR(r.goodput_gbytes_per_s, 4096.0 / ((4096.0 + 44.0) / 50.0), 1.0);
}

// Direct tests of the block: acknowledgements that must change nothing.
struct Tp {
    transport_state_t s;
    transport_in_t in;
    transport_out_t out;
    Tp()
    {
        transport_reset(&s);
        std::memset(&in, 0, sizeof in);
        in.cfg_bmap_code = 0;
        in.cfg_window = 64;
        in.cfg_ooo_cap = 64;
        in.cfg_rto = 1000;
        in.cfg_retry_max = 7;
        std::memset(&out, 0, sizeof out);
        edge(); // the first edge starts the sequences and takes nothing
    }
    void edge() { transport_step(&s, &in, &out); }
    // an acknowledgement's header, at the first edge the block takes one;
    // a SACK's words after it; then the edges it is applied and merged in
    void ack(uint8_t kind, uint32_t base, uint32_t hi = 0, const uint64_t *bmap = nullptr)
    {
        while (!out.ack_ready)
            edge();
        in.ack_valid = 1;
        in.ack_kind = kind;
        in.ack_base = base;
        in.ack_hi = hi;
        in.ack_code = 0;
        edge();
        in.ack_valid = 0;
        if (kind == TP_SACK) {
            transport_words_t f;
            transport_words_start(&f, bmap, 0);
            while (transport_words_feed(&f, &in))
                edge();
        }
        for (int i = 0; i < 3; i++)
            edge();
    }
    void send(int n)
    {
        for (int i = 0; i < n; i++) {
            in.sq_valid = 1;
            in.sq_hdl = (uint16_t)i;
            in.pkt_ready = 1;
            edge();
        }
        in.sq_valid = 0;
        for (int i = 0; i < 4; i++)
            edge();
    }
};

TEST(Transport, StaleAndForgedAcknowledgementsChangeNothing)
{
    Tp t;
    t.send(10);
    ASSERT_EQ(t.s.nxt[0], 10u);
    // a base beyond what was sent
    t.ack(TP_ACK, 11);
    EXPECT_EQ(t.s.una[0], 0u);
    // a SACK whose bits name PSNs never sent (its 64-bit bitmap all ones)
    uint64_t ones[TP_NWORDS];
    std::memset(ones, 0xff, sizeof ones);
    t.ack(TP_SACK, 5, 9, ones);
    EXPECT_EQ(t.s.una[0], 5u);
    for (uint32_t p = 5; p < 10; p++)
        EXPECT_TRUE(t.s.acked[0][p / 64] >> (p % 64) & 1) << p;
    for (uint32_t p = 10; p < 64; p++)
        EXPECT_FALSE(t.s.acked[0][p / 64] >> (p % 64) & 1) << p;
    // then a stale one: behind una
    t.ack(TP_ACK, 3);
    EXPECT_EQ(t.s.una[0], 5u);
}

// PSNs are 24 bits: a channel whose sequence starts 50 short of 2^24 (the C
// model's registers set there, as if 16.7 M packets had gone before) carries
// 300 packets across the wrap, with every 7th packet and every 5th
// acknowledgement lost once, and delivers each exactly once, in order, the
// PSNs running on through 0. (The RTL has no port to start there; it would
// need 2^24 packets per channel, too long for a test.)
// (the 24-bit wrap: TransportWrap.* below, on every backend)

TEST(Transport, ReceiverVerdicts)
{
    Tp t;
    t.in.cfg_ooo_cap = 1;
    // (a packet is taken at one edge and judged at the next)
    auto rx = [&](uint32_t psn) {
        t.in.rx_valid = 1;
        t.in.rx_psn = psn;
        t.edge();
        t.in.rx_valid = 0;
        t.edge();
        return t.out.rxv_verdict;
    };
    EXPECT_EQ(rx(2), TP_ACCEPT); // beyond a gap, held
    EXPECT_EQ(rx(3), TP_FULL);   // the buffer holds 1
    EXPECT_EQ(rx(2), TP_DUP);
    EXPECT_EQ(rx(64), TP_BEYOND); // the 64-bit bitmap
    EXPECT_EQ(rx(0), TP_ACCEPT);  // in order: always taken
}

} // namespace

namespace {

// Every byte delivered exactly once, in order, equal to what was sent (the
// bench checks each delivery against the sender's sequence and content),
// under random loss, duplication, reordering and corruption in both
// directions.
tpb_cfg_t hostile(backend_kind_t k, uint64_t packets, int gbn)
{
    tpb_cfg_t c = base_cfg();
    c.backend = k;
    c.gbn = gbn;
    c.mtu = 256;
    c.msg_bytes = 1000; // 4 packets, the last of 232 B
    c.n_msgs = packets / 4;
    c.channels = 4;
    c.window = gbn ? 32 : 256;
    c.ooo_cap = 128;
    c.rto_ns = 3000;
    c.max_cycles = 0;
    faults(c, "loss=0.01,dup=0.01,reorder=0.01,corrupt=0.01,reorder_ns=200,seed=7");
    return c;
}

void integrity(backend_kind_t k, uint64_t packets, int gbn)
{
    if (testutil::short_run()) // the sanitizer build
        packets = 40000;
    tpb_cfg_t c = hostile(k, packets, gbn);
    tpb_result_t r = run_ok(c);
    EXPECT_EQ(r.msgs_done, c.n_msgs);
    EXPECT_EQ(r.msgs_failed, 0u);
    EXPECT_EQ(r.bytes_delivered, c.n_msgs * c.msg_bytes);
    EXPECT_EQ(r.mismatches, 0u);
    // the faults really happened, in both directions
    for (int d = 0; d < 2; d++) {
        EXPECT_GT(r.lost[d], 0u);
        EXPECT_GT(r.duplicated[d], 0u);
        EXPECT_GT(r.reordered[d], 0u);
        EXPECT_GT(r.crc_drops[d], 0u);
    }
    EXPECT_GT(r.verdict[TP_DUP], 0u);
}

TEST(TransportIntegrity, MillionPacketsSelectiveAckC) { integrity(BACKEND_C, 1000000, 0); }
TEST(TransportIntegrity, MillionPacketsGoBackNC) { integrity(BACKEND_C, 1000000, 1); }
TEST(TransportIntegrity, MillionPacketsRtl) { integrity(BACKEND_RTL, 1000000, 0); }
TEST(TransportIntegrity, MillionPacketsLockstep) { integrity(BACKEND_LOCKSTEP, 1000000, 0); }
TEST(TransportIntegrity, GoBackNLockstep) { integrity(BACKEND_LOCKSTEP, 100000, 1); }

} // namespace

#include <cjson/cJSON.h>

namespace {

// ubsim loss: the worked example as the command line prints it, the sweep's
// JSON, and clear refusals.
TEST(LossCli, WorkedExampleJsonForBothSchemes)
{
    std::string out;
    const std::string base = testutil::ubsim() +
                             " loss --message 32768 --mtu 4096 --link-ns 1000 --fault drop=fwd:1 "
                             "--rto-ns 10000 --format json --scheme ";
    for (const char *scheme : {"sack", "gbn"}) {
        ASSERT_EQ(testutil::run(base + scheme, &out), 0) << out;
        cJSON *j = cJSON_Parse(out.c_str());
        ASSERT_NE(j, nullptr) << out;
        for (const char *k : {"deliverable_ns", "buffered_bytes_peak", "resent_bytes", "resent_packets"})
            EXPECT_TRUE(cJSON_IsNumber(cJSON_GetObjectItem(j, k))) << k;
        double resent = cJSON_GetObjectItem(j, "resent_packets")->valuedouble;
        EXPECT_EQ(resent, std::string(scheme) == "sack" ? 1.0 : 8.0);
        cJSON_Delete(j);
    }
}

TEST(LossCli, SweepJsonHasEveryPoint)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() +
                                " loss --messages 100 --message 16384 --loss 0,0.01,0.05 --format json",
                            &out),
              0)
        << out;
    cJSON *j = cJSON_Parse(out.c_str());
    ASSERT_NE(j, nullptr) << out;
    cJSON *pts = cJSON_GetObjectItem(j, "points");
    ASSERT_TRUE(cJSON_IsArray(pts));
    EXPECT_EQ(cJSON_GetArraySize(pts), 9); // sack, gbn32, gbn256 at 3 rates
    double sack5 = -1, gbn5 = -1;
    cJSON *p;
    cJSON_ArrayForEach(p, pts)
    {
        for (const char *k : {"loss", "goodput_fraction", "p50_ns", "p99_ns", "resent_packets", "resent_bytes"})
            EXPECT_TRUE(cJSON_IsNumber(cJSON_GetObjectItem(p, k))) << k;
        std::string s = cJSON_GetObjectItem(p, "scheme")->valuestring;
        double loss = cJSON_GetObjectItem(p, "loss")->valuedouble;
        double g = cJSON_GetObjectItem(p, "goodput_fraction")->valuedouble;
        if (loss == 0) {
            EXPECT_EQ(g, 1.0) << s;
        }
        if (loss == 0.05 && s == "sack")
            sack5 = g;
        if (loss == 0.05 && s == "gbn32")
            gbn5 = g;
    }
    // selective ack keeps most of its goodput where go-back-N loses much more
    EXPECT_GT(sack5, 0.85);
    EXPECT_LT(gbn5, sack5 - 0.2);
    cJSON_Delete(j);
}

TEST(LossCli, RefusesBadInput)
{
    std::string out;
    const std::string u = testutil::ubsim() + " loss ";
    EXPECT_EQ(testutil::run(u + "--loss 2", &out, true), 2);
    EXPECT_NE(out.find("--loss"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + "--bitmap 100", &out, true), 2);
    EXPECT_EQ(testutil::run(u + "--window 512", &out, true), 2); // beyond the 256-bit bitmap
    EXPECT_NE(out.find("--bitmap"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + "--fault drop=fwd:1", &out, true), 2); // which scheme?
    EXPECT_EQ(testutil::run(u + "--wave x.fst", &out, true), 2);
    EXPECT_EQ(testutil::run(u + "--mix 4096,0", &out, true), 2);
    EXPECT_EQ(testutil::run(u + "--message 4294967296", &out, true), 2); // a 32-bit length
    EXPECT_EQ(testutil::run(u + "--mix 4294967296", &out, true), 2);
    EXPECT_EQ(testutil::run(u + "--frobnicate", &out, true), 2);
    EXPECT_EQ(testutil::run(u + "--help", &out), 0);
    EXPECT_NE(out.find("--rto-ns"), std::string::npos);
}

// --scheme takes the names the sweep prints: gbn32 (the baseline's flight)
// and gbnW (the configured window W), each the row of that name alone.
TEST(LossCli, SchemeTakesTheNamesTheReportPrints)
{
    const std::string u = testutil::ubsim() + " loss --messages 10 --loss 0,5e-2 --message 65536 --format csv --quiet ";
    std::string all, one;
    ASSERT_EQ(testutil::run(u + "--scheme all", &all), 0) << all;
    auto rows = [](const std::string &csv, const std::string &scheme) {
        std::string keep, line;
        std::istringstream in(csv);
        while (std::getline(in, line))
            if (line.rfind(scheme + ",", 0) == 0)
                keep += line + "\n";
        return keep;
    };
    for (const char *s : {"gbn32", "gbn256", "sack"}) {
        ASSERT_EQ(testutil::run(u + "--scheme " + s, &one), 0) << one;
        ASSERT_FALSE(rows(all, s).empty()) << all;
        EXPECT_EQ(rows(one, s), rows(all, s)) << s;
        EXPECT_EQ(rows(one, s).size() + one.find('\n') + 1, one.size()) << "only " << s << ":\n" << one;
    }
    // another window: the same rows as --window with the plain gbn's
    std::string named, windowed;
    ASSERT_EQ(testutil::run(u + "--scheme gbn64", &named), 0) << named;
    ASSERT_EQ(testutil::run(u + "--scheme gbn --window 64", &windowed), 0) << windowed;
    EXPECT_EQ(rows(named, "gbn64"), rows(windowed, "gbn64"));
    ASSERT_FALSE(rows(named, "gbn64").empty()) << named;
    // what it refuses, and why
    for (const auto &[args, says] : std::vector<std::pair<std::string, std::string>>{
             {"--scheme gbn0", "expected sack, gbn, gbn32, gbnW (go-back-N with a window of W packets, 1 to 1024) or all, got 'gbn0'"},
             {"--scheme gbn2048", "got 'gbn2048'"},
             {"--scheme gbnx", "got 'gbnx'"},
             {"--scheme gbn64 --window 32", "--scheme gbn64 names a window of 64 packets, --window says 32: give one"},
             {"--scheme gbn512", "--scheme gbn512: a window of 512 packets, more than the bitmap's 256 bits (--bitmap)"},
         }) {
        std::string out;
        EXPECT_EQ(testutil::run(u + args, &out, true), 2) << args;
        EXPECT_NE(out.find(says), std::string::npos) << args << ": " << out;
    }
}

TEST(LossCli, MixOfSizesIsDeliveredWhole)
{
    tpb_cfg_t c = base_cfg();
    uint64_t mix[] = {1, 4095, 4096, 4097, 70000};
    c.mix = mix;
    c.n_mix = 5;
    c.n_msgs = 500;
    c.channels = 2;
    faults(c, "loss=0.02,seed=3");
    tpb_result_t r = run_ok(c);
    EXPECT_EQ(r.msgs_done, 500u);
    uint64_t bytes = 0;
    for (int i = 0; i < 500; i++)
        bytes += mix[i % 5];
    EXPECT_EQ(r.bytes_delivered, bytes);
}

} // namespace

#include <random>

#include "block_harness.h"

namespace {

using TpBlock = harness::Block<transport_in_t, transport_out_t>;

// Random inputs on every port: new packets on random channels, acknowledgements
// of every kind with bases, highest PSNs and bitmaps near and far from the
// flight, data packets near and far from the next expected PSN, random
// readiness, the configuration changed between phases, and resets.
uint32_t g_exp[TP_CH]; // the receiver's next PSN per channel, as its deliveries show
unsigned g_words;      // words still due of the last SACK header given

void random_edge(std::mt19937_64 &rng, const transport_out_t &o, transport_in_t &in)
{
    if (o.dlv_valid)
        g_exp[o.dlv_ch] = (o.dlv_psn + 1) & TP_PSN_MASK;
    uint64_t r = rng();
    in.sq_valid = (r & 3) != 0;
    in.sq_ch = (uint8_t)((r >> 2) & 3);
    in.sq_hdl = (uint16_t)(r >> 4);
    in.pkt_ready = ((r >> 20) & 3) != 0;
    in.ao_ready = ((r >> 22) & 3) != 0;
    int c = (int)((r >> 24) & 3);
    uint32_t una = transport_out_una(&o, c);
    // a header now and then; after a SACK's, its words on most of the next
    // edges (a gap waits; a header among them, rarely, abandons the rest)
    in.ack_valid = g_words ? (rng() % 64) == 0 : ((r >> 26) & 7) == 0;
    in.ack_wvalid = g_words ? (rng() % 8) != 0 : (rng() % 16) == 0;
    in.ack_word = rng() & rng();
    if (in.ack_wvalid && g_words)
        g_words--;
    in.ack_ch = (uint8_t)c;
    in.ack_kind = (uint8_t)((r >> 29) % 3);
    int far = ((r >> 31) & 15) == 0;
    in.ack_base = (una + (uint32_t)(far ? rng() : rng() % 16)) & TP_PSN_MASK;
    in.ack_hi = (in.ack_base + (uint32_t)(far ? rng() : rng() % 64)) & TP_PSN_MASK;
    in.ack_code = (uint8_t)((r >> 35) & 7);
    if (in.ack_valid && o.ack_ready) // (taken)
        g_words = in.ack_kind == TP_SACK ? transport_bmap_words(in.ack_code) : 0;
    in.rx_valid = ((r >> 38) & 1) != 0;
    in.rx_ch = (uint8_t)((r >> 39) & 3);
    uint32_t near = (uint32_t)((rng() & 1) ? rng() % 6 : rng() % 80) - 2;
    in.rx_psn = (uint32_t)(far ? rng() : g_exp[in.rx_ch] + near) & TP_PSN_MASK;
}

void new_config(std::mt19937_64 &rng, transport_in_t &in)
{
    in.cfg_gbn = rng() & 1;
    in.cfg_bmap_code = (uint8_t)(rng() % 6); // 5: treated as 4
    in.cfg_window = (uint16_t)(1 + rng() % 80);
    in.cfg_ooo_cap = (uint16_t)(rng() % 40);
    in.cfg_rto = (uint32_t)(1 + rng() % 120);
    in.cfg_backoff = rng() & 1;
    in.cfg_retry_max = (uint8_t)(rng() % 16);
    // half the phases start every sequence a few hundred PSNs before the wrap
    in.cfg_psn_init = (rng() & 1) ? (uint32_t)(TP_PSN_MASK - rng() % 400) : 0;
}

TEST(TransportLockstep, RandomStimulusOnEveryPort)
{
    const uint64_t cycles = testutil::run_cycles(1000000, 50000);
    const uint64_t every = testutil::reset_interval(20000);
    TpBlock b(&transport_class, BACKEND_LOCKSTEP, 3106);
    ASSERT_TRUE(b.ok());
    std::mt19937_64 rng(9);
    uint64_t sent = 0, acks = 0, dlv = 0, tmo = 0, fails = 0;
    for (uint64_t i = 0; i < cycles; i++) {
        if (i % every == 0) {
            new_config(rng, b.in);
            transport_out_t after{}; // (sq_ready and ack_ready rise at the first edge)
            b.reset(after); // configuration inputs are static while packets are in flight
            for (auto &x : g_exp)
                x = b.in.cfg_psn_init; // (the first edge after the reset starts there)
            g_words = 0;
        }
        random_edge(rng, b.out, b.in);
        ASSERT_EQ(b.step(), 0) << "lockstep mismatch at cycle " << i;
        sent += b.out.pkt_valid;
        acks += b.out.ao_valid;
        dlv += b.out.dlv_valid;
        tmo += b.out.tmo;
        fails += b.out.fail != 0;
    }
    EXPECT_EQ(block_mismatches(b.inst), 0u);
    // the stimulus reached every part of the block
    EXPECT_GT(sent, cycles / 10);
    EXPECT_GT(acks, cycles / 20);
    EXPECT_GT(dlv, cycles / 100);
    EXPECT_GT(tmo, 10u);
    EXPECT_GT(fails, 0u);
}

TEST(TransportLockstep, APlantedBugIsFound)
{
    // the C model flips bit 60 of the SACK word it sends at edge 3000
    block_class_t cls = harness::with_bug(transport_class, "transport_buggy", "ao_word", 60, 3000);
    std::string wave = "/tmp/ubsim_transport_bug.vcd";
    std::mt19937_64 rng(4);
    std::memset(g_exp, 0, sizeof g_exp);
    g_words = 0;
    harness::Planted p = harness::run_planted<TpBlock>(&cls, 3106, 5000, wave.c_str(), [&](TpBlock &b, int64_t c) {
        if (c == 0)
            new_config(rng, b.in);
        random_edge(rng, b.out, b.in);
    });
    EXPECT_EQ(p.first, 3000);
    EXPECT_NE(p.report.find("ao_word"), std::string::npos) << p.report;
    std::remove(wave.c_str());
}

} // namespace

// Every channel's sequence starts at cfg_psn_init, here 50 PSNs before the
// 24-bit wrap: 300 packets, every 7th lost and every 5th acknowledgement,
// cross it on the C model, the RTL and both in lockstep - delivered once
// each, in order, every one acknowledged, the lost ones resent.
static void wrap_run(backend_kind_t be)
{
    const uint32_t start = (1u << 24) - 50, total = 300;
    TpBlock snd(&transport_class, be, 3106), rcv(&transport_class, be, 3106);
    ASSERT_TRUE(snd.ok() && rcv.ok());
    for (transport_in_t *in : {&snd.in, &rcv.in}) {
        in->cfg_window = 32;
        in->cfg_ooo_cap = 64;
        in->cfg_rto = 400;
        in->cfg_retry_max = 8;
        in->cfg_psn_init = start;
    }
    transport_in_t &si = snd.in, &ri = rcv.in;
    const transport_out_t &so = snd.out, &ro = rcv.out;
    si.pkt_ready = ri.ao_ready = 1;
    // the receiver's acknowledgements reach the sender at the edge after
    // they come out, a SACK's words behind its header; every 5th is lost
    // whole. The link takes one once its words are out and, for one the
    // sender took, an edge after.
    unsigned words_left = 0;
    bool ao_was = false, drop = false;
    uint32_t accepted = 0, delivered = 0, next = start, data_seen = 0, acks_seen = 0, resent = 0;
    uint8_t sq_ready = 0; // (it rises at the first edge)
    bool in_order = true, wrapped = false;
    const uint32_t end = (start + total) & 0xFFFFFF;
    int e = 0;
    for (; e < 200000 && (delivered < total || transport_out_una(&so, 0) != end); e++) {
        si.sq_valid = accepted < total;
        si.sq_ch = 0;
        si.sq_hdl = (uint16_t)accepted;
        ri.rx_valid = 0;
        resent += so.pkt_valid && so.pkt_retx;
        if (so.pkt_valid && (so.pkt_retx || ++data_seen % 7 != 0)) {
            ri.rx_valid = 1;
            ri.rx_ch = so.pkt_ch;
            ri.rx_psn = so.pkt_psn;
        }
        si.ack_valid = si.ack_wvalid = 0;
        if (ro.ao_valid && (!ao_was || ri.ao_ready)) {
            drop = ++acks_seen % 5 == 0;
            words_left = ro.ao_kind == TP_SACK ? transport_bmap_words(ro.ao_code) : 0;
            if (!drop) {
                si.ack_valid = 1;
                si.ack_ch = ro.ao_ch;
                si.ack_kind = ro.ao_kind;
                si.ack_base = ro.ao_base;
                si.ack_hi = ro.ao_hi;
                si.ack_code = ro.ao_code;
            }
        } else if (ro.ao_wvalid && words_left) {
            words_left--;
            si.ack_wvalid = !drop;
            si.ack_word = ro.ao_word;
        }
        ao_was = ro.ao_valid;
        // (the sender takes no header at the edge after it took one: the
        // receiver's register is freed the edge after the sender took it)
        ri.ao_ready = words_left == 0 && !si.ack_valid;
        accepted += si.sq_valid && sq_ready;
        ASSERT_EQ(snd.step(), 0) << "lockstep mismatch at edge " << e;
        ASSERT_EQ(rcv.step(), 0) << "lockstep mismatch at edge " << e;
        sq_ready = so.sq_ready;
        if (ro.dlv_valid) {
            in_order = in_order && ro.dlv_psn == next;
            wrapped = wrapped || ro.dlv_psn == 0;
            next = (next + 1) & 0xFFFFFF;
            delivered++;
        }
    }
    EXPECT_EQ(delivered, total);
    EXPECT_TRUE(in_order);
    EXPECT_TRUE(wrapped);
    EXPECT_EQ(next, end);
    EXPECT_EQ(so.fail, 0);
    EXPECT_EQ(transport_out_una(&so, 0), end);
    EXPECT_GE(resent, total / 7);
    EXPECT_EQ(block_mismatches(snd.inst) + block_mismatches(rcv.inst), 0u);
}

TEST(TransportWrap, PsnsCrossTheWrapOnC) { wrap_run(BACKEND_C); }
TEST(TransportWrap, PsnsCrossTheWrapOnRtl) { wrap_run(BACKEND_RTL); }
TEST(TransportWrap, PsnsCrossTheWrapInLockstep) { wrap_run(BACKEND_LOCKSTEP); }

// The block alone, on the C model, the RTL and both in lockstep: the timeout
// back-off, go-back-N's NAKs and the receive verdict at half the PSN space.
namespace {

class TransportBackend : public ::testing::TestWithParam<backend_kind_t> {};

std::string backend_label(const ::testing::TestParamInfo<backend_kind_t> &i)
{
    return backend_name(i.param);
}

void tp_defaults(transport_in_t &in)
{
    in.cfg_window = 64;
    in.cfg_ooo_cap = 64;
    in.cfg_rto = 1000;
    in.cfg_backoff = 1;
    in.cfg_retry_max = 7;
    in.pkt_ready = 1;
    in.ao_ready = 1;
}

// The first edge after reset starts the sequences and takes no input.
void first_edge(TpBlock &b)
{
    transport_in_t held = b.in;
    b.in.sq_valid = b.in.ack_valid = b.in.ack_wvalid = b.in.rx_valid = 0;
    EXPECT_EQ(b.step(), 0);
    b.in = held;
}

// One packet, never acknowledged: it leaves, then every timeout sends it
// again, each timeout twice the one before (1000, 2000, 4000, 8000 cycles),
// not twice the configured one (which would make it 1000, 2000, 2000, 2000).
// (The timer starts at the edge after the packet leaves, and a resend leaves
// two edges after its timeout: one reads the scan's view anew.)
TEST_P(TransportBackend, EachTimeoutIsTwiceTheOneBefore)
{
    TpBlock b(&transport_class, GetParam(), 3106);
    ASSERT_TRUE(b.ok());
    tp_defaults(b.in);
    std::vector<uint64_t> sent, resent, timeouts;
    for (uint64_t e = 0; e < 40000 && resent.size() < 4; e++) {
        b.in.sq_valid = e == 1; // (the first edge starts the sequences)
        b.in.sq_ch = 2;
        b.in.sq_hdl = 0x77;
        ASSERT_EQ(b.step(), 0) << "lockstep mismatch at edge " << e;
        if (b.out.pkt_valid) {
            EXPECT_EQ(b.out.pkt_ch, 2);
            EXPECT_EQ(b.out.pkt_psn, 0u);
            EXPECT_EQ(b.out.pkt_hdl, 0x77);
            (b.out.pkt_retx ? resent : sent).push_back(e);
        }
        if (b.out.tmo)
            timeouts.push_back(e);
    }
    ASSERT_EQ(sent.size(), 1u);
    ASSERT_EQ(resent.size(), 4u);
    EXPECT_EQ(sent[0], 2u);
    // the timeouts: 1000 cycles after the timer started (the edge after the
    // packet left), then 2000, 4000 and 8000 cycles after the one before
    ASSERT_EQ(timeouts.size(), 4u);
    std::vector<uint64_t> waited;
    uint64_t last = sent[0];
    for (uint64_t t : timeouts) {
        waited.push_back(t - last);
        last = t;
    }
    EXPECT_EQ(waited, (std::vector<uint64_t>{1001, 2000, 4000, 8000}));
    // each resend leaves two edges after its timeout
    EXPECT_EQ(resent, (std::vector<uint64_t>{1005, 3005, 7005, 15005}));
    EXPECT_EQ(b.out.fail, 0);
    EXPECT_EQ(block_mismatches(b.inst), 0u);
}

// The same through the two-node bench at the default timeout (25.6 us,
// doubling): a message of one packet whose first three copies are lost waits
// 25.6, 51.2 and 102.4 us for them, 179.2 us more than one that arrives at
// once - to the cycle 1 + 2 + 4 timeouts of 8244 cycles (25.6 us rounded up
// to the 322 MHz clock), the edge from the packet leaving to its timer
// starting and the two from the last timeout to its resend.
TEST_P(TransportBackend, ThreeLossesInARowWait25And51And102Us)
{
    tpb_cfg_t c = base_cfg();
    c.backend = GetParam();
    c.msg_bytes = 64;
    c.mtu = 64;
    c.n_msgs = 1;
    tpb_result_t clean = run_ok(c);
    faults(c, "drop=fwd:1,drop=fwd:2,drop=fwd:3");
    tpb_result_t lossy = run_ok(c);
    EXPECT_EQ(lossy.msgs_done, 1u);
    EXPECT_EQ(lossy.timeouts, 3u);
    EXPECT_EQ(lossy.pkts_resent, 3u);
    EXPECT_EQ(lossy.cycles - clean.cycles, 7u * 8244u + 3u);
    const double waited_ns = lossy.deliverable_ns - clean.deliverable_ns;
    EXPECT_NEAR(waited_ns, (7 * 8244 + 3) * (1000.0 / 322), 0.01);
    EXPECT_NEAR(waited_ns, 25600 + 51200 + 102400, 30);
}

// Go-back-N: a receiver NAKs the first packet beyond a gap once, and NAKs
// again when, after the gap was filled and delivered, a later packet is
// missing: each loss gets its NAK, none waits for the sender's timer.
TEST_P(TransportBackend, GoBackNNaksEachLossOnce)
{
    TpBlock b(&transport_class, GetParam(), 3106);
    ASSERT_TRUE(b.ok());
    tp_defaults(b.in);
    b.in.cfg_gbn = 1;
    first_edge(b);
    const uint32_t arrive[] = {0, 2, 3, 1, 2, 4, 6, 7, 3, 4, 5, 6, 7};
    std::vector<int> verdicts;
    std::vector<std::pair<int, uint32_t>> acks; // (kind, base)
    std::vector<uint32_t> delivered;
    auto watch = [&]() {
        if (b.out.rxv_valid)
            verdicts.push_back(b.out.rxv_verdict);
        if (b.out.ao_valid)
            acks.push_back({b.out.ao_kind, b.out.ao_base});
        if (b.out.dlv_valid)
            delivered.push_back(b.out.dlv_psn);
    };
    for (uint32_t psn : arrive) {
        b.in.rx_valid = 1;
        b.in.rx_ch = 1;
        b.in.rx_psn = psn;
        ASSERT_EQ(b.step(), 0);
        watch();
        b.in.rx_valid = 0;
        for (int i = 0; i < 3; i++) {
            ASSERT_EQ(b.step(), 0);
            watch();
        }
    }
    EXPECT_EQ(verdicts, (std::vector<int>{TP_ACCEPT, TP_GAP, TP_GAP, TP_ACCEPT, TP_ACCEPT, TP_GAP,
                                          TP_GAP, TP_GAP, TP_ACCEPT, TP_ACCEPT, TP_ACCEPT,
                                          TP_ACCEPT, TP_ACCEPT}));
    EXPECT_EQ(delivered, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    std::vector<std::pair<int, uint32_t>> want = {
        {TP_ACK, 1}, {TP_NAK, 1}, {TP_ACK, 2}, {TP_ACK, 3}, {TP_NAK, 3}, {TP_ACK, 4},
        {TP_ACK, 5}, {TP_ACK, 6}, {TP_ACK, 7}, {TP_ACK, 8}};
    EXPECT_EQ(acks, want);
    EXPECT_EQ(block_mismatches(b.inst), 0u);
}

// The receive verdict against the next expected PSN, at the edge of half the
// 24-bit space: 2^23 ahead is behind (a duplicate), 2^23 - 1 ahead is ahead
// (beyond the bitmap, or a gap for go-back-N); from a start that is not 0.
TEST_P(TransportBackend, HalfThePsnSpaceAheadIsADuplicate)
{
    for (int gbn = 0; gbn < 2; gbn++) {
        TpBlock b(&transport_class, GetParam(), 3106);
        ASSERT_TRUE(b.ok());
        tp_defaults(b.in);
        b.in.cfg_gbn = (uint8_t)gbn;
        const uint32_t start = 0x923456;
        b.in.cfg_psn_init = start;
        first_edge(b);
        auto verdict = [&](uint32_t psn) {
            b.in.rx_valid = 1;
            b.in.rx_ch = 3;
            b.in.rx_psn = psn & TP_PSN_MASK;
            EXPECT_EQ(b.step(), 0);
            b.in.rx_valid = 0;
            EXPECT_EQ(b.step(), 0); // (taken at one edge, judged at the next)
            int v = b.out.rxv_valid ? b.out.rxv_verdict : -1;
            for (int i = 0; i < 3; i++)
                EXPECT_EQ(b.step(), 0);
            return v;
        };
        const int ahead = gbn ? TP_GAP : TP_BEYOND;
        EXPECT_EQ(verdict(start + 0x800000), TP_DUP) << "gbn " << gbn;
        EXPECT_EQ(verdict(start + 0x7FFFFF), ahead) << "gbn " << gbn;
        EXPECT_EQ(verdict(start + 0x800001), TP_DUP) << "gbn " << gbn;
        EXPECT_EQ(verdict(start - 1), TP_DUP) << "gbn " << gbn;
        EXPECT_EQ(verdict(start), TP_ACCEPT) << "gbn " << gbn;
        // one further on: the boundary moves with the next expected PSN
        EXPECT_EQ(verdict(start + 1 + 0x800000), TP_DUP) << "gbn " << gbn;
        EXPECT_EQ(verdict(start + 1 + 0x7FFFFF), ahead) << "gbn " << gbn;
        EXPECT_EQ(block_mismatches(b.inst), 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(Transport, TransportBackend,
                         ::testing::Values(BACKEND_C, BACKEND_RTL, BACKEND_LOCKSTEP), backend_label);

} // namespace
