// The context caches in the read paths ([context], docs/context_cache.md):
// the initiator's transmit pipeline looks up its Jetty and channel (UB) or
// its queue pair (RoCE RC), the target's receive pipeline its channel or
// queue pair, each in a cache of that kind of record run as the C model, the
// RTL or both in lockstep. With the records fitting nothing changes; a
// record that does not fit is fetched from memory, and the request waits
// for it at the stage that reads it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "test_paths.h"
#include "test_util.h"

extern "C" {
#include "blocks.h"
#include "engine.h"
#include "latency.h"
#include "parts.h"
}

namespace {

struct Sim {
    latency_result_t r;
    double total_ns = 0;
};

Sim run(const path_cfg_t *p, int64_t ops, backend_kind_t be = BACKEND_C, int jetties = 1,
        const sim_engine_t *engine = nullptr, int64_t slots = 1)
{
    Sim x;
    latency_opts_t o{};
    o.ops = ops;
    o.slots = slots;
    o.backend = be;
    o.jetties = jetties;
    o.seed = 3;
    o.engine = engine;
    char err[512];
    EXPECT_EQ(latency_run(p, &o, &x.r, err, sizeof err), 0) << p->name << ": " << err;
    x.total_ns = lat_sim_total_ns(&x.r);
    return x;
}

// The lookups a read makes: UB the Jetty and the channel at the initiator,
// the channel at the target; RC the queue pair at each end.
uint64_t lookups_per_read(const path_cfg_t *p) { return p->tx_block == NIC_BLOCK_UB_SEND ? 3 : 2; }

const char *const kPaths[] = {"ub_async", "pcie_nic", "pcie_nic_onproc"};

}  // namespace

TEST(ContextsInPath, FittingContextsChangeNothing)
{
    testutil::Paths on, off({"context.cache_bytes=0"});
    for (const char *name : kPaths) {
        Sim a = run(on.get(name), 200), b = run(off.get(name), 200);
        EXPECT_TRUE(a.r.ctx.on) << name;
        EXPECT_FALSE(b.r.ctx.on) << name;
        EXPECT_EQ(a.r.ctx.misses, 0u) << name;
        EXPECT_EQ(a.r.ctx.hits, 200 * lookups_per_read(on.get(name))) << name;
        EXPECT_EQ(a.r.ctx.held_cycles, 0u) << name;
        EXPECT_EQ(a.r.sim_sum, b.r.sim_sum) << name;
        ASSERT_EQ(a.r.n_rows, b.r.n_rows);
        for (int i = 0; i < a.r.n_rows; i++)
            EXPECT_EQ(a.r.rows[i].sim_sum, b.r.rows[i].sim_sum) << name << " row " << a.r.rows[i].name;
    }
}

TEST(ContextsInPath, EveryLookupMissesInACacheTooSmallForARecord)
{
    // 64 B over 64 sets: no record fits, so every lookup fetches
    testutil::Paths tiny({"context.cache_bytes=64"}), on;
    for (const char *name : kPaths) {
        Sim a = run(tiny.get(name), 100), b = run(on.get(name), 100);
        EXPECT_EQ(a.r.ctx.hits, 0u) << name;
        EXPECT_EQ(a.r.ctx.misses, 100 * lookups_per_read(tiny.get(name))) << name;
        EXPECT_GT(a.r.ctx.held_cycles, 0u) << name;
        EXPECT_GT(a.total_ns, b.total_ns + 100) << name;
        // every read waits alike: the same total each time
        EXPECT_EQ(a.r.p50, a.r.p99) << name;
    }
}

TEST(ContextsInPath, AMissCostsWhatItsFetchTakes)
{
    // each read misses once at each end: 100 ns more per fetch is 200 ns
    // more per read (to a NIC cycle, as each wait ends at an edge)
    for (const char *name : kPaths) {
        testutil::Paths a({"context.cache_bytes=64", "context.miss_ns=400"}),
            b({"context.cache_bytes=64", "context.miss_ns=500"});
        double d = run(b.get(name), 20).total_ns - run(a.get(name), 20).total_ns;
        double cycle = 1000.0 / (double)a.get(name)->nic_mhz;
        EXPECT_NEAR(d, 200.0, 2 * cycle) << name;
    }
}

