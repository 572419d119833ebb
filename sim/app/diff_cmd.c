/* ubsim diff: two waveform files compared cycle by cycle, port by port.
 *
 * Each file is read (trace_read.h) keeping the changes of its clocks, resets
 * and of the ports under its scope, its cycles are found (trace_cycles), its
 * ports mapped by leaf name to the shallowest signal of that leaf, and the
 * ports of both sampled at every cycle with a cursor per track. */
#include "diff_cmd.h"

#include "strmap.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "trace_read.h"

static const char *const usage_diff =
    "usage: ubsim diff [options] A B\n"
    "\n"
    "Compares two waveform files, A and B, cycle by cycle and port by port, and\n"
    "reports where they first differ. Each file is a VCD (text) or an FST\n"
    "(binary), told apart by its content, else by its extension; any pair works,\n"
    "e.g. the FST of an RTL run against the VCD of a replay of its vectors in\n"
    "another simulator (docs/vectors.md), or a lockstep mismatch dump's C side\n"
    "against its RTL side.\n"
    "\n"
    "Cycles: if a file has a 1-bit signal whose leaf name is clk_i (the shallowest\n"
    "one; with --scope-a/--scope-b, one under that scope if there is one), its\n"
    "cycles are the times of that clock's rising edges (to 1 from 0, x or z, or a\n"
    "first value of 1: a trace dumped right after each edge, as Verilator's, starts\n"
    "with one) at which the 1-bit rst_ni of the same scope, if there is one, is 1:\n"
    "edges in reset are not cycles. Otherwise (no clock) every distinct time at\n"
    "which the file records a value change is one cycle: a change of any of its\n"
    "signals, in scope or not, real and string ones aside; a time with no change\n"
    "is none. A port's sample at a cycle is its value at the end of that time\n"
    "step, after every change at that time; before its first value it reads as\n"
    "all x. Cycles count from 0 in each file on its own, so a file with a clock\n"
    "can be compared with one without. (The ports of the send pipeline inside\n"
    "a --wave FILE record only the times something changed, not every edge;\n"
    "the C model's own trace next to it, FILE-c.fst, has a clk_i and lines up\n"
    "with the RTL's FILE-rtl.fst cycle by cycle.)\n"
    "\n"
    "Ports: the signals whose leaf name ends in _i or _o, except clk_i and rst_ni.\n"
    "In each file a port name stands for the shallowest signal with that leaf\n"
    "(the fewest scope levels; ties: the first declared). The ports both files\n"
    "have are compared, in A's order, and must have the same width; the ports only\n"
    "one file has are not compared, and counted in one line on stderr (\"diff: not\n"
    "compared: N ports only in A, M only in B\"); --verbose lists each, with its\n"
    "scope (\"diff: port TOP.x.y_o only in A\"), and JSON output lists them.\n"
    "Real and string signals are not read.\n"
    "\n"
    "options:\n"
    "  --scope-a S    take A's ports only from under scope S (e.g. TOP.transport;\n"
    "                 a clk_i under S is preferred as A's clock)\n"
    "  --scope-b S    the same for B\n"
    "  --max N        after the first difference, list up to N more (default 10;\n"
    "                 a file that runs out of cycles is always listed)\n"
    "  --format FMT   text (default) or json\n"    "  -v, --verbose  list each port only one file has, with its scope, on stderr\n"
    "  -h, --help     this text\n"
    "\n"
    "output:\n"
    "  diff: equal: N cycles, M ports\n"
    "or, when they differ:\n"
    "  diff: first difference: cycle N, port P: A=0x<hex> B=0x<hex>\n"
    "  diff: difference: cycle N, port P: A=0x<hex> B=0x<hex>   (up to --max more)\n"
    "  diff: first difference: cycle N: B has no more cycles   (A is longer; or\n"
    "        \"diff: difference: ...\" after port differences)\n"
    "  diff: N cycles compared, M ports, K differing cycles\n"
    "A value is hex, zero-padded to its width; one with x or z bits is binary,\n"
    "e.g. A=0b10x1. N is the longer file's number of cycles: a cycle only one file\n"
    "has counts as a differing cycle. With --format json:\n"
    "  {\"equal\": bool, \"cycles\": N, \"ports\": M, \"differing_cycles\": K,\n"
    "   \"first\": {\"cycle\": N, \"port\": \"P\", \"a\": \"0x..\", \"b\": \"0x..\"} or null,\n"
    "   \"cycles_a\": .., \"cycles_b\": .., \"differences\": [the listed ones],\n"
    "   \"only_in_a\": [full names of the ports only A has], \"only_in_b\": [...]}\n"
    "where a difference in the number of cycles has \"port\", \"a\" and \"b\" null\n"
    "and \"ended\": \"a\" or \"b\", the file that has no more cycles.\n"
    "\n"
    "exit status: 0 equal, 1 different, 2 bad input (a file that cannot be read,\n"
    "is neither VCD nor FST or is malformed; no port in common; a port with two\n"
    "widths; a scope with no signal) or a bad option.\n"
    "\n"
    "examples:\n"
    "  ubsim diff w-c.fst w-rtl.fst   (the C model's trace against the RTL's,\n"
    "        from 'ubsim rate --backend lockstep --wave w.fst')\n"
    "  ubsim diff rtl-run.fst replay.vcd   (an RTL trace against the same block\n"
    "        replayed in another simulator)\n"
    "  ubsim diff --max 0 --format json a.fst b.fst\n"
    "  ubsim diff --scope-a c --scope-b rtl m.vcd m.vcd   (a lockstep mismatch\n"
    "        dump: the C model's outputs against the RTL's)\n";

