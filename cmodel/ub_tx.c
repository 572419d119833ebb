/* UB transmit path, C reference model. See ub_tx.h; rtl/ub_tx.sv is the RTL
 * twin. */
#include "ub_tx.h"

#include <stddef.h>
#include <string.h>

/* The path's ports are the pipeline's first ones, in the same order: its
 * structs begin with the pipeline's fields, copied as one block. */
#define IN_COMMON offsetof(ub_send_pipeline_in_t, seq_valid)
#define OUT_COMMON offsetof(ub_send_pipeline_out_t, seq_rq)
_Static_assert(offsetof(ub_tx_in_t, cfg_psn_init) >= IN_COMMON &&
               offsetof(ub_tx_in_t, cfg_mtu_log2) == offsetof(ub_send_pipeline_in_t, cfg_mtu_log2) &&
               offsetof(ub_tx_in_t, pkt_ready) == offsetof(ub_send_pipeline_in_t, pkt_ready),
               "ub_tx_in_t begins with the pipeline's inputs");
_Static_assert(sizeof(ub_tx_out_t) >= OUT_COMMON &&
               offsetof(ub_tx_out_t, pkt_comp_order) ==
                   offsetof(ub_send_pipeline_out_t, pkt_comp_order),
               "ub_tx_out_t is the pipeline's outputs but the sequence request");

void ub_tx_reset(ub_tx_state_t *s)
{
    memset(s, 0, sizeof *s);
    ub_send_pipeline_reset(&s->sp);
    tp_chan_reset(&s->tc);
}

int ub_tx_busy(const ub_tx_state_t *s)
{
    return ub_send_pipeline_busy(&s->sp);
}

/* The pipeline's inputs: the path's, and the table's answer. */
static inline void sp_inputs(const ub_tx_state_t *s, const ub_tx_in_t *in,
                             ub_send_pipeline_in_t *pi)
{
    memcpy(pi, in, IN_COMMON);
    pi->seq_valid = s->tc_o.rs_valid;
    pi->seq_psn = s->tc_o.rs_psn;
    pi->seq_tpmsn = s->tc_o.rs_tpmsn;
}

void ub_tx_step(ub_tx_state_t *s, const ub_tx_in_t *in, ub_tx_out_t *out)
{
    ub_send_pipeline_in_t pi;
    sp_inputs(s, in, &pi);
    /* the table sees the pipeline's request of the last edge */
    tp_chan_in_t ti = {.cfg_psn_init = in->cfg_psn_init,
                       .rq_valid = s->sp_o.seq_rq,
                       .rq_ch = s->sp_o.seq_ch,
                       .rq_nseg = s->sp_o.seq_nseg};
    ub_send_pipeline_step(&s->sp, &pi, &s->sp_o);
    if (ti.rq_valid || s->tc_o.rs_valid)
        tp_chan_step(&s->tc, &ti, &s->tc_o); /* (else it changes nothing) */
    memcpy(out, &s->sp_o, OUT_COMMON);
}

int ub_tx_quiet(const ub_tx_state_t *s, const ub_tx_in_t *in)
{
    ub_send_pipeline_in_t pi;
    sp_inputs(s, in, &pi);
    return ub_send_pipeline_quiet_served(&s->sp, &pi);
}

void ub_tx_advance(ub_tx_state_t *s, const ub_tx_in_t *in, int n)
{
    /* the pipeline jumps while it neither asks nor is answered; the edges
     * of the round trip to the table are stepped (their outputs but the
     * internal ones are those of the jump: n <= quiet) */
    ub_tx_out_t out;
    while (n > 0) {
        ub_send_pipeline_in_t pi;
        sp_inputs(s, in, &pi);
        int q = ub_send_pipeline_quiet(&s->sp, &pi);
        const ubsp_item_t *it;
        if (q == 0 && n >= 3 && !s->tc_o.rs_valid && (it = ub_send_pipeline_asking(&s->sp, &pi))) {
            /* a lone request's round trip to the table, S12 -> S15: the
             * table answers (and its answer falls), the pipeline takes it */
            tp_chan_in_t ti = {.cfg_psn_init = in->cfg_psn_init,
                               .rq_valid = 1,
                               .rq_ch = it->ch,
                               .rq_nseg = it->nseg};
            tp_chan_step(&s->tc, &ti, &s->tc_o);
            ti.rq_valid = 0;
            tp_chan_step(&s->tc, &ti, &s->tc_o);
            s->sp_o.seq_ch = it->ch;
            s->sp_o.seq_nseg = it->nseg;
            ub_send_pipeline_cross_seq(&s->sp, &pi, s->tc_o.rs_psn, s->tc_o.rs_tpmsn);
            n -= 3;
            continue;
        }
        if (q == 0) {
            ub_tx_step(s, in, &out);
            n--;
            continue;
        }
        if (q > n)
            q = n;
        ub_send_pipeline_advance(&s->sp, &pi, q);
        n -= q;
    }
}
