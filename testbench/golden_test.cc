// Golden outputs: every case of testbench/golden/cases.txt, on every backend
// (and, for the cases that run on them, with --step-all on the C backend and
// on the nodes and SystemC engines), must print exactly what its one file
// under testbench/golden/ holds. The files were written by scripts/golden.sh
// (the first ones before the simulator's core was rebuilt, the scenarios of
// order, loss, cache and incast before its structure was changed); the
// backend's name and the count of NIC edges the engine stepped
// (nic_edges_simulated, a cost, not a result) are left out of the
// comparison.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "test_util.h"

namespace {

struct Case {
    std::string name, args;
    bool quiet = true;         // the command takes --quiet
    bool all_engines = true;   // also --step-all and the other engines
};

std::string golden_dir() { return std::string(UBSIM_SOURCE_DIR) + "/testbench/golden"; }

std::vector<Case> cases()
{
    std::vector<Case> v;
    const std::string path = golden_dir() + "/cases.txt";
    std::ifstream f(path);
    std::string line;
    int line_no = 0;
    while (std::getline(f, line)) {
        ++line_no;
        if (line.empty() || line[0] == '#')
            continue;
        size_t bar = line.find('|');
        if (bar == std::string::npos) {
            ADD_FAILURE() << path << ":" << line_no << ": expected 'name|ubsim arguments[|options]', got '"
                          << line << "'";
            continue;
        }
        Case c;
        c.name = line.substr(0, bar);
        std::string rest = line.substr(bar + 1);
        size_t bar2 = rest.find('|');
        c.args = rest.substr(0, bar2);
        std::stringstream opts(bar2 == std::string::npos ? "" : rest.substr(bar2 + 1));
        std::string o;
        while (std::getline(opts, o, ',')) {
            if (o == "quiet=no")
                c.quiet = false;
            else if (o == "backends")
                c.all_engines = false;
            else
                ADD_FAILURE() << path << ":" << line_no << ": unknown option '" << o
                              << "' (quiet=no, backends)";
        }
        v.push_back(c);
    }
    return v;
}

using testutil::without_costs;

// What is compared: the output without its costs, the backend's name as the
// C backend prints it (in a table's header, "backend rtl," and in JSON,
// "backend": "rtl"), as scripts/golden.sh does.
std::string as_golden(const std::string &s, const char *backend)
{
    std::string out = without_costs(s), b = backend;
    if (b == "c")
        return out;
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"backend " + b + ",", "backend c,"},
                                  {"\"backend\":\t\"" + b + "\"", "\"backend\":\t\"c\""}}) {
        for (size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
            out.replace(at, from.size(), to);
    }
    return out;
}

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
    const bool other_engine = step_all || *extra != '\0';
    for (const Case &c : cs) {
        if (other_engine && !c.all_engines)
            continue;
        std::string want = read_file(golden_dir() + "/" + c.name + ".out");
        ASSERT_FALSE(want.empty()) << c.name << ": no golden file " << c.name << ".out";
        std::string cmd = exe + " " + c.args + " --backend " + backend + (c.quiet ? " --quiet" : "") +
                          (step_all ? " --step-all" : "") + extra;
        std::string got;
        ASSERT_EQ(testutil::run(cmd, &got), 0) << cmd;
        EXPECT_EQ(as_golden(got, backend), without_costs(want)) << cmd;
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
            std::string want = read_file(golden_dir() + "/" + c.name + ".out");
            std::string cmd = plain + " " + c.args + " --backend rtl --quiet --wave " + dir + "/w.fst";
            std::string got;
            ASSERT_EQ(testutil::run(cmd, &got), 0) << cmd;
            EXPECT_EQ(as_golden(got, "rtl"), without_costs(want)) << cmd;
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
