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

static int seen_once(ini_lines_t *il, const char *prefix, const char *a, int n, const char *b);

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
    /* (without its indentation: inih would continue the key before it) */
    size_t indent = 0;
    if (il->line == 1 && content >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3))
        indent = 3; /* a UTF-8 byte-order mark */
    while (indent < content && (line[indent] == ' ' || line[indent] == '\t'))
        indent++;
    memcpy(str, line + indent, content - indent);
    str[content - indent] = '\n';
    str[content - indent + 1] = 0;
    /* what inih would report only after the keys that follow (a header
     * it cannot read), or not at all (text after the header's ']') */
    size_t tl = content - indent;
    while (tl && (str[tl - 1] == ' ' || str[tl - 1] == '\t'))
        tl--;
    if (*str == '[') {
        il->section_line = il->line;
        const char *end = strchr(str, ']');
        const char *after = end ? end + 1 : NULL;
        while (after && (*after == ' ' || *after == '\t'))
            after++;
        if (!end || (*after != '\n' && *after != ';' && *after != '#')) {
            ini_lines_fail(il, "expected a section header '[name]', got '%.*s'", (int)tl, str);
            return NULL;
        }
        if (il->on_section && il->on_section(il, str + 1, (int)(end - str - 1)))
            return NULL;
        if (seen_once(il, "[", str + 1, (int)(end - str - 1), "")) {
            ini_lines_fail(il, "[%.*s]: the section is opened twice in this file (first at line %ld)",
                           (int)(end - str - 1), str + 1, il->first_line);
            return NULL;
        }
    } else if (tl && *str != ';' && *str != '#' && !memchr(str, '=', tl) && !memchr(str, ':', tl)) {
        ini_lines_fail(il, "expected '[section]', 'key = value' or a comment, got '%.*s'", (int)tl, str);
        return NULL;
    }
    return str;
}

/* Notes the section header or key named by prefix, a (n characters) and
 * b at the current line: 0 the first time, 1 (with il->first_line set) when
 * it was seen before. */
static int seen_once(ini_lines_t *il, const char *prefix, const char *a, int n, const char *b)
{
    char key[512];
    snprintf(key, sizeof key, "%s%.*s\x1f%s", prefix, n, a, b);
    long at = strmap_get(&il->seen, key, -1);
    if (at >= 0) {
        il->first_line = at;
        return 1;
    }
    if (strmap_put(&il->seen, key, il->line))
        ini_lines_fail(il, "out of memory");
    return 0;
}

typedef struct {
    ini_lines_t *il;
    int (*handler)(void *user, const char *section, const char *key, const char *value);
    void *user;
} keys_t;

/* Each key once per section and file, then the caller's handler. */
static int each_key(void *user, const char *section, const char *key, const char *value)
{
    keys_t *k = user;
    if (k->il->failed)
        return 1;
    if (seen_once(k->il, "", section, (int)strlen(section), key))
        return ini_lines_fail(k->il, "[%s] %s: set twice in this file (first at line %ld)", section,
                              key, k->il->first_line) == 0;
    return k->handler(k->user, section, key, value);
}

int ini_lines_parse(ini_lines_t *il, FILE *f, const char *text,
                    int (*handler)(void *user, const char *section, const char *key,
                                   const char *value),
                    void *user)
{
    reader_t r = {.text = text, .f = f, .il = il};
    keys_t k = {il, handler, user};
    il->seen = (strmap_t)STRMAP_INIT;
    int rc = ini_parse_stream(reader, &r, each_key, &k);
    free(r.buf);
    strmap_free(&il->seen);
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
