// RTL backend of the transport channel table: the Verilated rtl/tp_chan.sv
// behind the generic shim (block_rtl.h), ports from cmodel/tp_chan_ports.h.
#include "block_rtl.h"

#include "Vtp_chan.h"
#include "Vtp_chan___024root.h" // the clock edge detection (block_rtl.h)
#if __has_include("Vtp_chan_f.h") // its untraced model (block_rtl.h)
#include "Vtp_chan_f.h"
#include "Vtp_chan_f___024root.h"
#define BLOCK_RTL_UNTRACED 1
#else
#define BLOCK_RTL_UNTRACED 0
#endif

#define BLOCK_NAME tp_chan
BLOCK_RTL(TP_CHAN_PORTS)
