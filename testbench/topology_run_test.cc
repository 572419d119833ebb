// Read paths across a topology: on the default topology (two nodes back to
// back) every figure is today's, to the tick; through a switch a read crosses
// three nodes' worth of links with the switch's own rows, returns the right
// bytes, and a switch whose buffer overflows drops and counts, and the reads
// it dropped end in errors, never in a hang; faults on a topology fall on
// each link on its own, and a drop on the one link it names.
#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_paths.h"
#include "test_util.h"

extern "C" {
#include "config.h"
#include "latency.h"
#include "path_topo.h"
#include "topo_file.h"
}

namespace {

using testutil::Paths;

std::string topo_path(const char *name)
{
    return std::string(UBSIM_CONFIG_DIR) + "/topo/" + name + ".ini";
}

// A path laid over a topology, from node `from` to node `to`.
struct OnTopo {
    topo_file_t *tf = new topo_file_t;
    path_cfg_t *p = new path_cfg_t;
    OnTopo(const path_cfg_t *path, const char *file, const char *from, const char *to,
           const char *text = nullptr)
    {
        char err[512];
        int rc = text ? topo_load_text(tf, file, text, err, sizeof err)
                      : topo_load_file(tf, topo_path(file).c_str(), err, sizeof err);
        EXPECT_EQ(rc, 0) << err;
        int a = topo_find_node(&tf->t, from), b = topo_find_node(&tf->t, to);
        EXPECT_GE(a, 0);
        EXPECT_GE(b, 0);
        EXPECT_EQ(path_on_topology(path, tf, a, b, p, err, sizeof err), 0) << err;
    }
    ~OnTopo()
    {
        delete p;
        delete tf;
    }
};

latency_result_t run(const path_cfg_t *p, int64_t ops, int64_t slots, backend_kind_t be = BACKEND_C,
                     int64_t payload = -1)
{
    latency_opts_t o{};
    o.ops = ops;
    o.slots = slots;
    o.jetties = 8;
    o.seed = 3;
    o.payload = payload;
    o.backend = be;
    latency_result_t r;
    char err[512];
    EXPECT_EQ(latency_run(p, &o, &r, err, sizeof err), 0) << err;
    return r;
}

double ns(const latency_result_t &r, tick_t t) { return tb_to_ns(&r.tb, t); }

void expect_same(const latency_result_t &a, const latency_result_t &b, const char *what)
{
    SCOPED_TRACE(what);
    ASSERT_EQ(a.n_rows, b.n_rows);
    for (int i = 0; i < a.n_rows; i++) {
        EXPECT_STREQ(a.rows[i].name, b.rows[i].name);
        EXPECT_EQ(a.rows[i].calc, b.rows[i].calc) << a.rows[i].name;
        EXPECT_EQ(a.rows[i].sim_sum, b.rows[i].sim_sum) << a.rows[i].name;
    }
    EXPECT_EQ(a.sim_sum, b.sim_sum);
    EXPECT_EQ(a.p50, b.p50);
    EXPECT_EQ(a.p99, b.p99);
    EXPECT_EQ(a.end_time, b.end_time);
    EXPECT_EQ(a.completed, b.completed);
    EXPECT_EQ(a.bytes_checked, b.bytes_checked);
    EXPECT_EQ(0, memcmp(a.dep_hist, b.dep_hist, sizeof a.dep_hist));
}

TEST(TopologyRun, TheDefaultTopologyGivesTodaysFiguresExactly)
{
    Paths P;
    for (int i = 0; i < P.cfg.n_paths; i++) {
        const path_cfg_t *p = &P.cfg.paths[i];
        OnTopo t(p, "two_nodes", "A", "B");
        ASSERT_EQ(t.p->n_stages, p->n_stages);
        EXPECT_FALSE(path_has_switch(t.p));
        expect_same(run(p, 200, 1), run(t.p, 200, 1), p->name);
        if (p->tx_block != NIC_BLOCK_NONE)
            expect_same(run(p, 300, 300), run(t.p, 300, 300), p->name);
    }
}

TEST(TopologyRun, TheDefaultTopologyGivesTodaysFiguresOnRtlAndLockstep)
{
    Paths P;
    const path_cfg_t *p = config_find(&P.cfg, "ub_async");
    OnTopo t(p, "two_nodes", "A", "B");
    for (backend_kind_t be : {BACKEND_RTL, BACKEND_LOCKSTEP}) {
        latency_result_t a = run(p, 100, 100, be), b = run(t.p, 100, 100, be);
        expect_same(a, b, backend_name(be));
        EXPECT_EQ(b.lockstep_mismatches, 0u);
        expect_same(run(p, 100, 100), b, "C against the other backend");
    }
}

TEST(TopologyRun, AReadCrossesThreeNodesThroughASwitch)
{
    Paths P;
    for (int i = 0; i < P.cfg.n_paths; i++) {
        const path_cfg_t *p = &P.cfg.paths[i];
        SCOPED_TRACE(p->name);
        OnTopo t(p, "star3", "A", "T");
        ASSERT_TRUE(path_has_switch(t.p));
        const int64_t ops = 500;
        latency_result_t r = run(t.p, ops, 1);
        EXPECT_EQ(r.completed, ops);
        EXPECT_EQ(r.errors, 0);
        if (p->tx_block != NIC_BLOCK_NONE) {
            EXPECT_EQ(r.bytes_checked, ops); // the right bytes came back
        }
        // the switch forwarded the request and the response of every read
        ASSERT_EQ(r.n_switches, 1);
        EXPECT_STREQ(r.sw[0].name, "S");
        EXPECT_EQ(r.sw[0].received, (uint64_t)(2 * ops));
        EXPECT_EQ(r.sw[0].forwarded, (uint64_t)(2 * ops));
        EXPECT_EQ(r.sw[0].dropped, 0u);
        // its rows: a clock edge, its forwarding (as configured: every read
        // alone), and its output register; every tick of a read is in a row
        const topo_switch_t *sw = &t.tf->t.sw[0];
        int fwd = 0, queue = 0;
        double rows = 0;
        for (int k = 0; k < r.n_rows; k++) {
            const lat_row_t *row = &r.rows[k];
            rows += lat_row_sim_ns(&r, k);
            if (row->category == CAT_SWITCH) {
                fwd++;
                EXPECT_EQ(row->calc, (tick_t)sw->fwd_cycles * tb_period(&r.tb, sw->clock_mhz));
                EXPECT_NEAR(lat_row_sim_ns(&r, k), ns(r, row->calc), 1e-9);
            }
            if (row->category == CAT_QUEUEING) {
                queue++;
                // nothing ahead of it: one edge in the output register
                EXPECT_NEAR(lat_row_sim_ns(&r, k), ns(r, tb_period(&r.tb, sw->clock_mhz)), 1e-9);
            }
        }
        EXPECT_EQ(fwd, 2);
        EXPECT_EQ(queue, 2);
        EXPECT_NEAR(rows, lat_sim_total_ns(&r), 1e-6);
        // two links and a switch more than back to back, each way
        latency_result_t direct = run(p, ops, 1);
        EXPECT_GT(lat_sim_total_ns(&r), lat_sim_total_ns(&direct) + 2 * (100 + 20));
        // the other initiator, and the way back
        latency_result_t b = run(OnTopo(p, "star3", "B", "T").p, 50, 1);
        EXPECT_EQ(b.completed, 50);
        latency_result_t back = run(OnTopo(p, "star3", "T", "A").p, 50, 1);
        EXPECT_EQ(back.completed, 50);
    }
}

TEST(TopologyRun, CutThroughSwitchesHandAPacketOnBeforeItsLastBit)
{
    Paths P;
    const path_cfg_t *p = config_find(&P.cfg, "ub_async");
    OnTopo t(p, "line4", "a", "d");
    latency_result_t r = run(t.p, 100, 1);
    EXPECT_EQ(r.completed, 100);
    EXPECT_EQ(r.bytes_checked, 100);
    ASSERT_EQ(r.n_switches, 2);
    // a link into a cut-through switch delivers once the header is in: its
    // row is shorter than its delay by the serialisation of the rest
    int shorter = 0;
    for (int k = 0; k < r.n_rows; k++) {
        const lat_row_t *row = &r.rows[k];
        int st = row->stage;
        if (row->derived || t.p->stages[st].kind != STAGE_WIRE || st + 1 >= t.p->n_stages ||
            t.p->stages[st + 1].kind != STAGE_SWITCH)
            continue;
        EXPECT_LT(lat_row_sim_ns(&r, k), ns(r, row->calc)) << row->name;
        shorter++;
    }
    EXPECT_EQ(shorter, 4);
}

const char *tiny_buffer =
    "[topology]\nname = tiny\n[node.A]\n[node.T]\n"
    "[switch.S]\nports = 2\nbuffer_bytes = 400\nfwd_cycles = 4\n"
    "[link.A]\na = A\nb = S:0\ngbytes_per_s = 2\n"
    "[link.T]\na = T\nb = S:1\n";

TEST(TopologyRun, AFullSwitchBufferDropsAndCountsAndItsReadsEndInErrors)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        SCOPED_TRACE(name);
        const path_cfg_t *p = config_find(&P.cfg, name);
        // responses arrive at 50 GB/s and leave towards A at 2 GB/s
        OnTopo t(p, "tiny", "A", "T", tiny_buffer);
        latency_opts_t o{};
        o.ops = 2000;
        o.slots = 2000;
        o.jetties = 8;
        o.timeout_ps = 200000000; // 200 us
        latency_result_t r;
        char err[512];
        ASSERT_EQ(latency_run(t.p, &o, &r, err, sizeof err), 0) << err;
        ASSERT_EQ(r.n_switches, 1);
        EXPECT_GT(r.sw[0].dropped, 0u);
        EXPECT_LE(r.sw[0].peak_queue_bytes, 400);
        EXPECT_EQ(r.sw[0].received, r.sw[0].forwarded + r.sw[0].dropped + r.sw[0].unroutable);
        // every read ended: with the right bytes, or in an error
        EXPECT_EQ(r.completed + r.errors, o.ops);
        EXPECT_GE(r.errors, (int64_t)r.sw[0].dropped);
        EXPECT_EQ(r.bytes_checked, r.completed);
        EXPECT_GT(r.completed, 0);
        // and the same run again is the same run
        latency_result_t again;
        ASSERT_EQ(latency_run(t.p, &o, &again, err, sizeof err), 0) << err;
        EXPECT_EQ(again.completed, r.completed);
        EXPECT_EQ(again.sw[0].dropped, r.sw[0].dropped);
        EXPECT_EQ(again.end_time, r.end_time);
        EXPECT_EQ(0, memcmp(again.fx.rx_counts, r.fx.rx_counts, sizeof r.fx.rx_counts));
    }
}

