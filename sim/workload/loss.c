/* ubsim loss: the sweep (loss.h). */
#include "loss.h"

#include <stdio.h>
#include <string.h>

const char *loss_scheme_name(loss_scheme_t s, unsigned window, char *buf, int len)
{
    switch (s) {
    case LOSS_SACK: snprintf(buf, (size_t)len, "sack"); break;
    case LOSS_GBN32: snprintf(buf, (size_t)len, "gbn32"); break;
    default: snprintf(buf, (size_t)len, "gbn%u", window); break;
    }
    return buf;
}

void loss_scheme_cfg(const tpb_cfg_t *base, loss_scheme_t s, tpb_cfg_t *out)
{
    *out = *base;
    out->gbn = s != LOSS_SACK;
    if (s == LOSS_GBN32 && out->window > 32)
        out->window = 32;
}

int loss_sweep(const tpb_cfg_t *base, unsigned schemes, const double *loss, int n_loss,
               loss_point_t *pts, int max_pts, void (*progress)(void *, int, int), void *ctx,
               char *err, int errlen)
{
    int n = 0, total = 0, done = 0;
    for (int s = 0; s < LOSS_N_SCHEMES; s++)
        if (schemes >> s & 1) {
            if (s == LOSS_GBN_WIN && (schemes & (1u << LOSS_GBN32)) && base->window <= 32)
                continue; /* the same as gbn32 */
            total += n_loss + 1;
        }
    for (int s = 0; s < LOSS_N_SCHEMES; s++) {
        if (!(schemes >> s & 1))
            continue;
        if (s == LOSS_GBN_WIN && (schemes & (1u << LOSS_GBN32)) && base->window <= 32)
            continue;
        tpb_cfg_t c;
        loss_scheme_cfg(base, (loss_scheme_t)s, &c);
        tpb_result_t clean;
        c.fault.dir[0].loss = c.fault.dir[1].loss = 0;
        if (tpb_run(&c, &clean, err, errlen))
            return -1;
        if (progress)
            progress(ctx, ++done, total);
        for (int i = 0; i < n_loss; i++) {
            if (n >= max_pts) {
                snprintf(err, (size_t)errlen, "more than %d points", max_pts);
                return -1;
            }
            loss_point_t *p = &pts[n++];
            memset(p, 0, sizeof *p);
            p->scheme = (loss_scheme_t)s;
            p->window = c.window;
            p->loss = loss[i];
            if (loss[i] == 0) {
                p->r = clean;
            } else {
                c.fault.dir[0].loss = c.fault.dir[1].loss = loss[i];
                char e2[400];
                if (tpb_run(&c, &p->r, e2, sizeof e2)) {
                    snprintf(err, (size_t)errlen, "loss %g: %s", loss[i], e2);
                    return -1;
                }
            }
            p->goodput_fraction =
                clean.goodput_gbytes_per_s > 0 ? p->r.goodput_gbytes_per_s / clean.goodput_gbytes_per_s : 0;
            if (progress)
                progress(ctx, ++done, total);
        }
    }
    return n;
}
