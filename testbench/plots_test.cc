// The plots of docs/results.md are drawn from the JSON ubsim prints: the
// drawing script reads each experiment's output and writes a PNG, and says
// what is wrong with a file it cannot use.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "test_util.h"

namespace {

const std::string kPlot = "/usr/bin/python3 " + std::string(UBSIM_SOURCE_DIR) + "/scripts/plot_results.py";

bool have_matplotlib()
{
    std::string out;
    return testutil::run("/usr/bin/python3 -c 'import matplotlib'", &out) == 0;
}

long file_size(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 ? (long)st.st_size : -1;
}

bool is_png(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return false;
    unsigned char sig[8] = {0};
    size_t n = std::fread(sig, 1, 8, f);
    std::fclose(f);
    return n == 8 && sig[0] == 0x89 && sig[1] == 'P' && sig[2] == 'N' && sig[3] == 'G';
}

TEST(Plots, EachExperimentIsDrawnFromUbsimJson)
{
    if (!have_matplotlib())
        GTEST_SKIP() << "python3-matplotlib is not installed (make deps)";
    std::string dir = "/tmp/ubsim_plots_" + std::to_string(getpid());
    std::string out;
    ASSERT_EQ(testutil::run("mkdir -p " + dir, &out), 0);
    const std::string u = testutil::ubsim();
    struct Case {
        std::string make, draw, png;
    } cases[] = {
        {u + " latency --format json > " + dir + "/lat.json", "breakdown " + dir + "/lat.json " + dir + "/b.png",
         dir + "/b.png"},
        {u + " latency --link-ns 0 --format json > " + dir + "/l0.json && " + u +
             " latency --link-ns 400 --format json > " + dir + "/l4.json",
         "wire " + dir + "/w.png " + dir + "/l0.json " + dir + "/l4.json", dir + "/w.png"},
        {u + " rate --quiet --burst 2,16,256 --format json > " + dir + "/ramp.json",
         "ramp " + dir + "/ramp.json " + dir + "/r.png", dir + "/r.png"},
        {u + " rate --quiet --burst 2000 --slots 4 --format json > " + dir + "/s4.json && " + u +
             " rate --quiet --burst 2000 --slots 64 --format json > " + dir + "/s64.json",
         "concurrency " + dir + "/c.png " + dir + "/s4.json " + dir + "/s64.json", dir + "/c.png"},
        {u + " incast --quiet --senders 1 --ops 8 --format json > " + dir + "/i1.json && " + u +
             " incast --quiet --senders 4 --ops 8 --format json > " + dir + "/i4.json",
         "incast " + dir + "/i.png " + dir + "/i1.json " + dir + "/i4.json", dir + "/i.png"},
    };
    for (const Case &c : cases) {
        ASSERT_EQ(testutil::run(c.make, &out, true), 0) << c.make << "\n" << out;
        EXPECT_EQ(testutil::run(kPlot + " " + c.draw, &out, true), 0) << c.draw << "\n" << out;
        EXPECT_TRUE(is_png(c.png)) << c.png;
        EXPECT_GT(file_size(c.png), 5000) << c.png;
    }
    // a file it cannot use: named, exit 1; bad usage: exit 2
    EXPECT_EQ(testutil::run(kPlot + " breakdown " + dir + "/none.json " + dir + "/x.png", &out, true), 1);
    EXPECT_NE(out.find("none.json"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(kPlot + " ramp " + dir + "/lat.json " + dir + "/x.png", &out, true), 1);
    EXPECT_NE(out.find("no stacks"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(kPlot + " sideways a b", &out, true), 2);
    testutil::run("rm -rf " + dir, &out);
}

}  // namespace
