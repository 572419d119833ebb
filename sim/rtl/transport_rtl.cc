// RTL backend of the selective-acknowledgement transport: the Verilated
// rtl/transport.sv behind the generic shim (block_rtl.h), ports from
// cmodel/transport_ports.h.
#include "block_rtl.h"

#include "Vtransport.h"
#include "Vtransport___024root.h" // the clock edge detection (block_rtl.h)
#if __has_include("Vtransport_f.h") // its untraced model (block_rtl.h)
#include "Vtransport_f.h"
#include "Vtransport_f___024root.h"
#define BLOCK_RTL_UNTRACED 1
#else
#define BLOCK_RTL_UNTRACED 0
#endif

#define BLOCK_NAME transport
BLOCK_RTL(TRANSPORT_PORTS)
