// Topologies: the default two nodes, a star through one switch, a line of
// switches; every route is a shortest path, the same every time; bad
// topologies say what is wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "topo.h"
}

namespace {

TEST(Topo, TheDefaultIsTwoNodesBackToBack)
{
    topo_t t;
    topo_default(&t);
    char err[256];
    ASSERT_EQ(topo_check(&t, err, sizeof err), 0) << err;
    EXPECT_EQ(t.n_nodes, 2);
    EXPECT_EQ(t.n_switches, 0);
    ASSERT_EQ(t.n_links, 1);
    EXPECT_DOUBLE_EQ(t.link[0].gbytes_per_s, 50.0);
    EXPECT_DOUBLE_EQ(t.link[0].one_way_ns, 100.0);
    EXPECT_EQ(topo_routes(&t, err, sizeof err), 0) << err;
}

TEST(Topo, AStarThroughOneSwitchRoutesEachNodeToItsPort)
{
    topo_t t;
    topo_init(&t);
    char err[256];
    ASSERT_EQ(topo_add_switch(&t, "S", 8, err, sizeof err), 0) << err;
    const char *names[] = {"n0", "n1", "n2"};
    for (int i = 0; i < 3; i++) {
        ASSERT_EQ(topo_add_node(&t, names[i], err, sizeof err), i) << err;
        std::string port = "S:" + std::to_string(5 - i);
        ASSERT_GE(topo_add_link(&t, names[i], port.c_str(), 50, 100, err, sizeof err), 0) << err;
    }
    ASSERT_EQ(topo_routes(&t, err, sizeof err), 0) << err;
    for (int i = 0; i < 3; i++)
        EXPECT_EQ(t.sw[0].route[i], 5 - i);
}

// a - S1 - S2 - b, with c on S1 and d on S2, and a second, parallel link
// between the switches on higher ports: routes use the lowest port.
TEST(Topo, ALineOfSwitchesTakesShortestPathsDeterministically)
{
    topo_t t;
    topo_init(&t);
    char err[256];
    ASSERT_GE(topo_add_switch(&t, "S1", 4, err, sizeof err), 0);
    ASSERT_GE(topo_add_switch(&t, "S2", 4, err, sizeof err), 0);
    for (const char *n : {"a", "b", "c", "d"})
        ASSERT_GE(topo_add_node(&t, n, err, sizeof err), 0) << err;
    ASSERT_GE(topo_add_link(&t, "a", "S1:0", 50, 100, err, sizeof err), 0) << err;
    ASSERT_GE(topo_add_link(&t, "c", "S1:1", 50, 100, err, sizeof err), 0) << err;
    ASSERT_GE(topo_add_link(&t, "S1:3", "S2:3", 50, 100, err, sizeof err), 0) << err;
    ASSERT_GE(topo_add_link(&t, "S1:2", "S2:2", 50, 100, err, sizeof err), 0) << err;
    ASSERT_GE(topo_add_link(&t, "b", "S2:0", 50, 100, err, sizeof err), 0) << err;
    ASSERT_GE(topo_add_link(&t, "d", "S2:1", 50, 100, err, sizeof err), 0) << err;
    ASSERT_EQ(topo_routes(&t, err, sizeof err), 0) << err;
    int a = topo_find_node(&t, "a"), b = topo_find_node(&t, "b");
    int c = topo_find_node(&t, "c"), d = topo_find_node(&t, "d");
    EXPECT_EQ(t.sw[0].route[a], 0);
    EXPECT_EQ(t.sw[0].route[c], 1);
    EXPECT_EQ(t.sw[0].route[b], 2) << "of the two links to S2, the lower port";
    EXPECT_EQ(t.sw[0].route[d], 2);
    EXPECT_EQ(t.sw[1].route[b], 0);
    EXPECT_EQ(t.sw[1].route[d], 1);
    EXPECT_EQ(t.sw[1].route[a], 2);
    topo_t again = t;
    ASSERT_EQ(topo_routes(&again, err, sizeof err), 0);
    EXPECT_EQ(0, memcmp(&again, &t, sizeof t)) << "the same topology routes the same way";
}

TEST(Topo, BadTopologiesSayWhatIsWrong)
{
    char err[256];
    topo_t t;
    topo_init(&t);
    ASSERT_GE(topo_add_node(&t, "a", err, sizeof err), 0);
    EXPECT_EQ(topo_add_node(&t, "a", err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("named twice"), std::string::npos) << err;
    EXPECT_EQ(topo_add_node(&t, "no space", err, sizeof err), -1);
    EXPECT_EQ(topo_add_switch(&t, "S", 1, err, sizeof err), -1);
    ASSERT_GE(topo_add_switch(&t, "S", 2, err, sizeof err), 0);
    EXPECT_EQ(topo_add_link(&t, "a", "S:2", 50, 100, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("port from 0 to 1"), std::string::npos) << err;
    EXPECT_EQ(topo_add_link(&t, "a", "T:0", 50, 100, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("no switch 'T'"), std::string::npos) << err;
    EXPECT_EQ(topo_add_link(&t, "a", "zz", 50, 100, err, sizeof err), -1);
    EXPECT_EQ(topo_add_link(&t, "a", "S:0", 0, 100, err, sizeof err), -1);
    ASSERT_GE(topo_add_link(&t, "a", "S:0", 50, 100, err, sizeof err), 0) << err;
    EXPECT_EQ(topo_add_link(&t, "a", "S:1", 50, 100, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("already linked"), std::string::npos) << err;
    EXPECT_EQ(topo_check(&t, err, sizeof err), -1) << "one node";
    ASSERT_GE(topo_add_node(&t, "b", err, sizeof err), 0);
    EXPECT_EQ(topo_check(&t, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("'b' is linked to nothing"), std::string::npos) << err;
    // b on a second switch that nothing joins to the first
    ASSERT_GE(topo_add_switch(&t, "S2", 2, err, sizeof err), 0);
    ASSERT_GE(topo_add_link(&t, "b", "S2:0", 50, 100, err, sizeof err), 0);
    EXPECT_EQ(topo_check(&t, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("cannot reach"), std::string::npos) << err;
    ASSERT_GE(topo_add_link(&t, "S:1", "S2:1", 50, 100, err, sizeof err), 0);
    EXPECT_EQ(topo_check(&t, err, sizeof err), 0) << err;
}

}  // namespace
