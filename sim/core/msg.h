/* Typed messages: what travels through a channel.
 *
 * Every message belongs to one request (`id`, the initiator's request slot,
 * and `op`, the request's number) and carries the time from which its
 * consumer may see it. What else it carries depends on its kind: a request
 * record (length, Jetty, address derived from the op), a packet with the
 * header fields the send pipeline assigned (PSN, TPN, TASSN), a memory
 * access, or a completion record. */
#ifndef UB_MSG_H
#define UB_MSG_H

#include <stdint.h>

#include "timebase.h"

typedef enum {
    MSG_REQUEST = 1,   /* a work request on its way to the NIC */
    MSG_PACKET,        /* a packet on the wire or in a NIC */
    MSG_MEM,           /* a memory access at the target */
    MSG_COMPLETION,    /* a completion record on its way to the host */
    MSG_TPACK,         /* a transport's acknowledgement on the wire: `data`
                          its bytes (a TPACK or TPSACK, or RoCE's
                          ACKNOWLEDGE: sim/net/tp_port.c), `len` its bytes
                          on the wire, `id` its number at its sender */
} msg_kind_t;

typedef struct {
    tick_t t;          /* the consumer may take it from this time on */
    uint64_t op;       /* request number */
    uint32_t id;       /* request id while in flight (the request slot) */
    uint32_t len;      /* bytes the request moves */
    uint32_t jetty;    /* the Jetty (UB) the request was posted on */
    uint32_t psn;      /* packet: packet sequence number (24 bits) */
    uint32_t tpn;      /* packet: destination transport channel number (24 bits) */
    uint32_t more;     /* inside a channel: this entry stands for 1 + more
                          messages alike but for consecutive id and op
                          (a burst costs one entry); 0 everywhere else */
    uint32_t bytes;    /* packet: bytes on the wire (0: not known here) */
    uint32_t data;     /* the bytes it carries (payload.h), or 0 */
    uint32_t seg_len;  /* packet: its payload bytes when its request is split
                          into MTU-sized packets; 0: the request's len */
    uint16_t tassn;    /* packet: transaction sequence number */
    uint16_t dst;      /* packet: the destination node (switches route by it) */
    uint16_t src;      /* packet: the node that sent it */
    uint8_t kind;      /* msg_kind_t */
    uint8_t last;      /* packet: last of its message */
    uint8_t flags;     /* packet: MSG_CORRUPT, MSG_COPY, MSG_NAK */
    uint8_t opc;       /* the request's operation: MSG_OP_READ, _WRITE, _SEND */
    uint8_t ord;       /* its ordering: mode << 3 | fence << 2 | order (mode 0:
                          ROT), for the send pipeline's order tracker */
} msg_t;

enum {
    MSG_CORRUPT = 1, /* bits were flipped on a link: the receiver's checksum fails */
    MSG_COPY = 2,    /* a link's duplicate: it records no probes until a
                        receiver accepts it (only if the original was refused) */
    MSG_NAK = 4,     /* a response: the target refused the request (access) */
    MSG_SEG = 8,     /* a packet of a multi-packet message, not its last: it
                        records no probes, carries no bytes (its last does)
                        and ends at the receiving NIC, which counts it */
    MSG_NOT_FIRST = 16, /* a packet of a multi-packet message, not its first:
                        the sending NIC's probe is its first packet's (the
                        wire and what follows probe its last) */
    MSG_QUIET = 32,  /* records no probes on a wire, in a switch or at a
                        channel: a transport's resend (its first
                        transmission did) or an acknowledgement */
};

/* What a request does at the target. A read's response carries its data;
 * a write's or a send's request does. */
enum { MSG_OP_READ = 0, MSG_OP_WRITE = 1, MSG_OP_SEND = 2 };

#endif
