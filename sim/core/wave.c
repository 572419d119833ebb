/* Waveform writer: FST through the writer bundled with Verilator, or plain
 * VCD written here. See wave.h for the interface.
 *
 * Signals are collected by wave_add/wave_add_str; the file header (scope
 * hierarchy and variable declarations) is written when the dump starts, i.e.
 * at the first wave_time (or at wave_close if there was none).
 * Values given before the dump starts are the values at time 0. Every
 * signal starts as 0 (bit vectors) or the empty string (strings).
 *
 * Declarations are sorted by scope so that each scope is opened exactly once,
 * whatever order the caller declared them in. Within a scope, variables keep
 * their declaration order.
 *
 * Time changes are written lazily: a "#t" line (or FST time change) only
 * appears when some value changes at t, plus once at the end so the dump
 * reaches the last time given to wave_time.
 *
 * A signal of up to 64 bits keeps its value in `val`; a wider one in `wide`,
 * (width + 63) / 64 words, least significant first. */
#include "wave.h"

#include "strmap.h"

#include <errno.h>
#include <fstapi.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

enum wave_fmt { WAVE_FST, WAVE_VCD };

struct wave_sig {
    char *name;       /* full dotted name */
    int scope_len;    /* length of the scope part (before the last dot), 0 if none */
    int width;        /* 1..WAVE_MAX_WIDTH, 0 for a string */
    uint64_t mask;    /* of val, or of the top word of wide */
    uint64_t val;     /* current value (bit vectors up to 64 bits) */
    uint64_t *wide;   /* current value (wider bit vectors), else NULL */
    int words;        /* entries of wide */
    char *str;        /* current value (strings), never NULL */
    size_t str_cap;
    fstHandle fh;     /* FST handle */
    char id[8];       /* VCD identifier, NUL-terminated */
};

struct wave {
    enum wave_fmt fmt;
    FILE *vcd;
    void *fst;
    char *path;       /* FST: the file, checked when it is finished */
    int watch;        /* FST: wave_fst_watch handle */

    struct wave_sig *sigs;
    int nsigs, cap;

    /* Open-addressing set of signal indices keyed by name, for duplicates. */
    strmap_t by_name; /* signal name -> index in sigs */

    char *bits;         /* scratch: one wide value as text */
    size_t bits_cap;

    int started;
    int io_error;
    uint64_t now;       /* current time (ps) */
    uint64_t emitted;   /* last time written to the file */
};

/* ------------------------------------------------------------------------ */

static void set_err(char *err, int errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen > 0)
        snprintf(err, (size_t)errlen, fmt, a, b);
}

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

wave_t *wave_open(const char *path, char *err, int errlen)
{
    if (err && errlen > 0)
        err[0] = '\0';
    if (!path || !*path) {
        set_err(err, errlen, "wave file: empty file name%s%s", "", "");
        return NULL;
    }
    enum wave_fmt fmt;
    if (has_suffix(path, ".fst") && strlen(path) > 4)
        fmt = WAVE_FST;
    else if (has_suffix(path, ".vcd") && strlen(path) > 4)
        fmt = WAVE_VCD;
    else {
        set_err(err, errlen, "wave file '%s': expected a .fst or .vcd extension%s", path, "");
        return NULL;
    }

    wave_t *w = calloc(1, sizeof *w);
    if (!w) {
        set_err(err, errlen, "wave file '%s': %s", path, strerror(ENOMEM));
        return NULL;
    }
    w->fmt = fmt;

    /* Create the file ourselves first: this gives a proper errno message
     * for both formats (the FST writer only reports failure as NULL). */
    FILE *f = fopen(path, "wb");
    if (!f) {
        set_err(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        free(w);
        return NULL;
    }
    if (fmt == WAVE_VCD) {
        setvbuf(f, NULL, _IOFBF, 1 << 20);
        w->vcd = f;
    } else {
        fclose(f);
        w->path = strdup(path);
        w->fst = w->path ? fstWriterCreate(path, 1) : NULL;
        if (!w->fst) {
            int e = w->path ? errno : ENOMEM;
            set_err(err, errlen, "cannot create '%s': %s", path,
                    e ? strerror(e) : "FST writer failed");
            remove(path);
            free(w->path);
            free(w);
            return NULL;
        }
        w->watch = wave_fst_watch(path);
        fstWriterSetTimescale(w->fst, -12);
        fstWriterSetVersion(w->fst, "ubsim wave writer");
        fstWriterSetPackType(w->fst, FST_WR_PT_LZ4);
    }
    return w;
}

/* ------------------------------------------------------------------------ */

/* Name rules: non-empty dot-separated components, printable non-space ASCII. */
static int valid_name(const char *n)
{
    if (!n || !*n || *n == '.')
        return 0;
    char prev = 0;
    for (const char *p = n; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= ' ' || c >= 127)
            return 0;
        if (c == '.' && prev == '.')
            return 0;
        prev = (char)c;
    }
    return prev != '.';
}

