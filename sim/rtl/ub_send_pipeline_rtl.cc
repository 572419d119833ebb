// RTL backend of the UB send pipeline: the Verilated rtl/ub_send_pipeline.sv
// behind the generic shim (block_rtl.h), ports from
// cmodel/ub_send_pipeline_ports.h.
#include "block_rtl.h"

#include "Vub_send_pipeline.h"
#include "Vub_send_pipeline___024root.h" // the clock edge detection (block_rtl.h)

#define BLOCK_NAME ub_send_pipeline
BLOCK_RTL(UB_SEND_PIPELINE_PORTS)
