/* A min-heap of timed events. Events at the same time come out in the order
 * they were pushed, so a run is deterministic. */
#ifndef UB_EVENTQ_H
#define UB_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

#include "timebase.h"

typedef struct {
    tick_t time;
    uint64_t seq;
    int kind;
    uint32_t arg;
} event_t;

typedef struct {
    event_t *heap;
    size_t n, cap;
    uint64_t next_seq;
} eventq_t;

void eventq_init(eventq_t *q);
void eventq_free(eventq_t *q);
/* Returns 0, or -1 when out of memory. */
int eventq_push(eventq_t *q, tick_t time, int kind, uint32_t arg);
static inline int eventq_empty(const eventq_t *q) { return q->n == 0; }
static inline tick_t eventq_next_time(const eventq_t *q) { return q->heap[0].time; }
event_t eventq_pop(eventq_t *q);

#endif
