// Command-line and config defects: each is reported where it is (file:line,
// or the option's name), says what was expected and exits with status 2 (1
// for a waveform that could not be written).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

extern "C" {
#include "config.h"
}

#include "test_util.h"

namespace {

// A fresh empty directory under /tmp; removed by rmdir when done.
std::string temp_dir()
{
    char tmpl[] = "/tmp/ubsim_test_dir_XXXXXX";
    const char *d = mkdtemp(tmpl);
    return d ? d : "";
}

// Runs ubsim with ARGS; returns the exit status, stdout and stderr in *out.
int ubsim(const std::string &args, std::string *out)
{
    return testutil::run(testutil::ubsim() + " " + args, out, true);
}

bool has(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

TEST(CliDefects, ADirectoryGivenAsConfigIsReportedAsADirectory)
{
    std::string dir = temp_dir(), out;
    ASSERT_FALSE(dir.empty());
    EXPECT_EQ(ubsim("latency --quiet --config " + dir, &out), 2) << out;
    EXPECT_TRUE(has(out, "'" + dir + "': is a directory")) << out;
    EXPECT_FALSE(has(out, "expected '[path]'")) << out;
    EXPECT_EQ(ubsim("rate --quiet --config " + dir, &out), 2) << out;
    EXPECT_TRUE(has(out, "is a directory")) << out;

    static config_t cfg;
    char err[512];
    config_init(&cfg);
    EXPECT_EQ(config_load_file(&cfg, dir.c_str(), err, sizeof err), -1);
    EXPECT_TRUE(has(err, "is a directory")) << err;
    rmdir(dir.c_str());
}

}  // namespace

namespace {

TEST(CliDefects, NumbersAreDecimalOnly)
{
    double d;
    for (const char *ok : {"12", "12.5", ".5", "5.", "1e3", "2.5E-1", " 7 ", "+3", "-3", "0"})
        EXPECT_EQ(config_parse_real(ok, &d), 0) << ok;
    EXPECT_EQ(config_parse_real("2.5E-1", &d), 0);
    EXPECT_EQ(d, 0.25);
    for (const char *bad : {"0x10", "0X1p4", "inf", "INF", "-inf", "nan", "NaN", "infinity", "1e",
                            "e3", ".", "", " ", "1.2.3", "1e999", "12abc", "1,5", "--1", "1 2"})
        EXPECT_EQ(config_parse_real(bad, &d), -1) << bad;
    int64_t x;
    for (const char *ok : {"12", "+3", "-4", " 5 ", "0"})
        EXPECT_EQ(config_parse_whole(ok, &x), 0) << ok;
    for (const char *bad : {"0x10", "1e3", "1.0", "", "inf", "99999999999999999999", "7 8"})
        EXPECT_EQ(config_parse_whole(bad, &x), -1) << bad;
}

TEST(CliDefects, HexInfAndNanAreRejectedEverywhere)
{
    struct {
        std::string args, expect;
    } cases[] = {
        {"latency --set stage.verbs_submit.delay_ns=0x10",
         "--set #1:1: [stage.verbs_submit] delay_ns: expected a number of ns (decimal, e.g. 12.5 "
         "or 1e3), got '0x10'"},
        {"latency --set stage.verbs_submit.delay_ns=inf", "delay_ns: expected a number of ns (decimal"},
        {"latency --set stage.verbs_submit.delay_ns=nan", "got 'nan'"},
        {"latency --link-ns 0x64", "--link-ns:1: [wire] one_way_ns: expected a number of ns (decimal"},
        {"latency --link-ns=infinity", "got 'infinity'"},
        {"latency --set wire.gbytes_per_s=0x32",
         "[wire] gbytes_per_s: expected a rate of 0.001..1000000 GB/s (a decimal number), "
         "got '0x32'"},
        {"latency --set wire.gbytes_per_s=nan", "gbytes_per_s: expected a rate of 0.001..1000000 GB/s (a decimal"},
        {"latency --set clock.nic_mhz=0x142", "[clock] nic_mhz: expected a whole number"},
        {"latency --set stage.wire_forward.bytes=0x40", "bytes: expected a whole number"},
        {"latency --ops 0x10", "--ops: expected a whole number >= 1, got '0x10'"},
        {"latency --seed 1e3", "--seed: expected a whole number >= 0, got '1e3'"},
        {"rate --burst 0x10", "--burst: expected whole numbers 1..2000000, got '0x10'"},
        {"rate --payload 0x40", "--payload: expected bytes 1..1048576, got '0x40'"},
        {"rate --slots inf", "--slots: expected a whole number >= 1, got 'inf'"},
        {"rate --jetties 0x8", "--jetties: expected 1..1048576, got '0x8'"},
    };
    for (auto &c : cases) {
        std::string out;
        EXPECT_EQ(ubsim(c.args + " --quiet", &out), 2) << c.args << ": " << out;
        EXPECT_TRUE(has(out, c.expect)) << c.args << ": " << out;
    }
}

TEST(CliDefects, HexDelaysInAConfigFileAreRejectedAtTheirLine)
{
    std::string ini =
        "[path]\nname = hex\n[clock]\nnic_mhz = 322\n[wire]\none_way_ns = 100\ngbytes_per_s = 50\n"
        "[stage.a]\ncategory = software\ndelay_ns = 0x10\n";
    std::string f = testutil::temp_file(ini), out;
    EXPECT_EQ(ubsim("latency --quiet --config " + f, &out), 2) << out;
    EXPECT_TRUE(has(out, f + ":10: [stage.a] delay_ns: expected a number of ns (decimal")) << out;
    std::remove(f.c_str());
}

TEST(CliDefects, ExponentsAreDecimalNumbersToo)
{
    std::string a, b;
    ASSERT_EQ(ubsim("latency --quiet --path ub_async --link-ns 250 --format csv", &a), 0) << a;
    ASSERT_EQ(ubsim("latency --quiet --path ub_async --link-ns 2.5e2 --format csv", &b), 0) << b;
    EXPECT_EQ(a, b);
}

}  // namespace

namespace {

TEST(CliDefects, ANulByteInAConfigFileIsAnErrorAtItsLine)
{
    const std::string head = "[path]\nname = nul\n[clock]\nnic_mhz = 322\n";
    const std::string tail = "[wire]\none_way_ns = 100\ngbytes_per_s = 50\n"
                             "[stage.a]\ncategory = software\ndelay_ns = 5\n";
    struct {
        std::string text;
        std::string expect;
    } cases[] = {
        // inside a value: "3\0 22" was read as 3 MHz
        {"[path]\nname = nul\n[clock]\nnic_mhz = 3" + std::string(1, '\0') + "22\n" + tail,
         ":4: NUL byte at column 12"},
        // at the end of a line, before a section header
        {head + "; comment" + std::string(1, '\0') + "\n" + tail, ":5: NUL byte at column 10"},
        // a line of its own, and the first byte of a section header line
        {head + std::string(1, '\0') + "\n" + tail, ":5: NUL byte at column 1"},
        {head + std::string(1, '\0') + tail, ":5: NUL byte at column 1"},
        // the last byte of the file, no newline after it
        {head + tail + "; end" + std::string(1, '\0'), ":11: NUL byte at column 6"},
    };
    for (auto &c : cases) {
        char tmpl[] = "/tmp/ubsim_test_XXXXXX";
        int fd = mkstemp(tmpl);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(write(fd, c.text.data(), c.text.size()), (ssize_t)c.text.size());
        close(fd);
        std::string out;
        EXPECT_EQ(ubsim("latency --quiet --config " + std::string(tmpl), &out), 2) << out;
        EXPECT_TRUE(has(out, std::string(tmpl) + c.expect)) << c.expect << ": " << out;

        static config_t cfg;
        char err[512];
        config_init(&cfg);
        EXPECT_EQ(config_load_file(&cfg, tmpl, err, sizeof err), -1);
        EXPECT_TRUE(has(err, "NUL byte")) << err;
        std::remove(tmpl);
    }
}

}  // namespace
