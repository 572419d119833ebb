// The latency scenario: every configured stage is measured at its configured
// value, the physical extras are explicit rows, and totals add up exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "config.h"
#include "latency.h"
}

#include "test_paths.h"
#include "test_util.h"

namespace {

using testutil::Paths;

latency_result_t run(const path_cfg_t *p, int64_t ops = 1, int step_all = 0,
                     backend_kind_t backend = BACKEND_C)
{
    latency_result_t r;
    latency_opts_t o{};
    o.ops = ops;
    o.step_every_cycle = step_all;
    o.backend = backend;
    char err[512];
    EXPECT_EQ(latency_run(p, &o, &r, err, sizeof err), 0) << err;
    return r;
}

tick_t derived_sum(const latency_result_t &r, category_t c)
{
    tick_t t = 0;
    for (int i = 0; i < r.n_rows; i++)
        if (r.rows[i].category == c)
            t += r.rows[i].sim_sum;
    return t;
}

const char *kPaths[] = {"pcie_nic", "ub_async", "ub_load", "pcie_nic_onproc"};

TEST(Latency, EveryConfiguredStageMeasuresItsConfiguredValue)
{
    Paths P;
    for (const char *name : kPaths) {
        const path_cfg_t *p = P.get(name);
        ASSERT_NE(p, nullptr) << name;
        latency_result_t r = run(p);
        int configured = 0;
        for (int i = 0; i < r.n_rows; i++) {
            if (r.rows[i].derived)
                continue;
            configured++;
            EXPECT_EQ(r.rows[i].sim_sum, r.rows[i].calc) << name << " " << r.rows[i].name;
        }
        EXPECT_EQ(configured, p->n_stages) << name;
    }
}

TEST(Latency, TotalIsTheSumOfTheRowsToTheTick)
{
    Paths P;
    for (const char *name : kPaths) {
        for (int64_t ops : {1, 7}) {
            latency_result_t r = run(P.get(name), ops);
            tick_t sum = 0;
            for (int i = 0; i < r.n_rows; i++)
                sum += r.rows[i].sim_sum;
            EXPECT_EQ(sum, r.sim_sum) << name;
            EXPECT_EQ(r.sim_sum - r.calc_total * ops,
                      derived_sum(r, CAT_ALIGNMENT) + derived_sum(r, CAT_SERIALISATION))
                << name;
        }
    }
}

TEST(Latency, CalculatedTotalsMatchTheSpecTable)
{
    // The configured rows (inputs) add up to the reference table's calculation;
    // this guards the shipped configs, not the simulator.
    Paths P;
    struct {
        const char *name;
        long rounded;
    } want[] = {{"pcie_nic", 2222}, {"ub_async", 746}, {"ub_load", 419}};
    for (auto &w : want) {
        latency_result_t r = run(P.get(w.name));
        EXPECT_EQ(std::lround(tb_to_ns(&r.tb, r.calc_total)), w.rounded) << w.name;
    }
}

TEST(Latency, ClockAlignmentIsBelowOneCyclePerCrossing)
{
    Paths P;
    for (const char *name : kPaths) {
        latency_result_t r = run(P.get(name), 50);
        for (int i = 0; i < r.n_rows; i++) {
            if (r.rows[i].category != CAT_ALIGNMENT)
                continue;
            // summed over 50 ops: each crossing waits less than one cycle
            EXPECT_LT(r.rows[i].sim_sum, 50 * r.tb.cycle) << name << " " << r.rows[i].name;
            EXPECT_GE(r.rows[i].sim_sum, 0);
        }
    }
}

TEST(Latency, SerialisationIsBytesOverWireRate)
{
    Paths P;
    latency_result_t r = run(P.get("ub_async"));
    const path_cfg_t *p = P.get("ub_async");
    for (int i = 0; i < r.n_rows; i++) {
        if (r.rows[i].category != CAT_SERIALISATION)
            continue;
        const stage_cfg_t &st = p->stages[r.rows[i].stage];
        double ns = (double)st.bytes / p->wire_gbytes_per_s;
        EXPECT_NEAR(tb_to_ns(&r.tb, r.rows[i].sim_sum), ns, 1e-6) << r.rows[i].name;
    }
}

TEST(Latency, PayloadOverrideResizesOnlyThePacketThatCarriesTheData)
{
    Paths P;
    const path_cfg_t *p = P.get("ub_async");
    latency_result_t r;
    latency_opts_t o{};
    o.ops = 1;
    o.payload = 4096;
    char err[512];
    ASSERT_EQ(latency_run(p, &o, &r, err, sizeof err), 0) << err;
    for (int i = 0; i < r.n_rows; i++) {
        if (r.rows[i].category != CAT_SERIALISATION)
            continue;
        const stage_cfg_t &st = p->stages[r.rows[i].stage];
        // the read request keeps its size; the response carries 4096 B of data
        int64_t bytes = st.payload_bytes ? st.bytes - st.payload_bytes + 4096 : st.bytes;
        EXPECT_NEAR(tb_to_ns(&r.tb, r.rows[i].sim_sum), (double)bytes / p->wire_gbytes_per_s, 1e-6)
            << r.rows[i].name;
    }
}

TEST(Latency, WireDelayMovesTotalsByTwiceTheChangeUpToAlignment)
{
    for (const char *name : kPaths) {
        for (int dl : {1, 37, 100, 900}) {
            Paths A, B({"wire.one_way_ns=" + std::to_string(100 + dl)});
            latency_result_t ra = run(A.get(name)), rb = run(B.get(name));
            tick_t moved = rb.sim_sum - ra.sim_sum;
            tick_t two_dl = tb_from_ps(&ra.tb, 2 * 1000 * (int64_t)dl);
            tick_t align_change = derived_sum(rb, CAT_ALIGNMENT) - derived_sum(ra, CAT_ALIGNMENT);
            // exactly 2·ΔL plus the change in clock alignment, which is reported
            EXPECT_EQ(moved, two_dl + align_change) << name << " dl=" << dl;
            EXPECT_LT(std::llabs(align_change), 4 * ra.tb.cycle);
        }
    }
}

TEST(Latency, SkippingIdleCyclesGivesTheSameResultsAsSteppingEveryCycle)
{
    Paths P;
    for (const char *name : kPaths) {
        latency_result_t a = run(P.get(name), 25, 0), b = run(P.get(name), 25, 1);
        ASSERT_EQ(a.n_rows, b.n_rows);
        for (int i = 0; i < a.n_rows; i++)
            EXPECT_EQ(a.rows[i].sim_sum, b.rows[i].sim_sum) << name << " " << a.rows[i].name;
        EXPECT_EQ(a.sim_sum, b.sim_sum);
        EXPECT_EQ(a.p50, b.p50);
        EXPECT_EQ(a.p99, b.p99);
        EXPECT_EQ(a.end_time, b.end_time);
        EXPECT_LT(a.edges_stepped, b.edges_stepped) << "skipping should simulate fewer edges";
        EXPECT_EQ(b.edges_stepped, b.edges_spanned);
    }
}

// Chains running ahead (and bare NIC pipelines inside them) against every
// part waiting for its own times: the same breakdown, totals, departures and
// end, for dependent reads and for bursts that queue at the links and NICs.
TEST(Latency, ChainsRunningAheadGiveTheSameResultsAsPartsInTimeOrder)
{
    Paths P;
    for (const char *name : kPaths) {
        for (int64_t slots : {1, 3, 64}) {
            for (backend_kind_t be : {BACKEND_C, BACKEND_LOCKSTEP}) {
                latency_result_t r[2];
                for (int order = 0; order < 2; order++) {
                    latency_opts_t o{};
                    o.ops = 300;
                    o.slots = slots;
                    o.jetties = 8;
                    o.backend = be;
                    o.in_time_order = order;
                    char err[512];
                    ASSERT_EQ(latency_run(P.get(name), &o, &r[order], err, sizeof err), 0) << err;
                }
                const latency_result_t &a = r[0], &b = r[1];
                std::string what = std::string(name) + " slots " + std::to_string(slots) +
                                   (be == BACKEND_C ? " c" : " lockstep");
                ASSERT_EQ(a.n_rows, b.n_rows);
                for (int i = 0; i < a.n_rows; i++)
                    EXPECT_EQ(a.rows[i].sim_sum, b.rows[i].sim_sum) << what << " " << a.rows[i].name;
                EXPECT_EQ(a.sim_sum, b.sim_sum) << what;
                EXPECT_EQ(a.p50, b.p50) << what;
                EXPECT_EQ(a.p99, b.p99) << what;
                EXPECT_EQ(a.end_time, b.end_time) << what;
                EXPECT_EQ(a.first_at_nic, b.first_at_nic) << what;
                EXPECT_EQ(a.last_sent_at, b.last_sent_at) << what;
                EXPECT_EQ(a.last_executed_at, b.last_executed_at) << what;
                EXPECT_EQ(0, std::memcmp(a.dep_hist, b.dep_hist, sizeof a.dep_hist)) << what;
                EXPECT_EQ(a.completed, 300) << what;
                EXPECT_EQ(b.completed, 300) << what;
            }
        }
    }
}

// A read of several MTUs comes back in MTU-sized packets (UB and RoCE):
// each is checked on arrival, the read completes with all its bytes, and it
// takes longer than as one packet by at least the extra headers'
// serialisation.
TEST(Latency, ALargeReadIsSplitIntoMtuPackets)
{
    for (backend_kind_t be : {BACKEND_C, BACKEND_RTL, BACKEND_LOCKSTEP})
    for (const char *name : {"ub_async", "pcie_nic"}) {
        SCOPED_TRACE(name);
        Paths P, Big({"nic.mtu_bytes=65536"});
        char err[512];
        const path_cfg_t *p = P.get(name), *one = Big.get(name);
        latency_opts_t o{};
        o.ops = 50;
        o.slots = 1;
        o.payload = 65536;
        o.backend = be;
        latency_result_t r, r1;
        ASSERT_EQ(latency_run(p, &o, &r, err, sizeof err), 0) << err;
        ASSERT_EQ(latency_run(one, &o, &r1, err, sizeof err), 0) << err;
        int64_t packets = 65536 / p->mtu_bytes;
        EXPECT_EQ(r.fx.rx_counts[0][RX_OK], (uint64_t)(50 * packets)) << backend_name(be);
        EXPECT_EQ(r1.fx.rx_counts[0][RX_OK], 50u);
        EXPECT_EQ(r.bytes_checked, 50);
        EXPECT_EQ(r.lockstep_mismatches, 0u);
        // the response's header, once per extra packet, at the wire's rate
        double hdr = 0;
        for (int i = 0; i < p->n_stages; i++)
            if (p->stages[i].kind == STAGE_WIRE && p->stages[i].payload_bytes > 0)
                hdr = (double)(p->stages[i].bytes - p->stages[i].payload_bytes);
        double extra = (double)(packets - 1) * hdr / p->wire_gbytes_per_s;
        EXPECT_GE(lat_sim_total_ns(&r), lat_sim_total_ns(&r1) + extra - 1e-6);
        // the packets' serialisation is the serialisation row's, not the
        // sending NIC's: every NIC row takes its configured time, and the
        // response's serialisation row holds all its bytes at the wire's rate
        for (int i = 0; i < r.n_rows; i++) {
            const lat_row_t *row = &r.rows[i];
            const stage_cfg_t *st = &p->stages[row->stage];
            if (!row->derived && st->kind == STAGE_NIC) {
                EXPECT_NEAR(lat_row_sim_ns(&r, i), tb_to_ns(&r.tb, row->calc), 1e-6) << row->name;
            }
            if (row->derived && row->category == CAT_SERIALISATION && st->payload_bytes > 0) {
                double bytes = hdr * (double)packets + 65536.0;
                EXPECT_GE(lat_row_sim_ns(&r, i), bytes / p->wire_gbytes_per_s - 1e-6) << row->name;
                EXPECT_NE(std::string(row->label).find("in 16 packets"), std::string::npos)
                    << row->label;
            }
        }
    }
}

// Every packet the send pipelines emit passes the receive checks at the
// other end: the requests at the target, the responses at the initiator,
// whatever the payload (a RoCE READ of several MTUs uses several PSNs).
TEST(Latency, EveryPacketPassesTheReceiveChecks)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        for (int64_t payload : {64, 9000}) {
            for (backend_kind_t be : {BACKEND_C, BACKEND_RTL}) {
                latency_opts_t o{};
                o.ops = 400;
                o.slots = 16;
                o.jetties = 8;
                o.payload = payload;
                o.backend = be;
                latency_result_t r;
                char err[512];
                ASSERT_EQ(latency_run(P.get(name), &o, &r, err, sizeof err), 0) << err;
                EXPECT_EQ(r.bytes_checked, 400) << name << ": every read's bytes, compared";
                for (int node = 0; node < 2; node++) {
                    ASSERT_TRUE(r.fx.rx_checked[node]) << name;
                    // responses come in MTU-sized packets, each checked
                    const path_cfg_t *p = P.get(name);
                    uint64_t packets =
                        node == 0 ? (uint64_t)((payload + p->mtu_bytes - 1) / p->mtu_bytes) : 1;
                    EXPECT_EQ(r.fx.rx_counts[node][RX_OK], 400u * packets) << name << " node " << node;
                    uint64_t bad = 0;
                    for (int k = 1; k < RX_N_REASONS; k++)
                        bad += r.fx.rx_counts[node][k];
                    EXPECT_EQ(bad, 0u) << name << " node " << node << " payload " << payload;
                }
            }
        }
    }
    latency_result_t r = run(P.get("ub_load"), 3);
    EXPECT_FALSE(r.fx.rx_checked[0]) << "a path without send pipelines has no header fields to check";
}

