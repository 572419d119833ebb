// The context cache (cmodel/context_cache.c): hit and miss counts equal to
// a reference cache written here (sharing no code) over random access
// streams; misses to one record merged into one fetch, answered in order;
// dirty state surviving eviction; hits answered while misses wait; the hit
// latency; random replacement seeded.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <vector>

extern "C" {
#include "context_cache.h"
}

#include "test_util.h"

namespace {

// The cache and a memory answering fetches after `mem_delay` edges (writes
// back what is evicted).
struct Bench {
    context_cache_state_t s;
    context_cache_in_t in{};
    context_cache_out_t out{};
    std::map<uint64_t, uint32_t> mem; // (kind << 32 | id) -> data
    struct Pending {
        uint64_t due;
        uint8_t kind;
        uint32_t id;
        uint8_t tag;
    };
    std::deque<Pending> fetches;
    uint64_t edge = 0;
    uint32_t mem_delay = 20;
    std::vector<context_cache_out_t> rsps; // every answer, in order
    uint64_t fetched = 0, written_back = 0;

    explicit Bench(uint32_t capacity = 4096, unsigned sets_log2 = 2, unsigned ways = 8)
    {
        context_cache_reset(&s);
        in.cfg_capacity = capacity;
        in.cfg_sets_log2 = (uint8_t)sets_log2;
        in.cfg_ways = (uint8_t)ways;
        set_rec(0, 20);
        set_rec(1, 32);
        set_rec(2, 56);
        set_rec(3, 512);
        in.cfg_hit_cycles = 3;
        out.rq_ready = 1;
    }
    void set_rec(unsigned k, uint64_t b)
    {
        in.cfg_rec_bytes &= ~(0x7FFull << (11 * k));
        in.cfg_rec_bytes |= b << (11 * k);
    }
    // One edge; a request if rq_valid is set in `in` (cleared after).
    bool step()
    {
        bool taken = in.rq_valid && out.rq_ready;
        in.fill_valid = 0;
        if (!fetches.empty() && fetches.front().due <= edge) {
            in.fill_valid = 1;
            in.fill_tag = fetches.front().tag;
            uint64_t key = (uint64_t)fetches.front().kind << 32 | fetches.front().id;
            in.fill_data = mem.count(key) ? mem[key] : (uint32_t)(key * 2654435761u);
            fetches.pop_front();
        }
        in.mreq_ready = 1;
        bool mreq = out.mreq_valid;
        context_cache_out_t before = out;
        context_cache_step(&s, &in, &out);
        if (mreq) { // taken at this edge
            fetches.push_back({edge + mem_delay, before.mreq_kind, before.mreq_id, before.mreq_tag});
            fetched++;
        }
        if (out.wb_valid) {
            mem[(uint64_t)out.wb_kind << 32 | out.wb_id] = out.wb_data;
            written_back++;
        }
        if (out.rsp_valid)
            rsps.push_back(out);
        in.rq_valid = 0;
        edge++;
        return taken;
    }
    // Offers a request until it is taken.
    void request(unsigned kind, uint32_t id, uint8_t tag, bool write = false, uint32_t wdata = 0)
    {
        for (;;) {
            in.rq_valid = 1;
            in.rq_kind = (uint8_t)kind;
            in.rq_id = id;
            in.rq_tag = tag;
            in.rq_write = write;
            in.rq_wdata = wdata;
            if (step())
                return;
        }
    }
    void settle()
    {
        for (int i = 0; i < 100000 && (out.busy || !fetches.empty()); i++)
            step();
        ASSERT_FALSE(out.busy);
    }
};

// A reference: per set, 128 slots and a pseudo-LRU tree over them (node
// (level l, index j) covers the slots [j * 128 >> l, (j + 1) * 128 >> l)
// and points at the half the next victim comes from); a byte budget and a
// way limit.
struct RefCache {
    uint32_t budget, ways;
    unsigned lg;
    uint32_t rec[4];
    struct Slot {
        bool valid = false;
        unsigned kind = 0;
        uint32_t id = 0;
    };
    struct Set {
        Slot slot[128];
        bool right[8][128] = {}; // [level][index]: the victim is in the right half
        uint32_t used = 0;
    };
    std::map<uint32_t, Set> sets;
    uint64_t hits = 0, misses = 0, evictions = 0;

