// The independent ordering checker (sim/verbs/order_check.c): it finds each
// kind of violation in a made-up history, finds none in 1,000,000 random
// requests through the simulated endpoint (random modes, order tags, fences,
// send queues, lengths, and links that reorder and lose packets) on C, RTL
// and lockstep, and catches a deliberately wrong tracker.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "test_paths.h"
#include "test_util.h"

extern "C" {
#include "blocks.h"
#include "config.h"
#include "fault.h"
#include "order_check.h"
#include "urma.h"
#include "verbs_run.h"
}

namespace {

uint8_t ord(int mode, int order, int fence) { return (uint8_t)(mode << 3 | fence << 2 | order); }

TEST(OrderCheck, FindsEachKindOfViolation)
{
    { // a correct history
        order_check_t *c = order_check_new();
        order_check_post(c, 0, 1, ord(URMA_OI, UB_ORDER_NO, 0));
        order_check_post(c, 1, 1, ord(URMA_OI, UB_ORDER_SO, 0));
        order_check_issue(c, 0, 10);
        order_check_execute(c, 0, 20);
        order_check_complete(c, 0, 30);
        order_check_issue(c, 1, 40);
        order_check_execute(c, 1, 50);
        order_check_complete(c, 1, 60);
        const order_check_stats_t *s = order_check_stats(c);
        EXPECT_EQ(s->violations[OC_FIFO] + s->violations[OC_WAIT] + s->violations[OC_TARGET], 0u);
        EXPECT_EQ(s->issued, 2u);
        order_check_free(c);
    }
    { // issued out of order; an SO request before its predecessor completed
        order_check_t *c = order_check_new();
        order_check_post(c, 0, 2, ord(URMA_OI, UB_ORDER_NO, 0));
        order_check_post(c, 1, 2, ord(URMA_OI, UB_ORDER_SO, 0));
        order_check_issue(c, 1, 5);
        order_check_issue(c, 0, 6);
        const order_check_stats_t *s = order_check_stats(c);
        EXPECT_EQ(s->violations[OC_FIFO], 1u);
        EXPECT_EQ(s->violations[OC_WAIT], 0u); // (nothing was open yet)
        EXPECT_NE(std::string(s->first).find("fifo: request 1 of send queue 2"), std::string::npos)
            << s->first;
        order_check_post(c, 2, 2, ord(URMA_OL, UB_ORDER_NO, 1)); // a fence, with 2 open
        order_check_issue(c, 2, 7);
        EXPECT_EQ(s->violations[OC_WAIT], 1u);
        order_check_free(c);
    }
    { // ordered requests executed out of order at the target; UNO is exempt
        order_check_t *c = order_check_new();
        order_check_post(c, 0, 0, ord(URMA_OT, UB_ORDER_RO, 0));
        order_check_post(c, 1, 0, ord(URMA_OT, UB_ORDER_SO, 0));
        order_check_post(c, 2, 3, ord(URMA_NO, UB_ORDER_SO, 0));
        order_check_post(c, 3, 3, ord(URMA_NO, UB_ORDER_SO, 0));
        order_check_execute(c, 1, 10);
        order_check_execute(c, 0, 11);
        order_check_execute(c, 3, 12);
        order_check_execute(c, 2, 13);
        EXPECT_EQ(order_check_stats(c)->violations[OC_TARGET], 1u);
        order_check_free(c);
    }
}

// A random workload: several send queues (more than the pipeline's 8 queues,
// so some share one), each with a random mode, posting random requests
// (order tag, fence, length) with a window of its own until the total.
struct Random {
    int64_t total;
    int n_jfs = 12, window = 4;
    uint64_t seed = 1;
    std::mt19937_64 rng;
    urma_context_t *a = nullptr;
    std::vector<urma_jfs_t *> jfs;
    std::vector<int> in_flight;
    urma_target_seg_t *t = nullptr;
    int64_t posted = 0, done = 0, errors = 0;
    std::string why;

