/* The simulation kernel: components, clock domains and the loop that runs
 * them.
 *
 * A component is a part with state, input and output channels, and either a
 * clock (a clock domain: period and phase in ticks) or none (event-timed: it
 * acts at exact times, like a fixed delay or a wire). It is run in two
 * phases at each instant it is due:
 *
 *   eval(now)    decide from the values as they were before this instant:
 *                its own registers and the visible heads of its input
 *                channels (it may pop them);
 *   commit(now)  update its registers, push onto its output channels, emit
 *                probe records; return the next time it can act without new
 *                input (its next_wake): the next edge while it is busy, a
 *                deadline while a timer runs, TICK_NEVER when quiescent.
 *
 * A push wakes the consumer at the time the message becomes visible (at the
 * consumer's first edge at or after it, for a clocked consumer), so a
 * component that sleeps misses nothing. The kernel jumps from one due time to
 * the next: idle stretches cost nothing, and timers are seen because they
 * are wake-up times.
 *
 * At one instant, event-timed components run first, one at a time in the
 * order they were scheduled (a zero-delay chain settles at once); then every
 * clocked component due at that instant evaluates, and then every one of
 * them commits. Outputs of clocked components are registers, so their pushes
 * are visible at their next edge at the earliest, and the order in which
 * clocked components are visited never matters.
 *
 * A component that is the only one due before some later time (the kernel's
 * horizon) may run all its own edges up to that time in one call (`run`): it
 * cannot interact with anyone before then. A pipeline with nothing entering
 * or leaving is advanced in one jump this way, or stepped edge by edge inside
 * its own loop (blocks that cannot jump, such as the Verilated RTL), without
 * any per-edge kernel work. */
#ifndef UB_KERNEL_H
#define UB_KERNEL_H

#include <stdint.h>

#include "chan.h"
#include "payload.h"
#include "timebase.h"

typedef struct clockdom {
    char name[32];
    int64_t mhz;
    tick_t period;   /* ticks */
    tick_t phase;    /* the first edge */
} clockdom_t;

/* A clock of mhz MHz on time base tb, first edge at `phase`. */
void clock_init(clockdom_t *k, const char *name, const timebase_t *tb, int64_t mhz, tick_t phase);

/* The first edge of clock k at or after t. */
static inline tick_t clock_edge_at_or_after(const clockdom_t *k, tick_t t)
{
    return clk_edge_at_or_after(t, k->period, k->phase);
}

typedef struct comp comp_t;
typedef struct kernel kernel_t;

typedef struct {
    void (*eval)(comp_t *c, tick_t now);
    tick_t (*commit)(comp_t *c, tick_t now);
    /* optional: run every own edge from `now` (due) up to but excluding
     * `horizon`, stopping early after an edge that pushed a message or after
     * which the component is not due at the next edge; returns next_wake.
     * *edges is incremented per edge run. */
    tick_t (*run)(comp_t *c, tick_t now, tick_t horizon, uint64_t *edges);
    void (*destroy)(comp_t *c);
} comp_ops_t;

struct comp {
    char name[64];
    const comp_ops_t *ops;
    const clockdom_t *clk;   /* NULL: event-timed */
    kernel_t *k;
    tick_t wake;             /* when it is due next (TICK_NEVER: not scheduled) */
    uint64_t seq;            /* scheduling order among equal times */
    int64_t heap_at;         /* its position in the kernel's heap, or -1 */
    int in_due;              /* it is in this instant's due list */
    int ahead;               /* event-timed, and may hand a message on at once
                                with the time it is due (its probes then carry
                                future times); it is woken by a push into an
                                input from an event-timed producer at once */
    int in_ready;            /* it is in the kernel's list of due-now parts */
    tick_t next;             /* what its last commit asked for */
    int64_t list_at;         /* its place in its clock's next-edge list, or -1 */
    struct edge_list *list;  /* the list, when this is a clock's list */
};

/* Clocked components due at the very next edge of their clock (a busy
 * pipeline, every edge) wait in their clock's list, and only the list sits
 * in the heap: one heap entry per clock and edge instead of one per
 * component. */
