// Command-line and config defects: each is reported where it is (file:line,
// or the option's name), says what was expected and exits with status 2 (1
// for a report or waveform that could not be written).
#include <gtest/gtest.h>
#include <gtest/gtest-spi.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "cli.h"
#include "config.h"
#include "rate.h"
#include "text.h"
#include "topo_file.h"
#include "wave.h"
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

// A command line (run with --quiet) and what its message must say.
struct UsageCase {
    std::string args, expect;
};

// Each case is bad usage: exit status 2, and a message that says `expect`.
void expect_usage_errors(const std::vector<UsageCase> &cases)
{
    for (auto &c : cases) {
        std::string out, what = c.args.substr(0, 60);
        EXPECT_EQ(ubsim(c.args + " --quiet", &out), 2) << what << ": " << out;
        EXPECT_TRUE(has(out, c.expect)) << what << ": " << out;
    }
}

// `ubsim topology FILE` (which takes no --quiet) is bad usage, and its
// message says `expect`.
void expect_topology_errors(const std::vector<UsageCase> &cases)
{
    for (auto &c : cases) {
        std::string out;
        EXPECT_EQ(ubsim("topology " + c.args, &out), 2) << c.args << ": " << out;
        EXPECT_TRUE(has(out, c.expect)) << c.args << ": " << out;
    }
}

// A config file's text and what its error must say after the file's name.
struct ConfigCase {
    std::string text, expect;
};

// Each text, as a file given to --config, is bad: exit status 2, and
// "FILE" + expect (":LINE: ...") in the message.
void expect_config_errors(const std::vector<ConfigCase> &cases)
{
    for (auto &c : cases) {
        std::string f = testutil::temp_file(c.text), out;
        EXPECT_EQ(ubsim("latency --quiet --config " + f, &out), 2) << out;
        EXPECT_TRUE(has(out, f + c.expect)) << out;
        std::remove(f.c_str());
    }
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
    // so are a topology and the traces diff compares
    EXPECT_EQ(ubsim("topology " + dir, &out), 2) << out;
    EXPECT_TRUE(has(out, "'" + dir + "': is a directory (expected an INI file)")) << out;
    EXPECT_EQ(ubsim("diff " + dir + " " + dir, &out), 2) << out;
    EXPECT_TRUE(has(out, "cannot read '" + dir + "': is a directory (expected a VCD or FST trace)"))
        << out;

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
    expect_usage_errors({
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
        {"latency --ops 0x10", "--ops: expected a whole number from 1 to 9223372036854775807, got '0x10'"},
        {"latency --seed 1e3", "--seed: expected a whole number from 0 to 9223372036854775807, got '1e3'"},
        {"rate --burst 0x10", "--burst: expected whole numbers 1..2000000, got '0x10'"},
        {"rate --payload 0x40", "--payload: expected bytes 1..1048576, got '0x40'"},
        {"rate --slots inf", "--slots: expected a whole number from 1 to 9223372036854775807, got 'inf'"},
        {"rate --jetties 0x8", "--jetties: expected 1..1048576, got '0x8'"},
    });
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
         ":4:12: not a text file: a NUL byte"},
        // at the end of a line, before a section header
        {head + "; comment" + std::string(1, '\0') + "\n" + tail, ":5:10: not a text file: a NUL byte"},
        // a line of its own, and the first byte of a section header line
        {head + std::string(1, '\0') + "\n" + tail, ":5:1: not a text file: a NUL byte"},
        {head + std::string(1, '\0') + tail, ":5:1: not a text file: a NUL byte"},
        // the last byte of the file, no newline after it
        {head + tail + "; end" + std::string(1, '\0'), ":11:6: not a text file: a NUL byte"},
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
        EXPECT_TRUE(has(err, "a NUL byte")) << err;
        std::remove(tmpl);
    }
}

}  // namespace

namespace {

TEST(CliDefects, OverLongValuesAreErrorsNamingTheOption)
{
    expect_usage_errors({
        {"latency --link-ns " + std::string(600, '1'),
         "--link-ns: expected a value of at most 495 characters, got 600"},
        {"latency --set wire.one_way_ns=" + std::string(600, '1'),
         "--set: expected SEC.KEY=VALUE of at most 511 characters, got 616"},
        {"latency --config /tmp/" + std::string(300, 'c'),
         "--config: expected a file name of at most 255 characters, got 305"},
        {"latency --wave /tmp/" + std::string(1000, 'w') + ".vcd",
         "--wave: expected a file name of at most 959 characters, got 1009"},
        {"rate --wave /tmp/" + std::string(1000, 'w') + ".fst --stack ub --burst 1",
         "--wave: expected a file name of at most 959 characters"},
        {"rate --burst " + std::string(300, '1'), "--burst: expected at most 255 characters, got 300"},
        {"rate --link-ns=" + std::string(500, '2'), "--link-ns: expected a value of at most 495"},
    });
}

TEST(CliDefects, LongLinkValuesAreReadWhole)
{
    // 99 zeros and a 1: 1 ns. Cut at 79 characters it was 0 ns.
    std::string a, b;
    ASSERT_EQ(ubsim("latency --quiet --path ub_load --format csv --link-ns 1", &a), 0) << a;
    ASSERT_EQ(ubsim("latency --quiet --path ub_load --format csv --link-ns " + std::string(99, '0') + "1",
                    &b), 0)
        << b;
    EXPECT_EQ(a, b);
    // the longest value --link-ns takes works, one more character does not
    std::string v(495, '0');
    v.back() = '1';
    ASSERT_EQ(ubsim("latency --quiet --path ub_load --format csv --link-ns " + v, &b), 0) << b;
    EXPECT_EQ(a, b);
    EXPECT_EQ(ubsim("latency --quiet --path ub_load --link-ns 0" + v, &b), 2) << b;
}

TEST(CliDefects, BurstListsUpToTheLimitFit)
{
    // CLI_MAX_LIST sizes of 7 digits with their commas: 255 characters
    std::string list;
    for (int i = 0; i < CLI_MAX_LIST; i++)
        list += (i ? "," : "") + std::string("0000001");
    ASSERT_EQ(list.size(), 255u);
    std::string out;
    EXPECT_EQ(ubsim("rate --quiet --stack ub --format csv --burst " + list, &out), 0) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), CLI_MAX_LIST + 1) << out;
}

