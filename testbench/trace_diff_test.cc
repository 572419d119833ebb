// ubsim diff and the waveform reader under it (sim/core/trace_read.c): VCD
// files written here by hand, VCD and FST pairs written through the
// project's own writer (sim/core/wave.h), an RTL trace of a real run, and the
// command's output, exit status and messages. The FST check before the FST
// reader (sim/core/fst_check.c): every form the FST writer writes passes, and
// real FST files of ubsim with any one byte changed are refused as malformed
// or read, never crash the reader or end the process.
#include <gtest/gtest.h>

#include <cjson/cJSON.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <dirent.h>
#include <unistd.h>

#include <fstapi.h>

extern "C" {
#include "fst_check.h"
#include "trace_read.h"
#include "wave.h"
}

#include "test_util.h"

namespace {

// ---------------------------------------------------------------------------
// Helpers

// A fresh directory per test, removed with its contents afterwards.
class TraceDiffTest : public ::testing::Test {
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/ubsim_trace_diff_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override
    {
        if (DIR *d = opendir(dir_.c_str())) {
            while (struct dirent *e = readdir(d)) {
                std::string n = e->d_name;
                if (n != "." && n != "..")
                    std::remove((dir_ + "/" + n).c_str());
            }
            closedir(d);
        }
        rmdir(dir_.c_str());
    }
    // Writes text to DIR/name and returns the path.
    std::string File(const std::string &name, const std::string &text)
    {
        std::string p = dir_ + "/" + name;
        FILE *f = std::fopen(p.c_str(), "wb");
        EXPECT_NE(f, nullptr);
        if (f) {
            std::fwrite(text.data(), 1, text.size(), f);
            std::fclose(f);
        }
        return p;
    }
    std::string Path(const std::string &name) { return dir_ + "/" + name; }

    std::string dir_;
};

// `ubsim diff ARGS`: the exit status; stdout in *out, stderr in *err.
int Diff(const std::string &args, std::string *out, std::string *err = nullptr)
{
    std::string errfile = testutil::temp_file("", ".err");
    // in a subshell: run() sends the stderr of what it runs to /dev/null
    int rc = testutil::run("(" + testutil::ubsim() + " diff " + args + " 2>" + errfile + ")", out);
    if (err) {
        FILE *f = std::fopen(errfile.c_str(), "rb");
        *err = f ? testutil::slurp(f) : "";
    }
    std::remove(errfile.c_str());
    return rc;
}

std::vector<std::string> Lines(const std::string &text)
{
    std::vector<std::string> v;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos)
            nl = text.size();
        v.push_back(text.substr(pos, nl - pos));
        pos = nl + 1;
    }
    return v;
}

// Line i of text, "" if it has fewer lines.
std::string LineOf(const std::string &text, size_t i)
{
    std::vector<std::string> v = Lines(text);
    return i < v.size() ? v[i] : "";
}

std::string Hex(uint64_t v, int digits)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "0x%0*llx", digits, (unsigned long long)v);
    return buf;
}

// A reader that fails the test with its message.
struct Trace {
    trace_t *t = nullptr;
    std::string err;
    explicit Trace(const std::string &path)
    {
        char e[1024] = "";
        t = trace_read(path.c_str(), nullptr, nullptr, e, sizeof e);
        err = e;
    }
    ~Trace() { trace_free(t); }
    const trace_signal_t *Sig(const std::string &name) const
    {
        long i = trace_find(t, name.c_str());
        return i < 0 ? nullptr : &t->sig[i];
    }
    const trace_track_t *Track(const std::string &name) const
    {
        const trace_signal_t *s = Sig(name);
        return s ? &t->track[s->track] : nullptr;
    }
    // "time:value time:value ..." of a signal's recorded changes.
    std::string Changes(const std::string &name) const
    {
        const trace_track_t *tr = Track(name);
        if (!tr)
            return "(no signal " + name + ")";
        std::string s;
        for (size_t i = 0; i < tr->n; i++) {
            if (i)
                s += ' ';
            s += std::to_string(tr->time[i]) + ":" + (tr->val + i * (tr->width + 1));
        }
        return s;
    }
};

// The values of the ports of the generated dumps at cycle c.
struct Values {
    uint64_t a_i, b_i, c_o, wide_o[2], count;
};

Values ValuesAt(int c)
{
    Values v;
    v.a_i = (uint64_t)c & 1;
    v.b_i = (uint64_t)(c * 37 + 5) & 0xff;
    v.c_o = (uint64_t)(c * c * 101 + 7) & 0xffff;
    v.wide_o[0] = 0x0123456789abcdefull ^ (uint64_t)c;
    v.wide_o[1] = (uint64_t)(c * 3) & 0xff; // 72 bits: 8 in the top word
    v.count = (uint64_t)c;
    return v;
}

// A port dump of N cycles in SCOPE, written through wave.h (FST or VCD by the
// extension). Without a clock, cycle c is at time c * 1000 (every timestamp a
// cycle; the internal counter changes every cycle). With one, clk_i and
// rst_ni in SCOPE: reset_edges rising edges in reset, then N edges at which
// the ports take cycle c's values. `mutate` may change cycle c's values.
struct DumpSpec {
    std::string scope = "TOP.blk";
    int cycles = 8;
    bool clock = false;
    int reset_edges = 0;
    std::function<void(int, Values &)> mutate;
};

bool WriteDump(const std::string &path, const DumpSpec &d)
{
    char err[256];
    wave_t *w = wave_open(path.c_str(), err, sizeof err);
    if (!w) {
        ADD_FAILURE() << err;
        return false;
    }
    const std::string &s = d.scope;
    wave_sig_t clk = -1, rst = -1;
    if (d.clock) {
        clk = wave_add(w, (s + ".clk_i").c_str(), 1);
        rst = wave_add(w, (s + ".rst_ni").c_str(), 1);
    }
    wave_sig_t a = wave_add(w, (s + ".a_i").c_str(), 1);
    wave_sig_t b = wave_add(w, (s + ".b_i").c_str(), 8);
    wave_sig_t c = wave_add(w, (s + ".c_o").c_str(), 16);
    wave_sig_t wide = wave_add(w, (s + ".wide_o").c_str(), 72);
    wave_sig_t cnt = wave_add(w, (s + ".count").c_str(), 32);
    wave_sig_t st = wave_add_str(w, (s + ".state").c_str());
    auto put = [&](int cyc) {
        Values v = ValuesAt(cyc);
        if (d.mutate)
            d.mutate(cyc, v);
        wave_set(w, a, v.a_i);
        wave_set(w, b, v.b_i);
        wave_set(w, c, v.c_o);
        wave_set_words(w, wide, v.wide_o);
        wave_set(w, cnt, v.count);
        wave_set_str(w, st, cyc % 3 ? "run" : "idle");
    };
    if (!d.clock) {
        for (int cyc = 0; cyc < d.cycles; cyc++) {
            wave_time(w, (uint64_t)cyc * 1000);
            put(cyc);
        }
    } else {
        wave_time(w, 0); // clk 0, rst_ni 0, ports 0
        for (int e = 0; e < d.reset_edges + d.cycles; e++) {
            wave_time(w, (uint64_t)e * 1000 + 500);
            wave_set(w, clk, 1);
            if (e >= d.reset_edges)
                put(e - d.reset_edges);
            wave_time(w, (uint64_t)e * 1000 + 1000);
            wave_set(w, clk, 0);
            if (e + 1 == d.reset_edges)
                wave_set(w, rst, 1); // out of reset from the next edge
        }
    }
    return wave_close(w) == 0;
}

// ---------------------------------------------------------------------------
// The reader

const char kVcd[] =
    "$date today $end\n"
    "$version hand written $end\n"
    "$timescale 10 ns $end\n"
    "$scope module TOP $end\n"
    "$var wire 1 ! clk_i $end\n"
    "$var wire 4 \" data_i [3:0] $end\n"
    "$var real 64 # speed $end\n"
    "$scope module sub $end\n"
    "$var wire 4 \" data_i [3:0] $end\n" // an alias of TOP.data_i
    "$var reg 8 $ out_o[7:0] $end\n"
    "$var wire 1 % mem[3] $end\n"
    "$upscope $end\n"
    "$upscope $end\n"
    "$enddefinitions $end\n"
    "$comment the initial values $end\n"
    "#0\n"
    "$dumpvars\n"
    "0!\n"
    "bx \"\n"
    "r0 #\n"
    "b0 $\n"
    "z%\n"
    "$end\n"
    "#5\n"
    "1!\n"
    "b1 \"\n"       // 0001: 0 and 1 extend with 0
    "r1.5 #\n"
    "#7\n"
    "b10 \"\n"
    "b11 \"\n"      // same time: the last one stands
    "bz1 $\n"       // zzzzzzz1: z extends with z
    "X%\n"
    "#9\n"
    "r2.5 #\n"      // a real only: not a time of the trace
    "#12\n"
    "0!\n"
    "bx0 $\n"       // xxxxxxx0
    "B00001111 \"\n" // longer, but only by leading zeros
    "#20\n";       // nothing changes: not a time either

