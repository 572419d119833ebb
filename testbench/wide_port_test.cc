// Ports wider than 64 bits: port access, lockstep through the generic RTL
// shim, mismatch reports and waveforms, with the test-only block
// wide_port_test (130-bit and 72-bit ports; testbench/wide_port_test.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include <unistd.h>

extern "C" {
#include "block.h"
#include "wave.h"
#include "wide_port_test.h"
}

#include "block_harness.h"
#include "test_util.h"

namespace {

constexpr uint64_t kPeriodPs = 1000;

const port_desc_t *port(const port_desc_t *ports, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!std::strcmp(ports[i].name, name))
            return &ports[i];
    return nullptr;
}

TEST(WidePort, ClassHasTheWidePorts)
{
    const block_class_t &c = wide_port_test_class;
    const port_desc_t *data = port(c.in_ports, c.n_in, "data");
    const port_desc_t *mix = port(c.out_ports, c.n_out, "mix");
    ASSERT_NE(data, nullptr);
    ASSERT_NE(mix, nullptr);
    EXPECT_EQ(data->width, 130);
    EXPECT_EQ(data->bytes, 24);
    EXPECT_EQ(port_words(data), 3);
    EXPECT_EQ(mix->width, 72);
    EXPECT_EQ(port_words(mix), 2);
    EXPECT_EQ(data->offset, offsetof(wide_port_test_in_t, data));
}

TEST(WidePort, WordsGetSetEqual)
{
    const port_desc_t *p = port(wide_port_test_class.in_ports, wide_port_test_class.n_in, "data");
    ASSERT_NE(p, nullptr);
    wide_port_test_in_t a, b;
    std::memset(&a, 0, sizeof a);
    std::memset(&b, 0, sizeof b);
    const uint64_t all[3] = {~0ull, ~0ull, ~0ull};
    port_set_words(p, &a, all);
    EXPECT_EQ(a.data[0], ~0ull);
    EXPECT_EQ(a.data[1], ~0ull);
    EXPECT_EQ(a.data[2], 3u);  // 130 bits: 2 in the top word
    EXPECT_EQ(a.valid, 0);     // neighbours untouched
    EXPECT_EQ(a.shift, 0);
    uint64_t got[3];
    b.data[0] = ~0ull;
    b.data[1] = ~0ull;
    b.data[2] = ~0ull;  // stray bits above the width
    port_get_words(p, &b, got);
    EXPECT_EQ(got[2], 3u);
    EXPECT_TRUE(port_equal(p, &a, &b));
    b.data[1] ^= 1ull << 40;
    EXPECT_FALSE(port_equal(p, &a, &b));
    // port_get / port_set: the low 64 bits
    EXPECT_EQ(port_get(p, &a), ~0ull);
    port_set(p, &a, 0x1234);
    EXPECT_EQ(a.data[0], 0x1234u);
    EXPECT_EQ(a.data[1], 0u);
    EXPECT_EQ(a.data[2], 0u);
    // narrow ports through the word interface
    const port_desc_t *sh = port(wide_port_test_class.in_ports, wide_port_test_class.n_in, "shift");
    ASSERT_NE(sh, nullptr);
    EXPECT_EQ(port_words(sh), 1);
    const uint64_t v = 0x1FF;
    port_set_words(sh, &a, &v);
    EXPECT_EQ(a.shift, 0x7F);
}

void random_inputs(std::mt19937_64 &rng, wide_port_test_in_t *in)
{
    uint64_t r = rng();
    in->valid = (r & 3) != 0;
    in->shift = (uint8_t)((r >> 2) & 0x7F);
    for (uint64_t &w : in->data)
        w = rng();
    in->data[2] &= 3;
}

