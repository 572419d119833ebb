#include "kernel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clock_init(clockdom_t *k, const char *name, const timebase_t *tb, int64_t mhz, tick_t phase)
{
    memset(k, 0, sizeof(*k));
    snprintf(k->name, sizeof(k->name), "%s", name);
    k->mhz = mhz;
    k->period = tb_period(tb, mhz);
    k->phase = phase;
}

void kernel_init(kernel_t *k)
{
    memset(k, 0, sizeof(*k));
    k->ext_horizon = TICK_NEVER;
    k->clocked_at = -1;
}

void kernel_free(kernel_t *k)
{
    for (int i = 0; i < k->n_lists; i++)
        free(k->lists[i].v);
    free(k->heap);
    free(k->due);
    free(k->ready);
    k->heap = NULL;
    k->due = NULL;
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

static inline int before(const heap_ent_t *a, const heap_ent_t *b)
{
    return a->wake != b->wake ? a->wake < b->wake : a->key < b->key;
}

static inline void place(kernel_t *k, int64_t i, heap_ent_t e)
{
    k->heap[i] = e;
    e.c->heap_at = i;
}

static void sift_up(kernel_t *k, int64_t i)
{
    heap_ent_t e = k->heap[i];
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!before(&e, &k->heap[p]))
            break;
        place(k, i, k->heap[p]);
        i = p;
    }
    place(k, i, e);
}

static void sift_down(kernel_t *k, int64_t i)
{
    heap_ent_t e = k->heap[i];
    for (;;) {
        int64_t l = 2 * i + 1, m = i;
        const heap_ent_t *best = &e;
        if (l < k->n && before(&k->heap[l], best)) {
            m = l;
            best = &k->heap[l];
        }
        if (l + 1 < k->n && before(&k->heap[l + 1], best))
            m = l + 1;
        if (m == i)
            break;
        place(k, i, k->heap[m]);
        i = m;
    }
    place(k, i, e);
}

static inline heap_ent_t entry(kernel_t *k, comp_t *c)
{
    c->seq = k->next_seq++;
    return (heap_ent_t){c->wake, ((uint64_t)(c->clk != NULL) << 63) | c->seq, c};
}

static int heap_insert(kernel_t *k, comp_t *c)
{
    if (k->n == k->cap) {
        int64_t ncap = k->cap ? k->cap * 2 : 16;
        heap_ent_t *nh = realloc(k->heap, (size_t)ncap * sizeof(*nh));
        if (!nh)
            return -1;
        k->heap = nh;
        k->cap = ncap;
    }
    place(k, k->n++, entry(k, c));
    sift_up(k, k->n - 1);
    return 0;
}

static comp_t *heap_pop(kernel_t *k)
{
    comp_t *c = k->heap[0].c;
    c->heap_at = -1;
    if (--k->n > 0) {
        place(k, 0, k->heap[k->n]);
        sift_down(k, 0);
    }
    return c;
}

/* ---- next-edge lists ------------------------------------------------------- */

static edge_list_t *list_of(kernel_t *k, const clockdom_t *clk)
{
    if (k->n_lists > 0 && k->lists[0].c.clk == clk)
        return &k->lists[0];
    for (int i = 0; i < k->n_lists; i++)
        if (k->lists[i].c.clk == clk)
            return &k->lists[i];
    if (k->n_lists == KERNEL_MAX_CLOCKS)
        return NULL;
    edge_list_t *l = &k->lists[k->n_lists++];
    memset(l, 0, sizeof(*l));
    snprintf(l->c.name, sizeof(l->c.name), "next edge of %s", clk->name);
    l->c.clk = clk;
    l->c.k = k;
    l->c.wake = TICK_NEVER;
    l->c.heap_at = -1;
    l->c.list_at = -1;
    l->c.list = l;
    return l;
}

/* Puts c (due at the next edge, c->wake) in its clock's list. */
static int list_add(kernel_t *k, comp_t *c)
{
    edge_list_t *l = list_of(k, c->clk);
    if (!l)
        return heap_insert(k, c);
    if (l->n == l->cap) {
        int64_t ncap = l->cap ? l->cap * 2 : 8;
        comp_t **nv = realloc(l->v, (size_t)ncap * sizeof(*nv));
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = ncap;
    }
    c->list_at = l->n;
    l->v[l->n++] = c;
    if (l->c.heap_at < 0) {
        l->c.wake = c->wake;
        return heap_insert(k, &l->c);
    }
    return 0;
}

