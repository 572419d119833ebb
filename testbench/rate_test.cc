// The rate scenario: issue intervals and rates measured on delivered packets,
// conservation, and the three regimes of the concurrency limit.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" {
#include "config.h"
#include "rate.h"
}

#include "test_util.h"

namespace {

struct Cfg {
    config_t cfg;
    Cfg()
    {
        char err[512];
        config_init(&cfg);
        EXPECT_EQ(config_load_defaults(&cfg, err, sizeof err), 0) << err;
        EXPECT_EQ(config_validate(&cfg, err, sizeof err), 0) << err;
    }
    const path_cfg_t *ub() { return config_find(&cfg, "ub_async"); }
    const path_cfg_t *roce() { return config_find(&cfg, "pcie_nic"); }
};

rate_result_t run(const path_cfg_t *p, int64_t burst, backend_kind_t b = BACKEND_C,
                  int64_t slots = 0, int64_t payload = 64, int step_all = 0, int jetties = 8)
{
    rate_opts_t o{};
    o.burst = burst;
    o.slots = slots;
    o.payload = payload;
    o.jetties = jetties;
    o.seed = 1;
    o.backend = b;
    o.step_every_cycle = step_all;
    rate_result_t r;
    char err[512];
    EXPECT_EQ(rate_run(p, &o, &r, err, sizeof err), 0) << err;
    return r;
}

TEST(Rate, SteadyStateIntervalsAreTwoAndSixCyclesOnCAndRtl)
{
    Cfg C;
    for (backend_kind_t b : {BACKEND_C, BACKEND_RTL}) {
        rate_result_t ub = run(C.ub(), 10000, b), rc = run(C.roce(), 10000, b);
        EXPECT_EQ(ub.interval_cycles, 2);
        EXPECT_EQ(rc.interval_cycles, 6);
        EXPECT_EQ(ub.hist[2], 9999);  // every departure 2 cycles after the previous
        EXPECT_EQ(rc.hist[6], 9999);
        EXPECT_NEAR(ub.interval_ns, 6.21, 0.005);
        EXPECT_NEAR(rc.interval_ns, 18.63, 0.005);
        EXPECT_NEAR(ub.rate_per_us, 161.0, 161.0 * 0.01);
        EXPECT_NEAR(rc.rate_per_us, 53.7, 53.7 * 0.01);
        EXPECT_TRUE(ub.conserved);
        EXPECT_TRUE(rc.conserved);
    }
}

TEST(Rate, ShortBurstsRampUpTowardsTheSteadyRate)
{
    Cfg C;
    double prev = 0;
    for (int64_t k : {16, 256, 1000, 10000}) {
        rate_result_t r = run(C.ub(), k);
        EXPECT_GT(r.rate_per_us, prev) << k;
        prev = r.rate_per_us;
        EXPECT_TRUE(r.conserved);
        EXPECT_EQ(r.sent, k);
        EXPECT_EQ(r.executed, k);
        EXPECT_EQ(r.completed, k);
    }
    // a burst of K pays the pipeline fill once: about K / (K*delta + latency)
    rate_result_t r256 = run(C.ub(), 256), r1000 = run(C.ub(), 1000);
    EXPECT_NEAR(r256.rate_per_us, 154, 2);
    EXPECT_NEAR(r1000.rate_per_us, 159, 1);
}

TEST(Rate, LockstepRunsTheRateScenarioWithoutMismatch)
{
    Cfg C;
    for (const path_cfg_t *p : {C.ub(), C.roce()}) {
        rate_result_t c = run(p, 2000, BACKEND_C, 0, 64);
        rate_result_t l = run(p, 2000, BACKEND_LOCKSTEP, 0, 64);
        EXPECT_EQ(l.lockstep_mismatches, 0u);
        EXPECT_EQ(l.interval_cycles, c.interval_cycles);
        EXPECT_DOUBLE_EQ(l.rate_per_us, c.rate_per_us);
        EXPECT_DOUBLE_EQ(l.slot_time_ns, c.slot_time_ns);
    }
}

TEST(Rate, SkippingIdleCyclesChangesNothing)
{
    Cfg C;
    rate_result_t a = run(C.ub(), 300, BACKEND_C, 16, 256, 0);
    rate_result_t b = run(C.ub(), 300, BACKEND_C, 16, 256, 1);
    EXPECT_DOUBLE_EQ(a.rate_per_us, b.rate_per_us);
    EXPECT_DOUBLE_EQ(a.slot_time_ns, b.slot_time_ns);
    EXPECT_DOUBLE_EQ(a.throughput_gbytes_per_s, b.throughput_gbytes_per_s);
    EXPECT_LT(a.edges_stepped, b.edges_stepped);
}

TEST(Rate, EachTermOfTheConcurrencyLimitBindsInItsRegime)
{
    Cfg C;
    struct {
        int64_t slots, payload;
        const char *binding;
    } cases[] = {
        {4, 64, "N*m/T0"},     // few slots: N*m/T0
        {256, 64, "m/delta"},  // small transfers, many slots: the issue interval
        {256, 4096, "B_path"}, // large transfers: the wire
    };
    for (const path_cfg_t *p : {C.ub(), C.roce()}) {
        for (auto &c : cases) {
            rate_result_t r = run(p, 6000, BACKEND_C, c.slots, c.payload);
            EXPECT_STREQ(r.binding, c.binding) << p->name << " slots " << c.slots;
            double bound = std::min(r.path_gbytes_per_s, std::min(r.slots_gbytes_per_s, r.issue_gbytes_per_s));
            EXPECT_DOUBLE_EQ(r.bound_gbytes_per_s, bound);
            EXPECT_LE(r.throughput_gbytes_per_s, bound * 1.001) << p->name << " " << c.binding;
            EXPECT_GE(r.throughput_gbytes_per_s, bound * 0.93) << p->name << " " << c.binding;
            EXPECT_TRUE(r.conserved);
        }
    }
}

TEST(Rate, WireBackPressureLosesNothing)
{
    Cfg C;
    // 4 KiB responses take ~83 ns each on the wire: the target's send
    // pipeline is stalled by its MAC most of the time
    rate_result_t r = run(C.ub(), 3000, BACKEND_LOCKSTEP, 0, 4096);
    EXPECT_TRUE(r.conserved);
    EXPECT_EQ(r.completed, 3000);
    EXPECT_EQ(r.lockstep_mismatches, 0u);
}

TEST(RateCli, JsonHasTheDocumentedShapeAndRunsAreByteIdentical)
{
    std::string a, b;
    std::string cmd = testutil::ubsim() + " rate --burst 16,256 --format json --quiet";
    ASSERT_EQ(testutil::run(cmd, &a), 0);
    ASSERT_EQ(testutil::run(cmd, &b), 0);
    EXPECT_EQ(a, b);
    for (const char *k : {"\"stacks\"", "\"name\":\t\"ub\"", "\"name\":\t\"roce\"", "\"burst\":\t16",
                          "\"interval_ns\"", "\"rate_per_us\"", "\"posted\"", "\"sent\"",
                          "\"executed\"", "\"completed\""})
        EXPECT_NE(a.find(k), std::string::npos) << k;
}

// The stacks and bursts run side by side (--jobs): each is a simulation of
// its own, so the report is the same, byte for byte and in the same order,
// on one thread and on several, in every format and on every backend.
TEST(RateCli, SimulationsSideBySideReportWhatOneAfterTheOtherDoes)
{
    for (const char *args : {"--burst 16,300,1000 --slots 64 --format json",
                             "--burst 16,300,1000 --slots 64",
                             "--burst 200,16 --format csv --backend rtl",
                             "--burst 64,128 --backend lockstep --stack ub --format json",
                             "--burst 100,40 --engine nodes --format json"})
        EXPECT_EQ(testutil::same_output(testutil::ubsim() + " rate --quiet " + args,
                                        {"--jobs 1", "--jobs 2", "--jobs 7"}),
                  "")
            << args;
    std::string help;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " rate --help", &help), 0);
    EXPECT_NE(help.find("--jobs N"), std::string::npos);
    /* the progress lines say which started and how many are done */
    std::string err;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " rate --burst 16,64 --progress --format json --jobs 2",
                            &err, true),
              0);
    for (const char *k : {"ub, burst 16 ...", "ub, burst 64 done", "roce, burst 16 done",
                          "roce, burst 64 ...", "(4 of 4 done)"})
        EXPECT_NE(err.find(k), std::string::npos) << k << ": " << err;
}

