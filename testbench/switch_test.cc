// The switch: a packet's way through it store-and-forward and cut-through,
// to the tick; several inputs into one output queue up and leave in order at
// the link rate; a full buffer drops and counts; nothing is lost uncounted;
// skipping idle cycles gives what stepping every cycle gives.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

extern "C" {
#include "chan.h"
#include "kernel.h"
#include "parts.h"
#include "switch.h"
#include "timebase.h"
}

namespace {

struct Src {
    comp_t c;
    chan_t *out;
    std::vector<msg_t> msgs; /* sorted by t */
    size_t next = 0;
};

tick_t src_commit(comp_t *c, tick_t now)
{
    Src *s = reinterpret_cast<Src *>(c);
    while (s->next < s->msgs.size() && s->msgs[s->next].t <= now) {
        msg_t m = s->msgs[s->next++];
        m.t = now;
        EXPECT_EQ(chan_push(s->out, &m, now), 0);
    }
    return s->next < s->msgs.size() ? s->msgs[s->next].t : TICK_NEVER;
}
const comp_ops_t kSrcOps = {nullptr, src_commit, nullptr, nullptr};

struct Sink {
    comp_t c;
    chan_t *in;
    std::vector<std::pair<uint32_t, tick_t>> got;
    size_t stop_after = 0; /* stepping every cycle never runs dry */
};

tick_t sink_commit(comp_t *c, tick_t now)
{
    Sink *s = reinterpret_cast<Sink *>(c);
    while (chan_peek(s->in, now)) {
        msg_t m = chan_pop(s->in, now);
        s->got.push_back({m.id, now});
        if (s->stop_after && s->got.size() == s->stop_after)
            kernel_stop(c->k);
    }
    return chan_next_time(s->in, now);
}
const comp_ops_t kSinkOps = {nullptr, sink_commit, nullptr, nullptr};

// n_in sources, each through a link into port i; every output port j
// through a link to sink j. Packets are `bytes` long on 50 GB/s links with
// 100 ns of propagation; the switch runs at 400 MHz.
struct Net {
    kernel_t k;
    clockdom_t clk;
    switch_comp_t sw;
    int n;
    tick_t ser, prop;
    double ser_per_byte;
    std::vector<std::unique_ptr<Src>> src;
    std::vector<std::unique_ptr<Sink>> sink;
    std::vector<std::unique_ptr<wire_comp_t>> win, wout;
    std::vector<std::unique_ptr<chan_t>> ch;

    chan_t *chan(const char *name, int64_t depth)
    {
        ch.emplace_back(new chan_t);
        chan_init(ch.back().get(), name, depth, 0);
        return ch.back().get();
    }

