/* Transport channel table, C reference model. See tp_chan.h and
 * docs/transport.md; rtl/tp_chan.sv is the RTL twin. */
#include "tp_chan.h"

#include <limits.h>
#include <string.h>

_Static_assert(TPC_NUM_CHANNELS <= 16 && (TPC_NUM_CHANNELS & (TPC_NUM_CHANNELS - 1)) == 0,
               "NumChannels: a power of 2 that rq_ch's 4 bits can name");

void tp_chan_reset(tp_chan_state_t *s)
{
    memset(s, 0, sizeof *s);
}

void tp_chan_step(tp_chan_state_t *s, const tp_chan_in_t *in, tp_chan_out_t *out)
{
    tp_chan_out_t *o = &s->o;
    if (in->rq_valid & 1u) {
        /* read-modify-write of the channel in one edge: the answer is what
         * it held, the channel moves on by the packets and by one message */
        const unsigned c = in->rq_ch & (TPC_NUM_CHANNELS - 1);
        const int used = s->init >> c & 1u;
        const uint32_t psn = used ? s->psn[c] : in->cfg_psn_init & UB_PSN_MASK;
        const uint32_t tpmsn = used ? s->tpmsn[c] : in->cfg_psn_init & UB_TPMSN_MASK;
        s->psn[c] = ub_psn_add(psn, 1u + (in->rq_nseg & 0xFFFFFFu));
        s->tpmsn[c] = (tpmsn + 1u) & UB_TPMSN_MASK;
        s->init |= 1u << c;
        o->rs_valid = 1;
        o->rs_psn = psn;
        o->rs_tpmsn = tpmsn;
    } else {
        o->rs_valid = 0;
    }
    *out = *o;
}

int tp_chan_quiet(const tp_chan_state_t *s, const tp_chan_in_t *in)
{
    return (in->rq_valid & 1u) || s->o.rs_valid ? 0 : INT_MAX;
}

void tp_chan_advance(tp_chan_state_t *s, const tp_chan_in_t *in, int n)
{
    (void)s; /* (quiet: nothing changes) */
    (void)in;
    (void)n;
}