TEST_F(TraceDiffTest, ReadsAHandWrittenVcd)
{
    Trace tr(File("t.vcd", kVcd));
    ASSERT_NE(tr.t, nullptr) << tr.err;
    EXPECT_EQ(tr.t->format, TRACE_VCD);
    EXPECT_EQ(tr.t->timescale_mul, 10);
    EXPECT_EQ(tr.t->timescale_exp, -9);
    ASSERT_EQ(tr.t->n_sig, 5u); // the real is not read
    EXPECT_EQ(tr.t->n_skipped, 1u);
    const char *names[] = {"TOP.clk_i", "TOP.data_i", "TOP.sub.data_i", "TOP.sub.out_o", "TOP.sub.mem[3]"};
    const int widths[] = {1, 4, 4, 8, 1};
    for (int i = 0; i < 5; i++) {
        EXPECT_STREQ(tr.t->sig[i].name, names[i]);
        EXPECT_EQ(tr.t->sig[i].width, widths[i]);
    }
    EXPECT_STREQ(tr.t->sig[2].leaf, "data_i");
    EXPECT_EQ(tr.t->sig[2].depth, 2);
    EXPECT_EQ(tr.t->sig[1].track, tr.t->sig[2].track); // the alias shares its track
    EXPECT_EQ(tr.t->n_track, 4u);

    EXPECT_EQ(tr.Changes("TOP.clk_i"), "0:0 5:1 12:0");
    EXPECT_EQ(tr.Changes("TOP.data_i"), "0:xxxx 5:0001 7:0011 12:1111");
    EXPECT_EQ(tr.Changes("TOP.sub.out_o"), "0:00000000 7:zzzzzzz1 12:xxxxxxx0");
    EXPECT_EQ(tr.Changes("TOP.sub.mem[3]"), "0:z 7:x");
    std::vector<uint64_t> times(tr.t->times, tr.t->times + tr.t->n_times);
    EXPECT_EQ(times, (std::vector<uint64_t>{0, 5, 7, 12}));

    const trace_track_t *d = tr.Track("TOP.data_i");
    EXPECT_EQ(trace_value_at(d, 6), std::string("0001"));
    EXPECT_EQ(trace_value_at(d, 7), std::string("0011")); // the end of the step
    EXPECT_EQ(trace_value_at(d, 100), std::string("1111"));
}

TEST_F(TraceDiffTest, ValuesBeforeTheFirstTimeAreAtTimeZeroAndNoScopeIsFine)
{
    Trace tr(File("t.vcd", "$var wire 2 a x_o $end $enddefinitions $end b1 a #3 b10 a\n"));
    ASSERT_NE(tr.t, nullptr) << tr.err;
    EXPECT_STREQ(tr.t->sig[0].name, "x_o");
    EXPECT_EQ(tr.t->sig[0].depth, 0);
    EXPECT_EQ(tr.Changes("x_o"), "0:01 3:10");
}

// The writer's VCD and FST of the same calls read back alike: the same
// signals, the same changes (a 72-bit signal included), the same times.
TEST_F(TraceDiffTest, FstAndVcdOfTheWaveWriterReadTheSame)
{
    DumpSpec d;
    d.cycles = 20;
    ASSERT_TRUE(WriteDump(Path("p.vcd"), d));
    ASSERT_TRUE(WriteDump(Path("p.fst"), d));
    Trace v(Path("p.vcd")), f(Path("p.fst"));
    ASSERT_NE(v.t, nullptr) << v.err;
    ASSERT_NE(f.t, nullptr) << f.err;
    EXPECT_EQ(f.t->format, TRACE_FST);
    EXPECT_EQ(f.t->timescale_exp, -12);
    EXPECT_EQ(v.t->timescale_exp, -12);
    ASSERT_EQ(v.t->n_sig, 5u);
    ASSERT_EQ(f.t->n_sig, 5u);
    EXPECT_EQ(v.t->n_skipped, 1u); // the string
    EXPECT_EQ(f.t->n_skipped, 1u);
    for (size_t i = 0; i < v.t->n_sig; i++) {
        EXPECT_STREQ(v.t->sig[i].name, f.t->sig[i].name);
        EXPECT_EQ(v.t->sig[i].width, f.t->sig[i].width);
        EXPECT_EQ(v.Changes(v.t->sig[i].name), f.Changes(f.t->sig[i].name)) << v.t->sig[i].name;
    }
    ASSERT_EQ(v.t->n_times, 20u);
    ASSERT_EQ(f.t->n_times, 20u);
    for (size_t i = 0; i < 20; i++) {
        EXPECT_EQ(v.t->times[i], i * 1000);
        EXPECT_EQ(f.t->times[i], i * 1000);
    }
    // the 72-bit value at cycle 5, MSB first
    Values x = ValuesAt(5);
    std::string want;
    for (int b = 71; b >= 0; b--)
        want += ((x.wide_o[b / 64] >> (b % 64)) & 1) ? '1' : '0';
    EXPECT_EQ(trace_value_at(f.Track("TOP.blk.wide_o"), 5000), want);
}

// What the keep function turns down is declared but not recorded; its
// changes still count among the trace's times.
TEST_F(TraceDiffTest, UnkeptSignalsAreDeclaredButNotRecorded)
{
    DumpSpec d;
    ASSERT_TRUE(WriteDump(Path("p.fst"), d));
    char err[512];
    auto only_ports = [](const trace_signal_t *s, void *) -> int {
        return std::strcmp(s->leaf, "count") != 0;
    };
    trace_t *t = trace_read(Path("p.fst").c_str(), only_ports, nullptr, err, sizeof err);
    ASSERT_NE(t, nullptr) << err;
    long i = trace_find(t, "TOP.blk.count");
    ASSERT_GE(i, 0);
    EXPECT_EQ(t->track[t->sig[i].track].keep, 0);
    EXPECT_EQ(t->track[t->sig[i].track].n, 0u);
    EXPECT_EQ(t->n_times, 8u);
    trace_free(t);
}

TEST_F(TraceDiffTest, CyclesAreRisingEdgesOutOfReset)
{
    DumpSpec d;
    d.clock = true;
    d.reset_edges = 3;
    d.cycles = 6;
    ASSERT_TRUE(WriteDump(Path("c.vcd"), d));
    Trace tr(Path("c.vcd"));
    ASSERT_NE(tr.t, nullptr) << tr.err;
    trace_cycles_t cyc;
    char err[256];
    ASSERT_EQ(trace_cycles(tr.t, nullptr, &cyc, err, sizeof err), 0) << err;
    ASSERT_GE(cyc.clk, 0);
    ASSERT_GE(cyc.rst, 0);
    EXPECT_STREQ(tr.t->sig[cyc.clk].name, "TOP.blk.clk_i");
    EXPECT_STREQ(tr.t->sig[cyc.rst].name, "TOP.blk.rst_ni");
    EXPECT_EQ(cyc.reset_edges, 3u);
    ASSERT_EQ(cyc.n, 6u);
    for (size_t i = 0; i < cyc.n; i++)
        EXPECT_EQ(cyc.time[i], (i + 3) * 1000 + 500);
    trace_cycles_free(&cyc);
}

TEST_F(TraceDiffTest, TheShallowestClockIsTheOneAndAScopedOneIsPreferred)
{
    const char vcd[] =
        "$scope module TOP $end\n"
        "$scope module deep $end $var wire 1 ! clk_i $end $upscope $end\n"
        "$var wire 1 \" clk_i $end\n"
        "$var wire 1 # x_o $end\n"
        "$upscope $end\n"
        "$enddefinitions $end\n"
        "#0 0! 0\" 0#\n"
        "#1 1\"\n"      // TOP.clk_i rises
        "#2 0\" 1!\n"   // TOP.deep.clk_i rises
        "#3 1\" 0!\n"   // TOP.clk_i
        "#4 1#\n";
    Trace tr(File("k.vcd", vcd));
    ASSERT_NE(tr.t, nullptr) << tr.err;
    trace_cycles_t cyc;
    char err[256];
    ASSERT_EQ(trace_cycles(tr.t, nullptr, &cyc, err, sizeof err), 0);
    EXPECT_STREQ(tr.t->sig[cyc.clk].name, "TOP.clk_i");
    EXPECT_EQ(cyc.rst, -1);
    EXPECT_EQ(std::vector<uint64_t>(cyc.time, cyc.time + cyc.n), (std::vector<uint64_t>{1, 3}));
    trace_cycles_free(&cyc);
    ASSERT_EQ(trace_cycles(tr.t, "TOP.deep", &cyc, err, sizeof err), 0);
    EXPECT_STREQ(tr.t->sig[cyc.clk].name, "TOP.deep.clk_i");
    EXPECT_EQ(std::vector<uint64_t>(cyc.time, cyc.time + cyc.n), (std::vector<uint64_t>{2}));
    trace_cycles_free(&cyc);
}

