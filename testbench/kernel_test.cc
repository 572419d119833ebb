// The simulation kernel on its own: components, channels, clock domains,
// idle skipping with a running timer, and the exact histogram.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

extern "C" {
#include "chan.h"
#include "hist.h"
#include "kernel.h"
#include "timebase.h"
}

namespace {

// ---- a source that pushes a message at each of a list of times ----------

struct Source {
    comp_t c;
    chan_t *out;
    std::vector<tick_t> at;
    size_t next = 0;
};

tick_t source_commit(comp_t *c, tick_t now)
{
    Source *s = reinterpret_cast<Source *>(c);
    while (s->next < s->at.size() && s->at[s->next] <= now) {
        msg_t m{};
        m.t = now;
        m.id = static_cast<uint32_t>(s->next++);
        EXPECT_EQ(chan_push(s->out, &m, now), 0);
    }
    return s->next < s->at.size() ? s->at[s->next] : TICK_NEVER;
}
const comp_ops_t kSourceOps = {nullptr, source_commit, nullptr, nullptr};

// ---- a sink that records when each message was taken --------------------

struct Sink {
    comp_t c;
    chan_t *in;
    std::vector<std::pair<uint32_t, tick_t>> got;
    size_t stop_after = 0;
};

tick_t sink_commit(comp_t *c, tick_t now)
{
    Sink *s = reinterpret_cast<Sink *>(c);
    while (chan_peek(s->in, now)) {
        msg_t m = chan_pop(s->in, now);
        s->got.push_back({m.id, now});
        if (s->stop_after && s->got.size() == s->stop_after)
            kernel_stop(c->k);  // stepping every cycle never runs dry
    }
    return chan_next_time(s->in, now);
}
const comp_ops_t kSinkOps = {nullptr, sink_commit, nullptr, nullptr};

// ---- a clocked block with a timer: each request is held `hold` cycles ----
// While its timer runs it is due only at the deadline (its next_wake) when
// idle cycles are skipped; stepped every cycle it counts down edge by edge.

struct Timer {
    comp_t c;
    chan_t *in, *out;
    int hold;
    int busy = 0;
    int left = 0;
    msg_t cur{};
    int take = 0;
};

void timer_eval(comp_t *c, tick_t now)
{
    Timer *t = reinterpret_cast<Timer *>(c);
    t->take = !t->busy && chan_peek(t->in, now) != nullptr;
    if (t->take)
        t->cur = chan_pop(t->in, now);
}

tick_t timer_commit(comp_t *c, tick_t now)
{
    Timer *t = reinterpret_cast<Timer *>(c);
    tick_t period = c->clk->period;
    if (t->busy) {
        // the edges skipped since the last one count too
        int64_t edges = (now - t->cur.t) / period;
        if (edges >= t->left) {
            msg_t m = t->cur;
            m.t = now + period;
            EXPECT_EQ(chan_push(t->out, &m, now), 0);
            t->busy = 0;
        }
    }
    if (t->take) {
        t->busy = 1;
        t->left = t->hold;
        t->cur.t = now;  // start of the countdown
        t->take = 0;
    }
    if (t->busy)
        return t->cur.t + (tick_t)t->left * period;  // the deadline
    return chan_next_time(t->in, now);
}
const comp_ops_t kTimerOps = {timer_eval, timer_commit, nullptr, nullptr};

struct TimerRun {
    std::vector<std::pair<uint32_t, tick_t>> got;
    uint64_t edges;
};

TimerRun run_timer(int step_all)
{
    kernel_t k;
    kernel_init(&k);
    EXPECT_EQ(tb_init(&k.tb, 322, nullptr, 0), 0);
    k.step_all = step_all;
    clockdom_t clk;
    clock_init(&clk, "nic", &k.tb, 322, 0);
    chan_t a, b;
    chan_init(&a, "a", 100, 0);
    chan_init(&b, "b", 100, 0);
    b.src_clk = &clk;
    Source src;
    src.c = {};
    src.out = &a;
    // arrivals off the clock edges, some while the timer runs
    for (int i = 0; i < 20; i++)
        src.at.push_back(tb_from_ps(&k.tb, 1000 + 123457 * i + (i % 3) * 40000));
    Timer tm;
    tm.c = {};
    tm.in = &a;
    tm.out = &b;
    tm.hold = 500;
    Sink sink;
    sink.c = {};
    sink.in = &b;
    sink.stop_after = 20;
    src.c.ops = &kSourceOps;
    tm.c.ops = &kTimerOps;
    tm.c.clk = &clk;
    sink.c.ops = &kSinkOps;
    a.src = &src.c;
    a.dst = &tm.c;
    b.src = &tm.c;
    b.dst = &sink.c;
    kernel_add(&k, &src.c, 0);
    kernel_add(&k, &tm.c, TICK_NEVER);
    kernel_add(&k, &sink.c, TICK_NEVER);
    EXPECT_EQ(kernel_run(&k), 0) << k.err;
    TimerRun r{sink.got, k.instants};
    chan_free(&a);
    chan_free(&b);
    kernel_free(&k);
    return r;
}

TEST(Kernel, IdleSkippingSeesATimerAndEqualsSteppingEveryCycle)
{
    TimerRun skip = run_timer(0), every = run_timer(1);
    ASSERT_EQ(skip.got.size(), 20u);
    EXPECT_EQ(skip.got, every.got);
    // each request waits for the one before, then 500 cycles of its timer
    for (size_t i = 1; i < skip.got.size(); i++)
        EXPECT_GE(skip.got[i].second - skip.got[i - 1].second, 500 * (tick_t)1000000);
    EXPECT_GT(every.edges, 20u * 500u);
    EXPECT_LT(skip.edges, every.edges / 100) << "skipping should run far fewer edges";
}

// ---- two clock domains --------------------------------------------------------

struct Producer {
    comp_t c;
    chan_t *out;
    int n, sent = 0;
    std::vector<tick_t> at;
};

tick_t producer_commit(comp_t *c, tick_t now)
{
    Producer *p = reinterpret_cast<Producer *>(c);
    if (p->sent < p->n && !chan_full(p->out)) {
        msg_t m{};
        m.t = now + c->clk->period;
        m.id = static_cast<uint32_t>(p->sent++);
        EXPECT_EQ(chan_push(p->out, &m, now), 0);
        p->at.push_back(now);
    }
    return p->sent < p->n ? now + c->clk->period : TICK_NEVER;
}
const comp_ops_t kProducerOps = {nullptr, producer_commit, nullptr, nullptr};

struct Consumer {
    comp_t c;
    chan_t *in;
    std::vector<std::pair<uint32_t, tick_t>> got;
    int take = 0;
    msg_t m{};
};

void consumer_eval(comp_t *c, tick_t now)
{
    Consumer *s = reinterpret_cast<Consumer *>(c);
    s->take = chan_peek(s->in, now) != nullptr;
    if (s->take)
        s->m = chan_pop(s->in, now);
}
tick_t consumer_commit(comp_t *c, tick_t now)
{
    Consumer *s = reinterpret_cast<Consumer *>(c);
    if (s->take)
        s->got.push_back({s->m.id, now});
    return chan_next_time(s->in, now + 1);
}
const comp_ops_t kConsumerOps = {consumer_eval, consumer_commit, nullptr, nullptr};

TEST(Kernel, TwoClockDomainsExchangeMessagesWithoutDrift)
{
    kernel_t k;
    kernel_init(&k);
    int64_t other = 250;
    ASSERT_EQ(tb_init(&k.tb, 322, &other, 1), 0);
    EXPECT_EQ(k.tb.per_ps, 40250);  // lcm(322, 250) ticks per ps
    clockdom_t fast, slow;
    clock_init(&fast, "nic", &k.tb, 322, 0);
    clock_init(&slow, "switch", &k.tb, 250, 0);
    EXPECT_EQ(slow.period, tb_from_ps(&k.tb, 4000));  // exactly 4 ns
    chan_t ch;
    chan_init(&ch, "cdc", 4, 0);  // a 4-entry FIFO between the domains
    const int n = 200000;
    Producer p;
    p.c = {};
    p.c.ops = &kProducerOps;
    p.c.clk = &fast;
    p.out = &ch;
    p.n = n;
    Consumer q;
    q.c = {};
    q.c.ops = &kConsumerOps;
    q.c.clk = &slow;
    q.in = &ch;
    ch.src = &p.c;
    ch.dst = &q.c;
    kernel_add(&k, &p.c, 0);
    kernel_add(&k, &q.c, TICK_NEVER);
    ASSERT_EQ(kernel_run(&k), 0) << k.err;
    ASSERT_EQ(q.got.size(), (size_t)n);
    for (int i = 0; i < n; i++) {
        EXPECT_EQ(q.got[i].first, (uint32_t)i) << "in order, none lost or repeated";
        ASSERT_EQ(q.got[i].second % slow.period, 0) << "taken on a 250 MHz edge";
        ASSERT_EQ(p.at[i] % fast.period, 0) << "sent on a 322 MHz edge";
        ASSERT_GT(q.got[i].second, p.at[i]);
    }
    // the slow side takes one per cycle once the FIFO is full: the last one
    // is taken at an exact multiple of 4 ns, with no rounding accumulated
    tick_t last = q.got.back().second;
    EXPECT_EQ(last % tb_from_ps(&k.tb, 4000), 0);
    int64_t slow_cycles = last / slow.period;
    EXPECT_NEAR((double)slow_cycles, (double)n, 3.0);
    // and 200,000 slow cycles are exactly 800 us
    EXPECT_EQ(tb_from_ps(&k.tb, 800000000) % slow.period, 0);
    chan_free(&ch);
    kernel_free(&k);
}

TEST(Kernel, ChannelsHaveDepthAndLatency)
{
    chan_t c;
    chan_init(&c, "c", 2, 50);
    msg_t m{};
    m.t = 0;
    EXPECT_EQ(chan_push(&c, &m, 100), 0);
    EXPECT_EQ(chan_push(&c, &m, 100), 0);
    EXPECT_TRUE(chan_full(&c));
    EXPECT_EQ(chan_push(&c, &m, 100), -1) << "a full channel refuses";
    EXPECT_EQ(chan_peek(&c, 149), nullptr) << "not visible before its latency";
    ASSERT_NE(chan_peek(&c, 150), nullptr);
    EXPECT_EQ(chan_next_time(&c, 120), 150);
    chan_pop(&c, 150);
    EXPECT_TRUE(chan_taken_at(&c, 150));
    EXPECT_FALSE(chan_full(&c));
    chan_free(&c);
}

TEST(Kernel, TimeBaseIsExactForEveryClock)
{
    timebase_t tb;
    ASSERT_EQ(tb_init(&tb, 322, nullptr, 0), 0);
    EXPECT_EQ(tb.per_ps, 322);
    EXPECT_EQ(tb.cycle, 1000000);
    int64_t others[] = {100, 250, 333, 1000};
    ASSERT_EQ(tb_init(&tb, 322, others, 4), 0);
    for (int64_t f : {322, 100, 250, 333, 1000})
        EXPECT_EQ(1000000 * tb.per_ps % f, 0) << f << " MHz has a whole number of ticks";
    int64_t bad = 0;
    EXPECT_EQ(tb_init(&tb, 322, &bad, 1), -1);
}

TEST(Hist, PercentilesAreExact)
{
    hist_t h;
    hist_init(&h);
    std::vector<tick_t> v;
    uint64_t x = 12345;
    for (int i = 0; i < 100000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        tick_t t = (tick_t)(x >> 40) % 5000;  // many repeats
        v.push_back(t);
        ASSERT_EQ(hist_add(&h, t), 0);
    }
    std::sort(v.begin(), v.end());
    for (int p : {1, 50, 90, 99, 100}) {
        size_t rank = (v.size() * p + 99) / 100;
        EXPECT_EQ(hist_percentile(&h, p), v[rank - 1]) << p;
    }
    EXPECT_EQ(h.min, v.front());
    EXPECT_EQ(h.max, v.back());
    EXPECT_LE(hist_distinct(&h), 5000) << "memory grows with distinct values only";
    hist_free(&h);
}

}  // namespace
