/* Checking an FST waveform file in full before the FST reader (fstapi, the
 * one that ships with Verilator/GTKWave) is given it.
 *
 * That reader trusts its input: lengths, counts, offsets and handles are
 * taken from the file and used to size buffers and index tables, some
 * compressed data is decompressed without looking at the result, and a
 * failed decompression ends the process. fst_check walks the whole file and
 * accepts it only when every field the reader relies on is consistent with
 * the rest of the file: the header, each block's type and length, the
 * geometry (the width of every handle), the hierarchy (gzip, LZ4 or twice
 * LZ4 compressed, or a FILE.hier next to the file, which the reader prefers),
 * the dump on/off table and, in every value change block, its times, the
 * initial values, the table that locates each handle's changes, every
 * handle's changes (decompressed with bounds, then decoded as the reader
 * decodes them, against its width and the block's times) and the time
 * table. A file that passes can be read by the FST reader without it going
 * out of bounds or exiting, and it delivers what the file holds (the
 * reader's tables are worked out as it works them out, across blocks, and
 * must agree with the file's own). A file wrapped whole in gzip (as the
 * writer leaves it when asked to repack on close) is unpacked into a
 * temporary file and checked inside.
 *
 * Anything that is not as the FST writer writes it is refused: this is a
 * check of files, not a repair. */
#ifndef UB_FST_CHECK_H
#define UB_FST_CHECK_H

#include <stddef.h>

/* The widest signal accepted (bits); a wider one is refused as beyond this
 * reader (FST_CHECK_UNREADABLE), not as malformed. */
#define FST_CHECK_MAX_WIDTH (1u << 24)

enum {
    FST_CHECK_OK = 0,
    /* the file is not a well-formed FST file: why says what is wrong and
     * where (a block by its byte offset, a handle by its number from 1) */
    FST_CHECK_MALFORMED = 1,
    /* well-formed as far as checked, but not readable here: it cannot be
     * read (I/O error), it holds no signal, it is beyond this reader's
     * limits, or memory ran out; why says which */
    FST_CHECK_UNREADABLE = 2,
};

/* Checks the FST file PATH. FST_CHECK_OK, or one of the two failures with
 * the reason in why (whylen bytes; the reason does not repeat the path). */
int fst_check(const char *path, char *why, size_t whylen);

#endif
