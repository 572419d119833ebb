/* Incast: N initiators write to (or read from) one target through a switch,
 * each keeping a window of requests in flight, all at once.
 *
 * The netlist joins, at one switch, every sender's own part of the read path
 * (its host, its transmit pipeline and its link into the switch; its link
 * out of the switch, its receive pipeline and host) with the target's part,
 * which they share (the link into the target, its receive pipeline and
 * memory, its transmit pipeline and the link back). A switch port's output
 * queue holds what its link cannot take yet; a packet that does not fit in
 * its buffer is dropped and counted, and its request ends in an error after
 * the timeout (the transport does not resend yet). Every request is written
 * against the verbs; each sender writes its own region of one segment of the
 * target, and at the end the target's memory is compared with what the
 * senders' successful writes put there. */
#ifndef UB_INCAST_H
#define UB_INCAST_H

#include <stdint.h>

#include "block.h"
#include "config.h"
#include "fault.h"
#include "latency.h"
#include "topo_file.h"

/* the target keeps a transport channel (UB) or queue-pair context (RoCE)
 * per requester: 16 of them */
#define INCAST_MAX_SENDERS 16

typedef struct {
    int64_t payload;           /* bytes per request (>= 1) */
    int64_t ops;               /* requests per sender (>= 1) */
    int window;                /* requests in flight per sender (>= 1) */
    int write;                 /* 1: writes; 0: reads */
    backend_kind_t backend;
    const fault_spec_t *fault;
    int64_t timeout_ps;        /* a request's deadline (0: LAT_TIMEOUT_PS) */
    int in_time_order;
    int step_every_cycle;      /* 1: step every NIC cycle (same results) */
    /* called now and then on long runs (may be NULL) */
    void (*progress)(void *ctx, int64_t done, int64_t total);
    void *progress_ctx;
} incast_opts_t;

typedef struct {
    char node[TOPO_NAME_LEN];
    int64_t completed, errors;
    double goodput_gbytes_per_s; /* payload of its successful requests over the
                                    time from its first post to its last completion */
    double mean_ns;            /* mean time from post to completion of those */
} incast_sender_t;

typedef struct {
    int n;
    incast_sender_t s[INCAST_MAX_SENDERS];
    char target[TOPO_NAME_LEN];
    lat_switch_t sw;           /* the switch they meet at */
    int64_t executed;          /* requests the target executed */
    int64_t bytes_checked;     /* bytes of the target's memory (writes) or of
                                  the read buffers (reads) compared */
    uint64_t rx_target[RX_N_REASONS];     /* receive checks at the target */
    uint64_t rx_initiators[RX_N_REASONS]; /* at the senders, added up */
    fault_link_t faults[2];    /* the wires' faults, forward and back, added up */
    int faulted;
    double end_ns;
    double goodput_gbytes_per_s; /* all senders */
    uint64_t lockstep_mismatches;
} incast_result_t;

/* Runs incast on `path` laid over topology tf: senders[0..n) write to (or
 * read from) node `target`; every sender and the target must hang off one
 * switch. Returns 0, or -1 with a message. */
int incast_run(const path_cfg_t *path, const topo_file_t *tf, int target, const int *senders,
               int n, const incast_opts_t *o, incast_result_t *r, char *err, int errlen);
/* Whether incast can run on `path` from senders[0..n) to node `target` of
 * tf: the path has a send pipeline, every sender reaches the target through
 * one and the same switch, and the senders can share the target (each needs
 * a channel of its own in the target's send pipeline). 0, or -1 with a
 * message; every mistake incast_run refuses before it simulates. */
int incast_check(const path_cfg_t *path, const topo_file_t *tf, int target, const int *senders,
                 int n, char *err, int errlen);
/* A star: n senders s0..s(n-1) and a target T on one switch S of n + 1
 * ports (256 KiB per port, 10 cycles at 500 MHz, store-and-forward), links of
 * 50 GB/s and 100 ns, each named after its node (s0.., T) and indexed in
 * that order. Returns 0, or -1 with a message. */
int incast_default_topology(topo_file_t *tf, int n, char *err, int errlen);
/* `ubsim incast` */
int cmd_incast(int argc, char **argv);

#endif