static wave_sig_t add_sig(wave_t *w, const char *name, int width)
{
    if (!w || w->started || !valid_name(name))
        return -1;
    if (w->nsigs == 0x7fffffff)
        return -1;
    if (strmap_get(&w->by_name, name, -1) >= 0)
        return -1; /* duplicate name */
    if (w->nsigs == w->cap) {
        int ncap = w->cap ? w->cap * 2 : 64;
        struct wave_sig *ns = realloc(w->sigs, (size_t)ncap * sizeof *ns);
        if (!ns)
            return -1;
        w->sigs = ns;
        w->cap = ncap;
    }
    struct wave_sig *s = &w->sigs[w->nsigs];
    memset(s, 0, sizeof *s);
    s->name = strdup(name);
    if (!s->name)
        return -1;
    if (width == 0) {
        s->str = calloc(1, 16);
        if (!s->str) {
            free(s->name);
            return -1;
        }
        s->str_cap = 16;
    }
    if (width > 64) {
        s->words = (width + 63) / 64;
        s->wide = calloc((size_t)s->words, sizeof *s->wide);
        if (!s->wide) {
            free(s->name);
            return -1;
        }
    }
    const char *dot = strrchr(name, '.');
    s->scope_len = dot ? (int)(dot - name) : 0;
    s->width = width;
    if (width > 64)
        s->mask = width % 64 ? (1ull << (width % 64)) - 1 : ~0ull;
    else
        s->mask = width >= 64 ? ~0ull : width > 0 ? (1ull << width) - 1 : 0;
    if (strmap_put(&w->by_name, name, w->nsigs)) {
        free(s->name);
        free(s->str);
        free(s->wide);
        return -1;
    }
    return w->nsigs++;
}

wave_sig_t wave_add(wave_t *w, const char *dotted_name, int width)
{
    if (width < 1 || width > WAVE_MAX_WIDTH)
        return -1;
    return add_sig(w, dotted_name, width);
}

wave_sig_t wave_add_str(wave_t *w, const char *dotted_name)
{
    return add_sig(w, dotted_name, 0);
}

/* ------------------------------------------------------------------------ */
/* Header                                                                    */

/* Compares the scope parts of two signals so that a scope and all of its
 * sub-scopes sort together: '.' ranks below every other character. Ties keep
 * declaration order. */
static int scope_cmp_idx(const struct wave_sig *sigs, int a, int b)
{
    const struct wave_sig *x = &sigs[a], *y = &sigs[b];
    int n = x->scope_len < y->scope_len ? x->scope_len : y->scope_len;
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)x->name[i], d = (unsigned char)y->name[i];
        if (c == d)
            continue;
        if (c == '.')
            return -1;
        if (d == '.')
            return 1;
        return c < d ? -1 : 1;
    }
    /* one scope is a prefix of the other: the shorter (parent) first */
    if (x->scope_len != y->scope_len)
        return x->scope_len < y->scope_len ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Stable merge sort of indices (no global comparator state needed). */
