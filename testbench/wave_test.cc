// Tests for the waveform writer (sim/core/wave.c): VCD text, FST read back through
// the FST reader bundled with Verilator, and error handling.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <fcntl.h>
#include <functional>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

// The FST reader's header comes with Verilator. The project's test rule may
// not put Verilator's gtkwave/ directory on the include path, so fall back to
// Debian's location.
#if __has_include(<fstapi.h>)
#include <fstapi.h>
#elif __has_include(<gtkwave/fstapi.h>)
#include <gtkwave/fstapi.h>
#else
#include "/usr/share/verilator/include/gtkwave/fstapi.h"
#endif

extern "C" {
#include "wave.h"
}

namespace {

// A fresh directory per test, removed with its contents afterwards.
class WaveTest : public ::testing::Test {
  protected:
    void SetUp() override
    {
        std::string tmpl = ::testing::TempDir() + "wave_test_XXXXXX";
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        ASSERT_NE(mkdtemp(buf.data()), nullptr);
        dir_ = buf.data();
    }
    void TearDown() override
    {
        for (const std::string &f : files_)
            std::remove(f.c_str());
        rmdir(dir_.c_str());
    }
    std::string Path(const std::string &name)
    {
        std::string p = dir_ + "/" + name;
        files_.push_back(p);
        return p;
    }
    static std::string Slurp(const std::string &path)
    {
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    static std::vector<std::string> Lines(const std::string &text)
    {
        std::vector<std::string> out;
        std::istringstream in(text);
        std::string l;
        while (std::getline(in, l))
            out.push_back(l);
        return out;
    }

    std::string dir_;
    std::vector<std::string> files_;
};

// Maps VCD identifiers to full dotted names by following $scope/$upscope.
std::map<std::string, std::string> VcdIds(const std::vector<std::string> &lines)
{
    std::map<std::string, std::string> ids;
    std::vector<std::string> scope;
    for (const std::string &l : lines) {
        std::istringstream in(l);
        std::string kw;
        in >> kw;
        if (kw == "$scope") {
            std::string type, name;
            in >> type >> name;
            scope.push_back(name);
        } else if (kw == "$upscope") {
            scope.pop_back();
        } else if (kw == "$var") {
            std::string type, width, id, name;
            in >> type >> width >> id >> name;
            std::string full;
            for (const std::string &s : scope)
                full += s + ".";
            ids[id] = full + name;
        }
    }
    return ids;
}

TEST_F(WaveTest, VcdScopesVarsAndChanges)
{
    std::string path = Path("t.vcd");
    char err[256];
    wave_t *w = wave_open(path.c_str(), err, sizeof err);
    ASSERT_NE(w, nullptr) << err;

    // Interleaved declaration order: the writer must still open each scope once.
    wave_sig_t tx_valid = wave_add(w, "nodeA.nic.tx.in_valid", 1);
    wave_sig_t b_data = wave_add(w, "nodeB.data", 8);
    wave_sig_t rx_len = wave_add(w, "nodeA.nic.rx.len", 16);
    wave_sig_t a_state = wave_add_str(w, "nodeA.state");
    wave_sig_t top = wave_add(w, "clk", 1);
    wave_sig_t tx_ready = wave_add(w, "nodeA.nic.tx.in_ready", 1);
    for (wave_sig_t s : {tx_valid, b_data, rx_len, a_state, top, tx_ready})
        ASSERT_GE(s, 0);

    wave_set(w, b_data, 0x5a); // before the first wave_time: initial value
    wave_time(w, 0);
    wave_time(w, 1000);
    wave_set(w, tx_valid, 1);
    wave_set(w, rx_len, 64);
    wave_set_str(w, a_state, "wait for ack");
    wave_time(w, 2000);
    wave_set(w, tx_valid, 1);       // unchanged: nothing emitted
    wave_set(w, rx_len, 64);        // unchanged
    wave_set_str(w, a_state, "wait for ack"); // unchanged
    wave_time(w, 1500);             // earlier: clamped to 2000
    wave_set(w, b_data, 0x1ff);     // masked to 8 bits -> 0xff
    wave_time(w, 3000);
    wave_set(w, tx_valid, 0);
    wave_time(w, 4000);             // no change here, but the dump ends at 4000
    ASSERT_EQ(wave_close(w), 0);

    std::string text = Slurp(path);
    std::vector<std::string> lines = Lines(text);

    EXPECT_NE(text.find("$timescale 1ps $end"), std::string::npos);
    EXPECT_NE(text.find("$enddefinitions $end"), std::string::npos);

    // Each scope opened exactly once, properly nested and balanced.
    int opens = 0, closes = 0, depth = 0;
    std::multiset<std::string> scope_names;
    for (const std::string &l : lines) {
        if (l.rfind("$scope module ", 0) == 0) {
            opens++;
            depth++;
            scope_names.insert(l.substr(14, l.find(' ', 14) - 14));
        } else if (l == "$upscope $end") {
            closes++;
            depth--;
            ASSERT_GE(depth, 0);
        }
    }
    EXPECT_EQ(opens, closes);
    EXPECT_EQ(depth, 0);
    EXPECT_EQ(opens, 5); // nodeA, nic, rx, tx, nodeB
    for (const char *s : {"nodeA", "nic", "tx", "rx", "nodeB"})
        EXPECT_EQ(scope_names.count(s), 1u) << s;

    std::map<std::string, std::string> ids = VcdIds(lines);
    ASSERT_EQ(ids.size(), 6u);
    std::map<std::string, std::string> by_name;
    for (const auto &kv : ids)
        by_name[kv.second] = kv.first;
    for (const char *n : {"nodeA.nic.tx.in_valid", "nodeA.nic.tx.in_ready", "nodeA.nic.rx.len",
                          "nodeA.state", "nodeB.data", "clk"})
        ASSERT_EQ(by_name.count(n), 1u) << n;
    EXPECT_NE(text.find("$var wire 16 " + by_name["nodeA.nic.rx.len"] + " len $end"),
              std::string::npos);
    EXPECT_NE(text.find("$var wire 1 " + by_name["clk"] + " clk $end"), std::string::npos);
    EXPECT_NE(text.find("$var string 1 " + by_name["nodeA.state"] + " state $end"),
              std::string::npos);

    // Collect (time, name, value) after $enddefinitions.
    std::vector<std::tuple<uint64_t, std::string, std::string>> changes;
    bool body = false;
    uint64_t now = 0;
    std::vector<uint64_t> times;
    for (const std::string &l : lines) {
        if (!body) {
            body = l == "$enddefinitions $end";
            continue;
        }
        if (l == "$dumpvars" || l == "$end")
            continue;
        ASSERT_FALSE(l.empty());
        if (l[0] == '#') {
            now = std::stoull(l.substr(1));
            times.push_back(now);
        } else if (l[0] == 'b' || l[0] == 's') {
            size_t sp = l.find(' ');
            ASSERT_NE(sp, std::string::npos) << l;
            changes.emplace_back(now, ids.at(l.substr(sp + 1)), l.substr(1, sp - 1));
        } else {
            ASSERT_TRUE(l[0] == '0' || l[0] == '1') << l;
            changes.emplace_back(now, ids.at(l.substr(1)), l.substr(0, 1));
        }
    }
    // Times strictly increasing, each written once.
    EXPECT_EQ(times, (std::vector<uint64_t>{0, 1000, 2000, 3000, 4000}));

    std::multiset<std::tuple<uint64_t, std::string, std::string>> got(changes.begin(),
                                                                      changes.end());
    std::multiset<std::tuple<uint64_t, std::string, std::string>> want = {
        {0, "nodeA.nic.tx.in_valid", "0"},
        {0, "nodeA.nic.tx.in_ready", "0"},
        {0, "nodeA.nic.rx.len", "0"},
        {0, "nodeA.state", "_"},
        {0, "nodeB.data", "1011010"},
        {0, "clk", "0"},
        {1000, "nodeA.nic.tx.in_valid", "1"},
        {1000, "nodeA.nic.rx.len", "1000000"},
        {1000, "nodeA.state", "wait_for_ack"},
        {2000, "nodeB.data", "11111111"},
        {3000, "nodeA.nic.tx.in_valid", "0"},
    };
    EXPECT_EQ(got, want);
}

// Reader-side view of an FST file.
struct FstDump {
    std::map<fstHandle, std::string> names; // handle -> dotted name
    std::map<fstHandle, uint32_t> widths;
    std::vector<std::tuple<uint64_t, std::string, std::string>> changes;
    int scopes = 0;
    int timescale = 0;
    uint64_t end_time = 0;
};

void FstBitsCb(void *user, uint64_t time, fstHandle h, const unsigned char *value)
{
    auto *d = static_cast<FstDump *>(user);
    std::string v(reinterpret_cast<const char *>(value));
    d->changes.emplace_back(time, d->names[h], v);
}

void FstVarlenCb(void *user, uint64_t time, fstHandle h, const unsigned char *value, uint32_t len)
{
    auto *d = static_cast<FstDump *>(user);
    d->changes.emplace_back(time, d->names[h],
                            std::string(reinterpret_cast<const char *>(value), len));
}

bool ReadFst(const std::string &path, FstDump *d)
{
    void *r = fstReaderOpen(path.c_str());
    if (!r)
        return false;
    d->timescale = fstReaderGetTimescale(r);
    d->end_time = fstReaderGetEndTime(r);
    std::vector<std::string> scope;
    while (fstHier *h = fstReaderIterateHier(r)) {
        switch (h->htyp) {
        case FST_HT_SCOPE:
            d->scopes++;
            scope.push_back(h->u.scope.name);
            break;
        case FST_HT_UPSCOPE:
            scope.pop_back();
            break;
        case FST_HT_VAR: {
            std::string full;
            for (const std::string &s : scope)
                full += s + ".";
            d->names[h->u.var.handle] = full + h->u.var.name;
            d->widths[h->u.var.handle] = h->u.var.length;
            break;
        }
        default:
            break;
        }
    }
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks2(r, FstBitsCb, FstVarlenCb, d, nullptr);
    fstReaderClose(r);
    return true;
}

TEST_F(WaveTest, FstRoundTrip)
{
    std::string path = Path("t.fst");
    char err[256];
    wave_t *w = wave_open(path.c_str(), err, sizeof err);
    ASSERT_NE(w, nullptr) << err;
    wave_sig_t v = wave_add(w, "nodeA.nic.tx.in_valid", 1);
    wave_sig_t b = wave_add(w, "nodeB.data", 8);
    wave_sig_t l = wave_add(w, "nodeA.nic.rx.len", 64);
    wave_sig_t s = wave_add_str(w, "nodeA.state");
    ASSERT_GE(v, 0);
    ASSERT_GE(b, 0);
    ASSERT_GE(l, 0);
    ASSERT_GE(s, 0);

    wave_time(w, 0);
    wave_set_str(w, s, "idle");
    wave_time(w, 500);
    wave_set(w, v, 1);
    wave_set(w, l, 0x8000000000000001ull);
    wave_set_str(w, s, "send req");
    wave_time(w, 800);
    wave_set(w, v, 1); // unchanged
    wave_set_str(w, s, "send req");
    wave_time(w, 900);
    wave_set(w, b, 3);
    wave_time(w, 100); // clamped to 900
    wave_set(w, v, 0);
    wave_time(w, 2000);
    ASSERT_EQ(wave_close(w), 0);

    // The file exists and has FST's header block (type 0, FST_BL_HDR).
    std::string raw = Slurp(path);
    ASSERT_GT(raw.size(), 32u);
    EXPECT_EQ(raw[0], 0);
    // The writer's temporary hierarchy file is gone.
    EXPECT_NE(access((path + ".hier").c_str(), F_OK), 0);

    FstDump d;
    ASSERT_TRUE(ReadFst(path, &d));
    EXPECT_EQ(d.timescale, -12);
    EXPECT_EQ(d.end_time, 2000u);
    EXPECT_EQ(d.scopes, 5); // nodeA, nic, rx, tx, nodeB: each once
    ASSERT_EQ(d.names.size(), 4u);
    std::map<std::string, uint32_t> width_of;
    for (const auto &kv : d.names)
        width_of[kv.second] = d.widths[kv.first];
    EXPECT_EQ(width_of["nodeA.nic.tx.in_valid"], 1u);
    EXPECT_EQ(width_of["nodeB.data"], 8u);
    EXPECT_EQ(width_of["nodeA.nic.rx.len"], 64u);
    EXPECT_EQ(width_of.count("nodeA.state"), 1u);

    std::multiset<std::tuple<uint64_t, std::string, std::string>> got(d.changes.begin(),
                                                                      d.changes.end());
    std::string big = "1" + std::string(62, '0') + "1";
    std::multiset<std::tuple<uint64_t, std::string, std::string>> want = {
        {0, "nodeA.nic.tx.in_valid", "0"},
        {0, "nodeB.data", "00000000"},
        {0, "nodeA.nic.rx.len", std::string(64, '0')},
        {0, "nodeA.state", "idle"}, // set at time 0 after the header: same time
        {500, "nodeA.nic.tx.in_valid", "1"},
        {500, "nodeA.nic.rx.len", big},
        {500, "nodeA.state", "send req"},
        {900, "nodeB.data", "00000011"},
        {900, "nodeA.nic.tx.in_valid", "0"},
    };
    // The initial empty string at time 0 may be reported too; drop it.
    got.erase(std::make_tuple(uint64_t{0}, std::string("nodeA.state"), std::string()));
    EXPECT_EQ(got, want);
}

// Signals wider than 64 bits: full-width values, VCD and FST.
TEST_F(WaveTest, WideSignals)
{
    for (const char *ext : {".vcd", ".fst"}) {
        SCOPED_TRACE(ext);
        std::string path = Path(std::string("wide") + ext);
        char err[256];
        wave_t *w = wave_open(path.c_str(), err, sizeof err);
        ASSERT_NE(w, nullptr) << err;
        wave_sig_t a = wave_add(w, "top.bitmap", 130);
        wave_sig_t b = wave_add(w, "top.ctx", 128);
        wave_sig_t n = wave_add(w, "top.narrow", 8);
        ASSERT_GE(a, 0);
        ASSERT_GE(b, 0);
        ASSERT_GE(n, 0);
        const uint64_t v1[3] = {1, 0, 2};              // bits 0 and 129
        const uint64_t v2[3] = {0, 1ull << 63, ~0ull}; // bits 127..129; above the width ignored
        const uint64_t c1[2] = {0x5, 0x8000000000000000ull};
        wave_time(w, 0);
        wave_time(w, 100);
        wave_set_words(w, a, v1);
        wave_set_words(w, b, c1);
        wave_set_words(w, n, c1);                      // a narrow signal takes word 0
        wave_time(w, 200);
        wave_set_words(w, a, v1);                      // unchanged: not written again
        wave_time(w, 300);
        wave_set_words(w, a, v2);
        wave_set(w, b, 7);                             // low 64 bits, zeros above
        wave_time(w, 400);
        ASSERT_EQ(wave_close(w), 0);

        std::string bits1 = "1" + std::string(128, '0') + "1";
        std::string bits2 = "111" + std::string(127, '0');
        std::string ctx1 = "1" + std::string(124, '0') + "101";  // bits 127, 2, 0
        if (std::string(ext) == ".vcd") {
            std::string text = Slurp(path);
            EXPECT_NE(text.find("$var wire 130 "), std::string::npos);
            EXPECT_NE(text.find("$var wire 128 "), std::string::npos);
            EXPECT_NE(text.find("b" + bits1 + " "), std::string::npos) << text;
            EXPECT_NE(text.find("b" + bits2 + " "), std::string::npos) << text;
            EXPECT_NE(text.find("b" + ctx1 + " "), std::string::npos) << text;
            EXPECT_NE(text.find("b111 "), std::string::npos) << text;   // ctx = 7
            EXPECT_NE(text.find("b101 "), std::string::npos) << text;   // narrow = 5
            EXPECT_EQ(text.find("#200"), std::string::npos) << text;    // nothing changed at 200
        } else {
            FstDump d;
            ASSERT_TRUE(ReadFst(path, &d));
            std::map<std::string, uint32_t> width_of;
            for (const auto &kv : d.names)
                width_of[kv.second] = d.widths[kv.first];
            EXPECT_EQ(width_of["top.bitmap"], 130u);
            EXPECT_EQ(width_of["top.ctx"], 128u);
            std::multiset<std::tuple<uint64_t, std::string, std::string>> got(d.changes.begin(),
                                                                              d.changes.end());
            std::multiset<std::tuple<uint64_t, std::string, std::string>> want = {
                {0, "top.bitmap", std::string(130, '0')},
                {0, "top.ctx", std::string(128, '0')},
                {0, "top.narrow", std::string(8, '0')},
                {100, "top.bitmap", bits1},
                {100, "top.ctx", ctx1},
                {100, "top.narrow", "00000101"},
                {300, "top.bitmap", bits2},
                {300, "top.ctx", std::string(125, '0') + "111"},
            };
            EXPECT_EQ(got, want);
        }
    }
}

TEST_F(WaveTest, ManySignals)
{
    for (const char *ext : {".vcd", ".fst"}) {
        std::string path = Path(std::string("many") + ext);
        char err[256];
        wave_t *w = wave_open(path.c_str(), err, sizeof err);
        ASSERT_NE(w, nullptr) << err;
        const int n = 20000;
        std::vector<wave_sig_t> sig(n);
        for (int i = 0; i < n; i++) {
            char name[64];
            snprintf(name, sizeof name, "top.blk%d.sub%d.sig%d", i % 7, i % 13, i);
            sig[i] = wave_add(w, name, 1 + i % 64);
            ASSERT_EQ(sig[i], i);
        }
        for (uint64_t t = 0; t < 50; t++) {
            wave_time(w, t * 1000);
            for (int i = 0; i < n; i += 97)
                wave_set(w, sig[i], t * (uint64_t)i);
        }
        ASSERT_EQ(wave_close(w), 0);

        if (std::string(ext) == ".vcd") {
            std::map<std::string, std::string> ids = VcdIds(Lines(Slurp(path)));
            EXPECT_EQ(ids.size(), (size_t)n); // identifiers unique
        } else {
            FstDump d;
            ASSERT_TRUE(ReadFst(path, &d));
            EXPECT_EQ(d.names.size(), (size_t)n);
            // top, blk0..6, and all 7 * 13 (blk, sub) pairs, each opened once
            EXPECT_EQ(d.scopes, 1 + 7 + 7 * 13);
        }
    }
}

TEST_F(WaveTest, Errors)
{
    char err[256];

    EXPECT_EQ(wave_open((dir_ + "/x.txt").c_str(), err, sizeof err), nullptr);
    EXPECT_NE(std::string(err).find("expected a .fst or .vcd extension"), std::string::npos)
        << err;
    EXPECT_EQ(wave_open((dir_ + "/noext").c_str(), err, sizeof err), nullptr);
    EXPECT_NE(std::string(err).find("noext"), std::string::npos) << err;

    for (const char *ext : {".fst", ".vcd"}) {
        std::string bad = dir_ + "/missing/x" + ext;
        EXPECT_EQ(wave_open(bad.c_str(), err, sizeof err), nullptr);
        EXPECT_EQ(std::string(err), "cannot create '" + bad + "': No such file or directory");
    }

    // A tiny error buffer is not overrun and stays terminated.
    char small[8];
    memset(small, 'z', sizeof small);
    EXPECT_EQ(wave_open("x.txt", small, 4), nullptr);
    EXPECT_EQ(small[3], '\0');
    EXPECT_EQ(small[4], 'z');
    EXPECT_EQ(wave_open("x.txt", nullptr, 0), nullptr);

    EXPECT_EQ(wave_close(nullptr), 0);

    std::string path = Path("e.vcd");
    wave_t *w = wave_open(path.c_str(), err, sizeof err);
    ASSERT_NE(w, nullptr) << err;
    EXPECT_EQ(wave_add(w, "a.b", 0), -1);
    EXPECT_EQ(wave_add(w, "a.b", WAVE_MAX_WIDTH + 1), -1);
    EXPECT_EQ(wave_add(w, "a.b", -1), -1);
    EXPECT_EQ(wave_add(w, "", 1), -1);
    EXPECT_EQ(wave_add(w, nullptr, 1), -1);
    EXPECT_EQ(wave_add(w, "a..b", 1), -1);
    EXPECT_EQ(wave_add(w, ".a", 1), -1);
    EXPECT_EQ(wave_add(w, "a.", 1), -1);
    EXPECT_EQ(wave_add(w, "a b", 1), -1);
    EXPECT_EQ(wave_add(nullptr, "a", 1), -1);
    wave_sig_t a = wave_add(w, "a.b", 64);
    EXPECT_GE(a, 0);
    EXPECT_EQ(wave_add(w, "a.b", 3), -1);  // duplicate
    EXPECT_EQ(wave_add_str(w, "a.b"), -1); // duplicate
    wave_sig_t s = wave_add_str(w, "a.s");
    EXPECT_GE(s, 0);
    wave_time(w, 10);
    EXPECT_EQ(wave_add(w, "late", 1), -1); // after the header
    // Bad handles and mismatched kinds are ignored.
    wave_set(w, -1, 1);
    wave_set(w, 99, 1);
    wave_set(w, s, 1);
    wave_set_str(w, a, "x");
    wave_set_str(w, s, nullptr);
    wave_set(nullptr, a, 1);
    wave_set_str(nullptr, s, "x");
    wave_time(nullptr, 5);
    wave_set(w, a, ~0ull);
    ASSERT_EQ(wave_close(w), 0);
    std::string text = Slurp(path);
    EXPECT_NE(text.find("b" + std::string(64, '1') + " "), std::string::npos);
    EXPECT_EQ(text.find("late"), std::string::npos);
}

TEST_F(WaveTest, EmptyDumpIsValid)
{
    for (const char *ext : {".vcd", ".fst"}) {
        std::string path = Path(std::string("empty") + ext);
        char err[256];
        wave_t *w = wave_open(path.c_str(), err, sizeof err);
        ASSERT_NE(w, nullptr) << err;
        ASSERT_EQ(wave_close(w), 0);
        std::string raw = Slurp(path);
        EXPECT_FALSE(raw.empty()) << ext;
        if (std::string(ext) == ".vcd") {
            EXPECT_NE(raw.find("$enddefinitions $end"), std::string::npos);
        } else {
            // The FST reader refuses a file without variables; just check the
            // header block type.
            EXPECT_EQ(raw[0], 0);
        }
    }
}

TEST_F(WaveTest, DeclaredButNeverTimed)
{
    // Values set before any wave_time become the initial values; closing
    // without wave_time still yields a readable dump.
    for (const char *ext : {".vcd", ".fst"}) {
        std::string path = Path(std::string("untimed") + ext);
        char err[256];
        wave_t *w = wave_open(path.c_str(), err, sizeof err);
        ASSERT_NE(w, nullptr) << err;
        wave_sig_t a = wave_add(w, "u.a", 4);
        wave_sig_t s = wave_add_str(w, "u.s");
        wave_set(w, a, 9);
        wave_set_str(w, s, "hi");
        ASSERT_EQ(wave_close(w), 0);
        if (std::string(ext) == ".vcd") {
            std::string text = Slurp(path);
            std::map<std::string, std::string> ids = VcdIds(Lines(text));
            std::string ida, ids_;
            for (const auto &kv : ids)
                (kv.second == "u.a" ? ida : ids_) = kv.first;
            EXPECT_NE(text.find("$dumpvars\nb1001 " + ida + "\nshi " + ids_ + "\n$end"),
                      std::string::npos)
                << text;
        } else {
            FstDump d;
            ASSERT_TRUE(ReadFst(path, &d));
            std::multiset<std::tuple<uint64_t, std::string, std::string>> got(
                d.changes.begin(), d.changes.end());
            std::multiset<std::tuple<uint64_t, std::string, std::string>> want = {
                {0, "u.a", "1001"}, {0, "u.s", "hi"}};
            EXPECT_EQ(got, want);
        }
    }
}

} // namespace

namespace {

// A full disk and the FST writer (see wave.c): a finished FST file is
// checked block by block, and while FST files are being written a bus error
// of a mapped file is a message and exit status 1.

TEST_F(WaveTest, FstVerifyFindsIncompleteFiles)
{
    std::string path = Path("v.fst");
    char err[256];
    wave_t *w = wave_open(path.c_str(), err, sizeof err);
    ASSERT_NE(w, nullptr) << err;
    wave_sig_t a = wave_add(w, "top.a", 8), s = wave_add_str(w, "top.s");
    for (uint64_t t = 0; t < 2000; t++) {
        wave_time(w, t * 10);
        wave_set(w, a, t);
        wave_set_str(w, s, t % 2 ? "odd" : "even");
    }
    ASSERT_EQ(wave_close(w), 0);
    EXPECT_EQ(wave_fst_verify(path.c_str(), err, sizeof err), 0) << err;

    std::string whole = Slurp(path), cut = Path("cut.fst");
    for (size_t len : {size_t(0), size_t(50), size_t(400), whole.size() / 2, whole.size() - 1}) {
        std::ofstream(cut, std::ios::binary) << whole.substr(0, len);
        EXPECT_EQ(wave_fst_verify(cut.c_str(), err, sizeof err), -1) << len;
        EXPECT_NE(std::string(err).find("'" + cut + "' is incomplete"), std::string::npos) << err;
    }
    // the writer tags a block 0xff (FST_BL_SKIP) until it is finished
    std::string unfinished = whole;
    size_t hdr_len = 0;
    for (int i = 1; i <= 8; i++)
        hdr_len = hdr_len << 8 | (unsigned char)whole[i];
    unfinished[1 + hdr_len] = (char)0xff;
    std::ofstream(cut, std::ios::binary) << unfinished;
    EXPECT_EQ(wave_fst_verify(cut.c_str(), err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("unfinished block"), std::string::npos) << err;

    EXPECT_EQ(wave_fst_verify((dir_ + "/none.fst").c_str(), err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("No such file"), std::string::npos) << err;
}

// Runs F in a child process; returns its wait status and what it wrote to
// stderr.
std::pair<int, std::string> in_child(const std::function<void()> &f)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {-1, ""};
    fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        close(fds[0]);
        dup2(fds[1], 2);
        f();
        _exit(0);
    }
    close(fds[1]);
    std::string err;
    char buf[512];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0)
        err.append(buf, (size_t)n);
    close(fds[0]);
    int st = -1;
    waitpid(pid, &st, 0);
    return {st, err};
}

// Reads a page past the end of a mapped file: SIGBUS (BUS_ADRERR), as the
// FST writer does on a full disk.
void touch_past_end(const std::string &file)
{
    int fd = open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
    void *p = mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        _exit(3);
    volatile char c = *static_cast<volatile char *>(p);
    (void)c;
    _exit(4); // not reached
}

TEST_F(WaveTest, ABusErrorWhileWritingFstIsAMessageAndExitStatus1)
{
    std::string fst = Path("bus.fst"), hier = Path("bus.fst.hier"), other = Path("other.fst"),
                mapped = Path("mapped.bin");
    std::ofstream(hier) << "scratch";
    auto r = in_child([&] {
        wave_fst_watch(fst.c_str());
        wave_fst_watch(other.c_str());
        touch_past_end(mapped);
    });
    ASSERT_TRUE(WIFEXITED(r.first)) << r.first << " " << r.second;
    EXPECT_EQ(WEXITSTATUS(r.first), 1) << r.second;
    EXPECT_NE(r.second.find("ubsim: could not write the FST waveforms '" + fst + "', '" + other +
                            "': "),
              std::string::npos)
        << r.second;
    EXPECT_NE(r.second.find("probably full"), std::string::npos) << r.second;
    EXPECT_NE(access(hier.c_str(), F_OK), 0) << "the writer's scratch file is left";

    // one file: singular
    r = in_child([&] {
        wave_fst_watch(fst.c_str());
        touch_past_end(mapped);
    });
    EXPECT_NE(r.second.find("could not write the FST waveform '" + fst + "': "), std::string::npos)
        << r.second;
}

TEST_F(WaveTest, OtherBusErrorsAreNotTakenForAFullDisk)
{
    std::string fst = Path("bus.fst"), mapped = Path("mapped.bin");
    // a SIGBUS that is not a mapped file's (here: sent) keeps its disposition
    auto r = in_child([&] {
        wave_fst_watch(fst.c_str());
        raise(SIGBUS);
    });
    EXPECT_FALSE(WIFEXITED(r.first) && WEXITSTATUS(r.first) == 0) << r.first;
    EXPECT_EQ(r.second.find("could not write"), std::string::npos) << r.second;
    // once the last FST writer is done, the handler is gone
    r = in_child([&] {
        int h = wave_fst_watch(fst.c_str());
        wave_fst_unwatch(h);
        touch_past_end(mapped);
    });
    EXPECT_FALSE(WIFEXITED(r.first) && WEXITSTATUS(r.first) == 0) << r.first;
    EXPECT_EQ(r.second.find("could not write"), std::string::npos) << r.second;
}

}  // namespace
