// Golden outputs: every case of testbench/golden/cases.txt, on every backend
// (and with --step-all on the C backend), must print exactly what the files
// under testbench/golden/ hold. The files were written by scripts/golden.sh
// before the simulator's core was rebuilt; only the count of NIC edges the
// engine stepped (nic_edges_simulated, a cost, not a result) is left out of
// the comparison.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "test_util.h"

namespace {

struct Case {
    std::string name, args;
};

std::string golden_dir() { return std::string(UBSIM_SOURCE_DIR) + "/testbench/golden"; }

std::vector<Case> cases()
{
    std::vector<Case> v;
    std::ifstream f(golden_dir() + "/cases.txt");
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        size_t bar = line.find('|');
        if (bar != std::string::npos)
            v.push_back({line.substr(0, bar), line.substr(bar + 1)});
    }
    return v;
}

using testutil::without_costs;

std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void check(const char *backend, bool step_all, const char *extra = "",
           const std::string &exe = testutil::ubsim())
{
    std::vector<Case> cs = cases();
    ASSERT_GE(cs.size(), 10u) << "no cases in " << golden_dir() << "/cases.txt";
    for (const Case &c : cs) {
        std::string want = read_file(golden_dir() + "/" + c.name + "." + backend + ".out");
        ASSERT_FALSE(want.empty()) << c.name << "." << backend << ": no golden file";
        std::string cmd = exe + " " + c.args + " --backend " + backend + " --quiet" +
                          (step_all ? " --step-all" : "") + extra;
        std::string got;
        ASSERT_EQ(testutil::run(cmd, &got), 0) << cmd;
        EXPECT_EQ(without_costs(got), without_costs(want)) << cmd;
    }
}

}  // namespace

TEST(Golden, CBackend) { check("c", false); }
TEST(Golden, RtlBackend) { check("rtl", false); }
TEST(Golden, LockstepBackend) { check("lockstep", false); }
TEST(Golden, CBackendSteppingEveryCycle) { check("c", true); }
// The same figures with the nodes split between two kernels, run side by
// side in one loop, or as two SystemC endpoint modules joined by a link
// module (sim/core/engine.h, sim/systemc/ub_endpoint.h).
TEST(Golden, NodesEngine) { check("c", false, " --engine nodes"); }
TEST(Golden, SystemcEngineC) { check("c", false, " --engine systemc"); }
TEST(Golden, SystemcEngineRtl) { check("rtl", false, " --engine systemc"); }
TEST(Golden, SystemcEngineLockstep) { check("lockstep", false, " --engine systemc"); }
TEST(Golden, SystemcEngineSteppingEveryCycle) { check("c", true, " --engine systemc"); }

// ubsim itself (the tests above run ubsim-checked, whose blocks carry their
// assertions) holds each block twice, Verilated with and without trace code
// (sim/rtl/block_rtl.h), and runs the untraced model unless a trace is
// written: its RTL figures are the golden ones, and so are those of a run
// that writes a trace (the traced models).
TEST(Golden, RtlBackendOfUbsimBothModels)
{
    const std::string plain = UBSIM_PLAIN_BIN;
    if (access(plain.c_str(), X_OK) != 0)
        GTEST_SKIP() << plain << " is not built (make " << plain << ")";
    check("rtl", false, "", plain);
    char tmpl[] = "/tmp/ubsim_models_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl;
    for (const char *name : {"latency_json", "rate_jetty1"}) {
        for (const Case &c : cases()) {
            if (c.name != name)
                continue;
            std::string want = read_file(golden_dir() + "/" + c.name + ".rtl.out");
            std::string cmd = plain + " " + c.args + " --backend rtl --quiet --wave " + dir + "/w.fst";
            std::string got;
            ASSERT_EQ(testutil::run(cmd, &got), 0) << cmd;
            EXPECT_EQ(without_costs(got), without_costs(want)) << cmd;
        }
    }
    std::string out;
    testutil::run("rm -rf " + dir, &out);
}

// The SystemC engine is a plugin beside ubsim (ubsim_systemc.so), loaded
// only for --engine systemc: ubsim does not link the SystemC library, and a
// copy of ubsim with no plugin beside it runs on the other engines and says
// what it could not load when asked for that one.
TEST(Engines, SystemcIsLoadedOnlyWhenAskedFor)
{
    std::string out;
    ASSERT_EQ(testutil::run("ldd " + testutil::ubsim(), &out), 0);
    EXPECT_EQ(out.find("libsystemc"), std::string::npos) << out;
    char tmpl[] = "/tmp/ubsim_alone_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string dir = tmpl, copy = dir + "/ubsim";
    ASSERT_EQ(testutil::run("cp " + testutil::ubsim() + " " + copy, &out), 0);
    EXPECT_EQ(testutil::run(copy + " latency --path ub_async --ops 10 --engine nodes --quiet", &out, true), 0)
        << out;
    EXPECT_EQ(testutil::run(copy + " latency --path ub_async --ops 10 --engine systemc --quiet", &out, true), 1)
        << out;
    EXPECT_NE(out.find("ubsim latency: --engine systemc: cannot load the SystemC engine: " + dir +
                       "/ubsim_systemc.so"),
              std::string::npos)
        << out;
    testutil::run("rm -rf " + dir, &out);
}

// A path over a topology (switches) is one kernel: another engine is a usage
// error, said before anything runs.
TEST(Engines, TopologyPathsRunOnlyOnTheNativeEngine)
{
    for (const char *cmd : {"latency", "rate"}) {
        std::string out;
        std::string c = testutil::ubsim() + " " + cmd + " --engine systemc --topology " +
                        std::string(UBSIM_SOURCE_DIR) + "/configs/topo/star3.ini";
        EXPECT_EQ(testutil::run(c, &out, true), 2) << c << "\n" << out;
        EXPECT_NE(out.find("--engine systemc: a path over a --topology runs only on the native engine"),
                  std::string::npos)
            << out;
    }
}