static void sort_idx(const struct wave_sig *sigs, int *idx, int *tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    sort_idx(sigs, idx, tmp, h);
    sort_idx(sigs, idx + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = scope_cmp_idx(sigs, idx[i], idx[j]) <= 0 ? idx[i++] : idx[j++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

static void vcd_make_id(char *out, int index)
{
    /* base-94 over the printable characters '!'..'~' */
    unsigned v = (unsigned)index;
    int n = 0;
    do {
        out[n++] = (char)('!' + v % 94);
        v /= 94;
    } while (v && n < 7);
    out[n] = '\0';
}

/* Writes the string S into the VCD with whitespace and non-printables as '_'. */
static void vcd_put_str(wave_t *w, const char *s)
{
    if (!*s) {
        /* GTKWave cannot parse an empty token; keep the column non-empty */
        fputc('_', w->vcd);
        return;
    }
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        fputc(c <= ' ' || c >= 127 ? '_' : c, w->vcd);
    }
}

/* The value of a wide signal as width characters '0' / '1', most
 * significant first, in w->bits; NULL when out of memory. */
static const char *wide_bits(wave_t *w, const struct wave_sig *s)
{
    if (w->bits_cap < (size_t)s->width + 1) {
        char *nb = realloc(w->bits, (size_t)s->width + 1);
        if (!nb) {
            w->io_error = 1;
            return NULL;
        }
        w->bits = nb;
        w->bits_cap = (size_t)s->width + 1;
    }
    for (int b = 0; b < s->width; b++) {
        int bit = s->width - 1 - b;
        w->bits[b] = (char)('0' + ((s->wide[bit / 64] >> (bit % 64)) & 1));
    }
    w->bits[s->width] = '\0';
    return w->bits;
}

static void vcd_put_bits(wave_t *w, FILE *f, const struct wave_sig *s)
{
    if (s->wide) {
        const char *bits = wide_bits(w, s);
        if (!bits)
            return;
        while (bits[0] == '0' && bits[1]) /* leading zeros are implied */
            bits++;
        fputc('b', f);
        fputs(bits, f);
        fputc(' ', f);
        fputs(s->id, f);
        fputc('\n', f);
        return;
    }
    if (s->width == 1) {
        fputc(s->val ? '1' : '0', f);
        fputs(s->id, f);
        fputc('\n', f);
        return;
    }
    char buf[80];
    int n = 0;
    buf[n++] = 'b';
    uint64_t v = s->val;
    int top = 63;
    while (top > 0 && !((v >> top) & 1))
        top--;
    for (int b = top; b >= 0; b--)
        buf[n++] = (char)('0' + ((v >> b) & 1));
    buf[n++] = ' ';
    buf[n] = '\0';
    fputs(buf, f);
    fputs(s->id, f);
    fputc('\n', f);
}

static void vcd_put_value(wave_t *w, const struct wave_sig *s)
{
    if (s->width == 0) {
        fputc('s', w->vcd);
        vcd_put_str(w, s->str);
        fputc(' ', w->vcd);
        fputs(s->id, w->vcd);
        fputc('\n', w->vcd);
    } else {
        vcd_put_bits(w, w->vcd, s);
    }
}

static void fst_put_value(wave_t *w, const struct wave_sig *s)
{
    if (s->width == 0) {
        fstWriterEmitVariableLengthValueChange(w->fst, s->fh, s->str, (uint32_t)strlen(s->str));
    } else if (s->wide) {
        const char *bits = wide_bits(w, s);
        if (bits)
            fstWriterEmitValueChange(w->fst, s->fh, bits);
    } else {
        fstWriterEmitValueChange64(w->fst, s->fh, (uint32_t)s->width, s->val);
    }
}

/* Number of leading dot-separated components shared by two scope strings. */
static int common_depth(const char *a, int alen, const char *b, int blen)
{
    int depth = 0, i = 0;
    if (alen == 0 || blen == 0)
        return 0;
    for (;; i++) {
        int aend = i == alen || (i < alen && a[i] == '.');
        int bend = i == blen || (i < blen && b[i] == '.');
        if (aend || bend) {
            if (aend && bend)
                depth++;
            else
                return depth;
            if (i == alen || i == blen)
                return depth;
            continue;
        }
        if (a[i] != b[i])
            return depth;
    }
}

static int count_depth(const char *s, int len)
{
    if (len == 0)
        return 0;
    int d = 1;
    for (int i = 0; i < len; i++)
        d += s[i] == '.';
    return d;
}

static void open_scope(wave_t *w, const char *name, int len)
{
    char buf[256];
    char *tmp = NULL;
    char *p = buf;
    if ((size_t)len >= sizeof buf) {
        tmp = malloc((size_t)len + 1);
        if (!tmp) {
            w->io_error = 1;
            return;
        }
        p = tmp;
    }
    memcpy(p, name, (size_t)len);
    p[len] = '\0';
    if (w->fmt == WAVE_VCD)
        fprintf(w->vcd, "$scope module %s $end\n", p);
    else
        fstWriterSetScope(w->fst, FST_ST_VCD_MODULE, p, NULL);
    free(tmp);
}

static void close_scope(wave_t *w)
{
    if (w->fmt == WAVE_VCD)
        fputs("$upscope $end\n", w->vcd);
    else
        fstWriterSetUpscope(w->fst);
}

static void write_header(wave_t *w)
{
    int n = w->nsigs;
    int *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    int *tmp = malloc((size_t)(n ? n : 1) * sizeof *tmp);
    if (!idx || !tmp) {
        free(idx);
        free(tmp);
        w->io_error = 1;
        return;
    }
    for (int i = 0; i < n; i++)
        idx[i] = i;
    sort_idx(w->sigs, idx, tmp, n);

    if (w->fmt == WAVE_VCD) {
        fputs("$version ubsim wave writer $end\n$timescale 1ps $end\n", w->vcd);
    }

    /* Walk the sorted list, keeping the currently open scope chain equal to
     * the scope of the previous signal. */
    const char *cur = "";
    int cur_len = 0, cur_depth = 0;
    for (int k = 0; k < n; k++) {
        struct wave_sig *s = &w->sigs[idx[k]];
        int keep = common_depth(cur, cur_len, s->name, s->scope_len);
        for (; cur_depth > keep; cur_depth--)
            close_scope(w);
        /* open the remaining components of s's scope */
        int depth = 0, start = 0;
        for (int i = 0; i <= s->scope_len; i++) {
            if (i == s->scope_len || s->name[i] == '.') {
                if (depth >= keep && s->scope_len > 0)
                    open_scope(w, s->name + start, i - start);
                depth++;
                start = i + 1;
            }
        }
        cur = s->name;
        cur_len = s->scope_len;
        cur_depth = count_depth(cur, cur_len);

        const char *leaf = s->name + (s->scope_len ? s->scope_len + 1 : 0);
        if (w->fmt == WAVE_VCD) {
            vcd_make_id(s->id, idx[k]);
            fprintf(w->vcd, "$var %s %d %s %s $end\n", s->width ? "wire" : "string",
                    s->width ? s->width : 1, s->id, leaf);
        } else {
            s->fh = fstWriterCreateVar(w->fst, s->width ? FST_VT_VCD_WIRE : FST_VT_GEN_STRING,
                                       FST_VD_IMPLICIT, (uint32_t)s->width, leaf, 0);
        }
    }
    for (; cur_depth > 0; cur_depth--)
        close_scope(w);
    free(idx);
    free(tmp);

    /* initial values at time 0 */
    if (w->fmt == WAVE_VCD) {
        fputs("$enddefinitions $end\n#0\n$dumpvars\n", w->vcd);
        for (int i = 0; i < n; i++)
            vcd_put_value(w, &w->sigs[i]);
        fputs("$end\n", w->vcd);
    } else {
        fstWriterEmitTimeChange(w->fst, 0);
        for (int i = 0; i < n; i++)
            fst_put_value(w, &w->sigs[i]);
    }
    w->emitted = 0;
}

static void start(wave_t *w)
{
    if (!w->started) {
        w->started = 1;
        write_header(w);
    }
}

/* ------------------------------------------------------------------------ */

void wave_time(wave_t *w, uint64_t ps)
{
    if (!w)
        return;
    start(w); /* the header and initial values go at time 0 */
    if (ps > w->now)
        w->now = ps;
}

static void emit_time(wave_t *w)
{
    if (w->now == w->emitted)
        return;
    w->emitted = w->now;
    if (w->fmt == WAVE_VCD)
        fprintf(w->vcd, "#%" PRIu64 "\n", w->now);
    else
        fstWriterEmitTimeChange(w->fst, w->now);
}

/* Writes a changed bit-vector value (after the header). */
static void emit_value(wave_t *w, const struct wave_sig *sig)
{
    if (!w->started)
        return; /* becomes the initial value */
    emit_time(w);
    if (w->fmt == WAVE_VCD)
        vcd_put_bits(w, w->vcd, sig);
    else
        fst_put_value(w, sig);
}

void wave_set_words(wave_t *w, wave_sig_t s, const uint64_t *words)
{
    if (!w || s < 0 || s >= w->nsigs || !words)
        return;
    struct wave_sig *sig = &w->sigs[s];
    if (!sig->wide) {
        wave_set(w, s, words[0]);
        return;
    }
    int top = sig->words - 1, changed = 0;
    for (int i = 0; i <= top; i++) {
        uint64_t v = i == top ? words[i] & sig->mask : words[i];
        if (v != sig->wide[i]) {
            sig->wide[i] = v;
            changed = 1;
        }
    }
    if (changed)
        emit_value(w, sig);
}

void wave_set(wave_t *w, wave_sig_t s, uint64_t value)
{
    if (!w || s < 0 || s >= w->nsigs)
        return;
    struct wave_sig *sig = &w->sigs[s];
    if (sig->wide) {
        int changed = 0;
        for (int i = 0; i < sig->words; i++) {
            uint64_t v = i == 0 ? value : 0;
            if (i == sig->words - 1)
                v &= sig->mask;
            if (v != sig->wide[i]) {
                sig->wide[i] = v;
                changed = 1;
            }
        }
        if (changed)
            emit_value(w, sig);
        return;
    }
    value &= sig->mask; /* 0 for strings, whose val stays 0 */
    if (value == sig->val)
        return;
    sig->val = value;
    emit_value(w, sig);
}

void wave_set_str(wave_t *w, wave_sig_t s, const char *text)
{
    if (!w || s < 0 || s >= w->nsigs)
        return;
    struct wave_sig *sig = &w->sigs[s];
    if (sig->width != 0)
        return;
    if (!text)
        text = "";
    if (strcmp(text, sig->str) == 0)
        return;
    size_t len = strlen(text);
    if (len + 1 > sig->str_cap) {
        size_t ncap = sig->str_cap * 2;
        while (ncap < len + 1)
            ncap *= 2;
        char *ns = realloc(sig->str, ncap);
        if (!ns) {
            w->io_error = 1;
            return;
        }
        sig->str = ns;
        sig->str_cap = ncap;
    }
    memcpy(sig->str, text, len + 1);
    if (!w->started)
        return;
    emit_time(w);
    if (w->fmt == WAVE_VCD)
        vcd_put_value(w, sig);
    else
        fst_put_value(w, sig);
}

int wave_close(wave_t *w)
{
    if (!w)
        return 0;
    int rc = 0;
    start(w);
    emit_time(w); /* let the dump extend to the last wave_time */
    if (w->fmt == WAVE_VCD) {
        if (ferror(w->vcd))
            rc = -1;
        if (fclose(w->vcd) != 0)
            rc = -1;
    } else {
        if (fstWriterGetFseekFailed(w->fst))
            rc = -1;
        fstWriterClose(w->fst);
        wave_fst_unwatch(w->watch);
        /* the FST writer does not check its writes: see that it is whole */
        if (wave_fst_verify(w->path, NULL, 0))
            rc = -1;
        free(w->path);
    }
    if (w->io_error)
        rc = -1;
    for (int i = 0; i < w->nsigs; i++) {
        free(w->sigs[i].name);
        free(w->sigs[i].str);
        free(w->sigs[i].wide);
    }
    free(w->sigs);
    free(w->bits);
    strmap_free(&w->by_name);
    free(w);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* A full disk and the FST writer                                            */
/*
 * The FST writer (fstapi, shipped with Verilator/GTKWave; Verilator's
 * VerilatedFstC uses the same code) does not check its fwrite()s. It keeps
 * its value tables in temporary files (tmpfile(), in /tmp) and the hierarchy
 * in FILE.hier next to the dump, and reads them back through mmap() at the
 * length it believes it wrote. When the disk is full those files are shorter
 * than that, and touching a mapped page past the end of the file raises
 * SIGBUS: the process dies with "Bus error" (seen on a small tmpfs: the
 * FILE.hier mapping when the dump is closed). On POSIX systems fstapi has no
 * option to read the files instead of mapping them, and it cannot be told
 * where to put its temporary files (tmpfile() ignores $TMPDIR).
 *
 * So ubsim does two things, as the VCD writer reports a full disk:
 *  - while an FST writer is open (wave_fst_watch .. wave_fst_unwatch), a
 *    SIGBUS of a mapped file (BUS_ADRERR) is turned into a message naming the
 *    FST files being written and exit status 1; FILE.hier, the writer's
 *    scratch file, is removed. A longjmp back into the simulation is not an
 *    option: the writer's state is lost, the fault may come from the RTL
 *    shims' C++ frames, and nothing useful can be written anyway. Any other
 *    SIGBUS gets its previous disposition back and is raised again.
 *  - a finished FST file is checked (wave_fst_verify): writes lost without a
 *    fault (the disk filled while the dump itself was written) leave blocks
 *    that run past the end of the file, or unfinished ones.
 */

#define FST_WATCH_MAX 64

static struct {
    char *path; /* NULL: slot free */
    char *hier;
} watched[FST_WATCH_MAX];
static int n_watched;
static struct sigaction old_sigbus;

static void put(const char *s)
{
    ssize_t r = write(2, s, strlen(s));
    (void)r;
}

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (si && si->si_code == BUS_ADRERR) {
        put(n_watched > 1 ? "ubsim: could not write the FST waveforms " :
                            "ubsim: could not write the FST waveform ");
        for (int i = 0, n = 0; i < FST_WATCH_MAX; i++) {
            if (!watched[i].path)
                continue;
            put(n++ ? ", '" : "'");
            put(watched[i].path);
            put("'");
            unlink(watched[i].hier);
        }
        put(": the FST writer read back a file the disk could not hold (bus error); the disk "
            "of the waveform, or /tmp where the writer keeps its temporary files, is "
            "probably full\n");
        _exit(1);
    }
    sigaction(SIGBUS, &old_sigbus, NULL);
    raise(sig);
}

int wave_fst_watch(const char *path)
{
    int slot = -1;
    for (int i = 0; i < FST_WATCH_MAX && slot < 0; i++)
        if (!watched[i].path)
            slot = i;
    if (slot < 0 || !path)
        return -1;
    size_t n = strlen(path);
    char *p = strdup(path), *h = malloc(n + sizeof ".hier");
    if (!p || !h) {
        free(p);
        free(h);
        return -1;
    }
    memcpy(h, path, n);
    memcpy(h + n, ".hier", sizeof ".hier");
    if (n_watched == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGBUS, &sa, &old_sigbus) != 0) {
            free(p);
            free(h);
            return -1;
        }
    }
    watched[slot].hier = h;
    watched[slot].path = p; /* last: the handler looks at path */
    n_watched++;
    return slot;
}

