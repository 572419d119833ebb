// Link faults: the option string, seeded decisions that repeat bit for bit,
// rates that match what was asked, the drop list, and corruption the
// receiver's checksum catches; on a topology every link and direction
// decides on its own, and a drop names its link.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
#include "fault.h"
#include "packet.h"
#include "topo_file.h"
}

namespace {

fault_spec_t parse_ok(const char *text)
{
    fault_spec_t s;
    fault_spec_init(&s);
    char err[256] = "";
    EXPECT_EQ(fault_parse(text, &s, err, sizeof err), 0) << text << ": " << err;
    return s;
}

TEST(Fault, ParsesTheOptionString)
{
    fault_spec_t s = parse_ok("loss=1e-3,dup=1e-4,reorder=1e-3,corrupt=1e-4,drop=fwd:5,seed=7");
    EXPECT_DOUBLE_EQ(s.dir[FAULT_FWD].loss, 1e-3);
    EXPECT_DOUBLE_EQ(s.dir[FAULT_BACK].loss, 1e-3);
    EXPECT_DOUBLE_EQ(s.dir[FAULT_BACK].corrupt, 1e-4);
    EXPECT_EQ(s.seed, 7u);
    ASSERT_EQ(s.n_drop, 1);
    EXPECT_EQ(s.drop[0].dir, FAULT_FWD);
    EXPECT_EQ(s.drop[0].k, 5u);
    EXPECT_TRUE(fault_any(&s));
    s = parse_ok("fwd.loss=0.5,back.dup=0.25,drop=back:2,drop=fwd:9,reorder_ns=120,corrupt_bits=3");
    EXPECT_DOUBLE_EQ(s.dir[FAULT_FWD].loss, 0.5);
    EXPECT_DOUBLE_EQ(s.dir[FAULT_BACK].loss, 0);
    EXPECT_DOUBLE_EQ(s.dir[FAULT_BACK].dup, 0.25);
    EXPECT_EQ(s.n_drop, 2);
    EXPECT_DOUBLE_EQ(s.reorder_ns, 120);
    EXPECT_EQ(s.corrupt_bits, 3);
    fault_spec_t none;
    fault_spec_init(&none);
    EXPECT_FALSE(fault_any(&none));
}

TEST(Fault, BadOptionStringsSayWhatWasExpected)
{
    struct Case {
        const char *text, *says;
    } cases[] = {
        {"", "empty"},
        {"loss", "KEY=VALUE"},
        {"loss=", "KEY=VALUE"},
        {"loss=2", "probability"},
        {"loss=-0.1", "probability"},
        {"loss=nan", "probability"},
        {"loss=1e-3x", "probability"},
        {"lose=0.1", "unknown key 'lose'"},
        {"drop=5", "DIR:K"},
        {"drop=up:5", "DIR:K"},
        {"drop=fwd:0", "whole number"},
        {"drop=fwd:x", "whole number"},
        {"seed=-1", "whole number"},
        {"corrupt_bits=0", "whole number"},
        {"reorder_ns=-5", "delay"},
        {"fwd.seed=3", "per direction"},
        {"corrupt_bits=17", "whole number from 1 to 16"},
    };
    for (const Case &c : cases) {
        fault_spec_t s;
        fault_spec_init(&s);
        char err[256] = "";
        EXPECT_EQ(fault_parse(c.text, &s, err, sizeof err), -1) << c.text;
        EXPECT_NE(std::string(err).find(c.says), std::string::npos) << c.text << ": " << err;
        EXPECT_NE(std::string(err).find("--fault"), std::string::npos) << err;
    }
}

std::vector<int> trace(const fault_spec_t &s, int dir, int n)
{
    fault_link_t l;
    fault_link_init(&l, &s, nullptr, 0, dir);
    std::vector<int> out;
    for (int i = 0; i < n; i++) {
        fault_action_t a;
        fault_decide(&l, &s, 100, &a);
        out.push_back(a.lose | a.dup << 1 | a.reorder << 2 | (a.n_flip ? 8 : 0) |
                      (a.n_flip ? (int)(a.flip[0] << 4) : 0));
    }
    return out;
}

TEST(Fault, TheSameSeedGivesTheSameFaults)
{
    fault_spec_t a = parse_ok("loss=0.05,dup=0.05,reorder=0.05,corrupt=0.05,seed=7");
    fault_spec_t b = parse_ok("loss=0.05,dup=0.05,reorder=0.05,corrupt=0.05,seed=8");
    EXPECT_EQ(trace(a, FAULT_FWD, 5000), trace(a, FAULT_FWD, 5000));
    EXPECT_NE(trace(a, FAULT_FWD, 5000), trace(b, FAULT_FWD, 5000));
    EXPECT_NE(trace(a, FAULT_FWD, 5000), trace(a, FAULT_BACK, 5000)) << "directions draw apart";
}

TEST(Fault, RatesAreWhatWasAskedAndTheDropListIsExact)
{
    fault_spec_t s = parse_ok("loss=0.1,dup=0.02,reorder=0.05,corrupt=0.01,drop=fwd:5,drop=fwd:7");
    const int n = 400000;
    fault_link_t l;
    fault_link_init(&l, &s, nullptr, 0, FAULT_FWD);
    for (int i = 0; i < n; i++) {
        fault_action_t a;
        fault_decide(&l, &s, 64, &a);
        if (i + 1 == 5 || i + 1 == 7) {
            EXPECT_TRUE(a.lose);
        }
    }
    EXPECT_EQ(l.sent, (uint64_t)n);
    EXPECT_EQ(l.dropped, 2u);
    auto near = [&](uint64_t got, double p, double of) {
        double want = p * of, sd = std::sqrt(of * p * (1 - p));
        EXPECT_LT(std::fabs((double)got - want), 5 * sd) << got << " vs " << want;
    };
    near(l.lost, 0.1, n - 2);
    double kept = (double)(n - 2 - l.lost);
    near(l.duplicated, 0.02, kept);
    near(l.reordered, 0.05, kept);
    near(l.corrupted, 0.01, kept);
    fault_link_t back;
    fault_link_init(&back, &s, nullptr, 0, FAULT_BACK);
    for (int i = 0; i < 10; i++) {
        fault_action_t a;
        fault_decide(&back, &s, 64, &a);
    }
    EXPECT_EQ(back.dropped, 0u) << "the drop list names the forward direction only";
}

TEST(Fault, FlipsAreDistinctEvenInATinyPacket)
{
    fault_spec_t s = parse_ok("corrupt=1,corrupt_bits=16,seed=5");
    fault_link_t l;
    fault_link_init(&l, &s, nullptr, 0, FAULT_BACK);
    for (size_t bytes : {size_t(1), size_t(2), size_t(64)}) {
        fault_action_t a;
        fault_decide(&l, &s, bytes, &a);
        ASSERT_EQ(a.n_flip, bytes * 8 < 16 ? (int)(bytes * 8) : 16);
        for (int i = 0; i < a.n_flip; i++) {
            EXPECT_LT(a.flip[i], bytes * 8);
            for (int j = 0; j < i; j++)
                EXPECT_NE(a.flip[i], a.flip[j]);
        }
    }
}

TEST(Fault, CorruptionIsCaughtByTheChecksum)
{
    fault_spec_t s = parse_ok("corrupt=1,corrupt_bits=2,seed=3");
    fault_link_t l;
    fault_link_init(&l, &s, nullptr, 0, FAULT_FWD);
    pkt_hdr_t h{};
    h.proto = PKT_UB;
    h.tp_opcode = 1;
    h.payload_len = 256;
    std::vector<uint8_t> buf(pkt_wire_bytes(&h));
    ASSERT_GT(pkt_encode(&h, nullptr, buf.data(), buf.size(), nullptr), 0u);
    for (int i = 0; i < 2000; i++) {
        fault_action_t a;
        fault_decide(&l, &s, buf.size(), &a);
        ASSERT_EQ(a.n_flip, 2);
        ASSERT_NE(a.flip[0], a.flip[1]) << "distinct bits: two flips of one bit would cancel";
        std::vector<uint8_t> b = buf;
        fault_apply_flips(b.data(), &a);
        pkt_hdr_t d;
        EXPECT_EQ(pkt_decode(b.data(), b.size(), PKT_UB, &d, nullptr), PKT_BAD_CRC) << i;
    }
}

TEST(Fault, TooManyDropsAreRefusedAndDecisionsDoNotDependOnPacketSize)
{
    fault_spec_t s;
    fault_spec_init(&s);
    char err[256];
    std::string many;
    for (int i = 1; i <= FAULT_MAX_DROPS + 1; i++)
        many += (i > 1 ? "," : "") + std::string("drop=fwd:") + std::to_string(i);
    EXPECT_EQ(fault_parse(many.c_str(), &s, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("drop= entries"), std::string::npos) << err;
    // the same draws whatever the packet's size or the bits a corruption flips
    fault_spec_t a = parse_ok("loss=0.1,dup=0.1,reorder=0.1,corrupt=0.1,seed=4");
    fault_spec_t b = parse_ok("loss=0.1,dup=0.1,reorder=0.1,corrupt=0.1,corrupt_bits=9,seed=4");
    fault_link_t la, lb;
    fault_link_init(&la, &a, nullptr, 0, FAULT_FWD);
    fault_link_init(&lb, &b, nullptr, 0, FAULT_FWD);
    for (int i = 0; i < 10000; i++) {
        fault_action_t x, y;
        fault_decide(&la, &a, 64, &x);
        fault_decide(&lb, &b, 4000 + (size_t)i, &y);
        ASSERT_EQ(x.lose, y.lose) << i;
        ASSERT_EQ(x.dup, y.dup) << i;
        ASSERT_EQ(x.reorder, y.reorder) << i;
        ASSERT_EQ(x.n_flip > 0, y.n_flip > 0) << i;
    }
}

// ---- links of a topology ----

// configs/topo/line4.ini: links a, c, trunk0, trunk1, b, d (indices 0..5)
struct Line4 {
    topo_file_t *tf = new topo_file_t;
    Line4()
    {
        char err[512];
        EXPECT_EQ(topo_load_file(tf, (std::string(UBSIM_CONFIG_DIR) + "/topo/line4.ini").c_str(), err,
                                 sizeof err),
                  0)
            << err;
    }
    ~Line4() { delete tf; }
    int link(const char *name) const
    {
        for (int i = 0; i < tf->t.n_links; i++)
            if (!strcmp(tf->t.link[i].name, name))
                return i;
        ADD_FAILURE() << "no link " << name;
        return 0;
    }
};

// The packet numbers (from 1) link `link` loses in direction dir, of n.
std::vector<int> lost(const fault_spec_t &s, const topo_t *t, int link, int dir, int n)
{
    fault_link_t l;
    fault_link_init(&l, &s, t, link, dir);
    std::vector<int> out;
    for (int k = 1; k <= n; k++) {
        fault_action_t a;
        fault_decide(&l, &s, 64, &a);
        if (a.lose)
            out.push_back(k);
    }
    return out;
}

TEST(Fault, ADropNamesItsLink)
{
    fault_spec_t s = parse_ok("drop=trunk0.back:3,drop=fwd:2,drop=s-1_x.fwd:9");
    ASSERT_EQ(s.n_drop, 3);
    EXPECT_STREQ(s.drop[0].link, "trunk0");
    EXPECT_EQ(s.drop[0].dir, FAULT_BACK);
    EXPECT_EQ(s.drop[0].k, 3u);
    EXPECT_STREQ(s.drop[1].link, "");
    EXPECT_EQ(s.drop[1].dir, FAULT_FWD);
    EXPECT_STREQ(s.drop[2].link, "s-1_x");
    const std::string long_name(FAULT_LINK_LEN, 'x');
    for (const std::string &bad : std::vector<std::string>{"drop=.fwd:1", "drop=trunk0.up:1", "drop=trunk0:1",
                                                           "drop=trunk0.fwd", "drop=" + long_name + ".fwd:1"}) {
        fault_spec_t t;
        fault_spec_init(&t);
        char err[256] = "";
        EXPECT_EQ(fault_parse(bad.c_str(), &t, err, sizeof err), -1) << bad;
        EXPECT_NE(std::string(err).find("expected [LINK.]DIR:K"), std::string::npos) << bad << ": " << err;
    }
    fault_spec_t t;
    fault_spec_init(&t);
    char err[256] = "";
    EXPECT_EQ(fault_parse("drop=trunk0.fwd:0", &t, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("whole number from 1"), std::string::npos) << err;
}

// Link 0 (and the one link of two nodes) draws what a link has always
// drawn: the two-node figures do not move.
TEST(Fault, LinkZeroDrawsWhatTheLinkOfTwoNodesAlwaysDrew)
{
    fault_spec_t s = parse_ok("loss=0.05,seed=7");
    const std::vector<int> fwd = lost(s, nullptr, 0, FAULT_FWD, 200), back = lost(s, nullptr, 0, FAULT_BACK, 240);
    EXPECT_EQ(fwd, (std::vector<int>{24, 44, 62, 77, 100, 116, 142, 175, 186}));
    EXPECT_EQ(back, (std::vector<int>{11, 57, 87, 135, 161, 168, 175, 218}));
    Line4 L;
    EXPECT_EQ(lost(s, &L.tf->t, 0, FAULT_FWD, 200), fwd);
    EXPECT_EQ(lost(s, &L.tf->t, 0, FAULT_BACK, 240), back);
    // the link index alone decides: the name of link 0 does not
    topo_t *two = new topo_t;
    topo_default(two);
    EXPECT_EQ(lost(s, two, 0, FAULT_FWD, 200), fwd);
    delete two;
}

// Every link and direction of a topology decides on its own: no two of
// them lose the same packet numbers, and two links lose a packet number
// together about as often as independent ones would (p * p).
TEST(Fault, EveryLinkAndDirectionOfATopologyDecidesOnItsOwn)
{
    Line4 L;
    const topo_t *t = &L.tf->t;
    ASSERT_EQ(t->n_links, 6);
    const double p = 0.05;
    const int n = 40000;
    fault_spec_t s = parse_ok("loss=0.05,dup=0.05,reorder=0.05,corrupt=0.05,seed=11");
    std::vector<std::vector<int>> sets;
    for (int link = 0; link < t->n_links; link++)
        for (int dir : {FAULT_FWD, FAULT_BACK})
            sets.push_back(lost(s, t, link, dir, n));
    const double both = n * p * p, sd = std::sqrt(n * p * p * (1 - p * p));
    for (size_t i = 0; i < sets.size(); i++) {
        const double each = n * p, sd1 = std::sqrt(n * p * (1 - p));
        EXPECT_LT(std::fabs((double)sets[i].size() - each), 5 * sd1) << i;
        for (size_t j = 0; j < i; j++) {
            std::vector<int> common;
            std::set_intersection(sets[i].begin(), sets[i].end(), sets[j].begin(), sets[j].end(),
                                  std::back_inserter(common));
            EXPECT_NE(sets[i], sets[j]) << i << " " << j;
            EXPECT_LT(std::fabs((double)common.size() - both), 5 * sd)
                << "links/directions " << i << " and " << j << " lose " << common.size()
                << " packet numbers together, independent ones about " << both;
        }
    }
    // the same seed, link and direction: the same faults
    EXPECT_EQ(lost(s, t, 3, FAULT_BACK, 5000), lost(s, t, 3, FAULT_BACK, 5000));
    fault_spec_t other = parse_ok("loss=0.05,dup=0.05,reorder=0.05,corrupt=0.05,seed=12");
    EXPECT_NE(lost(other, t, 3, FAULT_BACK, 5000), lost(s, t, 3, FAULT_BACK, 5000));
}

TEST(Fault, ANamedDropLosesOnItsLinkAndDirectionOnly)
{
    Line4 L;
    const topo_t *t = &L.tf->t;
    fault_spec_t s = parse_ok("drop=trunk0.fwd:2,drop=d.back:1,drop=d.back:4");
    for (int link = 0; link < t->n_links; link++) {
        for (int dir : {FAULT_FWD, FAULT_BACK}) {
            std::vector<int> want;
            if (link == L.link("trunk0") && dir == FAULT_FWD)
                want = {2};
            if (link == L.link("d") && dir == FAULT_BACK)
                want = {1, 4};
            fault_link_t l;
            fault_link_init(&l, &s, t, link, dir);
            std::vector<int> got;
            for (int k = 1; k <= 10; k++) {
                fault_action_t a;
                fault_decide(&l, &s, 64, &a);
                if (a.lose)
                    got.push_back(k);
            }
            EXPECT_EQ(got, want) << t->link[link].name << (dir == FAULT_FWD ? ".fwd" : ".back");
            EXPECT_EQ(l.dropped, want.size());
        }
    }
    // two nodes: the plain form, or the one link's name
    for (const char *text : {"drop=fwd:3", "drop=AB.fwd:3"}) {
        fault_spec_t two = parse_ok(text);
        EXPECT_EQ(lost(two, nullptr, 0, FAULT_FWD, 10), std::vector<int>{3}) << text;
        EXPECT_TRUE(lost(two, nullptr, 0, FAULT_BACK, 10).empty()) << text;
    }
}

TEST(Fault, DropsAreCheckedAgainstTheLinksThereAre)
{
    Line4 L;
    char err[512] = "";
    fault_spec_t s = parse_ok("loss=0.1,drop=trunk1.back:2");
    EXPECT_EQ(fault_check_links(&s, &L.tf->t, "line4", err, sizeof err), 0) << err;
    s = parse_ok("drop=fwd:2");
    EXPECT_EQ(fault_check_links(&s, &L.tf->t, "line4", err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("drop=fwd:2: topology 'line4' has 6 links: name the one to drop on, "
                                    "as drop=LINK.fwd:2 (links: a, c, trunk0, trunk1, b, d)"),
              std::string::npos)
        << err;
    EXPECT_EQ(fault_check_links(&s, nullptr, nullptr, err, sizeof err), 0) << err; // two nodes
    s = parse_ok("drop=trunk2.back:7");
    EXPECT_EQ(fault_check_links(&s, &L.tf->t, "line4", err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("drop=trunk2.back:7: topology 'line4' has no link 'trunk2' (links: a, c, "
                                    "trunk0, trunk1, b, d)"),
              std::string::npos)
        << err;
    EXPECT_EQ(fault_check_links(&s, nullptr, nullptr, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("between two nodes the one link is AB"), std::string::npos) << err;
    s = parse_ok("drop=AB.back:7");
    EXPECT_EQ(fault_check_links(&s, nullptr, nullptr, err, sizeof err), 0) << err;
    // a topology of one link takes the plain form
    topo_t *two = new topo_t;
    topo_default(two);
    s = parse_ok("drop=fwd:1");
    EXPECT_EQ(fault_check_links(&s, two, "two_nodes", err, sizeof err), 0) << err;
    delete two;
    // a long list of links is cut short, and the message still fits
    topo_t *many = new topo_t;
    topo_init(many);
    for (int i = 0; i < 100; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        ASSERT_GE(topo_add_node(many, name, err, sizeof err), 0) << err;
        if (i % 2) { /* n0-n1, n2-n3, ... */
            char other[16];
            snprintf(other, sizeof other, "n%d", i - 1);
            ASSERT_GE(topo_add_link(many, other, name, 50, 100, err, sizeof err), 0) << err;
        }
    }
    s = parse_ok("drop=nope.fwd:1");
    char small[200];
    EXPECT_EQ(fault_check_links(&s, many, "many", small, sizeof small), -1);
    EXPECT_NE(std::string(small).find("has no link 'nope'"), std::string::npos) << small;
    EXPECT_EQ(fault_check_links(&s, many, "many", err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("...)"), std::string::npos) << err;
    delete many;
}

}  // namespace
