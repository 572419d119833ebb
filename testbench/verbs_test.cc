// Workloads written against the verbs (sim/verbs/urma.h): a read returns
// the bytes written before it (C, RTL, lockstep), a send lands in a posted
// receive buffer, the target refuses a bad token or an address outside its
// segment and touches nothing, posting mistakes are refused with a reason,
// and under faults every request ends with the right bytes or an error.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_paths.h"
#include "test_util.h"

extern "C" {
#include "config.h"
#include "fault.h"
#include "urma.h"
#include "verbs_run.h"
}

namespace {

using testutil::Paths;

const uint32_t TOKEN = 0x77;
const uint64_t SEG = 0x100000, SEG_LEN = 1 << 20;

uint8_t pattern(uint64_t i, uint64_t k) { return (uint8_t)(i * 131 + k * 7 + (i >> 8)); }

// Writes then reads back: for each op k, a write of len(k) bytes at
// SEG + k * 16 KiB, then, once it completed, a read of the same bytes into
// another buffer; every read is compared with what was written.
struct WriteRead {
    int ops;
    std::vector<uint32_t> len;
    urma_context_t *a = nullptr, *b = nullptr;
    urma_jfs_t *jfs = nullptr;
    urma_target_seg_t *tseg = nullptr;
    int done = 0, reads_ok = 0, writes_ok = 0, errors = 0, wrong = 0, in_flight = 0, next = 0;
    int window = 4;
    std::vector<int> write_ok;
    std::string why;

    uint64_t src(int k) { return 0x1000 + (uint64_t)(k % 64) * 0x4000; }
    uint64_t dst(int k) { return 0x200000 + (uint64_t)(k % 64) * 0x4000; }
    uint64_t remote(int k) { return SEG + (uint64_t)(k % 64) * 0x4000; }

    void start_one(int k)
    {
        uint8_t *mem = urma_node_memory(a, nullptr);
        for (uint32_t i = 0; i < len[k]; i++)
            mem[src(k) + i] = pattern(i, k);
        int rc = urma_write(jfs, tseg, remote(k), src(k), len[k], (uint64_t)k << 1);
        if (rc)
            why = urma_last_error(a);
        in_flight++;
    }

    static void notify(urma_jfc_t *jfc, void *arg)
    {
        WriteRead *w = (WriteRead *)arg;
        urma_cr_t cr[8];
        int n;
        while ((n = urma_poll_jfc(jfc, 8, cr)) > 0) {
            for (int i = 0; i < n; i++) {
                int k = (int)(cr[i].user_ctx >> 1);
                bool is_read = cr[i].user_ctx & 1;
                if (!is_read) {
                    w->write_ok[k] = cr[i].status == URMA_CR_SUCCESS;
                    if (w->write_ok[k])
                        w->writes_ok++;
                    else
                        w->errors++;
                    // read it back, whatever became of the write
                    memset(urma_node_memory(w->a, nullptr) + w->dst(k), 0xee, w->len[k]);
                    if (urma_read(w->jfs, w->tseg, w->dst(k), w->remote(k), w->len[k],
                                  ((uint64_t)k << 1) | 1))
                        w->why = urma_last_error(w->a);
                    continue;
                }
                w->in_flight--;
                w->done++;
                if (cr[i].status != URMA_CR_SUCCESS) {
                    w->errors++;
                } else {
                    const uint8_t *got = urma_node_memory(w->a, nullptr) + w->dst(k);
                    bool same = true, zero = true;
                    for (uint32_t j = 0; j < w->len[k]; j++) {
                        same &= got[j] == pattern(j, k);
                        zero &= got[j] == 0 || got[j] == pattern(j, k - 64 >= 0 ? k - 64 : k);
                    }
                    // a write that failed may or may not have been executed
                    if (same || (!w->write_ok[k] && zero))
                        w->reads_ok++;
                    else
                        w->wrong++;
                }
                if (w->next < w->ops)
                    w->start_one(w->next++);
            }
        }
        if (w->done == w->ops)
            urma_stop(w->a);
    }

