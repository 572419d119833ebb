// RTL backend of the order tracker: the Verilated rtl/order_tracker.sv
// behind the generic shim (block_rtl.h), ports from
// cmodel/order_tracker_ports.h.
#include "block_rtl.h"

#include "Vorder_tracker.h"
#include "Vorder_tracker___024root.h" // the clock edge detection (block_rtl.h)

#define BLOCK_NAME order_tracker
BLOCK_RTL(ORDER_TRACKER_PORTS)