// The C model against a plain re-statement of the rules, bit by bit.
TEST(WidePort, CModelFollowsItsDefinition)
{
    wide_port_test_state_t s;
    wide_port_test_reset(&s);
    std::mt19937_64 rng(11);
    bool acc[130] = {};
    for (int c = 0; c < 2000; c++) {
        wide_port_test_in_t in;
        std::memset(&in, 0, sizeof in);
        random_inputs(rng, &in);
        wide_port_test_out_t out;
        bool old[130];
        std::memcpy(old, acc, sizeof acc);
        if (in.valid)
            for (int i = 0; i < 130; i++)
                acc[i] = old[(i - in.shift + 130) % 130] ^ ((in.data[i / 64] >> (i % 64)) & 1);
        int par = 0;
        for (bool x : old)
            par ^= x;
        uint64_t lo = 0, hi8 = 0;
        for (int i = 0; i < 64; i++)
            lo |= (uint64_t)old[i] << i;
        for (int i = 0; i < 8; i++)
            hi8 |= (uint64_t)old[122 + i] << i;
        wide_port_test_step(&s, &in, &out);
        for (int i = 0; i < 130; i++)
            ASSERT_EQ((out.acc[i / 64] >> (i % 64)) & 1, (uint64_t)acc[i]) << "cycle " << c << " bit " << i;
        ASSERT_EQ(out.parity, par);
        ASSERT_EQ(out.mix[0], lo + in.data[1]);
        ASSERT_EQ(out.mix[1], (hi8 ^ in.data[0]) & 0xFF);
        ASSERT_EQ(out.low, out.acc[0]);
    }
}

// C and RTL in lockstep through the generic shim: every wide output port
// compared every cycle.
TEST(WidePort, LockstepThroughTheGenericShim)
{
    harness::Block<wide_port_test_in_t, wide_port_test_out_t> b(&wide_port_test_class,
                                                                BACKEND_LOCKSTEP, kPeriodPs);
    ASSERT_TRUE(b.ok());
    std::mt19937_64 rng(2026);
    uint64_t nonzero_top = 0;
    for (int c = 0; c < 50000; c++) {
        random_inputs(rng, &b.in);
        if (c % 10007 == 5000)
            b.reset(wide_port_test_out_t{});
        ASSERT_EQ(b.step(), 0) << "cycle " << c;
        nonzero_top += b.out.acc[2] != 0 && b.out.mix[1] != 0;
    }
    EXPECT_EQ(block_mismatches(b.inst), 0u);
    EXPECT_GT(nonzero_top, 10000u);  // the upper words did carry data
}

// The RTL alone gives the C model's outputs.
TEST(WidePort, RtlMatchesC)
{
    harness::Block<wide_port_test_in_t, wide_port_test_out_t> r(&wide_port_test_class, BACKEND_RTL,
                                                                kPeriodPs);
    ASSERT_TRUE(r.ok());
    wide_port_test_state_t s;
    wide_port_test_reset(&s);
    std::mt19937_64 rng(5);
    for (int c = 0; c < 5000; c++) {
        random_inputs(rng, &r.in);
        wide_port_test_out_t want;
        std::memset(&want, 0, sizeof want);  // padding too, for memcmp
        wide_port_test_step(&s, &r.in, &want);
        r.step();
        ASSERT_EQ(std::memcmp(&want, &r.out, sizeof want), 0) << "cycle " << c;
    }
}

