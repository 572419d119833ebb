/* Ports of the order tracker: the one list behind order_tracker_in_t /
 * _out_t, the block class's port tables, the RTL shim and the port check of
 * the Verilated rtl/order_tracker.sv. X(dir, name, width, ctype): see
 * block_ports.h. docs/order_tracker.md has the rules. */
#ifndef ORDER_TRACKER_PORTS_H
#define ORDER_TRACKER_PORTS_H

#define ORDER_TRACKER_PORTS(X)                                                  \
    /* a request the send pipeline accepts (its wr_valid && wr_ready) */        \
    X(IN, acc_valid, 1, uint8_t)                                                \
    X(IN, acc_q, 3, uint8_t)          /* its initiator's queue */               \
    X(IN, acc_mode, 3, uint8_t)       /* ub_mode_t */                           \
    X(IN, acc_order, 2, uint8_t)      /* ub_order_t: NO, RO, SO */              \
    X(IN, acc_fence, 1, uint8_t)                                                \
    /* the head of a queue the scheduler picked (its pick_valid / pick_q) */    \
    X(IN, pick_valid, 1, uint8_t)                                               \
    X(IN, pick_q, 3, uint8_t)                                                   \
    /* a completion of a request of queue cmp_q came back */                    \
    X(IN, cmp_valid, 1, uint8_t)                                                \
    X(IN, cmp_q, 3, uint8_t)                                                    \
    X(OUT, elig, 8, uint8_t)          /* bit q: queue q's head may be picked */ \
    X(OUT, held, 8, uint8_t)          /* bit q: it waits for completions */     \
    X(OUT, busy, 1, uint8_t)          /* a request known or outstanding */

#endif
