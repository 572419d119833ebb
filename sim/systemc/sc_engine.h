/* The SystemC engine, for C callers: a simulation split in its two nodes
 * (sim/core/engine.h) runs as two ub_endpoint modules joined by a ub_link
 * module, in SystemC time (sim/systemc/ub_endpoint.h). */
#ifndef UB_SC_ENGINE_H
#define UB_SC_ENGINE_H

#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine (its modules are made on the first run, and every later run
 * goes on in the same SystemC simulation, later in its time). */
const sim_engine_t *engine_systemc(void);

/* An engine by name: "native" (NULL: one kernel), "nodes" or "systemc";
 * returns 0, -1 for another name, or -2 when the SystemC engine cannot be
 * loaded, with what went wrong in err. It is ubsim's: the SystemC engine is
 * loaded on demand from the plugin beside the program
 * (sim/app/engine_load.c); a program that links sim/systemc/ calls
 * engine_systemc() itself. */
int engine_by_name(const char *name, const sim_engine_t **e, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
