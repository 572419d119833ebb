#include "eventq.h"

#include <stdlib.h>
#include <string.h>

void eventq_init(eventq_t *q) { memset(q, 0, sizeof(*q)); }

void eventq_free(eventq_t *q)
{
    free(q->heap);
    memset(q, 0, sizeof(*q));
}

static int before(const event_t *a, const event_t *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int eventq_push(eventq_t *q, tick_t time, int kind, uint32_t arg)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 64;
        event_t *h = realloc(q->heap, cap * sizeof(*h));
        if (!h)
            return -1;
        q->heap = h;
        q->cap = cap;
    }
    event_t e = {time, q->next_seq++, kind, arg};
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&e, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
    return 0;
}

event_t eventq_pop(eventq_t *q)
{
    event_t top = q->heap[0];
    event_t last = q->heap[--q->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && before(&q->heap[c + 1], &q->heap[c]))
            c++;
        if (!before(&q->heap[c], &last))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (q->n)
        q->heap[i] = last;
    return top;
}
