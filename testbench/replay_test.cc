// Vectors any Verilog simulator can replay: ubsim --vectors writes them for
// every block instance of a run, scripts/replay.py replays them in Icarus
// Verilog (a second simulator, next to Verilator) with the testbench that
// scripts/gen_replay.py writes from each block's port list, and every output
// of every edge must agree with the C model: rate runs with back-pressure on
// both send pipelines, the transport under a lost packet, the context cache's
// cliff, and brief random runs of every block with a reset in the middle. The
// replay is shown to catch an output shifted by one cycle and a single
// flipped bit, and an Icarus trace of a replay equals Verilator's own trace of
// the same run under ubsim diff. The yosys netlists of the blocks the timing
// figures cover replay as their RTL does.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

const std::string kRoot = UBSIM_SOURCE_DIR;
const std::string kReplay = "/usr/bin/python3 " + kRoot + "/scripts/replay.py";

bool have_icarus()
{
    std::string out;
    return testutil::run("iverilog -V", &out, true) >= 0 && out.find("Icarus Verilog") != std::string::npos;
}

std::string make_dir()
{
    char tmpl[] = "/tmp/ubsim_replay_test_XXXXXX";
    const char *d = mkdtemp(tmpl);
    return d ? d : "";
}

std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<std::string> lines(const std::string &path)
{
    std::vector<std::string> v;
    std::ifstream f(path);
    for (std::string l; std::getline(f, l);)
        if (!l.empty())
            v.push_back(l);
    return v;
}

void write_lines(const std::string &path, const std::vector<std::string> &v)
{
    std::ofstream f(path);
    for (const std::string &l : v)
        f << l << "\n";
}

// The folders <block>.<k> under dir, by block.
std::map<std::string, int> instances(const std::string &dir)
{
    std::map<std::string, int> n;
    std::string out;
    testutil::run("ls " + dir, &out);
    std::istringstream in(out);
    for (std::string d; in >> d;)
        if (d.find('.') != std::string::npos)
            n[d.substr(0, d.find('.'))]++;
    return n;
}

// A replay's verdict lines.
struct Replay {
    int rc = -1;
    std::string out;
};
Replay replay(const std::string &what)
{
    Replay r;
    r.rc = testutil::run(kReplay + " " + what, &r.out, true);
    return r;
}

class ReplayTest : public testing::Test {
protected:
    static std::string dir;
    static void SetUpTestSuite()
    {
        if (!have_icarus())
            return;
        dir = make_dir();
    }
    static void TearDownTestSuite()
    {
        if (!dir.empty()) {
            std::string out;
            testutil::run("rm -rf " + dir, &out);
        }
    }
    void SetUp() override
    {
        if (!have_icarus())
            GTEST_SKIP() << "iverilog is not installed (make deps)";
        ASSERT_FALSE(dir.empty());
    }
    static int ubsim(const std::string &args, const std::string &sub, std::string *out)
    {
        return testutil::run(testutil::ubsim() + " " + args + " --vectors " + dir + "/" + sub, out, true);
    }
    // The vectors of the named lockstep tests' random runs, `cycles` edges
    // each (with a reset in the middle), written by the test binary itself
    // into dir/sub.
    static int random_vectors(const std::string &sub, const char *tests, int cycles, std::string *out)
    {
        std::string cmd = "UBSIM_VECTORS=" + dir + "/" + sub + " UBSIM_TEST_CYCLES=" + std::to_string(cycles) +
                          " " + std::string(UBSIM_BUILD_DIR) + "/ubsim_tests --gtest_filter=" + tests;
        return testutil::run(cmd, out, true);
    }
};
std::string ReplayTest::dir;

// Rate runs of both send pipelines with 4 KiB reads: requests wait for the
// intake (wr_ready 0) and packets for the wire (pkt_ready 0).
TEST_F(ReplayTest, RateRunsWithBackPressureReplayInIcarus)
{
    std::string out;
    // (the context caches' replays are the tests below)
    ASSERT_EQ(ubsim("rate --burst 200 --payload 4096 --quiet --format json --set context.cache_bytes=0",
                    "rate", &out),
              0)
        << out;
    std::map<std::string, int> n = instances(dir + "/rate");
    EXPECT_GE(n["ub_tx"], 2);
    EXPECT_GE(n["rc_send_pipeline"], 2);
    // the first target instance of each saw the wire push back
    std::string in = read_file(dir + "/rate/ub_tx.1/in.hex");
    std::string man = read_file(dir + "/rate/ub_tx.1/manifest.json");
    EXPECT_NE(man.find("\"command\": \"rate --burst 200 --payload 4096"), std::string::npos) << man;
    EXPECT_NE(man.find("\"name\": \"pkt_ready\", \"dir\": \"in\", \"width\": 1"), std::string::npos) << man;
    Replay r = replay(dir + "/rate");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find(" 0 with differences"), std::string::npos) << r.out;
}