static void list_remove(kernel_t *k, comp_t *c)
{
    edge_list_t *l = list_of(k, c->clk);
    comp_t *last = l->v[--l->n];
    l->v[c->list_at] = last;
    last->list_at = c->list_at;
    c->list_at = -1;
}

/* ---- scheduling ------------------------------------------------------------ */

int kernel_add(kernel_t *k, comp_t *c, tick_t wake)
{
    c->k = k;
    c->heap_at = -1;
    c->list_at = -1;
    c->list = NULL;
    c->in_due = 0;
    c->in_ready = 0;
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
    if (t >= c->wake)
        return; /* due by then already (alignment only moves t later) */
    if (c->clk) {
        if (k->in_clocked_phase && t <= k->now)
            t = k->now + 1; /* it has run at this instant, or must not see a push of it */
        t = clock_edge_at_or_after(c->clk, t);
    } else if (t < k->now) {
        t = k->now;
    }
    if (k->in_clocked_phase && !c->clk && t <= k->now && !c->ahead) {
        kernel_fail(k, "internal: %s was sent a message visible in the instant that sent it",
                    c->name);
        return;
    }
    if (t >= c->wake || c->in_ready)
        return;
    if (c->in_due) { /* being run: rescheduled when it returns */
        c->wake = t;
        return;
    }
    if (!c->clk && t == k->now && c->heap_at < 0 && (!k->in_clocked_phase || c->ahead)) {
        /* due at once: no heap */
        if (k->r_n == k->r_cap) {
            int64_t ncap = k->r_cap ? k->r_cap * 2 : 16;
            comp_t **nr = malloc((size_t)ncap * sizeof(*nr));
            if (!nr) {
                kernel_fail(k, "out of memory");
                return;
            }
            for (int64_t i = 0; i < k->r_n; i++)
                nr[i] = k->ready[(k->r_head + i) & (k->r_cap - 1)];
            free(k->ready);
            k->ready = nr;
            k->r_cap = ncap;
            k->r_head = 0;
        }
        k->ready[(k->r_head + k->r_n++) & (k->r_cap - 1)] = c; /* r_cap: a power of two */
        c->in_ready = 1;
        if (k->on_wake && !k->running)
            k->on_wake(k->on_wake_ctx);
        return;
    }
    if (c->list_at >= 0)
        list_remove(k, c);
    c->wake = t;
    if (c->heap_at >= 0) {
        k->heap[c->heap_at] = entry(k, c);
        sift_up(k, c->heap_at);
    } else if (heap_insert(k, c)) {
        kernel_fail(k, "out of memory");
    }
    if (k->on_wake && !k->running)
        k->on_wake(k->on_wake_ctx);
}

/* Puts c back after it ran: at the earlier of what it asked for and any
 * wake-up it was sent while it ran. */