TEST(Latency, SendPipelineBlocksGiveTheSameBreakdownOnEveryBackend)
{
    // ub_async's transmit pipelines end in the UB send pipeline block and the
    // PCIe NIC's in the RC send pipeline block: C model, RTL and lockstep
    // must give the same breakdown, with 25 and 9 cycles per traversal.
    Paths P;
    struct {
        const char *name;
        nic_block_t block;
        int cycles;
    } want[] = {{"ub_async", NIC_BLOCK_UB_SEND, 25}, {"pcie_nic", NIC_BLOCK_RC_SEND, 9}};
    for (auto &w : want) {
        const path_cfg_t *p = P.get(w.name);
        ASSERT_EQ(p->tx_block, w.block) << w.name;
        latency_result_t c = run(p, 40, 0, BACKEND_C);
        for (backend_kind_t b : {BACKEND_RTL, BACKEND_LOCKSTEP}) {
            latency_result_t r = run(p, 40, 0, b);
            EXPECT_EQ(r.lockstep_mismatches, 0u);
            ASSERT_EQ(r.n_rows, c.n_rows);
            for (int i = 0; i < r.n_rows; i++)
                EXPECT_EQ(r.rows[i].sim_sum, c.rows[i].sim_sum) << w.name << " " << r.rows[i].name;
            EXPECT_EQ(r.sim_sum, c.sim_sum);
        }
        for (int i = 0; i < c.n_rows; i++) {
            const stage_cfg_t &st = p->stages[c.rows[i].stage];
            if (c.rows[i].derived || st.kind != STAGE_NIC || st.pipe != PIPE_TX)
                continue;
            EXPECT_EQ(c.rows[i].sim_sum, 40 * w.cycles * c.tb.cycle) << w.name;
        }
    }
}

