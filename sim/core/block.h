/* Clocked blocks with interchangeable backends.
 *
 * A block is a set of registers plus a next-state function. Its C model has a
 * state struct, an input struct and an output struct; its RTL twin has the
 * same ports with the same widths (RTL names add _i / _o). Outputs depend only
 * on registers, so blocks can be stepped in any order and C and RTL can be
 * swapped block by block.
 *
 * step(in) applies one rising clock edge with the inputs `in` (the values on
 * the input wires during the cycle that ends at that edge) and writes `out`:
 * the output wires during the cycle that follows the edge.
 *
 * A block_class_t describes one block: its ports (for comparison and
 * waveforms) and its C and RTL implementations. block_new() builds an
 * instance running on the C model, the Verilated RTL, or both in lockstep.
 * In lockstep every output port is compared after every edge; on the first
 * difference the step returns nonzero, a report names the cycle, block, port
 * and both values, and a waveform of the last cycles of both is written.
 */
#ifndef UB_BLOCK_H
#define UB_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wave.h"

/* One port: a field of the block's input or output struct. */
typedef struct {
    const char *name;  /* C field name; RTL port is name + "_i" or "_o" */
    size_t offset;     /* offsetof(struct, field) */
    uint8_t bytes;     /* sizeof the field: 1, 2, 4 or 8 */
    uint8_t width;     /* bits used, 1..64 */
} port_desc_t;

/* One implementation (C model or RTL shim) behind function pointers. */
typedef struct {
    /* create an instance; fst_path (may be NULL) asks the RTL backend to
     * trace itself to that file; period_ps is one clock period in ps. */
    void *(*create)(const char *fst_path, uint64_t period_ps);
    void (*reset)(void *self);  /* synchronous reset, registers to reset values */
    void (*step)(void *self, const void *in, void *out, uint64_t now_ps);
    void (*destroy)(void *self);
    /* optional fast-forward (C models): edges with idle inputs over which
     * the outputs cannot change, and applying n <= quiet of them at once */
    int64_t (*quiet)(const void *self);
    void (*advance)(void *self, const void *idle_in, int64_t n);
} block_impl_t;

typedef struct {
    const char *name;
    const port_desc_t *in_ports;
    int n_in;
    size_t in_size;
    const port_desc_t *out_ports;
    int n_out;
    size_t out_size;
    block_impl_t c;
    block_impl_t rtl;
} block_class_t;

typedef enum { BACKEND_C = 0, BACKEND_RTL, BACKEND_LOCKSTEP } backend_kind_t;

/* "c", "rtl", "lockstep" -> kind; returns -1 for anything else. */
int backend_parse(const char *s);
const char *backend_name(backend_kind_t k);

typedef struct {
    backend_kind_t kind;
    uint64_t period_ps;        /* clock period in ps, for RTL traces */
    const char *rtl_fst_path;  /* RTL self-trace (Verilator FST), or NULL */
    const char *mismatch_wave; /* lockstep: where to write the last cycles
                                  of both on a mismatch (".vcd"/".fst"), or
                                  NULL for "<block>_mismatch.vcd" */
    FILE *report;              /* lockstep mismatch report; NULL = stderr */
} block_opts_t;

typedef struct block_inst block_inst_t;

block_inst_t *block_new(const block_class_t *cls, const block_opts_t *opts,
                        char *err, int errlen);
void block_reset(block_inst_t *b);
/* Returns 0, or nonzero once lockstep has found a mismatch (then the outputs
 * written are the C model's). */
int block_step(block_inst_t *b, const void *in, void *out, uint64_t now_ps);
/* Whether step() uses its now_ps argument (RTL traces, lockstep reports);
 * a caller may pass 0 when it does not. */
int block_wants_time(const block_inst_t *b);
/* Fast-forward: how many coming idle edges can be jumped (0 unless the
 * backend is the C model and it offers a fast-forward), and the jump
 * (n <= block_quiet; `idle_in` are the inputs of those edges). */
int64_t block_quiet(const block_inst_t *b);
void block_advance(block_inst_t *b, const void *idle_in, int64_t n);
/* Edges applied since creation (reset does not clear it). */
uint64_t block_cycles(const block_inst_t *b);
/* Lockstep mismatches found so far (0 or 1: lockstep stops comparing at the
 * first one). */
uint64_t block_mismatches(const block_inst_t *b);
/* Dump the block's ports to a C-model waveform under `scope`
 * (signals scope.<port>_i / scope.<port>_o), every step from now on. */
int block_trace(block_inst_t *b, wave_t *w, const char *scope);
void block_free(block_inst_t *b);

/* Reads / writes one port's value in a struct. */
uint64_t port_get(const port_desc_t *p, const void *s);
void port_set(const port_desc_t *p, void *s, uint64_t v);

#endif
