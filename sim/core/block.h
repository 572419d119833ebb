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
 * waveforms) and its C and RTL implementations. BLOCK_CLASS below defines
 * one from the block's port list (cmodel/block_ports.h); the project's
 * blocks are sim/core/blocks.c and are declared in blocks.h, which this
 * header includes at its end. block_new() builds an
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
#include <stdlib.h>

#include "wave.h"

/* One port: a field of the block's input or output struct. A port of up to
 * 64 bits is a uint8_t .. uint64_t field; a wider one is an array of
 * (width + 63) / 64 uint64_t words, least significant first (the u64_words
 * ports of a port list, cmodel/block_ports.h). */
typedef struct {
    const char *name;  /* C field name; RTL port is name + "_i" or "_o" */
    size_t offset;     /* offsetof(struct, field) */
    uint16_t bytes;    /* sizeof the field: 1, 2, 4 or 8; 8 per word if wider */
    uint16_t width;    /* bits used, 1..WAVE_MAX_WIDTH */
} port_desc_t;

/* One implementation (C model or RTL shim) behind function pointers. */
typedef struct {
    /* create an instance; fst_path (may be NULL) asks the RTL backend to
     * trace itself to that file; period_ps is one clock period in ps. */
    void *(*create)(const char *fst_path, uint64_t period_ps);
    void (*reset)(void *self);  /* synchronous reset, registers to reset values */
    void (*step)(void *self, const void *in, void *out, uint64_t now_ps);
    void (*destroy)(void *self);
    /* optional fast-forward (C models): how many coming edges with the
     * inputs `in` held can change no output, and applying n <= quiet of
     * them at once */
    int64_t (*quiet)(const void *self, const void *in);
    void (*advance)(void *self, const void *in, int64_t n);
    /* optional, with quiet: how many coming edges can change no output when
     * the request offered in `in` is taken at the first and no request is
     * offered after (the first is a step, the rest an advance) */
    int64_t (*quiet_taking)(const void *self, const void *in);
    /* optional (RTL shims): up to n edges with the inputs `in` held, ending
     * after the first at which the 8-bit output field at byte offset `watch`
     * of the output struct is nonzero; the outputs of the last edge run go
     * to `out`. Returns the edges run (1..n). Only for an instance that
     * writes no trace of its own. */
    int64_t (*run)(void *self, const void *in, void *out, int64_t n, size_t watch);
} block_impl_t;