    static int start(void *arg, urma_context_t *const *nodes, int n)
    {
        WriteRead *w = (WriteRead *)arg;
        EXPECT_EQ(n, 2);
        w->a = nodes[0];
        w->b = nodes[1];
        urma_seg_cfg_t sc = {SEG, SEG_LEN, TOKEN, URMA_ACCESS_READ | URMA_ACCESS_WRITE};
        urma_seg_t *seg = urma_register_seg(w->b, &sc);
        if (!seg)
            return -1;
        urma_seg_info_t info = urma_seg_info(seg);
        w->tseg = urma_import_seg(w->a, &info, TOKEN);
        urma_jfc_cfg_t qc = {256, notify, w};
        urma_jfc_t *jfc = urma_create_jfc(w->a, &qc);
        urma_jfs_cfg_t jc = {128, jfc, URMA_TM_DEFAULT};
        w->jfs = jfc ? urma_create_jfs(w->a, &jc) : nullptr;
        if (!w->jfs)
            return -1;
        w->write_ok.assign((size_t)w->ops, 0);
        while (w->next < w->ops && w->next < w->window)
            w->start_one(w->next++);
        return 0;
    }
};

verbs_run_result_t run_wl(const path_cfg_t *p, urma_workload_t wl, backend_kind_t be = BACKEND_C,
                          const fault_spec_t *f = nullptr, const tp_cfg_t *tp = nullptr)
{
    verbs_run_opts_t o{};
    o.backend = be;
    o.fault = f;
    o.transport = tp;
    o.timeout_ps = 50000000; // 50 us
    verbs_run_result_t r;
    char err[512];
    EXPECT_EQ(verbs_run(p, &o, &wl, &r, err, sizeof err), 0) << err;
    return r;
}

TEST(Verbs, AReadReturnsTheBytesWrittenBeforeIt)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        for (backend_kind_t be : {BACKEND_C, BACKEND_RTL, BACKEND_LOCKSTEP}) {
            SCOPED_TRACE(std::string(name) + " " + backend_name(be));
            WriteRead w;
            w.ops = 40;
            for (int k = 0; k < w.ops; k++)
                w.len.push_back(k == 0 ? 1 : (uint32_t)(k * 97 % 8192) + 1);
            urma_workload_t wl = {"write-read", WriteRead::start, &w};
            verbs_run_result_t r = run_wl(P.get(name), wl, be);
            EXPECT_EQ(w.why, "");
            EXPECT_EQ(w.done, w.ops);
            EXPECT_EQ(w.reads_ok, w.ops);
            EXPECT_EQ(w.writes_ok, w.ops);
            EXPECT_EQ(w.wrong, 0);
            EXPECT_EQ(r.host.posted, 2 * w.ops);
            EXPECT_EQ(r.host.executed, 2 * w.ops);
            EXPECT_EQ(r.host.errors, 0);
            EXPECT_EQ(r.lockstep_mismatches, 0u);
            EXPECT_EQ(r.fx.rx_counts[1][RX_OK], (uint64_t)(2 * w.ops)); // the target checked each
        }
    }
}

// Several MiB in one request: 4 MiB written and read back, as 1024 packets
// of the default MTU each way.
struct Big {
    urma_context_t *a = nullptr;
    urma_jfs_t *jfs = nullptr;
    urma_target_seg_t *t = nullptr;
    int done = 0;
    bool same = false;
    static constexpr uint32_t kLen = 4u << 20;
    static void notify(urma_jfc_t *jfc, void *arg)
    {
        Big *g = (Big *)arg;
        urma_cr_t cr;
        while (urma_poll_jfc(jfc, 1, &cr) == 1) {
            EXPECT_EQ(cr.status, URMA_CR_SUCCESS);
            EXPECT_EQ(cr.completion_len, kLen);
            if (++g->done == 1) {
                urma_read(g->jfs, g->t, 8u << 20, SEG, kLen, 2);
            } else {
                const uint8_t *m = urma_node_memory(g->a, nullptr);
                g->same = memcmp(m + (8u << 20), m, kLen) == 0;
                urma_stop(g->a);
            }
        }
    }
    static int start(void *arg, urma_context_t *const *nodes, int)
    {
        Big *g = (Big *)arg;
        g->a = nodes[0];
        urma_seg_cfg_t sc = {SEG, kLen, TOKEN, URMA_ACCESS_READ | URMA_ACCESS_WRITE};
        urma_seg_t *seg = urma_register_seg(nodes[1], &sc);
        urma_seg_info_t info = urma_seg_info(seg);
        g->t = urma_import_seg(g->a, &info, TOKEN);
        urma_jfc_cfg_t qc = {4, notify, g};
        urma_jfs_cfg_t jc = {2, urma_create_jfc(g->a, &qc), URMA_TM_DEFAULT};
        g->jfs = urma_create_jfs(g->a, &jc);
        uint8_t *m = urma_node_memory(g->a, nullptr);
        for (uint32_t i = 0; i < kLen; i++)
            m[i] = (uint8_t)(i * 2654435761u >> 24);
        return urma_write(g->jfs, g->t, SEG, 0, kLen, 1);
    }
};

