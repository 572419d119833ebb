/* Clocked blocks with interchangeable backends: see block.h.
 *
 * BACKEND_C with no trace is a plain call-through to the C model. Lockstep
 * runs the C model and the RTL with the same inputs, keeps the last
 * LS_HISTORY cycles of inputs and both outputs, and compares every output
 * port after every edge. Cycle numbers in reports count edges from 0: the
 * edge of the first block_step after block_new is cycle 0. */
#include "block.h"
#include "vectors.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define LS_HISTORY 64

struct block_inst {
    int rtl_traced; /* the RTL writes its own FST (it needs the time) */
    const block_class_t *cls;
    backend_kind_t kind;
    uint64_t period_ps;
    FILE *report;
    char *mismatch_wave;

    void *c_self;   /* C model instance (C, lockstep) */
    void *rtl_self; /* RTL instance (RTL, lockstep) */

    uint64_t cycles;
    uint64_t mismatches;

    /* lockstep */
    unsigned char *rtl_out;  /* out_size */
    unsigned char *h_in;     /* LS_HISTORY * in_size */
    unsigned char *h_c;      /* LS_HISTORY * out_size */
    unsigned char *h_rtl;    /* LS_HISTORY * out_size */
    uint64_t *h_ps;          /* LS_HISTORY */
    uint64_t h_count;        /* entries written in total */

    uint64_t *words;         /* one value of the widest port (waveforms) */

    vec_writer_t *vec;       /* test vectors (vectors.h), or NULL */
    unsigned char *vec_out;  /* out_size: outputs of a jumped-over edge */

    /* block_trace */
    wave_t *tw;
    wave_sig_t *t_in, *t_out;

    /* the C model's own clocked trace (block_opts_t.c_fst_path) */
    wave_t *ow;
    wave_sig_t *o_in, *o_out, o_clk, o_rst;
};

int block_wants_time(const block_inst_t *b)
{
    return b->kind == BACKEND_LOCKSTEP || b->rtl_traced || b->tw != NULL || b->ow != NULL;
}

int block_can_jump(const block_inst_t *b)
{
    return b->kind == BACKEND_C && b->cls->c.quiet && !b->tw && !b->ow;
}

void *block_c_state(block_inst_t *b)
{
    return b->kind == BACKEND_C && !b->tw && !b->ow && !b->vec ? b->c_self : NULL;
}

int64_t block_quiet(const block_inst_t *b, const void *in)
{
    if (!block_can_jump(b))
        return 0;
    return b->cls->c.quiet(b->c_self, in);
}

int64_t block_quiet_taking(const block_inst_t *b, const void *in)
{
    if (!block_can_jump(b) || !b->cls->c.quiet_taking)
        return 0;
    return b->cls->c.quiet_taking(b->c_self, in);
}

void block_advance(block_inst_t *b, const void *in, int64_t n)
{
    if (b->vec) {
        /* vectors have a line per edge: the edges it stands for, one by one */
        for (int64_t i = 0; i < n; i++)
            block_step(b, in, b->vec_out, 0);
        return;
    }
    b->cls->c.advance(b->c_self, in, n);
    b->cycles += (uint64_t)n;
}

int backend_parse(const char *s)
{
    if (!s)
        return -1;
    if (!strcmp(s, "c"))
        return BACKEND_C;
    if (!strcmp(s, "rtl"))
        return BACKEND_RTL;
    if (!strcmp(s, "lockstep"))
        return BACKEND_LOCKSTEP;
    return -1;
}

const char *backend_name(backend_kind_t k)
{
    switch (k) {
    case BACKEND_C: return "c";
    case BACKEND_RTL: return "rtl";
    case BACKEND_LOCKSTEP: return "lockstep";
    }
    return "?";
}

int port_words(const port_desc_t *p)
{
    return p->width > 64 ? (p->width + 63) / 64 : 1;
}