TEST(Latency, ZeroDelayHandOffsCostNothingHidden)
{
    // with the target's memory stages at 0 ns, the receive pipeline hands the
    // request straight to the transmit pipeline at a clock edge: no
    // alignment, and no cycle hidden in the NIC rows
    Paths P({"stage.dram.delay_ns=0", "stage.bus_target_mem.delay_ns=0"});
    for (const char *name : {"ub_async", "ub_load"}) {
        latency_result_t r = run(P.get(name), 5);
        for (int i = 0; i < r.n_rows; i++) {
            if (!r.rows[i].derived) {
                EXPECT_EQ(r.rows[i].sim_sum, 5 * r.rows[i].calc) << name << " " << r.rows[i].name;
            }
        }
        EXPECT_EQ(r.sim_sum - 5 * r.calc_total,
                  derived_sum(r, CAT_ALIGNMENT) + derived_sum(r, CAT_SERIALISATION));
    }
}

TEST(Latency, DependentOpsStartWhenThePreviousCompletes)
{
    Paths P;
    latency_result_t r = run(P.get("ub_load"), 100);
    EXPECT_EQ(r.end_time, r.sim_sum);  // back to back, no gaps
    EXPECT_LE(r.min, r.p50);
    EXPECT_LE(r.p50, r.p99);
    EXPECT_LE(r.p99, r.max);
    // the phase of the clock moves from op to op, so alignment varies
    EXPECT_LT(r.max - r.min, 4 * r.tb.cycle);
}

