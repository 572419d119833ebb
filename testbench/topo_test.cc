// Topologies: the default two nodes, a star through one switch, a line of
// switches; every route is a shortest path, the same every time; bad
// topologies say what is wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_util.h"

extern "C" {
#include "topo.h"
#include "topo_file.h"
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

TEST(TopoFile, TheShippedTopologiesLoad)
{
    for (const char *f : {"two_nodes", "star3", "line4"}) {
        std::string path = std::string(UBSIM_CONFIG_DIR) + "/topo/" + f + ".ini";
        topo_file_t *tf = new topo_file_t;
        char err[512];
        EXPECT_EQ(topo_load_file(tf, path.c_str(), err, sizeof err), 0) << err;
        EXPECT_STREQ(tf->name, f);
        delete tf;
    }
    // the shipped two-node file is the default topology
    topo_file_t *tf = new topo_file_t;
    char err[512];
    ASSERT_EQ(topo_load_file(tf, (std::string(UBSIM_CONFIG_DIR) + "/topo/two_nodes.ini").c_str(),
                             err, sizeof err),
              0);
    topo_t d;
    topo_default(&d);
    ASSERT_EQ(topo_routes(&d, err, sizeof err), 0);
    EXPECT_EQ(0, memcmp(&d, &tf->t, sizeof d));
    delete tf;
}

TEST(TopoFile, ErrorsNameFileLineAndWhatWasExpected)
{
    struct Case {
        const char *text, *says;
    } cases[] = {
        {"[nodes.A]\n", "t.ini:1: unknown section [nodes.A]"},
        {"[node.A]\n[node.B]\n[link.x]\na = A\nb = B\nrate = 5\n", "t.ini:6: [link.x] rate: unknown key"},
        {"[switch.S]\nports = 1\n", "t.ini:2: ports = 1: expected a whole number from 2 to 64"},
        {"[switch.S]\nmode = fast\n", "t.ini:2: mode = fast: expected store_and_forward or cut_through"},
        {"[node.A]\n[node.B]\n[switch.S]\n[link.x]\na = A\nb = B\n", "t.ini:3: [switch.S]: expected 'ports = N'"},
        {"[node.A]\n[node.B]\n\n[link.x]\na = A\n", "t.ini:4: [link.x]: expected 'a = END' and 'b = END'"},
        {"[node.A]\n[node.B]\n[link.x]\na = A\nb = C\n", "t.ini:3: [link.x]: link end 'C': no node"},
        {"[node.A]\n[node.B]\n[node.C]\n[link.x]\na = A\nb = B\n", "node 'C' is linked to nothing"},
        {"[node.A]\n[node.B]\n[link.x]\na = A\nb = B\none_way_ns = -1\n", "t.ini:6: one_way_ns = -1: expected a number"},
        {"[node.A]\n[node.A]\n", "t.ini:2: [node.A]: the section is opened twice in this file (first at line 1)"},
        {"[node.A]\n[switch.A]\nports = 2\n", "t.ini:2: 'A' is named twice"},
        {"[node.A]\n[node.B]\n[link.x]\na = A\nb = B\na = B\n", "t.ini:6: [link.x] a: set twice in this file (first at line 4)"},
        {"[node.A]\nkey = 1\n", "t.ini:2: [node.A] key: a node takes no keys"},
        {"[node.A]\n garbage\n", "t.ini:2: expected '[section]'"},
        // a switch apart from the nodes: linked to nothing, or only to itself
        {"[node.A]\n[node.B]\n[switch.S]\nports = 2\n[link.x]\na = A\nb = B\n",
         "t.ini: switch 'S' is linked to nothing"},
        {"[node.A]\n[node.B]\n[switch.S]\nports = 2\n[link.x]\na = A\nb = B\n[link.y]\na = S:0\nb = S:1\n",
         "t.ini: switch 'S' cannot reach node 'A'"},
        // names stand unquoted in reports: links' and the topology's too
        {"[node.A]\n[node.B]\n[link.x,y]\na = A\nb = B\n", "t.ini:3: [link.x,y]: name 'x,y': expected letters"},
        {"[topology]\nname = a b\n", "t.ini:2: [topology] name: name 'a b': expected letters"},
    };
    for (const Case &c : cases) {
        topo_file_t *tf = new topo_file_t;
        char err[512] = "";
        EXPECT_EQ(topo_load_text(tf, "t.ini", c.text, err, sizeof err), -1) << c.text;
        EXPECT_NE(std::string(err).find(c.says), std::string::npos) << c.text << "\n  got: " << err;
        delete tf;
    }
}

TEST(TopoFile, TheCommandPrintsTheTopologyAndItsRoutes)
{
    std::string out;
    std::string path = std::string(UBSIM_CONFIG_DIR) + "/topo/star3.ini";
    ASSERT_EQ(testutil::run(testutil::ubsim() + " topology " + path + " --format json", &out), 0);
    EXPECT_NE(out.find("\"routes\""), std::string::npos) << out;
    EXPECT_NE(out.find("\"T\":\t2"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " topology " + path, &out), 0);
    EXPECT_NE(out.find("routes of S (destination -> port): A->0 B->1 T->2"), std::string::npos) << out;
    std::string bad = testutil::temp_file("[node.A]\n[node.B]\n[link.x]\na = A\nb = Q\n");
    EXPECT_EQ(testutil::run(testutil::ubsim() + " topology " + bad, &out, true), 2);
    EXPECT_NE(out.find(":3: [link.x]: link end 'Q'"), std::string::npos) << out;
    std::remove(bad.c_str());
    EXPECT_EQ(testutil::run(testutil::ubsim() + " topology", &out, true), 2);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " topology --help", &out), 0);
    EXPECT_NE(out.find("usage: ubsim topology FILE"), std::string::npos);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " topology /nonexistent.ini", &out, true), 2);
    EXPECT_NE(out.find("cannot open topology"), std::string::npos) << out;
}

}  // namespace
