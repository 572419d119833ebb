/* The checks a receive pipeline makes on every packet before anything is
 * executed, and their counts by reason.
 *
 * In order (the first that fails is the reason; docs/packets.md):
 *   1. long enough for its protocol, then the integrity checksum over
 *      header and payload, then what the bytes say (version, headers); a
 *      corrupted bit is a bad checksum (packet.h says what CRC-32 catches);
 *   2. the destination TPN (RoCE: destination QP) is one of this node's;
 *   3. a data packet's PSN is the next expected on that channel (a RoCE READ
 *      request uses one PSN for each packet of its response): one behind
 *      it was received already (a duplicate), one ahead of it means an
 *      earlier packet is missing (a gap); acknowledgements are left to the
 *      transport;
 *   4. a UB request's TASSN is not behind its Jetty's last transaction (a
 *      sender numbers a Jetty's transactions whatever their target, so gaps
 *      are allowed);
 *   5. a request that names remote memory: its token (RoCE: rkey), its
 *      range inside one segment, and the access the segment grants.
 * Checks 1-3 are the transport's: a packet failing them changes no state.
 * Checks 4-5 are the transaction's: the packet arrived in sequence, so its
 * PSN (and TASSN) are used up, but it is refused and never executed.
 * Nothing is dropped without a count. */
#ifndef UB_RX_CHECK_H
#define UB_RX_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "packet.h"

typedef enum {
    RX_OK = 0,
    RX_MALFORMED,     /* truncated, or a version this model does not speak */
    RX_BAD_CHECKSUM,
    RX_WRONG_TPN,     /* destination TPN (RoCE: QP) not this node's */
    RX_PSN_DUPLICATE, /* behind the next expected PSN */
    RX_PSN_GAP,       /* ahead of it */
    RX_TASSN,         /* behind the Jetty's last transaction */
    RX_BAD_TOKEN,
    RX_OUT_OF_SEGMENT,
    RX_NO_ACCESS,
    RX_N_REASONS
} rx_reason_t;

const char *rx_reason_name(rx_reason_t r);

typedef struct {
    pkt_proto_t proto;
    uint32_t tpn_base, n_tpn;  /* this node's TPNs (RoCE: QPs): [base, base + n) */
    uint32_t psn_init;         /* the first PSN of every channel */
    unsigned tassn_ctx;        /* the sender keeps a TASSN per Jetty modulo
                                  this (a power of two); 0: no TASSN check */
    const node_mem_t *mem;     /* the node's memory (NULL: no memory checks) */
    uint32_t mtu;              /* RoCE: a READ request uses one PSN per MTU of
                                  its response (0: 4096) */
    uint32_t n_src;            /* senders it keeps channel state apart for (a
                                  channel is a TPN of one sender; 0 means 1);
                                  a packet from node s uses set s % n_src */
    int acks_numbered;         /* RoCE responses: the responder numbers its
                                  acknowledgements in the same sequence as its
                                  read responses (as the simulated one does),
                                  so they are checked too */
} rx_cfg_t;

typedef struct {
    rx_cfg_t cfg;
    uint32_t *expect_psn;      /* per TPN */
    uint16_t *expect_tassn;    /* per TPN and TASSN context */
    uint64_t count[RX_N_REASONS];
} rx_checker_t;

/* Returns 0, or -1 with a message (bad configuration, out of memory). */
int rx_init(rx_checker_t *c, const rx_cfg_t *cfg, char *err, int errlen);
void rx_free(rx_checker_t *c);
/* Checks n bytes, counts the verdict and returns it; on RX_OK and on the
 * transaction refusals (checks 4-5) *h holds the fields and *payload (if
 * not NULL) the payload. */
rx_reason_t rx_check(rx_checker_t *c, const uint8_t *bytes, size_t n, pkt_hdr_t *h,
                     const uint8_t **payload);
/* The same for a packet whose fields are known already (a simulation that
 * carries header fields rather than bytes): checks 2-5, or a bad checksum
 * when checksum_ok is 0 (the packet was corrupted on its way). */
rx_reason_t rx_check_fields(rx_checker_t *c, const pkt_hdr_t *h, int checksum_ok);
/* The same for a packet from node `src` (its channels kept apart). */
rx_reason_t rx_check_fields_from(rx_checker_t *c, const pkt_hdr_t *h, int checksum_ok, uint32_t src);

#endif
