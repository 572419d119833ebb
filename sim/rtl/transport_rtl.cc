// RTL backend of the selective-acknowledgement transport: the Verilated
// rtl/transport.sv behind the generic shim (block_rtl.h), ports from
// cmodel/transport_ports.h.
#include "block_rtl.h"

#include "Vtransport.h"
#include "Vtransport___024root.h" // the clock edge detection (block_rtl.h)

#define BLOCK_NAME transport
BLOCK_RTL(TRANSPORT_PORTS)
