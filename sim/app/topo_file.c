#include "topo_file.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ini_lines.h"

typedef struct {
    char name[TOPO_NAME_LEN];
    int line;
} decl_t;

typedef struct {
    decl_t d;
    int64_t ports, buffer_bytes, fwd_cycles, clock_mhz, header_bytes;
    int cut_through;
} sw_decl_t;

typedef struct {
    decl_t d;
    char a[2 * TOPO_NAME_LEN + 8], b[2 * TOPO_NAME_LEN + 8];
    double gbytes_per_s, one_way_ns;
} link_decl_t;

typedef struct {
    ini_lines_t in; /* first (ini_lines.h) */
    topo_file_t *tf;
    decl_t node[TOPO_MAX_NODES];
    int n_node;
    sw_decl_t sw[TOPO_MAX_SWITCHES];
    int n_sw;
    link_decl_t link[TOPO_MAX_LINKS];
    int n_link;
} tloader_t;

#define FAIL(...) return ini_lines_fail(&L->in, __VA_ARGS__)

/* A section starts a declaration when its header is read, so that a node
 * with no keys is declared too. */
static int on_section(ini_lines_t *il, const char *name, int n)
{
    tloader_t *L = (tloader_t *)il;
    const char *dot = memchr(name, '.', (size_t)n);
    int kind = -1; /* 0 node, 1 switch, 2 link */
    if (n == 8 && !strncmp(name, "topology", 8))
        return 0;
    if (dot && dot - name == 4 && !strncmp(name, "node", 4))
        kind = 0;
    else if (dot && dot - name == 6 && !strncmp(name, "switch", 6))
        kind = 1;
    else if (dot && dot - name == 4 && !strncmp(name, "link", 4))
        kind = 2;
    if (kind < 0)
        FAIL("unknown section [%.*s] (expected topology, node.NAME, switch.NAME or link.NAME)", n,
             name);
    int len = n - (int)(dot - name) - 1;
    if (len <= 0 || len >= TOPO_NAME_LEN)
        FAIL("[%.*s]: expected a name of 1 to %d characters after the dot", n, name,
             TOPO_NAME_LEN - 1);
    decl_t d = {.line = il->line};
    memcpy(d.name, dot + 1, (size_t)len);
    d.name[len] = 0;
    if (kind == 0) {
        if (L->n_node == TOPO_MAX_NODES)
            FAIL("more than %d nodes", TOPO_MAX_NODES);
        L->node[L->n_node++] = d;
    } else if (kind == 1) {
        if (L->n_sw == TOPO_MAX_SWITCHES)
            FAIL("more than %d switches", TOPO_MAX_SWITCHES);
        L->sw[L->n_sw++] = (sw_decl_t){.d = d, .ports = -1, .buffer_bytes = 262144,
                                       .fwd_cycles = 10, .clock_mhz = 500, .header_bytes = 40};
    } else {
        char e[128];
        if (!topo_name_ok(d.name, e, sizeof e))
            FAIL("[link.%s]: %s", d.name, e);
        if (L->n_link == TOPO_MAX_LINKS)
            FAIL("more than %d links", TOPO_MAX_LINKS);
        L->link[L->n_link++] = (link_decl_t){.d = d, .gbytes_per_s = 50, .one_way_ns = 100};
    }
    return 0;
}

static int whole(tloader_t *L, const char *key, const char *v, int64_t min, int64_t max,
                 int64_t *out)
{
    if (config_parse_whole(v, out) || *out < min || *out > max)
        FAIL("%s = %s: expected a whole number from %lld to %lld", key, v, (long long)min,
             (long long)max);
    return 0;
}

static int real(tloader_t *L, const char *key, const char *v, double min, int open_min,
                double *out)
{
    if (config_parse_real(v, out) || *out < min || (open_min && *out == min) || *out > 1e12)
        FAIL("%s = %s: expected a number %s %g (and at most 1e12)", key, v, open_min ? "above" : "of at least",
             min);
    return 0;
}