TEST(CliDefects, OverLongConfigTextIsAnErrorAtItsLine)
{
    std::string base =
        "[path]\nname = long\n[clock]\nnic_mhz = 322\n[wire]\none_way_ns = 100\ngbytes_per_s = 50\n"
        "[stage.a]\ncategory = software\ndelay_ns = 5\n";
    expect_config_errors({
        {base + "label = " + std::string(128, 'L') + "\n",
         ":11: [stage.a] label: expected at most 127 characters, got 128"},
        {"[path]\nname = long\ntitle = " + std::string(150, 'T') + "\n",
         ":3: [path] title: expected at most 127 characters, got 150"},
    });
    // the longest label is kept whole
    std::string f = testutil::temp_file(base + "label = " + std::string(127, 'L') + "\n"), out;
    EXPECT_EQ(ubsim("latency --quiet --format csv --config " + f, &out), 0) << out;
    EXPECT_TRUE(has(out, std::string(127, 'L'))) << out;
    std::remove(f.c_str());
}

TEST(CliDefects, IndentedKeysAreKeysAndAKeySetTwiceInAFileIsAnError)
{
    // libinih reads an indented line as the continuation of the key before
    // it: an indented key became that key's value (a baffling error), an
    // indented number silently replaced it. Keys may be indented now; a
    // bare value on a line of its own is an error, as is a key set twice or
    // a section opened twice in one file (the first was silently lost).
    std::string path = "[path]\nname = ind\n[clock]\nnic_mhz = 322\n", stage = "[stage.a]\ncategory = software\ndelay_ns = 5\n";
    std::string plain = testutil::temp_file(path + "[wire]\none_way_ns = 10\ngbytes_per_s = 50\n" + stage);
    std::string indented =
        testutil::temp_file(path + "[wire]\n  one_way_ns = 10\n\tgbytes_per_s = 50\n" + stage);
    std::string a, b;
    ASSERT_EQ(ubsim("latency --quiet --format csv --config " + plain, &a), 0) << a;
    ASSERT_EQ(ubsim("latency --quiet --format csv --config " + indented, &b), 0) << b;
    EXPECT_EQ(a, b);
    expect_config_errors({
        {path + "[wire]\none_way_ns = 10\n  20\ngbytes_per_s = 50\n" + stage,
         ":7: expected '[section]', 'key = value' or a comment"},
        {path + "nic_mhz = 500\n[wire]\none_way_ns = 10\ngbytes_per_s = 50\n" + stage,
         ":5: [clock] nic_mhz: set twice in this file (first at line 4)"},
        {path + "[wire]\none_way_ns = 10\ngbytes_per_s = 50\n" + stage + "[stage.a]\ndelay_ns = 1\n",
         ":11: [stage.a]: the section is opened twice in this file (first at line 8)"},
    });
    // a second file, or --set, still overrides a key on purpose
    std::string over = testutil::temp_file("[path]\nname = ind\n[clock]\nnic_mhz = 500\n");
    ASSERT_EQ(ubsim("latency --quiet --config " + plain + " --config " + over, &b), 0) << b;
    EXPECT_TRUE(has(b, "NIC clock 500 MHz")) << b;
    ASSERT_EQ(ubsim("latency --quiet --config " + plain + " --set clock.nic_mhz=500", &b), 0) << b;
    EXPECT_TRUE(has(b, "NIC clock 500 MHz")) << b;
    for (auto &f : {plain, indented, over})
        std::remove(f.c_str());
}

TEST(CliDefects, HelpOfACommandAndTheVersion)
{
    std::string a, b;
    for (const char *cmd : {"latency", "rate", "order", "incast", "loss", "state", "cache", "topology", "diff"}) {
        EXPECT_EQ(ubsim(std::string("help ") + cmd, &a), 0) << cmd << ": " << a;
        EXPECT_EQ(ubsim(std::string(cmd) + " --help", &b), 0) << cmd << ": " << b;
        EXPECT_EQ(a, b) << cmd;
        EXPECT_TRUE(has(a, std::string("usage: ubsim ") + cmd)) << a;
    }
    EXPECT_EQ(ubsim("help bogus", &a), 2) << a;
    EXPECT_TRUE(has(a, "unknown command 'bogus'")) << a;
    EXPECT_EQ(ubsim("help latency rate", &a), 2) << a;
    ASSERT_EQ(ubsim("--version", &a), 0) << a;
    EXPECT_EQ(a.rfind("ubsim ", 0), 0u) << a;
    EXPECT_GT(a.size(), std::string("ubsim \n").size()) << a;
    EXPECT_EQ(ubsim("version", &b), 0) << b;
    EXPECT_EQ(a, b);
}

