/* Constants shared by the C models and the RTL: the C twin of rtl/ub_pkg.sv.
 *
 * Every shared constant is written once, in one of the X-macro lists below,
 * as X(C_NAME, value). This header turns the lists into enum constants (and
 * the enum types the C code uses); rtl/ub_pkg.sv holds the same constants
 * under the CamelCase spelling of the C name (UB_PSN_BITS -> UbPsnBits,
 * URMA_OT -> UrmaOt, RC_OP_READ_REQUEST -> RcOpReadRequest):
 *
 *   UB_PKG_PARAMS           localparam int / logic [..] constants
 *   UB_PKG_ENUMS(E)         E(type, LIST): C enum type <type>_t, SV enum
 *                           type <type>_e, items from LIST
 *   UB_REQ_FIELDS           the request record, SV packed struct ub_req_t
 *
 * testbench/ub_pkg_test.cc reads rtl/ub_pkg.sv and checks that every
 * constant of the package has its twin here with the same value, and the
 * other way round, and that ub_req_t has the fields of UB_REQ_FIELDS in the
 * same order with the same widths.
 *
 * Masks and helpers derived from the constants (UB_PSN_MASK, ub_psn_add, ...)
 * are C only. */
#ifndef UB_PKG_H
#define UB_PKG_H

#include <stdint.h>

/* --- plain constants (SV: localparam) ------------------------------------- */
#define UB_PKG_PARAMS(X)                                                        \
    /* identifier and field widths (bits) */                                    \
    X(UB_TPN_BITS, 24)                                                          \
    X(UB_PSN_BITS, 24)                                                          \
    X(UB_TPMSN_BITS, 24)                                                        \
    X(UB_TASSN_BITS, 16)                                                        \
    X(UB_JETTY_BITS, 20)                                                        \
    X(UB_TOKENID_BITS, 20)                                                      \
    X(UB_TOKEN_BITS, 32)                                                        \
    X(UB_CEID_BITS, 20) /* compact EID */                                       \
    X(UB_PRIO_BITS, 4)                                                          \
    X(UB_TA_OPCODE_BITS, 8)                                                     \
    X(UB_TP_OPCODE_BITS, 7)                                                     \
    X(UB_MODE_BITS, 3)                                                          \
    X(UB_ORDER_BITS, 2)      /* place_order of a work request */                \
    X(UB_WIRE_ORDER_BITS, 3) /* {fence, place_order} in the TA header */        \
    X(UB_LEN_BITS, 32)                                                          \
    X(UB_ADDR_BITS, 64)                                                         \
    X(UB_TAG_BITS, 32)       /* opaque request id carried to the packet */      \
    X(UB_REQ_BITS, 215)      /* the request record, UB_REQ_FIELDS below */      \
    X(RC_QPN_BITS, 24)                                                          \
    X(RC_PSN_BITS, 24)                                                          \
    X(RC_OPCODE_BITS, 8)                                                        \
    /* wire fields */                                                           \
    X(UB_WIRE_ORDER_FENCE, 0x4) /* fence bit of the wire order field */         \
    X(UB_RSP_STATUS_NAK, 0x3)                                                   \
    X(UB_RTPH_BYTES, 16)                                                        \
    /* message-ending RC request opcodes, bit k = opcode k (opcode < 0x20):     \
     * SEND LAST/ONLY (+imm) 02-05, WRITE LAST/ONLY (+imm) 08-0B, READ request  \
     * 0C, CMP&SWAP 13, FETCH&ADD 14, SEND LAST/ONLY with invalidate 16-17 */   \
    X(RC_ACK_REQ_MASK, 0x00D81F3C)                                              \
    /* UB send pipeline: module parameter defaults and back-end stage indices   \
     * (S0 is the scheduler output register) */                                 \
    X(UBSP_NUM_QUEUES, 8)     /* per-Jetty queues: jetty % NumQueues   */       \
    X(UBSP_QUEUE_DEPTH, 4)    /* entries per queue (power of two)      */       \
    X(UBSP_NUM_JETTY_CTX, 32) /* TASSN contexts: jetty % NumJettyCtx   */       \
    X(UBSP_NUM_CHANNELS, 16)  /* transport channels: dst % NumChannels */       \
    X(UBSP_NUM_STAGES, 21)    /* S0..S20 */                                     \
    X(UBSP_OUT_DEPTH, 2)      /* output skid buffer entries */                  \
    X(UBSP_ST_SCHED, 0)                                                         \
    X(UBSP_ST_OT_FIRST, 5)    /* order-tracker hook S5..S8 */                   \
    X(UBSP_ST_OT_LAST, 8)                                                       \
    X(UBSP_ST_TASSN, 9)                                                         \
    X(UBSP_ST_TAH, 10)                                                          \
    X(UBSP_ST_CHAN, 11)                                                         \
    X(UBSP_ST_TPN, 12)                                                          \
    X(UBSP_ST_SEQ_ASK, 13)    /* asks the channel table for its PSNs */       \
    X(UBSP_ST_SEQ_WAIT, 14)   /* the table answers (taken into S15) */        \
    X(UBSP_ST_RTPH, 15)                                                         \
    /* RC send pipeline: module parameter defaults */                           \
    X(RC_SEND_NUM_QPS, 16)    /* QP-context table entries; qpn % NumQps */      \
    X(RC_SEND_MTU, 4096)      /* the usual path MTU in bytes (cfg_mtu_log2 12) */