TEST(TopologyCli, LatencyAndRateRunAcrossATopology)
{
    std::string out, t = topo_path("star3");
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --path ub_async --topology " + t, &out), 0)
        << out;
    EXPECT_NE(out.find("topology star3, A to T"), std::string::npos) << out;
    EXPECT_NE(out.find("switch S: forwarding, port 0 to 2"), std::string::npos) << out;
    EXPECT_NE(out.find("switch S: received 2, forwarded 2, dropped 0"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --path ub_async --format json --from B "
                                                "--topology " + t, &out), 0);
    EXPECT_NE(out.find("\"from\":\t\"B\""), std::string::npos) << out;
    EXPECT_NE(out.find("\"drops\":\t0"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " rate --burst 500 --topology " + t, &out), 0) << out;
    EXPECT_EQ(out.find("NOT CONSERVED"), std::string::npos) << out;
    EXPECT_NE(out.find("switch S: received 1000, forwarded 1000"), std::string::npos) << out;
    // mistakes name what was expected
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --topology " + t + " --from Z", &out, true), 2);
    EXPECT_NE(out.find("--from: no node 'Z' in topology 'star3' (nodes: A, B, T)"), std::string::npos)
        << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --topology " + t + " --from A --to A", &out,
                            true), 2);
    EXPECT_NE(out.find("must be two nodes"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --to T", &out, true), 2);
    EXPECT_NE(out.find("give --topology FILE too"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --link-ns 5 --topology " + t, &out, true), 2);
    EXPECT_NE(out.find("one_way_ns"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --topology /nonexistent.ini", &out, true), 2);
    EXPECT_NE(out.find("--topology: "), std::string::npos) << out;
}

// A drop names one link of the topology: that link loses the packet, and
// no other (every link of line4's route a-S1-S2-d counts its own packets,
// so drop=fwd:2 on each would lose three). The plain form, or a link the
// topology does not have, is bad usage.
TEST(TopologyCli, ADropLosesOnePacketOnTheLinkItNames)
{
    const std::string base = testutil::ubsim() + " latency --quiet --path ub_async --ops 50 --format json "
                                                 "--topology " + topo_path("line4") + " --fault ";
    struct Case {
        const char *drop;
        int fwd, back, completed;
    } cases[] = {
        {"drop=a.fwd:2", 1, 0, 1},      // read 2's request; the rest meet its gap
        {"drop=trunk0.fwd:2", 1, 0, 1},
        {"drop=d.fwd:2", 1, 0, 1},
        {"drop=d.back:1", 0, 1, 0},     // read 1's response; the rest meet its gap
        {"drop=trunk1.fwd:2", 0, 0, 50}, // (the route crosses trunk0, not trunk1)
        {"drop=c.back:1", 0, 0, 50},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.drop);
        std::string out;
        ASSERT_EQ(testutil::run(base + c.drop, &out), 0) << out;
        cJSON *j = cJSON_Parse(out.c_str());
        ASSERT_TRUE(j) << out;
        const cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "paths"), 0);
        const cJSON *f = cJSON_GetObjectItem(p0, "faults");
        ASSERT_TRUE(f) << out;
        EXPECT_EQ(cJSON_GetObjectItem(cJSON_GetObjectItem(f, "forward"), "dropped")->valueint, c.fwd);
        EXPECT_EQ(cJSON_GetObjectItem(cJSON_GetObjectItem(f, "back"), "dropped")->valueint, c.back);
        EXPECT_EQ(cJSON_GetObjectItem(cJSON_GetObjectItem(p0, "reads"), "completed")->valueint, c.completed);
        cJSON_Delete(j);
    }
    // bad usage: exit 2, and the links there are
    std::string out;
    for (const char *cmd : {" latency", " rate --stack ub --burst 10"}) {
        SCOPED_TRACE(cmd);
        const std::string on = testutil::ubsim() + cmd + " --topology " + topo_path("line4");
        EXPECT_EQ(testutil::run(on + " --fault loss=1e-3,drop=fwd:2", &out, true), 2);
        EXPECT_NE(out.find("--fault: drop=fwd:2: topology 'line4' has 6 links: name the one to drop on, as "
                           "drop=LINK.fwd:2 (links: a, c, trunk0, trunk1, b, d)"),
                  std::string::npos)
            << out;
        EXPECT_EQ(testutil::run(on + " --fault drop=trunk.back:2", &out, true), 2);
        EXPECT_NE(out.find("--fault: drop=trunk.back:2: topology 'line4' has no link 'trunk' (links: a, c, "
                           "trunk0, trunk1, b, d)"),
                  std::string::npos)
            << out;
    }
    // a topology of one link, or none, takes the plain form and the link's name
    for (const std::string &on : {std::string(""), " --topology " + topo_path("two_nodes")}) {
        std::string a, b;
        ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --quiet --ops 20 --fault drop=fwd:5" + on, &a), 0);
        ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --quiet --ops 20 --fault drop=AB.fwd:5" + on, &b),
                  0);
        EXPECT_EQ(a, b) << on;
        EXPECT_NE(a.find("dropped by the list 1"), std::string::npos) << a;
    }
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --fault drop=trunk0.fwd:5", &out, true), 2);
    EXPECT_NE(out.find("no link 'trunk0': between two nodes the one link is AB"), std::string::npos)
        << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " loss --scheme sack --fault drop=trunk0.fwd:5", &out, true), 2);
    EXPECT_NE(out.find("no link 'trunk0'"), std::string::npos) << out;
}

} // namespace
