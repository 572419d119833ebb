// The NICs' transport in the read paths (--transport, sim/net/tp_port.c):
// each node's transport block numbers the packets it sends, keeps them until
// the peer acknowledges them and resends what is lost; the receiver delivers
// in order, once, and acknowledges on its own link back, where
// acknowledgements share the wire with its packets and meet the faults too. Without it a lost packet ends its
// read in an error and breaks the sequence for every read behind it.
#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "test_paths.h"
#include "test_util.h"

extern "C" {
#include "cli.h"
#include "latency.h"
}

namespace {

using testutil::Paths;

struct Sim {
    latency_result_t r;
    int rc;
};

tp_cfg_t cfg_of(const path_cfg_t *p, int mode = CLI_TP_ON, long long rto_ns = 0)
{
    cli_tp_opts_t t{};
    t.mode = mode;
    t.rto_ns = rto_ns;
    tp_cfg_t c{};
    EXPECT_NE(cli_transport_cfg(&t, p, &c), nullptr);
    return c;
}

Sim run(const path_cfg_t *p, const tp_cfg_t *tp, const char *faults, int64_t ops, int64_t slots,
        backend_kind_t be = BACKEND_C)
{
    static fault_spec_t f;
    if (faults)
        f = testutil::fault_spec(faults);
    latency_opts_t o{};
    o.ops = ops;
    o.slots = slots;
    o.jetties = 8;
    o.seed = 3;
    o.backend = be;
    o.fault = faults ? &f : nullptr;
    o.transport = tp;
    Sim x;
    char err[512];
    x.rc = latency_run(p, &o, &x.r, err, sizeof err);
    EXPECT_EQ(x.rc, 0) << p->name << ": " << err;
    return x;
}

int row(const latency_result_t &r, const std::string &name)
{
    for (int i = 0; i < r.n_rows; i++)
        if (name == r.rows[i].name)
            return i;
    return -1;
}

const char *const kPaths[] = {"ub_async", "pcie_nic"};

}  // namespace

// On a link that loses nothing, the transport only passes each packet on:
// two edges through each end, no resend, an acknowledgement per delivery.
TEST(TransportInPath, ALosslessLinkCostsOnlyTheTransportsOwnEdges)
{
    Paths P;
    for (const char *name : kPaths) {
        const path_cfg_t *p = P.get(name);
        tp_cfg_t c = cfg_of(p);
        Sim with = run(p, &c, nullptr, 50, 1), without = run(p, nullptr, nullptr, 50, 1);
        const latency_result_t &r = with.r;
        EXPECT_TRUE(r.tp_on);
        EXPECT_FALSE(without.r.tp_on);
        EXPECT_EQ(r.completed, 50);
        EXPECT_EQ(r.tp.resent, 0u) << name;
        EXPECT_EQ(r.tp.timeouts, 0u) << name;
        EXPECT_EQ(r.tp.delivered, 100u) << name; // a request and a response per read
        EXPECT_EQ(r.tp.sent, 100u) << name;
        // every acknowledgement crossed as its bytes and decoded
        EXPECT_EQ(r.tp.acks_taken, r.tp.acks_sent) << name;
        EXPECT_EQ(r.tp.acks_malformed, 0u) << name;
        int tx = row(r, "transport.tx.wire_forward"), rx = row(r, "transport.rx.wire_forward");
        ASSERT_GE(tx, 0) << name;
        ASSERT_GE(rx, 0) << name;
        EXPECT_EQ(row(without.r, "transport.tx.wire_forward"), -1);
        // into its send queue at one edge, out of its packet register at the next
        EXPECT_EQ(r.rows[tx].sim_sum, 50 * 2 * r.tb.cycle) << name;
        EXPECT_GE(r.rows[rx].sim_sum, 50 * 2 * r.tb.cycle) << name;
        EXPECT_GT(r.sim_sum, without.r.sim_sum) << name;
        // every row of the configured table measures what it did without it
        for (int i = 0; i < r.n_rows; i++) {
            if (r.rows[i].derived)
                continue;
            int j = row(without.r, r.rows[i].name);
            ASSERT_GE(j, 0);
            EXPECT_EQ(r.rows[i].sim_sum, without.r.rows[j].sim_sum) << name << " " << r.rows[i].name;
        }
    }
}

