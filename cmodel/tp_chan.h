/* Transport channel table, C reference model: the sequence state of UB's
 * transport channels (docs/transport.md).
 *
 * A transport channel per remote host keeps the packet sequence: the next
 * PSN to give out and the next TPMSN (one per message), shared by every
 * Jetty that sends to that host. The send pipeline asks the table for a
 * message's numbers at its stage S13 (rq_*: the channel and the message's
 * packets less one); the table answers at the next edge (rs_*: the first
 * PSN and the TPMSN) and moves the channel on by the packets and by one
 * message in the same edge, so a request every edge is served. A channel
 * not used since reset starts at cfg_psn_init. The packets then carry
 * these PSNs to the wire; with the reliable transport on, its
 * retransmission half (transport.h) resends them under the same numbers.
 *
 * Cycle convention (sim/core/block.h): step(in) is one rising edge; the
 * outputs are registers. The RTL twin is rtl/tp_chan.sv with the ports of
 * tp_chan_ports.h (RTL names add _i/_o; parameter NumChannels =
 * UBSP_NUM_CHANNELS from ub_pkg.h). This model needs nothing outside
 * cmodel/. */
#ifndef UB_TP_CHAN_H
#define UB_TP_CHAN_H

#include <stdint.h>

#include "block_ports.h"
#include "tp_chan_ports.h"
#include "ub_pkg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TPC_NUM_CHANNELS UBSP_NUM_CHANNELS /* the send pipeline's dst % NumChannels */

typedef struct { TP_CHAN_PORTS(PORTS_FIELDS_IN) } tp_chan_in_t;
typedef struct { TP_CHAN_PORTS(PORTS_FIELDS_OUT) } tp_chan_out_t;
TP_CHAN_PORTS(PORTS_CHECK)

typedef struct {
    uint32_t psn[TPC_NUM_CHANNELS];   /* next PSN of channel k */
    uint32_t tpmsn[TPC_NUM_CHANNELS]; /* next TPMSN of channel k */
    uint32_t init;                    /* bit k: channel k used since reset */
    tp_chan_out_t o;                  /* the output registers */
} tp_chan_state_t;

void tp_chan_reset(tp_chan_state_t *s);
void tp_chan_step(tp_chan_state_t *s, const tp_chan_in_t *in, tp_chan_out_t *out);
/* Fast-forward (block.h): with no request, nothing changes once the answer
 * of the last edge has fallen. */
int tp_chan_quiet(const tp_chan_state_t *s, const tp_chan_in_t *in);
void tp_chan_advance(tp_chan_state_t *s, const tp_chan_in_t *in, int n);

#ifdef __cplusplus
}
#endif

#endif