typedef struct {
    const char *name;
    const port_desc_t *in_ports;
    int n_in;
    size_t in_size;
    const port_desc_t *out_ports;
    int n_out;
    size_t out_size;
    size_t c_state_size; /* sizeof the C model's state (<b>_state_t) */
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
    const char *c_fst_path;    /* the C model's ports in a file of their own
                                  (c, lockstep), laid out as the RTL's trace:
                                  TOP.<block>.<port>, a clk_i that rises at
                                  every edge the block is stepped, rst_ni;
                                  `ubsim diff` lines it up with the RTL's
                                  trace cycle for cycle. NULL: none */
    const char *mismatch_wave; /* lockstep: where to write the last cycles
                                  of both on a mismatch (".vcd"/".fst"), or
                                  NULL for "<block>_mismatch.vcd" */
    FILE *report;              /* lockstep mismatch report; NULL = stderr */
    int trial;                 /* a trial instance, not part of the run: it
                                  records no test vectors */
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
/* Fast-forward: how many coming edges with the inputs `in` held can change
 * no output (0 unless the backend is the C model and it offers a
 * fast-forward), and the jump over n <= block_quiet of them. */
int64_t block_quiet(const block_inst_t *b, const void *in);
/* Whether block_quiet can be anything but 0. */
int block_can_jump(const block_inst_t *b);
/* The same count when the request offered in `in` is taken at the first
 * edge and none is offered after (0 unless the C model offers it). */
int64_t block_quiet_taking(const block_inst_t *b, const void *in);
void block_advance(block_inst_t *b, const void *in, int64_t n);
/* The C model's state (its <block>_state_t), for a caller that applies the
 * model's own shortcuts to it (cmodel/<block>.h), or NULL unless the backend
 * is the C model alone and nothing records its edges (no port trace, no
 * vectors): such a shortcut skips edges. */
void *block_c_state(block_inst_t *b);
/* Up to n edges with the inputs `in` held, ending after the first edge at
 * which the output field of one byte at offset `watch` (a valid bit) is
 * nonzero: the same as that many block_step calls with now_ps 0 (so for a
 * block that does not want the time), whose last outputs are in `out`.
 * Returns the edges run (1..n; 0 for n <= 0), or minus the edge count at a
 * lockstep mismatch. An RTL block whose shim offers it runs the edges in one
 * call, sampling its outputs only at the last (at every edge when `watch` is
 * not a one-byte output port). */
int64_t block_run(block_inst_t *b, const void *in, void *out, int64_t n, size_t watch);
/* Edges applied since creation (reset does not clear it). */
uint64_t block_cycles(const block_inst_t *b);
/* Lockstep mismatches found so far (0 or 1: lockstep stops comparing at the
 * first one). */
uint64_t block_mismatches(const block_inst_t *b);
/* Dump the block's ports to a C-model waveform under `scope`
 * (signals scope.<port>_i / scope.<port>_o), every step from now on. */
int block_trace(block_inst_t *b, wave_t *w, const char *scope);
void block_free(block_inst_t *b);

/* Reads / writes one port's value in a struct. For a port wider than 64
 * bits these are its low 64 bits (port_set clears the bits above). */
uint64_t port_get(const port_desc_t *p, const void *s);
void port_set(const port_desc_t *p, void *s, uint64_t v);
/* 64-bit words of a port's value: 1 up to 64 bits, (width + 63) / 64 above. */
int port_words(const port_desc_t *p);
/* Reads / writes a port of any width as port_words(p) words, least
 * significant first, masked to the width. */
void port_get_words(const port_desc_t *p, const void *s, uint64_t *words);
void port_set_words(const port_desc_t *p, void *s, const uint64_t *words);
/* Nonzero when the port has the same value (within its width) in a and b. */
int port_equal(const port_desc_t *p, const void *a, const void *b);

/* --- block classes from port lists ------------------------------------------
 *
 * With BLOCK_NAME defined as the block's name <b>,
 *
 *     #define BLOCK_NAME ub_send_pipeline
 *     BLOCK_CLASS(UB_SEND_PIPELINE_PORTS)
 *     #undef BLOCK_NAME
 *
 * defines `const block_class_t <b>_class`: its port tables come from the port
 * list, its C implementation runs the model's <b>_state_t with
 * <b>_reset(state) and <b>_step(state, in, out), its RTL implementation is
 * the shim's <b>_rtl_* functions (BLOCK_RTL_DECL, sim/rtl/block_rtl.h). */
#define BLOCK_CAT_(a, b) a##b
#define BLOCK_CAT(a, b) BLOCK_CAT_(a, b)
#define BLOCK_STR_(a) #a
#define BLOCK_STR(a) BLOCK_STR_(a)
#define BLOCK_ID(suffix) BLOCK_CAT(BLOCK_NAME, suffix)

/* The five functions of a block's RTL shim. */
#define BLOCK_RTL_DECL(b)                                                        \
    void *b##_rtl_create(const char *fst_path, uint64_t period_ps);             \
    void b##_rtl_reset(void *self);                                             \
    void b##_rtl_step(void *self, const void *in, void *out, uint64_t now_ps);  \
    int64_t b##_rtl_run(void *self, const void *in, void *out, int64_t n,       \
                        size_t watch);                                          \
    void b##_rtl_destroy(void *self);

