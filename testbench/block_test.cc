// Tests of the generic block machinery (sim/core/block.c): backend names, port
// access for every width, backend selection errors, lockstep comparison and
// tracing, using a tiny counter block whose "RTL" is the same C function (with
// a bug planted by the shared harness, block_harness.h, for the mismatch).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

extern "C" {
#include "block.h"
#include "wave.h"
}

#include "block_harness.h"
#include "test_util.h"

namespace {

struct AllWidths {
    uint8_t a;   // 1 bit
    uint8_t b;   // 8 bits
    uint16_t c;  // 12 bits
    uint16_t d;  // 16 bits
    uint32_t e;  // 24 bits
    uint32_t f;  // 32 bits
    uint64_t g;  // 40 bits
    uint64_t h;  // 64 bits
};

#define P(f, w) {#f, offsetof(AllWidths, f), sizeof(((AllWidths *)0)->f), w}
const port_desc_t kPorts[] = {P(a, 1),  P(b, 8),  P(c, 12), P(d, 16),
                              P(e, 24), P(f, 32), P(g, 40), P(h, 64)};
#undef P

TEST(Block, BackendParse)
{
    EXPECT_EQ(backend_parse("c"), BACKEND_C);
    EXPECT_EQ(backend_parse("rtl"), BACKEND_RTL);
    EXPECT_EQ(backend_parse("lockstep"), BACKEND_LOCKSTEP);
    EXPECT_EQ(backend_parse("C"), -1);
    EXPECT_EQ(backend_parse(""), -1);
    EXPECT_EQ(backend_parse("verilator"), -1);
    EXPECT_EQ(backend_parse(nullptr), -1);
    EXPECT_STREQ(backend_name(BACKEND_C), "c");
    EXPECT_STREQ(backend_name(BACKEND_RTL), "rtl");
    EXPECT_STREQ(backend_name(BACKEND_LOCKSTEP), "lockstep");
}

TEST(Block, PortGetSetAllWidths)
{
    AllWidths s;
    std::memset(&s, 0, sizeof s);
    for (const port_desc_t &p : kPorts) {
        uint64_t mask = p.width == 64 ? ~0ull : (1ull << p.width) - 1;
        // all ones, truncated to the width
        port_set(&p, &s, ~0ull);
        EXPECT_EQ(port_get(&p, &s), mask) << p.name;
        // a pattern
        uint64_t v = 0x0123456789ABCDEFull & mask;
        port_set(&p, &s, v);
        EXPECT_EQ(port_get(&p, &s), v) << p.name;
        port_set(&p, &s, 0);
        EXPECT_EQ(port_get(&p, &s), 0u) << p.name;
    }
    // Fields do not disturb their neighbours.
    for (const port_desc_t &p : kPorts)
        port_set(&p, &s, ~0ull);
    port_set(&kPorts[3], &s, 0);
    EXPECT_EQ(s.c, 0xFFF);
    EXPECT_EQ(s.d, 0);
    EXPECT_EQ(s.e, 0xFFFFFFu);
    EXPECT_EQ(s.h, ~0ull);
    EXPECT_EQ(s.g, 0xFFFFFFFFFFull);
    // port_get masks stray upper bits of the field.
    s.b = 0xFF;
    s.c = 0xFFFF;
    EXPECT_EQ(port_get(&kPorts[2], &s), 0xFFFu);
    s.a = 0xFE;
    EXPECT_EQ(port_get(&kPorts[0], &s), 0u);
}

// --- a toy block: a counter that adds `inc` every edge ----------------------
struct CntIn {
    uint8_t inc;
};
struct CntOut {
    uint32_t count;  // 20 bits
    uint8_t odd;
};
struct CntState {
    uint32_t count;
};

const port_desc_t kCntIn[] = {{"inc", offsetof(CntIn, inc), 1, 4}};
const port_desc_t kCntOut[] = {{"count", offsetof(CntOut, count), 4, 20},
                               {"odd", offsetof(CntOut, odd), 1, 1}};

void *cnt_create(const char *, uint64_t) { return std::calloc(1, sizeof(CntState)); }
void cnt_reset(void *self)
{
    CntState *s = static_cast<CntState *>(self);
    s->count = 0;
}
void cnt_step(void *self, const void *in, void *out, uint64_t)
{
    CntState *s = static_cast<CntState *>(self);
    const CntIn *i = static_cast<const CntIn *>(in);
    CntOut *o = static_cast<CntOut *>(out);
    s->count = (s->count + (i->inc & 15u)) & 0xFFFFFu;
    o->count = s->count;
    o->odd = s->count & 1u;
}
void cnt_destroy(void *self) { std::free(self); }

const block_impl_t kCntImpl = {cnt_create, cnt_reset, cnt_step, cnt_destroy,
                               nullptr,    nullptr,   nullptr,  nullptr};
const block_impl_t kNoImpl = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

block_class_t make_cls(const char *name, block_impl_t rtl)
{
    block_class_t c;
    std::memset(&c, 0, sizeof c);
    c.name = name;
    c.in_ports = kCntIn;
    c.n_in = 1;
    c.in_size = sizeof(CntIn);
    c.out_ports = kCntOut;
    c.n_out = 2;
    c.out_size = sizeof(CntOut);
    c.c = kCntImpl;
    c.rtl = rtl;
    return c;
}

// A lockstep toy counter whose "RTL" flips `odd` at edge 5, its report in a
// temporary file and its mismatch wave in a file named after `tag`.
struct BuggyLockstep {
    block_class_t cls;
    FILE *rep;
    std::string wave;
    block_inst_t *b;
    explicit BuggyLockstep(const char *tag)
        : cls(harness::with_bug(make_cls("toy_counter", kCntImpl), "toy_counter", "odd", 0, 5,
                                harness::RTL)),
          rep(std::tmpfile()),
          wave("/tmp/ubsim_" + std::string(tag) + "_" + std::to_string(getpid()) + ".vcd")
    {
        char err[256] = "";
        block_opts_t o = {};
        o.kind = BACKEND_LOCKSTEP;
        o.period_ps = 3106;
        o.report = rep;
        o.mismatch_wave = wave.c_str();
        b = rep ? block_new(&cls, &o, err, sizeof err) : nullptr;
        EXPECT_NE(b, nullptr) << err;
    }
    ~BuggyLockstep()
    {
        block_free(b);
        if (rep)
            std::fclose(rep);
        std::remove(wave.c_str());
    }
};

TEST(Block, RtlBackendWithoutRtlFailsCleanly)
{
    block_class_t cls = make_cls("toy_counter", kNoImpl);
    char err[256] = "";
    block_opts_t o = {};
    o.kind = BACKEND_RTL;
    EXPECT_EQ(block_new(&cls, &o, err, sizeof err), nullptr);
    EXPECT_NE(std::string(err).find("toy_counter"), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("RTL"), std::string::npos) << err;
    err[0] = 0;
    o.kind = BACKEND_LOCKSTEP;
    EXPECT_EQ(block_new(&cls, &o, err, sizeof err), nullptr);
    EXPECT_NE(std::string(err).find("toy_counter"), std::string::npos) << err;
    // The C backend works.
    o.kind = BACKEND_C;
    block_inst_t *b = block_new(&cls, &o, err, sizeof err);
    ASSERT_NE(b, nullptr) << err;
    CntIn in = {3};
    CntOut out = {};
    for (int i = 0; i < 10; i++)
        EXPECT_EQ(block_step(b, &in, &out, 0), 0);
    EXPECT_EQ(out.count, 30u);
    EXPECT_EQ(block_cycles(b), 10u);
    block_reset(b);
    EXPECT_EQ(block_cycles(b), 10u);  // reset does not clear the edge count
    block_step(b, &in, &out, 0);
    EXPECT_EQ(out.count, 3u);
    block_free(b);
    block_free(nullptr);
}

TEST(Block, LockstepAgreesAndReportsFirstDifference)
{
    char err[256] = "";
    block_opts_t o = {};
    o.kind = BACKEND_LOCKSTEP;
    o.period_ps = 3106;
    // Same implementation twice: no mismatch.
    block_class_t good = make_cls("toy_counter", kCntImpl);
    block_inst_t *b = block_new(&good, &o, err, sizeof err);
    ASSERT_NE(b, nullptr) << err;
    CntIn in = {1};
    CntOut out = {};
    for (int i = 0; i < 100; i++)
        ASSERT_EQ(block_step(b, &in, &out, (uint64_t)i * 3106), 0);
    EXPECT_EQ(block_mismatches(b), 0u);
    block_free(b);

    // A "RTL" that flips `odd` at edge 5.
    BuggyLockstep bad("block_test");
    ASSERT_NE(bad.b, nullptr);
    b = bad.b;
    int first_bad = -1;
    for (int i = 0; i < 20; i++) {
        int rc = block_step(b, &in, &out, (uint64_t)i * 3106);
        if (rc && first_bad < 0)
            first_bad = i;
        if (first_bad >= 0) {
            EXPECT_NE(rc, 0);  // stays nonzero
        }
        EXPECT_EQ(out.count, (uint32_t)i + 1);  // outputs are the C model's
        EXPECT_EQ(out.odd, (i + 1) & 1);
    }
    EXPECT_EQ(first_bad, 5);
    EXPECT_EQ(block_mismatches(b), 1u);
    block_free(bad.b);
    bad.b = nullptr;
    std::string r = testutil::slurp(bad.rep);  // (closes it)
    bad.rep = nullptr;
    EXPECT_NE(r.find("lockstep mismatch: cycle 5, block toy_counter, port odd_o: C=0x0 RTL=0x1"),
              std::string::npos)
        << r;
    EXPECT_NE(r.find(bad.wave), std::string::npos) << r;
    FILE *w = std::fopen(bad.wave.c_str(), "r");
    ASSERT_NE(w, nullptr);
    std::string vcd = testutil::slurp(w);
    EXPECT_NE(vcd.find("inc_i"), std::string::npos);
    EXPECT_NE(vcd.find("odd_o"), std::string::npos);
    EXPECT_NE(vcd.find("rtl"), std::string::npos);
}

// block_run: edges with the inputs held, ending at the first at which the
// watched output is set, as that many block_step calls (the C model and
// lockstep step edge by edge; a lockstep mismatch ends the run).
TEST(Block, RunStopsAtTheWatchedOutput)
{
    char err[256] = "";
    block_opts_t o = {};
    block_class_t good = make_cls("toy_counter", kCntImpl);
    block_inst_t *b = block_new(&good, &o, err, sizeof err);
    ASSERT_NE(b, nullptr) << err;
    CntIn two = {2}, one = {1};
    CntOut out = {};
    EXPECT_EQ(block_run(b, &two, &out, 7, offsetof(CntOut, odd)), 7);  // count stays even
    EXPECT_EQ(out.count, 14u);
    EXPECT_EQ(block_cycles(b), 7u);
    EXPECT_EQ(block_run(b, &one, &out, 7, offsetof(CntOut, odd)), 1);  // odd at once
    EXPECT_EQ(out.count, 15u);
    EXPECT_EQ(block_cycles(b), 8u);
    EXPECT_EQ(block_run(b, &one, &out, 0, offsetof(CntOut, odd)), 0);  // no edge asked
    EXPECT_EQ(block_cycles(b), 8u);
    block_free(b);

    // A "RTL" that flips `odd` at edge 5: the lockstep run ends there.
    BuggyLockstep bad("block_run_test");
    ASSERT_NE(bad.b, nullptr);
    EXPECT_EQ(block_run(bad.b, &two, &out, 20, offsetof(CntOut, odd)), -6);
    EXPECT_EQ(block_mismatches(bad.b), 1u);
}

TEST(Block, TraceWritesEveryStep)
{
    block_class_t cls = make_cls("toy_counter", kNoImpl);
    char err[256] = "";
    block_opts_t o = {};
    o.kind = BACKEND_C;
    block_inst_t *b = block_new(&cls, &o, err, sizeof err);
    ASSERT_NE(b, nullptr) << err;
    std::string path = "/tmp/ubsim_block_trace_" + std::to_string(getpid()) + ".vcd";
    wave_t *w = wave_open(path.c_str(), err, sizeof err);
    ASSERT_NE(w, nullptr) << err;
    ASSERT_EQ(block_trace(b, w, "top.cnt"), 0);
    CntIn in = {2};
    CntOut out = {};
    for (int i = 0; i < 8; i++)
        block_step(b, &in, &out, 1000 + (uint64_t)i * 1000);
    EXPECT_EQ(wave_close(w), 0);
    block_free(b);
    FILE *f = std::fopen(path.c_str(), "r");
    ASSERT_NE(f, nullptr);
    std::string vcd = testutil::slurp(f);
    EXPECT_NE(vcd.find("count_o"), std::string::npos);
    EXPECT_NE(vcd.find("inc_i"), std::string::npos);
    EXPECT_NE(vcd.find("#8000"), std::string::npos) << vcd;
    std::remove(path.c_str());
}

}  // namespace
