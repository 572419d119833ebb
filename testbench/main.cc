// Test runner: GoogleTest, plus a closing line "N passed, N failed" that CI
// reads whatever runner it expects. With UBSIM_VECTORS=DIR every block
// instance the tests make writes its test vectors under DIR (vectors.h; the
// replay test uses it on brief random runs).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" {
#include "vectors.h"
}

namespace {
class Summary : public testing::EmptyTestEventListener {
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