TEST_F(TraceDiffTest, WithoutAClockEveryTimestampIsACycle)
{
    Trace tr(File("n.vcd", "$var wire 1 ! a_o $end $var wire 3 \" n $end $enddefinitions $end\n"
                           "#0 0! b0 \" #4 1! #9 b1 \" #10 #11 0!\n"));
    ASSERT_NE(tr.t, nullptr) << tr.err;
    trace_cycles_t cyc;
    char err[256];
    ASSERT_EQ(trace_cycles(tr.t, nullptr, &cyc, err, sizeof err), 0);
    EXPECT_EQ(cyc.clk, -1);
    EXPECT_EQ(std::vector<uint64_t>(cyc.time, cyc.time + cyc.n), (std::vector<uint64_t>{0, 4, 9, 11}));
    trace_cycles_free(&cyc);
}

// Malformed VCDs: the message names the file, the line and what was expected.
TEST_F(TraceDiffTest, VcdErrorsNameTheFileTheLineAndWhatWasExpected)
{
    const std::string head = "$timescale 1ps $end\n$scope module t $end\n$var wire 4 ! a_i $end\n"
                             "$upscope $end\n$enddefinitions $end\n"; // 5 lines
    struct Case {
        std::string text;
        int line;
        const char *what;
    } cases[] = {
        {head + "#0\nb0 !\nb1q !\n", 8, "expected bits 0, 1, x or z"},
        {head + "#0\n1?\n", 7, "unknown identifier code '?'"},
        {head + "#10\n#5\n", 7, "time goes backwards"},
        {head + "#0\nb10101 !\n", 7, "has 5 bits, more than its 4"},
        {head + "#0\nhello\n", 7, "expected a value change"},
        {head + "#1x\n", 6, "expected a time"},
        {head + "$var wire 1 \" b $end\n", 6, "unexpected '$var' after $enddefinitions"},
        {"$scope module t $end\n$var wire zz ! a $end\n", 2, "expected a size"},
        {"$scope module t $end\n$var wire 1 ! a junk $end\n", 2, "expected a bit range"},
        {"$upscope $end\n", 1, "$upscope without an open $scope"},
        {"$timescale 3 parsecs $end\n", 1, "$timescale: expected 1, 10 or 100"},
        {"$scope module t $end\n\n$var wire 1 ! a $end\n", 3, "ends before $enddefinitions"},
        {"$comment never closed\n\n", 2, "ends inside $comment (line 1)"},
        {"$scope module t $end\n$var wire 1 ! a_o $end\n$var wire", 3, "ends where the size of $var"},
        {"$var wire 1 ! a $end\n$var wire 2 ! b $end\n", 2, "has size 2 here but 1"},
        {"garbage\n", 1, "expected a declaration command"},
    };
    int k = 0;
    for (const Case &c : cases) {
        std::string path = File("bad" + std::to_string(k++) + ".vcd", c.text);
        Trace tr(path);
        EXPECT_EQ(tr.t, nullptr) << c.text;
        std::string want = path + ":" + std::to_string(c.line) + ": ";
        EXPECT_EQ(tr.err.rfind(want, 0), 0u) << "message: " << tr.err << "\nexpected it to start with "
                                             << want;
        EXPECT_NE(tr.err.find(c.what), std::string::npos) << "message: " << tr.err;
    }
}

TEST_F(TraceDiffTest, FilesThatAreNeitherVcdNorFstAreRefused)
{
    {
        Trace tr(Path("missing.vcd"));
        EXPECT_EQ(tr.t, nullptr);
        EXPECT_NE(tr.err.find("cannot open '" + Path("missing.vcd") + "'"), std::string::npos) << tr.err;
    }
    {
        Trace tr(File("empty.fst", ""));
        EXPECT_EQ(tr.t, nullptr);
        EXPECT_NE(tr.err.find("empty file"), std::string::npos) << tr.err;
    }
    {
        Trace tr(File("x.bin", std::string("\x7f" "ELF\x02\x01\x01 garbage", 16)));
        EXPECT_EQ(tr.t, nullptr);
        EXPECT_NE(tr.err.find("neither a VCD file"), std::string::npos) << tr.err;
    }
    {
        // FST-like first byte, then rubbish; and a real FST cut short
        Trace tr(File("x.fst", std::string("\0\0\0\0rubbish rubbish rubbish", 27)));
        EXPECT_EQ(tr.t, nullptr);
        EXPECT_NE(tr.err.find("malformed FST file"), std::string::npos) << tr.err;
    }
    DumpSpec d;
    d.cycles = 200;
    ASSERT_TRUE(WriteDump(Path("whole.fst"), d));
    FILE *f = std::fopen(Path("whole.fst").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    std::string whole = testutil::slurp(f);
    Trace tr(File("cut.fst", whole.substr(0, whole.size() / 2)));
    EXPECT_EQ(tr.t, nullptr);
    EXPECT_NE(tr.err.find(Path("cut.fst") + ": malformed FST file ("), std::string::npos) << tr.err;
    EXPECT_NE(tr.err.find("past the end of the file"), std::string::npos) << tr.err;
}

// x and z in an FST: the project's writer only writes 0 and 1, so the FST
// comes from GTKWave's vcd2fst (skipped where it is not installed).
TEST_F(TraceDiffTest, XAndZSurviveAnFstWrittenByVcd2fst)
{
    std::string out;
    if (testutil::run("command -v vcd2fst", &out) != 0)
        GTEST_SKIP() << "vcd2fst (gtkwave) is not installed";
    std::string vcd = File("xz.vcd", "$timescale 1ns $end\n$scope module t $end\n"
                                     "$var wire 4 ! d_o [3:0] $end\n$var wire 1 \" v_o $end\n"
                                     "$var real 64 # r $end\n$upscope $end\n$enddefinitions $end\n"
                                     "#0\nbx !\n0\"\nr0.5 #\n#1\nb1x1z !\n#2\nz\"\nr1 #\n#3\nb1 !\n");
    ASSERT_EQ(testutil::run("vcd2fst " + vcd + " " + Path("xz.fst"), &out, true), 0) << out;
    Trace tr(Path("xz.fst"));
    ASSERT_NE(tr.t, nullptr) << tr.err;
    EXPECT_EQ(tr.t->timescale_exp, -9);
    EXPECT_EQ(tr.t->n_skipped, 1u); // the real
    EXPECT_EQ(tr.Changes("t.d_o"), "0:xxxx 1:1x1z 3:0001");
    EXPECT_EQ(tr.Changes("t.v_o"), "0:0 2:z");
    EXPECT_EQ(Diff(vcd + " " + Path("xz.fst"), &out), 0);
    EXPECT_EQ(out, "diff: equal: 4 cycles, 2 ports\n");
}

// A real trace: the send pipeline's RTL under Verilator, traced to FST by
// VerilatedFstC. Names carry bit ranges (" [7:0]") and ports alias their
// instance's; the cycles are the clock's edges out of reset.
TEST_F(TraceDiffTest, ReadsAVerilatorFstOfARealRun)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " rate --quiet --stack ub --burst 8 --backend rtl --wave " +
                                Path("r.fst"),
                            &out, true),
              0)
        << out;
    std::string rtl;
    if (DIR *d = opendir(dir_.c_str())) {
        while (struct dirent *e = readdir(d)) {
            std::string n = e->d_name;
            if (n.find("rtl") != std::string::npos && n.size() > 4 && n.substr(n.size() - 4) == ".fst")
                rtl = Path(n);
        }
        closedir(d);
    }
    ASSERT_FALSE(rtl.empty()) << "no RTL trace next to " << Path("r.fst");
    Trace tr(rtl);
    ASSERT_NE(tr.t, nullptr) << tr.err;
    const trace_signal_t *op = tr.Sig("TOP.wr_opcode_i");
    ASSERT_NE(op, nullptr) << "no TOP.wr_opcode_i (is the range stripped?)";
    EXPECT_EQ(op->width, 8);
    const trace_signal_t *inner = tr.Sig("TOP.ub_tx.wr_opcode_i");
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(op->track, inner->track); // the alias

    trace_cycles_t cyc;
    char err[256];
    ASSERT_EQ(trace_cycles(tr.t, nullptr, &cyc, err, sizeof err), 0);
    ASSERT_GE(cyc.clk, 0);
    EXPECT_STREQ(tr.t->sig[cyc.clk].name, "TOP.clk_i");
    ASSERT_GE(cyc.rst, 0);
    EXPECT_STREQ(tr.t->sig[cyc.rst].name, "TOP.rst_ni");
    // counted here: every change of the clock to 1 with rst_ni 1 after it
    // (the trace is dumped after each edge: its first value is an edge too)
    const trace_track_t *ck = tr.Track("TOP.clk_i"), *rs = tr.Track("TOP.rst_ni");
    size_t edges = 0;
    for (size_t i = 0; i < ck->n; i++) {
        if ((i == 0 || ck->val[(i - 1) * 2] == '0') && ck->val[i * 2] == '1') {
            const char *r = trace_value_at(rs, ck->time[i]);
            edges += r && r[0] == '1';
        }
    }
    EXPECT_GT(edges, 10u);
    EXPECT_EQ(cyc.n, edges);
    trace_cycles_free(&cyc);

    std::string err_text;
    EXPECT_EQ(Diff(rtl + " " + rtl, &out, &err_text), 0) << out << err_text;
    // (the ports of every instance: the path's, its pipeline's with the order
    // tracker inside, and the channel table's; the pipeline's scheduler is
    // its own logic, no instance)
    EXPECT_EQ(out, "diff: equal: " + std::to_string(edges) + " cycles, 60 ports\n");
}