// The point of it: under loss in both directions every read completes with
// the right bytes, where without it a loss ends that read and the reads
// behind it in errors.
TEST(TransportInPath, EveryReadCompletesUnderLossInBothDirections)
{
    Paths P;
    for (const char *name : kPaths) {
        const path_cfg_t *p = P.get(name);
        tp_cfg_t c = cfg_of(p, CLI_TP_ON, 3000);
        Sim with = run(p, &c, "loss=2e-2,seed=11", 400, 4);
        Sim without = run(p, nullptr, "loss=2e-2,seed=11", 400, 4);
        EXPECT_GT(without.r.errors, 0) << name;
        const latency_result_t &r = with.r;
        EXPECT_EQ(r.completed, 400) << name;
        EXPECT_EQ(r.errors, 0) << name;
        EXPECT_EQ(r.bytes_checked, r.completed) << name; // each read's bytes equal the target's
        EXPECT_GT(r.fx.faults[FAULT_FWD].lost + r.fx.faults[FAULT_BACK].lost, 0u) << name;
        EXPECT_GT(r.tp.resent, 0u) << name;
        EXPECT_GT(r.tp.acks_sent, r.tp.acks_taken) << name; // acknowledgements were lost too
        EXPECT_EQ(r.tp.acks_malformed, 0u) << name;
        EXPECT_EQ(r.tp.delivered, 800u) << name; // each packet exactly once
        EXPECT_EQ(r.fx.rx_counts[0][RX_PSN_GAP] + r.fx.rx_counts[1][RX_PSN_GAP], 0u) << name;
        EXPECT_FALSE(r.tp.failed);
        EXPECT_GT(r.p99, r.p50) << name; // the reads that waited for a resend
    }
}

// Duplicates, reordering and corruption too, with acknowledgements lost:
// the C model, the RTL and both in lockstep give the same run.
TEST(TransportInPath, CAndRtlAndLockstepGiveTheSameRun)
{
    Paths P;
    const char *mix = "loss=1e-2,dup=1e-2,reorder=1e-2,corrupt=1e-2,seed=5";
    for (const char *name : kPaths) {
        const path_cfg_t *p = P.get(name);
        tp_cfg_t c = cfg_of(p, CLI_TP_ON, 3000);
        Sim a = run(p, &c, mix, 200, 8), b = run(p, &c, mix, 200, 8, BACKEND_RTL),
            l = run(p, &c, mix, 200, 8, BACKEND_LOCKSTEP);
        EXPECT_EQ(a.r.completed, 200) << name;
        EXPECT_GT(a.r.tp.resent, 0u) << name;
        EXPECT_GT(a.r.tp.duplicates, 0u) << name;
        EXPECT_GT(a.r.tp.corrupt, 0u) << name;
        EXPECT_EQ(a.r.sim_sum, b.r.sim_sum) << name;
        EXPECT_EQ(a.r.sim_sum, l.r.sim_sum) << name;
        EXPECT_EQ(a.r.tp.resent, b.r.tp.resent) << name;
        EXPECT_EQ(a.r.tp.acks_sent, l.r.tp.acks_sent) << name;
        EXPECT_EQ(l.r.lockstep_mismatches, 0u) << name;
        // and stepping every cycle
        latency_opts_t o{};
        static fault_spec_t f = testutil::fault_spec(mix);
        o.ops = 200;
        o.slots = 8;
        o.jetties = 8;
        o.seed = 3;
        o.fault = &f;
        o.transport = &c;
        o.step_every_cycle = 1;
        latency_result_t every;
        char err[512];
        ASSERT_EQ(latency_run(p, &o, &every, err, sizeof err), 0) << err;
        EXPECT_EQ(a.r.sim_sum, every.sim_sum) << name;
    }
}

// One packet of a flight lost: selective ack resends it alone, go-back-N it
// and every packet sent after it.
TEST(TransportInPath, GoBackNResendsTheFlightSelectiveAckThePacket)
{
    Paths P;
    const path_cfg_t *p = P.get("ub_async");
    tp_cfg_t sack = cfg_of(p, CLI_TP_SACK, 3000), gbn = cfg_of(p, CLI_TP_GBN, 3000);
    Sim s = run(p, &sack, "drop=fwd:3", 64, 32), g = run(p, &gbn, "drop=fwd:3", 64, 32);
    EXPECT_EQ(s.r.completed, 64);
    EXPECT_EQ(g.r.completed, 64);
    EXPECT_EQ(s.r.tp.resent, 1u);
    EXPECT_GT(g.r.tp.resent, 5u);
    EXPECT_GT(g.r.tp.gaps, 0u);          // the receiver refused what came after the hole
    EXPECT_GT(s.r.tp.held_peak, 1);      // selective ack held it instead
}