TEST(ContextsInPath, JettiesBeyondTheCacheMissAndEvict)
{
    // 1024 Jetties' contexts (20 B) over a 4 KiB cache of 64 sets: most miss,
    // each fetch evicts one; reads spread over them take longer
    testutil::Paths small({"context.cache_bytes=4096", "context.sets_log2=6", "context.ways=16"}), on;
    const path_cfg_t *p = small.get("ub_async");
    Sim a = run(p, 400, BACKEND_C, 1024), b = run(on.get("ub_async"), 400, BACKEND_C, 1024);
    EXPECT_GT(a.r.ctx.misses, 200u);
    EXPECT_GT(a.r.ctx.evictions, 100u);
    EXPECT_GT(a.total_ns, b.total_ns);
    EXPECT_EQ(b.r.ctx.misses, 0u);
    EXPECT_EQ(a.r.completed, 400);
}

TEST(ContextsInPath, RtlAndLockstepGiveTheCModelsFigures)
{
    // (the caches on the path's backend too, not only the send pipelines)
    testutil::Paths small({"context.cache_bytes=4096", "context.ways=16", "context.backend=path"});
    for (const char *name : kPaths) {
        const path_cfg_t *p = small.get(name);
        Sim c = run(p, 150, BACKEND_C, 256), r = run(p, 150, BACKEND_RTL, 256),
            l = run(p, 150, BACKEND_LOCKSTEP, 256);
        EXPECT_EQ(c.r.sim_sum, r.r.sim_sum) << name;
        EXPECT_EQ(c.r.sim_sum, l.r.sim_sum) << name;
        EXPECT_EQ(c.r.ctx.misses, r.r.ctx.misses) << name;
        EXPECT_EQ(c.r.ctx.hits, r.r.ctx.hits) << name;
        EXPECT_EQ(c.r.ctx.held_cycles, r.r.ctx.held_cycles) << name;
        EXPECT_EQ(l.r.lockstep_mismatches, 0u) << name;
    }
}

TEST(ContextsInPath, TheLaterOfTwoAnswersCountsOnEveryBackend)
{
    // short fetches: a UB request's Jetty may miss while its channel hits;
    // the later answer in time decides when it leaves, whichever cache the
    // port runs first and however many edges it slept (C model) or stepped
    // (RTL, every cycle)
    testutil::Paths small({"context.cache_bytes=4096", "context.ways=16", "context.miss_ns=5",
                           "context.need_cycle=0", "context.backend=path"});
    const path_cfg_t *p = small.get("ub_async");
    Sim c = run(p, 300, BACKEND_C, 512), r = run(p, 300, BACKEND_RTL, 512);
    latency_opts_t o{};
    o.ops = 300;
    o.slots = 1;
    o.jetties = 512;
    o.seed = 3;
    o.step_every_cycle = 1;
    latency_result_t every;
    char err[512];
    ASSERT_EQ(latency_run(p, &o, &every, err, sizeof err), 0) << err;
    EXPECT_GT(c.r.ctx.misses, 0u);
    EXPECT_EQ(c.r.sim_sum, r.r.sim_sum);
    EXPECT_EQ(c.r.sim_sum, every.sim_sum);
    EXPECT_EQ(c.r.ctx.held_cycles, every.ctx.held_cycles);
}

TEST(ContextsInPath, TheCachesRunOnTheCModelUnlessAskedOtherwise)
{
    // --backend picks the send pipelines' backend; the caches' is their own
    // (C by default: the RTL cache costs a whole-cache evaluation a step)
    testutil::Paths def, rtl({"context.backend=rtl"}), path({"context.backend=path"});
    EXPECT_EQ(def.get("ub_async")->ctx.backend, BACKEND_C);
    EXPECT_EQ(rtl.get("ub_async")->ctx.backend, BACKEND_RTL);
    EXPECT_EQ(path.get("pcie_nic")->ctx.backend, -1);
    testutil::Paths small({"context.cache_bytes=4096", "context.ways=16", "context.backend=lockstep"});
    Sim l = run(small.get("ub_async"), 100, BACKEND_C, 256);
    EXPECT_GT(l.r.ctx.misses, 0u);
    EXPECT_EQ(l.r.lockstep_mismatches, 0u);
}

