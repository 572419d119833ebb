/* The project's blocks: their classes (sim/core/blocks.c) and RTL shims
 * (sim/rtl/<block>_rtl.cc). The C models themselves (cmodel/) know nothing
 * of the simulator; this is where they meet it. */
#ifndef UB_BLOCKS_H
#define UB_BLOCKS_H

#include "block.h"
#include "context_cache.h"
#include "order_tracker.h"
#include "rc_send_pipeline.h"
#include "tp_chan.h"
#include "transport.h"
#include "ub_send_pipeline.h"
#include "ub_tx.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const block_class_t ub_send_pipeline_class;
extern const block_class_t ub_tx_class;
extern const block_class_t rc_send_pipeline_class;
extern const block_class_t order_tracker_class;
extern const block_class_t transport_class;
extern const block_class_t context_cache_class;
extern const block_class_t tp_chan_class;

/* Every class above, in one list (the tests that cover every block, such
 * as advance(n) against n steps, walk it): a new block is listed here. */
extern const block_class_t *const block_classes[];
extern const int n_block_classes;

BLOCK_RTL_DECL(ub_send_pipeline)
BLOCK_RTL_DECL(ub_tx)
BLOCK_RTL_DECL(rc_send_pipeline)
BLOCK_RTL_DECL(order_tracker)
BLOCK_RTL_DECL(transport)
BLOCK_RTL_DECL(context_cache)
BLOCK_RTL_DECL(tp_chan)

#ifdef __cplusplus
}
#endif

#endif
