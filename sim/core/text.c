#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The one number syntax of config files and command-line options: blanks
 * around it are ignored, then an optional sign and decimal digits; a real
 * number may add a fraction and an exponent (12, 12.5, .5, 1e3, 2.5E-1).
 * strtod alone would also take hexadecimal (0x10 = 16), inf, nan and
 * infinity; none of these is a number here. V starts at the number (leading
 * blanks skipped); returns its length, or 0 if V is not one. */
static size_t decimal_length(const char *v, int real)
{
    const char *p = v;
    if (*p == '+' || *p == '-')
        p++;
    size_t digits = strspn(p, "0123456789");
    p += digits;
    if (real && *p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        digits += frac;
        p += 1 + frac;
    }
    if (digits == 0)
        return 0;
    if (real && (*p == 'e' || *p == 'E')) {
        const char *e = p + 1;
        if (*e == '+' || *e == '-')
            e++;
        size_t exp = strspn(e, "0123456789");
        if (exp == 0)
            return 0;
        p = e + exp;
    }
    size_t len = (size_t)(p - v);
    p += strspn(p, " \t");
    return *p ? 0 : len;
}

int text_parse_real(const char *v, double *out)
{
    v += strspn(v, " \t");
    if (!decimal_length(v, 1))
        return -1;
    errno = 0;
    double d = strtod(v, NULL);
    if (errno || !isfinite(d))
        return -1;
    *out = d;
    return 0;
}

int text_parse_whole(const char *v, int64_t *out)
{
    v += strspn(v, " \t");
    if (!decimal_length(v, 0))
        return -1;
    errno = 0;
    long long x = strtoll(v, NULL, 10);
    if (errno)
        return -1;
    *out = x;
    return 0;
}

int text_list_split(const char *text, char *buf, size_t cap, char **items, int max)
{
    size_t len = strlen(text);
    if (len >= cap)
        return TEXT_LIST_TOO_LONG;
    memcpy(buf, text, len + 1);
    int n = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (*p == '\0')
            return TEXT_LIST_EMPTY;
        if (n == max)
            return TEXT_LIST_TOO_MANY;
        items[n++] = p;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

const char *text_list_error(int rc)
{
    switch (rc) {
    case TEXT_LIST_EMPTY:
        return "an empty item (an empty list, or a leading, doubled or trailing comma)";
    case TEXT_LIST_TOO_MANY:
        return "too many items";
    case TEXT_LIST_TOO_LONG:
        return "too long";
    default:
        return "not a list";
    }
}

int text_name_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}