TEST(ContextsInPath, EveryEngineGivesTheSameFigures)
{
    testutil::Paths small({"context.cache_bytes=4096", "context.ways=16"});
    const path_cfg_t *p = small.get("ub_async");
    Sim n = run(p, 200, BACKEND_C, 256, nullptr, 8), d = run(p, 200, BACKEND_C, 256, engine_nodes(), 8);
    EXPECT_GT(n.r.ctx.misses, 0u);
    EXPECT_EQ(n.r.sim_sum, d.r.sim_sum);
    EXPECT_EQ(n.r.ctx.held_cycles, d.r.ctx.held_cycles);
    // the SystemC engine in a process of its own (its threads switch stacks)
    std::string a, b;
    const std::string cmd = testutil::ubsim() + " rate --stack ub --burst 300 --jetties 512 --format json "
                                                "--set context.cache_bytes=4096 --set context.ways=16";
    ASSERT_EQ(testutil::run(cmd, &a), 0);
    ASSERT_EQ(testutil::run(cmd + " --engine systemc", &b), 0);
    EXPECT_NE(a.find("\"misses\":"), std::string::npos) << a;
    EXPECT_EQ(testutil::without_costs(a), testutil::without_costs(b));
}

// The target's receive pipeline asks only for the channel or queue pair of a
// node: when they all stay in its cache and a hit is in before a request
// reaches the output, the pipeline is a link of a chain (no edges of its
// own), its lookups still stepped through the cache and each promised answer
// checked. The figures are those of the clocked pipeline (stepping every
// cycle, or a hit latency that makes requests wait), bursts included.
TEST(ContextsInPath, AChainedTargetPipelineGivesTheClockedFigures)
{
    testutil::Paths def, off({"context.cache_bytes=0"});
    for (const char *name : kPaths) {
        for (int64_t slots : {1, 64}) {
            latency_opts_t o{};
            o.ops = 300;
            o.slots = slots;
            o.jetties = 8;
            o.seed = 3;
            latency_result_t a, every, bare;
            char err[512];
            ASSERT_EQ(latency_run(def.get(name), &o, &a, err, sizeof err), 0) << err;
            ASSERT_EQ(latency_run(off.get(name), &o, &bare, err, sizeof err), 0) << err;
            o.step_every_cycle = 1;
            ASSERT_EQ(latency_run(def.get(name), &o, &every, err, sizeof err), 0) << err;
            EXPECT_EQ(a.sim_sum, every.sim_sum) << name << " slots " << slots;
            EXPECT_EQ(a.end_time, every.end_time) << name << " slots " << slots;
            EXPECT_EQ(a.ctx.hits, every.ctx.hits) << name;
            EXPECT_EQ(a.ctx.hits, 300 * lookups_per_read(def.get(name))) << name;
            EXPECT_EQ(a.ctx.held_cycles, 0u) << name;
            ASSERT_EQ(a.n_rows, every.n_rows);
            for (int i = 0; i < a.n_rows; i++)
                EXPECT_EQ(a.rows[i].sim_sum, every.rows[i].sim_sum) << name << " " << a.rows[i].name;
            // the lookups cost the pipelines no edges of their own: the
            // initiator's runs its edges anyway, the target's is chained
            EXPECT_EQ(a.sim_sum, bare.sim_sum) << name;
            EXPECT_EQ(a.edges_stepped, bare.edges_stepped) << name << " slots " << slots;
        }
    }
    // a hit latency that makes each RoCE request wait a cycle at the target
    // keeps that pipeline clocked: the same figures either way
    testutil::Paths slow({"context.hit_cycles=5"});
    for (const char *name : {"pcie_nic", "ub_async"}) {
        latency_opts_t o{};
        o.ops = 200;
        o.slots = 32;
        o.seed = 3;
        latency_result_t a, every;
        char err[512];
        ASSERT_EQ(latency_run(slow.get(name), &o, &a, err, sizeof err), 0) << err;
        o.step_every_cycle = 1;
        ASSERT_EQ(latency_run(slow.get(name), &o, &every, err, sizeof err), 0) << err;
        EXPECT_EQ(a.sim_sum, every.sim_sum) << name;
        EXPECT_EQ(a.ctx.held_cycles, every.ctx.held_cycles) << name;
        if (std::string(name) == "pcie_nic") {
            EXPECT_GE(a.ctx.held_cycles, 200u); // (a cycle per request at the target at least)
        }
    }
}