// ---------------------------------------------------------------------------
// The FST check (sim/core/fst_check.h)

std::string ReadBytes(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    return f ? testutil::slurp(f) : std::string();
}

uint64_t Be64(const std::string &d, size_t at)
{
    uint64_t v = 0;
    for (size_t i = 0; i < 8 && at + i < d.size(); i++)
        v = v << 8 | (unsigned char)d[at + i];
    return v;
}

// The blocks of an FST file: type, the offset of its type byte, its length
// field (which counts itself and the block's contents).
struct FstBlock {
    int type;
    size_t pos;
    uint64_t len;
    size_t end() const { return pos + 1 + (size_t)len; }
};

std::vector<FstBlock> Blocks(const std::string &d)
{
    std::vector<FstBlock> v;
    size_t pos = 0;
    while (pos + 9 <= d.size()) {
        uint64_t len = Be64(d, pos + 1);
        if (len < 8 || len > d.size() - pos - 1)
            break;
        v.push_back({(unsigned char)d[pos], pos, len});
        pos += 1 + (size_t)len;
    }
    return v;
}

const FstBlock *FindBlock(const std::vector<FstBlock> &v, int type)
{
    for (const FstBlock &b : v)
        if (b.type == type)
            return &b;
    return nullptr;
}

// The FST writer's forms, written through it directly: a pack type for the
// changes (LZ4, as ubsim and Verilator write them, fastlz or zlib; the
// hierarchy is then LZ4 or gzip), one value change block or several, the
// file gzip wrapped whole, the hierarchy left in FILE.hier. The content is
// the same in all: a clock, an 8-bit port with x and z, a 70-bit one, a
// port equal to the 8-bit one for a while (an alias the writer finds
// itself), a real, a string, two declared aliases, dump off and on.
struct FstForm {
    const char *name;
    fstWriterPackType pack;
    bool blocks, wrapped, hier_file;
    int steps = 150; // 1: everything at time 0, a header without times
};

void WriteForm(const std::string &path, const FstForm &f)
{
    void *w = fstWriterCreate(path.c_str(), f.hier_file ? 0 : 1);
    ASSERT_NE(w, nullptr) << path;
    fstWriterSetPackType(w, f.pack);
    fstWriterSetTimescale(w, -9);
    if (f.wrapped)
        fstWriterSetRepackOnClose(w, 1);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "top", nullptr);
    fstHandle clk = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_INPUT, 1, "clk_i", 0);
    fstHandle d = fstWriterCreateVar(w, FST_VT_VCD_REG, FST_VD_OUTPUT, 8, "d_o [7:0]", 0);
    fstHandle wide = fstWriterCreateVar(w, FST_VT_SV_LOGIC, FST_VD_OUTPUT, 70, "wide_o", 0);
    fstHandle twin = fstWriterCreateVar(w, FST_VT_VCD_REG, FST_VD_OUTPUT, 8, "twin_o", 0);
    fstHandle level = fstWriterCreateVar(w, FST_VT_VCD_REAL, FST_VD_IMPLICIT, 64, "level", 0);
    fstHandle state = fstWriterCreateVar(w, FST_VT_GEN_STRING, FST_VD_IMPLICIT, 0, "state", 0);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "inner", nullptr);
    fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_INPUT, 1, "clk_i", clk);
    fstWriterCreateVar(w, FST_VT_VCD_REG, FST_VD_INPUT, 8, "d_i", d);
    fstWriterSetUpscope(w);
    fstWriterSetUpscope(w);
    for (int t = 0; t < f.steps; t++) {
        fstWriterEmitTimeChange(w, (uint64_t)t * 10);
        if (t == 50 || t == 70)
            fstWriterEmitDumpActive(w, t == 70);
        fstWriterEmitValueChange(w, clk, t % 2 ? "1" : "0");
        char v[80];
        for (int i = 0; i < 8; i++)
            v[i] = (char)('0' + ((t * 37) >> (7 - i) & 1));
        v[8] = '\0';
        if (t % 11 == 0)
            v[2] = 'z';
        if (t % 13 == 0)
            v[5] = 'x';
        fstWriterEmitValueChange(w, d, v);
        if (t < 40 || t % 5 == 0)
            fstWriterEmitValueChange(w, twin, v);
        for (int i = 0; i < 70; i++)
            v[i] = (char)('0' + ((uint64_t)(t + 1) * 0x9e3779b97f4a7c15ull >> (i % 64) & 1));
        v[70] = '\0';
        fstWriterEmitValueChange(w, wide, v);
        double x = t * 0.5;
        fstWriterEmitValueChange(w, level, &x);
        if (t % 3 == 0) {
            std::string s = "s" + std::to_string(t);
            fstWriterEmitVariableLengthValueChange(w, state, s.data(), (uint32_t)s.size());
        }
        if (f.blocks && t % 50 == 49)
            fstWriterFlushContext(w);
    }
    if (f.steps > 1)
        fstWriterEmitTimeChange(w, (uint64_t)f.steps * 10);
    fstWriterClose(w);
}

TEST_F(TraceDiffTest, EveryFormOfTheFstWriterPassesTheCheckAndReadsAlike)
{
    const FstForm forms[] = {
        {"lz4.fst", FST_WR_PT_LZ4, false, false, false},
        {"fastlz.fst", FST_WR_PT_FASTLZ, false, false, false},
        {"zlib.fst", FST_WR_PT_ZLIB, false, false, false},
        {"lz4_blocks.fst", FST_WR_PT_LZ4, true, false, false},
        {"fastlz_blocks.fst", FST_WR_PT_FASTLZ, true, false, false},
        {"zlib_blocks.fst", FST_WR_PT_ZLIB, true, false, false},
        {"wrapped.fst", FST_WR_PT_LZ4, true, true, false},
        {"hier_file.fst", FST_WR_PT_ZLIB, true, false, true},
    };
    const char *names[] = {"top.clk_i", "top.d_o", "top.wide_o", "top.twin_o", "top.inner.d_i"};
    std::vector<std::string> first;
    for (const FstForm &f : forms) {
        SCOPED_TRACE(f.name);
        WriteForm(Path(f.name), f);
        std::string d = ReadBytes(Path(f.name));
        ASSERT_FALSE(d.empty());
        if (f.wrapped) {
            EXPECT_EQ((unsigned char)d[0], FST_BL_ZWRAPPER);
        } else {
            std::vector<FstBlock> b = Blocks(d);
            size_t vc = 0;
            for (const FstBlock &x : b)
                vc += x.type == FST_BL_VCDATA_DYN_ALIAS2;
            EXPECT_EQ(vc, f.blocks ? 3u : 1u);
            EXPECT_EQ(FindBlock(b, FST_BL_HIER_LZ4) != nullptr, f.pack == FST_WR_PT_LZ4 && !f.hier_file);
            EXPECT_EQ(FindBlock(b, FST_BL_HIER) != nullptr, f.pack != FST_WR_PT_LZ4 && !f.hier_file);
            EXPECT_NE(FindBlock(b, FST_BL_BLACKOUT), nullptr);
        }
        char why[512] = "";
        EXPECT_EQ(fst_check(Path(f.name).c_str(), why, sizeof why), FST_CHECK_OK) << why;
        Trace tr(Path(f.name));
        ASSERT_NE(tr.t, nullptr) << tr.err;
        EXPECT_EQ(tr.t->n_sig, 6u);
        EXPECT_EQ(tr.t->n_skipped, 2u); // the real and the string
        std::vector<std::string> got;
        for (const char *n : names)
            got.push_back(tr.Changes(n));
        EXPECT_EQ(got[4], got[1]); // the declared alias
        if (first.empty()) {
            first = got;
            EXPECT_EQ(got[1].rfind("0:00z00x00 10:00100101 ", 0), 0u) << got[1];
            EXPECT_NE(got[3], got[1]);
        } else {
            for (size_t i = 0; i < got.size(); i++)
                EXPECT_EQ(got[i], first[i]) << names[i];
        }
    }
    // the hierarchy of that form is in FILE.hier, which the reader reads
    EXPECT_EQ(access((Path("hier_file.fst") + ".hier").c_str(), F_OK), 0);

    // a dump that never leaves time 0: its header has no times, and the
    // reader then takes the widths from the hierarchy, not the geometry
    FstForm still = {"still.fst", FST_WR_PT_LZ4, false, false, false};
    still.steps = 1;
    WriteForm(Path(still.name), still);
    std::string d = ReadBytes(Path(still.name));
    EXPECT_EQ(Be64(d, 9), 0u);
    EXPECT_EQ(Be64(d, 17), 0u);
    char why[512] = "";
    EXPECT_EQ(fst_check(Path(still.name).c_str(), why, sizeof why), FST_CHECK_OK) << why;
    Trace tr(Path(still.name));
    ASSERT_NE(tr.t, nullptr) << tr.err;
    EXPECT_EQ(tr.Changes("top.d_o"), "0:00z00x00");
    EXPECT_EQ(tr.Changes("top.inner.clk_i"), "0:0");
}

