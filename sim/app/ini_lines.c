#include "ini_lines.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Bytes that are not text: control characters other than tab, line feed,
 * carriage return and form feed, and what is not UTF-8. Returns the offset
 * of the first such byte, or len. */
static size_t first_non_text(const unsigned char *t, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned char c = t[i];
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f)
                return i;
            i++;
            continue;
        }
        /* a UTF-8 sequence: its length, and the smallest code point it may
         * hold (no overlong forms, no surrogates, nothing above U+10FFFF) */
        size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (!n || len - i < n)
            return i;
        uint32_t cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
        for (size_t k = 1; k < n; k++) {
            if ((t[i + k] & 0xc0) != 0x80)
                return i;
            cp = cp << 6 | (t[i + k] & 0x3f);
        }
        if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return i;
        i += n;
    }
    return len;
}

/* "is not text" with the place of the first bad byte. */
static void not_text(const char *name, const char *what, const char *t, size_t at, char *err,
                     int errlen)
{
    int line = 1;
    size_t bol = 0;
    for (size_t i = 0; i < at; i++)
        if (t[i] == '\n')
            line++, bol = i + 1;
    char byte[16];
    snprintf(byte, sizeof byte, t[at] ? "byte 0x%02x" : "a NUL byte", (unsigned char)t[at]);
    snprintf(err, (size_t)errlen, "%s:%d:%zu: not a text file: %s (expected a %s file: UTF-8 "
             "text, no control characters but tabs and line ends)",
             name, line, at - bol + 1, byte, what);
}

/* The checks every INI text passes before parsing: text (in its first
 * INI_LINES_MAX_BYTES: /dev/zero is not text before it is too long, and a
 * character cut at the limit is no fault of the file's) and at most
 * INI_LINES_MAX_BYTES. 0, or -1 with the message. */
static int check_text(const char *name, const char *what, const char *t, size_t n, char *err,
                      int errlen)
{
    size_t head = n < INI_LINES_MAX_BYTES ? n : INI_LINES_MAX_BYTES;
    /* (past the limit, the check ends before a character the limit cuts) */
    for (int k = 0; k < 3 && head < n && head > 0 && ((unsigned char)t[head] & 0xc0) == 0x80; k++)
        head--;
    size_t at = first_non_text((const unsigned char *)t, head);
    if (at < head) {
        not_text(name, what, t, at, err, errlen);
        return -1;
    }
    if (n > INI_LINES_MAX_BYTES) {
        snprintf(err, (size_t)errlen, "%s: larger than %d bytes (expected a %s file: INI text of "
                 "at most %d KiB)", name, INI_LINES_MAX_BYTES, what, INI_LINES_MAX_BYTES / 1024);
        return -1;
    }
    return 0;
}

char *ini_lines_read(const char *path, const char *what, char *err, int errlen)
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
    /* read at most one byte past the limit: a device that never ends
     * (/dev/zero) or a huge file is refused, not swallowed */
    char *t = malloc(INI_LINES_MAX_BYTES + 2);
    if (!t) {
        snprintf(err, (size_t)errlen, "out of memory reading %s '%s'", what, path);
        fclose(f);
        return NULL;
    }
    size_t n = fread(t, 1, INI_LINES_MAX_BYTES + 1, f);
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (bad) {
        snprintf(err, (size_t)errlen, "cannot read %s '%s': %s", what, path, strerror(e ? e : EIO));
        free(t);
        return NULL;
    }
    t[n] = 0;
    /* (here, where a NUL byte is still seen: the parser gets a C string) */
    if (check_text(path, what, t, n, err, errlen)) {
        free(t);
        return NULL;
    }
    return t;
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
    const char *text; /* what is left to hand over */
    ini_lines_t *il;
} reader_t;

/* Hands inih one whole line at a time. */
static char *reader(char *str, int num, void *stream)
{
    reader_t *r = stream;
    ini_lines_t *il = r->il;
    if (il->failed || !*r->text)
        return NULL;
    const char *line = r->text;
    const char *nl = strchr(r->text, '\n');
    size_t len = nl ? (size_t)(nl - r->text) + 1 : strlen(r->text);
    r->text += len;
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
    while (indent < content && (line[indent] == ' ' || line[indent] == '\t' || line[indent] == '\f' ||
                              line[indent] == '\r'))
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
    if (!*section)
        return ini_lines_fail(k->il, "%s: a key before any section (expected a '[section]' header "
                              "first)", key) == 0;
    if (seen_once(k->il, "", section, (int)strlen(section), key))
        return ini_lines_fail(k->il, "[%s] %s: set twice in this file (first at line %ld)", section,
                              key, k->il->first_line) == 0;
    return k->handler(k->user, section, key, value);
}

int ini_lines_parse(ini_lines_t *il, const char *what, const char *text,
                    int (*handler)(void *user, const char *section, const char *key,
                                   const char *value),
                    void *user)
{
    /* (text given to the library is checked as a file is) */
    if (check_text(il->file, what, text, strlen(text), il->err, il->errlen))
        return -1;
    reader_t r = {.text = text, .il = il};
    keys_t k = {il, handler, user};
    il->seen = (strmap_t)STRMAP_INIT;
    int rc = ini_parse_stream(reader, &r, each_key, &k);
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
