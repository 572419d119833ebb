/* UB / URMA wire constants shared by the C model, the shims and the tests.
 *
 * Names and values follow the public URMA (openEuler UMDK) headers as
 * summarised in WIRE.md. Everything here is a plain constant or a tiny
 * inline helper; no state. */
#ifndef UB_WIRE_H
#define UB_WIRE_H

#include <stdint.h>

/* --- identifier widths (bits) ------------------------------------------- */
#define UB_TPN_BITS    24
#define UB_PSN_BITS    24
#define UB_TPMSN_BITS  24
#define UB_TASSN_BITS  16
#define UB_JETTY_BITS  20
#define UB_TOKENID_BITS 20
#define UB_TOKEN_BITS  32
#define UB_CEID_BITS   20 /* compact EID */
#define UB_PRIO_BITS   4

#define UB_TPN_MASK    0xFFFFFFu
#define UB_PSN_MASK    0xFFFFFFu
#define UB_PSN_MOD     0x1000000u
#define UB_TPMSN_MASK  0xFFFFFFu
#define UB_TASSN_MASK  0xFFFFu
#define UB_JETTY_MASK  0xFFFFFu
#define UB_CEID_MASK   0xFFFFFu

/* --- transaction layer: service modes (urma transport mode values) ------ */
typedef enum {
    URMA_OT = 1, /* ROT: reliable, ordering enforced at the target          */
    URMA_OI = 2, /* ROI: reliable, ordering enforced at the initiator       */
    URMA_OL = 3, /* ROL: reliable, TA ack fused into the transport ack      */
    URMA_NO = 4  /* UNO: unreliable, no ordering                            */
} ub_mode_t;

/* Execution order requested by a work request (place_order, 2 bits). */
typedef enum { UB_ORDER_NO = 0, UB_ORDER_RO = 1, UB_ORDER_SO = 2 } ub_order_t;

/* The 3-bit wire order field of the transaction header as this model packs
 * it: bits 1:0 place_order (NO/RO/SO), bit 2 fence. comp_order is an
 * initiator-side completion option and is not put on the wire. */
#define UB_WIRE_ORDER_FENCE 0x4u
static inline uint8_t ub_wire_order(unsigned place_order, unsigned fence)
{
    return (uint8_t)(((fence & 1u) << 2) | (place_order & 3u));
}

/* --- transaction opcodes -------------------------------------------------- */
typedef enum {
    UB_TA_SEND           = 0x00,
    UB_TA_SEND_IMM       = 0x01,
    UB_TA_SEND_INV       = 0x02,
    UB_TA_WRITE          = 0x03,
    UB_TA_WRITE_IMM      = 0x04,
    UB_TA_WRITE_NOTIFY   = 0x05,
    UB_TA_READ           = 0x06,
    UB_TA_CAS            = 0x07,
    UB_TA_SWAP           = 0x08,
    UB_TA_ATOMIC_STORE   = 0x09,
    UB_TA_ATOMIC_LOAD    = 0x0A,
    UB_TA_FETCH_ADD      = 0x0B,
    UB_TA_FETCH_SUB      = 0x0C,
    UB_TA_FETCH_AND      = 0x0D,
    UB_TA_FETCH_OR       = 0x0E,
    UB_TA_FETCH_XOR      = 0x0F,
    UB_TA_TAACK          = 0x11,
    UB_TA_READ_RESP      = 0x12,
    UB_TA_ATOMIC_RESP    = 0x13
} ub_ta_opcode_t;

/* --- transport layer: RTPH TPOpcode (7 bits) ------------------------------ */
typedef enum {
    UB_TP_UNRELIABLE = 0x0, /* UTP data (UNO)          */
    UB_TP_RELIABLE   = 0x1, /* RTP data (ROI/ROT/ROL)  */
    UB_TP_ACK        = 0x2, /* NAK: ACK with rsp status 0b011 */
    UB_TP_ACK_CC     = 0x3,
    UB_TP_SACK       = 0x5,
    UB_TP_SACK_CC    = 0x6,
    UB_TP_CNP        = 0x8
} ub_tp_opcode_t;

#define UB_RSP_STATUS_NAK 0x3u
#define UB_RTPH_BYTES 16

/* Completion status values (URMA names). */
typedef enum {
    UB_CR_SUCCESS = 0,
    UB_CR_LOC_LEN_ERR = 2,
    UB_CR_LOC_ACCESS_ERR = 4,
    UB_CR_REM_ACCESS_ABORT_ERR = 8,
    UB_CR_ACK_TIMEOUT_ERR = 9,
    UB_CR_WR_FLUSH_ERR = 11
} ub_cr_status_t;

static inline int ub_mode_reliable(unsigned mode)
{
    return mode == URMA_OT || mode == URMA_OI || mode == URMA_OL;
}

/* --- PSN arithmetic modulo 2^24 ------------------------------------------ */
static inline uint32_t ub_psn_add(uint32_t psn, uint32_t n)
{
    return (psn + n) & UB_PSN_MASK;
}
/* Signed distance b - a in (-2^23, 2^23]. */
static inline int32_t ub_psn_diff(uint32_t b, uint32_t a)
{
    uint32_t d = (b - a) & UB_PSN_MASK;
    return d >= 0x800000u ? (int32_t)d - (int32_t)UB_PSN_MOD : (int32_t)d;
}
/* a before b (serial-number comparison over half the space). */
static inline int ub_psn_lt(uint32_t a, uint32_t b)
{
    return ub_psn_diff(b, a) > 0;
}
static inline int ub_psn_le(uint32_t a, uint32_t b)
{
    return ub_psn_diff(b, a) >= 0;
}

#endif
