// Incast: N senders write to (or read from) one target through a switch.
// Nothing assumes two nodes: every sender completes with its own bytes in
// the target's memory; a switch whose buffer overflows drops and counts, and
// the requests it dropped end in errors; faults fall on each link on its
// own; C, RTL and lockstep agree; the same command gives the same output.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_paths.h"
#include "test_util.h"

extern "C" {
#include "config.h"
#include "incast.h"
}

namespace {

using testutil::Paths;

struct Star {
    topo_file_t *tf = new topo_file_t;
    int senders[64];
    int n, target;
    explicit Star(int k)
    {
        char err[256];
        EXPECT_EQ(incast_default_topology(tf, k, err, sizeof err), 0) << err;
        n = k;
        target = k; // T comes last
        for (int i = 0; i < k; i++)
            senders[i] = i;
    }
    ~Star() { delete tf; }
};

incast_result_t *run(const path_cfg_t *p, const Star &s, incast_opts_t o)
{
    static incast_result_t r;
    char err[512];
    EXPECT_EQ(incast_run(p, s.tf, s.target, s.senders, s.n, &o, &r, err, sizeof err), 0) << err;
    return &r;
}

incast_opts_t opts(int64_t payload, int64_t ops, int window, int write)
{
    incast_opts_t o{};
    o.payload = payload;
    o.ops = ops;
    o.window = window;
    o.write = write;
    o.backend = BACKEND_C;
    return o;
}

TEST(Incast, EverySenderWritesItsBytesIntoTheTargetAndTheLinkIsShared)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        SCOPED_TRACE(name);
        Star s(6);
        incast_opts_t o = opts(2048, 40, 4, 1);
        incast_result_t r = *run(config_find(&P.cfg, name), s, o);
        ASSERT_EQ(r.n, 6);
        double sum = 0, lo = 1e9, hi = 0;
        for (int i = 0; i < r.n; i++) {
            EXPECT_EQ(r.s[i].completed, o.ops) << r.s[i].node;
            EXPECT_EQ(r.s[i].errors, 0);
            sum += r.s[i].goodput_gbytes_per_s;
            lo = std::min(lo, r.s[i].goodput_gbytes_per_s);
            hi = std::max(hi, r.s[i].goodput_gbytes_per_s);
        }
        EXPECT_EQ(r.sw.dropped, 0u);
        EXPECT_EQ(r.executed, 6 * o.ops);
        // what the successful writes put in the target's memory was checked
        EXPECT_EQ(r.bytes_checked, 6 * o.window * o.payload);
        // they share the target's link: together no more than its rate
        double rate = s.tf->t.link[s.n].gbytes_per_s; /* (the target's link comes last) */
        EXPECT_LE(r.goodput_gbytes_per_s, rate);
        EXPECT_LE(sum, rate);
        EXPECT_GT(lo, 0.8 * hi); // and fairly
        EXPECT_EQ(r.rx_target[RX_OK], (uint64_t)(6 * o.ops));
        EXPECT_EQ(r.rx_initiators[RX_OK], (uint64_t)(6 * o.ops));
        EXPECT_GT(r.sw.peak_queue_bytes, 0);
    }
}

// Sixteen senders, each on a channel (UB) or queue pair (RoCE) of its own at
// the target: every response sequence is whole. Two senders whose node
// numbers are equal modulo 16 would share one: refused, saying why.
TEST(Incast, SixteenSendersEachKeepTheirOwnSequence)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        SCOPED_TRACE(name);
        Star s(16);
        incast_opts_t o = opts(256, 10, 2, 1);
        incast_result_t r = *run(config_find(&P.cfg, name), s, o);
        for (int i = 0; i < r.n; i++)
            EXPECT_EQ(r.s[i].completed, o.ops) << r.s[i].node;
        for (int q = 1; q < RX_N_REASONS; q++) {
            EXPECT_EQ(r.rx_target[q], 0u) << rx_reason_name((rx_reason_t)q);
            EXPECT_EQ(r.rx_initiators[q], 0u) << rx_reason_name((rx_reason_t)q);
        }
    }
    Star big(17);
    char err[512];
    big.senders[16] = 16; // s16 collides with s0
    EXPECT_EQ(incast_check(config_find(&P.cfg, "ub_async"), big.tf, big.target, big.senders, 17, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("senders s0 and s16 would share one of the target's 16"),
              std::string::npos)
        << err;
}

