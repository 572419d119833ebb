/* The block classes of the project's blocks, each from its port list
 * (cmodel/<block>_ports.h), its C model (cmodel/<block>.c) and its RTL shim
 * (sim/rtl/<block>_rtl.cc). See BLOCK_CLASS in block.h. */
#include "blocks.h"

#define BLOCK_NAME ub_send_pipeline
BLOCK_CLASS_FF(UB_SEND_PIPELINE_PORTS);
#undef BLOCK_NAME

#define BLOCK_NAME ub_tx
BLOCK_CLASS_FF_TAKING(UB_TX_PORTS);
#undef BLOCK_NAME

#define BLOCK_NAME rc_send_pipeline
BLOCK_CLASS_FF(RC_SEND_PIPELINE_PORTS);
#undef BLOCK_NAME

#define BLOCK_NAME order_tracker
BLOCK_CLASS(ORDER_TRACKER_PORTS);
#undef BLOCK_NAME

#define BLOCK_NAME transport
BLOCK_CLASS_FF(TRANSPORT_PORTS);
#undef BLOCK_NAME

#define BLOCK_NAME tp_chan
BLOCK_CLASS_FF(TP_CHAN_PORTS);
#undef BLOCK_NAME

#define BLOCK_NAME context_cache
BLOCK_CLASS_FF(CONTEXT_CACHE_PORTS);
#undef BLOCK_NAME

const block_class_t *const block_classes[] = {
    &ub_send_pipeline_class, &ub_tx_class,  &rc_send_pipeline_class, &order_tracker_class,
    &transport_class,        &tp_chan_class, &context_cache_class,
};
const int n_block_classes = (int)(sizeof block_classes / sizeof block_classes[0]);
