/* An ordering checker, written from the rules table of docs/order_tracker.md
 * and sharing no code with the order tracker: it watches requests being
 * posted, issued (their first packet leaves the initiator's NIC), executed at
 * the target and completed, and reports any break of the rules:
 *
 *   fifo    a send queue's requests are issued in the order they were posted;
 *   wait    an SO request in ROI or ROL, and a fenced request in any mode
 *           but UNO, is issued only after every earlier request of its send
 *           queue has completed (successfully or not);
 *   target  the requests of a send queue that ask for order (RO, SO, a
 *           fence; not in UNO) execute at the target in the order they were
 *           posted.
 *
 * Completion order is not checked (the host reports completions as they
 * come). */
#ifndef UB_ORDER_CHECK_H
#define UB_ORDER_CHECK_H

#include <stdint.h>

#include "timebase.h"

enum { OC_FIFO = 0, OC_WAIT, OC_TARGET, OC_N_RULES };

typedef struct {
    uint64_t posted, issued, executed, completed;
    uint64_t violations[OC_N_RULES];
    char first[300];           /* the first violation, described ("" if none) */
} order_check_stats_t;

typedef struct order_check order_check_t;

order_check_t *order_check_new(void);
/* The events, each with the request's number (increasing in post order). A
 * send queue's mode, order and fence come with the post:
 * ord = mode << 3 | fence << 2 | order, as msg_t.ord. */
void order_check_post(order_check_t *c, uint64_t op, uint32_t queue, uint8_t ord);
void order_check_issue(order_check_t *c, uint64_t op, tick_t t);
void order_check_execute(order_check_t *c, uint64_t op, tick_t t);
void order_check_complete(order_check_t *c, uint64_t op, tick_t t);
const order_check_stats_t *order_check_stats(const order_check_t *c);
const char *order_check_rule_name(int rule);
void order_check_free(order_check_t *c);

#endif