// A lost packet and a fixed timeout: the read waits exactly until the
// resend, whose timer started when the packet first left.
TEST(TransportInPath, ALostRequestWaitsForItsTimeout)
{
    Paths P;
    const path_cfg_t *p = P.get("ub_async");
    tp_cfg_t c = cfg_of(p, CLI_TP_ON, 5000);
    c.backoff = 0;
    Sim lost = run(p, &c, "drop=fwd:1", 1, 1), clean = run(p, &c, nullptr, 1, 1);
    EXPECT_EQ(lost.r.completed, 1);
    EXPECT_EQ(lost.r.tp.resent, 1u);
    EXPECT_EQ(lost.r.tp.timeouts, 1u);
    double d_ns = (double)(lost.r.sim_sum - clean.r.sim_sum) / (double)lost.r.tb.cycle * 1000.0 /
                  (double)p->nic_mhz;
    // the timeout in whole NIC cycles, give or take the edges around it
    EXPECT_NEAR(d_ns, 5000.0, 4 * 1000.0 / (double)p->nic_mhz);
}

TEST(TransportInPath, BadUseIsReported)
{
    std::string out;
    const std::string u = testutil::ubsim() + " latency --path ub_async ";
    EXPECT_EQ(testutil::run(u + "--transport maybe", &out, true), 2);
    EXPECT_NE(out.find("expected off, on, sack or gbn"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + "--rto-ns 100", &out, true), 2);
    EXPECT_NE(out.find("--rto-ns"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + "--transport on --rto-ns 0", &out, true), 2);
    // selective ack on RoCE: its acknowledgements have no room for a bitmap
    for (const char *cmd : {" latency --path pcie_nic --transport sack", " rate --transport sack",
                            " rate --stack roce --transport sack"}) {
        EXPECT_EQ(testutil::run(testutil::ubsim() + cmd, &out, true), 2) << cmd;
        EXPECT_NE(out.find("--transport sack: path 'pcie_nic': selective ack needs UB's TPSACK"),
                  std::string::npos)
            << out;
    }
    EXPECT_EQ(testutil::run(testutil::ubsim() + " rate --quiet --stack ub --burst 16 --transport sack",
                            &out, true),
              0)
        << out;
    EXPECT_EQ(testutil::run(std::string(UBSIM_BUILD_DIR) + "/verbs_example pcie_nic --transport sack",
                            &out, true),
              2);
    EXPECT_NE(out.find("selective ack needs UB's TPSACK"), std::string::npos) << out;
    // a path with no send pipeline runs without one, and says so
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --path ub_load --transport on", &out, true), 0);
    EXPECT_NE(out.find("runs without a transport"), std::string::npos) << out;
    // the counts and the rows in every format
    EXPECT_EQ(testutil::run(u + "--transport on --ops 20 --fault loss=5e-2,seed=2 --format json", &out), 0);
    EXPECT_NE(out.find("\"transport\":"), std::string::npos) << out;
    EXPECT_NE(out.find("\"transport.rx.wire_back\""), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + "--transport on --ops 20 --fault loss=5e-2,seed=2 --format csv", &out), 0);
    EXPECT_NE(out.find("transport.resent"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + "--transport on --ops 20 --fault loss=5e-2,seed=2", &out), 0);
    EXPECT_NE(out.find("transport (selective ack):"), std::string::npos) << out;
    EXPECT_NE(out.find("+ transport"), std::string::npos) << out;
}

// A burst through both stacks at 1% loss: every read completes; go-back-N
// resends far more than selective ack for the same losses.
TEST(TransportInPath, TheRateScenarioRecoversOnBothStacks)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " rate --burst 1000 --slots 64 --transport on "
                                                "--rto-ns 3000 --fault loss=1e-2,seed=4 --format json",
                            &out),
              0);
    auto num_after = [&](size_t from, const std::string &key) {
        size_t k = out.find("\"" + key + "\":", from);
        EXPECT_NE(k, std::string::npos) << key;
        return k == std::string::npos ? -1.0 : std::stod(out.substr(k + key.size() + 3));
    };
    size_t ub = out.find("\"name\":\t\"ub\""), roce = out.find("\"name\":\t\"roce\"");
    ASSERT_NE(ub, std::string::npos) << out;
    ASSERT_NE(roce, std::string::npos) << out;
    EXPECT_EQ(num_after(ub, "completed"), 1000);
    EXPECT_EQ(num_after(roce, "completed"), 1000);
    double ub_resent = num_after(out.find("\"transport\":", ub), "resent");
    double roce_resent = num_after(out.find("\"transport\":", roce), "resent");
    EXPECT_GT(ub_resent, 0);
    EXPECT_GT(roce_resent, 3 * ub_resent);
    EXPECT_NE(out.find("\"scheme\":\t\"gbn\""), std::string::npos);
}