// ---- the ubsim command line ------------------------------------------------

TEST(LatencyCli, SameConfigGivesByteIdenticalOutput)
{
    for (const char *fmt : {"table", "csv", "json"}) {
        std::string a, b;
        std::string cmd = testutil::ubsim() + " latency --ops 20 --seed 7 --format " + fmt;
        ASSERT_EQ(testutil::run(cmd, &a), 0);
        ASSERT_EQ(testutil::run(cmd, &b), 0);
        EXPECT_EQ(a, b) << fmt;
        EXPECT_GT(a.size(), 100u);
    }
}

// Every path is a simulation of its own, run side by side (--jobs): the
// report is the same, byte for byte, on one thread and on several.
TEST(LatencyCli, PathsSideBySideReportWhatOneAfterTheOtherDoes)
{
    for (const char *args : {"--ops 300 --format json", "--ops 300 --format csv",
                             "--ops 40 --backend lockstep", "--ops 40 --backend rtl --engine nodes",
                             "--ops 200 --transport on --fault loss=1e-2,seed=5 --format json"})
        EXPECT_EQ(testutil::same_output(testutil::ubsim() + " latency --quiet " + args,
                                        {"--jobs 1", "--jobs 2", "--jobs=4"}),
                  "")
            << args;
}

TEST(LatencyCli, JsonHasTheDocumentedShape)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --format json", &out), 0);
    for (const char *k : {"\"paths\"", "\"name\":\t\"pcie_nic\"", "\"name\":\t\"ub_async\"",
                          "\"name\":\t\"ub_load\"", "\"name\":\t\"pcie_nic_onproc\"",
                          "\"calc_ns\":\t2221.8", "\"sim_ns\"", "\"stages\"", "\"category\""})
        EXPECT_NE(out.find(k), std::string::npos) << k;
}