    static uint32_t set_of(unsigned kind, uint32_t id, unsigned lg)
    {
        // the documented hash (docs/context_cache.md): the id's four 6-bit
        // pieces and the kind, XORed
        uint32_t h = kind;
        for (int piece = 0; piece < 4; piece++)
            h ^= (id >> (6 * piece)) % 64;
        return h % (1u << lg);
    }
    // every node on slot w's path points away from it
    static void touch(Set &s, uint32_t w)
    {
        for (unsigned l = 0; l < 7; l++)
            s.right[l][w >> (7 - l)] = ((w >> (6 - l)) & 1) == 0;
    }
    bool usable(const Set &s, uint32_t lo, uint32_t hi) const
    {
        for (uint32_t w = lo; w < hi && w < ways; w++)
            if (s.slot[w].valid)
                return true;
        return false;
    }
    uint32_t victim(const Set &s) const
    {
        uint32_t lo = 0, size = 128;
        for (unsigned l = 0; l < 7; l++) {
            size /= 2;
            bool go_right = s.right[l][lo >> (7 - l)];
            if (go_right ? !usable(s, lo + size, lo + 2 * size) : !usable(s, lo, lo + size))
                go_right = !go_right;
            if (go_right)
                lo += size;
        }
        return lo;
    }
    void access(unsigned kind, uint32_t id)
    {
        Set &s = sets[set_of(kind, id, lg)];
        for (uint32_t w = 0; w < ways; w++)
            if (s.slot[w].valid && s.slot[w].kind == kind && s.slot[w].id == id) {
                hits++;
                touch(s, w);
                return;
            }
        misses++;
        if (rec[kind] > budget)
            return;
        for (;;) {
            uint32_t fw = 0;
            while (fw < ways && s.slot[fw].valid)
                fw++;
            if (fw < ways && s.used + rec[kind] <= budget) {
                s.slot[fw] = Slot{true, kind, id};
                s.used += rec[kind];
                touch(s, fw);
                return;
            }
            uint32_t v = victim(s);
            s.used -= rec[s.slot[v].kind];
            s.slot[v].valid = false;
            evictions++;
        }
    }
};

void compare_with_reference(uint32_t capacity, unsigned lg, unsigned ways, int kinds, uint32_t span,
                            uint64_t seed, int n)
{
    Bench b(capacity, lg, ways);
    RefCache r;
    r.budget = capacity >> lg;
    r.ways = ways;
    r.lg = lg;
    for (unsigned k = 0; k < 4; k++)
        r.rec[k] = context_cache_rec(&b.in, k);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < n; i++) {
        unsigned kind = (unsigned)(rng() % (uint64_t)kinds);
        // a skewed stream: most accesses to a few records
        uint32_t id = (uint32_t)((rng() & 3) ? rng() % (span / 8 + 1) : rng() % span);
        r.access(kind, id);
        b.request(kind, id, (uint8_t)i, (rng() & 7) == 0, (uint32_t)rng());
        b.settle(); // one at a time: nothing merges
    }
    EXPECT_EQ(b.out.hits, r.hits);
    EXPECT_EQ(b.out.misses, r.misses);
    EXPECT_EQ(b.out.evictions, r.evictions);
    EXPECT_EQ(b.out.merged, 0u);
    EXPECT_EQ(b.rsps.size(), (size_t)n);
    EXPECT_GT(r.hits, 0u);
    EXPECT_GT(r.evictions, 0u);
}

TEST(ContextCache, HitsAndMissesEqualAReferenceCache)
{
    int n = testutil::short_run() ? 3000 : 20000;
    compare_with_reference(4096, 2, 8, 3, 300, 1, n);     // byte budget and way limit both bite
    compare_with_reference(2048, 0, 128, 4, 100, 2, n);   // one set, QP records of 512 B
    compare_with_reference(16384, 6, 4, 1, 2000, 3, n);   // 64 sets of 4 ways
    compare_with_reference(600, 1, 16, 4, 50, 4, n / 4);  // a 512 B record never fits a set
}