TEST_F(ReplayTest, TransportUnderALostPacketReplaysInIcarus)
{
    std::string out;
    ASSERT_EQ(ubsim("loss --message 32768 --mtu 4096 --link-ns 1000 --fault drop=fwd:1 --rto-ns 10000 "
                    "--scheme sack --format json",
                    "loss", &out),
              0)
        << out;
    EXPECT_EQ(instances(dir + "/loss")["transport"], 2);
    Replay r = replay(dir + "/loss");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("replay: 2 instances, 0 with differences"), std::string::npos) << r.out;
}

TEST_F(ReplayTest, ContextCacheCliffReplaysInIcarus)
{
    std::string out;
    ASSERT_EQ(ubsim("cache --stack ub --n 16 --reads 300 --quiet --format json", "cache", &out), 0) << out;
    // the bench's two, and the caches of the path whose all-hit latency it
    // measures
    EXPECT_GE(instances(dir + "/cache")["context_cache"], 2);
    Replay r = replay(dir + "/cache");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find(" 0 with differences"), std::string::npos) << r.out;
}

// The context caches of a read path, every lookup a miss: lookups, fetches,
// fills and answers, with the clock gated between reads.
TEST_F(ReplayTest, PathCachesWithMissesReplayInIcarus)
{
    std::string out;
    ASSERT_EQ(ubsim("latency --path ub_async --ops 20 --set context.cache_bytes=64 --format json", "ctx", &out),
              0)
        << out;
    EXPECT_EQ(instances(dir + "/ctx")["context_cache"], 3);
    EXPECT_NE(out.find("\"misses\":\t60"), std::string::npos) << out;
    Replay r = replay(dir + "/ctx");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find(" 0 with differences"), std::string::npos) << r.out;
}

// The transports of a read path under loss (each node's block, as the path
// ran it) replay in Icarus with the same outputs.
TEST_F(ReplayTest, PathTransportsUnderLossReplayInIcarus)
{
    std::string out;
    ASSERT_EQ(ubsim("latency --path ub_async --ops 40 --transport on --rto-ns 2000 "
                    "--fault loss=5e-2,seed=2 --format json",
                    "tp", &out),
              0)
        << out;
    EXPECT_EQ(instances(dir + "/tp")["transport"], 2);
    EXPECT_NE(out.find("\"completed\":\t40"), std::string::npos) << out;
    Replay r = replay(dir + "/tp");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find(" 0 with differences"), std::string::npos) << r.out;
}

// Brief random runs of every block (the lockstep tests' stimulus), each with
// a reset in its middle, written by the test binary itself.
TEST_F(ReplayTest, RandomStimulusWithAResetReplaysInIcarusForEveryBlock)
{
    std::string out;
    const char *tests = "ContextCacheLockstep.RandomStimulusOnEveryPort:"
                        "TransportLockstep.RandomStimulusOnEveryPort:"
                        "OrderTrackerLockstep.RandomMillionCycles:"
                        "RcSendLockstep.RandomStimulusMillionCycles:"
                        "UbSendPipeline.RandomLockstepZeroMismatches:"
                        "UbSendPipeline.BarePipelineRandomLockstep:"
                        "UbSendPipeline.ChannelTableNumbersEachChannelInLockstep";
    ASSERT_EQ(random_vectors("random", tests, 4000, &out), 0) << out;
    std::map<std::string, int> n = instances(dir + "/random");
    for (const char *b : {"context_cache", "transport", "order_tracker", "rc_send_pipeline", "ub_send_pipeline", "ub_tx", "tp_chan"}) {
        EXPECT_EQ(n[b], 1) << b;
        std::string man = read_file(dir + "/random/" + b + ".0/manifest.json");
        EXPECT_NE(man.find("\"edges\": 4000"), std::string::npos) << b << ": " << man;
        // the reset when made, and at least one in the middle
        size_t at = man.find("\"resets\": ");
        ASSERT_NE(at, std::string::npos) << man;
        EXPECT_GE(std::stoi(man.substr(at + 10)), 2) << b << ": " << man;
    }
    Replay r = replay(dir + "/random");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("replay: 7 instances, 0 with differences"), std::string::npos) << r.out;
}