struct BadCase {
    const char *what;
    std::string ini;
    const char *expect;  // substring of the message
    int line;            // expected line, 0 = do not check
};

TEST(LatencyCli, BadConfigsFailWithFileLineAndWhatWasExpected)
{
    const std::string head = "[path]\nname = t\n[clock]\nnic_mhz = 322\n[wire]\none_way_ns = 100\n"
                             "gbytes_per_s = 50\n";  // 7 lines
    BadCase cases[] = {
        {"unknown key", head + "[stage.a]\ncategory = software\ndelay_nz = 5\n", "unknown key 'delay_nz'", 10},
        {"unknown section", head + "[stges.a]\ndelay_ns = 5\n", "unknown section [stges.a]", 8},
        {"empty unknown section", head + "[bogus]\n[stage.a]\ncategory = software\ndelay_ns = 1\n",
         "unknown section [bogus]", 8},
        {"empty stage name", head + "[stage.]\n", "unknown section [stage.]", 8},
        {"long line", head + "[stage.a]\ncategory = software\nlabel = " + std::string(300, 'x') +
                          "\ndelay_ns = -1\n", "line longer than", 10},
        {"line after a long comment", head + "; " + std::string(300, '-') + "\n[stage.a]\n"
                                      "category = software\ndelay_ns = -1\n", "line longer than", 8},
        {"tiny wire rate", "[path]\nname = t\n[wire]\ngbytes_per_s = 1e-300\n",
         "expected a rate of 0.001..1000000 GB/s", 4},
        {"wrong type", head + "[stage.a]\ncategory = software\ndelay_ns = fast\n", "expected a number of ns", 10},
        {"negative delay", head + "[stage.a]\ncategory = software\ndelay_ns = -3\n", "expected a delay >= 0", 10},
        {"bad category", head + "[stage.a]\ncategory = sofware\ndelay_ns = 3\n", "expected one of software", 9},
        {"no kind", head + "[stage.a]\ncategory = software\n", "expected one of delay_ns, nic, wire", 8},
        {"two kinds", head + "[stage.a]\ncategory = software\ndelay_ns = 1\nwire = back\nbytes = 3\n",
         "expected exactly one of delay_ns, nic, wire, but another is given here", 11},
        {"bad clock", "[path]\nname = t\n[clock]\nnic_mhz = 3.5\n", "expected a whole number of MHz", 4},
        {"no path first", "[clock]\nnic_mhz = 322\n", "expected '[path]'", 2},
        {"syntax", head + "this is not ini\n", "expected '[section]'", 8},
        {"bad nic stages", head + "[nic]\ntx_stages = a:1 b\n", "tx_stages", 9},
        {"nic without pipe", head + "[stage.a]\ncategory = nic\nnic = initiator.tx\n", "expected [nic] tx_stages", 8},
    };
    for (auto &c : cases) {
        std::string f = testutil::temp_file(c.ini);
        std::string out;
        int rc = testutil::run(testutil::ubsim() + " latency --config " + f, &out, true);
        EXPECT_EQ(rc, 2) << c.what << ": " << out;
        EXPECT_NE(out.find(c.expect), std::string::npos) << c.what << ": " << out;
        if (c.line) {
            std::string loc = f + ":" + std::to_string(c.line) + ":";
            EXPECT_NE(out.find(loc), std::string::npos) << c.what << ": wanted " << loc << " in " << out;
        }
        std::remove(f.c_str());
    }
}

