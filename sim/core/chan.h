/* Channels: the only way a component reaches another.
 *
 * A channel connects one output port of a producer to one input port of a
 * consumer. It is a FIFO of messages with a depth (how many it holds; the
 * producer may push only while there is room, which is its back-pressure) and
 * a latency (ticks from a push until the consumer may see the message). A
 * message pushed at time t with latency L is visible from t + L; the
 * consumer sees only the head, and only once it is visible (valid), and
 * takes it by popping (ready). Storage grows on demand up to the depth, so
 * a deep channel costs memory only for what it holds. Messages pushed
 * together that differ only in consecutive request ids and numbers (a burst
 * of posts) share one entry, so a burst of millions costs a few bytes; a
 * pop hands them out one at a time, so no consumer sees the difference. The
 * ring shrinks again as it drains.
 *
 * Two-phase rule (see kernel.h): a component pops from its input channels
 * while it evaluates an instant and pushes onto its output channels when it
 * commits. A clocked producer's message is therefore visible no earlier than
 * its next edge; an event-timed producer's push at t with no latency is seen
 * by a clocked consumer whose edge is at t (it settles before the edge).
 *
 * A producer that holds an item in an output register can offer it through a
 * channel of depth 1: it pushes the item when the register fills, and learns
 * at its next commit whether the consumer took it (chan_taken_at). */
#ifndef UB_CHAN_H
#define UB_CHAN_H

#include <stdint.h>

#include "msg.h"
#include "timebase.h"

struct comp;
struct clockdom;

#define CHAN_NO_PROBE (-1000)

typedef struct chan {
    char name[64];
    struct comp *src, *dst;
    int64_t depth;       /* capacity in messages */
    tick_t latency;      /* ticks from push to visibility */
    msg_t *buf;          /* ring of entries (cap grows on demand) */
    int64_t cap, head, nent;
    int64_t count;       /* messages held (an entry may stand for several) */
    const struct clockdom *src_clk; /* a clocked producer's offers are taken
                            only at its edges (NULL: at any time) */
    tick_t last_pop;     /* time of the last pop (-1: none) */
    tick_t ready_at;     /* the consumer's ready, as it publishes it: it takes
                            a message offered at or after this time (a wire
                            is not ready while its link is busy) */
    int sorted;          /* messages are held in the order they become
                            visible (a link that reorders), not in the order
                            they were pushed; equal times keep push order */
    int always_ready;    /* the consumer takes every message the moment it
                            is offered (a fixed delay) */
    int pop_point;       /* probe recorded when a message is taken, or
                            CHAN_NO_PROBE: a handshake is seen by both sides
                            at once, and the probe is of the moment of it */
    int pop_at_first;    /* the probe is a multi-packet message's first
                            packet's (a NIC's output), else its last's */
    uint64_t pushed, popped;
    /* optional: told of every push (a consumer's waveform shows a request
     * waiting at its input from the moment it arrives) */
    void (*on_push)(void *ctx, const msg_t *m, tick_t now);
    void *on_push_ctx;
} chan_t;

int chan_init(chan_t *c, const char *name, int64_t depth, tick_t latency);
void chan_free(chan_t *c);

static inline int chan_full(const chan_t *c) { return c->count >= c->depth; }
int chan_on_edge_(const chan_t *c, tick_t now);
tick_t chan_next_time_(const chan_t *c, tick_t now);

/* The head, if there is one and it can be taken at `now` (it is visible,
 * and `now` is an edge of a clocked producer); else NULL. */
static inline const msg_t *chan_peek(const chan_t *c, tick_t now)
{
    if (c->nent == 0 || c->buf[c->head].t > now)
        return 0;
    /* an offer is seen first at an edge of its producer */
    if (c->src_clk && c->buf[c->head].t != now && !chan_on_edge_(c, now))
        return 0;
    return &c->buf[c->head];
}
/* The head whatever its time (for a part running ahead), or NULL. */
static inline const msg_t *chan_first(const chan_t *c) { return c->nent ? &c->buf[c->head] : 0; }
/* The first time at or after `now` at which the head can be taken, or
 * TICK_NEVER when empty. */
static inline tick_t chan_next_time(const chan_t *c, tick_t now)
{
    if (c->nent == 0)
        return TICK_NEVER;
    if (c->src_clk)
        return chan_next_time_(c, now);
    return c->buf[c->head].t > now ? c->buf[c->head].t : now;
}
/* Pushes m, sent at max(m->t, now): it is visible from then plus the
 * latency, and wakes the consumer for that time (or at once, for a consumer
 * running ahead of an event-timed producer). Returns 0, or -1 when full or out of memory (a
 * producer that checked chan_full never sees -1 for a full channel). */
int chan_push(chan_t *c, const msg_t *m, tick_t now);
/* Takes the head (it must be visible) and records the time. */
msg_t chan_pop(chan_t *c, tick_t now);
/* 1 when the consumer popped a message at exactly `now`. */
static inline int chan_taken_at(const chan_t *c, tick_t now) { return c->last_pop == now; }

#endif
