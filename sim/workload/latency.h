/* The read scenario: remote reads walking a path, built as a netlist of
 * components and channels (sim/net/path_net.h) between a host that posts
 * reads and takes their completions.
 *
 * At most `slots` reads are in flight: the host posts a read when a slot is
 * free, and the read holds it until its completion comes back. slots = 1
 * gives dependent reads back to back (`ubsim latency`); a larger value gives
 * a burst (`ubsim rate`).
 *
 * The breakdown is measured from probe records only: every part of the path
 * records when a read leaves it (and a NIC when the read waited for its clock
 * edge, a wire when the packet was serialised), and the rows are the
 * differences between consecutive records of the same read. Waiting for a
 * NIC clock edge and putting a packet on the wire are rows of their own.
 * Totals go into an exact streaming histogram; departures from the
 * initiator's NIC into a histogram of intervals.
 */
#ifndef UB_LATENCY_H
#define UB_LATENCY_H

#include <stdint.h>
#include <stdio.h>

#include "block.h"
#include "config.h"
#include "engine.h"
#include "fault.h"
#include "path_net.h"
#include "hist.h"
#include "rx_check.h"
#include "timebase.h"
#include "wave.h"

typedef struct {
    int64_t ops;           /* reads in all (>= 1) */
    int64_t slots;         /* reads in flight at most (>= 1; 0 means 1) */
    int64_t payload;       /* bytes per read: replaces each wire stage's
                              payload_bytes and is the request length; 0 (or
                              less) = as configured */
    int jetties;           /* UB: requests spread over this many Jetties
                              (0 means 1), chosen by a hash of the op number
                              and `seed` */
    uint64_t seed;
    backend_kind_t backend; /* for the modelled blocks */
    const sim_engine_t *engine; /* runs the path split in its two nodes
                              (engine.h), or NULL: one kernel */
    const block_class_t *tx_class; /* replaces the built-in class of the
                                      path's tx_block (same ports), or NULL */
    const char *rtl_wave;  /* Verilator FST of the initiator's transmit block
                              (RTL or lockstep backends), or NULL */
    const char *c_wave;    /* the C model's ports of that block, laid out as
                              the RTL's FST (C or lockstep backends;
                              block_opts_t.c_fst_path), or NULL */
    const char *block_scope; /* waveform scope of the initiator's transmit
                                block's ports, or NULL for
                                "<path>.nodeA.nic_tx.<block>" */
    int step_every_cycle;  /* 1: step every NIC cycle; 0: skip idle cycles */
    int in_time_order;     /* 1: every part waits for its times, no chains
                              run ahead (as with a waveform; same results) */
    const fault_spec_t *fault; /* faults on the wires, or NULL. With faults,
                              or a path through a switch (which drops what
                              its buffer cannot hold), a read with no
                              completion within timeout_ps ends in an error,
                              and each read has an id of its own */
    int64_t timeout_ps;    /* 0: LAT_TIMEOUT_PS */
    const tp_cfg_t *transport; /* the NICs' transport (each wire between
                              two transports that resend what is lost), or
                              NULL: none. Adds the rows transport.tx.<wire>
                              (to the wire) and transport.rx.<wire> (held,
                              to the NIC in order) */
    int no_percentiles;    /* 1: no per-op totals (min, max, p50, p99 are 0):
                              a burst of millions then needs 8 bytes per read
                              in flight and nothing per distinct total */
    wave_t *wave;          /* waveform, or NULL */
    uint64_t wave_offset_ps; /* where this path starts in the waveform */
    /* called now and then on long runs (may be NULL) */
    void (*progress)(void *ctx, const char *path, int64_t done, int64_t total);
    void *progress_ctx;
    /* lockstep: where a mismatch is reported (NULL: stderr), and a name that
     * sets this simulation's mismatch waveforms apart from those of the
     * others of the same path (NULL: none; <path>_<tag>_..._mismatch.vcd) */
    FILE *report;
    const char *sim_tag;
} latency_opts_t;

#define LAT_MAX_ROWS (CFG_MAX_STAGES * 4)
#define LAT_MAX_SWITCHES 16
#define LAT_TIMEOUT_PS 1000000000 /* 1 ms: with faults, a read with no completion by then fails */
#define LAT_DEP_HIST 64 /* departure intervals of 0..63 cycles, and 64 or more */

/* What the context caches did in a run (their warming left out). */
typedef struct {
    int on;                  /* the path's pipelines looked contexts up */
    uint64_t hits, misses, merged, evictions;
    uint64_t held_cycles;    /* edges a pipeline held a request for its contexts */
} lat_ctx_t;

