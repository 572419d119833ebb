#include "kernel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kernel_init(kernel_t *k)
{
    memset(k, 0, sizeof(*k));
}

void kernel_free(kernel_t *k)
{
    free(k->heap);
    free(k->due);
    k->heap = k->due = NULL;
}

void kernel_fail(kernel_t *k, const char *fmt, ...)
{
    if (k->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->err, sizeof(k->err), fmt, ap);
    va_end(ap);
    k->failed = 1;
}

/* ---- the heap: ordered by (wake, clocked after event-timed, seq) ---------- */

static int before(const comp_t *a, const comp_t *b)
{
    if (a->wake != b->wake)
        return a->wake < b->wake;
    int ca = a->clk != NULL, cb = b->clk != NULL;
    if (ca != cb)
        return ca < cb;
    return a->seq < b->seq;
}

static void place(kernel_t *k, int64_t i, comp_t *c)
{
    k->heap[i] = c;
    c->heap_at = i;
}

static void sift_up(kernel_t *k, int64_t i)
{
    comp_t *c = k->heap[i];
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!before(c, k->heap[p]))
            break;
        place(k, i, k->heap[p]);
        i = p;
    }
    place(k, i, c);
}

static void sift_down(kernel_t *k, int64_t i)
{
    comp_t *c = k->heap[i];
    for (;;) {
        int64_t l = 2 * i + 1, m = i;
        const comp_t *best = c;
        if (l < k->n && before(k->heap[l], best)) {
            m = l;
            best = k->heap[l];
        }
        if (l + 1 < k->n && before(k->heap[l + 1], best))
            m = l + 1;
        if (m == i)
            break;
        place(k, i, k->heap[m]);
        i = m;
    }
    place(k, i, c);
}

static int heap_insert(kernel_t *k, comp_t *c)
{
    if (k->n == k->cap) {
        int64_t ncap = k->cap ? k->cap * 2 : 16;
        comp_t **nh = realloc(k->heap, (size_t)ncap * sizeof(*nh));
        if (!nh)
            return -1;
        k->heap = nh;
        k->cap = ncap;
    }
    c->seq = k->next_seq++;
    place(k, k->n++, c);
    sift_up(k, k->n - 1);
    return 0;
}

static comp_t *heap_pop(kernel_t *k)
{
    comp_t *c = k->heap[0];
    c->heap_at = -1;
    if (--k->n > 0) {
        place(k, 0, k->heap[k->n]);
        sift_down(k, 0);
    }
    return c;
}

/* ---- scheduling ------------------------------------------------------------ */

int kernel_add(kernel_t *k, comp_t *c, tick_t wake)
{
    c->k = k;
    c->heap_at = -1;
    c->in_due = 0;
    if (c->clk && k->step_all && wake > c->clk->phase)
        wake = c->clk->phase;
    if (c->clk && wake != TICK_NEVER)
        wake = clock_edge_at_or_after(c->clk, wake);
    c->wake = wake;
    if (wake == TICK_NEVER)
        return 0;
    return heap_insert(k, c);
}

void kernel_wake(comp_t *c, tick_t t)
{
    kernel_t *k = c->k;
    if (c->clk) {
        if (k->in_clocked_phase && t <= k->now)
            t = k->now + 1; /* it has run at this instant, or must not see a push of it */
        t = clock_edge_at_or_after(c->clk, t);
    } else if (t < k->now) {
        t = k->now;
    }
    if (k->in_clocked_phase && !c->clk && t <= k->now) {
        kernel_fail(k, "internal: %s was sent a message visible in the instant that sent it",
                    c->name);
        return;
    }
    if (t >= c->wake)
        return;
    c->wake = t;
    if (c->heap_at >= 0) {
        c->seq = k->next_seq++;
        sift_up(k, c->heap_at);
    } else if (!c->in_due) {
        if (heap_insert(k, c))
            kernel_fail(k, "out of memory");
    }
    /* a component being run now is rescheduled when it returns */
}

/* Puts c back after it ran: at the earlier of what it asked for and any
 * wake-up it was sent while it ran. */
static void reschedule(kernel_t *k, comp_t *c, tick_t next)
{
    if (c->clk && k->step_all && next > k->now + c->clk->period)
        next = k->now + c->clk->period;
    if (c->clk && next != TICK_NEVER)
        next = clock_edge_at_or_after(c->clk, next);
    if (next < c->wake)
        c->wake = next;
    if (c->wake != TICK_NEVER && heap_insert(k, c))
        kernel_fail(k, "out of memory");
}

static int push_due(kernel_t *k, comp_t *c)
{
    if (k->n_due == k->cap_due) {
        int64_t ncap = k->cap_due ? k->cap_due * 2 : 16;
        comp_t **nd = realloc(k->due, (size_t)ncap * sizeof(*nd));
        if (!nd)
            return -1;
        k->due = nd;
        k->cap_due = ncap;
    }
    k->due[k->n_due++] = c;
    c->in_due = 1;
    return 0;
}

int kernel_run(kernel_t *k)
{
    while (!k->stop && !k->failed && k->n > 0) {
        comp_t *top = k->heap[0];
        tick_t t = top->wake;
        k->now = t;
        if (!top->clk) { /* event-timed: one at a time */
            heap_pop(k);
            top->wake = TICK_NEVER;
            top->in_due = 1;
            if (top->ops->eval)
                top->ops->eval(top, t);
            tick_t next = top->ops->commit(top, t);
            top->in_due = 0;
            reschedule(k, top, next);
            continue;
        }
        /* every clocked component due now: all evaluate, then all commit */
        k->n_due = 0;
        while (k->n > 0 && k->heap[0]->wake == t) {
            comp_t *c = heap_pop(k);
            c->wake = TICK_NEVER;
            if (push_due(k, c)) {
                kernel_fail(k, "out of memory");
                return -1;
            }
        }
        k->in_clocked_phase = 1;
        if (k->n_due == 1 && k->due[0]->ops->run && !k->step_all) {
            comp_t *c = k->due[0];
            tick_t horizon = k->n > 0 ? k->heap[0]->wake : TICK_NEVER;
            uint64_t edges = 0;
            tick_t next = c->ops->run(c, t, horizon, &edges);
            k->clocked_edges += edges;
            k->instants += edges;
            c->in_due = 0;
            k->n_due = 0;
            k->in_clocked_phase = 0;
            reschedule(k, c, next);
            continue;
        }
        k->instants++;
        for (int64_t i = 0; i < k->n_due; i++)
            if (k->due[i]->ops->eval)
                k->due[i]->ops->eval(k->due[i], t);
        for (int64_t i = 0; i < k->n_due; i++)
            k->due[i]->next = k->due[i]->ops->commit(k->due[i], t);
        k->clocked_edges += (uint64_t)k->n_due;
        k->in_clocked_phase = 0;
        for (int64_t i = 0; i < k->n_due; i++) {
            k->due[i]->in_due = 0;
            reschedule(k, k->due[i], k->due[i]->next);
        }
        k->n_due = 0;
    }
    return k->failed ? -1 : 0;
}