TEST(RateCli, BadInputFailsClearly)
{
    struct {
        const char *args;
        const char *expect;
    } cases[] = {
        {"--burst 0", "--burst: expected whole numbers"},
        {"--burst 5,x", "--burst: expected whole numbers 1..2000000, got 'x'"},
        {"--stack ib", "--stack: expected ub, roce or both"},
        {"--payload 0", "--payload: expected bytes"},
        {"--slots -2", "--slots: expected a whole number from 1 to 9223372036854775807"},
        {"--backend verilog", "--backend: expected c, rtl or lockstep"},
        {"--wave /tmp/x.vcd", "--wave: expected a single --burst and a single --stack"},
        {"--ub-path nosuch", "unknown path 'nosuch'"},
        {"--frobnicate", "unknown option '--frobnicate'"},
        {"--jobs 0", "--jobs: expected a whole number 1..64, got '0'"},
        {"--jobs two", "--jobs: expected a whole number 1..64, got 'two'"},
        {"--jobs", "--jobs"},
    };
    for (auto &c : cases) {
        std::string out;
        int rc = testutil::run(testutil::ubsim() + " rate --quiet " + c.args, &out, true);
        EXPECT_EQ(rc, 2) << c.args << ": " << out;
        EXPECT_NE(out.find(c.expect), std::string::npos) << c.args << ": " << out;
    }
}

