/* ubsim cache: two NICs' context caches under reads both ways (cache_bench.h). */
#include "cache_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "context_cache.h"

enum { K_JETTY = 0, K_SEG = 1, K_CHAN = 2, K_QP = 3 };

typedef struct {
    block_inst_t *blk;
    context_cache_in_t in;
    context_cache_out_t out;
    /* fetches under way: (due edge, tag), in order */
    struct {
        uint64_t due;
        uint8_t tag;
    } q[CC_MSHRS + 2];
    int qh, qn;
    int mismatch;
    uint64_t period_ps; /* for a trace's times: edge e at e periods */
} nic_cache_t;

static uint64_t next_rand(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* an index in [0, n): uniform, or by the Zipf CDF */
static uint64_t draw(uint64_t *rng, uint64_t n, const double *cdf)
{
    double u = (double)(next_rand(rng) >> 11) * 0x1.0p-53;
    if (!cdf)
        return (uint64_t)(u * (double)n) % n;
    uint64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static double *zipf_cdf(uint64_t n, double s)
{
    double *c = malloc(n * sizeof *c);
    if (!c)
        return NULL;
    double sum = 0;
    for (uint64_t i = 0; i < n; i++)
        sum += 1.0 / pow((double)(i + 1), s);
    double acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        acc += 1.0 / pow((double)(i + 1), s) / sum;
        c[i] = acc;
    }
    c[n - 1] = 1.0;
    return c;
}

/* One edge of a NIC's cache and its memory. */
static void edge(nic_cache_t *c, uint64_t e, uint64_t miss_cycles)
{
    c->in.fill_valid = 0;
    if (c->qn && c->q[c->qh].due <= e) {
        c->in.fill_valid = 1;
        c->in.fill_tag = c->q[c->qh].tag;
        c->in.fill_data = 0;
        c->qh = (c->qh + 1) % (CC_MSHRS + 2);
        c->qn--;
    }
    c->in.mreq_ready = 1;
    int mreq = c->out.mreq_valid;
    uint8_t tag = c->out.mreq_tag;
    if (block_step(c->blk, &c->in, &c->out, e * c->period_ps))
        c->mismatch = 1;
    if (mreq) {
        int t = (c->qh + c->qn) % (CC_MSHRS + 2);
        c->q[t].due = e + miss_cycles;
        c->q[t].tag = tag;
        c->qn++;
    }
}

/* A side's lookups, back to back; returns the edges from the first request
 * to the last answer, counted from 1 (an all-hit pass takes
 * hit_cycles + n - 1). *e is the NIC's edge count, advanced. */
static uint64_t side(nic_cache_t *c, uint64_t *e, const uint8_t *kind, const uint32_t *id,
                     const uint8_t *write, int n, uint64_t miss_cycles)
{
    uint64_t start = *e;
    int sent = 0, got = 0;
    while (got < n) {
        if (sent < n) {
            c->in.rq_valid = 1;
            c->in.rq_kind = kind[sent];
            c->in.rq_id = id[sent];
            c->in.rq_tag = (uint8_t)sent;
            c->in.rq_write = write[sent];
            c->in.rq_wdata = (uint32_t)*e;
        } else {
            c->in.rq_valid = 0;
        }
        int take = c->in.rq_valid && c->out.rq_ready;
        edge(c, *e, miss_cycles);
        (*e)++;
        sent += take;
        got += c->out.rsp_valid;
        /* waiting for memory only: jump to the fill */
        if (got < n && sent == n && c->qn) {
            c->in.rq_valid = 0;
            c->in.fill_valid = 0;
            int64_t q = block_quiet(c->blk, &c->in);
            uint64_t due = c->q[c->qh].due;
            /* (no further than the quiet edges: a hit may be due first) */
            if (q > 0 && due > *e) {
                int64_t n = (int64_t)(due - *e) < q ? (int64_t)(due - *e) : q;
                block_advance(c->blk, &c->in, n);
                *e += (uint64_t)n;
            }
        }
    }
    c->in.rq_valid = 0;
    return *e - start;
}

int cb_run(const cb_cfg_t *c, cb_result_t *r, char *err, int errlen)
{
    memset(r, 0, sizeof *r);
    if (c->n < 1 || c->m < 1 || c->n > 4096 || c->m > 4096 || c->reads < 1 || c->ways < 1 ||
        c->ways > CC_MAX_WAYS || c->sets_log2 > 6 || c->hit_cycles < CC_MIN_HIT || c->hit_cycles > 15 ||
        !(c->clock_mhz > 0) || !(c->miss_ns >= 0) || !(c->zipf >= 0)) {
        snprintf(err, (size_t)errlen, "cache bench: a setting out of range");
        return -1;
    }
    static nic_cache_t nic[2];
    block_opts_t bo = {.kind = c->backend, .period_ps = (uint64_t)(1e6 / c->clock_mhz)};
    for (int x = 0; x < 2; x++) {
        nic_cache_t *q = &nic[x];
        memset(q, 0, sizeof *q);
        block_opts_t bx = bo;
        if (x == 0)
            bx.rtl_fst_path = c->wave;
        q->period_ps = bo.period_ps;
        q->blk = block_new(&context_cache_class, &bx, err, errlen);
        if (!q->blk) {
            if (x)
                block_free(nic[0].blk);
            return -1;
        }
        block_reset(q->blk);
        q->in.cfg_capacity = c->capacity;
        q->in.cfg_sets_log2 = (uint8_t)c->sets_log2;
        q->in.cfg_ways = (uint8_t)c->ways;
        for (unsigned k = 0; k < 4; k++)
            q->in.cfg_rec_bytes |= (uint64_t)(c->rec[k] & 0x7FF) << (11 * k);
        q->in.cfg_random = (uint8_t)(c->random != 0);
        q->in.cfg_seed = c->seed;
        q->in.cfg_hit_cycles = (uint8_t)c->hit_cycles;
        q->out.rq_ready = 1;
    }
    double *cdf_n = NULL, *cdf_m = NULL;
    if (c->zipf > 0) {
        cdf_n = zipf_cdf(c->n, c->zipf);
        cdf_m = zipf_cdf(c->m, c->zipf);
        if (!cdf_n || !cdf_m) {
            free(cdf_n);
            free(cdf_m);
            for (int x = 0; x < 2; x++)
                block_free(nic[x].blk);
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
    }
    const double cyc_ns = 1000.0 / c->clock_mhz;
    const uint64_t miss_cycles = (uint64_t)ceil(c->miss_ns / cyc_ns - 1e-9);
    uint64_t e[2] = {0, 0}, rng = c->stream_seed * 0x2545F4914F6CDD1Dull + 1;
    hist_t h;
    hist_init(&h);
    int rc = -1;
    double sum = 0, waited = 0;
    uint64_t h0[2] = {0}, m0[2] = {0};
    uint64_t warm = c->warm;
    if (!warm) {
        /* records a NIC holds (node 0): its endpoints' and its connections' */
        uint64_t recs = c->stack == CB_UB ? 2 * c->n + c->m : c->n * c->m + c->n;
        warm = 8 * recs;
        if (warm < c->reads)
            warm = c->reads;
        if (warm > 50 * c->reads)
            warm = 50 * c->reads;
    }
    r->warm = warm;
    for (uint64_t k = 0; k < warm + c->reads; k++) {
        if (k == warm) /* warmed up: count from here */
            for (int x = 0; x < 2; x++) {
                h0[x] = nic[x].out.hits;
                m0[x] = nic[x].out.misses;
            }
        int d = (int)(k & 1); /* initiator: node d (node 0 has N endpoints, node 1 M) */
        uint64_t li = d ? c->m : c->n, lt = d ? c->n : c->m;
        uint64_t i = draw(&rng, li, d ? cdf_m : cdf_n), j = draw(&rng, lt, d ? cdf_n : cdf_m);
        uint8_t ki[2], kt[2], wi[2], wt[2];
        uint32_t ii[2], it[2];
        int ni, nt;
        if (c->stack == CB_UB) {
            ki[0] = K_JETTY; ii[0] = (uint32_t)i; wi[0] = 0;
            ki[1] = K_CHAN; ii[1] = (uint32_t)j; wi[1] = 1;
            kt[0] = K_SEG; it[0] = (uint32_t)j; wt[0] = 0;
            kt[1] = K_CHAN; it[1] = (uint32_t)i; wt[1] = 1;
            ni = nt = 2;
        } else {
            ki[0] = K_QP; ii[0] = (uint32_t)(i * lt + j); wi[0] = 1;
            kt[0] = K_QP; it[0] = (uint32_t)(j * li + i); wt[0] = 1;
            kt[1] = K_SEG; it[1] = (uint32_t)j; wt[1] = 0;
            ni = 1;
            nt = 2;
        }
        /* the two sides run one after the other (the read crosses the wire
         * between them); each NIC keeps its own edge count */
        uint64_t a = side(&nic[d], &e[d], ki, ii, wi, ni, miss_cycles);
        uint64_t b = side(&nic[1 - d], &e[1 - d], kt, it, wt, nt, miss_cycles);
        if (nic[0].mismatch || nic[1].mismatch) {
            snprintf(err, (size_t)errlen, "lockstep: the C model and the RTL of a context cache differ");
            goto fail;
        }
        if (a < c->hit_cycles + (uint64_t)ni - 1 || b < c->hit_cycles + (uint64_t)nt - 1) {
            snprintf(err, (size_t)errlen, "internal: read %llu was answered faster than a hit",
                     (unsigned long long)k);
            goto fail;
        }
        uint64_t extra = (a - (c->hit_cycles + (uint64_t)ni - 1)) + (b - (c->hit_cycles + (uint64_t)nt - 1));
        if (k >= warm) {
            double ns = c->base_ns + (double)extra * cyc_ns;
            sum += ns;
            waited += (double)extra * cyc_ns;
            hist_add(&h, (tick_t)llround(ns * 1000.0)); /* ps */
        }
    }
    for (int x = 0; x < 2; x++) {
        r->hits += nic[x].out.hits - h0[x];
        r->misses += nic[x].out.misses - m0[x];
    }
    r->lookups = r->hits + r->misses;
    r->hit_rate = r->lookups ? (double)r->hits / (double)r->lookups : 0;
    r->mean_ns = sum / (double)c->reads;
    r->waited_ns_per_read = waited / (double)c->reads;
    r->p50_ns = (double)hist_percentile(&h, 50) / 1000.0;
    r->p99_ns = (double)hist_percentile(&h, 99) / 1000.0;
    for (int x = 0; x < 2; x++)
        r->mismatches += block_mismatches(nic[x].blk);
    rc = 0;
fail:
    for (int x = 0; x < 2; x++)
        block_free(nic[x].blk);
    hist_free(&h);
    free(cdf_n);
    free(cdf_m);
    return rc;
}