/* One port_desc_t per IN (resp. OUT) entry of a port list. */
#define BLOCK_PORT_DESC(type, name, width) \
    {#name, offsetof(type, name), sizeof(((type *)0)->name), width},
#define BLOCK_PORT_DESC_IN(dir, name, width, ctype) BLOCK_PORT_DESC_IN_##dir(name, width)
#define BLOCK_PORT_DESC_IN_IN(name, width) BLOCK_PORT_DESC(BLOCK_ID(_in_t), name, width)
#define BLOCK_PORT_DESC_IN_OUT(name, width)
#define BLOCK_PORT_DESC_OUT(dir, name, width, ctype) BLOCK_PORT_DESC_OUT_##dir(name, width)
#define BLOCK_PORT_DESC_OUT_IN(name, width)
#define BLOCK_PORT_DESC_OUT_OUT(name, width) BLOCK_PORT_DESC(BLOCK_ID(_out_t), name, width)

#define BLOCK_CLASS(PORTS) BLOCK_CLASS_WITH(PORTS, NULL, NULL, NULL)

/* The C implementation's fast-forward functions, from <b>_quiet(state, in)
 * and <b>_advance(state, in, n) (see block_impl_t). */
#define BLOCK_FF_FUNCS                                                           \
    static int64_t BLOCK_ID(_c_quiet)(const void *self, const void *in)          \
    {                                                                            \
        return BLOCK_ID(_quiet)(self, in);                                       \
    }                                                                            \
    static void BLOCK_ID(_c_advance)(void *self, const void *in, int64_t n)      \
    {                                                                            \
        BLOCK_ID(_advance)(self, in, (int)n);                                    \
    }

/* The same, for a C model that offers a fast-forward. */
#define BLOCK_CLASS_FF(PORTS)                                                    \
    BLOCK_FF_FUNCS                                                               \
    BLOCK_CLASS_WITH(PORTS, BLOCK_ID(_c_quiet), BLOCK_ID(_c_advance), NULL)

/* The same, with <b>_quiet_taking(state, in) too (see block_impl_t). */
#define BLOCK_CLASS_FF_TAKING(PORTS)                                             \
    BLOCK_FF_FUNCS                                                               \
    static int64_t BLOCK_ID(_c_quiet_taking)(const void *self, const void *in)   \
    {                                                                            \
        return BLOCK_ID(_quiet_taking)(self, in);                                \
    }                                                                            \
    BLOCK_CLASS_WITH(PORTS, BLOCK_ID(_c_quiet), BLOCK_ID(_c_advance),            \
                     BLOCK_ID(_c_quiet_taking))

#define BLOCK_CLASS_WITH(PORTS, QUIET, ADVANCE, TAKING)                          \
    static void *BLOCK_ID(_c_create)(const char *fst_path, uint64_t period_ps)  \
    {                                                                            \
        (void)fst_path;                                                          \
        (void)period_ps;                                                         \
        BLOCK_ID(_state_t) *s = malloc(sizeof *s);                               \
        if (s)                                                                   \
            BLOCK_ID(_reset)(s);                                                 \
        return s;                                                                \
    }                                                                            \
    static void BLOCK_ID(_c_reset)(void *self) { BLOCK_ID(_reset)(self); }       \
    static void BLOCK_ID(_c_step)(void *self, const void *in, void *out,         \
                                  uint64_t now_ps)                               \
    {                                                                            \
        (void)now_ps;                                                            \
        BLOCK_ID(_step)(self, in, out);                                          \
    }                                                                            \
    static void BLOCK_ID(_c_destroy)(void *self) { free(self); }                 \
    static const port_desc_t BLOCK_ID(_in_ports)[] = {PORTS(BLOCK_PORT_DESC_IN)};   \
    static const port_desc_t BLOCK_ID(_out_ports)[] = {PORTS(BLOCK_PORT_DESC_OUT)}; \
    const block_class_t BLOCK_ID(_class) = {                                     \
        .name = BLOCK_STR(BLOCK_NAME),                                           \
        .in_ports = BLOCK_ID(_in_ports),                                         \
        .n_in = (int)(sizeof BLOCK_ID(_in_ports) / sizeof(port_desc_t)),         \
        .in_size = sizeof(BLOCK_ID(_in_t)),                                      \
        .out_ports = BLOCK_ID(_out_ports),                                       \
        .n_out = (int)(sizeof BLOCK_ID(_out_ports) / sizeof(port_desc_t)),       \
        .out_size = sizeof(BLOCK_ID(_out_t)),                                    \
        .c_state_size = sizeof(BLOCK_ID(_state_t)),                              \
        .c = {BLOCK_ID(_c_create), BLOCK_ID(_c_reset), BLOCK_ID(_c_step),        \
              BLOCK_ID(_c_destroy), QUIET, ADVANCE, TAKING},                     \
        .rtl = {BLOCK_ID(_rtl_create), BLOCK_ID(_rtl_reset), BLOCK_ID(_rtl_step),\
                BLOCK_ID(_rtl_destroy), NULL, NULL, NULL, BLOCK_ID(_rtl_run)},   \
    }

#endif

/* The project's block classes, for every user of the block API. */
#include "blocks.h"
