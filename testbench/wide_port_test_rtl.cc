// RTL backend of the test-only block wide_port_test: the Verilated
// testbench/rtl/wide_port_test.sv behind the generic shim.
#include "block_rtl.h"

#include "Vwide_port_test.h"
#include "Vwide_port_test___024root.h" // the clock edge detection (block_rtl.h)

extern "C" {
#include "wide_port_test.h"
}

#define BLOCK_NAME wide_port_test
BLOCK_RTL(WIDE_PORT_TEST_PORTS)
