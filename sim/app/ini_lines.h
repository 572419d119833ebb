/* Reading INI text for libinih one whole line at a time, counting lines, so
 * that every message can say file:line. A file larger than
 * INI_LINES_MAX_BYTES, one that is not text and a line inih could not hold
 * are errors of their own; a [section] header is shown
 * to a callback as it is read, so an unknown section is reported even when
 * it has no keys (inih only reports keys). Lines may be indented: inih would
 * take an indented line for the continuation of the key before it (an
 * indented key became that key's value, an indented number replaced it), so
 * it is handed each line without its indentation. A key set twice in one
 * section, or a section opened twice, in one file is an error (naming the
 * line of the first); a later file or --set overrides on purpose. */
#ifndef UB_INI_LINES_H
#define UB_INI_LINES_H

#include "strmap.h"

typedef struct ini_lines {
    const char *file;   /* for messages */
    int line;           /* the line being handled */
    int section_line;   /* the line of the last [section] header */
    int failed;
    char *err;
    int errlen;
    /* called with each section header line ("[name]..."); returns nonzero
     * after setting the error (ini_lines_fail) to stop */
    int (*on_section)(struct ini_lines *il, const char *name, int len);
    /* (ini_lines_parse's own) the sections and keys of the file so far, by
     * the line that set them */
    strmap_t seen;
    long first_line; /* of the section or key just found twice */
} ini_lines_t;

/* The most a config or topology file may hold; every line is also at most
 * what inih takes (INI_MAX_LINE, less its line end). */
#define INI_LINES_MAX_BYTES (1024 * 1024)

/* Reads a whole INI file (a `what` file: "config", "topology") into a new
 * string, the caller's to free; NULL with a message naming the file when it
 * cannot be read, is a directory, holds more than INI_LINES_MAX_BYTES (read
 * no further: a device that never ends is refused) or is not text (a NUL or
 * other control byte, or bytes that are not UTF-8: "file:line:column", the
 * column counted in bytes). */
char *ini_lines_read(const char *path, const char *what, char *err, int errlen);

/* Sets "file:line: ..." as the error (the first one wins) and returns -1. */
int ini_lines_fail(ini_lines_t *il, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses text (a `what` file's, for messages; checked as ini_lines_read
 * checks a file) with inih, calling handler(user, ...) for every key.
 * Returns 0; or -1 with il->err set (by the reader, by the handler through
 * ini_lines_fail, or for a line that is not INI). */
int ini_lines_parse(ini_lines_t *il, const char *what, const char *text,
                    int (*handler)(void *user, const char *section, const char *key,
                                   const char *value),
                    void *user);

#endif
