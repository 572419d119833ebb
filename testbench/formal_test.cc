// scripts/formal.sh, the formal proofs of the RTL (docs/formal.md): one of
// its planted bugs (tp_chan_psn_short: rtl/tp_chan.sv's channel moving on by
// nseg packets instead of nseg + 1) must make the bounded proof of tp_chan
// fail, the report naming the assertion that catches it and
// a counterexample trace that is a VCD file. The run goes to a directory of
// its own (FORMAL_OUT), so it neither reads nor disturbs build/formal.
// Skipped where yosys-smtbmc or a solver (cvc4 for tp_chan) is missing.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <stdlib.h>

#include "test_util.h"

namespace {

std::string src(const std::string &rel) { return std::string(UBSIM_SOURCE_DIR) + "/" + rel; }

bool have(const char *tool)
{
    std::string out;
    return testutil::run(std::string("command -v ") + tool, &out) == 0;
}

std::string read_text(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

TEST(Formal, PlantedBugGivesNamedAssertionAndVcdTrace)
{
    for (const char *tool : {"yosys", "yosys-smtbmc", "z3", "cvc4"})
        if (!have(tool))
            GTEST_SKIP() << tool << " not found";
    char tmpl[] = "/tmp/ubsim_formal_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;

    std::string out;
    int rc = testutil::run("FORMAL_OUT=" + dir + " " + src("scripts/formal.sh") +
                               " --plant tp_chan_psn_short",
                           &out, true);
    EXPECT_EQ(rc, 0) << out;
    // "  tp_chan_psn_short  caught: assertion PsnAdvance_A at step 3, trace <dir>/plant-tp_chan_psn_short.vcd"
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m,
                                  std::regex("tp_chan_psn_short +caught: assertion ([A-Za-z0-9_ ]+) at step "
                                             "([0-9]+), trace ([^ \n]+\\.vcd)")))
        << out;
    // an assertion of rtl/tp_chan.sv (the helper TableMatchesShadow_A sees
    // the wrong table write a step before PsnAdvance_A sees the answer)
    std::string names = m[1].str();
    std::string first = names.substr(0, names.find(' '));
    EXPECT_TRUE(std::regex_match(first, std::regex("[A-Za-z0-9]+_A"))) << out;
    EXPECT_NE(read_text(src("rtl/tp_chan.sv")).find(first), std::string::npos)
        << first << " is not an assertion label of rtl/tp_chan.sv";
    std::string vcd = m[3].str();
    EXPECT_EQ(vcd, dir + "/plant-tp_chan_psn_short.vcd");
    std::string text = read_text(vcd);
    ASSERT_FALSE(text.empty()) << "no trace at " << vcd;
    // a VCD: declarations, the end of them, value changes at time stamps, and
    // the signals of the block (its answer port among them)
    EXPECT_NE(text.find("$var"), std::string::npos);
    EXPECT_NE(text.find("$enddefinitions"), std::string::npos);
    EXPECT_TRUE(std::regex_search(text, std::regex("\n#[0-9]+\n")));
    EXPECT_NE(text.find(" rs_psn_o "), std::string::npos);

    std::string rm;
    testutil::run("rm -rf " + testutil::shell_quote(dir), &rm);
}

}  // namespace
