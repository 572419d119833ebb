/* ubsim cache: the context cache's cliff, simulated. Two NICs, each with a
 * context cache (cmodel/context_cache.c) in front of host memory; reads go
 * both ways between N local and M remote endpoints, so each NIC holds the
 * records of its own endpoints and of its connections as the state formulas
 * count them (sim/workload/state.h):
 *   UB        the initiator reads its Jetty (20 B) and writes the channel to
 *             the target's host (56 B, its PSN); the target reads the
 *             segment (32 B) and writes its channel back to the initiator;
 *   pcie_nic  the initiator writes the queue pair of the connection (512 B);
 *             the target writes its end of it and reads the segment (32 B).
 * A side issues its lookups back to back; a miss fetches the record from
 * memory (miss_ns: a PCIe DMA read for the PCIe NIC, the on-chip bus and local
 * memory for UB) and the side waits for the last answer. A read's latency is
 * the path's measured latency (every context a hit, from the latency
 * simulation) plus the cycles both sides waited beyond an all-hit lookup. */
#ifndef UB_CACHE_BENCH_H
#define UB_CACHE_BENCH_H

#include <stdint.h>

#include "block.h"
#include "hist.h"

typedef enum { CB_UB = 0, CB_PCIE = 1 } cb_stack_t;

typedef struct {
    backend_kind_t backend;  /* the caches' backend: C, RTL or lockstep */
    cb_stack_t stack;
    uint64_t n, m;           /* local and remote endpoints */
    uint32_t capacity;       /* bytes */
    unsigned sets_log2, ways;
    int random;              /* replacement: 0 pseudo-LRU, 1 random */
    uint16_t seed;
    unsigned hit_cycles;
    uint32_t rec[4];         /* Jetty, segment, channel, queue pair: bytes */
    double miss_ns;          /* a record's fetch */
    double base_ns;          /* the read's latency with every context a hit */
    double clock_mhz;
    uint64_t reads;          /* measured, after the warm-up */
    uint64_t warm;           /* reads that warm the caches first; 0: eight per
                                record a NIC holds, at least `reads`, at most
                                50 x `reads` */
    double zipf;             /* 0: uniform; s > 0: endpoints drawn Zipf(s) */
    uint64_t stream_seed;
    const char *wave;        /* the first NIC's cache RTL traced here (FST),
                                or NULL */
} cb_cfg_t;

typedef struct {
    uint64_t warm;               /* the warm-up reads run */
    uint64_t lookups, hits, misses;
    double hit_rate;
    double mean_ns, p50_ns, p99_ns;
    double waited_ns_per_read;   /* mean wait beyond an all-hit lookup */
    uint64_t mismatches;         /* lockstep */
} cb_result_t;

/* Returns 0, or -1 with a message (a bad configuration, out of memory). */
int cb_run(const cb_cfg_t *c, cb_result_t *r, char *err, int errlen);

int cmd_cache(int argc, char **argv);

#endif
