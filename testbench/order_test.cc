// The order scenario (`ubsim order`): ordering costs nothing unless asked
// for (24 cycles to the first packet for every mode, order and fence), a
// request behind up to 4 predecessors goes within 50 cycles of the last
// completion, and one initiator's stalled request holds no one else on UB
// (8 requests of 4 others within 78 cycles), while on the RoCE baseline it
// blocks everything behind it on its queue pair. The same figures on C, RTL
// and lockstep.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_util.h"

extern "C" {
#include "order.h"
}

namespace {

TEST(Order, TheThreeClaimsOnEveryBackend)
{
    order_result_t c;
    char err[400];
    ASSERT_EQ(order_run(BACKEND_C, &c, err, sizeof err), 0) << err;
    ASSERT_EQ(c.n_first, 24); // 4 modes x 3 orders x 2 fences
    for (int i = 0; i < c.n_first; i++)
        EXPECT_EQ(c.first[i].cycles, 24) << (int)c.first[i].mode << " " << (int)c.first[i].order;
    ASSERT_EQ(c.n_gated, 4);
    for (int i = 0; i < c.n_gated; i++) {
        EXPECT_GT(c.gated[i].cycles, 0); // it waited for the completion
        EXPECT_LE(c.gated[i].cycles, 50) << c.gated[i].predecessors;
    }
    ASSERT_EQ(c.n_iso, 3);
    EXPECT_STREQ(c.iso[0].stack, "ub");
    EXPECT_FALSE(c.iso[0].blocked);
    EXPECT_LE(c.iso[0].cycles, 78);
    EXPECT_STREQ(c.iso[1].qps, "shared");
    EXPECT_TRUE(c.iso[1].blocked); // behind the waiting request on its queue pair
    EXPECT_STREQ(c.iso[2].qps, "separate");
    EXPECT_FALSE(c.iso[2].blocked);
    for (backend_kind_t be : {BACKEND_RTL, BACKEND_LOCKSTEP}) {
        order_result_t x;
        ASSERT_EQ(order_run(be, &x, err, sizeof err), 0) << err;
        EXPECT_EQ(x.lockstep_mismatches, 0u);
        EXPECT_EQ(0, memcmp(x.first, c.first, sizeof c.first)) << backend_name(be);
        EXPECT_EQ(0, memcmp(x.gated, c.gated, sizeof c.gated)) << backend_name(be);
        for (int i = 0; i < 3; i++)
            EXPECT_EQ(x.iso[i].cycles, c.iso[i].cycles) << backend_name(be) << " " << i;
    }
}

TEST(OrderCli, PrintsTheThreeResultsInEveryFormat)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " order", &out), 0) << out;
    EXPECT_NE(out.find("first packet"), std::string::npos);
    EXPECT_NE(out.find("roce   shared"), std::string::npos) << out;
    EXPECT_NE(out.find("blocked"), std::string::npos);
    ASSERT_EQ(testutil::run(testutil::ubsim() + " order --format json", &out), 0);
    for (const char *k : {"\"first_packet\"", "\"gated_wait\"", "\"isolation\"", "\"predecessors\"",
                          "\"cycles_to_all_sent\"", "\"blocked\":\ttrue"})
        EXPECT_NE(out.find(k), std::string::npos) << k;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " order --format csv --backend lockstep", &out), 0);
    EXPECT_NE(out.find("measure,mode,order,fence"), std::string::npos);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " order --fault loss=1", &out, true), 2);
    EXPECT_NE(out.find("unknown option '--fault'"), std::string::npos) << out;
}

} // namespace
