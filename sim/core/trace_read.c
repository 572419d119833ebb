/* Reading VCD and FST waveforms into memory: see trace_read.h.
 *
 * Both readers build the same structure: signals are added as their
 * declarations are met (the scope stack gives their full names), a track per
 * distinct value stream (VCD identifier code, FST handle), and the value
 * changes, in time order, appended to the tracks. The VCD parser is a
 * whitespace tokenizer over a buffered stream with a line count for the
 * messages; the FST file goes through fstapi's reader once fst_check
 * (fst_check.h) has found it well-formed. */
#include "trace_read.h"

#include "strmap.h"

#include <ctype.h>
#include <errno.h>
#include <fstapi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fst_check.h"

/* The widest signal accepted: a limit against absurd declarations (one value
 * of this width takes 16 MiB), reported, never applied silently. */
#define TRACE_MAX_WIDTH (1 << 24)

static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Grows *p (an array of *cap elements of size sz) to hold at least `need`. */
static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > ((size_t)-1) / 2 / sz)
            return -1;
        ncap *= 2;
    }
    void *np = realloc(*p, ncap * sz);
    if (!np)
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Building a trace                                                          */

typedef struct {
    trace_t *t;
    size_t sig_cap, track_cap, times_cap;
    trace_keep_fn keep;
    void *kctx;
    char *err;
    size_t errlen;
    const char *path;
    int oom;

    /* the current scope, "a.b.c", and where each level starts */
    char *scope;
    size_t scope_len, scope_cap;
    size_t *marks;
    size_t n_marks, marks_cap;
} builder_t;

static int oom(builder_t *b)
{
    b->oom = 1;
    set_err(b->err, b->errlen, "%s: out of memory", b->path);
    return -1;
}

static int scope_push(builder_t *b, const char *name, size_t len)
{
    if (grow((void **)&b->marks, &b->marks_cap, b->n_marks + 1, sizeof *b->marks) ||
        grow((void **)&b->scope, &b->scope_cap, b->scope_len + len + 2, 1))
        return oom(b);
    b->marks[b->n_marks++] = b->scope_len;
    if (b->scope_len)
        b->scope[b->scope_len++] = '.';
    memcpy(b->scope + b->scope_len, name, len);
    b->scope_len += len;
    b->scope[b->scope_len] = '\0';
    return 0;
}

/* 0, or -1 when no scope is open. */
static int scope_pop(builder_t *b)
{
    if (b->n_marks == 0)
        return -1;
    b->scope_len = b->marks[--b->n_marks];
    b->scope[b->scope_len] = '\0';
    return 0;
}

/* The length of a variable's reference without a trailing bit range
 * ("data [7:0]", "data[7:0]" -> "data"; a single index "mem[3]" stays). */
static size_t strip_range(const char *ref, size_t len)
{
    while (len && ref[len - 1] == ' ')
        len--;
    if (len < 5 || ref[len - 1] != ']')
        return len;
    size_t i = len - 1, colons = 0, digits = 0;
    while (i > 0 && ref[i - 1] != '[') {
        char c = ref[i - 1];
        if (c == ':')
            colons++;
        else if (isdigit((unsigned char)c) || c == '-')
            digits++;
        else
            return len;
        i--;
    }
    if (i == 0 || colons != 1 || digits < 2 || i - 1 == 0)
        return len;
    len = i - 1; /* at the '[' */
    while (len && ref[len - 1] == ' ')
        len--;
    return len ? len : i - 1;
}

static int new_track(builder_t *b, int width)
{
    trace_t *t = b->t;
    if (t->n_track >= 0x7fffffff)
        return oom(b);
    if (grow((void **)&t->track, &b->track_cap, t->n_track + 1, sizeof *t->track))
        return oom(b);
    trace_track_t *tr = &t->track[t->n_track];
    memset(tr, 0, sizeof *tr);
    tr->width = width;
    return (int)t->n_track++;
}

/* Declares a signal: the current scope plus REF (without its bit range),
 * on track `track`. */
static int add_signal(builder_t *b, const char *ref, size_t ref_len, int width, int track)
{
    trace_t *t = b->t;
    ref_len = strip_range(ref, ref_len);
    if (grow((void **)&t->sig, &b->sig_cap, t->n_sig + 1, sizeof *t->sig))
        return oom(b);
    size_t n = b->scope_len + 1 + ref_len + 1;
    char *name = malloc(n);
    if (!name)
        return oom(b);
    size_t k = 0;
    if (b->scope_len) {
        memcpy(name, b->scope, b->scope_len);
        k = b->scope_len;
        name[k++] = '.';
    }
    memcpy(name + k, ref, ref_len);
    name[k + ref_len] = '\0';
    trace_signal_t *s = &t->sig[t->n_sig++];
    s->name = name;
    s->leaf = name + k;
    s->width = width;
    s->track = track;
    s->depth = 0;
    for (const char *p = name; *p; p++)
        s->depth += *p == '.';
    if (!b->keep || b->keep(s, b->kctx))
        t->track[track].keep = 1;
    return 0;
}

