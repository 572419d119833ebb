/* Order tracker, C reference model. See order_tracker.h and
 * docs/order_tracker.md; rtl/order_tracker.sv is the RTL twin. */
#include "order_tracker.h"

#include <string.h>

_Static_assert(OT_NUM_QUEUES == 8, "the ports carry 8 queues in 3 bits");

void order_tracker_reset(order_tracker_state_t *s) { memset(s, 0, sizeof *s); }

int order_tracker_eligible(uint8_t mode, uint8_t order, uint8_t fence, uint32_t outstanding)
{
    if (outstanding >= OT_COUNT_MAX)
        return 0; /* no more can be counted */
    if (mode == URMA_NO)
        return 1; /* unreliable: no ordering, no waiting */
    if (fence)
        return outstanding == 0;
    if (mode == URMA_OT)
        return 1; /* the target orders */
    return order == UB_ORDER_SO ? outstanding == 0 : 1; /* ROI, ROL */
}

/* The output bits of queue q, from its registers. */
static void update(order_tracker_state_t *s, unsigned q)
{
    uint8_t bit = (uint8_t)(1u << q);
    s->elig &= (uint8_t)~bit;
    s->held &= (uint8_t)~bit;
    s->known = (uint8_t)((s->known & ~bit) | (s->cnt[q] ? bit : 0));
    s->counted = (uint8_t)((s->counted & ~bit) | (s->outstanding[q] ? bit : 0));
    if (!s->cnt[q])
        return;
    uint8_t a = s->attr[q][s->rd[q]];
    if (order_tracker_eligible(a & 7u, (a >> 3) & 3u, (a >> 5) & 1u, s->outstanding[q]))
        s->elig |= bit;
    else
        s->held |= bit;
}

static void write_outputs(const order_tracker_state_t *s, order_tracker_out_t *o)
{
    o->elig = s->elig;
    o->held = s->held;
    o->busy = (s->known | s->counted) != 0;
}

void order_tracker_step(order_tracker_state_t *s, const order_tracker_in_t *in,
                        order_tracker_out_t *out)
{
    if (in->pick_valid & 1u) { /* the head leaves its queue and is outstanding */
        unsigned q = in->pick_q & 7u;
        if (s->cnt[q]) {
            s->rd[q] = (uint8_t)((s->rd[q] + 1u) & (OT_FIFO_DEPTH - 1));
            s->cnt[q]--;
        }
        if (s->outstanding[q] != OT_COUNT_MAX)
            s->outstanding[q]++;
        update(s, q);
    }
    if (in->cmp_valid & 1u) {
        unsigned q = in->cmp_q & 7u;
        if (s->outstanding[q])
            s->outstanding[q]--;
        update(s, q);
    }
    if (in->acc_valid & 1u) {
        unsigned q = in->acc_q & 7u;
        if (s->cnt[q] < OT_FIFO_DEPTH) {
            unsigned w = (s->rd[q] + s->cnt[q]) & (OT_FIFO_DEPTH - 1);
            s->attr[q][w] = (uint8_t)((in->acc_mode & 7u) | (in->acc_order & 3u) << 3 |
                                      (in->acc_fence & 1u) << 5);
            s->cnt[q]++;
        }
        update(s, q);
    }
    write_outputs(s, out);
}
