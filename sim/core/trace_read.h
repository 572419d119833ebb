/* Reading a waveform file back into memory: VCD (text, parsed here) or FST
 * (binary, through the FST reader that ships with Verilator/GTKWave).
 *
 * A trace is a list of signals and, per signal, its value changes. Each
 * value is a string of `width` characters '0', '1', 'x' or 'z', most
 * significant bit first. Signals that carry the same values (VCD variables
 * declared with the same identifier code, FST aliases sharing a handle)
 * share one track of changes. Real and string variables are not read (they
 * are counted in n_skipped).
 *
 * Within one time step only the last change of a signal is kept: a track
 * holds at most one change per time, its value at the end of that step.
 * Other value characters are mapped to these four: 'h' -> '1', 'l' -> '0',
 * 'u', 'w', '-' -> 'x' (either case). */
#ifndef UB_TRACE_READ_H
#define UB_TRACE_READ_H

#include <stddef.h>
#include <stdint.h>

typedef enum { TRACE_VCD = 0, TRACE_FST = 1 } trace_format_t;

typedef struct {
    char *name;       /* full hierarchical name, scopes joined by '.':
                         "TOP.ub_send_pipeline.wr_valid_i" (a bit range
                         such as " [7:0]" is not part of it) */
    const char *leaf; /* the last component, inside name */
    int width;        /* bits, >= 1 */
    int depth;        /* the number of '.' in name */
    int track;        /* index into trace_t.track (shared by aliases) */
} trace_signal_t;

typedef struct {
    int width;
    int keep;         /* 0: the changes were not recorded (see trace_keep_fn) */
    size_t n, cap;    /* changes */
    uint64_t *time;   /* n times, increasing */
    char *val;        /* n values of width + 1 characters, each NUL-terminated */
} trace_track_t;

typedef struct {
    char *path;
    trace_format_t format;
    /* $timescale / the FST timescale: one time unit is
     * timescale_mul * 10^timescale_exp seconds (1 ps: 1, -12) */
    int timescale_mul, timescale_exp;
    trace_signal_t *sig;   /* in declaration order */
    size_t n_sig;
    trace_track_t *track;
    size_t n_track;
    /* Every distinct time at which some bit-vector signal has a value
     * change (recorded or not), increasing. A time with no change at all
     * (a VCD "#t" followed by nothing) is not one of them. */
    uint64_t *times;
    size_t n_times;
    size_t n_skipped;      /* real and string variables, not read */
} trace_t;

/* Called once per signal as it is declared: return 1 to record its value
 * changes, 0 to keep only its declaration (a track is recorded when any of
 * the signals sharing it is). NULL: record everything. */
typedef int (*trace_keep_fn)(const trace_signal_t *sig, void *ctx);

/* Reads PATH, a VCD or FST file: the format is told by its content (a VCD
 * starts with a '$' command, an FST with its header block), else by its
 * extension. Returns the trace, or NULL with a message naming the file (and
 * for a VCD the line, and what was expected) in err. An FST file is checked
 * in full before the FST reader reads it (fst_check.h): one that fails is
 * "PATH: malformed FST file (what, where)", or "PATH: not a readable FST
 * file (why)" when it is beyond this reader. */
trace_t *trace_read(const char *path, trace_keep_fn keep, void *ctx, char *err, size_t errlen);
void trace_free(trace_t *t);

/* The first signal named NAME, or -1. */
long trace_find(const trace_t *t, const char *name);

/* The value of a recorded track at the end of time step `time` (after every
 * change at that time): `width` characters and a NUL; NULL before its first
 * change. */
const char *trace_value_at(const trace_track_t *tr, uint64_t time);

/* Sampling one track at non-decreasing times in O(1) amortized. */
typedef struct {
    const trace_track_t *tr;
    size_t next; /* the first change not yet passed */
} trace_cursor_t;

void trace_cursor_init(trace_cursor_t *c, const trace_track_t *tr);
/* As trace_value_at; `time` must not decrease from one call to the next. */
const char *trace_cursor_at(trace_cursor_t *c, uint64_t time);

/* 1 if signal NAME is under scope prefix SCOPE ("TOP.transport" holds
 * "TOP.transport.x" and "TOP.transport.sub.y", not "TOP.transport2.x"); a
 * trailing '.' of SCOPE is ignored. A NULL or empty SCOPE holds everything. */
int trace_in_scope(const char *name, const char *scope);

/* The cycles of a trace:
 *  - if it has a 1-bit signal whose leaf is "clk_i" (the shallowest one
 *    under SCOPE, else the shallowest one in the whole trace; ties: the
 *    first declared), the times of its rising edges (to 1 from 0, x or z,
 *    or from no value: its first value, if 1; from the end of one time step
 *    to the end of the next) at which the 1-bit signal "rst_ni"
 *    of the same scope, if there is one, is 1;
 *  - otherwise every time of t->times.
 * The clock and reset must be recorded (see trace_keep_fn) to be found. */
typedef struct {
    uint64_t *time; /* n cycle times, increasing */
    size_t n;
    long clk, rst;  /* indices of the clock and reset signals, or -1 */
    size_t reset_edges; /* rising edges not counted because rst_ni was not 1 */
} trace_cycles_t;

/* 0, or -1 (out of memory) with the reason in err. */
int trace_cycles(const trace_t *t, const char *scope, trace_cycles_t *out, char *err, size_t errlen);
void trace_cycles_free(trace_cycles_t *c);

#endif
