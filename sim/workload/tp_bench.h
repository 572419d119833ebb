/* Two nodes joined by a faulty link, each with a transport block (C, RTL or
 * lockstep): node A sends messages, split into MTU packets, to node B over
 * the forward direction; B's acknowledgements come back over the reverse
 * direction. Both directions serialise each packet at the link rate, delay
 * it by the propagation time and apply the seeded faults of sim/net/fault.h
 * (loss, duplication, reordering, corruption, drop=DIR:K). Packets travel as
 * bytes (sim/net/packet.h): data packets with a UB RTPH, a TAH and their
 * payload, acknowledgements as TPACK or TPSACK; a corrupted packet fails the
 * receiver's checksum and never reaches its transport. A resend is encoded
 * again from the sender's descriptor (its payload re-read). Everything
 * is stepped at the NIC clock; nothing is decided outside the blocks but the
 * link.
 *
 * What B delivers is checked against what A submitted: on every channel, the
 * packets in the order they were submitted, each exactly once, each with the
 * content signature it was sent with. A message is deliverable when its last
 * packet is delivered. */
#ifndef UB_TP_BENCH_H
#define UB_TP_BENCH_H

#include <stdint.h>

#include "block.h"
#include "fault.h"

typedef struct {
    backend_kind_t backend;
    int gbn;                 /* go-back-N instead of selective ack */
    unsigned bmap_code;      /* bitmap of 64 << code bits */
    unsigned window;         /* packets in flight per channel */
    unsigned ooo_cap;        /* packets the receiver holds */
    uint64_t rto_ns;         /* first timeout */
    int backoff;             /* the timeout doubles per retry */
    unsigned retry_max;
    uint32_t mtu;            /* payload bytes per packet */
    uint64_t msg_bytes;      /* bytes per message (>= 1), unless a mix: */
    const uint64_t *mix;     /* message m has mix[m % n_mix] bytes (n_mix > 0) */
    int n_mix;
    uint64_t n_msgs;
    int channels;            /* messages go round-robin over 1..4 channels */
    double link_gbytes_per_s; /* link rate, GB/s */
    double link_ns;          /* propagation, each direction */
    double clock_mhz;        /* the NIC clock */
    double reread_ns;        /* a resend's payload is read from memory again:
                                it reaches the link this much later */
    fault_spec_t fault;
    uint64_t max_cycles;     /* 0: no limit (the run fails past it otherwise) */
    int progress;            /* print progress to stderr */
    const char *fst[2];      /* RTL and lockstep: Verilator FST of node A's and
                                node B's transport, or NULL */
    const char *c_fst[2];    /* C and lockstep: their C models' ports, laid
                                out as the RTL's FST (block_opts_t.c_fst_path),
                                or NULL */
} tpb_cfg_t;

void tpb_cfg_default(tpb_cfg_t *c);

typedef struct {
    uint64_t cycles;
    double ns;                   /* from the first packet sent to the last delivery */
    double deliverable_ns;       /* when the last message became deliverable */
    uint64_t msgs_done, msgs_failed;
    uint64_t bytes_delivered;
    uint64_t pkts_sent, pkts_resent, bytes_resent;
    uint64_t acks_sent, sacks_sent, naks_sent, timeouts;
    uint64_t verdict[5];         /* B's transport, by tp_verdict_t */
    uint64_t crc_drops[2];       /* corrupted packets refused, forward / back */
    uint64_t malformed[2];       /* a good checksum but fields that make no sense */
    uint64_t wrong_tpn[2];       /* a TPN that is not one of the receiver's */
    uint64_t lost[2], duplicated[2], reordered[2];
    uint64_t buffered_bytes_peak;/* payload B held beyond a gap */
    double goodput_gbytes_per_s; /* bytes delivered / ns */
    double mean_ns, p50_ns, p99_ns; /* message time: first packet sent to deliverable */
    uint64_t mismatches;         /* lockstep */
} tpb_result_t;

/* Runs the bench. Returns 0, or -1 with a message: a configuration out of
 * range, a delivery that differs from what was sent (order, a duplicate, a
 * loss, its content), a run that did not finish within max_cycles, a
 * lockstep mismatch. */
int tpb_run(const tpb_cfg_t *cfg, tpb_result_t *res, char *err, int errlen);

#endif
