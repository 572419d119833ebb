// Faults on the links of a simulated read path: a lost packet ends its read
// in an error after the timeout and breaks the channel's sequence for the
// reads behind it; duplicates and corruption are refused by the receive
// checks and counted; under a mix of faults every read ends, with success or
// an error, and the same seed gives the same run.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_paths.h"
#include "test_util.h"

extern "C" {
#include "config.h"
#include "fault.h"
#include "latency.h"
}

namespace {

using testutil::Paths;

fault_spec_t spec(const char *text) { return testutil::fault_spec(text); }

latency_result_t run(const path_cfg_t *p, const fault_spec_t *f, int64_t ops, int64_t slots,
                     backend_kind_t be = BACKEND_C, int64_t timeout_ps = 0)
{
    latency_opts_t o{};
    o.ops = ops;
    o.slots = slots;
    o.jetties = 8;
    o.backend = be;
    o.fault = f;
    o.timeout_ps = timeout_ps;
    latency_result_t r;
    char err[512];
    EXPECT_EQ(latency_run(p, &o, &r, err, sizeof err), 0) << err;
    return r;
}

uint64_t rx(const latency_result_t &r, int node, rx_reason_t why) { return r.fx.rx_counts[node][why]; }

TEST(FaultRun, ALostRequestEndsInAnErrorAndTheReadsBehindItMeetAGap)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        fault_spec_t f = spec("drop=fwd:5");
        latency_result_t r = run(P.get(name), &f, 50, 1);
        EXPECT_EQ(r.completed, 4) << name;
        EXPECT_EQ(r.errors, 46) << name;
        EXPECT_EQ(r.fx.faults[FAULT_FWD].dropped, 1u);
        EXPECT_EQ(rx(r, 1, RX_OK), 4u);
        EXPECT_EQ(rx(r, 1, RX_PSN_GAP), 45u) << "without --transport nothing is resent";
        EXPECT_EQ(rx(r, 0, RX_OK), 4u);
    }
}

TEST(FaultRun, DuplicatesAreRefusedAndEveryReadCompletes)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        for (backend_kind_t be : {BACKEND_C, BACKEND_LOCKSTEP}) {
            fault_spec_t f = spec("dup=1");
            latency_result_t r = run(P.get(name), &f, 200, 8, be);
            EXPECT_EQ(r.completed, 200) << name;
            EXPECT_EQ(r.errors, 0) << name;
            EXPECT_EQ(r.fx.faults[FAULT_FWD].duplicated, 200u);
            EXPECT_EQ(rx(r, 1, RX_PSN_DUPLICATE), 200u) << name;
            EXPECT_EQ(rx(r, 0, RX_PSN_DUPLICATE), 200u) << name;
            EXPECT_EQ(rx(r, 1, RX_OK), 200u);
        }
    }
}

TEST(FaultRun, CorruptedResponsesAreBadChecksumsAndEndInErrors)
{
    Paths P;
    fault_spec_t f = spec("back.corrupt=1");
    latency_result_t r = run(P.get("ub_async"), &f, 30, 4, BACKEND_C, 20000000 /* 20 us */);
    EXPECT_EQ(r.completed, 0);
    EXPECT_EQ(r.errors, 30);
    EXPECT_EQ(rx(r, 1, RX_OK), 30u);
    EXPECT_EQ(rx(r, 0, RX_BAD_CHECKSUM), 30u);
    EXPECT_EQ(r.fx.faults[FAULT_BACK].corrupted, 30u);
    EXPECT_EQ(r.fx.faults[FAULT_FWD].corrupted, 0u);
}