TEST(RateCli, ASendPipelineWithoutReceivePipelinesIsRefused)
{
    // a path whose requests are sent but never reach a target receive
    // pipeline: nothing would check their packets or put a message of several
    // packets together, so the config is refused, naming what is missing
    std::string ini =
        "[path]\nname = broken\n[clock]\nnic_mhz = 322\n[wire]\none_way_ns = 10\ngbytes_per_s = 50\n"
        "[nic]\ntx_stages = ingress:1\ntx_block = ub_send_pipeline\nrx_stages = ingress:1\n"
        "[stage.tx]\ncategory = nic\nnic = initiator.tx\n"
        "[stage.w]\ncategory = wire\nwire = forward\nbytes = 64\n";
    std::string f = testutil::temp_file(ini), out;
    int rc = testutil::run(testutil::ubsim() + " rate --quiet --stack ub --ub-path broken --burst 8 --config " + f,
                           &out, true);
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find(":2: path 'broken': [nic] tx_block: a send pipeline needs a receive pipeline at "
                       "both ends (a stage with nic = target.rx)"),
              std::string::npos)
        << out;
    std::remove(f.c_str());
}

TEST(RateCli, WavesOfTheCModelAndTheRtl)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() +
                                " rate --quiet --stack ub --burst 20 --backend lockstep --wave /tmp/ubsim_rate_w.vcd",
                            &out, true),
              0)
        << out;
    std::string vcd;
    ASSERT_EQ(testutil::run("cat /tmp/ubsim_rate_w.vcd", &vcd), 0);
    EXPECT_NE(vcd.find("$scope module TOP $end"), std::string::npos);
    EXPECT_NE(vcd.find("$scope module ub_tx $end"), std::string::npos);
    EXPECT_NE(vcd.find(" wr_valid_i $end"), std::string::npos);
    EXPECT_NE(vcd.find(" pkt_psn_o $end"), std::string::npos);
    FILE *f = std::fopen("/tmp/ubsim_rate_w-rtl.fst", "rb");
    ASSERT_NE(f, nullptr) << "the RTL's own FST";
    std::fclose(f);
    std::remove("/tmp/ubsim_rate_w.vcd");
    std::remove("/tmp/ubsim_rate_w-rtl.fst");
}

}  // namespace

// ---- a send pipeline that loses or repeats a packet is caught ---------------

extern "C" {
#include "latency.h"
#include "ub_tx.h"
}