static int handler(void *user, const char *section, const char *key, const char *val)
{
    tloader_t *L = user;
    if (!strcmp(section, "topology")) {
        char *dst = !strcmp(key, "name")          ? L->tf->name
                    : !strcmp(key, "description") ? L->tf->description
                                                  : NULL;
        size_t cap = dst == L->tf->name ? sizeof L->tf->name : sizeof L->tf->description;
        if (!dst)
            return ini_lines_fail(&L->in, "[topology] %s: unknown key (expected name or description)",
                                  key) == 0;
        if (strlen(val) >= cap)
            return ini_lines_fail(&L->in, "[topology] %s: at most %zu characters", key, cap - 1) == 0;
        char e[128];
        if (dst == L->tf->name && !topo_name_ok(val, e, sizeof e))
            return ini_lines_fail(&L->in, "[topology] name: %s", e) == 0;
        snprintf(dst, cap, "%s", val);
        return 1;
    }
    if (!strncmp(section, "node.", 5))
        return ini_lines_fail(&L->in, "[%s] %s: a node takes no keys", section, key) == 0;
    if (!strncmp(section, "switch.", 7)) {
        sw_decl_t *s = &L->sw[L->n_sw - 1];
        int rc = 0;
        if (!strcmp(key, "ports"))
            rc = whole(L, key, val, 2, TOPO_MAX_PORTS, &s->ports);
        else if (!strcmp(key, "buffer_bytes"))
            rc = whole(L, key, val, 1, (int64_t)1 << 40, &s->buffer_bytes);
        else if (!strcmp(key, "fwd_cycles"))
            rc = whole(L, key, val, 0, 1000000, &s->fwd_cycles);
        else if (!strcmp(key, "clock_mhz"))
            rc = whole(L, key, val, 1, 100000, &s->clock_mhz);
        else if (!strcmp(key, "header_bytes"))
            rc = whole(L, key, val, 1, 65536, &s->header_bytes);
        else if (!strcmp(key, "mode")) {
            if (!strcmp(val, "store_and_forward"))
                s->cut_through = 0;
            else if (!strcmp(val, "cut_through"))
                s->cut_through = 1;
            else
                rc = ini_lines_fail(&L->in, "mode = %s: expected store_and_forward or cut_through",
                                    val);
        } else {
            rc = ini_lines_fail(&L->in,
                                "[%s] %s: unknown key (expected ports, buffer_bytes, fwd_cycles, "
                                "clock_mhz, mode or header_bytes)",
                                section, key);
        }
        return rc == 0;
    }
    /* link */
    link_decl_t *l = &L->link[L->n_link - 1];
    if (!strcmp(key, "a") || !strcmp(key, "b")) {
        char *dst = key[0] == 'a' ? l->a : l->b;
        if (strlen(val) >= sizeof l->a)
            return ini_lines_fail(&L->in, "%s = %s: too long", key, val) == 0;
        snprintf(dst, sizeof l->a, "%s", val);
        return 1;
    }
    if (!strcmp(key, "gbytes_per_s"))
        return real(L, key, val, 0, 1, &l->gbytes_per_s) == 0;
    if (!strcmp(key, "one_way_ns"))
        return real(L, key, val, 0, 0, &l->one_way_ns) == 0;
    return ini_lines_fail(&L->in, "[%s] %s: unknown key (expected a, b, gbytes_per_s or one_way_ns)",
                          section, key) == 0;
}

/* The declarations, in order, into the topology. */
static int build(tloader_t *L, char *err, int errlen)
{
    topo_t *t = &L->tf->t;
    const char *f = L->in.file;
    char e[256];
    topo_init(t);
    for (int i = 0; i < L->n_node; i++)
        if (topo_add_node(t, L->node[i].name, e, sizeof e) < 0) {
            snprintf(err, (size_t)errlen, "%s:%d: %s", f, L->node[i].line, e);
            return -1;
        }
    for (int i = 0; i < L->n_sw; i++) {
        sw_decl_t *s = &L->sw[i];
        if (s->ports < 0) {
            snprintf(err, (size_t)errlen, "%s:%d: [switch.%s]: expected 'ports = N'", f, s->d.line,
                     s->d.name);
            return -1;
        }
        int k = topo_add_switch(t, s->d.name, (int)s->ports, e, sizeof e);
        if (k < 0) {
            snprintf(err, (size_t)errlen, "%s:%d: %s", f, s->d.line, e);
            return -1;
        }
        t->sw[k].buffer_bytes = s->buffer_bytes;
        t->sw[k].fwd_cycles = (int)s->fwd_cycles;
        t->sw[k].clock_mhz = s->clock_mhz;
        t->sw[k].cut_through = s->cut_through;
        t->sw[k].header_bytes = s->header_bytes;
    }
    for (int i = 0; i < L->n_link; i++) {
        link_decl_t *l = &L->link[i];
        if (!l->a[0] || !l->b[0]) {
            snprintf(err, (size_t)errlen, "%s:%d: [link.%s]: expected 'a = END' and 'b = END'", f,
                     l->d.line, l->d.name);
            return -1;
        }
        int li = topo_add_link(t, l->a, l->b, l->gbytes_per_s, l->one_way_ns, e, sizeof e);
        if (li < 0) {
            snprintf(err, (size_t)errlen, "%s:%d: [link.%s]: %s", f, l->d.line, l->d.name, e);
            return -1;
        }
        memset(t->link[li].name, 0, sizeof t->link[li].name);
        snprintf(t->link[li].name, sizeof t->link[li].name, "%s", l->d.name);
    }
    if (topo_routes(t, e, sizeof e)) {
        snprintf(err, (size_t)errlen, "%s: %s", f, e);
        return -1;
    }
    return 0;
}

static int load(topo_file_t *tf, const char *name, const char *text, char *err,
                int errlen)
{
    memset(tf, 0, sizeof(*tf));
    snprintf(tf->file, sizeof tf->file, "%s", name);
    tloader_t *L = calloc(1, sizeof(*L));
    if (!L) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    L->in = (ini_lines_t){.file = name, .err = err, .errlen = errlen, .on_section = on_section};
    L->tf = tf;
    int rc = ini_lines_parse(&L->in, "topology", text, handler, L);
    if (!rc)
        rc = build(L, err, errlen);
    free(L);
    if (!rc && !tf->name[0]) { /* unnamed: the file's name, without folder and .ini */
        const char *b = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
        size_t n = strlen(b);
        if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
            n -= 4;
        if (n >= sizeof tf->name)
            n = sizeof tf->name - 1;
        memcpy(tf->name, b, n);
        tf->name[n] = '\0';
        for (char *c = tf->name; *c; c++) /* (a name stands unquoted in reports) */
            if (!text_name_char(*c))
                *c = '_';
    }
    return rc;
}

int topo_load_text(topo_file_t *tf, const char *name, const char *text, char *err, int errlen)
{
    return load(tf, name, text, err, errlen);
}

int topo_load_file(topo_file_t *tf, const char *path, char *err, int errlen)
{
    char *text = ini_lines_read(path, "topology", err, errlen);
    if (!text)
        return -1;
    int rc = load(tf, path, text, err, errlen);
    free(text);
    return rc;
}
