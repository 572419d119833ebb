// RTL backend of the context cache: the Verilated rtl/context_cache.sv
// behind the generic shim (block_rtl.h), ports from
// cmodel/context_cache_ports.h.
#include "block_rtl.h"

#include "Vcontext_cache.h"
#include "Vcontext_cache___024root.h" // the clock edge detection (block_rtl.h)
#if __has_include("Vcontext_cache_f.h") // its untraced model (block_rtl.h)
#include "Vcontext_cache_f.h"
#include "Vcontext_cache_f___024root.h"
#define BLOCK_RTL_UNTRACED 1
#else
#define BLOCK_RTL_UNTRACED 0
#endif

#define BLOCK_NAME context_cache
BLOCK_RTL(CONTEXT_CACHE_PORTS)