// What synthesis makes of the RTL is the RTL: each block the timing figures
// cover, synthesised by yosys (its generic cells, flattened, as a Verilog
// netlist), replays brief random runs with a reset in Icarus with the C
// model's outputs at every edge. (yosys reads some constructs otherwise than
// Verilator and Icarus do: docs/rtl.md, "What synthesis sees".)
TEST_F(ReplayTest, SynthesisedNetlistsReplayAsTheRtl)
{
    std::string out;
    if (testutil::run("yosys -V", &out, true) != 0)
        GTEST_SKIP() << "yosys is not installed (make deps)";
    const char *tests = "OrderTrackerLockstep.RandomMillionCycles:"
                        "RcSendLockstep.RandomStimulusMillionCycles:"
                        "UbSendPipeline.BarePipelineRandomLockstep:"
                        "UbSendPipeline.RandomLockstepZeroMismatches:"
                        "UbSendPipeline.ChannelTableNumbersEachChannelInLockstep";
    ASSERT_EQ(random_vectors("netrand", tests, 200, &out), 0) << out;
    std::string files = kRoot + "/rtl/ub_pkg.sv";
    for (const char *f : {"order_tracker", "rc_send_pipeline", "ub_send_pipeline", "tp_chan", "ub_tx"})
        files += " " + kRoot + "/rtl/" + f + ".sv";
    for (const char *b : {"order_tracker", "rc_send_pipeline", "ub_send_pipeline", "tp_chan", "ub_tx"}) {
        std::string net = dir + "/net_" + b;
        ASSERT_EQ(mkdir(net.c_str(), 0755), 0) << net;
        std::string ys = "yosys -q -p 'read_verilog -sv -I" + kRoot + "/rtl " + files + "; synth -top " + b +
                         " -flatten; write_verilog -noattr " + net + "/" + b + ".sv'";
        ASSERT_EQ(testutil::run(ys, &out, true), 0) << b << ": " << out;
        Replay r = replay("--rtl " + net + " " + dir + "/netrand/" + b + ".0");
        EXPECT_EQ(r.rc, 0) << b << ": " << r.out;
        EXPECT_NE(r.out.find("replay: 1 instances, 0 with differences"), std::string::npos) << b << ": " << r.out;
    }
}

// The replay catches one flipped bit at its cycle and port, and an output
// shifted by one cycle at the first cycle it shows.
TEST_F(ReplayTest, AFlippedBitAndAShiftedOutputAreCaught)
{
    std::string out;
    ASSERT_EQ(ubsim("rate --stack ub --burst 64 --quiet --format json", "mut", &out), 0) << out;
    const std::string src = dir + "/mut/ub_tx.0";
    std::vector<std::string> exp = lines(src + "/exp.hex");
    ASSERT_GT(exp.size(), 100u);
    // wr_ready is the first output: flip it at edge 77
    auto copy = [&](const std::string &name, const std::vector<std::string> &e) {
        std::string d = dir + "/mut/" + name;
        std::string o;
        testutil::run("mkdir -p " + d + " && cp " + src + "/in.hex " + src + "/manifest.json " + d, &o);
        write_lines(d + "/exp.hex", e);
        return d;
    };
    std::vector<std::string> flipped = exp;
    flipped[77][0] = flipped[77][0] == '1' ? '0' : '1';
    Replay r = replay(copy("flipped.0", flipped));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("first difference: cycle 77, port wr_ready_o"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(", " + std::to_string(exp.size()) + " cycles, 1 differences;"), std::string::npos)
        << r.out;

    // every expected line one edge late: the first difference is the first
    // edge whose outputs differ from the edge before
    std::vector<std::string> shifted;
    shifted.push_back(exp[0]);
    shifted.insert(shifted.end(), exp.begin(), exp.end() - 1);
    size_t first = 1;
    while (first < exp.size() && exp[first] == exp[first - 1])
        first++;
    ASSERT_LT(first, exp.size());
    r = replay(copy("shifted.0", shifted));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("first difference: cycle " + std::to_string(first) + ", port"), std::string::npos)
        << r.out;
}

