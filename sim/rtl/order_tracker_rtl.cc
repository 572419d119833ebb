// RTL backend of the order tracker: the Verilated rtl/order_tracker.sv
// behind the generic shim (block_rtl.h), ports from
// cmodel/order_tracker_ports.h.
#include "block_rtl.h"

#include "Vorder_tracker.h"
#include "Vorder_tracker___024root.h" // the clock edge detection (block_rtl.h)
#if __has_include("Vorder_tracker_f.h") // its untraced model (block_rtl.h)
#include "Vorder_tracker_f.h"
#include "Vorder_tracker_f___024root.h"
#define BLOCK_RTL_UNTRACED 1
#else
#define BLOCK_RTL_UNTRACED 0
#endif

#define BLOCK_NAME order_tracker
BLOCK_RTL(ORDER_TRACKER_PORTS)