// Reads larger than the MTU: RoCE's read request takes a PSN per response
// packet, UB's requests one each; the transport numbers packets on its own
// and the receive checks still see the NICs' numbers. Without faults, with
// a timeout shorter than a window on the wire, and when a channel gives up.
TEST(TransportInPath, LargeReadsShortTimeoutsAndAFailedChannel)
{
    std::string out;
    const std::string r = testutil::ubsim() + " rate --format json --transport on ";
    auto completed = [&](const std::string &s) {
        size_t k = s.find("\"completed\":");
        return k == std::string::npos ? -1.0 : std::stod(s.substr(k + 12));
    };
    ASSERT_EQ(testutil::run(r + "--stack roce --burst 50 --payload 4097 --fault loss=0,seed=1", &out), 0);
    EXPECT_EQ(completed(out), 50) << out;
    ASSERT_EQ(testutil::run(r + "--stack roce --burst 8 --payload 20000", &out), 0) << out;
    EXPECT_EQ(completed(out), 8) << out;
    ASSERT_EQ(testutil::run(r + "--stack ub --burst 200 --slots 64 --payload 20000", &out), 0) << out;
    EXPECT_EQ(completed(out), 200) << out;
    // 64 packets of 4 KiB take longer on the wire than the timeout: the
    // transport still sends no faster than the link takes them
    ASSERT_EQ(testutil::run(r + "--stack ub --burst 500 --slots 64 --payload 20000 --rto-ns 2000 "
                                "--fault loss=5e-2,dup=2e-2,reorder=2e-2,corrupt=2e-2,seed=9",
                            &out),
              0);
    EXPECT_EQ(completed(out), 500) << out;
    // 90% loss and a short timeout: the channel reaches its retry limit, the
    // reads end in errors, nothing is left hanging
    ASSERT_EQ(testutil::run(r + "--stack ub --burst 3000 --rto-ns 50 --fault loss=0.9,seed=3 "
                                "--timeout-us 100",
                            &out, true),
              0)
        << out;
    EXPECT_NE(out.find("\"failed\":\ttrue"), std::string::npos) << out;
    size_t e = out.find("\"errors\":");
    ASSERT_NE(e, std::string::npos) << out;
    EXPECT_GT(std::stod(out.substr(e + 9)), 2900) << out;
    EXPECT_GE(completed(out) + std::stod(out.substr(e + 9)), 3000) << out;
}

// Every engine, stepping every cycle and waiting for every probe's time give
// the same run: a resend that overtakes a reordered original is the copy the
// receiver keeps, and the original records nothing when it comes.
TEST(TransportInPath, EveryEngineGivesTheSameRun)
{
    const std::string lat = testutil::ubsim() + " latency --ops 200 --transport on --rto-ns 3000 "
                            "--fault loss=2e-2,dup=1e-2,reorder=5e-2,corrupt=1e-2,seed=5 --format json";
    const std::string rate = testutil::ubsim() + " rate --burst 300 --slots 64 --payload 9000 "
                             "--transport on --rto-ns 3000 --fault loss=2e-2,reorder=5e-2,seed=5 "
                             "--format json";
    for (const std::string &cmd : {lat, rate}) {
        std::string a, b;
        ASSERT_EQ(testutil::run(cmd, &a), 0);
        EXPECT_NE(a.find("\"transport\":"), std::string::npos);
        for (const char *more : {" --engine nodes", " --engine systemc", " --step-all"}) {
            ASSERT_EQ(testutil::run(cmd + more, &b), 0) << more;
            EXPECT_EQ(testutil::without_costs(a), testutil::without_costs(b)) << more;
        }
    }
    std::string a, b;
    ASSERT_EQ(testutil::run(lat, &a), 0);
    const std::string wave = testutil::temp_file("", ".vcd");
    ASSERT_EQ(testutil::run(lat + " --wave " + wave, &b), 0);
    std::remove(wave.c_str());
    EXPECT_EQ(testutil::without_costs(a), testutil::without_costs(b)) << "in time order";
}