// A mix of every fault, many reads in flight: every read ends exactly once,
// every packet the links delivered is counted by a receiver, and a second
// run with the same seed is the same run.
TEST(FaultRun, UnderAMixOfFaultsEveryReadEndsAndTheSeedRepeatsTheRun)
{
    Paths P;
    const int64_t ops = 20000;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        fault_spec_t f = spec("loss=2e-4,dup=1e-3,reorder=1e-3,corrupt=5e-4,seed=11");
        latency_result_t a = run(P.get(name), &f, ops, 64, BACKEND_C, 50000000 /* 50 us */);
        EXPECT_EQ(a.completed + a.errors, ops) << name;
        EXPECT_GT(a.completed, 0) << name;
        EXPECT_EQ(a.bytes_checked, a.completed) << name;
        EXPECT_GT(a.errors, 0) << name;
        for (int node = 0; node < 2; node++) {
            uint64_t counted = 0;
            for (int k = 0; k < RX_N_REASONS; k++)
                counted += a.fx.rx_counts[node][k];
            int dir = node == 1 ? FAULT_FWD : FAULT_BACK;
            const fault_link_t &fl = a.fx.faults[dir];
            EXPECT_EQ(counted, fl.sent - fl.lost - fl.dropped + fl.duplicated)
                << name << ": every packet that arrived met the checks once";
        }
        latency_result_t b = run(P.get(name), &f, ops, 64, BACKEND_C, 50000000);
        EXPECT_EQ(a.completed, b.completed);
        EXPECT_EQ(a.errors, b.errors);
        EXPECT_EQ(a.end_time, b.end_time);
        EXPECT_EQ(0, std::memcmp(a.fx.rx_counts, b.fx.rx_counts, sizeof a.fx.rx_counts));
        for (int i = 0; i < a.n_rows; i++)
            EXPECT_EQ(a.rows[i].sim_sum, b.rows[i].sim_sum);
        fault_spec_t g = spec("loss=2e-4,dup=1e-3,reorder=1e-3,corrupt=5e-4,seed=12");
        latency_result_t c = run(P.get(name), &g, ops, 64, BACKEND_C, 50000000);
        EXPECT_NE(a.end_time, c.end_time) << "another seed, another run";
    }
}

// A million reads under every kind of fault: each ends exactly once, as a
// completion the initiator has checked is its own read's and brought back
// the bytes stored at the target (anything else stops the run), or as an
// error; none is left over.
TEST(FaultRun, AMillionReadsUnderFaultsEndEachRightOrInAnError)
{
    Paths P;
    const int64_t ops = testutil::short_run() ? 100000 : 1000000;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        fault_spec_t f = spec("loss=1e-5,dup=1e-4,reorder=1e-4,corrupt=1e-4,seed=3");
        latency_result_t r = run(P.get(name), &f, ops, 64, BACKEND_C, 20000000 /* 20 us */);
        EXPECT_EQ(r.completed + r.errors, ops) << name;
        EXPECT_GT(r.completed, 0) << name;
        EXPECT_EQ(r.bytes_checked, r.completed) << name << ": each with the bytes stored at the target";
        EXPECT_GT(r.fx.faults[FAULT_FWD].lost + r.fx.faults[FAULT_FWD].corrupted, 0u) << name;
        EXPECT_EQ(r.posted, ops) << name;
    }
}

// Chains running ahead and every part in time order (as with --wave) give
// the same run under faults, even with timeouts that fall while a read's
// packets are on their way.
TEST(FaultRun, RunningAheadAndInTimeOrderAgreeUnderFaults)
{
    Paths P;
    const char *specs[] = {"back.reorder=0.3,seed=2", "dup=0.3,reorder=0.2,corrupt=0.05,seed=4",
                           "loss=0.01,dup=0.05,seed=9"};
    for (const char *name : {"ub_async", "pcie_nic"}) {
        for (const char *text : specs) {
            for (int64_t timeout_ps : {(int64_t)1000000, (int64_t)2000000, (int64_t)50000000}) {
                fault_spec_t f = spec(text);
                latency_result_t r[2];
                for (int order = 0; order < 2; order++) {
                    latency_opts_t o{};
                    o.ops = 300;
                    o.slots = 8;
                    o.jetties = 8;
                    o.fault = &f;
                    o.timeout_ps = timeout_ps;
                    o.in_time_order = order;
                    char err[512];
                    ASSERT_EQ(latency_run(P.get(name), &o, &r[order], err, sizeof err), 0) << err;
                }
                std::string what = std::string(name) + " " + text + " timeout " +
                                   std::to_string(timeout_ps / 1000000) + " us";
                EXPECT_EQ(r[0].completed, r[1].completed) << what;
                EXPECT_EQ(r[0].errors, r[1].errors) << what;
                EXPECT_EQ(r[0].stale, r[1].stale) << what;
                EXPECT_EQ(r[0].end_time, r[1].end_time) << what;
                EXPECT_EQ(r[0].sent, r[1].sent) << what;
                EXPECT_EQ(r[0].executed, r[1].executed) << what;
                for (int i = 0; i < r[0].n_rows; i++)
                    EXPECT_EQ(r[0].rows[i].sim_sum, r[1].rows[i].sim_sum) << what << " " << r[0].rows[i].name;
                EXPECT_EQ(0, std::memcmp(r[0].fx.rx_counts, r[1].fx.rx_counts, sizeof r[0].fx.rx_counts))
                    << what;
                if (r[0].completed == 0) {
                    EXPECT_EQ(r[0].min, 0) << "no completed read: no min";
                    EXPECT_EQ(r[0].max, 0);
                }
            }
        }
    }
}