TEST(Verbs, SeveralMebibytesInOneRequest)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        SCOPED_TRACE(name);
        Big g;
        urma_workload_t wl = {"big", Big::start, &g};
        verbs_run_result_t r = run_wl(P.get(name), wl);
        EXPECT_EQ(g.done, 2);
        EXPECT_TRUE(g.same);
        uint64_t packets = Big::kLen / (uint64_t)P.get(name)->mtu_bytes;
        EXPECT_EQ(r.fx.rx_counts[1][RX_OK], packets + 1);  // the write's, the read request
        EXPECT_EQ(r.fx.rx_counts[0][RX_OK], 1 + packets);  // its acknowledgement, the response's
    }
}

// Ordering through the whole loop: requests posted at once on two send
// queues (two initiators); each one's completion time is recorded.
struct Ordered {
    struct Post {
        int q;             // which send queue
        urma_order_t order;
        uint8_t fence;
    };
    std::vector<Post> posts;
    urma_tp_mode_t mode = URMA_TM_ROI;
    urma_context_t *a = nullptr;
    std::vector<double> done_ns;
    int n_done = 0;
    static void notify(urma_jfc_t *jfc, void *arg)
    {
        Ordered *o = (Ordered *)arg;
        urma_cr_t cr;
        while (urma_poll_jfc(jfc, 1, &cr) == 1) {
            EXPECT_EQ(cr.status, URMA_CR_SUCCESS);
            o->done_ns[cr.user_ctx] = (double)cr.time_ps / 1000.0;
            if (++o->n_done == (int)o->posts.size())
                urma_stop(o->a);
        }
    }
    static int start(void *arg, urma_context_t *const *nodes, int)
    {
        Ordered *o = (Ordered *)arg;
        o->a = nodes[0];
        o->done_ns.assign(o->posts.size(), -1);
        urma_seg_cfg_t sc = {SEG, 0x10000, TOKEN, URMA_ACCESS_READ | URMA_ACCESS_WRITE};
        urma_seg_t *seg = urma_register_seg(nodes[1], &sc);
        urma_seg_info_t info = urma_seg_info(seg);
        urma_target_seg_t *t = urma_import_seg(o->a, &info, TOKEN);
        urma_jfc_cfg_t qc = {64, notify, o};
        urma_jfc_t *jfc = urma_create_jfc(o->a, &qc);
        urma_jfs_cfg_t jc = {16, jfc, o->mode};
        urma_jfs_t *jfs[2] = {urma_create_jfs(o->a, &jc), urma_create_jfs(o->a, &jc)};
        for (size_t i = 0; i < o->posts.size(); i++) {
            urma_jfs_wr_t wr{};
            wr.opcode = URMA_OPC_WRITE;
            wr.user_ctx = i;
            wr.local_va = 0x100;
            wr.len = 64;
            wr.tseg = t;
            wr.remote_va = SEG + 64 * i;
            wr.order = o->posts[i].order;
            wr.fence = o->posts[i].fence;
            if (urma_post_jfs_wr(jfs[o->posts[i].q], &wr, nullptr))
                return -1;
        }
        return 0;
    }
};

std::vector<double> ordered_run(const path_cfg_t *p, std::vector<Ordered::Post> posts,
                                urma_tp_mode_t mode = URMA_TM_ROI, backend_kind_t be = BACKEND_C)
{
    Ordered o;
    o.posts = posts;
    o.mode = mode;
    urma_workload_t wl = {"ordered", Ordered::start, &o};
    run_wl(p, wl, be);
    return o.done_ns;
}

