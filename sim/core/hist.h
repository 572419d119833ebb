/* An exact streaming histogram of tick values: one counter per distinct
 * value, so memory grows with the number of distinct values, not with the
 * number of samples (a run of a million dependent reads has a handful), and
 * every percentile is exact. */
#ifndef UB_HIST_H
#define UB_HIST_H

#include <stdint.h>

#include "timebase.h"

typedef struct {
    tick_t *key;
    int64_t *cnt;
    int64_t cap, used, total;
    tick_t min, max;
} hist_t;

void hist_init(hist_t *h);
void hist_free(hist_t *h);
/* Returns 0, or -1 when out of memory. */
int hist_add(hist_t *h, tick_t v);
/* The nearest-rank percentile (pct in 1..100) of the values added: 0 when
 * empty (and the maximum if it runs out of memory sorting). */
tick_t hist_percentile(const hist_t *h, int pct);
static inline int64_t hist_distinct(const hist_t *h) { return h->used; }

#endif
