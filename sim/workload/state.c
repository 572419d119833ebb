/* ubsim state: the formulas (state.h). */
#include "state.h"

#include <string.h>

void state_cfg_default(state_cfg_t *c)
{
    memset(c, 0, sizeof *c);
    c->n = c->m = 1024;
    c->jetty = 20;
    c->seg = 32;
    c->channel = 56;
    c->qp = 512;
    c->l = c->n;
    c->p = c->m;
    c->e = 52;
    c->r = 0;
    c->t = 56;
    c->k = 1;
    c->cache_bytes = 256 * 1024;
}

enum { S_PAIRWISE, S_UB, S_PRIVATE, S_SHARED, S_GROUPS };

/* S of scheme s with x local endpoints (N or L) and y remote (M or P);
 * saturates at UINT64_MAX */
static uint64_t mul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
static uint64_t add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static uint64_t bytes_of(const state_cfg_t *c, int s, uint64_t x, uint64_t y)
{
    switch (s) {
    case S_PAIRWISE: return add(mul(mul(c->qp, x), y), mul(c->seg, x));
    case S_UB: return add(mul(add(c->jetty, c->seg), x), mul(c->channel, y));
    case S_PRIVATE: return add(mul(c->e, x), mul(mul(x, y), add(c->r, c->t)));
    case S_SHARED: return add(add(mul(c->e, x), mul(mul(x, y), c->r)), mul(y, c->t));
    default: return add(add(mul(c->e, x), mul(mul(x, y), c->r)), mul(mul(c->k, y), c->t));
    }
}

/* the smallest x in [1, STATE_MAX_N] with S > cache (y = x unless fixed) */
static uint64_t overflow(const state_cfg_t *c, int s, int y_fixed, uint64_t y)
{
    uint64_t lo = 1, hi = STATE_MAX_N;
    if (bytes_of(c, s, hi, y_fixed ? y : hi) <= c->cache_bytes)
        return 0;
    while (lo < hi) { /* S grows with x */
        uint64_t mid = lo + (hi - lo) / 2;
        if (bytes_of(c, s, mid, y_fixed ? y : mid) > c->cache_bytes)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int state_eval(const state_cfg_t *c, state_scheme_t *out)
{
    static const char *const names[] = {"pairwise", "ub_shared", "private", "shared", "groups"};
    static const char *const formulas[] = {
        "qp*N*M + seg*N", "(jetty + seg)*N + channel*M", "L*e + L*P*(r + t)", "L*e + L*P*r + P*t",
        "L*e + L*P*r + K*P*t"};
    int n = 0;
    for (int s = 0; s < (c->general ? 5 : 2); s++) {
        int general = s >= S_PRIVATE;
        uint64_t x = general ? c->l : c->n, y = general ? c->p : c->m;
        int fixed = general ? c->p_given : c->m_given;
        state_scheme_t *o = &out[n++];
        o->name = names[s];
        o->formula = formulas[s];
        o->bytes = bytes_of(c, s, x, y);
        o->too_big = o->bytes == UINT64_MAX;
        o->fits = o->bytes <= c->cache_bytes;
        o->overflow_at = overflow(c, s, fixed, y);
    }
    return n;
}