// A lookup promised to hit is checked: one that misses is an error, not a
// silently wrong time; records that do not all fit are not promised.
TEST(ContextsInPath, APromiseOfAHitIsChecked)
{
    testutil::Paths def;
    ctx_cfg_t cfg = def.get("ub_async")->ctx;
    EXPECT_EQ(ctx_cache_keeps(&cfg, CTX_CHANNEL, 0, 2), 1);
    ctx_cfg_t tiny = cfg;
    tiny.cache_bytes = 64;
    EXPECT_EQ(ctx_cache_keeps(&tiny, CTX_CHANNEL, 0, 2), 0);
    block_opts_t bo{};
    bo.kind = BACKEND_C;
    char err[384];
    block_inst_t *b = block_new(&context_cache_class, &bo, err, sizeof err);
    ASSERT_NE(b, nullptr) << err;
    ctx_cache_t *cc = static_cast<ctx_cache_t *>(calloc(1, sizeof(ctx_cache_t)));
    ASSERT_EQ(ctx_cache_init(cc, b, &cfg, 10, 1000, 1, "test"), 0);
    ctx_cache_warm(cc, CTX_CHANNEL, 0);
    tick_t in = 0;
    ASSERT_EQ(ctx_cache_pass(cc, 1, CTX_CHANNEL, 0, 1, 0, 100, &in, err, sizeof err), 0) << err;
    EXPECT_EQ(in, 100 + 10 * cfg.hit_cycles);
    ASSERT_EQ(ctx_cache_pass(cc, 2, CTX_CHANNEL, 0, 1, 0, 110, &in, err, sizeof err), 0) << err;
    // record 5 was never loaded
    EXPECT_EQ(ctx_cache_pass(cc, 3, CTX_CHANNEL, 5, 1, 0, 200, &in, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("missed the lookup of request 3"), std::string::npos) << err;
    ctx_cache_free(cc);
    free(cc);
}

// A hit in a C model with nothing else under way is taken without stepping
// the cache's edges (sim/net/ctx_cache.c); the RTL is stepped at every edge
// it has work at. For random lookups - hits and misses, reads and writes,
// one to six edges apart, hit latencies of 4 to 9 edges, records that fit
// or are evicted - both give the same hits, the same answers at the same
// times, and the same counts.
namespace {
struct Answers {
    std::vector<std::pair<uint32_t, tick_t>> v;
    static void add(void *ctx, uint32_t id, tick_t t)
    {
        static_cast<Answers *>(ctx)->v.emplace_back(id, t);
    }
};
}  // namespace

TEST(ContextsInPath, HitsTakenWithoutSteppingAreTheSteppedOnes)
{
    testutil::Paths def;
    const tick_t P = 3;
    for (int hc : {4, 5, 6, 9}) {
        for (uint32_t bytes : {1500u, 262144u}) {
            ctx_cfg_t cfg = def.get("ub_async")->ctx;
            cfg.hit_cycles = hc;
            cfg.cache_bytes = bytes;
            ctx_cache_t *cc[2];
            Answers ans[2];
            for (int k = 0; k < 2; k++) {
                block_opts_t bo{};
                bo.kind = k ? BACKEND_RTL : BACKEND_C;
                bo.period_ps = P;
                char err[384];
                block_inst_t *b = block_new(&context_cache_class, &bo, err, sizeof err);
                ASSERT_NE(b, nullptr) << err;
                cc[k] = static_cast<ctx_cache_t *>(calloc(1, sizeof(ctx_cache_t)));
                ASSERT_EQ(ctx_cache_init(cc[k], b, &cfg, P, 5 * P, 1, "test"), 0);
                for (uint32_t r = 0; r < 40; r++)
                    ctx_cache_warm(cc[k], CTX_JETTY, r);
                cc[k]->answer = Answers::add;
                cc[k]->answer_ctx = &ans[k];
            }
            uint32_t seed = 7;
            auto rnd = [&seed](uint32_t n) {
                seed = seed * 1103515245u + 12345u;
                return (seed >> 16) % n;
            };
            tick_t t = 100 * P;
            for (uint32_t id = 0; id < 3000; id++) {
                // mostly the warm records; some beyond them
                uint32_t rec = rnd(30) ? rnd(40) : 40 + rnd(30);
                int write = (int)rnd(2);
                tick_t in[2] = {-1, -1};
                int rc[2];
                for (int k = 0; k < 2; k++) {
                    char err[384];
                    rc[k] = ctx_cache_present(cc[k], id, CTX_JETTY, rec, write, id, t, &in[k], err,
                                              sizeof err);
                    ASSERT_GE(rc[k], 0) << err;
                    if (rnd(2) == 0 || k == 1) { // (the port runs them as it goes)
                        ASSERT_EQ(ctx_cache_run(cc[k], t, err, sizeof err), 0) << err;
                    }
                }
                // (a hit taken without stepping is in from `in`; a stepped
                // lookup's answer comes through `answer`, as on the RTL)
                for (int k = 0; k < 2; k++)
                    if (rc[k] == 1)
                        ans[k].v.emplace_back(id, in[k]);
                t += P * (1 + rnd(rnd(4) ? 6 : 20));
            }
            for (int k = 0; k < 2; k++) {
                char err[384];
                ASSERT_EQ(ctx_cache_run(cc[k], t + 1000 * P, err, sizeof err), 0) << err;
            }
            for (int k = 0; k < 2; k++)
                std::sort(ans[k].v.begin(), ans[k].v.end());
            EXPECT_EQ(ans[0].v.size(), 3000u) << "hc " << hc << " bytes " << bytes;
            EXPECT_EQ(ans[0].v, ans[1].v) << "hc " << hc << " bytes " << bytes;
            uint64_t a[4], b[4];
            ctx_cache_counts(cc[0], &a[0], &a[1], &a[2], &a[3]);
            ctx_cache_counts(cc[1], &b[0], &b[1], &b[2], &b[3]);
            for (int i = 0; i < 4; i++)
                EXPECT_EQ(a[i], b[i]) << "count " << i << " hc " << hc << " bytes " << bytes;
            EXPECT_EQ(cc[0]->writebacks, cc[1]->writebacks);
            EXPECT_GT(a[0], 1000u);
            EXPECT_GT(cc[0]->v_taken, 500u) << "hc " << hc << " bytes " << bytes;
            EXPECT_EQ(cc[1]->v_taken, 0u);
            if (bytes < 4096) {
                EXPECT_GT(a[3], 25u); // (evictions)
            }
            for (int k = 0; k < 2; k++) {
                ctx_cache_free(cc[k]);
                free(cc[k]);
            }
        }
    }
}

// The cliff bench jumps over quiet edges no further than they are quiet: a
// hit due before the fill it waits for is answered (it hung with a hit
// latency of 3 or more, when hits could take fewer).
TEST(ContextsInPath, TheCliffBenchAnswersHitsDueDuringAFetch)
{
    std::string out;
    EXPECT_EQ(testutil::run("timeout 60 " + testutil::ubsim() +
                                " cache --stack ub --n 16 --reads 300 --hit-cycles 5 --format json",
                            &out),
              0);
    EXPECT_NE(out.find("\"points\""), std::string::npos) << out;
}

TEST(ContextsInPath, BadSettingsAreReported)
{
    struct {
        const char *set, *want;
    } cases[] = {
        {"context.ways=0", "[context] ways: expected a whole number 1..128, got '0'"},
        {"context.hit_cycles=16", "[context] hit_cycles: expected a whole number 4..15"},
        {"context.hit_cycles=3", "4..15 (a lookup's pipeline and data read take 4 cycles), got '3'"},
        {"context.cache_bytes=-1", "[context] cache_bytes: expected a whole number of bytes"},
        {"context.miss_ns=0x10", "[context] miss_ns:"},
        {"context.colour=red", "[context]: unknown key 'colour'"},
        {"context.backend=verilog", "[context] backend: expected c, rtl, lockstep or path"},
    };
    for (auto &c : cases) {
        config_t cfg;
        char err[512];
        config_init(&cfg);
        ASSERT_EQ(config_load_defaults(&cfg, err, sizeof err), 0) << err;
        EXPECT_NE(config_set(&cfg, c.set, "--set", err, sizeof err), 0) << c.set;
        EXPECT_NE(std::string(err).find(c.want), std::string::npos) << c.set << ": " << err;
    }
    std::string out;
    std::string ini = testutil::temp_file("[path]\nname = x\n[context]\nways = 300\n");
    EXPECT_EQ(testutil::run(testutil::ubsim() + " latency --config " + ini, &out, true), 2);
    EXPECT_NE(out.find(":4: [context] ways: expected a whole number 1..128, got '300'"), std::string::npos)
        << out;
}
