/* Test vectors of every block instance: see vectors.h. */
#include "vectors.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <dirent.h>

struct vec_writer {
    const block_class_t *cls;
    char *dir;          /* DIR/<block>.<k> */
    FILE *in, *exp;
    uint64_t edges, resets;
    int reset_next;     /* a reset comes before the next edge */
    uint64_t *words;    /* one value of the widest port */
    char *line;         /* one line of either file */
    size_t line_cap;
};

/* instances made so far, per block name (for the <k> of each folder) */
typedef struct {
    const char *name;
    unsigned count;
} vec_count_t;

static struct {
    char *dir, *cmdline, *seed;
    vec_count_t *counts;
    int n_counts;
    int failed;         /* a write failed (reported by block_vectors_end) */
    char failed_path[640];
} g;

/* Makes the folder `path` (its parent must exist: no folder above the one
 * named is made), or takes it if it is there. */
static int make_dir(const char *path, char *err, int errlen)
{
    if (mkdir(path, 0777) && errno != EEXIST) {
        snprintf(err, (size_t)errlen, "cannot create folder '%s': %s%s", path, strerror(errno),
                 errno == ENOENT ? " (the folder it goes in must exist)" : "");
        return -1;
    }
    struct stat st;
    if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
        snprintf(err, (size_t)errlen, "'%s' is not a folder", path);
        return -1;
    }
    return 0;
}

int block_vectors_begin(const char *dir, const char *cmdline, const char *seed, char *err, int errlen)
{
    block_vectors_end(NULL, 0);
    if (!dir || !*dir) {
        snprintf(err, (size_t)errlen, "--vectors: a folder expected");
        return -1;
    }
    if (make_dir(dir, err, errlen))
        return -1;
    /* a folder of an earlier run would mix its instances with this run's */
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, (size_t)errlen, "--vectors: cannot read folder '%s': %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    if (!empty) {
        snprintf(err, (size_t)errlen,
                 "--vectors: folder '%s' is not empty (its vectors would mix with this run's): give "
                 "a new or an empty folder",
                 dir);
        return -1;
    }
    g.dir = strdup(dir);
    g.cmdline = strdup(cmdline ? cmdline : "");
    g.seed = strdup(seed ? seed : "");
    if (!g.dir || !g.cmdline || !g.seed) {
        block_vectors_end(NULL, 0);
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    return 0;
}

const char *block_vectors_dir(void) { return g.dir; }

int block_vectors_end(char *err, int errlen)
{
    int rc = 0;
    if (g.failed) {
        if (err)
            snprintf(err, (size_t)errlen, "--vectors: could not write '%s' completely (disk full?)",
                     g.failed_path);
        rc = -1;
    }
    free(g.dir);
    free(g.cmdline);
    free(g.seed);
    free(g.counts);
    memset(&g, 0, sizeof g);
    return rc;
}

static void fail(const char *path)
{
    if (!g.failed)
        snprintf(g.failed_path, sizeof g.failed_path, "%s", path);
    g.failed = 1;
}

/* The <k> of the next instance of the block `name`, or -1 out of memory. */
static long next_index(const char *name)
{
    for (int i = 0; i < g.n_counts; i++)
        if (!strcmp(g.counts[i].name, name))
            return g.counts[i].count++;
    vec_count_t *c = realloc(g.counts, (size_t)(g.n_counts + 1) * sizeof *c);
    if (!c)
        return -1;
    g.counts = c;
    g.counts[g.n_counts].name = name;
    g.counts[g.n_counts].count = 1;
    g.n_counts++;
    return 0;
}

static int digits(const port_desc_t *p) { return (p->width + 3) / 4; }

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", a, b);
    return s;
}

static FILE *open_in(const vec_writer_t *v, const char *leaf, char *err, int errlen)
{
    char *path = join(v->dir, leaf);
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        snprintf(err, (size_t)errlen, "--vectors: cannot write '%s': %s", path ? path : leaf,
                 path ? strerror(errno) : "out of memory");
    free(path);
    return f;
}

vec_writer_t *vec_open(const block_class_t *cls, backend_kind_t kind, char *err, int errlen)
{
    if (!g.dir)
        return NULL;
    if (kind == BACKEND_RTL) {
        snprintf(err, (size_t)errlen,
                 "block %s: --vectors writes the C model's outputs as the expected ones: use "
                 "--backend c or lockstep",
                 cls->name);
        return NULL;
    }
    vec_writer_t *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, (size_t)errlen, "out of memory");
        return NULL;
    }
    v->cls = cls;
    size_t n = strlen(g.dir) + strlen(cls->name) + 16;
    v->dir = malloc(n);
    int maxw = 1, len = 2;
    for (int i = 0; i < cls->n_in; i++) {
        if (port_words(&cls->in_ports[i]) > maxw)
            maxw = port_words(&cls->in_ports[i]);
        len += digits(&cls->in_ports[i]) + 1;
    }
    int olen = 1;
    for (int i = 0; i < cls->n_out; i++) {
        if (port_words(&cls->out_ports[i]) > maxw)
            maxw = port_words(&cls->out_ports[i]);
        olen += digits(&cls->out_ports[i]) + 1;
    }
    v->line_cap = (size_t)(len > olen ? len : olen) + 2;
    v->line = malloc(v->line_cap);
    v->words = calloc((size_t)maxw, sizeof *v->words);
    if (!v->dir || !v->line || !v->words) {
        snprintf(err, (size_t)errlen, "out of memory");
        vec_close(v);
        return NULL;
    }
    long k = next_index(cls->name);
    if (k < 0) {
        snprintf(err, (size_t)errlen, "out of memory");
        vec_close(v);
        return NULL;
    }
    snprintf(v->dir, n, "%s/%s.%ld", g.dir, cls->name, k);
    if (make_dir(v->dir, err, errlen) || !(v->in = open_in(v, "in.hex", err, errlen)) ||
        !(v->exp = open_in(v, "exp.hex", err, errlen))) {
        vec_close(v);
        return NULL;
    }
    v->reset_next = 1; /* (the instance is reset when made) */
    v->resets = 1;
    return v;
}

