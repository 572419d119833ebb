// scripts/portcheck.py, the build-time check that a Verilated model has the
// ports of its block's port list: it accepts the real lists and rejects
// copies of them with one entry changed (a width, a name, a direction, a
// missing port, a C type), naming the block and the port.
//
// The wrong lists are made here from the real ones, so they follow any change
// of the real lists; each is the real list with one edit.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "test_util.h"

namespace {

std::string src(const std::string &rel) { return std::string(UBSIM_SOURCE_DIR) + "/" + rel; }
// The checked models (build/vlc/): the ones this test binary is linked with,
// so they are there whenever it is; their ports are those of build/vl/.
std::string vheader(const std::string &block)
{
    return std::string(UBSIM_BUILD_DIR) + "/vlc/" + block + "/V" + block + ".h";
}

std::string read_text(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Runs the check; returns its exit status, its output in *out.
int portcheck(const std::string &block, const std::string &list, std::string *out)
{
    std::string cmd = "/usr/bin/python3 " + src("scripts/portcheck.py") + " " + block + " " +
                      vheader(block) + " " + list;
    return testutil::run(cmd, out, true);
}

// The real list `rel` with `from` replaced by `to` (from must occur once),
// written to a temporary file; returns its path.
std::string doctored(const std::string &rel, const std::string &from, const std::string &to)
{
    std::string text = read_text(src(rel));
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from << " not in " << rel;
    if (at != std::string::npos) {
        EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " twice in " << rel;
        text.replace(at, from.size(), to);
    }
    return testutil::temp_file(text, ".h");
}

struct Bad {
    const char *what;
    const char *from, *to;
    const char *expect[3];  // substrings of the output
};

void expect_rejected(const std::string &block, const std::string &rel, const Bad &b)
{
    SCOPED_TRACE(b.what);
    std::string path = doctored(rel, b.from, b.to);
    std::string out;
    EXPECT_EQ(portcheck(block, path, &out), 1) << out;
    EXPECT_NE(out.find("portcheck: " + block + ": port "), std::string::npos) << out;
    for (const char *e : b.expect) {
        if (e) {
            EXPECT_NE(out.find(e), std::string::npos) << "'" << e << "' not in:\n" << out;
        }
    }
    std::remove(path.c_str());
}

TEST(PortCheck, RealListsAgreeWithTheirModels)
{
    for (const char *b : {"ub_send_pipeline", "rc_send_pipeline"}) {
        std::string out;
        EXPECT_EQ(portcheck(b, src(std::string("cmodel/") + b + "_ports.h"), &out), 0) << out;
        EXPECT_NE(out.find("ports agree"), std::string::npos) << out;
    }
    std::string out;
    EXPECT_EQ(portcheck("wide_port_test", src("testbench/wide_port_test_ports.h"), &out), 0) << out;
}

TEST(PortCheck, WrongUbListsAreRejectedNamingThePort)
{
    const std::string rel = "cmodel/ub_send_pipeline_ports.h";
    const Bad bad[] = {
        {"width", "X(IN, wr_jetty, 20, uint32_t)", "X(IN, wr_jetty, 24, uint32_t)",
         {"port wr_jetty: width 24", "wr_jetty_i is [19:0] (20 bits)", nullptr}},
        {"renamed", "X(OUT, pkt_tassn, 16,", "X(OUT, pkt_tsn, 16,",
         {"port pkt_tsn: output pkt_tsn_o", "is not in the RTL",
          "port pkt_tassn: output pkt_tassn_o [15:0]"}},
        {"direction", "X(IN, pkt_ready, 1, uint8_t)", "X(OUT, pkt_ready, 1, uint8_t)",
         {"port pkt_ready: direction: output (pkt_ready_o)", "input pkt_ready_i", nullptr}},
        {"missing", "X(IN, wr_comp_order, 1, uint8_t)", "",
         {"port wr_comp_order: input wr_comp_order_i [0:0]", "is not in the port list", nullptr}},
        {"C type", "X(OUT, pkt_mode, 3, uint8_t)", "X(OUT, pkt_mode, 3, uint16_t)",
         {"port pkt_mode: C type uint16_t", "not 3", nullptr}},
    };
    for (const Bad &b : bad)
        expect_rejected("ub_send_pipeline", rel, b);
}

TEST(PortCheck, WrongRcListIsRejectedNamingThePort)
{
    expect_rejected("rc_send_pipeline", "cmodel/rc_send_pipeline_ports.h",
                    {"width", "X(OUT, pkt_psn, 24, uint32_t)", "X(OUT, pkt_psn, 23, uint32_t)",
                     {"rc_send_pipeline: port pkt_psn: width 23", nullptr, nullptr}});
}

// Ports wider than 64 bits (VL_INW / VL_OUTW lines).
TEST(PortCheck, WrongWidePortIsRejectedNamingThePort)
{
    expect_rejected("wide_port_test", "testbench/wide_port_test_ports.h",
                    {"wide width", "X(IN, data, 130, u64_words)", "X(IN, data, 128, u64_words)",
                     {"port data: width 128", "data_i is [129:0] (130 bits)", nullptr}});
    expect_rejected("wide_port_test", "testbench/wide_port_test_ports.h",
                    {"wide to narrow", "X(OUT, mix, 72, u64_words)", "X(OUT, mix, 64, uint64_t)",
                     {"port mix: width 64", "mix_o is [71:0] (72 bits)", nullptr}});
}

TEST(PortCheck, ListWithoutTheMacroIsRejected)
{
    std::string out;
    EXPECT_EQ(portcheck("ub_send_pipeline", src("cmodel/rc_send_pipeline_ports.h"), &out), 1);
    EXPECT_NE(out.find("does not define the port list macro UB_SEND_PIPELINE_PORTS(X)"),
              std::string::npos)
        << out;
    EXPECT_EQ(portcheck("ub_send_pipeline", "/nonexistent/ports.h", &out), 1);
    EXPECT_NE(out.find("not found"), std::string::npos) << out;
}

}  // namespace
