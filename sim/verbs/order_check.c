#include "order_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the modes, as ub_pkg's numbers */
enum { MODE_ROT = 1, MODE_ROI = 2, MODE_ROL = 3, MODE_UNO = 4 };
enum { ORD_NO = 0, ORD_RO = 1, ORD_SO = 2 };

typedef struct {
    uint32_t queue;
    uint8_t ord;
    uint8_t issued, executed, completed;
    uint64_t next;            /* the next request of its queue, + 1 (0: none yet) */
} req_t;

typedef struct {
    uint64_t last_posted;     /* + 1 */
    uint64_t head;            /* the oldest posted, not issued, + 1 (0: none) */
    uint64_t open;            /* issued and not completed */
    uint64_t last_ordered_exec; /* + 1 */
} queue_t;

struct order_check {
    req_t *r;
    uint64_t n, cap;
    queue_t *q;
    uint32_t nq;
    order_check_stats_t st;
};

static int mode_of(uint8_t ord) { return ord >> 3 ? ord >> 3 : MODE_ROT; }
static int fence_of(uint8_t ord) { return (ord >> 2) & 1; }
static int order_of(uint8_t ord) { return ord & 3; }

const char *order_check_rule_name(int rule)
{
    static const char *const n[OC_N_RULES] = {"fifo", "wait", "target"};
    return rule >= 0 && rule < OC_N_RULES ? n[rule] : "?";
}

order_check_t *order_check_new(void) { return calloc(1, sizeof(order_check_t)); }

void order_check_free(order_check_t *c)
{
    if (!c)
        return;
    free(c->r);
    free(c->q);
    free(c);
}

const order_check_stats_t *order_check_stats(const order_check_t *c) { return &c->st; }

static void violation(order_check_t *c, int rule, uint64_t op, tick_t t, const char *what)
{
    if (!c->st.violations[0] && !c->st.violations[1] && !c->st.violations[2])
        snprintf(c->st.first, sizeof c->st.first, "%s: request %llu of send queue %u at tick %lld: %s",
                 order_check_rule_name(rule), (unsigned long long)op,
                 op < c->n ? c->r[op].queue : 0, (long long)t, what);
    c->st.violations[rule]++;
}

static req_t *get(order_check_t *c, uint64_t op)
{
    if (op >= c->n)
        return NULL;
    return &c->r[op];
}

void order_check_post(order_check_t *c, uint64_t op, uint32_t queue, uint8_t ord)
{
    if (op >= c->cap) {
        uint64_t n = c->cap ? c->cap : 1024;
        while (n <= op)
            n *= 2;
        req_t *nr = realloc(c->r, n * sizeof(*nr));
        if (!nr)
            return;
        memset(nr + c->cap, 0, (n - c->cap) * sizeof(*nr));
        c->r = nr;
        c->cap = n;
    }
    if (queue >= c->nq) {
        uint32_t n = queue + 1 > c->nq * 2 ? queue + 1 : c->nq * 2;
        queue_t *nq = realloc(c->q, n * sizeof(*nq));
        if (!nq)
            return;
        memset(nq + c->nq, 0, (n - c->nq) * sizeof(*nq));
        c->q = nq;
        c->nq = n;
    }
    if (op + 1 > c->n)
        c->n = op + 1;
    queue_t *q = &c->q[queue];
    req_t *r = &c->r[op];
    r->queue = queue;
    r->ord = ord;
    if (q->last_posted)
        c->r[q->last_posted - 1].next = op + 1;
    q->last_posted = op + 1;
    if (!q->head)
        q->head = op + 1;
    c->st.posted++;
}

void order_check_issue(order_check_t *c, uint64_t op, tick_t t)
{
    req_t *r = get(c, op);
    if (!r || r->issued)
        return;
    queue_t *q = &c->q[r->queue];
    c->st.issued++;
    if (q->head != op + 1)
        violation(c, OC_FIFO, op, t, "issued before an earlier request of its send queue");
    int m = mode_of(r->ord);
    int must_wait = (order_of(r->ord) == ORD_SO && (m == MODE_ROI || m == MODE_ROL)) ||
                    (fence_of(r->ord) && m != MODE_UNO);
    if (must_wait && q->open)
        violation(c, OC_WAIT, op, t,
                  "issued while earlier requests of its send queue had not completed");
    r->issued = 1;
    q->open++;
    /* the queue's head: its oldest posted request not issued yet */
    if (q->head == op + 1) {
        uint64_t h = r->next;
        while (h && c->r[h - 1].issued)
            h = c->r[h - 1].next;
        q->head = h;
    }
}

void order_check_execute(order_check_t *c, uint64_t op, tick_t t)
{
    req_t *r = get(c, op);
    if (!r || r->executed)
        return;
    c->st.executed++;
    r->executed = 1;
    int ordered = mode_of(r->ord) != MODE_UNO &&
                  (order_of(r->ord) == ORD_RO || order_of(r->ord) == ORD_SO || fence_of(r->ord));
    if (!ordered)
        return;
    queue_t *q = &c->q[r->queue];
    if (q->last_ordered_exec > op + 1)
        violation(c, OC_TARGET, op, t, "executed after a later ordered request of its send queue");
    if (op + 1 > q->last_ordered_exec)
        q->last_ordered_exec = op + 1;
}

void order_check_complete(order_check_t *c, uint64_t op, tick_t t)
{
    (void)t;
    req_t *r = get(c, op);
    if (!r || r->completed)
        return;
    c->st.completed++;
    r->completed = 1;
    if (r->issued && c->q[r->queue].open)
        c->q[r->queue].open--;
}