TEST(CliDefects, OverLongNamesAreRefusedByTheLibraryToo)
{
    static config_t cfg;
    char err[512];
    config_init(&cfg);
    ASSERT_EQ(config_load_defaults(&cfg, err, sizeof err), 0) << err;
    std::string set = "wire.one_way_ns=" + std::string(600, '1');
    EXPECT_EQ(config_set(&cfg, set.c_str(), "--set", err, sizeof err), -1);
    EXPECT_TRUE(has(err, "expected section.key=value of at most 511 characters, got 616")) << err;
    std::string file = "/tmp/" + std::string(300, 'f');
    EXPECT_EQ(config_load_file(&cfg, file.c_str(), err, sizeof err), -1);
    EXPECT_TRUE(has(err, "expected at most 255 characters, got 305")) << err;
    EXPECT_EQ(config_load_string(&cfg, file.c_str(), "[path]\nname = x\n", err, sizeof err), -1);
    EXPECT_TRUE(has(err, "expected at most 255 characters, got 305")) << err;

    std::string out;
    EXPECT_EQ(testutil::run("UBSIM_CONFIG_DIR=/tmp/" + std::string(250, 'd') + " " +
                                testutil::ubsim() + " latency --quiet",
                            &out, true),
              2)
        << out;
    EXPECT_TRUE(has(out, "$UBSIM_CONFIG_DIR: expected a directory name of at most 235 characters, "
                         "got 255"))
        << out;
}

TEST(CliDefects, PathListsInMessagesEndInAnEllipsisWhenCut)
{
    static config_t cfg;
    config_init(&cfg);
    cfg.n_paths = CFG_MAX_PATHS;
    for (int i = 0; i < cfg.n_paths; i++)
        snprintf(cfg.paths[i].name, sizeof cfg.paths[i].name, "%02d%s", i,
                 std::string(CFG_NAME_LEN - 3, 'p').c_str());
    char buf[512];
    cli_path_names(&cfg, buf, sizeof buf);
    std::string s = buf;
    EXPECT_LT(s.size(), sizeof buf);
    EXPECT_EQ(s.substr(s.size() - 5), ", ...") << s;
    EXPECT_EQ(s.substr(0, 2), "00") << s;
    cfg.n_paths = 2;
    cli_path_names(&cfg, buf, sizeof buf);
    EXPECT_EQ(std::string(buf), std::string(cfg.paths[0].name) + ", " + cfg.paths[1].name);
}

}  // namespace

namespace {

TEST(CliDefects, ListsAreSplitAlikeAndRefuseEmptyItems)
{
    char buf[32], *item[4];
    EXPECT_EQ(text_list_split("16", buf, sizeof buf, item, 4), 1);
    EXPECT_STREQ(item[0], "16");
    ASSERT_EQ(text_list_split("16,256,x", buf, sizeof buf, item, 4), 3);
    EXPECT_STREQ(item[1], "256");
    EXPECT_STREQ(item[2], "x");
    for (const char *bad : {"", ",", "16,", ",16", "16,,256", "16,256,"})
        EXPECT_EQ(text_list_split(bad, buf, sizeof buf, item, 4), TEXT_LIST_EMPTY) << bad;
    EXPECT_EQ(text_list_split("1,2,3,4,5", buf, sizeof buf, item, 4), TEXT_LIST_TOO_MANY);
    EXPECT_EQ(text_list_split(std::string(32, '1').c_str(), buf, sizeof buf, item, 4),
              TEXT_LIST_TOO_LONG);
    EXPECT_EQ(text_list_split(std::string(31, '1').c_str(), buf, sizeof buf, item, 4), 1);
}

TEST(CliDefects, EveryListOptionRefusesEmptyItems)
{
    // an empty list was taken as the default list, a doubled or trailing
    // comma was skipped: each is now an error naming the option
    expect_usage_errors({
        {"rate --burst ''", "--burst: expected whole numbers 1..2000000, comma-separated, got '': an empty item"},
        {"rate --burst ,", "--burst: expected whole numbers 1..2000000, comma-separated, got ','"},
        {"rate --burst 16,,256", "got '16,,256': an empty item"},
        {"rate --burst 16,", "got '16,': an empty item"},
        {"loss --loss 0.1,", "--loss: expected probabilities from 0 to 1, comma-separated, got '0.1,': an empty item"},
        {"loss --mix ,4096", "--mix: expected whole numbers of bytes (1 to 4294967295), comma-separated, got ',4096': an empty item"},
        {"cache --n ''", "--n: expected up to 64 values from 1 to 4096, comma-separated, got '': an empty item"},
        {"cache --n 4,", "got '4,': an empty item"},
        {"latency --fault ''", "--fault: '': expected KEY=VALUE[,KEY=VALUE...], got an empty item"},
        {"rate --stack ub --fault drop=fwd:5,,", "--fault: 'drop=fwd:5,,': expected KEY=VALUE[,KEY=VALUE...], got an empty item"},
    });
}

TEST(CliDefects, HexInfAndNanAreNotNumbersInListsAndOtherCommandsEither)
{
    expect_usage_errors({
        {"loss --loss 0x0.1", "--loss: expected probabilities from 0 to 1, comma-separated, got '0x0.1'"},
        {"loss --loss 0.1,nan", "got '0.1,nan'"},
        {"loss --mix 0x1000", "--mix: expected whole numbers of bytes (1 to 4294967295), comma-separated, got '0x1000'"},
        {"loss --link-ns 0x10", "--link-ns: expected 0 to 1e9 ns, got '0x10'"},
        {"loss --reread-ns inf", "--reread-ns: expected 0 to 1e9 ns, got 'inf'"},
        {"loss --link-gbytes 0x32", "--link-gbytes: expected a rate above 0 GB/s, got '0x32'"},
        {"loss --link-gbps 50", "--link-gbps is now --link-gbytes (the same rate, in gigabytes per second, not gigabits)"},
        {"cache --zipf 0x1", "--zipf: expected a number from 0 to 10, got '0x1'"},
        {"cache --n 0x4", "--n: expected up to 64 values from 1 to 4096, comma-separated, got '0x4'"},
        {"latency --fault loss=0x0.1", "--fault: loss=0x0.1: expected a probability from 0 to 1"},
        {"latency --fault reorder_ns=0x10", "--fault: reorder_ns=0x10: expected a delay in ns from 0 to 1e12"},
    });
}

TEST(CliDefects, RateOnAPathWithoutASendPipelineIsBadUsage)
{
    struct {
        std::string args, expect;
    } cases[] = {
        {"--stack ub --ub-path ub_load", "ubsim rate: --ub-path: path 'ub_load' ("},
        {"--ub-path ub_load", "--ub-path: path 'ub_load'"},
        {"--stack roce --roce-path ub_load --burst 4", "--roce-path: path 'ub_load'"},
    };
    for (auto &c : cases) {
        std::string out;
        EXPECT_EQ(ubsim("rate --quiet " + c.args, &out), 2) << c.args << ": " << out;
        EXPECT_TRUE(has(out, c.expect)) << c.args << ": " << out;
        EXPECT_TRUE(has(out, "ub_load.ini:")) << out;
        EXPECT_TRUE(has(out, "has no send pipeline block: expected '[nic] tx_block = "
                             "ub_send_pipeline' or 'rc_send_pipeline'"))
            << c.args << ": " << out;
    }
    // a path of one's own: named with its file and line
    std::string ini =
        "[path]\nname = noblock\n[clock]\nnic_mhz = 322\n[wire]\none_way_ns = 10\n"
        "gbytes_per_s = 50\n[nic]\ntx_stages = ingress:1\nrx_stages = ingress:1\n"
        "[stage.tx]\ncategory = nic\nnic = initiator.tx\n";
    std::string f = testutil::temp_file(ini), out;
    EXPECT_EQ(ubsim("rate --quiet --stack ub --ub-path noblock --wave /tmp/ubsim_never.vcd --burst 2 "
                    "--config " + f,
                    &out),
              2)
        << out;
    EXPECT_TRUE(has(out, "--ub-path: path 'noblock' (" + f + ":2) has no send pipeline block")) << out;
    // checked before anything runs: no waveform was created
    EXPECT_NE(access("/tmp/ubsim_never.vcd", F_OK), 0);
    std::remove(f.c_str());

    // rate_run keeps its own check
    static config_t cfg;
    char err[512];
    config_init(&cfg);
    ASSERT_EQ(config_load_defaults(&cfg, err, sizeof err), 0) << err;
    rate_opts_t o{};
    o.burst = 2;
    o.payload = 64;
    o.jetties = 1;
    rate_result_t r;
    EXPECT_EQ(rate_run(config_find(&cfg, "ub_load"), &o, &r, err, sizeof err), -1);
    EXPECT_TRUE(has(err, "([nic] tx_block)")) << err;
}

}  // namespace

