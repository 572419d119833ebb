/* UB transmit path, C reference model: the send pipeline and the transport
 * channel table it numbers its packets from, wired together.
 *
 * The pipeline (ub_send_pipeline.h) keeps no packet sequence of its own: at
 * its stage S13 it asks the table (tp_chan.h) for the next PSNs of the
 * request's transport channel, and takes the answer into S15, two edges
 * later. This block joins the two as the NIC does: the table's answer
 * registers drive the pipeline's seq_* inputs, the pipeline's request
 * registers the table's rq_* inputs. Its ports are the pipeline's but that
 * internal port, plus the table's configuration (ub_tx_ports.h).
 *
 * Cycle convention (sim/core/block.h): step(in) is one rising edge of both.
 * The RTL twin is rtl/ub_tx.sv, which instantiates rtl/ub_send_pipeline.sv
 * and rtl/tp_chan.sv. This model needs nothing outside cmodel/. */
#ifndef UB_TX_H
#define UB_TX_H

#include <stdint.h>

#include "block_ports.h"
#include "tp_chan.h"
#include "ub_send_pipeline.h"
#include "ub_tx_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The input and output wires, one field per port of UB_TX_PORTS. The
 * pipeline's ports among them overlay the pipeline's own structs (`sp`),
 * which the path hands to it as they are: the fields of the port to the
 * table (seq_*) are the path's inside, not ports: the path does not read
 * those of its inputs and leaves those of its outputs 0. */
typedef struct {
    union {
        ub_send_pipeline_in_t sp;
        struct { UB_SEND_PIPELINE_COMMON_PORTS(PORTS_FIELDS_IN) };
    };
    UB_TX_OWN_PORTS(PORTS_FIELDS_IN)
} ub_tx_in_t;
typedef struct {
    union {
        ub_send_pipeline_out_t sp;
        struct { UB_SEND_PIPELINE_COMMON_PORTS(PORTS_FIELDS_OUT) };
    };
} ub_tx_out_t;
UB_TX_PORTS(PORTS_CHECK)

typedef struct {
    ub_send_pipeline_state_t sp;
    tp_chan_state_t tc;
    tp_chan_out_t tc_o; /* the table's answer after the last edge (the
                           pipeline's request is its own registers) */
} ub_tx_state_t;

void ub_tx_reset(ub_tx_state_t *s);
void ub_tx_step(ub_tx_state_t *s, const ub_tx_in_t *in, ub_tx_out_t *out);
/* Whether a request is inside. */
int ub_tx_busy(const ub_tx_state_t *s);
/* Fast-forward (block.h): the pipeline's, with the table answering the
 * request a lone request makes on its way (the jump steps those edges). */
int ub_tx_quiet(const ub_tx_state_t *s, const ub_tx_in_t *in);
void ub_tx_advance(ub_tx_state_t *s, const ub_tx_in_t *in, int n);
/* The pipeline's quiet_taking(), with nothing pending at the table. */
int ub_tx_quiet_taking(const ub_tx_state_t *s, const ub_tx_in_t *in);

#ifdef __cplusplus
}
#endif

#endif
