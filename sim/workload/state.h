/* ubsim state: how many bytes of connection state each scheme needs, from
 * the record sizes, and where it stops fitting in the NIC's context cache.
 *
 * With N local endpoints talking to M remote endpoints:
 *   pairwise   (RoCE RC: a queue-pair context per connection, and a
 *              registered segment per local endpoint)
 *              S = qp * N * M + seg * N
 *   ub_shared  (UB: a Jetty and a segment per local endpoint, one transport
 *              channel per remote host, shared by every Jetty)
 *              S = (jetty + seg) * N + channel * M
 * and the general form with L endpoints, P targets and per-record sizes e
 * (endpoint), r (relation binding), t (transport state):
 *   private    S = L*e + L*P*(r + t)
 *   shared     S = L*e + L*P*r + P*t
 *   groups     S = L*e + L*P*r + K*P*t   (K isolated groups of transport state)
 * The overflow point of a scheme is the smallest N (or L) at which S exceeds
 * the cache, M (or P) growing with it when it was not given, fixed when it
 * was. */
#ifndef UB_STATE_H
#define UB_STATE_H

#include <stdint.h>

#define STATE_MAX_N 16777216ull /* 2^24 endpoints */

typedef struct {
    uint64_t n, m;          /* N, M */
    int m_given;            /* M fixed while N grows (else M = N) */
    uint64_t jetty, seg, channel, qp; /* record sizes, bytes */
    int general;            /* also the general form: */
    uint64_t l, p, e, r, t, k;
    int p_given;
    uint64_t cache_bytes;
} state_cfg_t;

/* Jetty 20 B, segment 32 B, channel 56 B, queue pair 512 B; N = M = 1024;
 * general form L = N, P = M, e = 52, r = 0, t = 56, K = 1; 256 KiB. */
void state_cfg_default(state_cfg_t *c);

typedef struct {
    const char *name;
    const char *formula;
    uint64_t bytes;         /* UINT64_MAX: more than 64 bits hold (too_big) */
    int too_big;
    int fits;
    uint64_t overflow_at;   /* 0: fits even at STATE_MAX_N */
} state_scheme_t;

#define STATE_MAX_SCHEMES 5

/* Fills up to STATE_MAX_SCHEMES schemes; returns how many. */
int state_eval(const state_cfg_t *c, state_scheme_t *out);

int cmd_state(int argc, char **argv);

#endif