typedef struct edge_list {
    comp_t c;                /* the list's place in the heap */
    comp_t **v;
    int64_t n, cap;
} edge_list_t;

#define KERNEL_MAX_CLOCKS 8

/* Probe records: (point, request id, time). Components emit them; reports,
 * histograms and waveforms are computed from them by sinks. */
typedef void (*probe_fn)(void *ctx, int point, uint32_t id, tick_t t);

/* A heap entry holds its keys, so ordering never touches the components. */
typedef struct {
    tick_t wake;
    uint64_t key;            /* clocked after event-timed, then scheduling order */
    comp_t *c;
} heap_ent_t;

struct kernel {
    timebase_t tb;
    heap_ent_t *heap;
    int64_t n, cap;
    uint64_t next_seq;
    edge_list_t lists[KERNEL_MAX_CLOCKS];
    int n_lists;
    comp_t **ready;          /* event-timed parts woken for the current instant */
    int64_t r_head, r_n, r_cap;
    comp_t **due;            /* clocked components of the current instant */
    int64_t n_due, cap_due;
    tick_t now;
    int in_clocked_phase;
    int stop;                /* set by a component: the run ends after this instant */
    int step_all;            /* clocked components are due at every edge */
    uint64_t clocked_edges;  /* component-edges run (a cost figure) */
    uint64_t instants;       /* clock edges run (an edge a component ran
                                inside `run` counts as one) */
    payload_pool_t *payloads; /* the bytes messages carry, or NULL */
    probe_fn probe;          /* may be NULL */
    void *probe_ctx;
    int failed;
    char err[512];
    /* Run by a driver in several parts (kernel_run_until), beside other
     * kernels: no component runs its own edges (`run`) up to or past this
     * time, before which nothing from outside can arrive (TICK_NEVER: alone) */
    tick_t ext_horizon;
    /* told when a component of this kernel is woken from outside its runs
     * (by another node's kernel, or a caller between runs), or NULL */
    void (*on_wake)(void *ctx);
    void *on_wake_ctx;
    int running;             /* inside kernel_run_until */
    tick_t clocked_at;       /* the last instant whose clocked parts ran (-1) */
};

void kernel_init(kernel_t *k);
void kernel_free(kernel_t *k);
/* Adds c (its name, ops and clock set) and schedules it at `wake`. */
int kernel_add(kernel_t *k, comp_t *c, tick_t wake);
/* Schedules c at t (or earlier, if it is due earlier already). For a
 * clocked component t is moved to its first edge at or after t, and never
 * to an instant it has already run. */
void kernel_wake(comp_t *c, tick_t t);
/* Runs until no component is due, until a component calls kernel_stop, or
 * until a failure; returns 0 or -1 (k->err says why). */
int kernel_run(kernel_t *k);
/* Runs every instant at or before `until` (a component may run its own
 * edges further, up to the earlier of the next instant due and
 * ext_horizon); returns as kernel_run. */
int kernel_run_until(kernel_t *k, tick_t until);
/* When the kernel is due next (TICK_NEVER: nothing due, or stopped, or
 * failed). */
tick_t kernel_next_time(const kernel_t *k);
static inline void kernel_stop(kernel_t *k) { k->stop = 1; }
void kernel_fail(kernel_t *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A message is gone (lost on a link, refused by a receiver, done with):
 * its bytes are given back. */
static inline void kernel_drop(kernel_t *k, const msg_t *m)
{
    if (m->data && k->payloads)
        payload_release(k->payloads, m->data);
}
/* A message is duplicated: the copy shares its bytes. */
static inline void kernel_copy(kernel_t *k, const msg_t *m)
{
    if (m->data && k->payloads)
        payload_ref(k->payloads, m->data);
}
static inline void kernel_probe(kernel_t *k, int point, uint32_t id, tick_t t)
{
    if (k->probe)
        k->probe(k->probe_ctx, point, id, t);
}

#endif