// A bug in the top bit of a 130-bit port is found, reported with every hex
// digit, and the mismatch waveform holds the wide ports.
TEST(WidePort, MismatchOnAWidePortIsReported)
{
    std::string wave = "/tmp/ubsim_wide_mismatch_" + std::to_string(getpid()) + ".vcd";
    block_class_t cls = harness::with_bug(wide_port_test_class, "wide_port_test_buggy", "acc", 129, 300);
    std::mt19937_64 rng(3);
    using Wb = harness::Block<wide_port_test_in_t, wide_port_test_out_t>;
    harness::Planted p = harness::run_planted<Wb>(&cls, kPeriodPs, 400, wave.c_str(),
                                                  [&](Wb &b, int64_t) { random_inputs(rng, &b.in); });
    EXPECT_EQ(p.first, 300);
    const std::string &r = p.report;
    const std::string head = "lockstep mismatch: cycle 300, block wide_port_test_buggy, port acc_o: C=0x";
    size_t at = r.find(head);
    ASSERT_NE(at, std::string::npos) << r;
    // 130 bits: 33 hex digits per value; C and RTL differ in the top digit
    std::string c_val = r.substr(at + head.size(), 33);
    size_t rtl_at = r.find(" RTL=0x", at);
    ASSERT_NE(rtl_at, std::string::npos) << r;
    std::string rtl_val = r.substr(rtl_at + 7, 33);
    EXPECT_EQ(r[at + head.size() + 33], ' ') << r;
    EXPECT_EQ(c_val.substr(1), rtl_val.substr(1)) << r;
    EXPECT_EQ((std::stoi(c_val.substr(0, 1), nullptr, 16) ^ std::stoi(rtl_val.substr(0, 1), nullptr, 16)), 2)
        << r;
    FILE *f = std::fopen(wave.c_str(), "r");
    ASSERT_NE(f, nullptr);
    std::string vcd = testutil::slurp(f);
    EXPECT_NE(vcd.find("$var wire 130 "), std::string::npos);
    EXPECT_NE(vcd.find("$var wire 72 "), std::string::npos);
    EXPECT_NE(vcd.find(" acc_o $end"), std::string::npos);
    EXPECT_NE(vcd.find(" data_i $end"), std::string::npos);
    std::remove(wave.c_str());
}

// The C model's port dump (block_trace) of wide ports, VCD text.
TEST(WidePort, TraceDumpsWidePorts)
{
    std::string path = "/tmp/ubsim_wide_trace_" + std::to_string(getpid()) + ".vcd";
    char err[256] = "";
    wave_t *w = wave_open(path.c_str(), err, sizeof err);
    ASSERT_NE(w, nullptr) << err;
    harness::Block<wide_port_test_in_t, wide_port_test_out_t> b(&wide_port_test_class, BACKEND_C,
                                                                kPeriodPs);
    ASSERT_TRUE(b.ok());
    ASSERT_EQ(block_trace(b.inst, w, "TOP.wide_port_test"), 0);
    b.in.valid = 1;
    b.in.shift = 0;
    b.in.data[2] = 2;  // bit 129
    b.in.data[0] = 1;  // bit 0
    b.step();
    ASSERT_EQ(wave_close(w), 0);
    FILE *f = std::fopen(path.c_str(), "r");
    ASSERT_NE(f, nullptr);
    std::string vcd = testutil::slurp(f);
    EXPECT_NE(vcd.find("$var wire 130 "), std::string::npos) << vcd;
    std::string acc = "b1" + std::string(128, '0') + "1 ";
    EXPECT_NE(vcd.find(acc), std::string::npos) << vcd;
    std::remove(path.c_str());
}

// The RTL traces itself (FST) through the generic shim.
TEST(WidePort, RtlWritesFst)
{
    std::string path = ::testing::TempDir() + "wide_port_test_rtl.fst";
    std::remove(path.c_str());
    {
        block_opts_t o = harness::opts(BACKEND_RTL, kPeriodPs);
        o.rtl_fst_path = path.c_str();
        harness::Block<wide_port_test_in_t, wide_port_test_out_t> b(&wide_port_test_class, &o);
        ASSERT_TRUE(b.ok());
        std::mt19937_64 rng(1);
        for (int c = 0; c < 100; c++) {
            random_inputs(rng, &b.in);
            b.step();
        }
    }
    FILE *f = std::fopen(path.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 0, SEEK_END);
    EXPECT_GT(std::ftell(f), 100);
    std::fclose(f);
    std::remove(path.c_str());
}

}  // namespace
