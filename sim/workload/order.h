/* The order scenario: what ordering costs, measured on the send pipelines
 * (C model, RTL or both in lockstep), cycle by cycle.
 *
 *   first packet  cycles from a request's acceptance to its first packet
 *                 taken, on an idle UB send pipeline, for every mode, order
 *                 tag and fence;
 *   gated wait    an SO request behind k = 1..4 outstanding predecessors of
 *                 its initiator: cycles from the edge the last predecessor's
 *                 completion arrives to its packet taken;
 *   isolation     one initiator's SO request stalled (its predecessor's
 *                 completion withheld) while 4 other initiators post 8
 *                 unordered requests: cycles from the first of them accepted
 *                 to the last of them taken. On UB (the order tracker holds
 *                 only the stalled initiator's queue), and on the RoCE
 *                 baseline with the 8 requests on the stalled request's queue
 *                 pair and on queue pairs of their own (a queue pair runs in
 *                 order: a fenced request at its head waits for every earlier
 *                 one to complete, and everything behind it waits too).
 *
 * Every figure is counted from the blocks' handshakes; nothing is assumed. */
#ifndef UB_ORDER_H
#define UB_ORDER_H

#include <stdint.h>

#include "block.h"

#define ORDER_MAX_FIRST 24
#define ORDER_MAX_GATED 4
#define ORDER_MAX_ISO 3
#define ORDER_LIMIT 10000 /* cycles a measurement waits for */

typedef struct {
    uint8_t mode, order, fence; /* ub_mode_t, ub_order_t */
    int64_t cycles;
} order_first_t;

typedef struct {
    int predecessors;
    int64_t cycles;
} order_gated_t;

typedef struct {
    const char *stack;  /* "ub", "roce" */
    const char *qps;    /* "per initiator" (UB queues), "shared", "separate" */
    int initiators, requests;
    int64_t cycles;     /* to all sent, or -1 when blocked */
    int blocked;        /* not all sent within ORDER_LIMIT cycles */
} order_iso_t;

typedef struct {
    int n_first, n_gated, n_iso;
    order_first_t first[ORDER_MAX_FIRST];
    order_gated_t gated[ORDER_MAX_GATED];
    order_iso_t iso[ORDER_MAX_ISO];
    uint64_t lockstep_mismatches;
} order_result_t;

/* Runs the three measurements with the blocks on backend `be`. Returns 0,
 * or -1 with a message. */
int order_run(backend_kind_t be, order_result_t *r, char *err, int errlen);
/* `ubsim order` */
int cmd_order(int argc, char **argv);

#endif
