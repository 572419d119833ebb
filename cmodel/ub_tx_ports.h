/* Ports of the UB transmit path: the one list behind ub_tx_in_t / _out_t,
 * the block class's port tables, the RTL shim and the port check of the
 * Verilated rtl/ub_tx.sv. X(dir, name, width, ctype): see block_ports.h.
 *
 * The send pipeline's ports but the one to the transport channel table,
 * which the path holds inside (ub_tx.h), and the table's configuration. */
#ifndef UB_TX_PORTS_H
#define UB_TX_PORTS_H

#include "ub_send_pipeline_ports.h"

#define UB_TX_PORTS(X)                                                          \
    UB_SEND_PIPELINE_COMMON_PORTS(X)                                            \
    UB_TX_OWN_PORTS(X)

/* The ports that are the path's own (the channel table's configuration). */
#define UB_TX_OWN_PORTS(X)                                                      \
    X(IN, cfg_psn_init, 24, uint32_t) /* first PSN/TPMSN of a channel */

#endif