    void post(int q)
    {
        uint64_t r = rng();
        urma_jfs_wr_t wr{};
        wr.opcode = (r & 1) ? URMA_OPC_WRITE : URMA_OPC_READ;
        wr.user_ctx = (uint64_t)q;
        wr.local_va = 0x1000;
        wr.len = (r >> 1) % 5 == 0 ? (uint32_t)(1 + (r >> 8) % 9000) : (uint32_t)(1 + (r >> 8) % 128);
        wr.tseg = t;
        wr.remote_va = 0x100000 + ((r >> 24) % 64) * 0x4000;
        wr.order = (urma_order_t)((r >> 40) % 3);
        wr.fence = (r >> 42) % 8 == 0;
        if (urma_post_jfs_wr(jfs[q], &wr, nullptr))
            why = urma_last_error(a);
        posted++;
        in_flight[q]++;
    }
    static void notify(urma_jfc_t *jfc, void *arg)
    {
        Random *w = (Random *)arg;
        urma_cr_t cr[16];
        int n;
        while ((n = urma_poll_jfc(jfc, 16, cr)) > 0) {
            for (int i = 0; i < n; i++) {
                int q = (int)cr[i].user_ctx;
                w->in_flight[q]--;
                w->done++;
                w->errors += cr[i].status != URMA_CR_SUCCESS;
                if (w->posted < w->total)
                    w->post(q);
            }
        }
        if (w->done == w->total)
            urma_stop(w->a);
    }
    static int start(void *arg, urma_context_t *const *nodes, int)
    {
        Random *w = (Random *)arg;
        w->rng.seed(w->seed);
        w->a = nodes[0];
        urma_seg_cfg_t sc = {0x100000, 64 * 0x4000, 7, URMA_ACCESS_READ | URMA_ACCESS_WRITE};
        urma_seg_t *seg = urma_register_seg(nodes[1], &sc);
        urma_seg_info_t info = urma_seg_info(seg);
        w->t = urma_import_seg(w->a, &info, 7);
        urma_jfc_cfg_t qc = {256, notify, w};
        urma_jfc_t *jfc = urma_create_jfc(w->a, &qc);
        const urma_tp_mode_t modes[4] = {URMA_TM_ROI, URMA_TM_ROT, URMA_TM_ROL, URMA_TM_UNO};
        for (int q = 0; q < w->n_jfs; q++) {
            urma_jfs_cfg_t jc = {(uint32_t)w->window, jfc, modes[(q + (int)w->seed) % 4]};
            w->jfs.push_back(urma_create_jfs(w->a, &jc));
            w->in_flight.push_back(0);
        }
        for (int k = 0; k < w->window; k++)
            for (int q = 0; q < w->n_jfs && w->posted < w->total; q++)
                w->post(q);
        return 0;
    }
};

using testutil::Paths;

order_check_stats_t run_random(int64_t total, backend_kind_t be, const char *faults,
                               const block_class_t *cls = nullptr, uint64_t seed = 1)
{
    Paths P;
    fault_spec_t f;
    fault_spec_init(&f);
    char err[512];
    if (faults) {
        EXPECT_EQ(fault_parse(faults, &f, err, sizeof err), 0) << err;
    }
    order_check_t *oc = order_check_new();
    Random w;
    w.total = total;
    w.seed = seed;
    urma_workload_t wl = {"random", Random::start, &w};
    verbs_run_opts_t o{};
    o.backend = be;
    o.fault = faults ? &f : nullptr;
    o.timeout_ps = 20000000; // 20 us
    o.checker = oc;
    o.tx_class = cls;
    verbs_run_result_t r;
    EXPECT_EQ(verbs_run(config_find(&P.cfg, "ub_async"), &o, &wl, &r, err, sizeof err), 0) << err;
    EXPECT_EQ(w.why, "");
    EXPECT_EQ(w.done, total);
    EXPECT_EQ(r.lockstep_mismatches, 0u);
    order_check_stats_t s = *order_check_stats(oc);
    order_check_free(oc);
    return s;
}

uint64_t all(const order_check_stats_t &s)
{
    return s.violations[OC_FIFO] + s.violations[OC_WAIT] + s.violations[OC_TARGET];
}

TEST(OrderCheck, AMillionRandomRequestsBreakNoRule)
{
    int64_t n = testutil::short_run() ? 50000 : 1000000;
    order_check_stats_t s = run_random(n, BACKEND_C, nullptr);
    EXPECT_EQ(all(s), 0u) << s.first;
    EXPECT_EQ(s.posted, (uint64_t)n);
    EXPECT_EQ(s.issued, (uint64_t)n);
    EXPECT_EQ(s.completed, (uint64_t)n);
}

TEST(OrderCheck, AMillionRandomRequestsOnRtlAndLockstep)
{
    int64_t n = testutil::short_run() ? 20000 : 1000000;
    for (backend_kind_t be : {BACKEND_RTL, BACKEND_LOCKSTEP}) {
        order_check_stats_t s = run_random(n, be, nullptr, nullptr, 2);
        EXPECT_EQ(all(s), 0u) << backend_name(be) << ": " << s.first;
        EXPECT_EQ(s.completed, (uint64_t)n);
    }
}

TEST(OrderCheck, LinksThatReorderAndLoseBreakNoRule)
{
    int64_t n = testutil::short_run() ? 20000 : 200000;
    order_check_stats_t s = run_random(n, BACKEND_C, "reorder=1e-3,loss=1e-4,seed=9", nullptr, 3);
    EXPECT_EQ(all(s), 0u) << s.first;
    // (every request ended at the host; a few the host gave up on before
    // the NIC issued them were still queued in it at the end)
    EXPECT_GE(s.completed, (uint64_t)n * 99 / 100);
    EXPECT_LE(s.completed, s.issued);
}

// A tracker that lets every head go: SO and fenced requests leave before
// their predecessors complete, and the checker says so.
void (*real_step)(void *, const void *, void *, uint64_t);
void unordered_step(void *self, const void *in, void *out, uint64_t now)
{
    ((ub_tx_state_t *)self)->sp.ot_out.elig = 0xFF;
    real_step(self, in, out, now);
}

TEST(OrderCheck, AWrongTrackerIsCaught)
{
    block_class_t cls = ub_tx_class;
    cls.name = "ub_tx_unordered";
    real_step = cls.c.step;
    cls.c.step = unordered_step;
    cls.c.quiet = nullptr;
    cls.c.advance = nullptr;
    order_check_stats_t s = run_random(20000, BACKEND_C, nullptr, &cls, 4);
    EXPECT_GT(s.violations[OC_WAIT], 0u);
    EXPECT_NE(std::string(s.first).find("wait: request"), std::string::npos) << s.first;
}

} // namespace
