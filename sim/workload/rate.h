/* The rate scenario: bursts of reads through the UB and the RoCE RC send
 * pipelines, counted when each request's packet leaves the initiator's NIC
 * and again when the target executes it, with a conservation check
 * (posted = sent = executed = completed), and the throughput a finite number
 * of request slots allows: B_eff <= min(B_path, N*m/T0, m/delta), with T0 a
 * read's slot occupancy on an idle system, measured by a run of its own. */
#ifndef UB_RATE_H
#define UB_RATE_H

#include <stdint.h>
#include <stdio.h>

#include "block.h"
#include "config.h"
#include "fault.h"
#include "latency.h"
#include "wave.h"

#define RATE_HIST_MAX 64 /* intervals of 1..63 cycles, and 64 or more */

typedef struct {
    int64_t burst;     /* requests posted at time 0 */
    int64_t slots;     /* request slots (0: as many as the burst) */
    int64_t payload;   /* bytes per read */
    int jetties;       /* UB: Jetties the requests come from */
    uint64_t seed;
    backend_kind_t backend;
    int step_every_cycle;
    wave_t *wave;            /* C-model waveform, or NULL */
    const char *rtl_wave;    /* Verilator FST of the send pipeline, or NULL */
    const char *c_wave;      /* its C model's ports laid out alike, or NULL */
    const fault_spec_t *fault; /* faults on the wires, or NULL */
    int64_t timeout_ps;      /* with faults: when a read fails (0: the default) */
    const sim_engine_t *engine; /* split in nodes and run by it, or NULL */
    const tp_cfg_t *transport; /* the NICs' transport (latency.h), or NULL */
    FILE *report;            /* lockstep: where a mismatch is reported (NULL: stderr) */
} rate_opts_t;

typedef struct {
    int64_t burst, slots, payload;
    int64_t posted, sent, executed, completed;
    int conserved;           /* posted = sent = executed = completed = burst */
    double interval_ns;      /* median inter-departure interval */
    int64_t interval_cycles;
    double rate_per_us;      /* sent / (last departure - first request at the NIC) */
    double executed_per_us;  /* executed / (last execution - first request at the NIC) */
    int64_t hist[RATE_HIST_MAX + 1]; /* hist[c]: intervals of c cycles; [64]: >= 64 */
    /* concurrency limit: B_eff <= min(B_path, N*m/T, m/delta) */
    double slot_time_ns;     /* T: mean slot occupancy, post to completion */
    double idle_time_ns;     /* T0: the occupancy of one read on an idle system */
    double throughput_gbytes_per_s; /* completed * m / time of the last completion */
    double path_gbytes_per_s; /* B_path: payload rate of the wire carrying it */
    double slots_gbytes_per_s; /* N*m/T0 (with the loaded T it is Little's law,
                                  which the measured B_eff always meets) */
    double issue_gbytes_per_s; /* m/delta, delta = the departure interval measured on an
                                  unthrottled burst of 64 of the same reads */
    double delta_ns;
    double bound_gbytes_per_s; /* the smallest of the three */
    /* whether T (a read of the run completed) and T0 (the one read alone
     * completed: then N*m/T0 and the bound) are known; reported as '-' or
     * null if not */
    int t_known, t0_known;
    const char *binding;     /* which one it is */
    uint64_t edges_stepped, edges_spanned;
    uint64_t lockstep_mismatches;
    lat_faults_t fx;         /* with faults: errors, fault and check counts */
    int tp_on, tp_gbn;       /* the transport ran (as go-back-N) */
    path_tp_counts_t tp;
    lat_ctx_t ctx;           /* the context caches */
    int n_switches;          /* on a topology: what its switches did */
    lat_switch_t sw[LAT_MAX_SWITCHES];
} rate_result_t;

/* Runs one burst on one path (a path whose transmit pipeline ends in a send
 * pipeline block). Returns 0, or -1 with a message. A conservation failure is
 * not an error here: see r->conserved. */
int rate_run(const path_cfg_t *path, const rate_opts_t *o, rate_result_t *r, char *err,
             int errlen);

/* `ubsim rate ...` (argv[0] is "rate"). Returns the exit status. */
int cmd_rate(int argc, char **argv);

#endif
