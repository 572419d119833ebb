/* A test-only block with ports wider than 64 bits: a 130-bit accumulator
 * that is rotated and XORed with a 130-bit input, a 72-bit mix of it and the
 * input, its parity and its low 64 bits. It exists to run wide ports through
 * the port list, the generic RTL shim, lockstep and waveforms
 * (testbench/wide_port_test.cc); its RTL is testbench/rtl/wide_port_test.sv.
 *
 * At every edge (registers as of before the edge on the right):
 *   acc    <= valid ? rotl(acc, shift) ^ data : acc
 *   mix    <= {acc[129:122] ^ data[7:0], acc[63:0] + data[127:64]}
 *   parity <= ^acc
 * Outputs: acc, mix, parity, low = acc[63:0]. */
#ifndef WIDE_PORT_TEST_H
#define WIDE_PORT_TEST_H

#include <stdint.h>

#include "block.h"
#include "block_ports.h"
#include "wide_port_test_ports.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { WIDE_PORT_TEST_PORTS(PORTS_FIELDS_IN) } wide_port_test_in_t;
typedef struct { WIDE_PORT_TEST_PORTS(PORTS_FIELDS_OUT) } wide_port_test_out_t;
WIDE_PORT_TEST_PORTS(PORTS_CHECK)

typedef struct {
    uint64_t acc[PORT_WORDS(130)];
    uint64_t mix[PORT_WORDS(72)];
    uint8_t parity;
} wide_port_test_state_t;

void wide_port_test_reset(wide_port_test_state_t *s);
void wide_port_test_step(wide_port_test_state_t *s, const wide_port_test_in_t *in,
                         wide_port_test_out_t *out);

extern const block_class_t wide_port_test_class;
BLOCK_RTL_DECL(wide_port_test)

#ifdef __cplusplus
}
#endif

#endif
