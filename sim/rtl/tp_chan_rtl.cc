// RTL backend of the transport channel table: the Verilated rtl/tp_chan.sv
// behind the generic shim (block_rtl.h), ports from cmodel/tp_chan_ports.h.
#include "block_rtl.h"

#include "Vtp_chan.h"
#include "Vtp_chan___024root.h" // the clock edge detection (block_rtl.h)

#define BLOCK_NAME tp_chan
BLOCK_RTL(TP_CHAN_PORTS)
