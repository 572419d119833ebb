// RTL backend of the context cache: the Verilated rtl/context_cache.sv
// behind the generic shim (block_rtl.h), ports from
// cmodel/context_cache_ports.h.
#include "block_rtl.h"

#include "Vcontext_cache.h"
#include "Vcontext_cache___024root.h" // the clock edge detection (block_rtl.h)

#define BLOCK_NAME context_cache
BLOCK_RTL(CONTEXT_CACHE_PORTS)