/* ------------------------------------------------------------------------ */

static int is_port_leaf(const char *leaf)
{
    size_t n = strlen(leaf);
    if (n < 3 || leaf[n - 2] != '_' || (leaf[n - 1] != 'i' && leaf[n - 1] != 'o'))
        return 0;
    return strcmp(leaf, "clk_i") != 0 && strcmp(leaf, "rst_ni") != 0;
}

/* What a file's reader records: clocks and resets anywhere (the cycle rule
 * may fall back to the whole file's clock), ports under the scope. */
static int keep_signal(const trace_signal_t *s, void *ctx)
{
    const char *scope = ctx;
    if (strcmp(s->leaf, "clk_i") == 0 || strcmp(s->leaf, "rst_ni") == 0)
        return 1;
    return is_port_leaf(s->leaf) && trace_in_scope(s->name, scope);
}

/* The ports of one file: leaf name -> its shallowest signal. */
typedef struct {
    const char *leaf;
    long sig;
} port_t;

typedef struct {
    port_t *p;
    size_t n, cap;
    strmap_t at; /* leaf -> index in p */
} ports_t;

/* The entry of LEAF, or -1. */
static long ports_find(const ports_t *P, const char *leaf) { return strmap_get(&P->at, leaf, -1); }

static int by_signal(const void *a, const void *b)
{
    long x = ((const port_t *)a)->sig, y = ((const port_t *)b)->sig;
    return x < y ? -1 : x > y;
}

static void ports_free(ports_t *P)
{
    free(P->p);
    strmap_free(&P->at);
    memset(P, 0, sizeof *P);
}

/* Indexes the entries of P by their leaf, as they now stand. */
static int ports_index(ports_t *P)
{
    strmap_free(&P->at);
    for (size_t i = 0; i < P->n; i++)
        if (strmap_put(&P->at, P->p[i].leaf, (long)i))
            return -1;
    return 0;
}