// The FST reader reads FILE.hier instead of the file's own hierarchy when
// there is one: it is checked as well.
TEST_F(TraceDiffTest, AHierarchyFileNextToAnFstIsCheckedToo)
{
    WriteForm(Path("a.fst"), {"a.fst", FST_WR_PT_LZ4, false, false, false});
    File("a.fst.hier", "a stray file, not a hierarchy");
    Trace stray(Path("a.fst"));
    EXPECT_EQ(stray.t, nullptr);
    EXPECT_NE(stray.err.find(Path("a.fst") + ": malformed FST file (the hierarchy file 'a.fst.hier' next to it"),
              std::string::npos)
        << stray.err;

    WriteForm(Path("h.fst"), {"h.fst", FST_WR_PT_ZLIB, false, false, true});
    std::string h = ReadBytes(Path("h.fst.hier"));
    size_t at = h.find(std::string("d_o [7:0]") + '\0');
    ASSERT_NE(at, std::string::npos);
    ASSERT_EQ(h[at + 10], 8); // its width, 8 bits: now 9
    h[at + 10] = 9;
    File("h.fst.hier", h);
    Trace wider(Path("h.fst"));
    EXPECT_EQ(wider.t, nullptr);
    EXPECT_NE(wider.err.find("malformed FST file (the hierarchy file 'h.fst.hier' next to it: variable "
                             "'d_o [7:0]' (handle 2) is 9 bits but the geometry has 8 bits)"),
              std::string::npos)
        << wider.err;
}

// Real FST files of ubsim (the C model's and Verilator's), and some of the
// FST writer's other forms, with each byte in turn changed, three ways (one
// in the sanitizer build), read in this process: every copy is either refused with a message that names it or
// read. The reader never crashes (the sanitizer build shows any access out
// of bounds), never ends the process, never hangs. A change to what every
// reader relies on (a block's type or length, the header's endianness test
// and counts, the geometry's lengths and widths, a value change block's
// times, memory needed, index length and time table lengths) is always
// refused as malformed.
TEST_F(TraceDiffTest, AnFstWithAnyOneByteChangedIsRefusedAsMalformedOrRead)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --quiet --wave " + Path("l.fst"), &out, true), 0) << out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " rate --quiet --stack ub --burst 8 --backend rtl --wave " +
                                Path("r.fst"),
                            &out, true),
              0)
        << out;
    // and the FST writer's other forms: other pack types, several blocks,
    // the file gzip wrapped
    WriteForm(Path("f.fst"), {"f.fst", FST_WR_PT_FASTLZ, true, false, false});
    WriteForm(Path("z.fst"), {"z.fst", FST_WR_PT_ZLIB, false, false, false});
    WriteForm(Path("w.fst"), {"w.fst", FST_WR_PT_LZ4, false, true, false});
    const unsigned masks[] = {0xff, 0x01, 0x80};
    const size_t n_masks = testutil::short_run() ? 1 : 3;
    const std::string path = Path("x.fst");
    for (const char *name : {"l.fst", "l-ub_async-c.fst", "r-rtl.fst", "f.fst", "z.fst", "w.fst"}) {
        SCOPED_TRACE(name);
        std::string d = ReadBytes(Path(name));
        ASSERT_GT(d.size(), 500u);
        std::vector<FstBlock> blocks = Blocks(d);
        ASSERT_EQ(blocks.empty() ? 0 : blocks.back().end(), d.size());
        std::vector<bool> must(d.size(), false);
        auto mark = [&](size_t from, size_t to) {
            for (size_t i = from; i < to && i < d.size(); i++)
                must[i] = true;
        };
        for (const FstBlock &b : blocks) {
            mark(b.pos, b.pos + 9);
            if (b.type == FST_BL_HDR) {
                mark(25, 33); // the endianness test
                mark(41, 73); // scopes, variables, handles, value change blocks
            } else if (b.type == FST_BL_GEOM) {
                // its lengths and handle count; its widths when stored as
                // they are (zlib data can change without a change in what it
                // unpacks to: in unused code lengths, in its last bits)
                mark(b.pos, Be64(d, b.pos + 9) == b.len - 24 ? b.end() : b.pos + 25);
            } else if (b.type == FST_BL_VCDATA_DYN_ALIAS2) {
                size_t body = b.pos + 1;
                mark(body + 8, body + 32);          // begin, end, memory needed
                mark(b.end() - 24, b.end());        // the time table's lengths and count
                size_t t_clen = (size_t)Be64(d, b.end() - 16);
                mark(b.end() - 24 - t_clen - 8, b.end() - 24 - t_clen); // the index length
            }
        }
        size_t read = 0, refused = 0;
        for (size_t i = 0; i < d.size(); i++) {
            for (size_t m = 0; m < n_masks; m++) {
                std::string c = d;
                c[i] = (char)(c[i] ^ masks[m]);
                File("x.fst", c);
                char err[1024] = "";
                trace_t *t = trace_read(path.c_str(), nullptr, nullptr, err, sizeof err);
                if (t) {
                    trace_free(t);
                    read++;
                    if (must[i])
                        ADD_FAILURE() << "byte " << i << " ^ " << masks[m] << " was read";
                    continue;
                }
                refused++;
                std::string e = err;
                bool malformed = e.rfind(path + ": malformed FST file (", 0) == 0;
                if (must[i] ? !malformed : e.rfind(path + ": ", 0) != 0)
                    ADD_FAILURE() << "byte " << i << " ^ " << masks[m] << ": " << e;
            }
        }
        EXPECT_GT(read, 0u);
        EXPECT_GT(refused, d.size() * n_masks / 4);
    }
}

// The two corruptions that made the FST reader go wrong before the check:
// a value change block's time count made smaller (the reader wrote past its
// table of times) and a byte of the packed geometry changed (the reader
// ended the process with status 255). ubsim diff exits 2 and names the file
// as malformed; as it does for a handful of other structural changes.
TEST_F(TraceDiffTest, CorruptedFstsMakeDiffExitTwoAsMalformed)
{
    std::string out, err;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " latency --quiet --wave " + Path("l.fst"), &out, true), 0) << out;
    const std::string good = Path("l.fst"), d = ReadBytes(good);
    std::vector<FstBlock> blocks = Blocks(d);
    const FstBlock *vc = FindBlock(blocks, FST_BL_VCDATA_DYN_ALIAS2), *geom = FindBlock(blocks, FST_BL_GEOM),
                   *hier = FindBlock(blocks, FST_BL_HIER_LZ4);
    ASSERT_TRUE(vc && geom && hier);
    uint64_t n_times = Be64(d, vc->end() - 8);
    ASSERT_GT(n_times, 2u);
    ASSERT_LT(n_times, 256u);
    ASSERT_NE(Be64(d, geom->pos + 9), geom->len - 24) << "the geometry is not packed";
    struct Case {
        const char *name;
        size_t at;
        unsigned char to;
        const char *what;
    } cases[] = {
        {"times.fst", vc->end() - 1, 1, "value change block at byte 330: its time table"},
        {"geometry.fst", geom->pos + 25, 0, "the geometry block"}, // zlib's header
        {"header.fst", 72, (unsigned char)(d[72] + 1), "value change blocks"},
        {"hierarchy.fst", hier->pos + 16, (unsigned char)(d[hier->pos + 16] ^ 0x10), "the hierarchy block"},
        {"index.fst", vc->end() - 24 - (size_t)Be64(d, vc->end() - 16) - 1, 0, "chain"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.name);
        std::string bad = d;
        ASSERT_NE((unsigned char)bad[c.at], c.to);
        bad[c.at] = (char)c.to;
        std::string p = File(c.name, bad);
        for (int order = 0; order < 2; order++) {
            EXPECT_EQ(Diff(order ? p + " " + good : good + " " + p, &out, &err), 2);
            EXPECT_EQ(out, "");
            EXPECT_EQ(err.rfind("ubsim diff: " + p + ": malformed FST file (", 0), 0u) << err;
            EXPECT_NE(err.find(c.what), std::string::npos) << err;
        }
    }
}