namespace {

enum class Fault { kDrop, kRepeat };
Fault g_fault;
int g_taken;  // packets the faulty block has let go

struct Faulty {
    ub_tx_state_t st;
    ub_tx_out_t last;
    int replay;
};

void *faulty_create(const char *, uint64_t)
{
    Faulty *f = new Faulty();
    ub_tx_reset(&f->st);
    return f;
}
void faulty_reset(void *self) { ub_tx_reset(&static_cast<Faulty *>(self)->st); }
void faulty_destroy(void *self) { delete static_cast<Faulty *>(self); }
void faulty_step(void *self, const void *in_, void *out_, uint64_t)
{
    Faulty *f = static_cast<Faulty *>(self);
    const auto *in = static_cast<const ub_tx_in_t *>(in_);
    auto *out = static_cast<ub_tx_out_t *>(out_);
    bool taken = f->last.pkt_valid && in->pkt_ready;
    if (taken && ++g_taken == 5 && g_fault == Fault::kRepeat)
        f->replay = 1;  // offer the 5th packet once more
    ub_tx_step(&f->st, in, out);
    if (f->replay == 1 && taken) {
        ub_tx_out_t again = f->last;
        f->replay = 2;
        f->last = *out;
        *out = again;
        out->wr_ready = f->last.wr_ready;
        return;
    }
    f->last = *out;
    if (g_fault == Fault::kDrop && out->pkt_valid && g_taken == 7 && in->pkt_ready)
        out->pkt_valid = 0;  // the 8th packet vanishes: the block thinks it is gone
}

block_class_t faulty_class()
{
    block_class_t c = ub_tx_class;
    c.name = "faulty_ub_tx";
    c.c = block_impl_t{faulty_create, faulty_reset, faulty_step, faulty_destroy,
                       nullptr,       nullptr,      nullptr,     nullptr};
    return c;
}

// Runs 16 reads through the faulty block; returns latency_run's status.
int run_faulty(Fault fault, latency_result_t *r, std::string *err)
{
    Cfg C;
    block_class_t cls = faulty_class();
    g_fault = fault;
    g_taken = 0;
    latency_opts_t o{};
    o.ops = 16;
    o.slots = 16;
    o.tx_class = &cls;
    char buf[512] = "";
    int rc = latency_run(C.ub(), &o, r, buf, sizeof buf);
    *err = buf;
    return rc;
}

TEST(RateFaults, ALostPacketIsReportedWithTheCounts)
{
    latency_result_t r;
    std::string err;
    EXPECT_EQ(run_faulty(Fault::kDrop, &r, &err), -2);
    EXPECT_NE(err.find("requests were lost"), std::string::npos) << err;
    EXPECT_EQ(r.posted, 16);
    EXPECT_LT(r.completed, 16);
    latency_result_free(&r);
}

TEST(RateFaults, ARepeatedPacketIsCaughtWhereItAppears)
{
    latency_result_t r;
    std::string err;
    EXPECT_EQ(run_faulty(Fault::kRepeat, &r, &err), -1);
    EXPECT_NE(err.find("not a request in flight there"), std::string::npos) << err;
    latency_result_free(&r);
}

}  // namespace

// ---- a lockstep mismatch inside a simulation of a command ---------------------

namespace {

// The UB transmit path whose C model misnumbers the 3rd packet's PSN: in
// lockstep the RTL disagrees.
void *mis_create(const char *, uint64_t)
{
    Faulty *f = new Faulty();
    ub_tx_reset(&f->st);
    return f;
}
void mis_step(void *self, const void *in_, void *out_, uint64_t)
{
    Faulty *f = static_cast<Faulty *>(self);
    const auto *in = static_cast<const ub_tx_in_t *>(in_);
    auto *out = static_cast<ub_tx_out_t *>(out_);
    if (f->last.pkt_valid && in->pkt_ready)
        f->replay++;  // (packets taken)
    ub_tx_step(&f->st, in, out);
    if (out->pkt_valid && f->replay == 2)
        out->pkt_psn ^= 1;
    f->last = *out;
}

}  // namespace

// Its report goes where the simulation's options say (a command running
// simulations side by side keeps each apart and prints them in order), and
// its waveform is named after the path, the simulation's tag, the node and
// the block, so two simulations never write one file.
TEST(RateFaults, ALockstepMismatchIsReportedWhereTheSimulationSays)
{
    Cfg C;
    block_class_t cls = ub_tx_class;
    cls.name = "misnumbering_ub_tx";
    cls.c = block_impl_t{mis_create, faulty_reset, mis_step, faulty_destroy,
                         nullptr,    nullptr,      nullptr,  nullptr};
    char *buf = nullptr;
    size_t len = 0;
    FILE *rep = open_memstream(&buf, &len);
    ASSERT_NE(rep, nullptr);
    latency_opts_t o{};
    o.ops = 8;
    o.slots = 8;
    o.backend = BACKEND_LOCKSTEP;
    o.tx_class = &cls;
    o.report = rep;
    o.sim_tag = "burst8";
    latency_result_t r;
    char err[512] = "";
    const char *vcd = "ub_async_burst8_nodeA_misnumbering_ub_tx_mismatch.vcd";
    std::remove(vcd);
    EXPECT_EQ(latency_run(C.ub(), &o, &r, err, sizeof err), -1);
    fclose(rep);
    std::string report = buf ? buf : "";
    free(buf);
    EXPECT_NE(std::string(err).find("lockstep mismatch"), std::string::npos) << err;
    EXPECT_NE(report.find("lockstep mismatch: cycle"), std::string::npos) << report;
    EXPECT_NE(report.find("port pkt_psn_o"), std::string::npos) << report;
    FILE *f = std::fopen(vcd, "r");
    EXPECT_NE(f, nullptr) << vcd;
    if (f)
        std::fclose(f);
    std::remove(vcd);
    latency_result_free(&r);
}
