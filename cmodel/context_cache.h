/* Context cache, C reference model (docs/context_cache.md has the rules).
 *
 * A set-associative cache of variable-size records: each set has a byte
 * budget (the capacity over the sets) and at most cfg_ways records. A
 * request is looked up over a pipeline of CC_LOOKUP_EDGES edges and decided
 * at the edge after: a hit answers max(cfg_hit_cycles, CC_MIN_HIT) edges
 * after its request; a miss takes a miss register (8), which fetches the record from memory and
 * collects every later request for the same record (merged) until it has
 * answered them all in order; then the record is installed, evicting the
 * record a pseudo-LRU tree (or a random walk down it) picks, one an edge,
 * until it fits, a dirty one written back. Requests that hit go on while
 * misses are outstanding.
 *
 * Cycle convention (sim/core/block.h): step(in) is one rising edge; the
 * outputs are registers. This model needs nothing outside cmodel/. */
#ifndef UB_CONTEXT_CACHE_H
#define UB_CONTEXT_CACHE_H

#include <stdint.h>

#include "block_ports.h"
#include "context_cache_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CC_MAX_SETS 64
#define CC_MAX_WAYS 128
#define CC_MSHRS 8
#define CC_WAITERS 8 /* requests a miss register collects */
#define CC_HIT_FIFO 16
#define CC_PLAN_EDGES 4 /* edges from a plan's start to its install or eviction */
/* A lookup takes CC_LOOKUP_EDGES edges from the one that takes the request
 * to the one that decides it (the set and the request registered; the set's
 * tags read and compared), and a hit's answer one more (its data read): a
 * hit answers max(cfg_hit_cycles, CC_MIN_HIT) edges after its request. */
#define CC_LOOKUP_EDGES 2
#define CC_MIN_HIT (CC_LOOKUP_EDGES + 2)

typedef struct { CONTEXT_CACHE_PORTS(PORTS_FIELDS_IN) } context_cache_in_t;
typedef struct { CONTEXT_CACHE_PORTS(PORTS_FIELDS_OUT) } context_cache_out_t;
CONTEXT_CACHE_PORTS(PORTS_CHECK)

typedef struct {
    uint8_t valid, dirty, kind;
    uint32_t id, data;
} cc_entry_t;

typedef struct {
    uint8_t tag, write;
    uint32_t wdata;
} cc_waiter_t;

enum { CC_FREE = 0, CC_WAIT, CC_FILLED };

/* a request in the lookup pipeline */
typedef struct {
    uint8_t valid, kind, tag, write;
    uint32_t id, wdata;
} cc_lookup_t;

typedef struct {
    uint8_t state, sent, kind, dirty;
    uint32_t id, data;
    uint8_t n, head;
    cc_waiter_t w[CC_WAITERS];
} cc_mshr_t;

typedef struct {
    /* (the registers an edge always touches first, the records last) */
    uint32_t now;                   /* edges since reset */
    uint16_t lfsr;
    uint8_t m_used;                 /* miss registers not free (a count kept
                                       so that an edge with none skips them) */
    uint8_t f_head, f_n;
    /* the plan of the served miss register's install or eviction
       (docs/context_cache.md): taken from its set as the set stood before
       the edge it started, carried out CC_PLAN_EDGES edges later */
    uint8_t pl_on, pl_fm, pl_cnt;
    uint8_t pl_free, pl_fit;        /* a usable way is free; the record fits the bytes */
    uint8_t pl_fw, pl_victim;       /* the lowest free way; the tree's victim */
    /* the lookup pipeline: pa the request taken at the last edge, pb the one
       before it, decided at this edge */
    cc_lookup_t pa, pb;
    context_cache_out_t o;
    uint8_t hi[CC_MAX_SETS];        /* per set, one past its highest valid way
                                       (a lookup scans no further) */
    uint32_t used[CC_MAX_SETS];     /* bytes held per set */
    /* per set, the pseudo-LRU tree over CC_MAX_WAYS ways: bit n (1..127;
       node n's children are 2n and 2n + 1, way w is leaf 128 + w) set when
       the next victim lies under its right child */
    uint8_t plru[CC_MAX_SETS][CC_MAX_WAYS / 8];
    cc_mshr_t m[CC_MSHRS];
    struct {
        uint32_t due;
        uint8_t tag;
        uint32_t data;
    } fifo[CC_HIT_FIFO];            /* hits waiting for their answer edge */
    cc_entry_t e[CC_MAX_SETS][CC_MAX_WAYS];
} context_cache_state_t;