/* --- enumerations (SV: typedef enum logic [..] {..} <type>_e) -------------- */

/* Transaction-layer service modes (URMA transport mode values). */
#define UB_PKG_MODES(X)                                                         \
    X(URMA_OT, 1) /* ROT: reliable, ordering enforced at the target    */       \
    X(URMA_OI, 2) /* ROI: reliable, ordering enforced at the initiator */       \
    X(URMA_OL, 3) /* ROL: reliable, TA ack fused into the transport ack */      \
    X(URMA_NO, 4) /* UNO: unreliable, no ordering                       */

/* Execution order requested by a work request (place_order). */
#define UB_PKG_ORDERS(X)                                                        \
    X(UB_ORDER_NO, 0)                                                           \
    X(UB_ORDER_RO, 1)                                                           \
    X(UB_ORDER_SO, 2)

/* Transaction opcodes. */
#define UB_PKG_TA_OPCODES(X)                                                    \
    X(UB_TA_SEND, 0x00)                                                         \
    X(UB_TA_SEND_IMM, 0x01)                                                     \
    X(UB_TA_SEND_INV, 0x02)                                                     \
    X(UB_TA_WRITE, 0x03)                                                        \
    X(UB_TA_WRITE_IMM, 0x04)                                                    \
    X(UB_TA_WRITE_NOTIFY, 0x05)                                                 \
    X(UB_TA_READ, 0x06)                                                         \
    X(UB_TA_CAS, 0x07)                                                          \
    X(UB_TA_SWAP, 0x08)                                                         \
    X(UB_TA_ATOMIC_STORE, 0x09)                                                 \
    X(UB_TA_ATOMIC_LOAD, 0x0A)                                                  \
    X(UB_TA_FETCH_ADD, 0x0B)                                                    \
    X(UB_TA_FETCH_SUB, 0x0C)                                                    \
    X(UB_TA_FETCH_AND, 0x0D)                                                    \
    X(UB_TA_FETCH_OR, 0x0E)                                                     \
    X(UB_TA_FETCH_XOR, 0x0F)                                                    \
    X(UB_TA_TAACK, 0x11)                                                        \
    X(UB_TA_READ_RESP, 0x12)                                                    \
    X(UB_TA_ATOMIC_RESP, 0x13)

/* Transport layer: RTPH TPOpcode (7 bits). */
#define UB_PKG_TP_OPCODES(X)                                                    \
    X(UB_TP_UNRELIABLE, 0x0) /* UTP data (UNO)         */                       \
    X(UB_TP_RELIABLE, 0x1)   /* RTP data (ROI/ROT/ROL) */                       \
    X(UB_TP_ACK, 0x2)        /* NAK: ACK with rsp status 0b011 */               \
    X(UB_TP_ACK_CC, 0x3)                                                        \
    X(UB_TP_SACK, 0x5)                                                          \
    X(UB_TP_SACK_CC, 0x6)                                                       \
    X(UB_TP_CNP, 0x8)

/* Completion status values. */
#define UB_PKG_CR_STATUS(X)                                                     \
    X(UB_CR_SUCCESS, 0)                                                         \
    X(UB_CR_LOC_LEN_ERR, 2)                                                     \
    X(UB_CR_LOC_ACCESS_ERR, 4)                                                  \
    X(UB_CR_REM_ACCESS_ABORT_ERR, 8)                                            \
    X(UB_CR_ACK_TIMEOUT_ERR, 9)                                                 \
    X(UB_CR_WR_FLUSH_ERR, 11)