TEST(ContextCache, MissesToOneRecordAreMergedAndAnsweredInOrder)
{
    Bench b;
    b.mem_delay = 50;
    b.request(2, 77, 1);
    b.request(2, 77, 2, true, 0xAAAA);
    b.request(2, 77, 3);
    b.request(2, 77, 4, true, 0xBBBB);
    b.request(2, 77, 5);
    b.settle();
    EXPECT_EQ(b.fetched, 1u);
    EXPECT_EQ(b.out.misses, 5u);
    EXPECT_EQ(b.out.merged, 4u);
    ASSERT_EQ(b.rsps.size(), 5u);
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(b.rsps[i].rsp_tag, i + 1);
        EXPECT_EQ(b.rsps[i].rsp_hit, 0);
    }
    EXPECT_EQ(b.rsps[1].rsp_data, 0xAAAAu);
    EXPECT_EQ(b.rsps[2].rsp_data, 0xAAAAu);
    EXPECT_EQ(b.rsps[4].rsp_data, 0xBBBBu);
    b.request(2, 77, 6); // now it hits, with the last write
    b.settle();
    EXPECT_EQ(b.rsps.back().rsp_hit, 1);
    EXPECT_EQ(b.rsps.back().rsp_data, 0xBBBBu);
}

TEST(ContextCache, DirtyStateSurvivesEviction)
{
    Bench b(56 * 4, 0, 4); // one set of four channel records
    b.request(2, 1, 1, true, 0x1234); // a channel's PSN, say
    b.settle();
    for (uint32_t id = 2; id < 12; id++) {
        b.request(2, id, (uint8_t)id);
        b.settle();
    }
    EXPECT_GE(b.written_back, 1u);
    b.request(2, 1, 99);
    b.settle();
    EXPECT_EQ(b.rsps.back().rsp_hit, 0);
    EXPECT_EQ(b.rsps.back().rsp_data, 0x1234u);
}

TEST(ContextCache, HitsGoOnWhileAMissWaitsAndTakeTheHitLatency)
{
    Bench b;
    b.mem_delay = 200;
    b.request(0, 5, 1); // install record 5
    b.settle();
    size_t before = b.rsps.size();
    b.request(0, 6, 2); // a miss: 200 edges
    uint64_t t = b.edge;
    b.request(0, 5, 3); // a hit behind it
    for (int i = 0; i < 10; i++)
        b.step();
    ASSERT_EQ(b.rsps.size(), before + 1);
    EXPECT_EQ(b.rsps.back().rsp_tag, 3);
    EXPECT_EQ(b.rsps.back().rsp_hit, 1);
    (void)t;
    b.settle();
    EXPECT_EQ(b.rsps.back().rsp_tag, 2);
    // the hit latency: answered in the outputs of edge t + hit_cycles - 1
    Bench c;
    c.in.cfg_hit_cycles = 5;
    c.request(1, 9, 1);
    c.settle();
    c.in.rq_valid = 1;
    c.in.rq_kind = 1;
    c.in.rq_id = 9;
    c.in.rq_tag = 7;
    int at = -1;
    for (int i = 0; i < 10; i++) {
        c.step();
        if (c.out.rsp_valid && at < 0)
            at = i;
    }
    EXPECT_EQ(at, 4);
}

// The record memories have one write port each: an install waits an edge
// when a write request is decided at the edge it was due (a write hit takes
// the data memory's port; a write that misses holds it too); a read hit
// does not hold it. An install also waits while a request of its set is
// having its tags read (taken at the edge before): that request then sees
// the set as it is when it is decided.
TEST(ContextCache, AWriteRequestHoldsAnInstallForOneEdge)
{
    // edges after the waiter's answer until record 6 is installed, with a
    // request decided at edge `at` of them (taken CC_LOOKUP_EDGES before;
    // mode 0: none, 1: a read hit on record 5, 2: a write hit on it, 3: a
    // write that misses, record 7, 4: a read that misses in record 6's set,
    // record 10)
    auto installed_after = [](int mode, int at) {
        Bench b;
        b.request(0, 5, 1); // record 5 held
        b.settle();
        b.request(0, 6, 2); // a miss with one waiter
        size_t n = b.rsps.size();
        while (b.rsps.size() == n) // the fill's edge answers the waiter
            b.step();
        auto held = [&b] {
            for (unsigned st = 0; st < CC_MAX_SETS; st++)
                for (unsigned w = 0; w < CC_MAX_WAYS; w++)
                    if (b.s.e[st][w].valid && b.s.e[st][w].kind == 0 && b.s.e[st][w].id == 6)
                        return true;
            return false;
        };
        EXPECT_FALSE(held());
        int edges = 0;
        while (!held() && edges < 20) {
            if (mode && edges + 1 + CC_LOOKUP_EDGES == at) {
                b.in.rq_valid = 1;
                b.in.rq_kind = 0;
                b.in.rq_id = mode == 3 ? 7 : mode == 4 ? 10 : 5;
                b.in.rq_tag = 3;
                b.in.rq_write = mode == 2 || mode == 3;
                b.in.rq_wdata = 0x55;
            }
            b.step();
            edges++;
        }
        b.settle();
        EXPECT_EQ(b.out.hits, mode == 1 || mode == 2 ? 1u : 0u); // (record 5 came in by a miss)
        return edges;
    };
    // the plan starts at the edge after the last waiter's answer and is
    // carried out CC_PLAN_EDGES edges later
    int e0 = installed_after(0, 0);
    EXPECT_EQ(e0, CC_PLAN_EDGES + 1);
    EXPECT_EQ(installed_after(1, e0), e0);     // a read hit at the install's edge
    EXPECT_EQ(installed_after(2, e0), e0 + 1); // a write hit there holds it an edge
    EXPECT_EQ(installed_after(2, e0 - 1), e0); // one an edge before does not
    EXPECT_EQ(installed_after(3, e0), e0 + 1); // and so does a write that misses
    ASSERT_EQ(context_cache_set(0, 10, 2), context_cache_set(0, 6, 2));
    EXPECT_EQ(installed_after(4, e0 + 1), e0 + 1); // its tags read at the install's edge
    EXPECT_EQ(installed_after(4, e0 + 2), e0);     // taken at it: read after it
}

