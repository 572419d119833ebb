/* ubsim loss: goodput and message completion time against packet loss, for
 * selective acknowledgement and for go-back-N, measured on the two-node
 * transport bench (tp_bench.h); and single runs with given faults, for
 * worked examples that replay exactly. */
#ifndef UB_LOSS_H
#define UB_LOSS_H

#include "tp_bench.h"

#define LOSS_MAX_POINTS 32
#define LOSS_MAX_MIX 16

typedef enum { LOSS_SACK = 0, LOSS_GBN32, LOSS_GBN_WIN, LOSS_N_SCHEMES } loss_scheme_t;

/* "sack", "gbn32", "gbn" (go-back-N with the configured window) */
const char *loss_scheme_name(loss_scheme_t s, unsigned window, char *buf, int len);

typedef struct {
    loss_scheme_t scheme;
    unsigned window;         /* packets in flight of this scheme */
    double loss;
    tpb_result_t r;
    double goodput_fraction; /* of the scheme's loss-free run */
} loss_point_t;

/* The configuration of a scheme on top of a base configuration. */
void loss_scheme_cfg(const tpb_cfg_t *base, loss_scheme_t s, tpb_cfg_t *out);

/* Runs every scheme of `schemes` (bit s: scheme s) at every loss rate, a
 * loss rate applying to both directions; the loss-free run of each scheme
 * comes first (reported if 0 is among the rates). progress(ctx, done,
 * total) after each run if not NULL. Returns the number of points, or -1
 * with a message. */
int loss_sweep(const tpb_cfg_t *base, unsigned schemes, const double *loss, int n_loss,
               loss_point_t *pts, int max_pts, void (*progress)(void *, int, int), void *ctx,
               char *err, int errlen);

int cmd_loss(int argc, char **argv);

#endif
