/* Ports of the test-only block wide_port_test (testbench/rtl/wide_port_test.sv,
 * C model testbench/wide_port_test_model.c): ports wider than 64 bits. */
#ifndef WIDE_PORT_TEST_PORTS_H
#define WIDE_PORT_TEST_PORTS_H

#define WIDE_PORT_TEST_PORTS(X)                                                 \
    X(IN, valid, 1, uint8_t)                                                    \
    X(IN, shift, 7, uint8_t)     /* rotate left by 0..127 */                    \
    X(IN, data, 130, u64_words)                                                 \
    X(OUT, acc, 130, u64_words)  /* rotl(acc, shift) ^ data when valid */       \
    X(OUT, mix, 72, u64_words)   /* {acc[129:122] ^ data[7:0], acc[63:0] + data[127:64]} */ \
    X(OUT, parity, 1, uint8_t)   /* ^acc */                                     \
    X(OUT, low, 64, uint64_t)    /* acc[63:0] */

#endif
