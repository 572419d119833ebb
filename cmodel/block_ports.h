/* Port lists: every block's ports, written once.
 *
 * A block's port list is the macro <BLOCK>_PORTS(X) in cmodel/<block>_ports.h
 * (upper-case block name). It calls
 *
 *     X(dir, name, width, ctype)
 *
 * once per port, in the order of the C structs:
 *
 *   dir    IN or OUT (the block's point of view)
 *   name   the C field; the RTL port is name_i (IN) or name_o (OUT)
 *   width  bits, a decimal literal
 *   ctype  the C type of the field, the smallest that holds the width:
 *          uint8_t (1..8 bits), uint16_t (9..16), uint32_t (17..32),
 *          uint64_t (33..64), or u64_words for a port wider than 64 bits:
 *          the field is uint64_t name[PORT_WORDS(width)], bit b of the port
 *          in word b / 64 at bit b % 64. (These are Verilator's size classes
 *          too: CData, SData, IData, QData, VlWide.)
 *
 * Everything else about the ports comes from that list:
 *   - the C structs <block>_in_t / <block>_out_t (PORTS_FIELDS_IN / _OUT here),
 *   - the port tables of the block class, used for lockstep comparison and
 *     waveforms (BLOCK_CLASS, sim/core/block.h),
 *   - the RTL shim's drive and sample code (BLOCK_RTL, sim/rtl/block_rtl.h),
 *   - the build-time check that the Verilated model has exactly these ports
 *     with these directions and widths (scripts/portcheck.py).
 *
 * The clock clk_i and the reset rst_ni are not in the list. This header
 * needs nothing outside cmodel/. */
#ifndef UB_BLOCK_PORTS_H
#define UB_BLOCK_PORTS_H

#include <stdint.h>

/* 64-bit words of a port of `width` bits. */
#define PORT_WORDS(width) (((width) + 63) / 64)

/* Struct members: typedef struct { LIST(PORTS_FIELDS_IN) } <block>_in_t; */
#define PORTS_FIELDS_IN(dir, name, width, ctype) PORTS_FIELD_IN_##dir(name, width, ctype)
#define PORTS_FIELDS_OUT(dir, name, width, ctype) PORTS_FIELD_OUT_##dir(name, width, ctype)
#define PORTS_FIELD_IN_IN(name, width, ctype) PORTS_DECL_##ctype(name, width)
#define PORTS_FIELD_IN_OUT(name, width, ctype)
#define PORTS_FIELD_OUT_IN(name, width, ctype)
#define PORTS_FIELD_OUT_OUT(name, width, ctype) PORTS_DECL_##ctype(name, width)

#define PORTS_DECL_uint8_t(name, width) uint8_t name;
#define PORTS_DECL_uint16_t(name, width) uint16_t name;
#define PORTS_DECL_uint32_t(name, width) uint32_t name;
#define PORTS_DECL_uint64_t(name, width) uint64_t name;
#define PORTS_DECL_u64_words(name, width) uint64_t name[PORT_WORDS(width)];

/* Compile-time checks of a list: LIST(PORTS_CHECK) after the structs. Each
 * width fits its C type and needs it (the smallest type that holds it). */
#ifdef __cplusplus
#define PORTS_ASSERT(cond, msg) static_assert(cond, msg);
#else
#define PORTS_ASSERT(cond, msg) _Static_assert(cond, msg);
#endif
#define PORTS_CHECK(dir, name, width, ctype) PORTS_CHECK_##ctype(name, width)
#define PORTS_CHECK_uint8_t(name, width) \
    PORTS_ASSERT((width) >= 1 && (width) <= 8, "port " #name ": uint8_t is for 1..8 bits")
#define PORTS_CHECK_uint16_t(name, width) \
    PORTS_ASSERT((width) > 8 && (width) <= 16, "port " #name ": uint16_t is for 9..16 bits")
#define PORTS_CHECK_uint32_t(name, width) \
    PORTS_ASSERT((width) > 16 && (width) <= 32, "port " #name ": uint32_t is for 17..32 bits")
#define PORTS_CHECK_uint64_t(name, width) \
    PORTS_ASSERT((width) > 32 && (width) <= 64, "port " #name ": uint64_t is for 33..64 bits")
#define PORTS_CHECK_u64_words(name, width) \
    PORTS_ASSERT((width) > 64, "port " #name ": u64_words is for more than 64 bits")

#endif
