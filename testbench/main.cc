// Test runner: GoogleTest, plus a closing line "N passed, N failed" that CI
// reads whatever runner it expects.
#include <gtest/gtest.h>

#include <cstdio>

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
    return RUN_ALL_TESTS();
}
