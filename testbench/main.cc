// Test runner: GoogleTest, plus a closing line "N passed, N failed" that CI
// reads whatever runner it expects. With UBSIM_VECTORS=DIR every block
// instance the tests make writes its test vectors under DIR (vectors.h; the
// replay test uses it on brief random runs).
//
// No test can hang the suite: each has UBSIM_TEST_TIMEOUT seconds (default
// 300; 0 turns the limit off). A test still running then is reported by
// name as failed, with the closing line counting it, and the program ends
// with exit status 1 (a test stuck in a loop cannot be abandoned and the
// next one run in the same process). Every command a test starts has a
// limit of its own (testutil::run, UBSIM_TEST_SUBPROCESS_TIMEOUT).
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

extern "C" {
#include "vectors.h"
}

namespace {

std::atomic<int> n_passed{0}, n_failed{0}, n_skipped{0};
char running[512];          // "Suite.Name" of the test under way
unsigned limit_s = 300;     // UBSIM_TEST_TIMEOUT

// (async-signal-safe output for the handler below)
void put(const char *s) { ssize_t r = write(1, s, std::strlen(s)); (void)r; }
void put_num(long v)
{
    char b[24];
    int i = (int)sizeof b;
    b[--i] = 0;
    do
        b[--i] = (char)('0' + v % 10);
    while ((v /= 10) > 0 && i > 0);
    put(b + i);
}

extern "C" void on_timeout(int)
{
    put("\n[  TIMEOUT ] ");
    put(running);
    put(" did not end within ");
    put_num((long)limit_s);
    put(" s (UBSIM_TEST_TIMEOUT): failed; the remaining tests are not run\n");
    put("tests: ");
    put_num(n_passed.load());
    put(" passed, ");
    put_num(n_failed.load() + 1);
    put(" failed, ");
    put_num(n_skipped.load());
    put(" skipped\n");
    _exit(1);
}

class Summary : public testing::EmptyTestEventListener {
    void OnTestStart(const testing::TestInfo &t) override
    {
        std::snprintf(running, sizeof running, "%s.%s", t.test_suite_name(), t.name());
        if (limit_s)
            alarm(limit_s);
    }
    void OnTestEnd(const testing::TestInfo &t) override
    {
        alarm(0);
        const testing::TestResult *r = t.result();
        if (r->Skipped())
            n_skipped++;
        else if (r->Failed())
            n_failed++;
        else
            n_passed++;
    }
    void OnTestProgramEnd(const testing::UnitTest &u) override
    {
        std::printf("tests: %d passed, %d failed, %d skipped\n", u.successful_test_count(),
                    u.failed_test_count(), u.skipped_test_count());
        std::fflush(stdout);
    }
};
}  // namespace

int main(int argc, char **argv)
{
    testing::InitGoogleTest(&argc, argv);
    if (const char *s = std::getenv("UBSIM_TEST_TIMEOUT")) {
        char *end;
        unsigned long v = std::strtoul(s, &end, 10);
        if (!*s || *end || v > 86400) {
            std::fprintf(stderr, "UBSIM_TEST_TIMEOUT=%s: expected whole seconds, 0 to 86400 "
                         "(0: no limit)\n", s);
            return 2;
        }
        limit_s = (unsigned)v;
    }
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timeout;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, nullptr);
    testing::UnitTest::GetInstance()->listeners().Append(new Summary);
    const char *vec = std::getenv("UBSIM_VECTORS");
    if (vec && *vec) {
        char err[600];
        std::string cmd = "ubsim_tests --gtest_filter=" + testing::GTEST_FLAG(filter);
        if (block_vectors_begin(vec, cmd.c_str(), "", err, sizeof err)) {
            std::fprintf(stderr, "UBSIM_VECTORS: %s\n", err);
            return 2;
        }
    }
    int rc = RUN_ALL_TESTS();
    if (vec && *vec) {
        char err[600];
        if (block_vectors_end(err, sizeof err)) {
            std::fprintf(stderr, "UBSIM_VECTORS: %s\n", err);
            rc = rc ? rc : 1;
        }
    }
    return rc;
}