// Over a topology the transport runs from NIC to NIC across the links and
// switches between them: its acknowledgements are routed back through the
// switches to the sender. Without faults each configured row measures what
// it did without the transport; with them every read completes (without it
// reads end in errors), and every backend and stepping every cycle or in
// time order give the same run.
TEST(TransportInPath, RunsAcrossTheSwitchesOfATopology)
{
    const std::string topo = std::string(UBSIM_SOURCE_DIR) + "/configs/topo/line4.ini";
    const std::string base = testutil::ubsim() + " latency --topology " + topo +
                             " --path ub_async --format json ";
    std::string a, b;
    // no faults: the same configured rows, two more rows each way
    ASSERT_EQ(testutil::run(base + "--ops 100", &a), 0);
    ASSERT_EQ(testutil::run(base + "--ops 100 --transport on", &b), 0);
    cJSON *ja = cJSON_Parse(a.c_str()), *jb = cJSON_Parse(b.c_str());
    ASSERT_TRUE(ja && jb);
    const cJSON *ra = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(ja, "paths"), 0), "stages");
    const cJSON *rb = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(jb, "paths"), 0), "stages");
    ASSERT_TRUE(ra && rb);
    int configured = 0, tp_rows = 0;
    for (const cJSON *x = rb->child; x; x = x->next) {
        std::string name = cJSON_GetObjectItem(x, "name")->valuestring;
        if (name.rfind("transport.", 0) == 0)
            tp_rows++;
        if (cJSON_IsTrue(cJSON_GetObjectItem(x, "derived")))
            continue;
        for (const cJSON *y = ra->child; y; y = y->next) {
            if (name == cJSON_GetObjectItem(y, "name")->valuestring) {
                EXPECT_EQ(cJSON_GetObjectItem(x, "sim_ns")->valuedouble,
                          cJSON_GetObjectItem(y, "sim_ns")->valuedouble) << name;
                configured++;
            }
        }
    }
    EXPECT_GT(configured, 15);
    // a run of three links and two switches each way: one row pair per way
    EXPECT_EQ(tp_rows, 4) << b;
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    // loss on every link: the reads survive with the transport only
    const std::string lossy = base + "--ops 300 --fault loss=2e-2,seed=3 ";
    ASSERT_EQ(testutil::run(lossy, &a), 0);
    cJSON *j = cJSON_Parse(a.c_str());
    ASSERT_TRUE(j);
    const cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "paths"), 0);
    EXPECT_GT(cJSON_GetObjectItem(cJSON_GetObjectItem(p0, "reads"), "errors")->valueint, 0) << a;
    cJSON_Delete(j);
    ASSERT_EQ(testutil::run(lossy + "--transport on --rto-ns 3000", &a), 0);
    j = cJSON_Parse(a.c_str());
    ASSERT_TRUE(j);
    p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "paths"), 0);
    const cJSON *reads = cJSON_GetObjectItem(p0, "reads");
    ASSERT_TRUE(reads) << a;
    EXPECT_EQ(cJSON_GetObjectItem(reads, "completed")->valueint, 300) << a;
    EXPECT_EQ(cJSON_GetObjectItem(reads, "errors")->valueint, 0) << a;
    const cJSON *tp = cJSON_GetObjectItem(p0, "transport");
    ASSERT_TRUE(tp) << a;
    EXPECT_GT(cJSON_GetObjectItem(tp, "resent")->valueint, 0);
    EXPECT_EQ(cJSON_GetObjectItem(tp, "delivered")->valueint, 600); // each packet once
    // every acknowledgement found its way back through the switches
    for (const cJSON *sw = cJSON_GetObjectItem(p0, "switches")->child; sw; sw = sw->next)
        EXPECT_EQ(cJSON_GetObjectItem(sw, "unroutable")->valueint, 0);
    cJSON_Delete(j);
    // (seed 1: originals that a resend or a duplicate overtook still record
    // their passage through the later links and switches after the copy
    // the receiver kept arrived)
    const std::string faults = base + "--ops 120 --rto-ns 2000 "
                               "--fault loss=3e-2,dup=3e-2,reorder=3e-2,corrupt=2e-2,seed=1";
    const std::string mix = faults + " --transport on";
    ASSERT_EQ(testutil::run(mix, &a), 0);
    for (const std::string &more : {mix + " --backend rtl", mix + " --backend lockstep",
                                   mix + " --step-all", faults + " --transport sack"}) {
        ASSERT_EQ(testutil::run(more, &b), 0) << more;
        EXPECT_EQ(testutil::without_costs(a), testutil::without_costs(b)) << more;
    }
    const std::string wave = testutil::temp_file("", ".vcd");
    ASSERT_EQ(testutil::run(mix + " --wave " + wave, &b), 0);
    std::remove(wave.c_str());
    EXPECT_EQ(testutil::without_costs(a), testutil::without_costs(b)) << "in time order";
    EXPECT_EQ(a.find(":\t-"), std::string::npos) << a; // no row below zero
}