// ---------------------------------------------------------------------------
// The command

TEST_F(TraceDiffTest, EqualFilesExitZero)
{
    DumpSpec d;
    ASSERT_TRUE(WriteDump(Path("a.vcd"), d));
    ASSERT_TRUE(WriteDump(Path("b.vcd"), d));
    std::string out, err;
    EXPECT_EQ(Diff(Path("a.vcd") + " " + Path("b.vcd"), &out, &err), 0) << err;
    EXPECT_EQ(out, "diff: equal: 8 cycles, 4 ports\n");
    EXPECT_EQ(err, "");
}

TEST_F(TraceDiffTest, VcdAndFstOfTheSameContentAreEqual)
{
    DumpSpec d;
    d.cycles = 50;
    ASSERT_TRUE(WriteDump(Path("a.vcd"), d));
    ASSERT_TRUE(WriteDump(Path("a.fst"), d));
    std::string out, err;
    EXPECT_EQ(Diff(Path("a.vcd") + " " + Path("a.fst"), &out, &err), 0) << err;
    EXPECT_EQ(out, "diff: equal: 50 cycles, 4 ports\n");
    EXPECT_EQ(Diff(Path("a.fst") + " " + Path("a.vcd"), &out, &err), 0) << err;
}

// One bit of one port at one cycle: found there and nowhere else.
TEST_F(TraceDiffTest, APlantedBitFlipIsFoundAtItsCycleAndPort)
{
    DumpSpec a, b;
    a.cycles = b.cycles = 30;
    b.mutate = [](int c, Values &v) {
        if (c == 17)
            v.c_o ^= 1u << 5;
    };
    ASSERT_TRUE(WriteDump(Path("a.fst"), a));
    ASSERT_TRUE(WriteDump(Path("b.fst"), b));
    std::string out, err;
    EXPECT_EQ(Diff(Path("a.fst") + " " + Path("b.fst"), &out, &err), 1) << err;
    Values x = ValuesAt(17);
    std::vector<std::string> lines = Lines(out);
    ASSERT_EQ(lines.size(), 2u) << out;
    EXPECT_EQ(lines[0], "diff: first difference: cycle 17, port c_o: A=" + Hex(x.c_o, 4) +
                            " B=" + Hex(x.c_o ^ 32, 4));
    EXPECT_EQ(lines[1], "diff: 30 cycles compared, 4 ports, 1 differing cycles");
}

// A 72-bit port: 18 hex digits; the top bit of the top word.
TEST_F(TraceDiffTest, AWidePortIsPrintedInFullHex)
{
    DumpSpec a, b;
    b.mutate = [](int c, Values &v) {
        if (c == 3)
            v.wide_o[1] ^= 0x80;
    };
    ASSERT_TRUE(WriteDump(Path("a.vcd"), a));
    ASSERT_TRUE(WriteDump(Path("b.fst"), b));
    std::string out;
    EXPECT_EQ(Diff(Path("a.vcd") + " " + Path("b.fst"), &out), 1);
    Values x = ValuesAt(3);
    char want[200];
    std::snprintf(want, sizeof want,
                  "diff: first difference: cycle 3, port wide_o: A=0x%02llx%016llx B=0x%02llx%016llx\n",
                  (unsigned long long)x.wide_o[1], (unsigned long long)x.wide_o[0],
                  (unsigned long long)(x.wide_o[1] ^ 0x80), (unsigned long long)x.wide_o[0]);
    EXPECT_EQ(LineOf(out, 0) + "\n", want);
}

// B's b_i lags A's by one cycle from cycle 9 on: the first difference is at 9.
TEST_F(TraceDiffTest, AValueShiftedByOneCycleIsFoundWhereItFirstDiffers)
{
    DumpSpec a, b;
    a.cycles = b.cycles = 16;
    b.mutate = [](int c, Values &v) {
        if (c >= 9)
            v.b_i = ValuesAt(c - 1).b_i;
    };
    ASSERT_TRUE(WriteDump(Path("a.vcd"), a));
    ASSERT_TRUE(WriteDump(Path("b.vcd"), b));
    std::string out;
    EXPECT_EQ(Diff("--max 0 " + Path("a.vcd") + " " + Path("b.vcd"), &out), 1);
    std::vector<std::string> lines = Lines(out);
    ASSERT_EQ(lines.size(), 2u) << out;
    EXPECT_EQ(lines[0], "diff: first difference: cycle 9, port b_i: A=" + Hex(ValuesAt(9).b_i, 2) +
                            " B=" + Hex(ValuesAt(8).b_i, 2));
    EXPECT_EQ(lines[1], "diff: 16 cycles compared, 4 ports, 7 differing cycles");
}

TEST_F(TraceDiffTest, MaxListsMoreDifferencesAndAllDifferingCyclesAreCounted)
{
    DumpSpec a, b;
    a.cycles = b.cycles = 12;
    b.mutate = [](int c, Values &v) {
        if (c >= 2 && c < 7) {
            v.a_i ^= 1;
            v.c_o ^= 1;
        }
    };
    ASSERT_TRUE(WriteDump(Path("a.vcd"), a));
    ASSERT_TRUE(WriteDump(Path("b.vcd"), b));
    std::string out;
    EXPECT_EQ(Diff("--max 3 " + Path("a.vcd") + " " + Path("b.vcd"), &out), 1);
    std::vector<std::string> lines = Lines(out);
    ASSERT_EQ(lines.size(), 5u) << out;
    EXPECT_EQ(lines[0].rfind("diff: first difference: cycle 2, port a_i: A=0x0 B=0x1", 0), 0u) << out;
    EXPECT_EQ(lines[1].rfind("diff: difference: cycle 2, port c_o: ", 0), 0u) << out;
    EXPECT_EQ(lines[2].rfind("diff: difference: cycle 3, port a_i: A=0x1 B=0x0", 0), 0u) << out;
    EXPECT_EQ(lines[3].rfind("diff: difference: cycle 3, port c_o: ", 0), 0u) << out;
    EXPECT_EQ(lines[4], "diff: 12 cycles compared, 4 ports, 5 differing cycles");
    // the default lists 10 more
    EXPECT_EQ(Diff(Path("a.vcd") + " " + Path("b.vcd"), &out), 1);
    EXPECT_EQ(Lines(out).size(), 1u + 9u + 1u) << out; // 10 differences in all, then the summary
}

TEST_F(TraceDiffTest, XAndZValuesArePrintedInBinary)
{
    const std::string head = "$scope module t $end\n$var wire 4 ! d_o $end\n$var wire 1 \" v_o $end\n"
                             "$upscope $end\n$enddefinitions $end\n";
    std::string a = File("a.vcd", head + "#0\nb1010 !\n0\"\n#1\nb1x1z !\n#2\n1\"\n");
    std::string b = File("b.vcd", head + "#0\nb1010 !\n0\"\n#1\nb1011 !\n#2\nz\"\n");
    std::string out;
    EXPECT_EQ(Diff("--max 5 " + a + " " + b, &out), 1);
    std::vector<std::string> lines = Lines(out);
    ASSERT_EQ(lines.size(), 4u) << out;
    EXPECT_EQ(lines[0], "diff: first difference: cycle 1, port d_o: A=0b1x1z B=0xb");
    EXPECT_EQ(lines[1], "diff: difference: cycle 2, port d_o: A=0b1x1z B=0xb");
    EXPECT_EQ(lines[2], "diff: difference: cycle 2, port v_o: A=0x1 B=0bz");
    EXPECT_EQ(lines[3], "diff: 3 cycles compared, 2 ports, 2 differing cycles");
}

// An RTL-like trace (clk_i, rst_ni, three edges in reset) against a port dump
// without a clock: the reset edges are not cycles, so the two line up.
TEST_F(TraceDiffTest, ResetEdgesAreNotCyclesSoAClockedTraceMatchesAPortDump)
{
    DumpSpec rtl, c;
    rtl.clock = true;
    rtl.reset_edges = 3;
    rtl.cycles = c.cycles = 10;
    ASSERT_TRUE(WriteDump(Path("rtl.fst"), rtl));
    ASSERT_TRUE(WriteDump(Path("c.vcd"), c));
    std::string out, err;
    EXPECT_EQ(Diff(Path("c.vcd") + " " + Path("rtl.fst"), &out, &err), 0) << out << err;
    EXPECT_EQ(out, "diff: equal: 10 cycles, 4 ports\n");
    EXPECT_EQ(err, ""); // clk_i and rst_ni are not ports

    // a difference at the first edge out of reset is cycle 0
    DumpSpec bad = rtl;
    bad.mutate = [](int cyc, Values &v) {
        if (cyc == 0)
            v.b_i = 0x99;
    };
    ASSERT_TRUE(WriteDump(Path("bad.vcd"), bad));
    EXPECT_EQ(Diff("--max 0 " + Path("c.vcd") + " " + Path("bad.vcd"), &out), 1);
    EXPECT_EQ(LineOf(out, 0), "diff: first difference: cycle 0, port b_i: A=" + Hex(ValuesAt(0).b_i, 2) +
                                 " B=0x99");
}