// Icarus's trace of a replay and Verilator's own trace of the same block in
// the same run are equal, port by port and cycle by cycle (ubsim diff).
TEST_F(ReplayTest, IcarusTraceEqualsVerilatorTraceUnderDiff)
{
    std::string out;
    std::string wave = dir + "/ls.fst";
    ASSERT_EQ(ubsim("rate --stack ub --burst 64 --backend lockstep --quiet --format json --wave " + wave,
                    "ls", &out),
              0)
        << out;
    // the RTL of the initiator's send pipeline traced itself next to the wave
    std::string ls;
    testutil::run("ls " + dir + " | grep -- '-rtl.fst$'", &ls);
    ASSERT_FALSE(ls.empty()) << "no RTL trace next to " << wave;
    std::string rtl = dir + "/" + ls.substr(0, ls.find('\n'));
    Replay r = replay("--dump " + dir + "/ls/ub_tx.0");
    ASSERT_EQ(r.rc, 0) << r.out;
    std::string vcd = dir + "/ls/ub_tx.0/replay.vcd";
    int rc = testutil::run(testutil::ubsim() + " diff " + rtl + " " + vcd, &out, true);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("diff: equal:"), std::string::npos) << out;
}

// --vectors on the command line: where it is refused, and why.
TEST(VectorsCli, BadUsesAreRefusedWithAReason)
{
    std::string out;
    const std::string u = testutil::ubsim();
    EXPECT_EQ(testutil::run(u + " rate --backend rtl --vectors /tmp/ubsim_vec_unused", &out, true), 2);
    EXPECT_NE(out.find("use --backend c or lockstep"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + " state --vectors /tmp/ubsim_vec_unused", &out, true), 2);
    EXPECT_NE(out.find("this command runs no block"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + " rate --vectors", &out, true), 2);
    EXPECT_NE(out.find("--vectors: a folder expected"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(u + " rate --quiet --vectors /proc/ubsim_no/such", &out, true), 2);
    EXPECT_NE(out.find("cannot create folder"), std::string::npos) << out;
    std::string full = "/tmp/ubsim_vec_full_" + std::to_string(getpid());
    testutil::run("mkdir -p " + full + " && touch " + full + "/x", &out);
    EXPECT_EQ(testutil::run(u + " rate --quiet --vectors " + full, &out, true), 2);
    EXPECT_NE(out.find("is not empty"), std::string::npos) << out;
    testutil::run("rm -rf " + full, &out);
    EXPECT_EQ(testutil::run(u + " rate --help", &out), 0);
    EXPECT_NE(out.find("--vectors DIR"), std::string::npos) << out;
}

// The manifest names the block, its ports in list order with their widths,
// the counts, and the command line; each line has one field per port.
TEST(VectorsCli, ManifestAndLinesFollowThePortList)
{
    std::string dir = "/tmp/ubsim_vec_manifest_" + std::to_string(getpid());
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --path ub_async --ops 3 --seed 9 --vectors=" + dir, &out,
                            true),
              0)
        << out;
    std::string man = read_file(dir + "/ub_tx.0/manifest.json");
    EXPECT_NE(man.find("\"block\": \"ub_tx\""), std::string::npos) << man;
    EXPECT_NE(man.find("\"seed\": \"9\""), std::string::npos) << man;
    EXPECT_NE(man.find("\"command\": \"latency --path ub_async --ops 3 --seed 9 --vectors=" + dir + "\""), std::string::npos) << man;
    EXPECT_NE(man.find("{\"name\": \"wr_valid\", \"dir\": \"in\", \"width\": 1, \"digits\": 1}"),
              std::string::npos)
        << man;
    EXPECT_NE(man.find("{\"name\": \"wr_addr\", \"dir\": \"in\", \"width\": 64, \"digits\": 16}"),
              std::string::npos)
        << man;
    EXPECT_NE(man.find("\"resets\": 1,"), std::string::npos) << man;
    std::vector<std::string> in = lines(dir + "/ub_tx.0/in.hex");
    ASSERT_FALSE(in.empty());
    EXPECT_EQ(in[0][0], '1') << "the reset when made comes before the first edge";
    for (size_t i = 1; i < in.size(); i++)
        EXPECT_EQ(in[i][0], '0') << i;
    size_t fields = 1;
    for (char c : in[0])
        fields += c == '_';
    size_t ports = 0;
    for (size_t at = 0; (at = man.find("\"dir\": \"in\"", at)) != std::string::npos; at++)
        ports++;
    EXPECT_EQ(fields, ports + 1) << in[0];
    size_t at = man.find("\"edges\": ");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ((size_t)std::stoul(man.substr(at + 9)), in.size());
    EXPECT_EQ(lines(dir + "/ub_tx.0/exp.hex").size(), in.size());
    testutil::run("rm -rf " + dir, &out);
}

}  // namespace