/* Word i of a port wider than 64 bits, masked to the width. */
static uint64_t wide_word(const port_desc_t *p, const void *s, int i)
{
    uint64_t v;
    memcpy(&v, (const unsigned char *)s + p->offset + 8 * (size_t)i, 8);
    if (i == port_words(p) - 1 && p->width % 64)
        v &= (UINT64_C(1) << (p->width % 64)) - 1;
    return v;
}

uint64_t port_get(const port_desc_t *p, const void *s)
{
    const unsigned char *a = (const unsigned char *)s + p->offset;
    uint64_t v;
    if (p->width > 64)
        return wide_word(p, s, 0);
    switch (p->bytes) {
    case 1: { uint8_t x; memcpy(&x, a, 1); v = x; break; }
    case 2: { uint16_t x; memcpy(&x, a, 2); v = x; break; }
    case 4: { uint32_t x; memcpy(&x, a, 4); v = x; break; }
    case 8: { uint64_t x; memcpy(&x, a, 8); v = x; break; }
    default: return 0;
    }
    if (p->width < 64)
        v &= (UINT64_C(1) << p->width) - 1;
    return v;
}

void port_set(const port_desc_t *p, void *s, uint64_t v)
{
    unsigned char *a = (unsigned char *)s + p->offset;
    if (p->width > 64) {
        memcpy(a, &v, 8);
        memset(a + 8, 0, 8 * (size_t)(port_words(p) - 1));
        return;
    }
    if (p->width < 64)
        v &= (UINT64_C(1) << p->width) - 1;
    switch (p->bytes) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(a, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(a, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(a, &x, 4); break; }
    case 8: memcpy(a, &v, 8); break;
    default: break;
    }
}

void port_get_words(const port_desc_t *p, const void *s, uint64_t *words)
{
    if (p->width <= 64) {
        words[0] = port_get(p, s);
        return;
    }
    for (int i = 0; i < port_words(p); i++)
        words[i] = wide_word(p, s, i);
}

void port_set_words(const port_desc_t *p, void *s, const uint64_t *words)
{
    if (p->width <= 64) {
        port_set(p, s, words[0]);
        return;
    }
    int n = port_words(p);
    for (int i = 0; i < n; i++) {
        uint64_t v = words[i];
        if (i == n - 1 && p->width % 64)
            v &= (UINT64_C(1) << (p->width % 64)) - 1;
        memcpy((unsigned char *)s + p->offset + 8 * (size_t)i, &v, 8);
    }
}

int port_equal(const port_desc_t *p, const void *a, const void *b)
{
    if (p->width <= 64)
        return port_get(p, a) == port_get(p, b);
    for (int i = 0; i < port_words(p); i++)
        if (wide_word(p, a, i) != wide_word(p, b, i))
            return 0;
    return 1;
}

/* The widest port of a class, in words. */
static int max_words(const block_class_t *c)
{
    int n = 1;
    for (int i = 0; i < c->n_in; i++)
        if (port_words(&c->in_ports[i]) > n)
            n = port_words(&c->in_ports[i]);
    for (int i = 0; i < c->n_out; i++)
        if (port_words(&c->out_ports[i]) > n)
            n = port_words(&c->out_ports[i]);
    return n;
}