/* RoCE RC transport: IB BTH opcodes used here. */
#define UB_PKG_RC_OPCODES(X)                                                    \
    X(RC_OP_SEND_FIRST, 0x00)                                                   \
    X(RC_OP_SEND_MIDDLE, 0x01)                                                  \
    X(RC_OP_SEND_LAST, 0x02)                                                    \
    X(RC_OP_SEND_ONLY, 0x04)                                                    \
    X(RC_OP_WRITE_FIRST, 0x06)                                                  \
    X(RC_OP_WRITE_MIDDLE, 0x07)                                                 \
    X(RC_OP_WRITE_LAST, 0x08)                                                   \
    X(RC_OP_WRITE_ONLY, 0x0A)                                                   \
    X(RC_OP_READ_REQUEST, 0x0C)                                                 \
    X(RC_OP_READ_RESP_FIRST, 0x0D)                                              \
    X(RC_OP_READ_RESP_MIDDLE, 0x0E)                                             \
    X(RC_OP_READ_RESP_LAST, 0x0F)                                               \
    X(RC_OP_READ_RESP_ONLY, 0x10)                                               \
    X(RC_OP_ACKNOWLEDGE, 0x11)

/* E(type, LIST) for every enumeration above. */
#define UB_PKG_ENUMS(E)                                                         \
    E(ub_mode, UB_PKG_MODES)                                                    \
    E(ub_order, UB_PKG_ORDERS)                                                  \
    E(ub_ta_opcode, UB_PKG_TA_OPCODES)                                          \
    E(ub_tp_opcode, UB_PKG_TP_OPCODES)                                          \
    E(ub_cr_status, UB_PKG_CR_STATUS)                                           \
    E(rc_opcode, UB_PKG_RC_OPCODES)

/* --- the request record (SV: typedef struct packed {..} ub_req_t) ---------
 * X(field, width), most significant field first: the work request as the UB
 * send pipeline stores it (intake register, queues, packet slots). Its wr_*
 * input ports carry the same fields with the same widths. */
#define UB_REQ_FIELDS(X)                                                        \
    X(opcode, UB_TA_OPCODE_BITS)                                                \
    X(mode, UB_MODE_BITS)                                                       \
    X(order, UB_ORDER_BITS)                                                     \
    X(fence, 1)                                                                 \
    X(comp_order, 1)                                                            \
    X(jetty, UB_JETTY_BITS)                                                     \
    X(dst, UB_CEID_BITS)                                                        \
    X(len, UB_LEN_BITS)                                                         \
    X(addr, UB_ADDR_BITS)                                                       \
    X(token, UB_TOKEN_BITS)                                                     \
    X(tag, UB_TAG_BITS)

/* --- the C definitions ------------------------------------------------------ */
#define UB_PKG_ENUMERATOR(name, value) name = (value),
#define UB_PKG_TYPEDEF(type, LIST) typedef enum { LIST(UB_PKG_ENUMERATOR) } type##_t;
#define UB_PKG_REQ_ADD(field, width) +(width)

enum { UB_PKG_PARAMS(UB_PKG_ENUMERATOR) };
UB_PKG_ENUMS(UB_PKG_TYPEDEF)
#ifdef __cplusplus
static_assert(UB_REQ_BITS == 0 UB_REQ_FIELDS(UB_PKG_REQ_ADD), "UB_REQ_BITS is the sum of the field widths");
#else
_Static_assert(UB_REQ_BITS == 0 UB_REQ_FIELDS(UB_PKG_REQ_ADD), "UB_REQ_BITS is the sum of the field widths");
#endif

/* --- C-only masks and helpers ----------------------------------------------- */
#define UB_BITS_MASK(bits) ((uint32_t)((1ull << (bits)) - 1u))
#define UB_TPN_MASK    UB_BITS_MASK(UB_TPN_BITS)
#define UB_PSN_MASK    UB_BITS_MASK(UB_PSN_BITS)
#define UB_PSN_MOD     (1u << UB_PSN_BITS)
#define UB_TPMSN_MASK  UB_BITS_MASK(UB_TPMSN_BITS)
#define UB_TASSN_MASK  UB_BITS_MASK(UB_TASSN_BITS)
#define UB_JETTY_MASK  UB_BITS_MASK(UB_JETTY_BITS)
#define UB_CEID_MASK   UB_BITS_MASK(UB_CEID_BITS)

/* The wire order field of the transaction header as this model packs it:
 * bits 1:0 place_order (NO/RO/SO), bit 2 fence (UB_WIRE_ORDER_FENCE).
 * comp_order is an initiator-side completion option, not put on the wire. */
static inline uint8_t ub_wire_order(unsigned place_order, unsigned fence)
{
    return (uint8_t)(((fence & 1u) ? (unsigned)UB_WIRE_ORDER_FENCE : 0u) | (place_order & 3u));
}

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
    return d >= UB_PSN_MOD / 2 ? (int32_t)d - (int32_t)UB_PSN_MOD : (int32_t)d;
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