// Without a clock every distinct timestamp is a cycle, also one at which only
// a signal that is not a port changes; a "#t" with no change is none.
TEST_F(TraceDiffTest, WithoutAClockEveryTimestampCounts)
{
    const std::string head = "$scope module m $end\n$var wire 1 ! q_o $end\n$var wire 2 \" st $end\n"
                             "$upscope $end\n$enddefinitions $end\n";
    std::string a = File("a.vcd", head + "#0 0! b0 \" #10 b1 \" #20 1! #30 #40 b10 \"\n");
    std::string b = File("b.vcd", head + "#0 0! #5 1!\n"); // q_o rises at its cycle 1
    std::string out;
    EXPECT_EQ(Diff(a + " " + b, &out), 1);
    std::vector<std::string> lines = Lines(out);
    ASSERT_EQ(lines.size(), 3u) << out;
    // A's cycles: 0, 10, 20, 40; B's: 0, 5
    EXPECT_EQ(lines[0], "diff: first difference: cycle 1, port q_o: A=0x0 B=0x1");
    EXPECT_EQ(lines[1], "diff: difference: cycle 2: B has no more cycles");
    EXPECT_EQ(lines[2], "diff: 4 cycles compared, 1 ports, 3 differing cycles");
}

TEST_F(TraceDiffTest, AShorterFileIsADifferenceAtItsEnd)
{
    DumpSpec a, b;
    a.cycles = 12;
    b.cycles = 9;
    ASSERT_TRUE(WriteDump(Path("a.vcd"), a));
    ASSERT_TRUE(WriteDump(Path("b.fst"), b));
    std::string out;
    EXPECT_EQ(Diff(Path("a.vcd") + " " + Path("b.fst"), &out), 1);
    EXPECT_EQ(out, "diff: first difference: cycle 9: B has no more cycles\n"
                   "diff: 12 cycles compared, 4 ports, 3 differing cycles\n");
    EXPECT_EQ(Diff(Path("b.fst") + " " + Path("a.vcd"), &out), 1);
    EXPECT_EQ(LineOf(out, 0), "diff: first difference: cycle 9: A has no more cycles");
}

TEST_F(TraceDiffTest, BadInputExitsTwoWithAMessage)
{
    DumpSpec d;
    ASSERT_TRUE(WriteDump(Path("ok.vcd"), d));
    std::string ok = Path("ok.vcd"), out, err;

    EXPECT_EQ(Diff(ok + " " + Path("missing.fst"), &out, &err), 2);
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "ubsim diff: cannot open '" + Path("missing.fst") + "': No such file or directory\n");

    std::string junk = File("junk.dat", "\x01\x02\x03 this is not a trace\n");
    EXPECT_EQ(Diff(junk + " " + ok, &out, &err), 2);
    EXPECT_EQ(err.rfind("ubsim diff: " + junk + ": neither a VCD file", 0), 0u) << err;

    std::string syntax = File("syntax.vcd", "$scope module t $end\n$var wire 1 ! a_o $end\n$upscope $end\n"
                                            "$enddefinitions $end\n#0\n0!\n#1\n1 !\n");
    EXPECT_EQ(Diff(ok + " " + syntax, &out, &err), 2);
    EXPECT_EQ(err, "ubsim diff: " + syntax + ":8: value change '1': expected the identifier code right "
                   "after the value, as in 1!\n");

    std::string noports = File("noports.vcd", "$var wire 1 ! a $end $enddefinitions $end #0 0!\n");
    EXPECT_EQ(Diff(ok + " " + noports, &out, &err), 2);
    EXPECT_NE(err.find("ubsim diff: no port in common"), std::string::npos) << err;

    // usage errors
    EXPECT_EQ(Diff(ok, &out, &err), 2);
    EXPECT_NE(err.find("ubsim diff: expected two trace files"), std::string::npos) << err;
    EXPECT_EQ(Diff("--max -1 " + ok + " " + ok, &out, &err), 2);
    EXPECT_NE(err.find("ubsim diff: --max: expected a whole number from 0 to 9223372036854775807, got '-1'"), std::string::npos)
        << err;
    EXPECT_EQ(Diff("--colour " + ok + " " + ok, &out, &err), 2);
    EXPECT_NE(err.find("ubsim diff: unknown option '--colour'"), std::string::npos) << err;
    EXPECT_EQ(Diff("--format xml " + ok + " " + ok, &out, &err), 2);
    EXPECT_EQ(Diff(ok + " " + ok + " " + ok, &out, &err), 2);
    EXPECT_EQ(Diff("--scope-a TOP.nowhere " + ok + " " + ok, &out, &err), 2);
    EXPECT_NE(err.find("--scope-a TOP.nowhere: no signal of A"), std::string::npos) << err;
}

TEST_F(TraceDiffTest, PortsOfDifferentWidthsExitTwo)
{
    std::string a = File("a.vcd", "$scope module t $end $var wire 8 ! len_i $end $upscope $end "
                                  "$enddefinitions $end #0 b1 !\n");
    std::string b = File("b.vcd", "$scope module u $end $var wire 16 ! len_i $end $upscope $end "
                                  "$enddefinitions $end #0 b1 !\n");
    std::string out, err;
    EXPECT_EQ(Diff(a + " " + b, &out, &err), 2);
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "ubsim diff: port len_i has 8 bits in A (" + a + ", t.len_i) but 16 in B (" + b +
                       ", u.len_i)\n");
}

TEST_F(TraceDiffTest, APortInOnlyOneFileIsANoteNotADifference)
{
    std::string a = File("a.vcd", "$var wire 1 ! x_o $end $var wire 1 \" extra_i $end "
                                  "$enddefinitions $end #0 0! 0\" #1 1\"\n");
    std::string b = File("b.vcd", "$var wire 1 ! x_o $end $var wire 1 \" other_o $end "
                                  "$enddefinitions $end #0 0! 1\" #1 0\"\n");
    std::string out, err;
    EXPECT_EQ(Diff(a + " " + b, &out, &err), 0);
    EXPECT_EQ(out, "diff: equal: 2 cycles, 1 ports\n");
    // one line by default, each with its scope under --verbose, and in JSON
    // the lists (nothing on stderr)
    EXPECT_EQ(err, "diff: not compared: 1 port only in A, 1 only in B (--verbose lists them)\n");
    EXPECT_EQ(Diff("--verbose " + a + " " + b, &out, &err), 0);
    EXPECT_EQ(err, "diff: port extra_i only in A\ndiff: port other_o only in B\n");
    EXPECT_EQ(Diff("--format json " + a + " " + b, &out, &err), 0);
    EXPECT_EQ(err, "");
    EXPECT_NE(out.find("\"only_in_a\":\t[\"extra_i\"]"), std::string::npos) << out;
    EXPECT_NE(out.find("\"only_in_b\":\t[\"other_o\"]"), std::string::npos) << out;
}

