// scripts/formal.sh, the formal proofs of the RTL (docs/formal.md): a planted
// bug of each engine (yosys-smtbmc, ABC) must make the bounded check of its
// run fail, the report naming the assertion that catches it and a
// counterexample trace that is a VCD file. The runs go to directories of
// their own (FORMAL_OUT), so they neither read nor disturb build/formal.
// Skipped where a tool is missing.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <ctype.h>
#include <stdlib.h>

#include "test_util.h"

namespace {

std::string src(const std::string &rel) { return std::string(UBSIM_SOURCE_DIR) + "/" + rel; }

bool have(const char *tool)
{
    std::string out;
    return testutil::run(std::string("command -v ") + tool, &out) == 0;
}

// The fields of the report line
//   "  <plant>  caught: assertion <names> at step <n>, trace <file>.vcd [<t> s]"
// (std::regex is not used: GCC 12 warns inside it under -fsanitize).
struct Caught {
    std::string names, step, trace;
};

bool parse_caught(const std::string &out, const std::string &plant, Caught *c)
{
    std::string key = plant;
    size_t at = out.find(key);
    while (at != std::string::npos) {
        size_t p = at + key.size();
        while (p < out.size() && out[p] == ' ')
            p++;
        const std::string lead = "caught: assertion ";
        if (out.compare(p, lead.size(), lead) == 0) {
            p += lead.size();
            size_t st = out.find(" at step ", p);
            size_t tr = out.find(", trace ", p);
            size_t eol = out.find('\n', p);
            if (eol == std::string::npos)
                eol = out.size();
            if (st == std::string::npos || tr == std::string::npos || tr > eol || st > tr)
                return false;
            c->names = out.substr(p, st - p);
            c->step = out.substr(st + 9, tr - (st + 9));
            size_t end = out.find_first_of(" \n", tr + 8);
            if (end == std::string::npos)
                end = out.size();
            c->trace = out.substr(tr + 8, end - (tr + 8));
            return !c->names.empty() && !c->step.empty() &&
                   c->step.find_first_not_of("0123456789") == std::string::npos &&
                   c->trace.size() > 4 && c->trace.compare(c->trace.size() - 4, 4, ".vcd") == 0;
        }
        at = out.find(key, at + 1);
    }
    return false;
}

bool is_label(const std::string &s)
{
    if (s.size() < 3 || s.compare(s.size() - 2, 2, "_A") != 0)
        return false;
    for (size_t i = 0; i + 2 < s.size(); i++)
        if (!isalnum((unsigned char)s[i]))
            return false;
    return true;
}

bool has_timestamp(const std::string &text)
{
    for (size_t p = text.find("\n#"); p != std::string::npos; p = text.find("\n#", p + 1)) {
        size_t q = p + 2;
        while (q < text.size() && isdigit((unsigned char)text[q]))
            q++;
        if (q > p + 2 && q < text.size() && text[q] == '\n')
            return true;
    }
    return false;
}

std::string read_text(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Runs one planted bug of scripts/formal.sh into a directory of its own and
// checks its report: an assertion of `rtl` named, and a counterexample trace
// that is a VCD file holding the block's port `port`.
void check_plant(const std::string &plant, const std::string &rtl, const std::string &port,
                 bool labels_end_in_a)
{
    char tmpl[] = "/tmp/ubsim_formal_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;

    std::string out;
    int rc = testutil::run("FORMAL_OUT=" + dir + " " + src("scripts/formal.sh") + " --plant " + plant,
                           &out, true);
    EXPECT_EQ(rc, 0) << out;
    // "  <plant>  caught: assertion <Name> at step 3, trace <dir>/plant-<plant>.vcd [0 s]"
    Caught m;
    ASSERT_TRUE(parse_caught(out, plant, &m)) << out;
    std::string first = m.names.substr(0, m.names.find(' '));
    if (labels_end_in_a) {
        EXPECT_TRUE(is_label(first)) << out;
    }
    EXPECT_NE(read_text(src(rtl)).find("`UB_ASSERT(" + first + ","), std::string::npos)
        << first << " is not an assertion label of " << rtl;
    EXPECT_EQ(m.trace, dir + "/plant-" + plant + ".vcd");
    std::string text = read_text(m.trace);
    ASSERT_FALSE(text.empty()) << "no trace at " << m.trace;
    // a VCD: declarations, the end of them, value changes at time stamps, and
    // the signals of the block (the named port among them)
    EXPECT_NE(text.find("$var"), std::string::npos);
    EXPECT_NE(text.find("$enddefinitions"), std::string::npos);
    EXPECT_TRUE(has_timestamp(text));
    EXPECT_NE(text.find(" " + port + " "), std::string::npos);

    std::string rm;
    testutil::run("rm -rf " + testutil::shell_quote(dir), &rm);
}

// yosys-smtbmc with cvc4: the channel table moving on by nseg packets
// instead of nseg + 1 (TableMatchesShadow_A sees the wrong table write a
// step before PsnAdvance_A sees the answer).
TEST(Formal, PlantedBugGivesNamedAssertionAndVcdTrace)
{
    for (const char *tool : {"yosys", "yosys-smtbmc", "z3", "cvc4"})
        if (!have(tool))
            GTEST_SKIP() << tool << " not found";
    check_plant("tp_chan_psn_short", "rtl/tp_chan.sv", "rs_psn_o", true);
}

// ABC (bmc3 for a planted bug, the counterexample replayed by yosys's
// simulator), one planted bug in each block it proves: a count flag of the
// order tracker, the RoCE pipeline skipping PSNs, the UB pipeline ending a
// message early, the UB transmit path losing asks to the channel table.
TEST(Formal, PlantedBugInEveryAbcRunReplaysToVcd)
{
    for (const char *tool : {"yosys", "yosys-abc"})
        if (!have(tool))
            GTEST_SKIP() << tool << " not found";
    const struct {
        const char *plant, *rtl, *port;
    } plants[] = {
        {"order_tracker_count_flag", "rtl/order_tracker.sv", "elig_o"},
        {"rc_psn_skip", "rtl/rc_send_pipeline.sv", "pkt_psn_o"},
        {"ub_next_last_early", "rtl/ub_send_pipeline.sv", "pkt_psn_o"},
        {"ub_tx_ask_lost", "rtl/ub_tx.sv", "pkt_psn_o"},
    };
    for (const auto &p : plants) {
        SCOPED_TRACE(p.plant);
        check_plant(p.plant, p.rtl, p.port, false);
    }
}

}  // namespace