    Net(int ports, int64_t buffer, int fwd, int cut, int64_t bytes, int step_all = 0)
        : n(ports)
    {
        kernel_init(&k);
        int64_t other[] = {400};
        EXPECT_EQ(tb_init(&k.tb, 322, other, 1), 0);
        k.step_all = step_all;
        clock_init(&clk, "switch", &k.tb, 400, 0);
        ser_per_byte = 1000.0 / 50.0 * (double)k.tb.per_ps; /* 1 B at 50 GB/s: 20 ps */
        ser = (tick_t)llround(ser_per_byte * (double)bytes);
        prop = tb_from_ps(&k.tb, 100000);
        switch_cfg_t cfg{};
        cfg.n_ports = ports;
        cfg.buffer_bytes = buffer;
        cfg.fwd_cycles = fwd;
        cfg.cut_through = cut;
        cfg.header_bytes = 40;
        char err[256];
        EXPECT_EQ(switch_init(&sw, "sw", &clk, &cfg, err, sizeof err), 0) << err;
        for (int p = 0; p < ports; p++) {
            src.emplace_back(new Src{});
            sink.emplace_back(new Sink{});
            win.emplace_back(new wire_comp_t());
            wout.emplace_back(new wire_comp_t());
            chan_t *a = chan("a", 1 << 20), *b = chan("b", 1 << 20);
            chan_t *c = chan("c", 1), *d = chan("d", 1 << 20);
            src[p]->c.ops = &kSrcOps;
            src[p]->out = a;
            a->src = &src[p]->c;
            wire_init(win[p].get(), "in", a, b, nullptr, ser, prop, CHAN_NO_PROBE, CHAN_NO_PROBE,
                      1 << 20);
            wire_init(wout[p].get(), "out", c, d, nullptr, ser, prop, CHAN_NO_PROBE, CHAN_NO_PROBE,
                      1 << 20);
            EXPECT_EQ(switch_connect(&sw, p, b, win[p].get(), ser_per_byte, c, wout[p].get()), 0);
            sink[p]->c.ops = &kSinkOps;
            sink[p]->in = d;
            d->dst = &sink[p]->c;
        }
    }
    void run()
    {
        for (auto &s : src)
            kernel_add(&k, &s->c, s->msgs.empty() ? TICK_NEVER : s->msgs[0].t);
        for (auto &w : win)
            kernel_add(&k, &w->c, TICK_NEVER);
        kernel_add(&k, &sw.c, TICK_NEVER);
        for (auto &w : wout)
            kernel_add(&k, &w->c, TICK_NEVER);
        for (auto &s : sink)
            kernel_add(&k, &s->c, TICK_NEVER);
        ASSERT_EQ(kernel_run(&k), 0) << k.err;
    }
    ~Net()
    {
        switch_free(&sw);
        for (auto &w : win)
            wire_free(w.get());
        for (auto &w : wout)
            wire_free(w.get());
        for (auto &c : ch)
            chan_free(c.get());
        kernel_free(&k);
    }
    static msg_t pkt(uint32_t id, tick_t t, int dst, uint32_t bytes)
    {
        msg_t m{};
        m.id = id;
        m.t = t;
        m.dst = (uint16_t)dst;
        m.bytes = bytes;
        m.kind = MSG_PACKET;
        return m;
    }
};

TEST(Switch, OnePacketStoreAndForwardAndCutThroughToTheTick)
{
    for (int cut : {0, 1}) {
        for (int fwd : {0, 3}) {
            Net net(2, 1 << 20, fwd, cut, 1024);
            switch_route(&net.sw, 7, 1);
            tick_t t0 = tb_from_ps(&net.k.tb, 1234);
            net.src[0]->msgs.push_back(Net::pkt(5, t0, 7, 1024));
            net.run();
            ASSERT_EQ(net.sink[1]->got.size(), 1u);
            tick_t hdr = cut ? (tick_t)llround(net.ser_per_byte * 40) : net.ser;
            tick_t seen = t0 + hdr + net.prop; /* all of it, or its header */
            tick_t taken = clock_edge_at_or_after(&net.clk, seen);
            tick_t want = taken + (tick_t)(fwd + 1) * net.clk.period + net.ser + net.prop;
            EXPECT_EQ(net.sink[1]->got[0].second, want) << "cut " << cut << " fwd " << fwd;
            EXPECT_EQ(net.sw.received, 1u);
            EXPECT_EQ(net.sw.port[1].forwarded, 1u);
            EXPECT_EQ(net.sw.port[1].peak, 1024);
            EXPECT_EQ(net.sw.port[1].bytes, 0);
        }
    }
}

// Two senders of back-to-back packets into one output: it is busy all the
// time, they leave in the order they arrived, and the queue grows.
TEST(Switch, IncastQueuesAndLeavesAtTheLinkRate)
{
    const int k = 200;
    Net net(3, 1 << 30, 2, 0, 512);
    switch_route(&net.sw, 9, 2);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < k; i++)
            net.src[s]->msgs.push_back(Net::pkt((uint32_t)(s * 1000 + i), i * net.ser, 9, 512));
    net.run();
    const auto &got = net.sink[2]->got;
    ASSERT_EQ(got.size(), (size_t)(2 * k));
    for (size_t i = 1; i < got.size(); i++) {
        /* the output link is never idle once it started */
        EXPECT_GE(got[i].second - got[i - 1].second, net.ser);
        EXPECT_LE(got[i].second - got[i - 1].second, net.ser + net.clk.period);
    }
    /* each sender's packets in their order */
    int last[2] = {-1, -1};
    for (auto &g : got) {
        int s = (int)g.first / 1000, i = (int)g.first % 1000;
        EXPECT_GT(i, last[s]);
        last[s] = i;
    }
    EXPECT_EQ(net.sw.port[2].forwarded, (uint64_t)(2 * k));
    EXPECT_GT(net.sw.port[2].peak, 512 * (k / 2)); /* half of it waits */
    EXPECT_EQ(net.sw.port[2].dropped, 0u);
}

