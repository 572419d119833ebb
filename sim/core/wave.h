/* Waveform writer for the C model: FST (through the FST writer that ships
 * with Verilator/GTKWave) or VCD, chosen by the file name's extension.
 * Signal names use dots for scope: "nodeA.nic.tx.in_valid" puts in_valid in
 * scope nodeA.nic.tx. Time is given in picoseconds (timescale 1 ps). */
#ifndef UB_WAVE_H
#define UB_WAVE_H

#include <stdint.h>

typedef struct wave wave_t;
typedef int wave_sig_t; /* handle; negative = invalid */

/* Opens FILE (".fst" or ".vcd"). Returns NULL and writes a message with the
 * reason into err (errlen bytes) on failure (bad extension, cannot create). */
wave_t *wave_open(const char *path, char *err, int errlen);

#define WAVE_MAX_WIDTH 65535

/* Declares a signal of WIDTH bits (1..WAVE_MAX_WIDTH) before the first
 * wave_time call. */
wave_sig_t wave_add(wave_t *w, const char *dotted_name, int width);
/* Declares a string-valued signal (shown as text in GTKWave). */
wave_sig_t wave_add_str(wave_t *w, const char *dotted_name);

/* Advances time (ps, non-decreasing; earlier times are clamped). */
void wave_time(wave_t *w, uint64_t ps);
/* Records a value; unchanged values are not re-emitted. A signal wider than
 * 64 bits gets `value` in its low 64 bits and zeros above. */
void wave_set(wave_t *w, wave_sig_t s, uint64_t value);
/* Records the value of a signal of any width as 64-bit words, least
 * significant first: (width + 63) / 64 of them; bits above the width are
 * ignored. */
void wave_set_words(wave_t *w, wave_sig_t s, const uint64_t *words);
void wave_set_str(wave_t *w, wave_sig_t s, const char *text);

/* Flushes and closes; returns 0 on success, -1 if the file could not be
 * written whole (a full disk). NULL is accepted. */
int wave_close(wave_t *w);

/* Every writer of FST files (this one, Verilator's VerilatedFstC) runs
 * between wave_fst_watch(FILE) and wave_fst_unwatch(handle): the FST writer
 * reads its own files back through mmap() and a full disk turns into SIGBUS,
 * which meanwhile prints a message naming the FST files and exits with
 * status 1 (see wave.c). watch returns a handle, or -1 (then unguarded). */
int wave_fst_watch(const char *path);
void wave_fst_unwatch(int handle);
/* Checks that a finished FST file is whole (every block complete, none
 * missing). 0, or -1 with the reason in err (which may be NULL). */
int wave_fst_verify(const char *path, char *err, int errlen);

#endif
