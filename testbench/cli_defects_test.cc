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