// An SO request waits for its initiator's earlier request to complete, a
// full round trip later; a fence too; the other initiator's requests go
// meanwhile, as if nothing waited; without ordering (or in ROT, where the
// target orders) nothing waits. The completions come back through the
// receive path and a channel: nothing releases a request by hand.
TEST(Verbs, StrongOrderWaitsForThePredecessorsCompletionAndHoldsNoOneElse)
{
    Paths P;
    for (backend_kind_t be : {BACKEND_C, BACKEND_RTL, BACKEND_LOCKSTEP}) {
        SCOPED_TRACE(backend_name(be));
        const path_cfg_t *p = P.get("ub_async");
        double rtt = ordered_run(p, {{0, URMA_ORDER_NO, 0}}, URMA_TM_ROI, be)[0]; // one alone
        using Po = Ordered::Post;
        std::vector<Po> load = {{0, URMA_ORDER_NO, 0}, {0, URMA_ORDER_SO, 0}, {1, URMA_ORDER_NO, 0},
                                {1, URMA_ORDER_NO, 0}, {1, URMA_ORDER_NO, 0}, {1, URMA_ORDER_NO, 0}};
        std::vector<double> t = ordered_run(p, load, URMA_TM_ROI, be);
        // (it waits in the NIC for the completion to reach the tracker, then
        // goes the rest of the way: more than half a round trip after it)
        EXPECT_GE(t[1], t[0] + rtt / 2) << "the SO request went before its predecessor completed";
        for (int i = 2; i < 6; i++) // the other initiator: a few issue slots behind, no more
            EXPECT_LT(t[i], rtt + 60.0) << i;
        load[1].order = URMA_ORDER_RO; // a fence waits too
        load[1].fence = 1;
        t = ordered_run(p, load, URMA_TM_ROI, be);
        EXPECT_GE(t[1], t[0] + rtt / 2);
        load[1].fence = 0; // no ordering: no waiting
        t = ordered_run(p, load, URMA_TM_ROI, be);
        EXPECT_LT(t[1], rtt + 60.0);
        load[1].order = URMA_ORDER_SO; // ROT: the target orders, the initiator does not wait
        t = ordered_run(p, load, URMA_TM_ROT, be);
        EXPECT_LT(t[1], rtt + 60.0);
    }
}

TEST(Verbs, UnderFaultsEveryRequestEndsRightOrInAnError)
{
    Paths P;
    fault_spec_t f;
    fault_spec_init(&f);
    char err[256];
    ASSERT_EQ(fault_parse("loss=2e-3,dup=2e-3,reorder=2e-3,corrupt=2e-3,seed=11", &f, err, sizeof err), 0)
        << err;
    WriteRead w;
    w.ops = testutil::short_run() ? 2000 : 20000;
    w.window = 16;
    for (int k = 0; k < w.ops; k++)
        w.len.push_back((uint32_t)(k * 37 % 600) + 1);
    urma_workload_t wl = {"write-read", WriteRead::start, &w};
    verbs_run_result_t r = run_wl(P.get("ub_async"), wl, BACKEND_C, &f);
    EXPECT_EQ(w.why, "");
    EXPECT_EQ(w.done, w.ops);
    EXPECT_EQ(w.wrong, 0); // never a wrong result reported as good
    EXPECT_GT(w.errors, 0);
    EXPECT_GT(w.reads_ok, 0);
    // (until the transport resends, a loss leaves a gap in its channel's
    // sequence that every later packet meets: most requests fail)
    EXPECT_EQ(r.host.completed, r.host.posted);
}

