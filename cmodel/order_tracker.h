/* Order tracker, C reference model: when each initiator's next request may
 * be issued (docs/order_tracker.md has the rules table).
 *
 * It keeps, per queue of the send pipeline (one per initiator), the order
 * fields of the requests accepted and not yet picked, in order, and the count
 * of requests picked whose completions have not come back. Its outputs come
 * from those registers only: `elig` bit q says the head of queue q may be
 * picked at the next edge, `held` that it waits for completions.
 *
 * Cycle convention (sim/core/block.h): step(in) is one rising edge; the
 * inputs are what happened at that edge (a request accepted, a head picked,
 * a completion back). The RTL twin is rtl/order_tracker.sv with the ports of
 * order_tracker_ports.h (RTL names add _i/_o). This model needs nothing
 * outside cmodel/. */
#ifndef UB_ORDER_TRACKER_H
#define UB_ORDER_TRACKER_H

#include <stdint.h>

#include "block_ports.h"
#include "order_tracker_ports.h"
#include "ub_pkg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OT_NUM_QUEUES UBSP_NUM_QUEUES /* one per initiator, as the send pipeline's */
#define OT_FIFO_DEPTH 8               /* requests known per queue (the pipeline holds <= 5) */
#define OT_COUNT_MAX 0xFFFFFFu        /* outstanding per initiator: 24 bits */

typedef struct { ORDER_TRACKER_PORTS(PORTS_FIELDS_IN) } order_tracker_in_t;
typedef struct { ORDER_TRACKER_PORTS(PORTS_FIELDS_OUT) } order_tracker_out_t;
ORDER_TRACKER_PORTS(PORTS_CHECK)

typedef struct {
    /* per queue: the order fields of the requests accepted, not yet picked,
     * as mode | order << 3 | fence << 5 */
    uint8_t attr[OT_NUM_QUEUES][OT_FIFO_DEPTH];
    uint8_t rd[OT_NUM_QUEUES], cnt[OT_NUM_QUEUES];
    /* per queue: requests picked, not completed (saturating at OT_COUNT_MAX) */
    uint32_t outstanding[OT_NUM_QUEUES];
    /* the outputs, kept up to date queue by queue; and which queues hold a
     * request or have some outstanding */
    uint8_t elig, held, known, counted;
} order_tracker_state_t;

void order_tracker_reset(order_tracker_state_t *s);
void order_tracker_step(order_tracker_state_t *s, const order_tracker_in_t *in,
                        order_tracker_out_t *out);
/* Whether a head with these fields may be picked with `outstanding`
 * requests of its initiator in flight (the rules table). */
int order_tracker_eligible(uint8_t mode, uint8_t order, uint8_t fence, uint32_t outstanding);

#ifdef __cplusplus
}
#endif

#endif