typedef struct {
    char name[CFG_NAME_LEN + 16];
    char label[CFG_TEXT_LEN + 32];
    category_t category;
    int derived;      /* 1: a physical effect not in the configured table */
    int stage;        /* index of the configured stage it belongs to */
    tick_t calc;      /* configured value (0 for derived rows) */
    tick_t sim_sum;   /* measured value summed over all ops (exact while it
                         fits in 63 bits; then the largest tick_t) */
    double sim_sum_f; /* the same sum, from a 128-bit count (for means) */
    int64_t n;        /* with faults: the reads whose mean the row is */
    int64_t reached;  /* ... of them, those that recorded it (fewer where a
                         resend or a duplicate was kept, which record nothing
                         on the links and switches they pass: the time goes
                         to the run's last link) */
} lat_row_t;

/* What faults did to a run, and what the receivers made of it. */
typedef struct {
    int on;                  /* faults were asked for (--fault) */
    int64_t timeout_ps;      /* a read with no completion by then failed */
    int64_t completed, errors; /* reads that completed, that ended in an error */
    int64_t stale;           /* completions that came after their read's timeout */
    int64_t unchecked;       /* corrupted or duplicate packets refused where no
                                receive checks run (the host, or a NIC pipeline
                                of a path without send pipelines) */
    /* receive checks by reason (rx_check.h) at the initiator [0] and the
     * target [1]; rx_checked[k] is 0 where nothing is checked */
    int rx_checked[2];
    uint64_t rx_counts[2][RX_N_REASONS];
    /* what the wires did in each direction, FAULT_FWD and FAULT_BACK
     * (faulted[d] is 0 where no faulty wire goes that way) */
    int faulted[2];
    fault_link_t faults[2];
} lat_faults_t;

/* What a switch on the path did. */
typedef struct {
    char name[32];
    uint64_t received, forwarded, dropped, unroutable;
    int64_t peak_queue_bytes;  /* the fullest output queue, at its fullest */
} lat_switch_t;

typedef struct {
    timebase_t tb;
    int n_rows;
    lat_row_t rows[LAT_MAX_ROWS];
    int64_t ops;
    tick_t calc_total;   /* sum of the configured rows */
    tick_t sim_sum;      /* sum over ops of each op's measured total (post to
                            completion: the slot occupancy); exact while it
                            fits in 63 bits, then the largest tick_t */
    double sim_sum_f;    /* the same sum, from a 128-bit count (for means) */
    tick_t min, max, p50, p99; /* per-op measured totals */
    tick_t end_time;     /* when the last op completed */
    uint64_t edges_stepped;  /* clock edges the components ran (a cost) */
    uint64_t edges_spanned;  /* NIC clock edges of simulated time */
    /* conservation: each read is posted, its request packet is sent (leaves
     * the initiator's transmit pipeline), executed (leaves the target's
     * receive pipeline), and completed (its last stage ends) */
    int64_t posted, sent, executed, completed;
    tick_t first_at_nic;  /* first request reaching the initiator's tx pipeline */
    tick_t last_executed_at; /* the last request leaving the target's rx pipeline */
    tick_t last_sent_at;  /* the last departure from the initiator's NIC */
    int64_t dep_hist[LAT_DEP_HIST + 1]; /* intervals between departures, cycles */
    int64_t dep_longest;  /* the longest interval, cycles */
    uint64_t lockstep_mismatches;
    int64_t errors, stale;   /* with faults (see lat_faults_t) */
    int64_t host_refused;    /* corrupted or duplicate packets that reached the
                                host (a path with no receive pipeline) */
    int64_t bytes_checked;   /* completed reads whose bytes the initiator
                                compared with the target's memory */
    lat_faults_t fx;
    lat_ctx_t ctx;           /* the context caches */
    int tp_on;               /* the transport ran */
    int tp_gbn;              /* ... as go-back-N */
    path_tp_counts_t tp;     /* what it did */
    int n_switches;          /* on a topology: the switches the path crosses */
    lat_switch_t sw[LAT_MAX_SWITCHES];
} latency_result_t;

/* A simulation in three steps, so that several paths can declare their
 * waveform signals before any of them runs: create (declares the signals when
 * opts->wave is set), simulate, destroy. `opts` and `res` must outlive it. */
typedef struct latency_sim latency_sim_t;
latency_sim_t *latency_create(const path_cfg_t *path, const latency_opts_t *opts,
                              latency_result_t *res, char *err, int errlen);
int latency_simulate(latency_sim_t *sim); /* returns as latency_run */
void latency_destroy(latency_sim_t *sim);

/* Runs the path (create, simulate, destroy). Returns 0; -1 with a message
 * (out of memory, a lockstep mismatch, a packet that is not in flight where
 * it appears); or -2 with a message when the simulation ran dry before every
 * read completed (requests were lost: the counts in `res` say where). */
int latency_run(const path_cfg_t *path, const latency_opts_t *opts, latency_result_t *res,
                char *err, int errlen);
/* Frees what a result owns (nothing today; kept for callers). */
void latency_result_free(latency_result_t *res);

/* Mean of a row or of the total over all ops, in ns. */
double lat_row_sim_ns(const latency_result_t *r, int row);
double lat_sim_total_ns(const latency_result_t *r);

#endif