TEST(ContextCache, RandomReplacementIsSeeded)
{
    auto run = [](uint16_t seed, int lru) {
        Bench b(56 * 16, 0, 16);
        b.in.cfg_random = (uint8_t)!lru;
        b.in.cfg_seed = seed;
        std::mt19937_64 rng(5);
        for (int i = 0; i < 3000; i++) {
            b.request(2, (uint32_t)(rng() % 24), (uint8_t)i);
            b.settle();
        }
        return b.out.hits;
    };
    EXPECT_EQ(run(1, 0), run(1, 0));
    EXPECT_NE(run(1, 0), run(2, 0));
    // 16 of 24 records fit: pseudo-LRU and random both hit about two thirds
    for (uint32_t h : {run(1, 0), run(1, 1)}) {
        EXPECT_GT(h, 1500u);
        EXPECT_LT(h, 2500u);
    }
}

} // namespace

extern "C" {
#include "cache_bench.h"
}

#include <cjson/cJSON.h>

namespace {

cb_cfg_t cb_default(cb_stack_t st, uint64_t n)
{
    cb_cfg_t c{};
    c.stack = st;
    c.n = c.m = n;
    c.capacity = 262144;
    c.sets_log2 = 6;
    c.ways = 128;
    c.hit_cycles = CC_MIN_HIT;
    c.rec[0] = 20;
    c.rec[1] = 32;
    c.rec[2] = 56;
    c.rec[3] = 512;
    c.miss_ns = st == CB_UB ? 100 : 500;
    c.base_ns = 1000; // any: the bench adds the waits to it
    c.clock_mhz = 322;
    c.reads = 2000;
    c.stream_seed = 1;
    return c;
}

cb_result_t cb(const cb_cfg_t &c)
{
    cb_result_t r;
    char err[256];
    EXPECT_EQ(cb_run(&c, &r, err, sizeof err), 0) << err;
    return r;
}

// The cliff sits where the state stops fitting: well below the overflow
// point every context hits, well above it most miss, and each miss costs
// its fetch.
TEST(CacheCliff, EachStackFallsNearItsOverflowPoint)
{
    // pairwise queue pairs overflow 256 KiB at N = 23, UB's channels at 2428
    EXPECT_EQ(cb(cb_default(CB_PCIE, 11)).hit_rate, 1.0);
    EXPECT_LT(cb(cb_default(CB_PCIE, 45)).hit_rate, 0.6);
    EXPECT_EQ(cb(cb_default(CB_UB, 1448)).hit_rate, 1.0);
    EXPECT_LT(cb(cb_default(CB_UB, 4096)).hit_rate, 0.7);
}

TEST(CacheCliff, AMissCostsItsFetch)
{
    cb_cfg_t c = cb_default(CB_PCIE, 4096);
    cb_result_t r = cb(c);
    // nearly every queue pair misses at both ends: about 2 x 500 ns a read
    EXPECT_GT(r.mean_ns - c.base_ns, 900);
    EXPECT_LT(r.mean_ns - c.base_ns, 1100);
    cb_cfg_t u = cb_default(CB_UB, 4096);
    u.n = u.m = 4096;
    cb_result_t ru = cb(u);
    double per_miss = (ru.mean_ns - u.base_ns) / ((double)ru.misses / (double)u.reads);
    // a 100 ns fetch, plus the install; a side's two misses overlap
    EXPECT_GT(per_miss, 50);
    EXPECT_LT(per_miss, 130);
    EXPECT_LT(ru.mean_ns - u.base_ns, 2 * (100 + 10 * 3.11));
    // hits cost nothing beyond the path
    cb_cfg_t h = cb_default(CB_UB, 8);
    EXPECT_EQ(cb(h).mean_ns, h.base_ns);
}

TEST(CacheCliff, TheSameOnRtlAndLockstep)
{
    for (cb_stack_t st : {CB_PCIE, CB_UB}) {
        cb_cfg_t c = cb_default(st, st == CB_PCIE ? 23 : 64);
        c.reads = 300;
        c.warm = 300;
        c.capacity = st == CB_PCIE ? 262144 : 8192; // UB past its cliff too
        cb_result_t a = cb(c);
        c.backend = BACKEND_RTL;
        cb_result_t b = cb(c);
        c.backend = BACKEND_LOCKSTEP;
        cb_result_t l = cb(c);
        EXPECT_EQ(a.hits, b.hits);
        EXPECT_EQ(a.misses, b.misses);
        EXPECT_EQ(a.mean_ns, b.mean_ns);
        EXPECT_EQ(a.p99_ns, l.p99_ns);
        EXPECT_EQ(l.mismatches, 0u);
        EXPECT_GT(a.misses, 0u);
    }
}

TEST(CacheCliff, ZipfSkewKeepsMoreHits)
{
    cb_cfg_t c = cb_default(CB_PCIE, 64);
    double uniform = cb(c).hit_rate;
    c.zipf = 1.2;
    EXPECT_GT(cb(c).hit_rate, uniform + 0.2);
}

TEST(CacheCli, JsonHasEveryPoint)
{
    std::string out;
    ASSERT_EQ(testutil::run(testutil::ubsim() + " cache --n 4,23,64 --reads 500 --format json", &out), 0) << out;
    cJSON *j = cJSON_Parse(out.c_str());
    ASSERT_NE(j, nullptr) << out;
    cJSON *pts = cJSON_GetObjectItem(j, "points");
    ASSERT_EQ(cJSON_GetArraySize(pts), 6);
    cJSON *p;
    cJSON_ArrayForEach(p, pts)
    {
        for (const char *k : {"n", "state_bytes", "hit_rate", "mean_ns", "p99_ns"})
            EXPECT_TRUE(cJSON_IsNumber(cJSON_GetObjectItem(p, k))) << k;
        EXPECT_TRUE(cJSON_IsString(cJSON_GetObjectItem(p, "stack")));
    }
    cJSON_Delete(j);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " cache --n 0", &out, true), 2);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " cache --ways 200", &out, true), 2);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " cache --stack roce", &out, true), 2);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " cache --backend verilog", &out, true), 2);
    EXPECT_EQ(testutil::run(testutil::ubsim() + " cache --fault loss=1", &out, true), 2);
}

} // namespace

