/* Text on the command line and in config files: the one number syntax,
 * and comma-separated lists (--burst 16,256, --loss 0.01,0.1, --n 4,8,
 * --fault drop=fwd:5,dup=back:3), so that every option refuses the same
 * mistakes. */
#ifndef UB_TEXT_H
#define UB_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* A decimal number: blanks around it are ignored, then an optional sign
 * and decimal digits; a real number may add a fraction and an exponent (12,
 * 12.5, .5, 1e3, 2.5E-1). Hexadecimal (0x10), inf, nan and infinity, which
 * strtod would take, are not numbers here. Returns 0, or -1 (and leaves
 * *out) if v is not one or is out of range. */
/* Whether c may stand in a name (a path's, stage's, node's, switch's, link's
 * or topology's), which reports and CSV print unquoted: a letter, a digit,
 * '_' or '-'. */
int text_name_char(int c);
int text_parse_real(const char *v, double *out);
int text_parse_whole(const char *v, int64_t *out);

enum {
    TEXT_LIST_EMPTY = -1,    /* the list or one of its items is empty */
    TEXT_LIST_TOO_MANY = -2, /* more than max items */
    TEXT_LIST_TOO_LONG = -3, /* the text does not fit in the buffer */
};

/* A comma-separated list: copies text into buf (cap bytes) with each comma
 * replaced by the end of a string, and points items[0..n-1] at the items
 * there. An empty item - an empty list, a leading, doubled or trailing
 * comma - is an error, never skipped or taken as "the default". Returns n
 * (>= 1), or a TEXT_LIST_ error. */
int text_list_split(const char *text, char *buf, size_t cap, char **items, int max);

/* What a TEXT_LIST_ error is, for a message. */
const char *text_list_error(int rc);

#endif