/* One of the four value characters, or 0 for a character that is none. */
static char value_char(char c)
{
    switch (c) {
    case '0': case 'l': case 'L': return '0';
    case '1': case 'h': case 'H': return '1';
    case 'x': case 'X': case 'u': case 'U': case 'w': case 'W': case '-': return 'x';
    case 'z': case 'Z': return 'z';
    default: return 0;
    }
}

static void add_time(builder_t *b, uint64_t time)
{
    trace_t *t = b->t;
    if (t->n_times && t->times[t->n_times - 1] >= time)
        return;
    if (grow((void **)&t->times, &b->times_cap, t->n_times + 1, sizeof *t->times)) {
        oom(b);
        return;
    }
    t->times[t->n_times++] = time;
}

enum { REC_OK = 0, REC_OOM = -1, REC_BADCHAR = -2, REC_TOOWIDE = -3 };

/* Records value V (len characters, MSB first) of track `ti` at `time` (not
 * before the track's last change). A shorter value is extended on the left
 * (0 and 1 with 0, x with x, z with z); a longer one is accepted when its
 * extra leading characters are that extension. */
static int record(builder_t *b, int ti, uint64_t time, const char *v, size_t len)
{
    add_time(b, time);
    if (b->oom)
        return REC_OOM;
    trace_track_t *tr = &b->t->track[ti];
    if (!tr->keep)
        return REC_OK;
    size_t w = (size_t)tr->width;
    if (len == 0)
        return REC_BADCHAR;
    char first = value_char(v[0]);
    if (!first)
        return REC_BADCHAR;
    if (len > w) {
        size_t extra = len - w;
        char keep0 = value_char(v[extra]);
        char ext = keep0 == 'x' || keep0 == 'z' ? keep0 : '0';
        for (size_t i = 0; i < extra; i++)
            if (value_char(v[i]) != ext)
                return REC_TOOWIDE;
        v += extra;
        len = w;
        first = keep0;
        if (!first)
            return REC_BADCHAR;
    }
    size_t slot = tr->n;
    if (tr->n && tr->time[tr->n - 1] == time) {
        slot = tr->n - 1; /* the same time step: the last value stands */
    } else {
        if (tr->n == tr->cap) {
            size_t ncap = tr->cap ? tr->cap * 2 : 16;
            if (ncap < tr->cap || ncap > ((size_t)-1) / (w + 1) / 2)
                return REC_OOM;
            uint64_t *nt = realloc(tr->time, ncap * sizeof *nt);
            if (!nt)
                return REC_OOM;
            tr->time = nt;
            char *nv = realloc(tr->val, ncap * (w + 1));
            if (!nv)
                return REC_OOM;
            tr->val = nv;
            tr->cap = ncap;
        }
        tr->time[slot] = time;
        tr->n++;
    }
    char *dst = tr->val + slot * (w + 1);
    char ext = first == 'x' || first == 'z' ? first : '0';
    size_t pad = w - len;
    memset(dst, ext, pad);
    for (size_t i = 0; i < len; i++) {
        char c = value_char(v[i]);
        if (!c)
            return REC_BADCHAR;
        dst[pad + i] = c;
    }
    dst[w] = '\0';
    return REC_OK;
}

/* ------------------------------------------------------------------------ */
/* VCD                                                                       */


typedef struct {
    FILE *f;
    unsigned char buf[1 << 16];
    size_t len, pos;
    long line;       /* the line being read */
    char *tok;       /* the current token, NUL-terminated */
    size_t tlen, tcap;
    long tline;      /* its line */
    int last;        /* the last character read */
} lex_t;

static int lx_getc(lex_t *L)
{
    if (L->pos == L->len) {
        L->len = fread(L->buf, 1, sizeof L->buf, L->f);
        L->pos = 0;
        if (L->len == 0)
            return EOF;
    }
    return L->last = L->buf[L->pos++];
}

/* The last line of the file, once it has been read to its end. */
static long lx_last_line(const lex_t *L)
{
    return L->last == '\n' && L->line > 1 ? L->line - 1 : L->line;
}

