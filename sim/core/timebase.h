/* The simulator's time base.
 *
 * Time is an integer count of ticks. One tick is 1/f ps, where f is the NIC
 * clock in MHz, so one NIC cycle is exactly 1,000,000 ticks and one
 * picosecond is exactly f ticks: both clock edges and every delay given in
 * whole picoseconds land on integer ticks, and nothing is ever rounded. At
 * 322 MHz an int64 holds about 28,000 s (nearly 8 hours) of simulated time. */
#ifndef UB_TIMEBASE_H
#define UB_TIMEBASE_H

#include <stdint.h>

typedef int64_t tick_t;

#define TICKS_PER_CYCLE ((tick_t)1000000)

typedef struct {
    int64_t mhz;           /* NIC clock, MHz (ticks per ps) */
} timebase_t;

static inline tick_t tb_from_ps(const timebase_t *tb, int64_t ps) { return ps * tb->mhz; }
static inline double tb_to_ns(const timebase_t *tb, tick_t t) { return (double)t / ((double)tb->mhz * 1000.0); }
static inline double tb_to_ps(const timebase_t *tb, tick_t t) { return (double)t / (double)tb->mhz; }
static inline double tb_period_ns(const timebase_t *tb) { return 1000.0 / (double)tb->mhz; }
/* The first clock edge at or after t (edges at k * TICKS_PER_CYCLE). */
static inline int64_t tb_edge_at_or_after(tick_t t) {
    return t <= 0 ? 0 : (t + TICKS_PER_CYCLE - 1) / TICKS_PER_CYCLE;
}
static inline tick_t tb_edge_time(int64_t k) { return k * TICKS_PER_CYCLE; }

#endif
