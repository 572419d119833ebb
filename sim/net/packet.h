/* Packets as bytes on the wire: the header fields a send pipeline assigns,
 * laid out as the real protocols lay them out, a payload, and an integrity
 * checksum over everything before it.
 *
 * UB (docs/packets.md):
 *   RTPH  16 bytes, the reliable transport header, most significant bit
 *         first: Last | TPOpcode, TPVer | next layer, source TPN (3 bytes),
 *         destination TPN (3), ack request | error flag, PSN (3), response
 *         status | info, TPMSN (3);
 *   TAH   24 bytes, the transaction header of this model: TA opcode, mode |
 *         wire order, TASSN (2), source Jetty (3), reserved, token value (4),
 *         remote address (8), message length (4);
 *   payload, then a 4-byte CRC-32 over header and payload.
 * RoCE RC:
 *   BTH   12 bytes: opcode, flags, partition key (2), reserved, destination
 *         QP (3), ack request, PSN (3);
 *   RETH  16 bytes on a request that names remote memory (READ request,
 *         WRITE first/only): virtual address (8), rkey (4), DMA length (4);
 *   AETH  4 bytes on a read response or an acknowledgement: syndrome, MSN (3);
 *   payload, then a 4-byte CRC-32 (the invariant CRC's place).
 *
 * A decoder checks the length every packet of the protocol has, then the
 * checksum, then what the bytes say (the version, the headers the opcode
 * calls for), so a corrupted field is always a bad checksum. CRC-32 catches
 * every single flipped bit and every burst of up to 32; other patterns it
 * misses with a probability of about 2^-32. What the fields mean to a
 * receiver (its TPNs, the next PSN, the target segment) is checked by
 * sim/node/rx_check.h. */
#ifndef UB_PACKET_H
#define UB_PACKET_H

#include <stddef.h>
#include <stdint.h>

typedef enum { PKT_UB = 1, PKT_RC = 2 } pkt_proto_t;

#define PKT_UB_TAH_BYTES 24
#define PKT_RC_BTH_BYTES 12
#define PKT_RC_RETH_BYTES 16
#define PKT_RC_AETH_BYTES 4
#define PKT_CRC_BYTES 4

/* The fields of one packet. Fields a protocol does not carry are ignored
 * when encoding and zero after decoding. */
typedef struct {
    pkt_proto_t proto;
    /* transport: UB RTPH, RC BTH (+ AETH) */
    uint8_t last;        /* UB: last packet of its message */
    uint8_t tp_opcode;   /* UB: TPOpcode (7 bits); RC: BTH opcode */
    uint8_t ack_req;
    uint8_t err_flag;    /* UB */
    uint8_t rsp_status;  /* UB: response status (3 bits) and info (5 bits) */
    uint8_t rsp_info;
    uint32_t src_tpn;    /* UB */
    uint32_t dst_tpn;    /* UB: destination TPN; RC: destination QP */
    uint32_t psn;
    uint32_t tpmsn;      /* UB; RC: the AETH's MSN */
    uint8_t syndrome;    /* RC: the AETH's syndrome */
    uint16_t pkey;       /* RC: partition key (0xFFFF: the default partition) */
    /* transaction: UB TAH, RC RETH */
    uint8_t ta_opcode;   /* UB */
    uint8_t mode;        /* UB: service mode (3 bits) */
    uint8_t wire_order;  /* UB: {fence, place_order} (3 bits) */
    uint16_t tassn;      /* UB */
    uint32_t jetty;      /* UB: source Jetty (20 bits) */
    uint32_t token;      /* UB: token value; RC: rkey */
    uint64_t addr;       /* remote address */
    uint32_t len;        /* bytes the whole message moves */
    /* payload */
    uint32_t payload_len;
} pkt_hdr_t;

typedef enum {
    PKT_OK = 0,
    PKT_TRUNCATED,   /* shorter than its headers and checksum */
    PKT_BAD_CRC,     /* the checksum does not match */
    PKT_BAD_VERSION, /* UB: a TPVer this model does not speak */
    PKT_BAD_FIELD,   /* a field outside its width (encoding) */
} pkt_err_t;

const char *pkt_err_name(pkt_err_t e);

/* RC: whether a BTH opcode carries a RETH / an AETH. */
int pkt_rc_has_reth(uint8_t opcode);
int pkt_rc_has_aeth(uint8_t opcode);

/* Header bytes (without payload and checksum), and all the bytes. */
size_t pkt_header_bytes(const pkt_hdr_t *h);
size_t pkt_wire_bytes(const pkt_hdr_t *h);

/* Writes the packet (headers, h->payload_len bytes of payload, checksum) to
 * buf. Returns the bytes written; 0 when cap is too small or a field does
 * not fit its width (*err says which, if err is not NULL). */
size_t pkt_encode(const pkt_hdr_t *h, const uint8_t *payload, uint8_t *buf, size_t cap,
                  pkt_err_t *err);

/* Reads a packet of protocol `proto` from n bytes. On PKT_OK, *h holds its
 * fields and *payload (if not NULL) points at its payload inside buf. */
pkt_err_t pkt_decode(const uint8_t *buf, size_t n, pkt_proto_t proto, pkt_hdr_t *h,
                     const uint8_t **payload);

/* ---- UB transport acknowledgements ----
 *
 * TPACK: an RTPH alone (TPOpcode UB_TP_ACK; a NAK is a TPACK with response
 * status 0b011), its PSN the acknowledged base: every PSN before it was
 * received. TPSACK: an RTPH (TPOpcode UB_TP_SACK) followed by the
 * selective-ack extension SAETPH: the bitmap size code (byte 0, bits 2:0;
 * bits 7:3 reserved, 0), the highest PSN received (bytes 1-3), then the
 * bitmap of 64 << code bits, bit i (byte i / 8, bit i % 8: least significant
 * first) set when PSN base + i was received. Then the CRC-32, as on every
 * packet. The next-layer field of an acknowledgement's RTPH is 0 (none). */
#define PKT_UB_SAETPH_BYTES 4
#define PKT_UB_NAK_STATUS 3

typedef struct {
    uint8_t sack;          /* 1: TPSACK, 0: TPACK */
    uint8_t nak;           /* TPACK: a NAK (response status 0b011) */
    uint32_t src_tpn, dst_tpn;
    uint32_t psn;          /* the acknowledged base */
    uint32_t tpmsn;
    uint8_t code;          /* TPSACK: bitmap of 64 << code bits, code 0..4 */
    uint32_t hi_psn;       /* TPSACK: the highest PSN received */
    uint64_t bmap[16];     /* TPSACK: bits beyond 64 << code are 0 */
} pkt_ack_t;

/* All the bytes of an acknowledgement. */
size_t pkt_ack_bytes(const pkt_ack_t *a);
/* Writes it to buf; returns the bytes written, or 0 (*err says why: a field
 * too wide, a code above 4, no room). */
size_t pkt_ack_encode(const pkt_ack_t *a, uint8_t *buf, size_t cap, pkt_err_t *err);
/* Reads one: length, checksum, then version, opcode, reserved bits, code and
 * exact length (PKT_BAD_FIELD for a wrong opcode, code or reserved bit,
 * PKT_TRUNCATED for a length that is not the code's). */
pkt_err_t pkt_ack_decode(const uint8_t *buf, size_t n, pkt_ack_t *a);
/* The TPOpcode of a UB packet of n bytes whose checksum is right, or -1 (too
 * short, or a bad checksum): which decoder to use. */
int pkt_ub_opcode(const uint8_t *buf, size_t n);

#endif
