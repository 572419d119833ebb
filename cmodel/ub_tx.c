/* UB transmit path, C reference model. See ub_tx.h; rtl/ub_tx.sv is the RTL
 * twin. */
#include "ub_tx.h"

#include <stddef.h>
#include <string.h>

/* The path's structs overlay the pipeline's: its ports sit where the
 * pipeline's do. */
_Static_assert(offsetof(ub_tx_in_t, pkt_ready) == offsetof(ub_send_pipeline_in_t, pkt_ready) &&
               offsetof(ub_tx_in_t, cfg_mtu_log2) ==
                   offsetof(ub_send_pipeline_in_t, cfg_mtu_log2) &&
               offsetof(ub_tx_in_t, cfg_psn_init) >= sizeof(ub_send_pipeline_in_t),
               "ub_tx_in_t overlays the pipeline's inputs");
_Static_assert(offsetof(ub_tx_out_t, pkt_comp_order) ==
                   offsetof(ub_send_pipeline_out_t, pkt_comp_order),
               "ub_tx_out_t overlays the pipeline's outputs");

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

void ub_tx_step(ub_tx_state_t *s, const ub_tx_in_t *in, ub_tx_out_t *out)
{
    /* the table sees the pipeline's request of the last edge (its output
     * registers), the pipeline the table's answer */
    tp_chan_in_t ti = {.cfg_psn_init = in->cfg_psn_init,
                       .rq_valid = s->sp.seq_rq,
                       .rq_ch = s->sp.seq_ch,
                       .rq_nseg = s->sp.seq_nseg};
    ub_send_pipeline_step_answered(&s->sp, &in->sp, s->tc_o.rs_valid, s->tc_o.rs_psn,
                                   s->tc_o.rs_tpmsn, &out->sp);
    /* (the port between them is inside: 0 in the path's outputs, as the
     * RTL's shim leaves what is not a port) */
    out->sp.seq_rq = 0;
    out->sp.seq_ch = 0;
    out->sp.seq_nseg = 0;
    if (ti.rq_valid || s->tc_o.rs_valid)
        tp_chan_step(&s->tc, &ti, &s->tc_o); /* (else it changes nothing) */
}

int ub_tx_quiet(const ub_tx_state_t *s, const ub_tx_in_t *in)
{
    return ub_send_pipeline_quiet_served(&s->sp, in->wr_valid, in->cmp_valid);
}

int ub_tx_quiet_taking(const ub_tx_state_t *s, const ub_tx_in_t *in)
{
    return s->tc_o.rs_valid ? 0 : ub_send_pipeline_quiet_taking(&s->sp, &in->sp);
}

/* The table's answer to a lone request's S13 request, inside a jump (see
 * ub_send_pipeline_advance_answered): its edge with the request, and the
 * edge after (the answer falls) when the jump covers it. */
struct answer_ctx {
    ub_tx_state_t *s;
    uint32_t psn_init;
};

static uint64_t table_answers(void *ctx, const ubsp_item_t *it, int falls)
{
    struct answer_ctx *a = ctx;
    tp_chan_in_t ti = {.cfg_psn_init = a->psn_init, .rq_valid = 1, .rq_ch = it->ch, .rq_nseg = it->nseg};
    tp_chan_step(&a->s->tc, &ti, &a->s->tc_o);
    uint64_t r = a->s->tc_o.rs_psn | (uint64_t)a->s->tc_o.rs_tpmsn << 32;
    if (falls) {
        ti.rq_valid = 0;
        tp_chan_step(&a->s->tc, &ti, &a->s->tc_o);
    }
    return r;
}

void ub_tx_advance(ub_tx_state_t *s, const ub_tx_in_t *in, int n)
{
    /* the pipeline jumps, the table answering a lone request's S13 request
     * within the jump; an edge at which an answer is pending is stepped
     * (n <= quiet: the outputs are those of the jump) */
    struct answer_ctx a = {s, in->cfg_psn_init};
    while (n > 0) {
        int q = s->tc_o.rs_valid ? 0 : ub_send_pipeline_quiet_served(&s->sp, in->wr_valid, in->cmp_valid);
        if (q > 0) {
            if (q > n)
                q = n;
            ub_send_pipeline_advance_answered(&s->sp, &in->sp, q, table_answers, &a);
            n -= q;
            continue;
        }
        ub_tx_out_t out;
        ub_tx_step(s, in, &out);
        n--;
    }
}
