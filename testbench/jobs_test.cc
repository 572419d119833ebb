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
    std::atomic<int> running{0}, most{0};
    std::atomic<uint64_t> in_use{0}, most_bytes_beside{0};
    explicit Record(int n) : runs(n) {}
};

void item(void *ctx, int i)
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
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    r->in_use -= b;
    r->running--;
}

}

TEST(Jobs, EveryItemRunsOnceOnAsManyThreadsAsAsked)
{
    for (int threads : {1, 2, 3, 8}) {
        Record r(25);
        jobs_run(threads, 25, item, &r);
        for (int i = 0; i < 25; i++)
            EXPECT_EQ(r.runs[i], 1) << threads << " threads, item " << i;
        EXPECT_LE(r.most, threads);
        if (threads > 1) {
            EXPECT_GT(r.most, 1) << threads; /* (each item sleeps: they overlap) */
        }
    }
    Record none(0);
    jobs_run(4, 0, item, &none); /* nothing to run */
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