// Duplicates and reads that fail while their packets travel put more in
// the links than there are read slots: the channels hold them all.
TEST(FaultRun, ManyMorePacketsThanSlotsFitTheChannels)
{
    Paths P;
    fault_spec_t f = spec("fwd.dup=0.3,fwd.reorder=0.3,seed=1");
    latency_result_t r = run(P.get("ub_async"), &f, 200, 8);
    EXPECT_EQ(r.completed + r.errors, 200);
    fault_spec_t g = spec("loss=0");
    latency_result_t q = run(P.get("pcie_nic"), &g, 2000, 64, BACKEND_C, 1000000 /* 1 us */);
    EXPECT_EQ(q.completed + q.errors, 2000);
    EXPECT_GT(q.errors, 0) << "a 1 us timeout is shorter than a RoCE read";
    EXPECT_EQ(q.min, 0);
}

TEST(FaultCli, EveryCommandTakesFaultsAndPrintsTheirCounts)
{
    using testutil::run;
    using testutil::ubsim;
    std::string a, b, err;
    const std::string spec = " --fault loss=1e-3,dup=1e-3,reorder=1e-3,corrupt=1e-3,seed=7 --quiet";
    ASSERT_EQ(run(ubsim() + " latency --path ub_async --ops 3000" + spec, &a), 0) << a;
    EXPECT_NE(a.find("ended in an error"), std::string::npos) << a;
    EXPECT_NE(a.find("faults on the forward wire"), std::string::npos) << a;
    EXPECT_NE(a.find("receive checks at the target: ok"), std::string::npos) << a;
    ASSERT_EQ(run(ubsim() + " latency --path ub_async --ops 3000" + spec, &b), 0);
    EXPECT_EQ(a, b) << "the same seed gives byte-identical output";
    ASSERT_EQ(run(ubsim() + " latency --path pcie_nic --ops 500 --format json" + spec, &a), 0);
    EXPECT_NE(a.find("\"rx_checks\""), std::string::npos) << a;
    EXPECT_NE(a.find("\"late_completions\""), std::string::npos) << a;
    ASSERT_EQ(run(ubsim() + " latency --path pcie_nic --ops 500 --format csv" + spec, &a), 0);
    EXPECT_NE(a.find("rx_checks.target.psn_gap"), std::string::npos) << a;
    ASSERT_EQ(run(ubsim() + " rate --burst 500 --slots 16 --timeout-us 30" + spec, &a), 0) << a;
    EXPECT_NE(a.find("with faults:"), std::string::npos) << a;
    EXPECT_EQ(a.find("NOT CONSERVED"), std::string::npos) << a;
    ASSERT_EQ(run(ubsim() + " rate --burst 500 --slots 16 --format csv" + spec, &a), 0) << a;
    EXPECT_NE(a.find(",rx_target_ok,"), std::string::npos) << a;
    ASSERT_EQ(run(ubsim() + " rate --burst 500 --slots 16 --format json" + spec, &a), 0) << a;
    EXPECT_NE(a.find("\"faults\""), std::string::npos) << a;
    // without --fault nothing about faults is printed
    ASSERT_EQ(run(ubsim() + " latency --path ub_async --quiet", &a), 0);
    EXPECT_EQ(a.find("receive checks"), std::string::npos) << a;
    // bad options: exit 2 and what was expected
    EXPECT_EQ(run(ubsim() + " latency --fault loss=7", &err, true), 2);
    EXPECT_NE(err.find("--fault: loss=7: expected a probability"), std::string::npos) << err;
    EXPECT_EQ(run(ubsim() + " rate --fault drop=up:1", &err, true), 2);
    EXPECT_NE(err.find("DIR:K"), std::string::npos) << err;
    EXPECT_EQ(run(ubsim() + " latency --fault loss=0.1 --timeout-us 0", &err, true), 2);
    EXPECT_NE(err.find("--timeout-us"), std::string::npos) << err;
}

}  // namespace