TEST(Incast, ReadsFromOneTargetCompleteWithTheTargetsBytes)
{
    Paths P;
    Star s(4);
    incast_opts_t o = opts(512, 50, 8, 0);
    incast_result_t r = *run(config_find(&P.cfg, "ub_async"), s, o);
    for (int i = 0; i < r.n; i++)
        EXPECT_EQ(r.s[i].completed, o.ops);
    EXPECT_EQ(r.bytes_checked, 4 * o.ops * o.payload);
}

TEST(Incast, AFullSwitchBufferDropsCountsAndEndsThoseRequestsInErrors)
{
    Paths P;
    Star s(8);
    incast_opts_t o = opts(4096, 64, 16, 1); // 8 x 16 x 4 KiB in flight, more than a port holds
    ASSERT_LT(s.tf->t.sw[0].buffer_bytes, 8 * 16 * 4096);
    o.timeout_ps = 100000000;               // 100 us
    incast_result_t r = *run(config_find(&P.cfg, "ub_async"), s, o);
    EXPECT_GT(r.sw.dropped, 0u);
    EXPECT_LE(r.sw.peak_queue_bytes, s.tf->t.sw[0].buffer_bytes);
    EXPECT_EQ(r.sw.received, r.sw.forwarded + r.sw.dropped + r.sw.unroutable);
    int64_t errors = 0;
    for (int i = 0; i < r.n; i++) {
        EXPECT_EQ(r.s[i].completed + r.s[i].errors, o.ops);
        errors += r.s[i].errors;
    }
    EXPECT_GE(errors, (int64_t)r.sw.dropped);
    EXPECT_GT(r.rx_target[RX_PSN_GAP], 0u); // the packets behind a drop meet its gap
}

// With faults every link of the star decides on its own: a sender's
// channel breaks at the first of its packets lost on its own link or on the
// target's, so the senders break at different points, each after about
// 1 / (2 x 1e-2) = 50 requests on average. (Were every link to lose the
// same packet numbers, every sender would lose the same early request and
// nothing after it would execute.) Without a transport nothing is resent:
// every request ends, completed or in an error.
TEST(Incast, FaultsFallOnEachLinkOnItsOwn)
{
    Paths P;
    Star s(8);
    incast_opts_t o = opts(4096, 256, 4, 1);
    fault_spec_t f = testutil::fault_spec("loss=1e-2,seed=1");
    o.fault = &f;
    incast_result_t r = *run(config_find(&P.cfg, "ub_async"), s, o);
    ASSERT_TRUE(r.faulted);
    EXPECT_GT(r.faults[FAULT_FWD].lost, 0u);
    EXPECT_GT(r.executed, 8 * 256 / 10) << "about 8 x 50 expected";
    int64_t completed = 0, lo = o.ops, hi = 0;
    for (int i = 0; i < r.n; i++) {
        EXPECT_EQ(r.s[i].completed + r.s[i].errors, o.ops) << r.s[i].node;
        EXPECT_LT(r.s[i].completed, o.ops) << r.s[i].node << ": 1 % loss on 512 packets each way";
        completed += r.s[i].completed;
        lo = std::min(lo, r.s[i].completed);
        hi = std::max(hi, r.s[i].completed);
    }
    EXPECT_GT(completed, 0);
    EXPECT_LE(completed, r.executed); // a write completes once executed
    EXPECT_LT(lo, hi) << "the senders' links lose different packets";
    // the same seed: the same run
    incast_result_t again = *run(config_find(&P.cfg, "ub_async"), s, o);
    EXPECT_EQ(again.executed, r.executed);
    for (int i = 0; i < r.n; i++)
        EXPECT_EQ(again.s[i].completed, r.s[i].completed);
}

// A drop names one link of the star (each named after its node): that
// sender's channel breaks there, and only that sender's.
TEST(Incast, ADropBreaksTheSenderOfTheLinkItNames)
{
    Paths P;
    Star s(4);
    incast_opts_t o = opts(1024, 20, 1, 1);
    o.timeout_ps = 100000000; // 100 us
    fault_spec_t f = testutil::fault_spec("drop=s2.fwd:5");
    o.fault = &f;
    incast_result_t r = *run(config_find(&P.cfg, "ub_async"), s, o);
    EXPECT_EQ(r.faults[FAULT_FWD].dropped, 1u);
    for (int i = 0; i < r.n; i++)
        EXPECT_EQ(r.s[i].completed, i == 2 ? 4 : o.ops) << r.s[i].node;
    EXPECT_EQ(r.executed, 3 * o.ops + 4);
}