static void reschedule(kernel_t *k, comp_t *c, tick_t next)
{
    if (c->clk && k->step_all && next > k->now + c->clk->period)
        next = k->now + c->clk->period;
    if (c->clk && next != TICK_NEVER && next != k->now + c->clk->period)
        next = clock_edge_at_or_after(c->clk, next);
    if (next < c->wake)
        c->wake = next;
    if (c->wake == TICK_NEVER)
        return;
    int rc = c->clk && c->wake == k->now + c->clk->period ? list_add(k, c) : heap_insert(k, c);
    if (rc)
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

/* Runs the first part of the ready list (woken for the current instant). */
static void run_ready(kernel_t *k)
{
    comp_t *c = k->ready[k->r_head];
    k->r_head = (k->r_head + 1) & (k->r_cap - 1);
    k->r_n--;
    c->in_ready = 0;
    c->in_due = 1;
    if (c->ops->eval)
        c->ops->eval(c, k->now);
    tick_t next = c->ops->commit(c, k->now);
    c->in_due = 0;
    reschedule(k, c, next);
}

/* After the clocked components due at t have committed: when every one of
 * them, all of one clock, is due again at its next edge and nothing else is
 * due until that edge (once the parts woken for this instant have run), the
 * same set runs that edge without going back through the heap. Returns 1
 * when it does. */
static int same_set_next_edge(kernel_t *k, tick_t t, tick_t until)
{
    const clockdom_t *clk = k->due[0]->clk;
    tick_t nt = t + clk->period;
    if (k->stop || k->failed || nt > until)
        return 0;
    for (int64_t i = 0; i < k->n_due; i++)
        if (k->due[i]->clk != clk || k->due[i]->next != nt)
            return 0;
    while (k->r_n > 0) {
        run_ready(k);
        if (k->stop || k->failed)
            return 0;
    }
    if (k->n > 0 && k->heap[0].wake <= nt)
        return 0;
    for (int64_t i = 0; i < k->n_due; i++)
        k->due[i]->wake = TICK_NEVER;
    k->now = nt;
    return 1;
}

tick_t kernel_next_time(const kernel_t *k)
{
    if (k->stop || k->failed)
        return TICK_NEVER;
    if (k->r_n > 0)
        return k->now;
    return k->n > 0 ? k->heap[0].wake : TICK_NEVER;
}

int kernel_run(kernel_t *k) { return kernel_run_until(k, TICK_NEVER); }

static int run_until(kernel_t *k, tick_t until);

int kernel_run_until(kernel_t *k, tick_t until)
{
    k->running = 1;
    int rc = run_until(k, until);
    k->running = 0;
    return rc;
}

static int run_until(kernel_t *k, tick_t until)
{
    while (!k->stop && !k->failed && (k->r_n > 0 || (k->n > 0 && k->heap[0].wake <= until))) {
        if (k->r_n > 0) { /* woken for this very instant */
            run_ready(k);
            continue;
        }
        comp_t *top = k->heap[0].c;
        tick_t t = top->wake;
        k->now = t;
        if (!top->clk) { /* event-timed: one at a time; it keeps its heap
                             entry, which is re-keyed when it returns */
            top->wake = TICK_NEVER;
            top->in_due = 1;
            if (top->ops->eval)
                top->ops->eval(top, t);
            tick_t next = top->ops->commit(top, t);
            top->in_due = 0;
            if (next < top->wake)
                top->wake = next;
            if (top->wake == TICK_NEVER) {
                heap_pop(k);
            } else {
                k->heap[0] = entry(k, top);
                sift_down(k, 0);
            }
            continue;
        }
        /* every clocked component due now: all evaluate, then all commit */
        k->n_due = 0;
        while (k->n > 0 && k->heap[0].wake == t) {
            comp_t *c = heap_pop(k);
            c->wake = TICK_NEVER;
            edge_list_t *l = c->list;
            if (!l) {
                if (push_due(k, c)) {
                    kernel_fail(k, "out of memory");
                    return -1;
                }
                continue;
            }
            for (int64_t i = 0; i < l->n; i++) {
                comp_t *m = l->v[i];
                m->list_at = -1;
                m->wake = TICK_NEVER;
                if (push_due(k, m)) {
                    kernel_fail(k, "out of memory");
                    return -1;
                }
            }
            l->n = 0;
        }
        if (k->n_due == 0)
            continue;
        for (;;) {
            t = k->now;
            k->in_clocked_phase = 1;
            k->clocked_at = t;
            if (k->n_due == 1 && k->due[0]->ops->run && !k->step_all) {
                comp_t *c = k->due[0];
                tick_t horizon = k->n > 0 ? k->heap[0].wake : TICK_NEVER;
                if (k->ext_horizon < horizon)
                    horizon = k->ext_horizon;
                uint64_t edges = 0;
                c->next = c->ops->run(c, t, horizon, &edges);
                k->clocked_edges += edges;
                k->instants += edges;
                k->in_clocked_phase = 0;
                break; /* it ran up to the horizon (or stopped for a reason) */
            }
            k->instants++;
            for (int64_t i = 0; i < k->n_due; i++)
                if (k->due[i]->ops->eval)
                    k->due[i]->ops->eval(k->due[i], t);
            for (int64_t i = 0; i < k->n_due; i++)
                k->due[i]->next = k->due[i]->ops->commit(k->due[i], t);
            k->clocked_edges += (uint64_t)k->n_due;
            k->in_clocked_phase = 0;
            if (!same_set_next_edge(k, t, until))
                break;
        }
        for (int64_t i = 0; i < k->n_due; i++) {
            k->due[i]->in_due = 0;
            reschedule(k, k->due[i], k->due[i]->next);
        }
        k->n_due = 0;
    }
    return k->failed ? -1 : 0;
}