/* 1: a token in L->tok; 0: end of file; -1: out of memory; -2: read error */
static int lx_next(lex_t *L)
{
    int c;
    do {
        c = lx_getc(L);
        if (c == '\n')
            L->line++;
    } while (c != EOF && isspace(c));
    if (c == EOF)
        return ferror(L->f) ? -2 : 0;
    L->tline = L->line;
    L->tlen = 0;
    while (c != EOF && !isspace(c)) {
        if (L->tlen + 2 > L->tcap && grow((void **)&L->tok, &L->tcap, L->tlen + 2, 1))
            return -1;
        L->tok[L->tlen++] = (char)c;
        c = lx_getc(L);
    }
    if (c == '\n')
        L->line++;
    L->tok[L->tlen] = '\0';
    return 1;
}

/* A token as shown in a message: at most 40 characters, non-printable ones
 * as '?'. */
static const char *shown(const char *tok, size_t len, char *out, size_t outlen)
{
    size_t k = 0, max = outlen - 4;
    for (size_t i = 0; i < len && k < max; i++)
        out[k++] = isprint((unsigned char)tok[i]) ? tok[i] : '?';
    if (len > max) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
    return out;
}

typedef struct {
    builder_t *b;
    lex_t *L;
    strmap_t ids; /* identifier code -> track (-1: a real or string variable) */
    char show[48];
} vcd_t;

#define TOK(v) shown((v)->L->tok, (v)->L->tlen, (v)->show, sizeof (v)->show)

