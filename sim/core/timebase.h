/* The simulator's time base: exact integer time for any set of clocks.
 *
 * Time is an integer count of ticks. With clock domains of f1..fn MHz, one
 * picosecond is L ticks, where L is the least common multiple of f1..fn; a
 * period of the fi domain is then 10^6 * L / fi ticks, an integer. Every clock
 * edge and every delay given in whole picoseconds lands on an integer tick,
 * so nothing is rounded and domains never drift apart. With a single 322 MHz
 * NIC clock, L = 322 and a NIC cycle is exactly 1,000,000 ticks; an int64
 * then holds about 28,000 s of simulated time (less with more domains: the
 * range is 2^63 / L ps). */
#ifndef UB_TIMEBASE_H
#define UB_TIMEBASE_H

#include <stdint.h>

typedef int64_t tick_t;

#define TICK_NEVER INT64_MAX

typedef struct {
    int64_t per_ps;   /* ticks per picosecond (L) */
    tick_t cycle;     /* one cycle of the reference (NIC) clock, in ticks */
} timebase_t;

/* A time base for the reference clock ref_mhz and n_other other clocks
 * (MHz). Returns 0, or -1 when a frequency is not positive or L overflows. */
int tb_init(timebase_t *tb, int64_t ref_mhz, const int64_t *other_mhz, int n_other);
/* One period of a clock of mhz MHz on this time base (mhz must divide
 * 10^6 * per_ps, as it does for every clock given to tb_init). */
static inline tick_t tb_period(const timebase_t *tb, int64_t mhz) { return 1000000 * tb->per_ps / mhz; }

static inline tick_t tb_from_ps(const timebase_t *tb, int64_t ps) { return ps * tb->per_ps; }
static inline double tb_to_ns(const timebase_t *tb, tick_t t) { return (double)t / ((double)tb->per_ps * 1000.0); }
static inline double tb_to_ps(const timebase_t *tb, tick_t t) { return (double)t / (double)tb->per_ps; }
static inline double tb_period_ns(const timebase_t *tb) { return tb_to_ns(tb, tb->cycle); }

/* The first edge at or after t of a clock with this period and phase. */
static inline tick_t clk_edge_at_or_after(tick_t t, tick_t period, tick_t phase)
{
    if (t <= phase)
        return phase;
    return phase + (t - phase + period - 1) / period * period;
}

#endif