// Two instances in A; B is a dump of the second. By default a port is the
// shallowest signal (ties: the first, u0); --scope-a picks u1.
TEST_F(TraceDiffTest, ScopeARestrictsTheFilesPorts)
{
    // A: c_o of two instances, u0 (a counter) declared first, u1 (the values
    // of the generated dumps)
    char err_buf[256];
    wave_t *w = wave_open(Path("a.vcd").c_str(), err_buf, sizeof err_buf);
    ASSERT_NE(w, nullptr) << err_buf;
    wave_sig_t s0 = wave_add(w, "TOP.u0.c_o", 16), s1 = wave_add(w, "TOP.u1.c_o", 16);
    for (int c = 0; c < 8; c++) {
        wave_time(w, (uint64_t)c * 1000);
        wave_set(w, s0, (uint64_t)c);
        wave_set(w, s1, ValuesAt(c).c_o);
    }
    ASSERT_EQ(wave_close(w), 0);
    DumpSpec b;
    b.scope = "TOP.u1";
    ASSERT_TRUE(WriteDump(Path("b.vcd"), b));

    std::string out, err;
    EXPECT_EQ(Diff("--max 0 " + Path("a.vcd") + " " + Path("b.vcd"), &out, &err), 1);
    EXPECT_EQ(LineOf(out, 0), "diff: first difference: cycle 0, port c_o: A=0x0000 B=" +
                                 Hex(ValuesAt(0).c_o, 4));
    EXPECT_EQ(Diff("--scope-a TOP.u1 " + Path("a.vcd") + " " + Path("b.vcd"), &out, &err), 0) << out << err;
    EXPECT_EQ(out, "diff: equal: 8 cycles, 1 ports\n");
    EXPECT_EQ(err, "diff: not compared: 0 ports only in A, 3 only in B (--verbose lists them)\n");
    EXPECT_EQ(Diff("-v --scope-a TOP.u1 " + Path("a.vcd") + " " + Path("b.vcd"), &out, &err), 0);
    EXPECT_EQ(err, "diff: port TOP.u1.a_i only in B\ndiff: port TOP.u1.b_i only in B\n"
                   "diff: port TOP.u1.wide_o only in B\n");
    // the same from the other side with --scope-b, in its = form, with a
    // trailing dot
    EXPECT_EQ(Diff("--scope-b=TOP.u1. " + Path("b.vcd") + " " + Path("a.vcd"), &out, &err), 0) << out << err;
    // a prefix of a scope's name is not the scope
    EXPECT_EQ(Diff("--scope-a TOP.u " + Path("a.vcd") + " " + Path("b.vcd"), &out, &err), 2);
}

TEST_F(TraceDiffTest, JsonReportsTheFields)
{
    DumpSpec a, b;
    a.cycles = b.cycles = 10;
    b.mutate = [](int c, Values &v) {
        if (c == 4 || c == 6)
            v.b_i ^= 0x10;
    };
    ASSERT_TRUE(WriteDump(Path("a.fst"), a));
    ASSERT_TRUE(WriteDump(Path("b.vcd"), b));
    std::string out;
    EXPECT_EQ(Diff("--format json " + Path("a.fst") + " " + Path("b.vcd"), &out), 1);
    cJSON *j = cJSON_Parse(out.c_str());
    ASSERT_NE(j, nullptr) << out;
    EXPECT_TRUE(cJSON_IsFalse(cJSON_GetObjectItem(j, "equal")));
    EXPECT_EQ(cJSON_GetObjectItem(j, "cycles")->valuedouble, 10);
    EXPECT_EQ(cJSON_GetObjectItem(j, "ports")->valuedouble, 4);
    EXPECT_EQ(cJSON_GetObjectItem(j, "differing_cycles")->valuedouble, 2);
    cJSON *first = cJSON_GetObjectItem(j, "first");
    ASSERT_TRUE(cJSON_IsObject(first)) << out;
    EXPECT_EQ(cJSON_GetObjectItem(first, "cycle")->valuedouble, 4);
    EXPECT_STREQ(cJSON_GetObjectItem(first, "port")->valuestring, "b_i");
    EXPECT_EQ(std::string(cJSON_GetObjectItem(first, "a")->valuestring), Hex(ValuesAt(4).b_i, 2));
    EXPECT_EQ(std::string(cJSON_GetObjectItem(first, "b")->valuestring), Hex(ValuesAt(4).b_i ^ 0x10, 2));
    EXPECT_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(j, "differences")), 2);
    cJSON_Delete(j);

    EXPECT_EQ(Diff("--format=json " + Path("a.fst") + " " + Path("a.fst"), &out), 0);
    j = cJSON_Parse(out.c_str());
    ASSERT_NE(j, nullptr) << out;
    EXPECT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(j, "equal")));
    EXPECT_EQ(cJSON_GetObjectItem(j, "cycles")->valuedouble, 10);
    EXPECT_EQ(cJSON_GetObjectItem(j, "differing_cycles")->valuedouble, 0);
    EXPECT_TRUE(cJSON_IsNull(cJSON_GetObjectItem(j, "first")));
    cJSON_Delete(j);

    // a file that ends early: port, a and b null, "ended"
    DumpSpec s;
    s.cycles = 7;
    ASSERT_TRUE(WriteDump(Path("s.vcd"), s));
    EXPECT_EQ(Diff("--format json " + Path("a.fst") + " " + Path("s.vcd"), &out), 1);
    j = cJSON_Parse(out.c_str());
    ASSERT_NE(j, nullptr) << out;
    first = cJSON_GetObjectItem(j, "first");
    EXPECT_EQ(cJSON_GetObjectItem(first, "cycle")->valuedouble, 7);
    EXPECT_TRUE(cJSON_IsNull(cJSON_GetObjectItem(first, "port")));
    EXPECT_TRUE(cJSON_IsNull(cJSON_GetObjectItem(first, "a")));
    EXPECT_STREQ(cJSON_GetObjectItem(first, "ended")->valuestring, "b");
    EXPECT_EQ(cJSON_GetObjectItem(j, "cycles_a")->valuedouble, 10);
    EXPECT_EQ(cJSON_GetObjectItem(j, "cycles_b")->valuedouble, 7);
    cJSON_Delete(j);
}

TEST_F(TraceDiffTest, HelpDescribesTheCommand)
{
    std::string out;
    for (const char *h : {"-h", "--help"}) {
        EXPECT_EQ(Diff(h, &out), 0);
        EXPECT_EQ(out.rfind("usage: ubsim diff [options] A B\n", 0), 0u) << out;
        for (const char *want : {"clk_i", "rst_ni", "rising edges", "every distinct time", "--scope-a",
                                 "--scope-b", "--max N", "--format", "exit status", "example"})
            EXPECT_NE(out.find(want), std::string::npos) << want;
    }
}

}  // namespace

namespace {

// The C model's own port dump (--wave FILE writes FILE-c.fst, laid out as
// the RTL's FILE-rtl.fst: TOP.<block>.<port>, a clk_i rising at every edge
// the block is stepped, rst_ni) lines up with the RTL's trace cycle for
// cycle: ubsim diff finds them equal, from one lockstep run and from a C run
// against an RTL run, for both send pipelines and on the latency paths.
TEST(CTrace, TheCModelsOwnTraceEqualsTheRtlsUnderDiff)
{
    char tmpl[] = "/tmp/ubsim_ctrace_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string d = tmpl, u = testutil::ubsim();
    auto run = [&](const std::string &args) {
        std::string out;
        EXPECT_EQ(testutil::run(u + " " + args + " --quiet", &out, true), 0) << args << ": " << out;
    };
    auto equal = [&](const std::string &a, const std::string &b) {
        std::string out;
        EXPECT_EQ(testutil::run(u + " diff " + d + "/" + a + " " + d + "/" + b, &out), 0)
            << a << " " << b << ": " << out;
        EXPECT_EQ(out.rfind("diff: equal: ", 0), 0u) << a << " " << b << ": " << out;
    };
    run("rate --stack ub --burst 64 --backend lockstep --wave " + d + "/ub.fst");
    equal("ub-c.fst", "ub-rtl.fst");
    run("rate --stack roce --burst 64 --backend lockstep --wave " + d + "/rc.fst");
    equal("rc-c.fst", "rc-rtl.fst");
    run("rate --stack ub --burst 200 --payload 4096 --backend c --wave " + d + "/a.fst");
    run("rate --stack ub --burst 200 --payload 4096 --backend rtl --wave " + d + "/b.fst");
    equal("a-c.fst", "b-rtl.fst");
    run("latency --ops 20 --path ub_async --path pcie_nic --backend lockstep --wave " + d + "/l.vcd");
    equal("l-ub_async-c.fst", "l-ub_async-rtl.fst");
    equal("l-pcie_nic-c.fst", "l-pcie_nic-rtl.fst");
    // (a C run writes no RTL trace, an RTL run no C one)
    EXPECT_NE(access((d + "/a-rtl.fst").c_str(), F_OK), 0);
    EXPECT_NE(access((d + "/b-c.fst").c_str(), F_OK), 0);
    // the transports of ubsim loss: node A's in FILE, node B's in FILE_b,
    // lockstep adds the C models' (-c.fst); a C run traces its C models
    const std::string loss = "loss --fault drop=fwd:1 --scheme sack --message 16384 --backend ";
    run(loss + "lockstep --wave " + d + "/t.fst");
    equal("t-c.fst", "t.fst");
    equal("t_b-c.fst", "t_b.fst");
    run(loss + "c --wave " + d + "/tc.fst");
    run(loss + "rtl --wave " + d + "/tr.fst");
    equal("tc.fst", "tr.fst");
    equal("tc_b.fst", "tr_b.fst");
    std::string out;
    EXPECT_EQ(testutil::run(u + " " + loss + "c --quiet --wave " + d + "/t.vcd", &out, true), 2) << out;
    EXPECT_NE(out.find("--wave: expected a FILE.fst name"), std::string::npos) << out;
    std::string rm;
    testutil::run("rm -rf " + d, &rm);
}

}  // namespace