TEST(Incast, TheBackendsAgree)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        SCOPED_TRACE(name);
        Star s(3);
        incast_opts_t o = opts(256, 20, 4, 1);
        incast_result_t c = *run(config_find(&P.cfg, name), s, o);
        for (backend_kind_t be : {BACKEND_RTL, BACKEND_LOCKSTEP}) {
            o.backend = be;
            incast_result_t x = *run(config_find(&P.cfg, name), s, o);
            EXPECT_EQ(x.end_ns, c.end_ns) << backend_name(be);
            EXPECT_EQ(x.lockstep_mismatches, 0u);
            for (int i = 0; i < c.n; i++) {
                EXPECT_EQ(x.s[i].completed, c.s[i].completed);
                EXPECT_EQ(x.s[i].mean_ns, c.s[i].mean_ns);
            }
        }
    }
}

TEST(IncastCli, PrintsPerSenderAndSwitchFiguresAndRepeatsItself)
{
    std::string out, again;
    const std::string cmd = testutil::ubsim() + " incast --quiet --senders 3 --ops 16 --format json";
    ASSERT_EQ(testutil::run(cmd, &out), 0) << out;
    for (const char *key : {"\"senders\"", "\"node\":\t\"s0\"", "\"completed\":\t16", "\"errors\":\t0",
                            "\"goodput_gbytes_per_s\"", "\"switch\"", "\"drops\":\t0", "\"peak_queue_bytes\""})
        EXPECT_NE(out.find(key), std::string::npos) << key << "\n" << out;
    ASSERT_EQ(testutil::run(cmd, &again), 0);
    EXPECT_EQ(out, again);
    std::string star3 = std::string(UBSIM_CONFIG_DIR) + "/topo/star3.ini";
    ASSERT_EQ(testutil::run(testutil::ubsim() + " incast --quiet --ops 8 --topology " + star3, &out), 0)
        << out;
    EXPECT_NE(out.find("2 senders write 4096 B each to T through switch S"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " incast --quiet --ops 4 --senders 1 --op read --payload 64",
                            &out), 0) << out;
    EXPECT_NE(out.find("1 sender reads 64 B each from T through switch S"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " incast --quiet --ops 8 --format csv", &out), 0);
    EXPECT_NE(out.find("sender,completed,errors,goodput_gbytes_per_s,mean_ns"), std::string::npos) << out;
    // mistakes say what was expected
    EXPECT_EQ(testutil::run(testutil::ubsim() + " incast --senders 5 --topology " + star3, &out, true), 2);
    EXPECT_NE(out.find("has 2 nodes besides the target T, not 5"), std::string::npos) << out;
    std::string line4 = std::string(UBSIM_CONFIG_DIR) + "/topo/line4.ini";
    EXPECT_EQ(testutil::run(testutil::ubsim() + " incast --quiet --topology " + line4, &out, true), 2);
    EXPECT_NE(out.find("through exactly one switch"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " incast --senders 17", &out, true), 2);
    EXPECT_NE(out.find("--senders: expected 1 to 16"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " incast --op swap", &out, true), 2);
    EXPECT_NE(out.find("--op: expected write or read, got 'swap'"), std::string::npos) << out;
    // a plain drop= on a star of several links, or a link it does not have
    EXPECT_EQ(testutil::run(testutil::ubsim() + " incast --senders 3 --fault drop=fwd:3", &out, true), 2);
    EXPECT_NE(out.find("--fault: drop=fwd:3: topology 'star4' has 4 links: name the one to drop on, as "
                       "drop=LINK.fwd:3 (links: s0, s1, s2, T)"),
              std::string::npos)
        << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " incast --topology " + star3 + " --fault drop=C.back:1", &out,
                            true),
              2);
    EXPECT_NE(out.find("topology 'star3' has no link 'C' (links: A, B, T)"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " incast --quiet --senders 3 --ops 16 --fault drop=T.back:40", &out),
              0)
        << out;
    EXPECT_NE(out.find("faults on the back links: "), std::string::npos) << out;
    EXPECT_NE(out.find("dropped by the list 1,"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " incast --help", &out), 0);
    EXPECT_NE(out.find("--senders N"), std::string::npos);
}

} // namespace
