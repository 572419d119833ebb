/* Test vectors of every block instance, for replay in any Verilog simulator.
 *
 * While vectors are on (block_vectors_begin), every block instance made by
 * block_new writes, into its own folder DIR/<block>.<k> (k counting the
 * instances of that block from 0, in creation order):
 *
 *   in.hex         one line per clock edge the instance is stepped, the
 *                  input ports in port-list order, after a first field that
 *                  is 1 when a reset comes before that edge (the reset when
 *                  the instance is made, and every block_reset); fields are
 *                  hexadecimal, ceil(width / 4) digits, joined by '_'
 *   exp.hex        one line per edge, the output ports the C model gave
 *                  after that edge, in port-list order, in the same form
 *   manifest.json  the block, its ports (name, direction, width, digits),
 *                  the edge and reset counts, the seed and the command line
 *
 * Both files read with $readmemh into one wide word per line: the fields
 * are the word's slices from the most significant end, each port in a slice
 * of 4 * digits bits. Edges the simulator jumps over (a C model's
 * fast-forward, block_advance) are written one by one, as the steps they
 * stand for. The expected outputs are the C model's, so an instance that
 * runs only the RTL is refused while vectors are on. docs/vectors.md. */
#ifndef UB_VECTORS_H
#define UB_VECTORS_H

#include "block.h"

/* Turns vectors on for every instance made from now on, under `dir`
 * (created if missing). cmdline and seed go into each manifest. Returns 0,
 * or -1 with a message. */
int block_vectors_begin(const char *dir, const char *cmdline, const char *seed, char *err,
                        int errlen);
/* The folder vectors go to, or NULL when they are off. */
const char *block_vectors_dir(void);
/* Turns vectors off. Returns 0, or -1 with a message when some file could
 * not be written completely (a full disk). */
int block_vectors_end(char *err, int errlen);

/* --- for block.c ------------------------------------------------------------ */
typedef struct vec_writer vec_writer_t;
/* The writer of a new instance of cls (NULL with no error when vectors are
 * off; NULL with a message on failure). */
vec_writer_t *vec_open(const block_class_t *cls, backend_kind_t kind, char *err, int errlen);
void vec_reset(vec_writer_t *v);
void vec_edge(vec_writer_t *v, const void *in, const void *out);
/* Closes the files and writes the manifest. */
void vec_close(vec_writer_t *v);

#endif