static int vcd_fail(vcd_t *v, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int vcd_fail(vcd_t *v, long line, const char *fmt, ...)
{
    builder_t *b = v->b;
    if (!b->err || b->errlen == 0)
        return -1;
    int n = snprintf(b->err, b->errlen, "%s:%ld: ", b->path, line);
    if (n >= 0 && (size_t)n < b->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->err + n, b->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The next token, or a message that the file ended where WHAT was
 * expected. 0 or -1. */
static int vcd_need(vcd_t *v, const char *what)
{
    int r = lx_next(v->L);
    if (r == 1)
        return 0;
    if (r == -1)
        return oom(v->b);
    if (r == -2)
        return vcd_fail(v, v->L->line, "read error: %s", strerror(errno));
    return vcd_fail(v, lx_last_line(v->L), "the file ends where %s was expected", what);
}

static int vcd_expect_end(vcd_t *v, const char *after)
{
    if (vcd_need(v, "$end"))
        return -1;
    if (strcmp(v->L->tok, "$end") != 0)
        return vcd_fail(v, v->L->tline, "expected $end after %s, got '%s'", after, TOK(v));
    return 0;
}

/* Skips the tokens of a command up to its $end. */
static int vcd_skip(vcd_t *v, const char *cmd, long line)
{
    for (;;) {
        int r = lx_next(v->L);
        if (r == -1)
            return oom(v->b);
        if (r == -2)
            return vcd_fail(v, v->L->line, "read error: %s", strerror(errno));
        if (r == 0)
            return vcd_fail(v, lx_last_line(v->L), "the file ends inside %s (line %ld): expected its $end",
                            cmd, line);
        if (strcmp(v->L->tok, "$end") == 0)
            return 0;
    }
}

/* "$timescale 1ps $end", "$timescale 10 ns $end" */
static int vcd_timescale(vcd_t *v)
{
    long line = v->L->tline;
    char text[64];
    size_t n = 0;
    for (;;) {
        if (vcd_need(v, "the time unit of $timescale"))
            return -1;
        if (strcmp(v->L->tok, "$end") == 0)
            break;
        if (n + v->L->tlen >= sizeof text)
            return vcd_fail(v, line, "$timescale: expected 1, 10 or 100 and a unit (s, ms, us, ns, "
                                     "ps, fs), got a longer text");
        memcpy(text + n, v->L->tok, v->L->tlen);
        n += v->L->tlen;
    }
    text[n] = '\0';
    static const struct {
        const char *unit;
        int exp;
    } units[] = {{"s", 0}, {"ms", -3}, {"us", -6}, {"ns", -9}, {"ps", -12}, {"fs", -15}};
    char *end;
    long mul = strtol(text, &end, 10);
    if (end != text && (mul == 1 || mul == 10 || mul == 100)) {
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
            if (strcmp(end, units[i].unit) == 0) {
                v->b->t->timescale_mul = (int)mul;
                v->b->t->timescale_exp = units[i].exp;
                return 0;
            }
        }
    }
    char s[48];
    return vcd_fail(v, line, "$timescale: expected 1, 10 or 100 and a unit (s, ms, us, ns, ps, fs), got '%s'",
                    shown(text, n, s, sizeof s));
}

static int vcd_scope(vcd_t *v)
{
    if (vcd_need(v, "the scope type of $scope"))
        return -1;
    if (strcmp(v->L->tok, "$end") == 0)
        return vcd_fail(v, v->L->tline, "$scope: expected a scope type and a name before $end");
    if (vcd_need(v, "the scope name of $scope"))
        return -1;
    if (strcmp(v->L->tok, "$end") == 0)
        return vcd_fail(v, v->L->tline, "$scope: expected a scope name after its type, got $end");
    if (scope_push(v->b, v->L->tok, v->L->tlen))
        return -1;
    return vcd_expect_end(v, "the $scope name");
}

static int is_skipped_type(const char *type)
{
    return strcmp(type, "real") == 0 || strcmp(type, "realtime") == 0 ||
           strcmp(type, "shortreal") == 0 || strcmp(type, "real_parameter") == 0 ||
           strcmp(type, "string") == 0;
}

/* $var TYPE SIZE ID REFERENCE [RANGE] $end */
static int vcd_var(vcd_t *v)
{
    long line = v->L->tline;
    int skip;
    if (vcd_need(v, "the type of $var"))
        return -1;
    if (v->L->tok[0] == '$')
        return vcd_fail(v, v->L->tline, "$var: expected a type (wire, reg, ...), got '%s'", TOK(v));
    skip = is_skipped_type(v->L->tok);
    if (vcd_need(v, "the size of $var"))
        return -1;
    char *end;
    errno = 0;
    long width = strtol(v->L->tok, &end, 10);
    if (!isdigit((unsigned char)v->L->tok[0]) || *end || errno || width < 1 || width > TRACE_MAX_WIDTH)
        return vcd_fail(v, v->L->tline, "$var: expected a size (a whole number from 1 to %d), got '%s'",
                        TRACE_MAX_WIDTH, TOK(v));
    if (vcd_need(v, "the identifier code of $var"))
        return -1;
    if (strcmp(v->L->tok, "$end") == 0)
        return vcd_fail(v, v->L->tline, "$var: expected an identifier code, got $end");
    char *id = strdup(v->L->tok);
    if (!id)
        return oom(v->b);
    int rc = -1;
    char *ref = NULL;
    size_t ref_len = 0;
    if (vcd_need(v, "the reference (name) of $var"))
        goto out;
    if (strcmp(v->L->tok, "$end") == 0) {
        vcd_fail(v, v->L->tline, "$var: expected a name after the identifier code, got $end");
        goto out;
    }
    ref = strdup(v->L->tok);
    ref_len = ref ? strlen(ref) : 0; /* (a token may hold a NUL byte) */
    if (!ref) {
        oom(v->b);
        goto out;
    }
    for (;;) { /* an optional bit range, then $end */
        if (vcd_need(v, "$end of $var"))
            goto out;
        if (strcmp(v->L->tok, "$end") == 0)
            break;
        if (v->L->tok[0] != '[') {
            vcd_fail(v, v->L->tline, "$var %s: expected a bit range such as [7:0] or $end, got '%s'",
                     ref, TOK(v));
            goto out;
        }
    }
    int track = (int)strmap_get(&v->ids, id, -2);
    if (skip) {
        if (track >= 0) {
            vcd_fail(v, line, "$var %s: identifier code '%s' is a real or string here but a "
                     "bit vector in an earlier $var", ref, id);
            goto out;
        }
        v->b->t->n_skipped++;
        if (track == -2 && strmap_put(&v->ids, id, -1)) {
            oom(v->b);
            goto out;
        }
        rc = 0;
        goto out;
    }
    if (track == -1) {
        vcd_fail(v, line, "$var %s: identifier code '%s' is a bit vector here but a real or "
                 "string in an earlier $var", ref, id);
        goto out;
    }
    if (track >= 0 && v->b->t->track[track].width != (int)width) {
        vcd_fail(v, line, "$var %s: identifier code '%s' has size %ld here but %d in an earlier $var",
                 ref, id, width, v->b->t->track[track].width);
        goto out;
    }
    if (track < 0) {
        track = new_track(v->b, (int)width);
        if (track < 0 || strmap_put(&v->ids, id, track)) {
            oom(v->b);
            goto out;
        }
    }
    rc = add_signal(v->b, ref, ref_len, (int)width, track);
out:
    free(id);
    free(ref);
    return rc;
}

static int vcd_header(vcd_t *v)
{
    for (;;) {
        int r = lx_next(v->L);
        if (r == -1)
            return oom(v->b);
        if (r == -2)
            return vcd_fail(v, v->L->line, "read error: %s", strerror(errno));
        if (r == 0)
            return vcd_fail(v, lx_last_line(v->L), "the file ends before $enddefinitions");
        const char *tok = v->L->tok;
        long line = v->L->tline;
        int rc;
        if (strcmp(tok, "$scope") == 0) {
            rc = vcd_scope(v);
        } else if (strcmp(tok, "$upscope") == 0) {
            if (scope_pop(v->b))
                return vcd_fail(v, line, "$upscope without an open $scope");
            rc = vcd_expect_end(v, "$upscope");
        } else if (strcmp(tok, "$var") == 0) {
            rc = vcd_var(v);
        } else if (strcmp(tok, "$timescale") == 0) {
            rc = vcd_timescale(v);
        } else if (strcmp(tok, "$enddefinitions") == 0) {
            return vcd_expect_end(v, "$enddefinitions");
        } else if (tok[0] == '$' && strcmp(tok, "$end") != 0) {
            /* $date, $version, $comment and the commands of other writers */
            char cmd[48];
            shown(tok, v->L->tlen, cmd, sizeof cmd);
            rc = vcd_skip(v, cmd, line);
        } else {
            return vcd_fail(v, line,
                            "expected a declaration command ($scope, $var, $upscope, "
                            "$timescale, $enddefinitions, ...), got '%s'",
                            TOK(v));
        }
        if (rc)
            return rc;
    }
}

/* The track of identifier code ID at line LINE: >= 0, -1 for a real or
 * string variable, or -2 after a message (unknown). */
static int vcd_id(vcd_t *v, const char *id, long line)
{
    int track = (int)strmap_get(&v->ids, id, -2);
    if (track == -2) {
        char s[48];
        vcd_fail(v, line, "unknown identifier code '%s' (no $var declares it)",
                 shown(id, strlen(id), s, sizeof s));
    }
    return track;
}

static int vcd_change(vcd_t *v, int track, uint64_t time, const char *val, size_t len, const char *id,
                      long line)
{
    int r = record(v->b, track, time, val, len);
    if (r == REC_OK)
        return 0;
    if (r == REC_OOM)
        return oom(v->b);
    char s[48];
    shown(val, len, s, sizeof s);
    if (r == REC_TOOWIDE)
        return vcd_fail(v, line, "value '%s' of identifier code '%s' has %zu bits, more than its %d",
                        s, id, len, v->b->t->track[track].width);
    return vcd_fail(v, line, "value '%s' of identifier code '%s': expected bits 0, 1, x or z", s, id);
}

static int vcd_body(vcd_t *v)
{
    uint64_t time = 0;
    int have_time = 0;
    char *val = NULL;
    size_t val_cap = 0;
    int rc = -1;
    for (;;) {
        int r = lx_next(v->L);
        if (r == -1) {
            oom(v->b);
            goto out;
        }
        if (r == -2) {
            vcd_fail(v, v->L->line, "read error: %s", strerror(errno));
            goto out;
        }
        if (r == 0)
            break;
        char *tok = v->L->tok;
        long line = v->L->tline;
        char c = tok[0];
        if (c == '#') {
            uint64_t t = 0;
            const char *p = tok + 1;
            if (!*p) {
                vcd_fail(v, line, "expected a time after '#', such as #100");
                goto out;
            }
            for (; *p; p++) {
                if (!isdigit((unsigned char)*p) || t > (UINT64_MAX - 9) / 10) {
                    vcd_fail(v, line, "'%s': expected a time, '#' and a whole number below 2^64",
                             TOK(v));
                    goto out;
                }
                t = t * 10 + (uint64_t)(*p - '0');
            }
            if (have_time && t < time) {
                vcd_fail(v, line, "time goes backwards: #%llu after #%llu", (unsigned long long)t,
                         (unsigned long long)time);
                goto out;
            }
            time = t;
            have_time = 1;
        } else if (c == '$') {
            if (strcmp(tok, "$dumpvars") == 0 || strcmp(tok, "$dumpall") == 0 ||
                strcmp(tok, "$dumpon") == 0 || strcmp(tok, "$dumpoff") == 0 ||
                strcmp(tok, "$end") == 0)
                continue;
            if (strcmp(tok, "$comment") == 0) {
                if (vcd_skip(v, "$comment", line))
                    goto out;
                continue;
            }
            vcd_fail(v, line,
                     "unexpected '%s' after $enddefinitions (expected #time, a value change, "
                     "$dumpvars, $dumpall, $dumpon, $dumpoff, $comment or $end)",
                     TOK(v));
            goto out;
        } else if (value_char(c) && c != 'h' && c != 'H' && c != 'l' && c != 'L' && c != 'u' &&
                   c != 'U' && c != 'w' && c != 'W') {
            /* a scalar change: 0!, 1!, x!, z! (and '-') */
            if (!tok[1]) {
                vcd_fail(v, line, "value change '%s': expected the identifier code right after "
                         "the value, as in 1!", TOK(v));
                goto out;
            }
            int track = vcd_id(v, tok + 1, line);
            if (track == -2)
                goto out;
            if (track >= 0 && vcd_change(v, track, time, tok, 1, tok + 1, line))
                goto out;
        } else if (c == 'b' || c == 'B' || c == 'r' || c == 'R' || c == 's' || c == 'S') {
            size_t len = v->L->tlen - 1;
            if (grow((void **)&val, &val_cap, len + 1, 1)) {
                oom(v->b);
                goto out;
            }
            memcpy(val, tok + 1, len + 1);
            if (len == 0 && (c == 'b' || c == 'B' || c == 'r' || c == 'R')) {
                vcd_fail(v, line, "value change '%s': expected a value right after '%c', as in "
                         "%s", TOK(v), c, c == 'b' || c == 'B' ? "b1010 !" : "r1.5 !");
                goto out;
            }
            if (vcd_need(v, "the identifier code of a value change"))
                goto out;
            int track = vcd_id(v, v->L->tok, v->L->tline);
            if (track == -2)
                goto out;
            if (c == 'b' || c == 'B') {
                if (track >= 0 && vcd_change(v, track, time, val, len, v->L->tok, line))
                    goto out;
            } else if (track >= 0) {
                vcd_fail(v, line, "a %s value for identifier code '%s', a bit vector",
                         c == 'r' || c == 'R' ? "real" : "string", TOK(v));
                goto out;
            }
        } else {
            vcd_fail(v, line,
                     "expected a value change (0!, 1!, x!, z!, b1010 !, r1.5 !), #time or a $ "
                     "command, got '%s'",
                     TOK(v));
            goto out;
        }
    }
    rc = 0;
out:
    free(val);
    return rc;
}

static int read_vcd(builder_t *b, FILE *f)
{
    lex_t *L = calloc(1, sizeof *L);
    if (!L)
        return oom(b);
    L->f = f;
    L->line = 1;
    vcd_t v = {b, L, {NULL, NULL, 0, 0}, ""};
    int rc = vcd_header(&v);
    if (!rc)
        rc = vcd_body(&v);
    strmap_free(&v.ids);
    free(L->tok);
    free(L);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* FST                                                                       */

typedef struct {
    builder_t *b;
    int *h2t;        /* handle -> track, -1: not read */
    fstHandle maxh;
    int bad;         /* REC_* of the first failure */
    uint64_t last;   /* the last time seen */
    int out_of_order;
} fst_rd_t;

static void fst_cb(void *ud, uint64_t time, fstHandle h, const unsigned char *value)
{
    fst_rd_t *r = ud;
    if (r->bad || h == 0 || h > r->maxh)
        return;
    int track = r->h2t[h];
    if (track < 0)
        return;
    if (time < r->last) {
        r->out_of_order = 1;
        r->bad = REC_BADCHAR;
        return;
    }
    r->last = time;
    const char *v = (const char *)value;
    size_t w = (size_t)r->b->t->track[track].width;
    size_t len = strnlen(v, w);
    int rc = record(r->b, track, time, v, len);
    if (rc != REC_OK)
        r->bad = rc;
}

static int is_skipped_fst_type(unsigned char typ)
{
    return typ == FST_VT_VCD_REAL || typ == FST_VT_VCD_REAL_PARAMETER ||
           typ == FST_VT_VCD_REALTIME || typ == FST_VT_SV_SHORTREAL || typ == FST_VT_GEN_STRING;
}

static int read_fst(builder_t *b)
{
    /* fstapi trusts its input (out-of-bounds accesses, exit() on some
     * corrupt data): the whole file is checked first (fst_check.h) */
    char why[512];
    int ck = fst_check(b->path, why, sizeof why);
    if (ck != FST_CHECK_OK) {
        if (ck == FST_CHECK_MALFORMED)
            set_err(b->err, b->errlen, "%s: malformed FST file (%s)", b->path, why);
        else
            set_err(b->err, b->errlen, "%s: not a readable FST file (%s)", b->path, why);
        return -1;
    }
    void *fc = fstReaderOpen(b->path);
    if (!fc) {
        set_err(b->err, b->errlen,
                "%s: not a readable FST file (the FST reader rejects it; an FST file without any "
                "signal is rejected too)",
                b->path);
        return -1;
    }
    int rc = -1;
    fst_rd_t r = {b, NULL, fstReaderGetMaxHandle(fc), 0, 0, 0};
    b->t->timescale_mul = 1;
    b->t->timescale_exp = fstReaderGetTimescale(fc);
    r.h2t = malloc(((size_t)r.maxh + 1) * sizeof *r.h2t);
    if (!r.h2t) {
        oom(b);
        goto out;
    }
    for (size_t i = 0; i <= r.maxh; i++)
        r.h2t[i] = -1;
    fstReaderIterateHierRewind(fc);
    struct fstHier *h;
    while ((h = fstReaderIterateHier(fc))) {
        if (h->htyp == FST_HT_SCOPE) {
            if (scope_push(b, h->u.scope.name, h->u.scope.name_length))
                goto out;
        } else if (h->htyp == FST_HT_UPSCOPE) {
            scope_pop(b);
        } else if (h->htyp == FST_HT_VAR) {
            fstHandle fh = h->u.var.handle;
            if (is_skipped_fst_type(h->u.var.typ) || h->u.var.length == 0) {
                b->t->n_skipped++;
                continue;
            }
            if (fh == 0 || fh > r.maxh) {
                set_err(b->err, b->errlen, "%s: variable '%s' has handle %u, outside 1..%u",
                        b->path, h->u.var.name, (unsigned)fh, (unsigned)r.maxh);
                goto out;
            }
            if (h->u.var.length > TRACE_MAX_WIDTH) {
                set_err(b->err, b->errlen, "%s: variable '%s' is %u bits wide, more than the %d "
                        "this reader takes", b->path, h->u.var.name, (unsigned)h->u.var.length,
                        TRACE_MAX_WIDTH);
                goto out;
            }
            int width = (int)h->u.var.length;
            int track = r.h2t[fh];
            if (track >= 0 && b->t->track[track].width != width) {
                set_err(b->err, b->errlen, "%s: variable '%s' is %d bits wide but its alias "
                        "(handle %u) is %d", b->path, h->u.var.name, width, (unsigned)fh,
                        b->t->track[track].width);
                goto out;
            }
            if (track < 0) {
                track = new_track(b, width);
                if (track < 0)
                    goto out;
                r.h2t[fh] = track;
            }
            if (add_signal(b, h->u.var.name, h->u.var.name_length, width, track))
                goto out;
        }
    }
    fstReaderClrFacProcessMaskAll(fc);
    for (fstHandle i = 1; i <= r.maxh; i++)
        if (r.h2t[i] >= 0)
            fstReaderSetFacProcessMask(fc, i);
    fstReaderIterBlocks(fc, fst_cb, &r, NULL);
    if (r.bad == REC_OOM || b->oom) {
        oom(b);
        goto out;
    }
    if (r.out_of_order) {
        set_err(b->err, b->errlen, "%s: the FST reader delivered value changes out of time order",
                b->path);
        goto out;
    }
    if (r.bad) {
        set_err(b->err, b->errlen, "%s: a value change holds a character other than 0, 1, x or z "
                "or is wider than its signal", b->path);
        goto out;
    }
    rc = 0;
out:
    free(r.h2t);
    fstReaderClose(fc);
    return rc;
}

/* ------------------------------------------------------------------------ */

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && strcmp(s + n - m, suf) == 0;
}

trace_t *trace_read(const char *path, trace_keep_fn keep, void *ctx, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!path || !*path) {
        set_err(err, errlen, "empty trace file name");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    unsigned char head[64];
    size_t n = fread(head, 1, sizeof head, f);
    if (n == 0) {
        int dir = ferror(f) && errno == EISDIR; /* (fopen opens a directory; reading fails) */
        set_err(err, errlen,
                dir         ? "cannot read '%s': is a directory (expected a VCD or FST trace)"
                : ferror(f) ? "%s: cannot read it"
                            : "%s: empty file, expected a VCD or FST trace",
                path);
        fclose(f);
        return NULL;
    }
    size_t i = 0;
    while (i < n && isspace(head[i]))
        i++;
    int fmt;
    if (i < n && head[i] == '$')
        fmt = TRACE_VCD;
    else if (head[0] == FST_BL_HDR || head[0] == FST_BL_ZWRAPPER)
        fmt = TRACE_FST;
    else if (has_suffix(path, ".vcd"))
        fmt = TRACE_VCD;
    else if (has_suffix(path, ".fst"))
        fmt = TRACE_FST;
    else {
        set_err(err, errlen, "%s: neither a VCD file (text that starts with a $ command such as "
                "$date or $timescale) nor an FST file", path);
        fclose(f);
        return NULL;
    }
    trace_t *t = calloc(1, sizeof *t);
    builder_t b = {0};
    b.t = t;
    b.keep = keep;
    b.kctx = ctx;
    b.err = err;
    b.errlen = errlen;
    b.path = path;
    int rc = -1;
    if (!t || !(t->path = strdup(path))) {
        set_err(err, errlen, "%s: out of memory", path);
        goto out;
    }
    t->format = (trace_format_t)fmt;
    t->timescale_mul = 1;
    t->timescale_exp = 0;
    if (fmt == TRACE_VCD) {
        rewind(f);
        rc = read_vcd(&b, f);
    } else {
        fclose(f);
        f = NULL;
        rc = read_fst(&b);
    }
out:
    if (f)
        fclose(f);
    free(b.scope);
    free(b.marks);
    if (rc) {
        trace_free(t);
        return NULL;
    }
    return t;
}

void trace_free(trace_t *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_sig; i++)
        free(t->sig[i].name);
    for (size_t i = 0; i < t->n_track; i++) {
        free(t->track[i].time);
        free(t->track[i].val);
    }
    free(t->sig);
    free(t->track);
    free(t->times);
    free(t->path);
    free(t);
}

long trace_find(const trace_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_sig; i++)
        if (strcmp(t->sig[i].name, name) == 0)
            return (long)i;
    return -1;
}