void context_cache_reset(context_cache_state_t *s);
void context_cache_step(context_cache_state_t *s, const context_cache_in_t *in,
                        context_cache_out_t *out);

/* Fast-forward (block.h): edges over which, with `in` held (no request, no
 * fill), no output can change: every miss register waits for memory with
 * its fetch sent, and the hits under way wait for their answer edge (the
 * edges before the first is due). Only the edge count (the LRU clock) and the
 * random generator move; advance applies n such edges. */
int64_t context_cache_quiet(const context_cache_state_t *s, const context_cache_in_t *in);
void context_cache_advance(context_cache_state_t *s, const context_cache_in_t *in, int n);

/* Hits answered without stepping. A harness that runs the cache only on the
 * edges it has work at may take a lookup that hits, in a cache with nothing
 * else under way, without stepping its edges: context_cache_hit applies at
 * once what the step of the edge that decides it does to the records and
 * the counts, and context_cache_resume later puts the registers where the
 * steps of those edges would have left them (but that a hit still in the
 * lookup pipeline waits among the decided ones, answered at the same edge),
 * before the cache is stepped again.
 *
 * clean: no miss register in use, nothing in the lookup pipeline, no hit
 * waiting for its answer edge, no fetch or write-back offered (an answer
 * given at the last edge may be up). */
int context_cache_clean(const context_cache_state_t *s);
/* A lookup of (kind, id), or a write of wdata to it, in a clean cache (or
 * one that has only taken such hits since): when the record is held, its
 * set's replacement tree, its data on a write and the hit count as the step
 * of its edge sets them (out->hits too), and 1 with the data its answer
 * carries; 0 and no change when it would miss. */
int context_cache_hit(context_cache_state_t *s, const context_cache_in_t *in, unsigned kind,
                      uint32_t id, int write, uint32_t wdata, uint32_t *data,
                      context_cache_out_t *out);
/* Whether the record (kind, id) is in the cache (valid in its set). */
int context_cache_holds(const context_cache_state_t *s, const context_cache_in_t *in, unsigned kind,
                        uint32_t id);
/* A hit whose answer is still to come: due is the edge count of its answer
 * edge. */
typedef struct {
    uint32_t due;
    uint8_t tag;
    uint32_t data;
} context_cache_pending_t;
/* The registers after n edges run since the last step, in which only hits
 * taken by context_cache_hit happened: the edge count and the random
 * generator move on by n, the hits still to answer wait in order; when
 * `answered`, the last answer given carried tag and data, and it is up
 * (rsp_valid) when it was given at the n-th edge. *out: the outputs. */
void context_cache_resume(context_cache_state_t *s, uint32_t n,
                          const context_cache_pending_t *pending, int n_pending, int answered,
                          uint8_t tag, uint32_t data, int up, context_cache_out_t *out);

/* Kind k's record bytes from cfg_rec_bytes (0 read as 1). */
static inline uint32_t context_cache_rec(const context_cache_in_t *in, unsigned k)
{
    uint32_t b = (uint32_t)(in->cfg_rec_bytes >> (11 * (k & 3))) & 0x7FF;
    return b ? b : 1;
}
/* The set of a record, for sets = 1 << log2: the low bits of the XOR of
 * the four 6-bit pieces of its id and its kind (an XOR-folding index hash:
 * each bit of it the parity of five key bits, one LUT in hardware). */
static inline uint32_t context_cache_set(unsigned kind, uint32_t id, unsigned log2)
{
    uint32_t h = (id ^ id >> 6 ^ id >> 12 ^ id >> 18 ^ (kind & 3)) & 63;
    return log2 ? h & ((1u << log2) - 1) : 0;
}

#ifdef __cplusplus
}
#endif

#endif