/* The ports of T under SCOPE, ordered as their signals are declared. */
static int ports_build(ports_t *P, const trace_t *t, const char *scope)
{
    memset(P, 0, sizeof *P);
    for (size_t i = 0; i < t->n_sig; i++) {
        const trace_signal_t *s = &t->sig[i];
        if (!is_port_leaf(s->leaf) || !trace_in_scope(s->name, scope))
            continue;
        long at = ports_find(P, s->leaf);
        if (at >= 0) {
            port_t *p = &P->p[at];
            if (s->depth < t->sig[p->sig].depth)
                p->sig = (long)i;
            continue;
        }
        if (P->n == P->cap) {
            size_t ncap = P->cap ? P->cap * 2 : 32;
            port_t *np = realloc(P->p, ncap * sizeof *np);
            if (!np)
                return -1;
            P->p = np;
            P->cap = ncap;
        }
        P->p[P->n].leaf = s->leaf;
        P->p[P->n].sig = (long)i;
        if (strmap_put(&P->at, s->leaf, (long)P->n))
            return -1;
        P->n++;
    }
    if (P->n > 1)
        qsort(P->p, P->n, sizeof *P->p, by_signal);
    return ports_index(P);
}

/* ------------------------------------------------------------------------ */

/* A value as printed: "0x" and hex digits (ceil(width / 4) of them) when it
 * has only 0 and 1 bits, else "0b" and its bits. NULL when out of memory. */
static char *format_value(const char *v, int width)
{
    size_t w = (size_t)width;
    int known = strspn(v, "01") == w;
    size_t digits = known ? (w + 3) / 4 : w;
    char *s = malloc(digits + 3);
    if (!s)
        return NULL;
    s[0] = '0';
    s[1] = known ? 'x' : 'b';
    if (!known) {
        memcpy(s + 2, v, w);
    } else {
        for (size_t d = 0; d < digits; d++) { /* d: from the least significant */
            unsigned x = 0;
            for (size_t k = 0; k < 4; k++) {
                size_t bit = 4 * d + k;
                if (bit < w && v[w - 1 - bit] == '1')
                    x |= 1u << k;
            }
            s[2 + digits - 1 - d] = "0123456789abcdef"[x];
        }
    }
    s[2 + digits] = '\0';
    return s;
}

typedef struct {
    size_t cycle;
    long port;       /* index into the common ports, -1: a file ended */
    char ended;      /* 'a' or 'b' when port is -1 */
    char *a, *b;     /* formatted values */
} diff_rec_t;

typedef struct {
    const char *path[2];
    const char *scope[2];
    long long max;
    int json;
    int verbose; /* list each port only one file has */
} diff_opts_t;

typedef struct {
    trace_t *t[2];
    trace_cycles_t cyc[2];
    ports_t ports[2];
    long (*common)[2];  /* signal index in A and in B */
    size_t n_common;
    trace_cursor_t *cur[2];
    char **unknown;     /* per common port: its width of 'x' */
    diff_rec_t *rec;
    size_t n_rec, rec_cap;
    long *only[2];      /* signal indexes of the ports only A, only B has */
    size_t n_only[2];
} diff_state_t;

static void state_free(diff_state_t *S)
{
    for (int k = 0; k < 2; k++) {
        trace_free(S->t[k]);
        trace_cycles_free(&S->cyc[k]);
        ports_free(&S->ports[k]);
        free(S->cur[k]);
        free(S->only[k]);
    }
    if (S->unknown)
        for (size_t i = 0; i < S->n_common; i++)
            free(S->unknown[i]);
    free(S->unknown);
    free(S->common);
    for (size_t i = 0; i < S->n_rec; i++) {
        free(S->rec[i].a);
        free(S->rec[i].b);
    }
    free(S->rec);
}