void wave_fst_unwatch(int handle)
{
    if (handle < 0 || handle >= FST_WATCH_MAX || !watched[handle].path)
        return;
    char *p = watched[handle].path, *h = watched[handle].hier;
    watched[handle].path = NULL;
    watched[handle].hier = NULL;
    free(p);
    free(h);
    if (--n_watched == 0)
        sigaction(SIGBUS, &old_sigbus, NULL);
}

static uint64_t be64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | b[i];
    return v;
}

int wave_fst_verify(const char *path, char *err, int errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot read back '%s': %s", path, strerror(errno));
        return -1;
    }
    const char *why = NULL;
    uint64_t size = 0, pos = 0, vc_blocks = 0;
    int hierarchy = 0;
    /* the header block: type, length, then 8 bytes each of start and end
     * time, an endianness test, memory used, scopes, variables, the largest
     * handle and the number of value change blocks */
    unsigned char h[9 + 8 * 8];
    if (fseeko(f, 0, SEEK_END) != 0 || ftello(f) < 0) {
        why = "cannot seek in it";
    } else {
        size = (uint64_t)ftello(f);
        rewind(f);
        if (size < sizeof h || fread(h, 1, sizeof h, f) != sizeof h || h[0] != FST_BL_HDR)
            why = "its header block is missing";
    }
    uint64_t n_vars = why ? 0 : be64(h + 9 + 5 * 8), vc_in_header = why ? 0 : be64(h + 9 + 7 * 8);
    /* then a chain of blocks: a type byte and a big-endian 64-bit length
     * that counts itself and the block's contents */
    while (!why && pos < size) {
        unsigned char b[9];
        if (size - pos < 9 || fseeko(f, (off_t)pos, SEEK_SET) != 0 || fread(b, 1, 9, f) != 9) {
            why = "it ends inside a block header";
            break;
        }
        uint64_t len = be64(b + 1);
        if (b[0] == FST_BL_SKIP && len == 0 && n_vars == 0) {
            /* a dump without variables: the writer leaves its first value
             * change block unfinished (readers skip it), and nothing after
             * it is needed */
            hierarchy = 1;
            break;
        }
        if (len < 8 || len > size - pos - 1) {
            why = "a block runs past the end of the file";
            break;
        }
        switch (b[0]) {
        case FST_BL_HDR:
            if (pos != 0)
                why = "it holds a second header block";
            break;
        case FST_BL_VCDATA:
        case FST_BL_VCDATA_DYN_ALIAS:
        case FST_BL_VCDATA_DYN_ALIAS2:
            vc_blocks++;
            break;
        case FST_BL_HIER:
        case FST_BL_HIER_LZ4:
        case FST_BL_HIER_LZ4DUO:
            hierarchy = 1;
            break;
        case FST_BL_GEOM:
        case FST_BL_BLACKOUT:
            break;
        default: /* FST_BL_SKIP: a block that was never finished */
            why = "it holds an unfinished block";
        }
        pos += 1 + len;
    }
    if (!why && !hierarchy)
        why = "it ends before its hierarchy";
    if (!why && n_vars && vc_blocks != vc_in_header)
        why = "value change blocks are missing";
    fclose(f);
    if (why) {
        if (err && errlen > 0)
            snprintf(err, (size_t)errlen, "'%s' is incomplete (%s): the disk is probably full",
                     path, why);
        return -1;
    }
    return 0;
}
