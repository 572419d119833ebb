// RTL backend of the UB transmit path: the Verilated rtl/ub_tx.sv (the send
// pipeline and the transport channel table) behind the generic shim
// (block_rtl.h), ports from cmodel/ub_tx_ports.h.
#include "block_rtl.h"

#include "Vub_tx.h"
#include "Vub_tx___024root.h" // the clock edge detection (block_rtl.h)
#if __has_include("Vub_tx_f.h") // its untraced model (block_rtl.h)
#include "Vub_tx_f.h"
#include "Vub_tx_f___024root.h"
#define BLOCK_RTL_UNTRACED 1
#else
#define BLOCK_RTL_UNTRACED 0
#endif

#define BLOCK_NAME ub_tx
BLOCK_RTL(UB_TX_PORTS)