const char *trace_value_at(const trace_track_t *tr, uint64_t time)
{
    /* the last change at or before `time` */
    size_t lo = 0, hi = tr->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tr->time[mid] <= time)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? tr->val + (lo - 1) * ((size_t)tr->width + 1) : NULL;
}

void trace_cursor_init(trace_cursor_t *c, const trace_track_t *tr)
{
    c->tr = tr;
    c->next = 0;
}

const char *trace_cursor_at(trace_cursor_t *c, uint64_t time)
{
    const trace_track_t *tr = c->tr;
    while (c->next < tr->n && tr->time[c->next] <= time)
        c->next++;
    return c->next ? tr->val + (c->next - 1) * ((size_t)tr->width + 1) : NULL;
}

int trace_in_scope(const char *name, const char *scope)
{
    if (!scope || !*scope)
        return 1;
    size_t n = strlen(scope);
    if (scope[n - 1] == '.')
        n--;
    return n == 0 || (strncmp(name, scope, n) == 0 && name[n] == '.');
}

/* The shallowest recorded 1-bit signal with leaf LEAF under SCOPE, or -1. */
static long shallowest(const trace_t *t, const char *leaf, const char *scope)
{
    long best = -1;
    for (size_t i = 0; i < t->n_sig; i++) {
        const trace_signal_t *s = &t->sig[i];
        if (s->width != 1 || strcmp(s->leaf, leaf) != 0 || !t->track[s->track].keep ||
            !trace_in_scope(s->name, scope))
            continue;
        if (best < 0 || s->depth < t->sig[best].depth)
            best = (long)i;
    }
    return best;
}