static void errf(char *err, int errlen, const char *fmt, ...)
{
    if (!err || errlen <= 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
}

static int impl_complete(const block_impl_t *i)
{
    return i->create && i->reset && i->step && i->destroy;
}

static int own_trace(block_inst_t *b, const char *path, char *err, int errlen);

block_inst_t *block_new(const block_class_t *cls, const block_opts_t *opts,
                        char *err, int errlen)
{
    if (!cls) {
        errf(err, errlen, "block_new: no block class");
        return NULL;
    }
    backend_kind_t kind = opts ? opts->kind : BACKEND_C;
    if (kind != BACKEND_C && kind != BACKEND_RTL && kind != BACKEND_LOCKSTEP) {
        errf(err, errlen, "block %s: unknown backend %d", cls->name, (int)kind);
        return NULL;
    }
    int need_c = kind != BACKEND_RTL, need_rtl = kind != BACKEND_C;
    if (need_c && !impl_complete(&cls->c)) {
        errf(err, errlen, "block %s: no C model implementation", cls->name);
        return NULL;
    }
    if (need_rtl && !impl_complete(&cls->rtl)) {
        errf(err, errlen,
             "block %s: backend '%s' needs the RTL implementation, but this "
             "block has none (no Verilated model linked)",
             cls->name, backend_name(kind));
        return NULL;
    }

    block_inst_t *b = calloc(1, sizeof *b);
    if (!b) {
        errf(err, errlen, "block %s: out of memory", cls->name);
        return NULL;
    }
    b->cls = cls;
    b->kind = kind;
    b->period_ps = opts && opts->period_ps ? opts->period_ps : 1000;
    b->report = opts && opts->report ? opts->report : stderr;
    b->words = calloc((size_t)max_words(cls), sizeof *b->words);
    if (!b->words) {
        errf(err, errlen, "block %s: out of memory", cls->name);
        block_free(b);
        return NULL;
    }

    if (kind == BACKEND_LOCKSTEP) {
        const char *mw = opts ? opts->mismatch_wave : NULL;
        size_t n;
        if (mw) {
            b->mismatch_wave = strdup(mw);
        } else {
            n = strlen(cls->name) + sizeof "_mismatch.vcd";
            b->mismatch_wave = malloc(n);
            if (b->mismatch_wave)
                snprintf(b->mismatch_wave, n, "%s_mismatch.vcd", cls->name);
        }
        b->rtl_out = calloc(1, cls->out_size ? cls->out_size : 1);
        b->h_in = calloc(LS_HISTORY, cls->in_size ? cls->in_size : 1);
        b->h_c = calloc(LS_HISTORY, cls->out_size ? cls->out_size : 1);
        b->h_rtl = calloc(LS_HISTORY, cls->out_size ? cls->out_size : 1);
        b->h_ps = calloc(LS_HISTORY, sizeof *b->h_ps);
        if (!b->mismatch_wave || !b->rtl_out || !b->h_in || !b->h_c ||
            !b->h_rtl || !b->h_ps) {
            errf(err, errlen, "block %s: out of memory", cls->name);
            block_free(b);
            return NULL;
        }
    }
    if (need_c) {
        b->c_self = cls->c.create(NULL, b->period_ps);
        if (!b->c_self) {
            errf(err, errlen, "block %s: C model create failed", cls->name);
            block_free(b);
            return NULL;
        }
    }
    if (block_vectors_dir() && !(opts && opts->trial)) {
        char verr[256] = "";
        b->vec = vec_open(cls, kind, verr, sizeof verr);
        b->vec_out = calloc(1, cls->out_size ? cls->out_size : 1);
        if (!b->vec || !b->vec_out) {
            errf(err, errlen, "%s", b->vec ? "out of memory" : verr);
            block_free(b);
            return NULL;
        }
    }
    if (need_c && opts && opts->c_fst_path && own_trace(b, opts->c_fst_path, err, errlen)) {
        block_free(b);
        return NULL;
    }
    if (need_rtl) {
        b->rtl_traced = opts && opts->rtl_fst_path;
        b->rtl_self = cls->rtl.create(opts ? opts->rtl_fst_path : NULL,
                                      b->period_ps);
        if (!b->rtl_self) {
            errf(err, errlen, "block %s: RTL model create failed%s%s",
                 cls->name, opts && opts->rtl_fst_path ? " (trace " : "",
                 opts && opts->rtl_fst_path ? "file?)" : "");
            block_free(b);
            return NULL;
        }
    }
    return b;
}

void block_reset(block_inst_t *b)
{
    vec_reset(b->vec);
    if (b->c_self)
        b->cls->c.reset(b->c_self);
    if (b->rtl_self)
        b->cls->rtl.reset(b->rtl_self);
}

/* --- waveforms -------------------------------------------------------------- */

/* Declares scope.<port><suffix> for every port; returns -1 on failure. */
static int add_ports(wave_t *w, const char *scope, const port_desc_t *p, int n,
                     const char *suffix, wave_sig_t *sig)
{
    for (int i = 0; i < n; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s.%s%s", scope, p[i].name, suffix);
        sig[i] = wave_add(w, name, p[i].width ? p[i].width : 1);
        if (sig[i] < 0)
            return -1;
    }
    return 0;
}

/* words: room for the widest port's value. */
static void set_ports(wave_t *w, const port_desc_t *p, int n,
                      const wave_sig_t *sig, const void *s, uint64_t *words)
{
    for (int i = 0; i < n; i++) {
        if (p[i].width > 64) {
            port_get_words(&p[i], s, words);
            wave_set_words(w, sig[i], words);
        } else {
            wave_set(w, sig[i], port_get(&p[i], s));
        }
    }
}

/* The C model's own trace in path (block_opts_t.c_fst_path): TOP.<block>
 * with clk_i, rst_ni (1: no reset is traced) and the ports. */
static int own_trace(block_inst_t *b, const char *path, char *err, int errlen)
{
    const block_class_t *c = b->cls;
    char werr[256] = "";
    b->ow = wave_open(path, werr, sizeof werr);
    b->o_in = calloc((size_t)c->n_in + 1, sizeof *b->o_in);
    b->o_out = calloc((size_t)c->n_out + 1, sizeof *b->o_out);
    if (!b->ow || !b->o_in || !b->o_out) {
        errf(err, errlen, "block %s: %s", c->name, b->ow ? "out of memory" : werr);
        return -1;
    }
    char scope[128], name[160];
    snprintf(scope, sizeof scope, "TOP.%s", c->name);
    snprintf(name, sizeof name, "%s.clk_i", scope);
    b->o_clk = wave_add(b->ow, name, 1);
    snprintf(name, sizeof name, "%s.rst_ni", scope);
    b->o_rst = wave_add(b->ow, name, 1);
    if (b->o_clk < 0 || b->o_rst < 0 || add_ports(b->ow, scope, c->in_ports, c->n_in, "_i", b->o_in) ||
        add_ports(b->ow, scope, c->out_ports, c->n_out, "_o", b->o_out)) {
        errf(err, errlen, "block %s: out of memory", c->name);
        return -1;
    }
    wave_set(b->ow, b->o_clk, 0);
    wave_set(b->ow, b->o_rst, 1);
    return 0;
}

int block_trace(block_inst_t *b, wave_t *w, const char *scope)
{
    const block_class_t *c = b->cls;
    if (!w || !scope)
        return -1;
    wave_sig_t *si = calloc((size_t)c->n_in + 1, sizeof *si);
    wave_sig_t *so = calloc((size_t)c->n_out + 1, sizeof *so);
    if (!si || !so || add_ports(w, scope, c->in_ports, c->n_in, "_i", si) ||
        add_ports(w, scope, c->out_ports, c->n_out, "_o", so)) {
        free(si);
        free(so);
        return -1;
    }
    free(b->t_in);
    free(b->t_out);
    b->tw = w;
    b->t_in = si;
    b->t_out = so;
    return 0;
}

/* Writes the lockstep history (oldest first) to b->mismatch_wave. */
static int write_mismatch_wave(block_inst_t *b, char *err, int errlen)
{
    const block_class_t *c = b->cls;
    wave_t *w = wave_open(b->mismatch_wave, err, errlen);
    if (!w)
        return -1;
    int nsig = c->n_in + 2 * c->n_out;
    wave_sig_t *sig = calloc((size_t)nsig + 1, sizeof *sig);
    if (!sig) {
        wave_close(w);
        errf(err, errlen, "out of memory");
        return -1;
    }
    wave_sig_t *si = sig, *sc = sig + c->n_in, *sr = sc + c->n_out;
    wave_sig_t cyc = wave_add(w, "lockstep.cycle", 64);
    wave_sig_t bad = wave_add(w, "lockstep.mismatch", 1);
    if (add_ports(w, "in", c->in_ports, c->n_in, "_i", si) ||
        add_ports(w, "c", c->out_ports, c->n_out, "_o", sc) ||
        add_ports(w, "rtl", c->out_ports, c->n_out, "_o", sr) || cyc < 0 ||
        bad < 0) {
        free(sig);
        wave_close(w);
        errf(err, errlen, "cannot declare signals");
        return -1;
    }
    uint64_t n = b->h_count < LS_HISTORY ? b->h_count : LS_HISTORY;
    uint64_t first = b->h_count - n;
    uint64_t t_prev = 0;
    for (uint64_t k = first; k < b->h_count; k++) {
        unsigned idx = (unsigned)(k % LS_HISTORY);
        uint64_t t = b->h_ps[idx];
        if (k > first && t <= t_prev)
            t = t_prev + b->period_ps; /* keep the cycles apart */
        t_prev = t;
        wave_time(w, t);
        /* the cycle number of history entry k: the newest is b->cycles */
        wave_set(w, cyc, b->cycles - (b->h_count - 1 - k));
        wave_set(w, bad, k + 1 == b->h_count);
        set_ports(w, c->in_ports, c->n_in, si, b->h_in + idx * c->in_size, b->words);
        set_ports(w, c->out_ports, c->n_out, sc, b->h_c + idx * c->out_size, b->words);
        set_ports(w, c->out_ports, c->n_out, sr, b->h_rtl + idx * c->out_size, b->words);
    }
    wave_time(w, t_prev + b->period_ps);
    free(sig);
    if (wave_close(w)) {
        errf(err, errlen, "write error");
        return -1;
    }
    return 0;
}

/* A port's value in hex, (width + 3) / 4 digits. */
static void print_port(FILE *f, const port_desc_t *p, const void *s)
{
    int digits = (p->width + 3) / 4;
    if (p->width <= 64) {
        fprintf(f, "0x%0*" PRIx64, digits, port_get(p, s));
        return;
    }
    int n = port_words(p);
    fprintf(f, "0x%0*" PRIx64, digits - 16 * (n - 1), wide_word(p, s, n - 1));
    for (int i = n - 2; i >= 0; i--)
        fprintf(f, "%016" PRIx64, wide_word(p, s, i));
}

static void report_mismatch(block_inst_t *b, const void *c_out)
{
    const block_class_t *c = b->cls;
    int first = 1;
    for (int i = 0; i < c->n_out; i++) {
        const port_desc_t *p = &c->out_ports[i];
        if (port_equal(p, c_out, b->rtl_out))
            continue;
        if (first)
            fprintf(b->report, "lockstep mismatch: cycle %" PRIu64 ", block %s, port %s_o: C=",
                    b->cycles, c->name, p->name);
        else
            fprintf(b->report, "lockstep mismatch:   also port %s_o: C=", p->name);
        print_port(b->report, p, c_out);
        fputs(" RTL=", b->report);
        print_port(b->report, p, b->rtl_out);
        fputc('\n', b->report);
        first = 0;
    }
    char err[256] = "";
    if (write_mismatch_wave(b, err, sizeof err) == 0)
        fprintf(b->report,
                "lockstep mismatch: last %d cycles of inputs, C and RTL outputs "
                "written to %s (scopes in, c, rtl)\n",
                (int)(b->h_count < LS_HISTORY ? b->h_count : LS_HISTORY),
                b->mismatch_wave);
    else
        fprintf(b->report, "lockstep mismatch: cannot write waveform %s: %s\n",
                b->mismatch_wave, err);
    fflush(b->report);
}

/* --- stepping --------------------------------------------------------------- */

static int step_lockstep(block_inst_t *b, const void *in, void *out,
                         uint64_t now_ps)
{
    const block_class_t *c = b->cls;
    c->c.step(b->c_self, in, out, now_ps);
    if (b->mismatches)
        return 1; /* stopped comparing; outputs are the C model's */
    c->rtl.step(b->rtl_self, in, b->rtl_out, now_ps);

    unsigned idx = (unsigned)(b->h_count % LS_HISTORY);
    memcpy(b->h_in + idx * c->in_size, in, c->in_size);
    memcpy(b->h_c + idx * c->out_size, out, c->out_size);
    memcpy(b->h_rtl + idx * c->out_size, b->rtl_out, c->out_size);
    b->h_ps[idx] = now_ps;
    b->h_count++;

    /* Identical structs have identical ports; otherwise compare port by
     * port (padding and bits above a port's width do not count). */
    if (memcmp(out, b->rtl_out, c->out_size) == 0)
        return 0;
    for (int i = 0; i < c->n_out; i++) {
        const port_desc_t *p = &c->out_ports[i];
        if (!port_equal(p, out, b->rtl_out)) {
            b->mismatches = 1;
            report_mismatch(b, out);
            return 1;
        }
    }
    return 0;
}

int block_step(block_inst_t *b, const void *in, void *out, uint64_t now_ps)
{
    int rc = 0;
    if (b->kind == BACKEND_C) {
        b->cls->c.step(b->c_self, in, out, now_ps);
    } else if (b->kind == BACKEND_RTL) {
        b->cls->rtl.step(b->rtl_self, in, out, now_ps);
    } else {
        rc = step_lockstep(b, in, out, now_ps);
    }
    if (b->tw) {
        wave_time(b->tw, now_ps);
        set_ports(b->tw, b->cls->in_ports, b->cls->n_in, b->t_in, in, b->words);
        set_ports(b->tw, b->cls->out_ports, b->cls->n_out, b->t_out, out, b->words);
    }
    if (b->ow) {
        /* as the RTL's trace: the edge with the inputs and what they gave,
         * then the clock's fall half a period later */
        wave_time(b->ow, now_ps);
        wave_set(b->ow, b->o_clk, 1);
        set_ports(b->ow, b->cls->in_ports, b->cls->n_in, b->o_in, in, b->words);
        set_ports(b->ow, b->cls->out_ports, b->cls->n_out, b->o_out, out, b->words);
        wave_time(b->ow, now_ps + b->period_ps / 2);
        wave_set(b->ow, b->o_clk, 0);
    }
    if (b->vec)
        vec_edge(b->vec, in, out);
    b->cycles++;
    return rc;
}

int64_t block_run(block_inst_t *b, const void *in, void *out, int64_t n, size_t watch)
{
    if (n <= 0)
        return 0;
    if (b->kind == BACKEND_RTL && b->cls->rtl.run && !b->rtl_traced && !b->tw && !b->ow && !b->vec) {
        int64_t r = b->cls->rtl.run(b->rtl_self, in, out, n, watch);
        b->cycles += (uint64_t)r;
        return r;
    }
    for (int64_t i = 1; i <= n; i++) {
        if (block_step(b, in, out, 0))
            return -i;
        if (((const unsigned char *)out)[watch])
            return i;
    }
    return n;
}

uint64_t block_cycles(const block_inst_t *b) { return b->cycles; }
uint64_t block_mismatches(const block_inst_t *b) { return b->mismatches; }

void block_free(block_inst_t *b)
{
    if (!b)
        return;
    if (b->c_self)
        b->cls->c.destroy(b->c_self);
    if (b->rtl_self)
        b->cls->rtl.destroy(b->rtl_self);
    vec_close(b->vec);
    free(b->vec_out);
    free(b->mismatch_wave);
    free(b->rtl_out);
    free(b->h_in);
    free(b->h_c);
    free(b->h_rtl);
    free(b->h_ps);
    free(b->t_in);
    free(b->t_out);
    /* (a write error shows when the file is verified: wave_fst_verify) */
    if (b->ow)
        (void)wave_close(b->ow);
    free(b->o_in);
    free(b->o_out);
    free(b->words);
    free(b);
}