// With the NICs' transport the same faults cost time, not requests: every
// write and every read completes, and each read brings back what was
// written (selective ack on UB, go-back-N on the RoCE baseline; the C
// model and the RTL give the same run).
TEST(Verbs, WithTheTransportEveryRequestUnderFaultsEndsRight)
{
    Paths P;
    fault_spec_t f;
    fault_spec_init(&f);
    char err[256];
    ASSERT_EQ(fault_parse("loss=1e-2,dup=5e-3,reorder=5e-3,corrupt=5e-3,seed=11", &f, err, sizeof err), 0)
        << err;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        const path_cfg_t *p = P.get(name);
        tp_cfg_t tp;
        tp_cfg_default(&tp, p->tx_block == NIC_BLOCK_RC_SEND);
        tp.rto_ps = 3000000; // 3 us
        uint64_t resent[2] = {0, 0};
        for (backend_kind_t be : {BACKEND_C, BACKEND_RTL}) {
            WriteRead w;
            w.ops = be == BACKEND_C ? 2000 : 300;
            w.window = 16;
            for (int k = 0; k < w.ops; k++)
                w.len.push_back((uint32_t)(k * 37 % 6000) + 1); // up to two packets
            urma_workload_t wl = {"write-read", WriteRead::start, &w};
            verbs_run_result_t r = run_wl(p, wl, be, &f, &tp);
            EXPECT_EQ(w.why, "") << name;
            EXPECT_EQ(w.done, w.ops) << name;
            EXPECT_EQ(w.errors, 0) << name;
            EXPECT_EQ(w.wrong, 0) << name;
            EXPECT_EQ(w.writes_ok, w.ops) << name;
            EXPECT_EQ(w.reads_ok, w.ops) << name;
            EXPECT_TRUE(r.tp_on);
            EXPECT_GT(r.tp.resent, 0u) << name;
            EXPECT_EQ(r.lockstep_mismatches, 0u);
            resent[be == BACKEND_C] = r.tp.resent;
        }
        EXPECT_GT(resent[1], resent[0]) << name; // (the longer run lost more)
    }
}

// A send: the target posts receive buffers on a Jetty; the initiator sends
// to it. Two land; the third finds no buffer; one too long for its buffer
// fails at both ends.
struct Sends {
    urma_context_t *a = nullptr, *b = nullptr;
    urma_jfc_t *a_jfc = nullptr, *b_jfc = nullptr;
    std::vector<urma_cr_t> a_cr, b_cr;
    std::vector<uint8_t> bm; // the target's memory at the end (from 0)
    std::string why;

    static void on_a(urma_jfc_t *jfc, void *arg)
    {
        Sends *s = (Sends *)arg;
        urma_cr_t cr;
        while (urma_poll_jfc(jfc, 1, &cr) == 1)
            s->a_cr.push_back(cr);
        if (s->a_cr.size() == 4) {
            const uint8_t *m = urma_node_memory(s->b, nullptr);
            s->bm.assign(m, m + 0xb000);
            urma_stop(s->a);
        }
    }
    static void on_b(urma_jfc_t *jfc, void *arg)
    {
        Sends *s = (Sends *)arg;
        urma_cr_t cr;
        while (urma_poll_jfc(jfc, 1, &cr) == 1)
            s->b_cr.push_back(cr);
    }
    static int start(void *arg, urma_context_t *const *nodes, int)
    {
        Sends *s = (Sends *)arg;
        s->a = nodes[0];
        s->b = nodes[1];
        urma_jfc_cfg_t qa = {16, on_a, s}, qb = {16, on_b, s};
        s->a_jfc = urma_create_jfc(s->a, &qa);
        s->b_jfc = urma_create_jfc(s->b, &qb);
        urma_jfr_cfg_t rc = {8, s->b_jfc};
        urma_jfr_t *jfr = urma_create_jfr(s->b, &rc);
        urma_jetty_cfg_t bj = {{4, s->b_jfc, URMA_TM_DEFAULT}, jfr};
        urma_jetty_t *target = urma_create_jetty(s->b, &bj);
        urma_jetty_cfg_t aj = {{4, s->a_jfc, URMA_TM_DEFAULT}, nullptr};
        urma_jetty_t *mine = urma_create_jetty(s->a, &aj);
        if (!target || !mine)
            return -1;
        urma_jfr_wr_t r1 = {101, 0x8000, 100, nullptr}, r2 = {102, 0x9000, 100, nullptr},
                      r3 = {103, 0xa000, 10, nullptr};
        r1.next = &r2;
        r2.next = &r3;
        if (urma_post_jetty_recv_wr(target, &r1, nullptr))
            s->why = urma_last_error(s->b);
        uint8_t *mem = urma_node_memory(s->a, nullptr);
        for (int i = 0; i < 64; i++)
            mem[0x100 + i] = (uint8_t)(0xa0 + i);
        urma_target_jetty_t *tj = urma_import_jetty(s->a, urma_node_id(s->b), urma_jetty_id(target));
        urma_jfs_t *jfs = urma_jetty_jfs(mine);
        // 64 B, 32 B, 20 B (the third buffer holds 10), then one with no buffer
        if (urma_send(jfs, tj, 0x100, 64, 1) || urma_send(jfs, tj, 0x110, 32, 2) ||
            urma_send(jfs, tj, 0x100, 20, 3) || urma_send(jfs, tj, 0x100, 8, 4))
            s->why = urma_last_error(s->a);
        return 0;
    }
};