namespace {

// A small tmpfs mounted on a fresh directory, unmounted (and the directory
// removed) however the test ends. Needs root; `why` says what went wrong.
struct TinyDisk {
    std::string dir, why;
    bool mounted = false;
    explicit TinyDisk(const std::string &size)
    {
        if (geteuid() != 0) {
            why = "mounting a small tmpfs needs root";
            return;
        }
        dir = temp_dir();
        std::string out;
        if (dir.empty() ||
            testutil::run("mount -t tmpfs -o size=" + size + " tmpfs " + dir, &out, true) != 0) {
            why = "mount -t tmpfs failed: " + out;
            return;
        }
        mounted = true;
    }
    ~TinyDisk()
    {
        std::string out;
        if (mounted)
            testutil::run("umount " + dir, &out, true);
        if (!dir.empty())
            rmdir(dir.c_str());
    }
    std::vector<std::string> files() const
    {
        std::vector<std::string> v;
        if (DIR *d = opendir(dir.c_str())) {
            while (dirent *e = readdir(d))
                if (e->d_name[0] != '.')
                    v.push_back(e->d_name);
            closedir(d);
        }
        return v;
    }
    void clear() const
    {
        for (const std::string &f : files())
            std::remove((dir + "/" + f).c_str());
    }
};

TEST(CliDefects, AReportThatCannotBeWrittenFailsWithAMessage)
{
    // A report sent to a full disk was lost with exit status 0 (topology:
    // status 1 and no word why).
    if (access("/dev/full", W_OK) != 0)
        GTEST_SKIP() << "no /dev/full here";
    std::string star3 = std::string(UBSIM_CONFIG_DIR) + "/topo/star3.ini";
    for (const std::string &args : std::vector<std::string>{"latency --path ub_load", "latency --format json", "rate --stack ub --burst 4",
                             "order --format csv", "state", "cache --stack ub --n 2 --reads 8",
                             "incast --senders 1 --ops 2", "loss --messages 2 --loss 0 --scheme sack",
                             "topology " + star3, "--version", "help", "latency --help"}) {
        std::string out; // (stderr is no terminal: no progress on it)
        int rc = testutil::run("(" + testutil::ubsim() + " " + args + " 2>&1 >/dev/full)", &out);
        EXPECT_EQ(rc, 1) << args << ": " << out;
        // (the reason, when the last write still knows it)
        EXPECT_TRUE(has(out, "cannot write to standard output")) << args << ": " << out;
    }
}

TEST(CliDefects, DiffSaysTroubleWhenItsReportCannotBeWritten)
{
    // diff's 1 means "different": a report lost is 2, as for diff and cmp
    if (access("/dev/full", W_OK) != 0)
        GTEST_SKIP() << "no /dev/full here";
    std::string dir = temp_dir(), out;
    ASSERT_FALSE(dir.empty());
    ASSERT_EQ(ubsim("rate --quiet --stack ub --burst 8 --wave " + dir + "/w.fst", &out), 0) << out;
    std::string w = dir + "/w-c.fst";
    EXPECT_EQ(ubsim("diff " + w + " " + w, &out), 0) << out;
    EXPECT_EQ(testutil::run("(" + testutil::ubsim() + " diff " + w + " " + w + " 2>&1 >/dev/full)", &out), 2)
        << out;
    EXPECT_TRUE(has(out, "ubsim diff: cannot write to standard output")) << out;
    for (const char *f : {"/w.fst", "/w-c.fst"})
        std::remove((dir + f).c_str());
    rmdir(dir.c_str());
}

TEST(CliDefects, HelpAndVersionAreCommandsLikeTheOthers)
{
    std::string a, b;
    EXPECT_EQ(ubsim("help version", &a), 0) << a;
    EXPECT_TRUE(has(a, "usage: ubsim version")) << a;
    EXPECT_EQ(ubsim("help help", &a), 0) << a;
    EXPECT_EQ(ubsim("help", &b), 0) << b;
    EXPECT_EQ(a, b);
    EXPECT_EQ(ubsim("--help latency", &a), 0) << a;
    EXPECT_EQ(ubsim("latency --help", &b), 0) << b;
    EXPECT_EQ(a, b);
    EXPECT_EQ(ubsim("version --foo", &a), 2) << a;
    EXPECT_TRUE(has(a, "ubsim version: takes no arguments, got '--foo'")) << a;
    EXPECT_EQ(ubsim("--version extra", &a), 2) << a;
    EXPECT_TRUE(has(a, "takes no arguments, got 'extra'")) << a;
}

TEST(CliDefects, SectionHeadersAreReadWholeAndAnEmptyStageIsNotDropped)
{
    // A header without its ']' was skipped (the error named a key on the
    // next line), text after a header was ignored, and an empty
    // [stage.NAME] vanished from the path.
    std::string head = "[path]\nname = hdr\n", rest = "nic_mhz = 322\n[wire]\none_way_ns = 10\n"
                                                     "gbytes_per_s = 50\n[stage.a]\ncategory = software\n"
                                                     "delay_ns = 5\n";
    expect_config_errors({
        {head + "[clock\n" + rest, ":3: expected a section header '[name]', got '[clock'"},
        {head + "clock]\n" + rest, ":3: expected '[section]', 'key = value' or a comment, got 'clock]'"},
        {head + "[clock] trailing\n" + rest, ":3: expected a section header '[name]', got '[clock] trailing'"},
        {head + "[clock]\n" + rest + "[stage.b]\n", ":11: path 'hdr': [stage.b]: expected one of delay_ns, nic, wire"},
        {head + "[clock]\n" + rest + "[stage.b c]\ndelay_ns = 1\n", ":11: [stage.b c]: expected a stage name of letters"},
        {"[path]\nname = a,b\"c\n[clock]\n" + rest, ":2: [path] name: expected letters, digits, '_', '-' or '.'"},
    });
    // a comment after a header, and a byte-order mark, are fine
    std::string ok = testutil::temp_file("\xEF\xBB\xBF" + head + "[clock] ; the NIC\n" + rest), out;
    EXPECT_EQ(ubsim("latency --quiet --config " + ok, &out), 0) << out;
    std::remove(ok.c_str());
}

TEST(CliDefects, WireSettingsAreRefusedWhereTheTopologySetsTheLinks)
{
    std::string star3 = std::string(UBSIM_CONFIG_DIR) + "/topo/star3.ini";
    expect_usage_errors({
        {"latency --path ub_async --topology " + star3 + " --set wire.one_way_ns=500",
         "--set wire.one_way_ns=500: with --topology each link's delay and bandwidth are its one_way_ns"},
        {"rate --topology " + star3 + " --set wire.gbytes_per_s=1", "--set wire.gbytes_per_s=1: with --topology"},
        {"incast --ops 4 --set wire.one_way_ns=500", "ubsim incast: --set wire.one_way_ns=500: each link's"},
        // incast's own mistakes are usage errors like rate's
        {"incast --path ub_load", "ubsim incast: path 'ub_load' has no send pipeline"},
        {"incast --topology " + std::string(UBSIM_CONFIG_DIR) + "/topo/line4.ini",
         "must reach d through exactly one switch"},
    });
}

TEST(CliDefects, ConflictingAndRepeatedOptionsAreRefused)
{
    expect_usage_errors({
        {"loss --message 100 --mix 5000", "--message and --mix: give one"},
        {"loss --loss 0.5 --fault loss=0.1 --scheme sack", "--loss and --fault: give one"},
        {"latency --fault loss=0.1,loss=0.2", "--fault: loss=0.1 and loss=0.2: the same setting twice"},
        {"latency --fault fwd.loss=0.2,loss=0.1", "--fault: fwd.loss=0.2 and loss=0.1: the same setting twice"},
        {"latency --fault dup=0.1,back.dup=0.1", "--fault: dup=0.1 and back.dup=0.1: the same setting twice"},
        {"latency --fault drop=fwd:1,drop=fwd:1", "--fault: drop=fwd:1 and drop=fwd:1: the same setting twice"},
        {"latency --fault drop=fwd:0", "--fault: drop=fwd:0: expected [LINK.]DIR:K with K a whole number from 1"},
        {"rate --seed 9223372036854775808", "--seed: expected a whole number from 0 to 9223372036854775807"},
    });
    std::string out; // two drops are two entries, not a repeat
    EXPECT_EQ(ubsim("latency --quiet --path ub_async --ops 3 --fault drop=fwd:1,drop=fwd:2", &out), 0) << out;
}

TEST(CliDefects, ResultsWithNothingMeasuredSayNothingRatherThanZero)
{
    std::string out;
    ASSERT_EQ(ubsim("loss --quiet --messages 3 --loss 1 --scheme sack --retry-max 1", &out), 0) << out;
    EXPECT_TRUE(has(out, "failed")) << out;
    EXPECT_TRUE(has(out, "   -          -          -")) << out;
    ASSERT_EQ(ubsim("loss --quiet --messages 3 --loss 1 --scheme sack --retry-max 1 --format json", &out), 0);
    EXPECT_TRUE(has(out, "\"mean_ns\":\tnull")) << out;
    EXPECT_TRUE(has(out, "\"messages_failed\":\t3")) << out;
    ASSERT_EQ(ubsim("latency --quiet --path ub_async --fault drop=fwd:1 --format json", &out), 0) << out;
    EXPECT_TRUE(has(out, "\"sim_p50_ns\":\tnull")) << out;
    // the summary shows what waiting added, when anything did
    ASSERT_EQ(ubsim("latency --quiet --set context.cache_bytes=64", &out), 0) << out;
    EXPECT_TRUE(has(out, "serialisation      other")) << out;
    ASSERT_EQ(ubsim("latency --quiet", &out), 0) << out;
    EXPECT_FALSE(has(out, "other")) << out;
}

TEST(CliDefects, WordsAgreeWithTheirNumbers)
{
    std::string out;
    ASSERT_EQ(ubsim("cache --quiet --stack ub --n 2 --reads 1", &out), 0) << out;
    EXPECT_TRUE(has(out, ", 1 read per point")) << out;
    ASSERT_EQ(ubsim("rate --quiet --burst 4 --slots 100", &out), 0) << out;
    EXPECT_TRUE(has(out, "slots 100 (a burst no larger than that is not limited)")) << out;
    ASSERT_EQ(ubsim("state --m 10 --l 5", &out), 0) << out;
    EXPECT_TRUE(has(out, "L = 5, P = 5")) << out; // P grows with L unless given, as --help says
    ASSERT_EQ(ubsim("state --help", &out), 0) << out;
    EXPECT_TRUE(has(out, "with --l and no --p, P = L")) << out;
    ASSERT_EQ(ubsim("state --n 16777216 --qp-bytes 4294967296", &out), 0) << out;
    EXPECT_TRUE(has(out, ">= 2^64")) << out;
    EXPECT_FALSE(has(out, "18446744073709551615")) << out;
}

TEST(CliDefects, ATopologySwitchLinkedToNothingIsAnError)
{
    std::string lone = testutil::temp_file("[node.A]\n[node.B]\n[switch.S]\nports = 2\n[link.ab]\na = A\nb = B\n"),
                out;
    EXPECT_EQ(ubsim("topology " + lone, &out), 2) << out;
    EXPECT_TRUE(has(out, "switch 'S' is linked to nothing")) << out;
    std::remove(lone.c_str());
    // a topology without a name is called by its file's
    std::string unnamed = testutil::temp_file("[node.A]\n[node.B]\n[link.ab]\na = A\nb = B\n");
    EXPECT_EQ(ubsim("latency --quiet --path ub_async --topology " + unnamed, &out), 0) << out;
    std::remove(unnamed.c_str());
    std::string base = unnamed.substr(unnamed.rfind('/') + 1);
    base = base.substr(0, base.size() - 4);
    EXPECT_TRUE(has(out, "topology " + base + ", A to B")) << out;
    // ... made fit to stand unquoted in a report
    std::string odd = testutil::temp_file("[node.A]\n[node.B]\n[link.ab]\na = A\nb = B\n", ",x y.ini");
    EXPECT_EQ(ubsim("latency --quiet --path ub_async --topology '" + odd + "'", &out), 0) << out;
    std::remove(odd.c_str());
    EXPECT_TRUE(has(out, "_x_y, A to B")) << out;
}

TEST(CliDefects, AFullDiskFailsEveryWaveformWithAMessageAndStatus1)
{
    // On a full disk the FST writer used to die of SIGBUS (its FILE.hier
    // mapping) or leave a cut file with exit status 0; the sizes below reach
    // both, for ubsim's own FST and VCD dumps and for the RTL's FST files.
    struct {
        const char *size;
        const char *args;
    } cases[] = {
        {"8k", "latency --wave D/x.fst"},
        {"8k", "latency --wave D/x.vcd"},
        {"8k", "rate --stack ub --burst 64 --wave D/x.fst"},
        {"8k", "rate --stack ub --burst 64 --wave D/x.vcd"},
        {"8k", "rate --stack roce --burst 64 --backend rtl --wave D/x.vcd"},
        {"8k", "latency --backend lockstep --wave D/x.fst"},
        {"32k", "latency --backend rtl --ops 100 --wave D/x.fst"},
        {"64k", "rate --stack ub --burst 64 --backend rtl --wave D/x.vcd"},
    };
    for (auto &c : cases) {
        TinyDisk disk(c.size);
        if (!disk.mounted)
            GTEST_SKIP() << disk.why;
        std::string args = c.args, out;
        args.replace(args.find("D/"), 1, disk.dir);
        int rc = ubsim(args + " --quiet", &out);
        EXPECT_EQ(rc, 1) << c.size << " " << args << ": " << out; // -1: killed by a signal
        EXPECT_TRUE(has(out, "could not")) << c.size << " " << args << ": " << out;
        EXPECT_TRUE(has(out, disk.dir + "/x")) << c.size << " " << args << ": " << out;
        for (const std::string &f : disk.files())
            EXPECT_EQ(f.find(".hier"), std::string::npos) << c.size << " " << args << ": " << f;
    }
    // with room to spare the same runs write whole files
    TinyDisk disk("8m");
    if (!disk.mounted)
        GTEST_SKIP() << disk.why;
    std::string out;
    EXPECT_EQ(ubsim("rate --quiet --stack ub --burst 64 --backend rtl --wave " + disk.dir + "/x.fst",
                    &out),
              0)
        << out;
    char err[512];
    for (const char *f : {"/x.fst", "/x-rtl.fst"})
        EXPECT_EQ(wave_fst_verify((disk.dir + f).c_str(), err, sizeof err), 0) << err;
    EXPECT_EQ(disk.files().size(), 2u);
}

TEST(CliDefects, HostileConfigAndTopologyFilesAreRefusedBeforeParsing)
{
    // a device that never ends: refused at once (not read into memory without end)
    expect_usage_errors({
        {"latency --topology /dev/zero", "--topology: /dev/zero:1:1: not a text file: a NUL byte (expected a topology file"},
        {"latency --config /dev/zero", "/dev/zero:1:1: not a text file: a NUL byte (expected a config file"},
        {"rate --topology /dev/zero", "--topology: /dev/zero:1:1: not a text file"},
    });
    expect_topology_errors({{"/dev/zero", "/dev/zero:1:1: not a text file: a NUL byte (expected a topology file"}});
    // a file over the size limit, though text
    std::string big = "[topology]\nname = big\n";
    while (big.size() <= 1024 * 1024)
        big += "; " + std::string(70, 'x') + "\n";
    const std::string bigf = testutil::temp_file(big);
    const std::string bigc = testutil::temp_file("[path]\nname = big\n" + big.substr(21));
    // (a character the limit cuts in two is no fault of the file's)
    std::string cut = big.substr(0, 1024 * 1024 - 1);
    cut.back() = '\n';
    const std::string cutf = testutil::temp_file(cut + "\xc3\xa9\n");
    // control characters and what is not UTF-8, at their line and column
    const std::string ctl = testutil::temp_file("[topology]\nname = a\x01" "b\n");
    const std::string latin1 = testutil::temp_file("[path]\nname = x\n; caf\xe9\n");
    const std::string overlong = testutil::temp_file("[path]\nname = x\n; \xc0\xaf\n");
    std::string ub_async;
    {
        FILE *f = std::fopen(UBSIM_SOURCE_DIR "/configs/ub_async.ini", "r");
        ASSERT_TRUE(f);
        ub_async = testutil::slurp(f);
    }
    const std::string utf8 = testutil::temp_file(ub_async + "; caf\xc3\xa9 \xe2\x86\x92 ok\n");
    expect_topology_errors({
        {bigf, bigf + ": larger than 1048576 bytes (expected a topology file"},
        {cutf, cutf + ": larger than 1048576 bytes (expected a topology file"},
        {ctl, ctl + ":2:9: not a text file: byte 0x01"},
    });
    expect_usage_errors({
        {"latency --config " + bigc, bigc + ": larger than 1048576 bytes (expected a config file"},
        {"latency --config " + latin1, latin1 + ":3:6: not a text file: byte 0xe9"},
        {"latency --config " + overlong, overlong + ":3:3: not a text file: byte 0xc0"},
    });
    // UTF-8 text in a comment is text
    std::string out;
    EXPECT_NE(ubsim("latency --quiet --ops 1 --config " + utf8, &out), 2) << out;
    EXPECT_FALSE(has(out, "not a text file")) << out;
    // the library refuses the same text given as a string
    static config_t cfg;
    char err[512];
    config_init(&cfg);
    EXPECT_EQ(config_load_string(&cfg, "s", "[path]\nname = x\x7f\n", err, sizeof err), -1);
    EXPECT_TRUE(has(err, "s:2:9: not a text file: byte 0x7f")) << err;
    for (const std::string &f : {bigf, bigc, cutf, ctl, latin1, overlong, utf8})
        std::remove(f.c_str());
}

TEST(CliDefects, AKeyBeforeAnySectionHasOneMessageEverywhere)
{
    const std::string topo = testutil::temp_file("name = x\n[link.a]\n");
    const std::string cfg = testutil::temp_file("; x\nname = x\n[path]\n");
    expect_topology_errors({{topo, topo + ":1: name: a key before any section (expected a '[section]' header first)"}});
    expect_usage_errors({
        {"latency --config " + cfg, cfg + ":2: name: a key before any section (expected a '[section]' header first)"},
    });
    std::string out; // (not the keys of a link)
    ubsim("topology " + topo, &out);
    EXPECT_FALSE(has(out, "one_way_ns")) << out;
    std::remove(topo.c_str());
    std::remove(cfg.c_str());
}

TEST(CliDefects, AnOptionOfOneValueGivenTwiceIsRefused)
{
    expect_usage_errors({
        {"latency --fault loss=0.5 --fault loss=0.0", "--fault: given twice (give it once, with every fault key in one comma-separated list)"},
        {"latency --fault loss=0.5 --fault=dup=0.1", "--fault: given twice"},
        {"latency --topology configs/topo/line4.ini --topology configs/topo/star3.ini", "--topology: given twice"},
        {"rate --stack ub --stack roce", "--stack: given twice"},
        {"latency --ops 2 --ops=3", "--ops: given twice"},
        {"incast --path ub_async --path pcie_nic", "--path: given twice"},
        {"loss --scheme sack --scheme gbn", "--scheme: given twice"},
        {"cache --n 1,2 --n 3", "--n: given twice"},
    });
    // the lists that add up on purpose
    std::string out;
    EXPECT_EQ(ubsim("latency --quiet --ops 1 --path ub_async --path ub_load --set clock.nic_mhz=322 "
                    "--set wire.one_way_ns=100", &out), 0) << out;
    EXPECT_TRUE(has(out, "ub_async") && has(out, "ub_load")) << out;
    EXPECT_EQ(ubsim("rate --quiet --stack ub --burst 2 --burst 4", &out), 0) << out;
}

TEST(CliDefects, RateSaysNothingOfSlotTimesWhenNoReadCompleted)
{
    // a switch whose buffer holds no packet: every read is dropped
    std::string topo;
    {
        FILE *f = std::fopen(UBSIM_SOURCE_DIR "/configs/topo/star3.ini", "r");
        ASSERT_TRUE(f);
        topo = testutil::slurp(f);
        size_t at = topo.find("buffer_bytes = 262144");
        ASSERT_NE(at, std::string::npos);
        topo.replace(at, 21, "buffer_bytes = 64");
    }
    const std::string file = testutil::temp_file(topo);
    std::string out;
    ASSERT_EQ(ubsim("rate --quiet --burst 20 --topology " + file, &out), 0) << out;
    EXPECT_TRUE(has(out, "ub         20     20        -          -     0.000")) << out;
    EXPECT_TRUE(has(out, "-  -\n")) << out; // bound and binding
    ASSERT_EQ(ubsim("rate --quiet --burst 20 --format json --topology " + file, &out), 0) << out;
    EXPECT_TRUE(has(out, "\"slot_time_ns\":\tnull")) << out;
    EXPECT_TRUE(has(out, "\"idle_slot_time_ns\":\tnull")) << out;
    EXPECT_TRUE(has(out, "\"min_gbytes_per_s\":\tnull")) << out;
    EXPECT_TRUE(has(out, "\"binding\":\tnull")) << out;
    ASSERT_EQ(ubsim("rate --quiet --burst 20 --format csv --stack ub --topology " + file, &out), 0) << out;
    EXPECT_TRUE(has(out, ",0,1,,,0.000000,")) << out; // completed 0, conserved, T and T0 empty
    // every read lost on the wire, the one read alone completes: T is
    // unknown, the bound (which does not use T) is shown
    ASSERT_EQ(ubsim("rate --quiet --burst 20 --stack ub --fault loss=1", &out), 0) << out;
    EXPECT_TRUE(has(out, "        -     0.000")) << out;
    EXPECT_TRUE(has(out, "  N*m/T0\n")) << out;
    // a run in which reads complete still shows them all
    ASSERT_EQ(ubsim("rate --quiet --burst 20 --stack ub", &out), 0) << out;
    EXPECT_FALSE(has(out, "        -")) << out;
    std::remove(file.c_str());
}

TEST(CliDefects, AWaveformThatCannotBeCreatedIsBadUsageOnEveryCommand)
{
    expect_usage_errors({
        {"latency --ops 1 --wave /nonexistent_dir/x.fst", "--wave: cannot create '/nonexistent_dir/x.fst'"},
        {"rate --stack ub --burst 4 --wave /nonexistent_dir/x.fst", "--wave: cannot create '/nonexistent_dir/x.fst'"},
        {"loss --scheme sack --fault loss=0.01 --wave /nonexistent_dir/x.fst", "--wave: cannot create '/nonexistent_dir/x.fst': No such file or directory"},
    });
}

TEST(CliDefects, VectorsMakeOnlyTheFolderNamed)
{
    const std::string d = temp_dir();
    std::string out;
    EXPECT_EQ(ubsim("latency --quiet --ops 1 --path ub_load --vectors " + d + "/a/b", &out), 2) << out;
    EXPECT_TRUE(has(out, "cannot create folder '" + d + "/a/b': No such file or directory")) << out;
    EXPECT_NE(access((d + "/a").c_str(), F_OK), 0) << "a folder above the one named was made";
    EXPECT_EQ(ubsim("latency --quiet --ops 1 --path ub_load --vectors " + d + "/a", &out), 0) << out;
    EXPECT_EQ(access((d + "/a").c_str(), F_OK), 0);
    testutil::run("rm -rf " + d, &out);
}

// A section header after a form feed or carriage return is a section header
// (the INI library skips them as it skips spaces); it was once taken for a key
// line, and the key after it indexed the section before the first
TEST(CliDefects, AHeaderAfterAFormFeedOrCarriageReturnOpensItsSection)
{
    static topo_file_t tf;
    char err[512];
    for (const char *lead : {"\f", "\r", " \f\t"}) {
        std::string t = std::string(lead) + "[switch.S]\nports = 3\n" + lead + "[link.x]\na = A\nb = S:0\n"
                        "[node.A]\n[node.B]\n[link.y]\na = B\nb = S:1\n";
        err[0] = 0;
        EXPECT_EQ(topo_load_text(&tf, "t", t.c_str(), err, sizeof err), 0) << err;
        t = std::string(lead) + "[nik.:AD]\na = A\n";
        EXPECT_EQ(topo_load_text(&tf, "t", t.c_str(), err, sizeof err), -1);
        EXPECT_TRUE(has(err, "t:1: unknown section [nik.:AD]")) << err;
    }
}

// (run only by NoTestCanHangTheSuite, in a child: it never ends)
TEST(Watchdog, DISABLED_AHangingTest)
{
    for (;;)
        pause();
}

TEST(Watchdog, NoTestCanHangTheSuite)
{
    std::string out;
    std::string self = std::string(UBSIM_BUILD_DIR) + "/ubsim_tests";
    int rc = testutil::run("env -u UBSIM_VECTORS UBSIM_TEST_TIMEOUT=1 " + self + " --gtest_also_run_disabled_tests "
                           "--gtest_filter=Watchdog.DISABLED_AHangingTest", &out, true);
    EXPECT_EQ(rc, 1) << out;
    EXPECT_TRUE(has(out, "[  TIMEOUT ] Watchdog.DISABLED_AHangingTest did not end within 1 s")) << out;
    EXPECT_TRUE(has(out, "\ntests: 0 passed, 1 failed, 0 skipped\n")) << out;
}

TEST(Watchdog, ACommandThatDoesNotEndFailsTheTestNamingIt)
{
    const char *was = std::getenv("UBSIM_TEST_SUBPROCESS_TIMEOUT");
    const std::string before = was ? was : "";
    setenv("UBSIM_TEST_SUBPROCESS_TIMEOUT", "1", 1);
    static std::string out;
    static int rc;
    EXPECT_NONFATAL_FAILURE(rc = testutil::run("sleep 30", &out),
                            "did not end within 1 s (UBSIM_TEST_SUBPROCESS_TIMEOUT): sleep 30");
    if (was)
        setenv("UBSIM_TEST_SUBPROCESS_TIMEOUT", before.c_str(), 1);
    else
        unsetenv("UBSIM_TEST_SUBPROCESS_TIMEOUT");
    EXPECT_EQ(rc, 124);
}

}  // namespace