int trace_cycles(const trace_t *t, const char *scope, trace_cycles_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->clk = shallowest(t, "clk_i", scope);
    if (out->clk < 0 && scope && *scope)
        out->clk = shallowest(t, "clk_i", NULL);
    out->rst = -1;
    if (out->clk < 0) {
        if (t->n_times) {
            out->time = malloc(t->n_times * sizeof *out->time);
            if (!out->time) {
                set_err(err, errlen, "%s: out of memory", t->path);
                return -1;
            }
            memcpy(out->time, t->times, t->n_times * sizeof *out->time);
        }
        out->n = t->n_times;
        return 0;
    }
    const trace_signal_t *clk = &t->sig[out->clk];
    size_t scope_len = (size_t)(clk->leaf - clk->name);
    for (size_t i = 0; i < t->n_sig && out->rst < 0; i++) {
        const trace_signal_t *s = &t->sig[i];
        if (s->width == 1 && strcmp(s->leaf, "rst_ni") == 0 && t->track[s->track].keep &&
            (size_t)(s->leaf - s->name) == scope_len && strncmp(s->name, clk->name, scope_len) == 0)
            out->rst = (long)i;
    }
    const trace_track_t *ck = &t->track[clk->track];
    trace_cursor_t rst = {NULL, 0};
    if (out->rst >= 0)
        trace_cursor_init(&rst, &t->track[t->sig[out->rst].track]);
    size_t cap = 0;
    /* a rising edge: to 1 from 0, x or z, or from no value yet (x): a
     * trace that starts right after an edge (Verilator's, dumped after each
     * rising edge) has that edge as its first value */
    for (size_t i = 0; i < ck->n; i++) {
        if (ck->val[i * 2] != '1' || (i > 0 && ck->val[(i - 1) * 2] == '1'))
            continue;
        if (out->rst >= 0) {
            const char *r = trace_cursor_at(&rst, ck->time[i]);
            if (!r || r[0] != '1') {
                out->reset_edges++;
                continue;
            }
        }
        if (grow((void **)&out->time, &cap, out->n + 1, sizeof *out->time)) {
            trace_cycles_free(out);
            set_err(err, errlen, "%s: out of memory", t->path);
            return -1;
        }
        out->time[out->n++] = ck->time[i];
    }
    return 0;
}

void trace_cycles_free(trace_cycles_t *c)
{
    free(c->time);
    c->time = NULL;
    c->n = 0;
}