TEST(LatencyCli, AConflictInALaterFileIsReportedThere)
{
    std::string over = testutil::temp_file("[path]\nname = ub_load\n\n[stage.dram]\nnic = target.tx\n");
    std::string out;
    int rc = testutil::run(testutil::ubsim() + " latency --config " + std::string(UBSIM_CONFIG_DIR) +
                               "/ub_load.ini --config " + over,
                           &out, true);
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find(over + ":5: path 'ub_load': [stage.dram]: expected exactly one"),
              std::string::npos)
        << out;
    std::remove(over.c_str());
}

TEST(LatencyCli, BadCommandLinesFailClearly)
{
    struct {
        const char *args;
        const char *expect;
    } cases[] = {
        {"--config /nonexistent/x.ini", "cannot open config '/nonexistent/x.ini'"},
        {"--path nosuch", "unknown path 'nosuch' (loaded: pcie_nic, ub_async, ub_load, pcie_nic_onproc)"},
        {"--ops 0", "--ops: expected a whole number from 1 to 9223372036854775807"},
        {"--ops", "--ops: expected a value"},
        {"--format xml", "--format: expected table, csv or json"},
        {"--set wire.one_way_ns=-1", "--set #1:1: [wire] one_way_ns: expected a delay >= 0"},
        {"--set nosuch.key=1", "unknown section [nosuch]"},
        {"--set stage.nosuch.delay_ns=1", "no loaded path has a section [stage.nosuch]"},
        {"--link-ns abc", "--link-ns:1: [wire] one_way_ns: expected a number of ns"},
        {"--wave /tmp/x.txt", "expected a .fst or .vcd"},
        {"--bogus", "unknown option '--bogus'"},
        {"--jobs 65", "--jobs: expected a whole number 1..64, got '65'"},
    };
    for (auto &c : cases) {
        std::string out;
        int rc = testutil::run(testutil::ubsim() + " latency " + c.args, &out, true);
        EXPECT_EQ(rc, 2) << c.args << ": " << out;
        EXPECT_NE(out.find(c.expect), std::string::npos) << c.args << ": " << out;
    }
}