TEST(Switch, AFullBufferDropsAndCountsAndNothingIsLostUncounted)
{
    const int k = 100;
    Net net(3, 4 * 512, 0, 0, 512);
    switch_route(&net.sw, 9, 2);
    switch_route(&net.sw, 4, 0);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < k; i++)
            net.src[s]->msgs.push_back(Net::pkt((uint32_t)(s * 1000 + i), i * net.ser, 9, 512));
    net.src[1]->msgs.push_back(Net::pkt(77, k * net.ser, 55, 512)); /* no route */
    net.src[0]->msgs.push_back(Net::pkt(78, k * net.ser, 4, 512));  /* back out of port 0 */
    net.run();
    const switch_port_t &o = net.sw.port[2];
    EXPECT_GT(o.dropped, 0u);
    EXPECT_LE(o.peak, 4 * 512);
    EXPECT_EQ(o.forwarded, net.sink[2]->got.size());
    EXPECT_EQ(net.sw.unroutable, 1u);
    EXPECT_EQ(net.sink[0]->got.size(), 1u);
    uint64_t fwd = 0, drop = 0;
    for (int p = 0; p < 3; p++) {
        fwd += net.sw.port[p].forwarded;
        drop += net.sw.port[p].dropped;
        EXPECT_EQ(net.sw.port[p].bytes, 0) << "queue " << p << " drained";
    }
    EXPECT_EQ(net.sw.received, fwd + drop + net.sw.unroutable);
    EXPECT_EQ(net.sw.received, (uint64_t)(2 * k + 2));
}

// A packet that exactly fills what is left of an output's buffer is queued:
// one packet the buffer's size goes through, and under incast the queue
// fills to the last byte before anything is dropped.
TEST(Switch, APacketThatExactlyFillsTheBufferIsQueued)
{
    {
        Net net(2, 1024, 0, 0, 1024);
        switch_route(&net.sw, 7, 1);
        net.src[0]->msgs.push_back(Net::pkt(1, 0, 7, 1024));
        net.run();
        EXPECT_EQ(net.sink[1]->got.size(), 1u);
        EXPECT_EQ(net.sw.port[1].dropped, 0u);
        EXPECT_EQ(net.sw.port[1].forwarded, 1u);
        EXPECT_EQ(net.sw.port[1].peak, 1024);
    }
    {
        Net net(2, 1023, 0, 0, 1024); /* a byte short: dropped */
        switch_route(&net.sw, 7, 1);
        net.src[0]->msgs.push_back(Net::pkt(1, 0, 7, 1024));
        net.run();
        EXPECT_EQ(net.sink[1]->got.size(), 0u);
        EXPECT_EQ(net.sw.port[1].dropped, 1u);
        EXPECT_EQ(net.sw.port[1].peak, 0);
    }
    // two senders into one output of four packets' room
    const int k = 100;
    Net net(3, 4 * 512, 0, 0, 512);
    switch_route(&net.sw, 9, 2);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < k; i++)
            net.src[s]->msgs.push_back(Net::pkt((uint32_t)(s * 1000 + i), i * net.ser, 9, 512));
    net.run();
    const switch_port_t &o = net.sw.port[2];
    EXPECT_EQ(o.peak, 4 * 512);
    // the output link takes a packet every 12.5 ns (10.24 ns of 512 B at
    // 50 GB/s, to the switch's next edge) while two arrive every 10.24 ns
    EXPECT_EQ(o.forwarded, 85u);
    EXPECT_EQ(o.dropped, 115u);
    EXPECT_EQ(net.sink[2]->got.size(), 85u);
    EXPECT_EQ(o.bytes, 0);
}