void vec_reset(vec_writer_t *v)
{
    if (!v)
        return;
    if (!v->reset_next)
        v->resets++;
    v->reset_next = 1;
}

/* Appends the port's value as hexadecimal digits to v->line at *at. */
static void put_port(vec_writer_t *v, const port_desc_t *p, const void *s, size_t *at)
{
    static const char hex[] = "0123456789abcdef";
    port_get_words(p, s, v->words);
    for (int d = digits(p) - 1; d >= 0; d--)
        v->line[(*at)++] = hex[(v->words[d / 16] >> ((d % 16) * 4)) & 0xF];
}

static void put_line(vec_writer_t *v, FILE *f, const char *leaf, size_t at)
{
    v->line[at++] = '\n';
    if (fwrite(v->line, 1, at, f) != at) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", v->dir, leaf);
        fail(path);
    }
}

void vec_edge(vec_writer_t *v, const void *in, const void *out)
{
    size_t at = 0;
    v->line[at++] = v->reset_next ? '1' : '0';
    for (int i = 0; i < v->cls->n_in; i++) {
        v->line[at++] = '_';
        put_port(v, &v->cls->in_ports[i], in, &at);
    }
    put_line(v, v->in, "in.hex", at);
    at = 0;
    for (int i = 0; i < v->cls->n_out; i++) {
        if (i)
            v->line[at++] = '_';
        put_port(v, &v->cls->out_ports[i], out, &at);
    }
    put_line(v, v->exp, "exp.hex", at);
    v->reset_next = 0;
    v->edges++;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_ports(FILE *f, const port_desc_t *p, int n, const char *dir, int *first)
{
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"name\": ", *first ? "" : ",");
        json_str(f, p[i].name);
        fprintf(f, ", \"dir\": \"%s\", \"width\": %u, \"digits\": %d}", dir, p[i].width, digits(&p[i]));
        *first = 0;
    }
}

static void write_manifest(vec_writer_t *v)
{
    char *path = join(v->dir, "manifest.json");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) {
        fail(path ? path : "manifest.json");
        free(path);
        return;
    }
    int in_bits = 4, out_bits = 0;
    for (int i = 0; i < v->cls->n_in; i++)
        in_bits += 4 * digits(&v->cls->in_ports[i]);
    for (int i = 0; i < v->cls->n_out; i++)
        out_bits += 4 * digits(&v->cls->out_ports[i]);
    fprintf(f, "{\n  \"block\": ");
    json_str(f, v->cls->name);
    fprintf(f, ",\n  \"edges\": %llu,\n  \"resets\": %llu,\n", (unsigned long long)v->edges,
            (unsigned long long)v->resets);
    fprintf(f, "  \"in_file\": \"in.hex\",\n  \"in_bits\": %d,\n", in_bits);
    fprintf(f, "  \"exp_file\": \"exp.hex\",\n  \"exp_bits\": %d,\n", out_bits);
    fprintf(f, "  \"reset_field\": \"the first field of in.hex: 1 = reset before this edge\",\n");
    fprintf(f, "  \"seed\": ");
    json_str(f, g.seed ? g.seed : "");
    fprintf(f, ",\n  \"command\": ");
    json_str(f, g.cmdline ? g.cmdline : "");
    fprintf(f, ",\n  \"ports\": [");
    int first = 1;
    json_ports(f, v->cls->in_ports, v->cls->n_in, "in", &first);
    json_ports(f, v->cls->out_ports, v->cls->n_out, "out", &first);
    fprintf(f, "\n  ]\n}\n");
    if (ferror(f) | fclose(f))
        fail(path);
    free(path);
}

void vec_close(vec_writer_t *v)
{
    if (!v)
        return;
    int ok = v->in && v->exp;
    char path[600];
    if (v->in && (ferror(v->in) | fclose(v->in))) {
        snprintf(path, sizeof path, "%s/in.hex", v->dir);
        fail(path);
    }
    if (v->exp && (ferror(v->exp) | fclose(v->exp))) {
        snprintf(path, sizeof path, "%s/exp.hex", v->dir);
        fail(path);
    }
    if (ok)
        write_manifest(v);
    free(v->dir);
    free(v->line);
    free(v->words);
    free(v);
}
