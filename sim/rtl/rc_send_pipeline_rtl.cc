// RTL backend of the RoCE RC send pipeline: the Verilated
// rtl/rc_send_pipeline.sv behind the generic shim (block_rtl.h), ports from
// cmodel/rc_send_pipeline_ports.h.
#include "block_rtl.h"

#include "Vrc_send_pipeline.h"
#include "Vrc_send_pipeline___024root.h" // the clock edge detection (block_rtl.h)
#if __has_include("Vrc_send_pipeline_f.h") // its untraced model (block_rtl.h)
#include "Vrc_send_pipeline_f.h"
#include "Vrc_send_pipeline_f___024root.h"
#define BLOCK_RTL_UNTRACED 1
#else
#define BLOCK_RTL_UNTRACED 0
#endif

#define BLOCK_NAME rc_send_pipeline
BLOCK_RTL(RC_SEND_PIPELINE_PORTS)