static int input_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int input_error(const char *fmt, ...)
{
    va_list ap;
    fputs("ubsim diff: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

static int add_rec(diff_state_t *S, size_t cycle, long port, char ended, const char *va,
                   const char *vb, int width)
{
    if (S->n_rec == S->rec_cap) {
        size_t ncap = S->rec_cap ? S->rec_cap * 2 : 16;
        diff_rec_t *nr = realloc(S->rec, ncap * sizeof *nr);
        if (!nr)
            return -1;
        S->rec = nr;
        S->rec_cap = ncap;
    }
    diff_rec_t *r = &S->rec[S->n_rec];
    memset(r, 0, sizeof *r);
    r->cycle = cycle;
    r->port = port;
    r->ended = ended;
    if (port >= 0) {
        r->a = format_value(va, width);
        r->b = format_value(vb, width);
        if (!r->a || !r->b) {
            free(r->a);
            free(r->b);
            return -1;
        }
    }
    S->n_rec++;
    return 0;
}

static const char *port_name(const diff_state_t *S, long p)
{
    return S->t[0]->sig[S->common[p][0]].leaf;
}

static void print_rec(const diff_state_t *S, const diff_rec_t *r, int first)
{
    const char *what = first ? "first difference" : "difference";
    if (r->port < 0)
        printf("diff: %s: cycle %zu: %c has no more cycles\n", what, r->cycle,
               r->ended == 'a' ? 'A' : 'B');
    else
        printf("diff: %s: cycle %zu, port %s: A=%s B=%s\n", what, r->cycle, port_name(S, r->port),
               r->a, r->b);
}

static cJSON *rec_json(const diff_state_t *S, const diff_rec_t *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "cycle", (double)r->cycle);
    if (r->port < 0) {
        cJSON_AddNullToObject(o, "port");
        cJSON_AddNullToObject(o, "a");
        cJSON_AddNullToObject(o, "b");
        cJSON_AddStringToObject(o, "ended", r->ended == 'a' ? "a" : "b");
    } else {
        cJSON_AddStringToObject(o, "port", port_name(S, r->port));
        cJSON_AddStringToObject(o, "a", r->a);
        cJSON_AddStringToObject(o, "b", r->b);
    }
    return o;
}

static int parse_args(int argc, char **argv, diff_opts_t *o)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "diff"};
    int n_files = 0, only_files = 0;
    for (; A.i < argc; A.i++) {
        const char *arg = argv[A.i], *v = NULL;
        int bad = 0;
        if (only_files || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (n_files == 2)
                return cli_usage_error(A.cmd, "expected two trace files, got a third: '%s'", arg);
            o->path[n_files++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_files = 1;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_diff, stdout);
            return -1;
        } else if (cli_opt_value(&A, "--scope-a", &v, &bad) || cli_opt_value(&A, "--scope-b", &v, &bad)) {
            int k = strncmp(arg, "--scope-b", 9) == 0;
            if (!bad && !*v)
                bad = cli_usage_error(A.cmd, "--scope-%c: expected a scope such as TOP.transport, got "
                                      "an empty one", 'a' + k);
            o->scope[k] = v;
        } else if (strcmp(arg, "--verbose") == 0 || strcmp(arg, "-v") == 0) {
            o->verbose = 1;
        } else if (cli_opt_value(&A, "--max", &v, &bad)) {
            if (!bad && cli_parse_int(v, 0, &o->max))
                bad = cli_usage_error(A.cmd, "--max: expected a whole number from 0 to 9223372036854775807, got '%s'", v);
        } else if (cli_opt_value(&A, "--format", &v, &bad)) {
            if (!bad) {
                if (strcmp(v, "text") == 0)
                    o->json = 0;
                else if (strcmp(v, "json") == 0)
                    o->json = 1;
                else
                    bad = cli_usage_error(A.cmd, "--format: expected text or json, got '%s'", v);
            }
        } else {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        }
        if (bad)
            return bad;
    }
    if (n_files < 2)
        return cli_usage_error(A.cmd, "expected two trace files A and B, got %s",
                               n_files ? "one" : "none");
    return 0;
}

/* Reads both files, finds their cycles and their common ports. 0 or the
 * exit status. */
