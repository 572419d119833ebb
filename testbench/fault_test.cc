// Link faults: the option string, seeded decisions that repeat bit for bit,
// rates that match what was asked, the drop list, and corruption the
// receiver's checksum catches.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

extern "C" {
#include "fault.h"
#include "packet.h"
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
    fault_link_init(&l, &s, dir);
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
    fault_link_init(&l, &s, FAULT_FWD);
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
    fault_link_init(&back, &s, FAULT_BACK);
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
    fault_link_init(&l, &s, FAULT_BACK);
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
    fault_link_init(&l, &s, FAULT_FWD);
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
    fault_link_init(&la, &a, FAULT_FWD);
    fault_link_init(&lb, &b, FAULT_FWD);
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

}  // namespace