TEST(Verbs, ASendLandsInAPostedReceiveBuffer)
{
    Paths P;
    for (const char *name : {"ub_async", "pcie_nic"}) {
        SCOPED_TRACE(name);
        Sends s;
        urma_workload_t wl = {"sends", Sends::start, &s};
        verbs_run_result_t r = run_wl(P.get(name), wl);
        EXPECT_EQ(s.why, "");
        ASSERT_EQ(s.a_cr.size(), 4u);
        ASSERT_EQ(s.b_cr.size(), 3u);
        // in order at the target: two landed, one too long for its buffer
        EXPECT_EQ(s.b_cr[0].status, URMA_CR_SUCCESS);
        EXPECT_EQ(s.b_cr[0].user_ctx, 101u);
        EXPECT_EQ(s.b_cr[0].completion_len, 64u);
        EXPECT_TRUE(s.b_cr[0].recv);
        EXPECT_EQ(s.b_cr[1].user_ctx, 102u);
        EXPECT_EQ(s.b_cr[1].completion_len, 32u);
        EXPECT_EQ(s.b_cr[2].status, URMA_CR_LOC_LEN_ERR);
        ASSERT_EQ(s.bm.size(), 0xb000u);
        const uint8_t *bm = s.bm.data();
        for (int i = 0; i < 64; i++)
            EXPECT_EQ(bm[0x8000 + i], (uint8_t)(0xa0 + i));
        for (int i = 0; i < 32; i++)
            EXPECT_EQ(bm[0x9000 + i], (uint8_t)(0xb0 + i));
        EXPECT_EQ(bm[0xa000], 0); // refused: nothing written
        // at the initiator: two good, two refused by the target
        int good = 0, refused = 0;
        for (const urma_cr_t &c : s.a_cr) {
            good += c.status == URMA_CR_SUCCESS;
            refused += c.status == URMA_CR_REM_ACCESS_ABORT_ERR;
            EXPECT_EQ(c.opcode, URMA_OPC_SEND);
        }
        EXPECT_EQ(good, 2);
        EXPECT_EQ(refused, 2);
        EXPECT_EQ(r.host.no_recv_buffer, 1);
    }
}

// Requests the target must refuse, and touch nothing.
struct Refusals {
    urma_context_t *a = nullptr, *b = nullptr;
    std::vector<urma_cr_t> cr;
    std::vector<uint8_t> bm; // the target's memory at the end (from SEG)
    static void on_a(urma_jfc_t *jfc, void *arg)
    {
        Refusals *s = (Refusals *)arg;
        urma_cr_t c;
        while (urma_poll_jfc(jfc, 1, &c) == 1)
            s->cr.push_back(c);
        if (s->cr.size() == 4) {
            const uint8_t *m = urma_node_memory(s->b, nullptr) + SEG;
            s->bm.assign(m, m + 0x10100);
            urma_stop(s->a);
        }
    }
    static int start(void *arg, urma_context_t *const *nodes, int)
    {
        Refusals *s = (Refusals *)arg;
        s->a = nodes[0];
        s->b = nodes[1];
        urma_seg_cfg_t rw = {SEG, 0x1000, TOKEN, URMA_ACCESS_READ | URMA_ACCESS_WRITE};
        urma_seg_cfg_t ro = {SEG + 0x10000, 0x1000, TOKEN + 1, URMA_ACCESS_READ};
        urma_seg_t *s1 = urma_register_seg(s->b, &rw), *s2 = urma_register_seg(s->b, &ro);
        if (!s1 || !s2)
            return -1;
        urma_seg_info_t i1 = urma_seg_info(s1), i2 = urma_seg_info(s2);
        urma_target_seg_t *good = urma_import_seg(s->a, &i1, TOKEN);
        urma_target_seg_t *bad = urma_import_seg(s->a, &i1, TOKEN + 5);
        urma_target_seg_t *rdonly = urma_import_seg(s->a, &i2, TOKEN + 1);
        urma_jfc_cfg_t qa = {16, on_a, s};
        urma_jfc_t *jfc = urma_create_jfc(s->a, &qa);
        urma_jfs_cfg_t jc = {8, jfc, URMA_TM_DEFAULT};
        urma_jfs_t *jfs = urma_create_jfs(s->a, &jc);
        memset(urma_node_memory(s->a, nullptr) + 0x100, 0x5a, 64);
        urma_read(jfs, bad, 0x400, SEG, 64, 1);              // wrong token
        urma_write(jfs, good, SEG + 0xfe0, 0x100, 64, 2);    // runs past the segment's end
        urma_write(jfs, rdonly, SEG + 0x10000, 0x100, 64, 3); // a read-only segment
        urma_write(jfs, good, SEG, 0x100, 64, 4);            // fine
        return 0;
    }
};

