/* Ports of the context cache: the one list behind context_cache_in_t /
 * _out_t and the block class's port tables. X(dir, name, width, ctype): see
 * block_ports.h. docs/context_cache.md has the rules. */
#ifndef CONTEXT_CACHE_PORTS_H
#define CONTEXT_CACHE_PORTS_H

#define CONTEXT_CACHE_PORTS(X)                                                  \
    /* configuration: static while the cache holds anything */                 \
    X(IN, cfg_capacity, 32, uint32_t)   /* bytes */                            \
    X(IN, cfg_sets_log2, 3, uint8_t)    /* 1 << n sets, n 0..6 */              \
    X(IN, cfg_ways, 8, uint8_t)         /* records per set at most, 1..128 */  \
    X(IN, cfg_rec_bytes, 44, uint64_t)  /* kind k's record: bits 11k.., 1..1024 */ \
    X(IN, cfg_random, 1, uint8_t)       /* replacement: 0 LRU, 1 random */     \
    X(IN, cfg_seed, 16, uint16_t)       /* the random replacement's seed */    \
    X(IN, cfg_hit_cycles, 4, uint8_t)   /* a hit answers this many edges      \
                                           after the request (1..15) */        \
    /* a request: read (or write) the record (kind, id) */                      \
    X(IN, rq_valid, 1, uint8_t)                                                 \
    X(IN, rq_kind, 2, uint8_t)                                                  \
    X(IN, rq_id, 24, uint32_t)                                                  \
    X(IN, rq_tag, 8, uint8_t)           /* the requester's, given back */      \
    X(IN, rq_write, 1, uint8_t)         /* write rq_wdata into the record */   \
    X(IN, rq_wdata, 32, uint32_t)                                               \
    /* a record arriving from memory (the answer to mreq; always taken) */      \
    X(IN, fill_valid, 1, uint8_t)                                               \
    X(IN, fill_tag, 3, uint8_t)         /* the mreq_tag of its fetch */        \
    X(IN, fill_data, 32, uint32_t)                                              \
    X(IN, mreq_ready, 1, uint8_t)       /* memory takes mreq this edge */      \
    X(OUT, rq_ready, 1, uint8_t)                                                \
    /* the answer to a request: the record's data (after its write) */          \
    X(OUT, rsp_valid, 1, uint8_t)                                               \
    X(OUT, rsp_tag, 8, uint8_t)                                                 \
    X(OUT, rsp_data, 32, uint32_t)                                              \
    X(OUT, rsp_hit, 1, uint8_t)                                                 \
    /* a fetch from memory (a miss) */                                          \
    X(OUT, mreq_valid, 1, uint8_t)                                              \
    X(OUT, mreq_kind, 2, uint8_t)                                               \
    X(OUT, mreq_id, 24, uint32_t)                                               \
    X(OUT, mreq_bytes, 11, uint16_t)                                            \
    X(OUT, mreq_tag, 3, uint8_t)        /* the miss register: the fill's tag */\
    /* a record evicted: written back to memory if dirty (wb_valid; always   \
     * taken); the other fields show every evicted record */                  \
    X(OUT, wb_valid, 1, uint8_t)                                                \
    X(OUT, wb_kind, 2, uint8_t)                                                 \
    X(OUT, wb_id, 24, uint32_t)                                                 \
    X(OUT, wb_data, 32, uint32_t)                                               \
    X(OUT, wb_bytes, 11, uint16_t)                                              \
    /* counts since reset */                                                    \
    X(OUT, hits, 32, uint32_t)                                                  \
    X(OUT, misses, 32, uint32_t)        /* requests that found no record */    \
    X(OUT, merged, 32, uint32_t)        /* ... of them, joined a fetch under  \
                                           way */                              \
    X(OUT, evictions, 32, uint32_t)                                             \
    X(OUT, busy, 1, uint8_t)

#endif