static int prepare(diff_state_t *S, const diff_opts_t *o)
{
    static const char name[2] = {'A', 'B'};
    char err[8192]; /* room for two long path names */
    for (int k = 0; k < 2; k++) {
        S->t[k] = trace_read(o->path[k], keep_signal, (void *)o->scope[k], err, sizeof err);
        if (!S->t[k])
            return input_error("%s", err);
        if (trace_cycles(S->t[k], o->scope[k], &S->cyc[k], err, sizeof err))
            return input_error("%s", err);
        if (o->scope[k]) {
            size_t i = 0;
            while (i < S->t[k]->n_sig && !trace_in_scope(S->t[k]->sig[i].name, o->scope[k]))
                i++;
            if (i == S->t[k]->n_sig)
                return input_error("--scope-%c %s: no signal of %c (%s) is under this scope",
                                   'a' + k, o->scope[k], name[k], o->path[k]);
        }
        if (ports_build(&S->ports[k], S->t[k], o->scope[k]))
            return input_error("out of memory");
    }
    ports_t *pa = &S->ports[0], *pb = &S->ports[1];
    S->common = malloc((pa->n ? pa->n : 1) * sizeof *S->common);
    if (!S->common)
        return input_error("out of memory");
    S->only[0] = malloc((pa->n ? pa->n : 1) * sizeof *S->only[0]);
    S->only[1] = malloc((pb->n ? pb->n : 1) * sizeof *S->only[1]);
    if (!S->only[0] || !S->only[1])
        return input_error("out of memory");
    for (size_t i = 0; i < pa->n; i++) {
        long j = ports_find(pb, pa->p[i].leaf);
        if (j < 0) {
            S->only[0][S->n_only[0]++] = pa->p[i].sig;
            continue;
        }
        S->common[S->n_common][0] = pa->p[i].sig;
        S->common[S->n_common][1] = pb->p[j].sig;
        S->n_common++;
    }
    for (size_t j = 0; j < pb->n; j++)
        if (ports_find(pa, pb->p[j].leaf) < 0)
            S->only[1][S->n_only[1]++] = pb->p[j].sig;
    /* the ports not compared: each with its scope under --verbose, else one
     * line; nothing with --format json, whose output lists them */
    if (o->verbose && !o->json) {
        for (int k = 0; k < 2; k++)
            for (size_t i = 0; i < S->n_only[k]; i++)
                fprintf(stderr, "diff: port %s only in %c\n", S->t[k]->sig[S->only[k][i]].name, "AB"[k]);
    } else if (!o->json && (S->n_only[0] || S->n_only[1])) {
        fprintf(stderr, "diff: not compared: %zu port%s only in A, %zu only in B (--verbose lists them)\n",
                S->n_only[0], S->n_only[0] == 1 ? "" : "s", S->n_only[1]);
    }
    if (S->n_common == 0)
        return input_error("no port in common: A (%s) has %zu ports, B (%s) has %zu (a port is a "
                           "signal whose name ends in _i or _o)",
                           o->path[0], pa->n, o->path[1], pb->n);
    for (size_t p = 0; p < S->n_common; p++) {
        const trace_signal_t *sa = &S->t[0]->sig[S->common[p][0]];
        const trace_signal_t *sb = &S->t[1]->sig[S->common[p][1]];
        if (sa->width != sb->width)
            return input_error("port %s has %d bits in A (%s, %s) but %d in B (%s, %s)", sa->leaf,
                               sa->width, o->path[0], sa->name, sb->width, o->path[1], sb->name);
    }
    S->unknown = calloc(S->n_common, sizeof *S->unknown);
    for (int k = 0; k < 2; k++)
        S->cur[k] = malloc(S->n_common * sizeof *S->cur[k]);
    if (!S->unknown || !S->cur[0] || !S->cur[1])
        return input_error("out of memory");
    for (size_t p = 0; p < S->n_common; p++) {
        int w = S->t[0]->sig[S->common[p][0]].width;
        S->unknown[p] = malloc((size_t)w + 1);
        if (!S->unknown[p])
            return input_error("out of memory");
        memset(S->unknown[p], 'x', (size_t)w);
        S->unknown[p][w] = '\0';
        for (int k = 0; k < 2; k++)
            trace_cursor_init(&S->cur[k][p], &S->t[k]->track[S->t[k]->sig[S->common[p][k]].track]);
    }
    for (int k = 0; k < 2; k++)
        if (S->cyc[k].n == 0)
            fprintf(stderr, "diff: note: %c (%s) has no cycles%s\n", name[k], o->path[k],
                    S->cyc[k].clk >= 0 ? " (its clock never rises out of reset)" : "");
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    diff_opts_t o = {.path = {NULL, NULL}, .scope = {NULL, NULL}, .max = 10, .json = 0, .verbose = 0};
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    diff_state_t S;
    memset(&S, 0, sizeof S);
    rc = prepare(&S, &o);
    if (rc) {
        state_free(&S);
        return rc;
    }

    size_t na = S.cyc[0].n, nb = S.cyc[1].n;
    size_t nmin = na < nb ? na : nb, nmax = na < nb ? nb : na;
    size_t differing = 0, listed = 0; /* listed: beyond the first */
    int oom = 0;
    for (size_t c = 0; c < nmin && !oom; c++) {
        int differs = 0;
        for (size_t p = 0; p < S.n_common; p++) {
            const char *va = trace_cursor_at(&S.cur[0][p], S.cyc[0].time[c]);
            const char *vb = trace_cursor_at(&S.cur[1][p], S.cyc[1].time[c]);
            if (!va)
                va = S.unknown[p];
            if (!vb)
                vb = S.unknown[p];
            if (strcmp(va, vb) == 0)
                continue;
            differs = 1;
            if (S.n_rec == 0 || listed < (unsigned long long)o.max) {
                if (S.n_rec)
                    listed++;
                int w = S.t[0]->sig[S.common[p][0]].width;
                if (add_rec(&S, c, (long)p, 0, va, vb, w))
                    oom = 1;
            }
        }
        differing += (size_t)differs;
    }
    if (!oom && na != nb && add_rec(&S, nmin, -1, na < nb ? 'a' : 'b', NULL, NULL, 0))
        oom = 1;
    if (oom) {
        state_free(&S);
        return input_error("out of memory");
    }
    differing += nmax - nmin;
    int equal = differing == 0;

    if (o.json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddBoolToObject(root, "equal", equal);
        cJSON_AddNumberToObject(root, "cycles", (double)nmax);
        cJSON_AddNumberToObject(root, "ports", (double)S.n_common);
        cJSON_AddNumberToObject(root, "differing_cycles", (double)differing);
        if (S.n_rec)
            cJSON_AddItemToObject(root, "first", rec_json(&S, &S.rec[0]));
        else
            cJSON_AddNullToObject(root, "first");
        cJSON_AddNumberToObject(root, "cycles_a", (double)na);
        cJSON_AddNumberToObject(root, "cycles_b", (double)nb);
        cJSON *arr = cJSON_AddArrayToObject(root, "differences");
        for (size_t i = 0; i < S.n_rec; i++)
            cJSON_AddItemToArray(arr, rec_json(&S, &S.rec[i]));
        for (int k = 0; k < 2; k++) {
            cJSON *only = cJSON_AddArrayToObject(root, k ? "only_in_b" : "only_in_a");
            for (size_t i = 0; i < S.n_only[k]; i++)
                cJSON_AddItemToArray(only, cJSON_CreateString(S.t[k]->sig[S.only[k][i]].name));
        }
        if (report_json_print(stdout, root)) {
            state_free(&S);
            return input_error("out of memory");
        }
    } else if (equal) {
        printf("diff: equal: %zu cycles, %zu ports\n", nmax, S.n_common);
    } else {
        for (size_t i = 0; i < S.n_rec; i++)
            print_rec(&S, &S.rec[i], i == 0);
        printf("diff: %zu cycles compared, %zu ports, %zu differing cycles\n", nmax, S.n_common,
               differing);
    }
    state_free(&S);
    return equal ? 0 : 1;
}