TEST(Verbs, TheTargetRefusesWhatItsSegmentsDoNotAllowAndTouchesNothing)
{
    Paths P;
    // (ub_load has no send pipelines and so no receive checks: the target
    // checks the memory itself)
    for (const char *name : {"ub_async", "pcie_nic", "ub_load"}) {
        SCOPED_TRACE(name);
        Refusals s;
        urma_workload_t wl = {"refusals", Refusals::start, &s};
        verbs_run_result_t r = run_wl(P.get(name), wl);
        ASSERT_EQ(s.cr.size(), 4u);
        for (const urma_cr_t &c : s.cr)
            EXPECT_EQ(c.status, c.user_ctx == 4 ? URMA_CR_SUCCESS : URMA_CR_REM_ACCESS_ABORT_ERR)
                << c.user_ctx;
        if (P.get(name)->tx_block != NIC_BLOCK_NONE) {
            EXPECT_EQ(r.fx.rx_counts[1][RX_BAD_TOKEN], 1u);
            EXPECT_EQ(r.fx.rx_counts[1][RX_OUT_OF_SEGMENT], 1u);
            EXPECT_EQ(r.fx.rx_counts[1][RX_NO_ACCESS], 1u);
            EXPECT_EQ(r.fx.rx_counts[1][RX_OK], 1u);
        }
        EXPECT_EQ(r.host.refused, 3);
        EXPECT_EQ(r.host.executed, 1);
        ASSERT_EQ(s.bm.size(), 0x10100u);
        EXPECT_EQ(s.bm[0], 0x5a);          // the good write landed
        EXPECT_EQ(s.bm[0xfe0], 0);         // the others did not
        EXPECT_EQ(s.bm[0x10000], 0);
    }
}

// Mistakes at the post: refused at once, with a reason.
struct Mistakes {
    std::vector<std::pair<int, std::string>> got;
    static int start(void *arg, urma_context_t *const *nodes, int)
    {
        Mistakes *m = (Mistakes *)arg;
        urma_context_t *a = nodes[0], *b = nodes[1];
        urma_seg_cfg_t sc = {SEG, 0x1000, TOKEN, URMA_ACCESS_READ};
        urma_seg_t *seg = urma_register_seg(b, &sc);
        urma_seg_info_t info = urma_seg_info(seg);
        urma_target_seg_t *t = urma_import_seg(a, &info, TOKEN);
        urma_jfc_cfg_t qc = {4, nullptr, nullptr};
        urma_jfc_t *jfc = urma_create_jfc(a, &qc);
        urma_jfs_cfg_t jc = {1, jfc, URMA_TM_DEFAULT};
        urma_jfs_t *jfs = urma_create_jfs(a, &jc);
        uint64_t size;
        urma_node_memory(a, &size);
        auto note = [&](int rc) { m->got.emplace_back(rc, urma_last_error(a)); };
        note(urma_read(jfs, t, 0, SEG, 0, 1));        // 0 bytes
        note(urma_read(jfs, t, size - 8, SEG, 64, 2)); // past the local memory
        note(urma_read(jfs, nullptr, 0, SEG, 8, 3));  // no segment
        note(urma_read(jfs, t, 0, SEG, 8, 4));        // fine
        note(urma_read(jfs, t, 0, SEG, 8, 5));        // the queue is full
        urma_seg_cfg_t overlap = {SEG + 8, 8, 1, URMA_ACCESS_READ};
        m->got.emplace_back(urma_register_seg(b, &overlap) ? 0 : -1, urma_last_error(b));
        urma_stop(a);
        return 0;
    }
};

