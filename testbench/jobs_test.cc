// Simulations side by side (sim/core/jobs.h): every item runs once, on as
// many threads as asked, and items that need much memory do not run beside
// others beyond the budget.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

extern "C" {
#include "jobs.h"
}

namespace {

struct Record {
    std::vector<std::atomic<int>> runs;
    const uint64_t *bytes = nullptr;
    std::vector<int> fail; /* the items that fail (at once) */
    int ms = 2;            /* how long the others take */
    std::atomic<int> running{0}, most{0};
    std::atomic<uint64_t> in_use{0}, most_bytes_beside{0};
    explicit Record(int n) : runs(n) {}
};

int item(void *ctx, int i)
{
    Record *r = static_cast<Record *>(ctx);
    r->runs[i]++;
    int now = ++r->running;
    int m = r->most;
    while (now > m && !r->most.compare_exchange_weak(m, now)) {
    }
    uint64_t b = r->bytes ? r->bytes[i] : 0;
    uint64_t use = (r->in_use += b);
    if (now > 1) { /* (beside another) */
        uint64_t mb = r->most_bytes_beside;
        while (use > mb && !r->most_bytes_beside.compare_exchange_weak(mb, use)) {
        }
    }
    bool fails = false;
    for (int f : r->fail)
        fails |= f == i;
    if (!fails)
        std::this_thread::sleep_for(std::chrono::milliseconds(r->ms));
    r->in_use -= b;
    r->running--;
    return fails;
}

}

TEST(Jobs, EveryItemRunsOnceOnAsManyThreadsAsAsked)
{
    for (int threads : {1, 2, 3, 8}) {
        Record r(25);
        EXPECT_EQ(jobs_run(threads, 25, item, &r), -1);
        for (int i = 0; i < 25; i++)
            EXPECT_EQ(r.runs[i], 1) << threads << " threads, item " << i;
        EXPECT_LE(r.most, threads);
        if (threads > 1) {
            EXPECT_GT(r.most, 1) << threads; /* (each item sleeps: they overlap) */
        }
    }
    Record none(0);
    EXPECT_EQ(jobs_run(4, 0, item, &none), -1); /* nothing to run */
}

// As one after the other: every item up to the first that fails runs, and
// none after it starts once it has failed; the first failed one is named.
TEST(Jobs, NothingAfterTheFirstFailureStartsOnceItFailed)
{
    for (int threads : {1, 2, 4}) {
        Record r(40);
        r.fail = {30, 12};
        r.ms = 20;
        EXPECT_EQ(jobs_run(threads, 40, item, &r), 12) << threads;
        for (int i = 0; i <= 12; i++)
            EXPECT_EQ(r.runs[i], 1) << threads << " threads, item " << i;
        int after = 0;
        for (int i = 13; i < 40; i++)
            after += r.runs[i];
        /* (only those already started when item 12 failed at once: the
         * others were still in their 20 ms) */
        EXPECT_LT(after, threads) << threads;
    }
}

TEST(Jobs, ItemsBesideEachOtherStayWithinTheirMemoryBudget)
{
    /* small items run side by side; one larger than the budget runs alone */
    const uint64_t bytes[] = {10, 10, 10, 500, 10, 10, 60, 50, 10, 10};
    const int n = sizeof bytes / sizeof bytes[0];
    Record r(n);
    r.bytes = bytes;
    jobs_run_within(4, n, bytes, 100, item, &r);
    for (int i = 0; i < n; i++)
        EXPECT_EQ(r.runs[i], 1) << i;
    EXPECT_LE(r.most_bytes_beside.load(), 100u);
    EXPECT_GT(r.most, 1);
    EXPECT_GE(jobs_default(), 1);
}
