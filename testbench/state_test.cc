// ubsim state: the state formulas and their overflow points, checked against
// a count done here, and the command's output.
#include <gtest/gtest.h>

#include <cjson/cJSON.h>

#include <string>

extern "C" {
#include "state.h"
}

#include "test_util.h"

namespace {

TEST(State, BytesOfBothSchemesAtAThousandEndpoints)
{
    state_cfg_t c;
    state_cfg_default(&c);
    state_scheme_t s[STATE_MAX_SCHEMES];
    ASSERT_EQ(state_eval(&c, s), 2);
    // 512 B per connection and 32 B per endpoint, against 52 B per endpoint
    // and 56 B per remote host
    EXPECT_EQ(s[0].bytes, 512ull * 1024 * 1024 + 32ull * 1024);
    EXPECT_EQ(s[1].bytes, 52ull * 1024 + 56ull * 1024);
    EXPECT_FALSE(s[0].fits);
    EXPECT_TRUE(s[1].fits);
}

// The overflow point is the first N whose state exceeds the cache: checked
// by counting up from 1.
TEST(State, OverflowPointsAreTheFirstThatDoNotFit)
{
    state_cfg_t c;
    state_cfg_default(&c);
    state_scheme_t s[STATE_MAX_SCHEMES];
    state_eval(&c, s);
    auto pair = [&](uint64_t n) { return 512 * n * n + 32 * n; };
    auto ub = [&](uint64_t n) { return 52 * n + 56 * n; };
    uint64_t n = 1;
    while (pair(n) <= c.cache_bytes)
        n++;
    EXPECT_EQ(s[0].overflow_at, n);
    n = 1;
    while (ub(n) <= c.cache_bytes)
        n++;
    EXPECT_EQ(s[1].overflow_at, n);
    // the published figures for a 256 KiB cache
    EXPECT_EQ(s[0].overflow_at, 23u);
    EXPECT_EQ(s[1].overflow_at, 2428u);
}

TEST(State, GeneralFormWithGroupsAndAFixedTargetCount)
{
    state_cfg_t c;
    state_cfg_default(&c);
    c.general = 1;
    c.l = 100;
    c.p = 50;
    c.p_given = 1;
    c.e = 20;
    c.r = 32;
    c.t = 56;
    c.k = 3;
    state_scheme_t s[STATE_MAX_SCHEMES];
    ASSERT_EQ(state_eval(&c, s), 5);
    EXPECT_EQ(s[2].bytes, 100u * 20 + 100u * 50 * (32 + 56));
    EXPECT_EQ(s[3].bytes, 100u * 20 + 100u * 50 * 32 + 50u * 56);
    EXPECT_EQ(s[4].bytes, 100u * 20 + 100u * 50 * 32 + 3u * 50 * 56);
    // P stays 50 while L grows
    uint64_t l = 1;
    while (l * 20 + l * 50 * 32 + 50 * 56 <= c.cache_bytes)
        l++;
    EXPECT_EQ(s[3].overflow_at, l);
}

TEST(State, FitsEverywhereHasNoOverflowPoint)
{
    state_cfg_t c;
    state_cfg_default(&c);
    c.cache_bytes = 1ull << 40;
    state_scheme_t s[STATE_MAX_SCHEMES];
    state_eval(&c, s);
    EXPECT_EQ(s[1].overflow_at, 0u); // 108 B * 2^24 < 1 TiB
    EXPECT_GT(s[0].overflow_at, 0u);
}

TEST(StateCli, JsonAndRefusals)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " state --format json", &out), 0) << out;
    cJSON *j = cJSON_Parse(out.c_str());
    ASSERT_NE(j, nullptr) << out;
    cJSON *arr = cJSON_GetObjectItem(j, "schemes");
    ASSERT_EQ(cJSON_GetArraySize(arr), 2);
    cJSON *p = cJSON_GetArrayItem(arr, 0);
    EXPECT_STREQ(cJSON_GetObjectItem(p, "name")->valuestring, "pairwise");
    EXPECT_TRUE(cJSON_IsNumber(cJSON_GetObjectItem(p, "bytes")));
    EXPECT_TRUE(cJSON_IsBool(cJSON_GetObjectItem(p, "fits")));
    EXPECT_EQ(cJSON_GetObjectItem(p, "overflow_at")->valuedouble, 23);
    cJSON_Delete(j);
    ASSERT_EQ(testutil::run(testutil::ubsim() + " state --n 4096 --cache-bytes 1048576", &out), 0);
    EXPECT_NE(out.find("ub_shared"), std::string::npos);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " state --n 0", &out, true), 2);
    EXPECT_NE(out.find("--n"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(testutil::ubsim() + " state --format xml", &out, true), 2);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " state --bogus", &out, true), 2);
    // with L alone, P grows with L: the bytes and the overflow point agree
    ASSERT_EQ(testutil::run(testutil::ubsim() + " state --l 10 --format json", &out), 0);
    j = cJSON_Parse(out.c_str());
    ASSERT_NE(j, nullptr) << out;
    arr = cJSON_GetObjectItem(j, "schemes");
    cJSON *priv = cJSON_GetArrayItem(arr, 2);
    EXPECT_STREQ(cJSON_GetObjectItem(priv, "name")->valuestring, "private");
    double bytes = cJSON_GetObjectItem(priv, "bytes")->valuedouble;
    double at = cJSON_GetObjectItem(priv, "overflow_at")->valuedouble;
    EXPECT_EQ(bytes, 10.0 * 52 + 10.0 * 10 * 56);
    EXPECT_EQ(cJSON_IsTrue(cJSON_GetObjectItem(priv, "fits")), at > 10);
    EXPECT_EQ(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "general"), "p")->valuedouble, 10);
    cJSON_Delete(j);
    ASSERT_EQ(testutil::run(testutil::ubsim() + " state --k 4 --format csv", &out), 0);
    EXPECT_NE(out.find("groups"), std::string::npos) << out;
}

} // namespace