TEST(Verbs, PostingMistakesAreRefusedWithAReason)
{
    Paths P;
    Mistakes m;
    urma_workload_t wl = {"mistakes", Mistakes::start, &m};
    run_wl(P.get("ub_async"), wl);
    ASSERT_EQ(m.got.size(), 6u);
    EXPECT_EQ(m.got[0].first, URMA_EINVAL);
    EXPECT_NE(m.got[0].second.find("0 bytes"), std::string::npos);
    EXPECT_EQ(m.got[1].first, URMA_ENOPERM);
    EXPECT_NE(m.got[1].second.find("outside node 0's"), std::string::npos) << m.got[1].second;
    EXPECT_EQ(m.got[2].first, URMA_EINVAL);
    EXPECT_NE(m.got[2].second.find("segment imported"), std::string::npos);
    EXPECT_EQ(m.got[3].first, 0);
    EXPECT_EQ(m.got[4].first, URMA_EAGAIN);
    EXPECT_NE(m.got[4].second.find("holds 1 requests"), std::string::npos) << m.got[4].second;
    EXPECT_EQ(m.got[5].first, -1);
    EXPECT_NE(m.got[5].second.find("overlap"), std::string::npos) << m.got[5].second;
}

// A completion queue nobody polls overflows: the run fails and says so.
struct Overflow {
    static int start(void *, urma_context_t *const *nodes, int)
    {
        urma_context_t *a = nodes[0], *b = nodes[1];
        urma_seg_cfg_t sc = {SEG, 0x1000, TOKEN, URMA_ACCESS_READ};
        urma_seg_t *seg = urma_register_seg(b, &sc);
        urma_seg_info_t info = urma_seg_info(seg);
        urma_target_seg_t *t = urma_import_seg(a, &info, TOKEN);
        urma_jfc_cfg_t qc = {2, nullptr, nullptr};
        urma_jfc_t *jfc = urma_create_jfc(a, &qc);
        urma_jfs_cfg_t jc = {8, jfc, URMA_TM_DEFAULT};
        urma_jfs_t *jfs = urma_create_jfs(a, &jc);
        for (int i = 0; i < 3; i++)
            urma_read(jfs, t, 0, SEG, 8, (uint64_t)i);
        return 0;
    }
};

TEST(Verbs, AnOverflowingCompletionQueueFailsTheRunClearly)
{
    Paths P;
    urma_workload_t wl = {"overflow", Overflow::start, nullptr};
    verbs_run_opts_t o{};
    verbs_run_result_t r;
    char err[512];
    EXPECT_EQ(verbs_run(P.get("ub_async"), &o, &wl, &r, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("JFC of depth 2 overflowed"), std::string::npos) << err;
}

TEST(VerbsExample, TheExampleProgramRunsAndItsChecksPass)
{
    std::string exe = std::string(UBSIM_BUILD_DIR) + "/verbs_example", out;
    ASSERT_EQ(testutil::run(exe, &out, true), 0) << out;
    EXPECT_NE(out.find("the read brought back the bytes written"), std::string::npos) << out;
    EXPECT_NE(out.find("all checks passed"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(exe + " pcie_nic --backend lockstep", &out, true), 0) << out;
    EXPECT_NE(out.find("all checks passed"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(exe + " no_such_path", &out, true), 2) << out;
    EXPECT_NE(out.find("no path 'no_such_path'"), std::string::npos) << out;
    // on lossy links its checks fail, unless the transport resends
    EXPECT_EQ(testutil::run(exe + " --fault loss=0.3,seed=2", &out, true), 1) << out;
    EXPECT_NE(out.find("SOME CHECKS FAILED"), std::string::npos) << out;
    ASSERT_EQ(testutil::run(exe + " --fault loss=0.3,seed=2 --transport on", &out, true), 0) << out;
    EXPECT_NE(out.find("all checks passed"), std::string::npos) << out;
    EXPECT_NE(out.find("resent"), std::string::npos) << out;
    EXPECT_EQ(testutil::run(exe + " --transport maybe", &out, true), 2) << out;
    EXPECT_EQ(testutil::run(exe + " ub_load --transport on", &out, true), 2) << out;
    EXPECT_NE(out.find("no send pipeline"), std::string::npos) << out;
}

} // namespace