TEST(LatencyCli, OverridesApply)
{
    std::string a, b;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --path ub_load --format csv --link-ns 250", &a), 0);
    ASSERT_EQ(testutil::run(testutil::ubsim() +
                                " latency --path ub_load --format csv --set wire.one_way_ns=250",
                            &b),
              0);
    EXPECT_EQ(a, b);
    EXPECT_NE(a.find("wire_forward,\"wire, forward\",wire,0,250.000000,250.000000"), std::string::npos) << a;
}

TEST(LatencyCli, HelpIsComplete)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --help", &out), 0);
    for (const char *o : {"--config", "--path", "--set", "--link-ns", "--ops", "--format", "--wave",
                          "--step-all", "--seed", "--progress", "--quiet", "--jobs"})
        EXPECT_NE(out.find(o), std::string::npos) << o;
}

TEST(LatencyCli, TheRtlTracesItselfNextToTheWaveform)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() +
                                " latency --path ub_async --backend rtl --wave /tmp/ubsim_lat_rtl.vcd",
                            &out),
              0);
    FILE *f = std::fopen("/tmp/ubsim_lat_rtl-ub_async-rtl.fst", "rb");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    std::remove("/tmp/ubsim_lat_rtl-ub_async-rtl.fst");
    std::remove("/tmp/ubsim_lat_rtl.vcd");
}

TEST(LatencyCli, WaveformsAreWritten)
{
    for (const char *ext : {".fst", ".vcd"}) {
        std::string path = std::string("/tmp/ubsim_lat_wave") + ext, out;
        ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --path ub_async --wave " + path, &out), 0);
        FILE *f = std::fopen(path.c_str(), "rb");
        ASSERT_NE(f, nullptr) << path;
        std::fseek(f, 0, SEEK_END);
        EXPECT_GT(std::ftell(f), 200) << path;
        std::fclose(f);
        std::remove(path.c_str());
    }
}

}  // namespace

namespace {

TEST(LatencyCli, LongDelaysAreNotMistakenForLostRequests)
{
    // single delays far longer than any NIC pipeline: the engine must wait
    // for them, not give up on the requests inside
    for (const char *args : {"latency --link-ns 40000", "latency --path ub_load --set stage.dram.delay_ns=31100",
                             "rate --link-ns 40000 --burst 16 --stack ub", "latency --link-ns 1000000 --ops 3"}) {
        std::string out;
        int rc = testutil::run(testutil::ubsim() + " " + args + " --quiet", &out, true);
        EXPECT_EQ(rc, 0) << args << "\n" << out;
        EXPECT_EQ(out.find("lost"), std::string::npos) << args << "\n" << out;
    }
    // and the delay is in the figures: 1 ms of wire each way
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --path ub_load --link-ns 1000000 --format csv", &out), 0);
    EXPECT_NE(out.find("wire_forward,\"wire, forward\",wire,0,1000000.000000,1000000.000000"),
              std::string::npos)
        << out;
}

}  // namespace
