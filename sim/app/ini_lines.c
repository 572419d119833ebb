#include "ini_lines.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

FILE *ini_lines_open(const char *path, const char *what, char *err, int errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, (size_t)errlen, "cannot open %s '%s': %s", what, path, strerror(errno));
        return NULL;
    }
    /* fopen() opens a directory for reading on Linux; only reading it fails */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, (size_t)errlen, "cannot read %s '%s': is a directory (expected an INI file)",
                 what, path);
        fclose(f);
        return NULL;
    }
    return f;
}

int ini_lines_fail(ini_lines_t *il, const char *fmt, ...)
{
    if (!il->failed) {
        int n = snprintf(il->err, (size_t)il->errlen, "%s:%d: ", il->file, il->line);
        if (n < 0 || n >= il->errlen)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(il->err + n, (size_t)(il->errlen - n), fmt, ap);
        va_end(ap);
    }
    il->failed = 1;
    return -1;
}

typedef struct {
    const char *text; /* string source, or NULL */
    FILE *f;
    ini_lines_t *il;
    char *buf;        /* getline's buffer */
    size_t cap;
} reader_t;

/* Hands inih one whole line at a time. */
static char *reader(char *str, int num, void *stream)
{
    reader_t *r = stream;
    ini_lines_t *il = r->il;
    const char *line;
    size_t len;
    if (il->failed)
        return NULL;
    if (r->f) {
        errno = 0;
        ssize_t got = getline(&r->buf, &r->cap, r->f);
        if (got < 0) {
            if (ferror(r->f)) {
                il->line++;
                ini_lines_fail(il, "read error: %s", strerror(errno ? errno : EIO));
            }
            return NULL;
        }
        line = r->buf;
        len = (size_t)got;
        /* inih sees a line as a C string: a NUL byte would silently end it
         * there (and what follows up to the newline would be lost) */
        const char *nul = memchr(line, 0, len);
        if (nul) {
            il->line++;
            ini_lines_fail(il, "NUL byte at column %d (expected text)", (int)(nul - line) + 1);
            return NULL;
        }
    } else {
        if (!*r->text)
            return NULL;
        line = r->text;
        const char *nl = strchr(r->text, '\n');
        len = nl ? (size_t)(nl - r->text) + 1 : strlen(r->text);
        r->text += len;
    }
    il->line++;
    size_t content = len;
    while (content && (line[content - 1] == '\n' || line[content - 1] == '\r'))
        content--;
    if (content + 2 > (size_t)num) {
        ini_lines_fail(il, "line longer than %d characters", num - 2);
        return NULL;
    }
    memcpy(str, line, content);
    str[content] = '\n';
    str[content + 1] = 0;
    const char *c = str;
    while (*c == ' ' || *c == '\t')
        c++;
    if (*c == '[') {
        il->section_line = il->line;
        const char *end = strchr(c, ']');
        /* inih reports a header without its ']' */
        if (end && il->on_section && il->on_section(il, c + 1, (int)(end - c - 1)))
            return NULL;
    }
    return str;
}

int ini_lines_parse(ini_lines_t *il, FILE *f, const char *text,
                    int (*handler)(void *user, const char *section, const char *key,
                                   const char *value),
                    void *user)
{
    reader_t r = {.text = text, .f = f, .il = il};
    int rc = ini_parse_stream(reader, &r, handler, user);
    free(r.buf);
    if (il->failed)
        return -1;
    if (rc > 0) {
        snprintf(il->err, (size_t)il->errlen,
                 "%s:%d: expected '[section]', 'key = value' or a comment", il->file, rc);
        return -1;
    }
    if (rc < 0) {
        snprintf(il->err, (size_t)il->errlen, "%s: could not be read", il->file);
        return -1;
    }
    return 0;
}