TEST(Switch, SkippingIdleCyclesEqualsSteppingEveryCycle)
{
  for (int cut = 0; cut < 2; cut++) {
    std::vector<std::pair<uint32_t, tick_t>> got[2];
    for (int step_all = 0; step_all < 2; step_all++) {
        Net net(3, 8 * 512, cut, cut, 512, step_all);
        switch_route(&net.sw, 9, 2);
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < 50; i++)
                net.src[s]->msgs.push_back(
                    Net::pkt((uint32_t)(s * 1000 + i), (tick_t)(i * 3 + s) * net.ser / 2, 9, 512));
        net.sink[2]->stop_after = step_all ? got[0].size() : 0; /* what skipping delivered */
        net.run();
        got[step_all] = net.sink[2]->got;
    }
    EXPECT_EQ(got[0], got[1]) << "cut-through " << cut;
    EXPECT_FALSE(got[0].empty());
  }
}

// Four senders to two destinations: both outputs busy at once, each in order.
TEST(Switch, TwoOutputsBusyAtOnceKeepTheirOwnOrder)
{
    Net net(4, 1 << 20, 1, 0, 256);
    switch_route(&net.sw, 1, 2);
    switch_route(&net.sw, 2, 3);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 100; i++) {
            net.src[s]->msgs.push_back(Net::pkt((uint32_t)(s * 1000 + i), i * net.ser, 1 + s, 256));
        }
    net.run();
    for (int p = 2; p < 4; p++) {
        const auto &got = net.sink[p]->got;
        ASSERT_EQ(got.size(), 100u) << p;
        for (size_t i = 1; i < got.size(); i++) {
            EXPECT_GT(got[i].first, got[i - 1].first);
            EXPECT_GE(got[i].second - got[i - 1].second, net.ser);
        }
    }
}

TEST(Switch, RoutesToMissingPortsAreRefusedAndToUnlinkedPortsCounted)
{
    Net net(3, 1 << 20, 0, 0, 256);
    EXPECT_EQ(switch_route(&net.sw, 1, 3), -1) << "the switch has ports 0..2";
    EXPECT_EQ(switch_route(&net.sw, 1, -1), -1);
    EXPECT_EQ(switch_route(&net.sw, SW_MAX_NODES, 0), -1);
    EXPECT_EQ(switch_connect(&net.sw, 3, nullptr, nullptr, 0, nullptr, nullptr), -1);
    // port 2 loses its link: packets routed there are counted, not stuck
    net.sw.port[2].out = nullptr;
    ASSERT_EQ(switch_route(&net.sw, 9, 2), 0);
    net.src[0]->msgs.push_back(Net::pkt(1, 0, 9, 256));
    net.src[0]->msgs.push_back(Net::pkt(2, net.ser, 9, 0)); /* size unknown */
    net.run();
    EXPECT_EQ(net.sw.unroutable, 2u);
    EXPECT_EQ(net.sw.received, 2u);
}

TEST(Switch, BadConfigurationsSayWhy)
{
    switch_cfg_t c{};
    char err[256];
    c.n_ports = 1;
    c.buffer_bytes = 100;
    EXPECT_EQ(switch_cfg_check(&c, err, sizeof err), -1);
    c.n_ports = 4;
    c.buffer_bytes = 0;
    EXPECT_EQ(switch_cfg_check(&c, err, sizeof err), -1);
    c.buffer_bytes = ((int64_t)1 << 40) + 1;
    EXPECT_EQ(switch_cfg_check(&c, err, sizeof err), -1);
    c.buffer_bytes = 100;
    c.cut_through = 1;
    EXPECT_EQ(switch_cfg_check(&c, err, sizeof err), -1);
    c.header_bytes = 40;
    EXPECT_EQ(switch_cfg_check(&c, err, sizeof err), 0);
}

}  // namespace