#include "block_harness.h"

extern "C" {
#include "blocks.h"
}

namespace {

using CcBlock = harness::Block<context_cache_in_t, context_cache_out_t>;

// Random requests (a small id space, so misses merge and records are evicted
// and fetched again), writes, fills after random delays, a memory that is
// sometimes not ready, the configuration changed at each reset.
void random_config(std::mt19937_64 &rng, context_cache_in_t &in)
{
    in.cfg_sets_log2 = (uint8_t)(rng() % 8);         // 7: treated as 6
    in.cfg_ways = (uint8_t)(rng() % 140);            // 0 and > 128 clamped
    in.cfg_capacity = (uint32_t)(rng() % 20000);
    in.cfg_rec_bytes = 0;
    for (unsigned k = 0; k < 4; k++)
        in.cfg_rec_bytes |= (uint64_t)(rng() % 700) << (11 * k);
    in.cfg_random = rng() & 1;
    in.cfg_seed = (uint16_t)rng();
    in.cfg_hit_cycles = (uint8_t)(rng() % 16);
}

TEST(ContextCacheLockstep, RandomStimulusOnEveryPort)
{
    const uint64_t cycles = testutil::run_cycles(1000000, 40000);
    // (the brief run of the sanitizer build takes four geometries: one may
    // be one in which nothing is ever evicted)
    const uint64_t every = testutil::reset_interval(testutil::short_run() ? 10000 : 40000);
    CcBlock b(&context_cache_class, BACKEND_LOCKSTEP, 3106);
    ASSERT_TRUE(b.ok());
    std::mt19937_64 rng(21);
    // (the geometries from a generator of their own: the same ones whatever
    // the cache's timing makes of the stimulus between them)
    std::mt19937_64 geo(21);
    struct F {
        uint64_t due;
        uint8_t tag;
    };
    std::deque<F> mem;
    uint64_t rsp = 0, wb = 0, fetch = 0, merged = 0, evicted = 0, hits = 0;
    unsigned span = 40;
    for (uint64_t i = 0; i < cycles; i++) {
        if (i % every == 0) {
            merged += b.out.merged;
            evicted += b.out.evictions;
            hits += b.out.hits;
            random_config(geo, b.in);
            context_cache_out_t after{};
            after.rq_ready = 1;
            b.reset(after);
            mem.clear();
            span = 4 + (unsigned)(geo() % 200);
        }
        uint64_t r = rng();
        b.in.rq_valid = (r & 3) != 0;
        b.in.rq_kind = (uint8_t)((r >> 2) & 3);
        b.in.rq_id = (uint32_t)((r >> 4) % span);
        b.in.rq_tag = (uint8_t)(r >> 20);
        b.in.rq_write = ((r >> 28) & 3) == 0;
        b.in.rq_wdata = (uint32_t)(r >> 32);
        b.in.mreq_ready = ((r >> 30) & 3) != 0;
        b.in.fill_valid = 0;
        if (!mem.empty() && mem.front().due <= i) {
            b.in.fill_valid = 1;
            b.in.fill_tag = mem.front().tag;
            b.in.fill_data = (uint32_t)rng();
            mem.pop_front();
        }
        bool took = b.out.mreq_valid && b.in.mreq_ready;
        context_cache_out_t before = b.out;
        ASSERT_EQ(b.step(), 0) << "lockstep mismatch at cycle " << i;
        if (took) {
            mem.push_back({i + 1 + rng() % 30, before.mreq_tag});
            fetch++;
        }
        rsp += b.out.rsp_valid;
        wb += b.out.wb_valid;
    }
    EXPECT_EQ(block_mismatches(b.inst), 0u);
    // (the floors: a request waits until a miss register is free for it and
    // for every one in the lookup pipeline, so a miss-heavy stream answers
    // less than one each five cycles)
    EXPECT_GT(rsp, cycles / 6);
    EXPECT_GT(fetch, cycles / 100);
    EXPECT_GT(wb, cycles / 1000);
    merged += b.out.merged;
    evicted += b.out.evictions;
    hits += b.out.hits;
    if (!testutil::cycles_override()) { // (a brief run for vectors covers less)
        EXPECT_GT(merged, cycles / 500);
        EXPECT_GT(evicted, cycles / 500);
        EXPECT_GT(hits, cycles / 50);
    }
    std::printf("lockstep: %llu cycles, %llu answers, %llu hits, %llu merged, %llu evictions, %llu write-backs\n",
                (unsigned long long)cycles, (unsigned long long)rsp, (unsigned long long)hits,
                (unsigned long long)merged, (unsigned long long)evicted, (unsigned long long)wb);
}

TEST(ContextCacheLockstep, APlantedBugIsFound)
{
    // the C model flips bit 5 of the written-back record at edge 2000
    block_class_t cls = harness::with_bug(context_cache_class, "context_cache_buggy", "wb_data", 5, 2000);
    std::string wave = "/tmp/ubsim_cache_bug.vcd";
    std::mt19937_64 rng(3);
    harness::Planted p = harness::run_planted<CcBlock>(&cls, 3106, 3000, wave.c_str(), [&](CcBlock &b, int64_t c) {
        if (c == 0)
            random_config(rng, b.in);
        b.in.rq_valid = 1;
        b.in.rq_id = (uint32_t)(rng() % 50);
        b.in.mreq_ready = 1;
    });
    EXPECT_EQ(p.first, 2000);
    EXPECT_NE(p.report.find("port wb_data_o"), std::string::npos) << p.report;
    std::remove(wave.c_str());
}

} // namespace