// On a topology a duplicate made on one link can overtake its original on a
// later one (which holds the original back): the NIC then goes on with the
// duplicate, and records its arrival. Running ahead and running in time
// order give the same breakdown, with no row below zero.
TEST(TransportInPath, ADuplicateThatOvertakesItsOriginalOnALaterLink)
{
    const std::string line4 = testutil::ubsim() + " latency --topology " +
                              std::string(UBSIM_SOURCE_DIR) + "/configs/topo/line4.ini --path ub_async ";
    // (each of these seeds makes a duplicate that the receiving NIC keeps)
    for (const char *seed : {"7", "1", "3"}) {
        const std::string cmd = line4 + "--ops 300 --format csv --fault dup=5e-2,reorder=5e-2,seed=" + seed;
        std::string a, b;
        ASSERT_EQ(testutil::run(cmd, &a), 0);
        const std::string wave = testutil::temp_file("", ".vcd");
        ASSERT_EQ(testutil::run(cmd + " --wave " + wave, &b), 0);
        std::remove(wave.c_str());
        EXPECT_EQ(testutil::without_costs(a), testutil::without_costs(b)) << seed;
        EXPECT_EQ(a.find(",-"), std::string::npos) << seed << "\n" << a; // no negative row
    }
    // with the transport at 1 % loss the summary names every term: the
    // resends' share, not "waiting in busy stages" or a false cut-through
    std::string out;
    ASSERT_EQ(testutil::run(line4 + "--ops 1000 --fault loss=1e-2,seed=3 --transport on", &out), 0);
    EXPECT_EQ(out.find("busy stages"), std::string::npos) << out;
    EXPECT_NE(out.find("+ transport"), std::string::npos) << out;
    // no read completes: nothing is measured, and the summary says so
    ASSERT_EQ(testutil::run(line4 + "--ops 300 --fault loss=3e-2,dup=3e-2,reorder=3e-2,corrupt=2e-2,seed=1",
                            &out),
              0);
    EXPECT_NE(out.find("no read completed: nothing measured"), std::string::npos) << out;
    EXPECT_EQ(out.find("busy stages"), std::string::npos) << out;
    // between two nodes, with reordering, the same as the same two nodes
    // given as a topology: each the mean read
    const std::string two = testutil::ubsim() + " latency --path pcie_nic --ops 300 "
                            "--fault loss=1e-2,reorder=5e-2,seed=2";
    std::string t;
    ASSERT_EQ(testutil::run(two, &out), 0);
    ASSERT_EQ(testutil::run(two + " --topology " + std::string(UBSIM_SOURCE_DIR) +
                                "/configs/topo/two_nodes.ini",
                            &t),
              0);
    size_t a = out.find("per op:"), b = t.find("per op:");
    ASSERT_NE(a, std::string::npos);
    ASSERT_NE(b, std::string::npos);
    EXPECT_EQ(out.substr(a, out.find('\n', a) - a), t.substr(b, t.find('\n', b) - b));
}

// (Reads larger than the MTU on the engines that split the nodes: a link
// holds several packets per read.)
TEST(TransportInPath, SplitEnginesCarryReadsLargerThanTheMtu)
{
    std::string a, b;
    const std::string cmd = testutil::ubsim() + " rate --stack ub --burst 16 --payload 9000 --format json";
    ASSERT_EQ(testutil::run(cmd, &a), 0);
    ASSERT_EQ(testutil::run(cmd + " --engine nodes", &b, true), 0) << b;
    EXPECT_NE(b.find("\"completed\":\t16"), std::string::npos) << b;
}
