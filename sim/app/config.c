#include "config.h"

#include "block.h"
#include "ini_lines.h"
#include "text.h"

#include "context_cache.h"
#include "rc_send_pipeline.h"
#include "ub_send_pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const cat_names[CAT_COUNT] = {
    [CAT_NONE] = "?",           [CAT_SOFTWARE] = "software",
    [CAT_PCIE] = "PCIe",        [CAT_BUS] = "on-chip bus",
    [CAT_NIC] = "NIC",          [CAT_WIRE] = "wire",
    [CAT_MEMORY] = "memory",    [CAT_COMPLETION] = "completion",
    [CAT_ALIGNMENT] = "clock alignment", [CAT_SERIALISATION] = "serialisation",
    [CAT_SWITCH] = "switch",    [CAT_QUEUEING] = "queueing",
    [CAT_TRANSPORT] = "transport",
};
/* the spelling used in config files */
static const char *const cat_keys[CAT_COUNT] = {
    [CAT_SOFTWARE] = "software", [CAT_PCIE] = "pcie",     [CAT_BUS] = "bus",
    [CAT_NIC] = "nic",           [CAT_WIRE] = "wire",     [CAT_MEMORY] = "memory",
    [CAT_COMPLETION] = "completion",
};

int64_t stage_one_way_ps(const path_cfg_t *p, const stage_cfg_t *st)
{
    return st->has_link ? st->link_one_way_ps : p->wire_one_way_ps;
}

double stage_gbytes_per_s(const path_cfg_t *p, const stage_cfg_t *st)
{
    return st->has_link ? st->link_gbytes_per_s : p->wire_gbytes_per_s;
}

const char *category_name(category_t c)
{
    return (c >= 0 && c < CAT_COUNT) ? cat_names[c] : "?";
}

const char *nic_block_name(nic_block_t b)
{
    switch (b) {
    case NIC_BLOCK_UB_SEND: return "ub_send_pipeline";
    case NIC_BLOCK_RC_SEND: return "rc_send_pipeline";
    default: return "none";
    }
}

int nic_block_latency(nic_block_t b)
{
    switch (b) {
    case NIC_BLOCK_UB_SEND: return UBSP_LATENCY;
    case NIC_BLOCK_RC_SEND: return RC_SEND_LATENCY;
    default: return 0;
    }
}

void config_init(config_t *c) { memset(c, 0, sizeof(*c)); }

path_cfg_t *config_find(config_t *c, const char *name)
{
    for (int i = 0; i < c->n_paths; i++)
        if (strcmp(c->paths[i].name, name) == 0)
            return &c->paths[i];
    return NULL;
}

/* ---- value parsing ------------------------------------------------------ */

int config_parse_real(const char *v, double *out) { return text_parse_real(v, out); }

int config_parse_whole(const char *v, int64_t *out) { return text_parse_whole(v, out); }

/* ns with at most picosecond resolution -> ps */
static int parse_ns_to_ps(const char *v, int64_t *ps, const char **why)
{
    double d;
    if (config_parse_real(v, &d)) {
        *why = "expected a number of ns (decimal, e.g. 12.5 or 1e3)";
        return -1;
    }
    if (d < 0) {
        *why = "expected a delay >= 0 ns";
        return -1;
    }
    if (d > 1e9) {
        *why = "expected a delay below 1 s (1e9 ns)";
        return -1;
    }
    double p = d * 1000.0;
    double r = nearbyint(p);
    if (fabs(p - r) > 1e-6) {
        *why = "expected a delay in whole picoseconds (at most 3 decimals in ns)";
        return -1;
    }
    *ps = (int64_t)r;
    return 0;
}

/* ---- applying one key --------------------------------------------------- */

typedef struct {
    ini_lines_t in;    /* first: the file, the line, the error (ini_lines.h) */
    config_t *cfg;
    path_cfg_t *cur;   /* path of the file being read */
} loader_t;

#define FAIL(...) return ini_lines_fail(&L->in, __VA_ARGS__)

static stage_cfg_t *find_stage(path_cfg_t *p, const char *name)
{
    for (int i = 0; i < p->n_stages; i++)
        if (strcmp(p->stages[i].name, name) == 0)
            return &p->stages[i];
    return NULL;
}

/* The first character of a path's or stage's name that is not a letter,
 * digit, '_', '-' or '.' (names stand unquoted in reports and CSV), or 0. */
static char bad_name_char(const char *name)
{
    for (; *name; name++) {
        if (!text_name_char(*name) && *name != '.')
            return *name;
    }
    return 0;
}

static int apply_stage(loader_t *L, path_cfg_t *p, const char *sname, const char *key,
                       const char *val, int create)
{
    stage_cfg_t *s = find_stage(p, sname);
    if (!s) {
        if (!create)
            return 1; /* not in this path */
        if (strlen(sname) == 0 || strlen(sname) >= CFG_NAME_LEN)
            FAIL("[stage.%s]: expected a stage name of 1..%d characters", sname, CFG_NAME_LEN - 1);
        if (bad_name_char(sname))
            FAIL("[stage.%s]: expected a stage name of letters, digits, '_', '-' or '.' (not '%c')",
                 sname, bad_name_char(sname));
        if (p->n_stages == CFG_MAX_STAGES)
            FAIL("[stage.%s]: more than %d stages in path '%s'", sname, CFG_MAX_STAGES, p->name);
        s = &p->stages[p->n_stages++];
        memset(s, 0, sizeof(*s));
        snprintf(s->name, sizeof(s->name), "%s", sname);
        snprintf(s->file, sizeof(s->file), "%s", L->in.file);
        s->line = L->in.section_line ? L->in.section_line : L->in.line;
        s->bytes = -1;
        s->payload_bytes = 0;
    }
    if (!key)
        return 0; /* (its header: the stage exists, keys or not) */
    const char *why;
    if (strcmp(key, "label") == 0) {
        if (strlen(val) >= sizeof(s->label))
            FAIL("[stage.%s] label: expected at most %d characters, got %zu", sname,
                 (int)sizeof(s->label) - 1, strlen(val));
        snprintf(s->label, sizeof(s->label), "%s", val);
    } else if (strcmp(key, "category") == 0) {
        int found = 0;
        for (int c = 0; c < CAT_COUNT; c++)
            if (cat_keys[c] && strcmp(val, cat_keys[c]) == 0) {
                s->category = (category_t)c;
                found = 1;
            }
        if (!found)
            FAIL("[stage.%s] category: expected one of software, pcie, bus, nic, wire, memory, "
                 "completion, got '%s'", sname, val);
    } else if (strcmp(key, "delay_ns") == 0) {
        if (parse_ns_to_ps(val, &s->delay_ps, &why))
            FAIL("[stage.%s] delay_ns: %s, got '%s'", sname, why, val);
        if (s->kind != STAGE_DELAY)
            s->kinds_given++;
        s->kind = STAGE_DELAY;
        snprintf(s->kind_file, sizeof(s->kind_file), "%s", L->in.file);
        s->kind_line = L->in.line;
    } else if (strcmp(key, "nic") == 0) {
        int node = -1, pipe = -1;
        if (strcmp(val, "initiator.tx") == 0) node = NODE_INITIATOR, pipe = PIPE_TX;
        else if (strcmp(val, "initiator.rx") == 0) node = NODE_INITIATOR, pipe = PIPE_RX;
        else if (strcmp(val, "target.tx") == 0) node = NODE_TARGET, pipe = PIPE_TX;
        else if (strcmp(val, "target.rx") == 0) node = NODE_TARGET, pipe = PIPE_RX;
        else
            FAIL("[stage.%s] nic: expected initiator.tx, initiator.rx, target.tx or target.rx, "
                 "got '%s'", sname, val);
        s->node = node;
        s->pipe = pipe;
        if (s->kind != STAGE_NIC)
            s->kinds_given++;
        s->kind = STAGE_NIC;
        snprintf(s->kind_file, sizeof(s->kind_file), "%s", L->in.file);
        s->kind_line = L->in.line;
    } else if (strcmp(key, "wire") == 0) {
        if (strcmp(val, "forward") == 0) s->wire_dir = WIRE_FORWARD;
        else if (strcmp(val, "back") == 0) s->wire_dir = WIRE_BACK;
        else FAIL("[stage.%s] wire: expected forward or back, got '%s'", sname, val);
        if (s->kind != STAGE_WIRE)
            s->kinds_given++;
        s->kind = STAGE_WIRE;
        snprintf(s->kind_file, sizeof(s->kind_file), "%s", L->in.file);
        s->kind_line = L->in.line;
    } else if (strcmp(key, "bytes") == 0) {
        int64_t b;
        if (config_parse_whole(val, &b) || b < 1 || b > 1 << 20)
            FAIL("[stage.%s] bytes: expected a whole number of bytes 1..1048576, got '%s'", sname, val);
        s->bytes = b;
    } else if (strcmp(key, "payload_bytes") == 0) {
        int64_t b;
        if (config_parse_whole(val, &b) || b < 0 || b > 1 << 20)
            FAIL("[stage.%s] payload_bytes: expected a whole number of bytes 0..1048576, got '%s'",
                 sname, val);
        s->payload_bytes = b;
    } else {
        FAIL("[stage.%s]: unknown key '%s' (expected label, category, delay_ns, nic, wire, bytes, "
             "payload_bytes)",
             sname, key);
    }
    return 0;
}

static int apply_path_key(loader_t *L, path_cfg_t *p, const char *section, const char *key,
                          const char *val)
{
    const char *why;
    if (strcmp(section, "path") == 0) {
        if (strcmp(key, "title") == 0) {
            if (strlen(val) >= sizeof(p->title))
                FAIL("[path] title: expected at most %d characters, got %zu",
                     (int)sizeof(p->title) - 1, strlen(val));
            snprintf(p->title, sizeof(p->title), "%s", val);
        } else if (strcmp(key, "name") == 0)
            FAIL("[path] name: a path's name cannot be changed");
        else
            FAIL("[path]: unknown key '%s' (expected name, title)", key);
    } else if (strcmp(section, "clock") == 0) {
        if (strcmp(key, "nic_mhz") != 0)
            FAIL("[clock]: unknown key '%s' (expected nic_mhz)", key);
        int64_t m;
        if (config_parse_whole(val, &m) || m < 1 || m > 100000)
            FAIL("[clock] nic_mhz: expected a whole number of MHz 1..100000, got '%s'", val);
        p->nic_mhz = m;
    } else if (strcmp(section, "wire") == 0) {
        if (strcmp(key, "one_way_ns") == 0) {
            if (parse_ns_to_ps(val, &p->wire_one_way_ps, &why))
                FAIL("[wire] one_way_ns: %s, got '%s'", why, val);
        } else if (strcmp(key, "gbytes_per_s") == 0) {
            double d;
            if (config_parse_real(val, &d) || d < 0.001 || d > 1e6)
                FAIL("[wire] gbytes_per_s: expected a rate of 0.001..1000000 GB/s (a decimal "
                     "number), got '%s'", val);
            p->wire_gbytes_per_s = d;
        } else {
            FAIL("[wire]: unknown key '%s' (expected one_way_ns, gbytes_per_s)", key);
        }
    } else if (strcmp(section, "nic") == 0) {
        char why2[160];
        if (strcmp(key, "tx_stages") == 0) {
            if (nic_pipe_parse(val, &p->tx, why2, sizeof(why2)))
                FAIL("[nic] tx_stages: %s", why2);
            p->have_tx = 1;
        } else if (strcmp(key, "rx_stages") == 0) {
            if (nic_pipe_parse(val, &p->rx, why2, sizeof(why2)))
                FAIL("[nic] rx_stages: %s", why2);
            p->have_rx = 1;
        } else if (strcmp(key, "tx_block") == 0) {
            if (strcmp(val, "ub_send_pipeline") == 0) p->tx_block = NIC_BLOCK_UB_SEND;
            else if (strcmp(val, "rc_send_pipeline") == 0) p->tx_block = NIC_BLOCK_RC_SEND;
            else if (strcmp(val, "none") == 0) p->tx_block = NIC_BLOCK_NONE;
            else FAIL("[nic] tx_block: expected ub_send_pipeline, rc_send_pipeline or none, got '%s'", val);
        } else if (strcmp(key, "mtu_bytes") == 0) {
            int64_t m;
            if (config_parse_whole(val, &m) || m < 256 || m > 65536 || (m & (m - 1)))
                FAIL("[nic] mtu_bytes: expected a power of two from 256 to 65536, got '%s'", val);
            p->mtu_bytes = m;
        } else {
            FAIL("[nic]: unknown key '%s' (expected tx_stages, rx_stages, tx_block, mtu_bytes)", key);
        }
    } else if (strcmp(section, "context") == 0) {
        ctx_cfg_t *x = &p->ctx;
        int64_t v;
        struct {
            const char *key;
            int *field;
            int64_t lo, hi;
        } ints[] = {{"sets_log2", &x->sets_log2, 0, 6},     {"ways", &x->ways, 1, 128},
                    {"hit_cycles", &x->hit_cycles, CC_MIN_HIT, 15}, {"need_cycle", &x->need_cycle, 0, 1000},
                    {"jetty_bytes", &x->rec[0], 1, 1024},  {"segment_bytes", &x->rec[1], 1, 1024},
                    {"channel_bytes", &x->rec[2], 1, 1024}, {"qp_bytes", &x->rec[3], 1, 1024}};
        if (strcmp(key, "cache_bytes") == 0) {
            if (config_parse_whole(val, &v) || v < 0 || v > 0xFFFFFFFF)
                FAIL("[context] cache_bytes: expected a whole number of bytes 0..4294967295 (0: "
                     "contexts are not looked up), got '%s'", val);
            x->cache_bytes = v;
            return 0;
        }
        if (strcmp(key, "miss_ns") == 0) {
            if (parse_ns_to_ps(val, &x->miss_ps, &why))
                FAIL("[context] miss_ns: %s, got '%s'", why, val);
            return 0;
        }
        if (strcmp(key, "backend") == 0) {
            int b = strcmp(val, "path") == 0 ? -1 : backend_parse(val);
            if (b < 0 && strcmp(val, "path") != 0)
                FAIL("[context] backend: expected c, rtl, lockstep or path (the path's --backend), "
                     "got '%s'", val);
            x->backend = b;
            return 0;
        }
        for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
            if (strcmp(key, ints[i].key) != 0)
                continue;
            if (config_parse_whole(val, &v) || v < ints[i].lo || v > ints[i].hi)
                FAIL("[context] %s: expected a whole number %lld..%lld%s, got '%s'", key,
                     (long long)ints[i].lo, (long long)ints[i].hi,
                     ints[i].field == &x->hit_cycles ? " (a lookup's pipeline and data read take "
                                                       "4 cycles)" : "", val);
            *ints[i].field = (int)v;
            return 0;
        }
        FAIL("[context]: unknown key '%s' (expected cache_bytes, sets_log2, ways, hit_cycles, "
             "need_cycle, miss_ns, backend, jetty_bytes, segment_bytes, channel_bytes, qp_bytes)", key);
    } else {
        FAIL("unknown section [%s] (expected path, clock, wire, nic, context or stage.NAME)", section);
    }
    return 0;
}

static int handler(void *user, const char *section, const char *key, const char *val)
{
    loader_t *L = user;
    if (L->in.failed)
        return 1; /* keep only the first error */
    if (strcmp(section, "path") == 0 && strcmp(key, "name") == 0) {
        if (L->cur)
            FAIL("[path] name: given twice in one file");
        if (!*val || strlen(val) >= CFG_NAME_LEN)
            FAIL("[path] name: expected a name of 1..%d characters", CFG_NAME_LEN - 1);
        if (bad_name_char(val))
            FAIL("[path] name: expected letters, digits, '_', '-' or '.', got '%s' (not '%c')", val,
                 bad_name_char(val));
        path_cfg_t *p = config_find(L->cfg, val);
        if (!p) {
            if (L->cfg->n_paths == CFG_MAX_PATHS)
                FAIL("more than %d paths", CFG_MAX_PATHS);
            p = &L->cfg->paths[L->cfg->n_paths++];
            memset(p, 0, sizeof(*p));
            snprintf(p->name, sizeof(p->name), "%s", val);
            snprintf(p->file, sizeof(p->file), "%s", L->in.file);
            p->line = L->in.line;
            p->nic_mhz = -1;
            p->wire_one_way_ps = -1;
            p->wire_gbytes_per_s = -1;
            p->mtu_bytes = 4096;
            p->ctx = (ctx_cfg_t){.cache_bytes = 262144, .sets_log2 = 6, .ways = 128,
                                 .hit_cycles = CC_MIN_HIT, .need_cycle = 8, .miss_ps = 100000,
                                 .rec = {20, 32, 56, 512}, .backend = BACKEND_C};
        }
        L->cur = p;
        return 1;
    }
    if (!L->cur) {
        FAIL("expected '[path]' with 'name = ...' before any other setting");
    }
    if (strncmp(section, "stage.", 6) == 0)
        return apply_stage(L, L->cur, section + 6, key, val, 1) == 0;
    return apply_path_key(L, L->cur, section, key, val) == 0;
}

/* A section header is checked when it is read, so that an unknown section is
 * reported even when it has no keys (inih only reports keys). */
static int check_section(ini_lines_t *il, const char *name, int n)
{
    loader_t *L = (loader_t *)il;
    if ((n == 4 && !strncmp(name, "path", 4)) || (n == 5 && !strncmp(name, "clock", 5)) ||
        (n == 4 && !strncmp(name, "wire", 4)) || (n == 3 && !strncmp(name, "nic", 3)) ||
        (n == 7 && !strncmp(name, "context", 7)))
        return 0;
    if (n > 6 && !strncmp(name, "stage.", 6)) {
        /* the stage exists from its header on: one without keys is reported
         * as incomplete (config_validate), not dropped */
        if (!L->cur)
            FAIL("expected '[path]' with 'name = ...' before any other setting");
        char sname[CFG_NAME_LEN + 1];
        snprintf(sname, sizeof sname, "%.*s", n - 6 < CFG_NAME_LEN ? n - 6 : CFG_NAME_LEN, name + 6);
        return apply_stage(L, L->cur, sname, NULL, NULL, 1);
    }
    FAIL("unknown section [%.*s] (expected path, clock, wire, nic, context or stage.NAME)", n, name);
}

static int load(config_t *c, const char *name, const char *text, char *err, int errlen)
{
    /* stages and paths remember the file they come from */
    if (strlen(name) >= CFG_FILE_LEN) {
        snprintf(err, (size_t)errlen, "config file name '%s': expected at most %d characters, got %zu",
                 name, CFG_FILE_LEN - 1, strlen(name));
        return -1;
    }
    loader_t L = {.in = {.file = name, .err = err, .errlen = errlen, .on_section = check_section},
                  .cfg = c};
    if (ini_lines_parse(&L.in, "config", text, handler, &L))
        return -1;
    if (!L.cur) {
        snprintf(err, (size_t)errlen, "%s:1: expected '[path]' with 'name = ...'", name);
        return -1;
    }
    return 0;
}

int config_load_file(config_t *c, const char *path, char *err, int errlen)
{
    if (strlen(path) >= CFG_FILE_LEN) {
        snprintf(err, (size_t)errlen, "config file name '%s': expected at most %d characters, got %zu",
                 path, CFG_FILE_LEN - 1, strlen(path));
        return -1;
    }
    char *text = ini_lines_read(path, "config", err, errlen);
    if (!text)
        return -1;
    int rc = load(c, path, text, err, errlen);
    free(text);
    return rc;
}

int config_load_string(config_t *c, const char *name, const char *text, char *err, int errlen)
{
    return load(c, name, text, err, errlen);
}

int config_set(config_t *c, const char *assignment, const char *origin, char *err, int errlen)
{
    loader_t Lv = {.in = {.file = origin, .line = 1, .err = err, .errlen = errlen}, .cfg = c};
    loader_t *L = &Lv;
    char buf[CFG_SET_LEN];
    if (strlen(assignment) >= sizeof(buf))
        FAIL("expected section.key=value of at most %d characters, got %zu", CFG_SET_LEN - 1,
             strlen(assignment));
    snprintf(buf, sizeof(buf), "%s", assignment);
    char *eq = strchr(buf, '=');
    if (!eq)
        FAIL("'%s': expected section.key=value", assignment);
    *eq = 0;
    const char *val = eq + 1;
    char *dot = strrchr(buf, '.');
    if (!dot || dot == buf || !dot[1])
        FAIL("'%s': expected section.key=value", assignment);
    *dot = 0;
    const char *section = buf, *key = dot + 1;
    if (c->n_paths == 0)
        FAIL("'%s': no path loaded to apply it to", assignment);
    int applied = 0;
    for (int i = 0; i < c->n_paths; i++) {
        path_cfg_t *p = &c->paths[i];
        int rc;
        if (strncmp(section, "stage.", 6) == 0)
            rc = apply_stage(L, p, section + 6, key, val, 0);
        else
            rc = apply_path_key(L, p, section, key, val);
        if (rc < 0)
            return -1;
        if (rc == 0)
            applied++;
    }
    if (!applied)
        FAIL("'%s': no loaded path has a section [%s]", assignment, section);
    return 0;
}

int config_validate(const config_t *c, char *err, int errlen)
{
    for (int i = 0; i < c->n_paths; i++) {
        const path_cfg_t *p = &c->paths[i];
#define VFAIL(file, line, ...)                                                  \
    do {                                                                        \
        int n_ = snprintf(err, (size_t)errlen, "%s:%d: path '%s': ", file, line, p->name); \
        if (n_ < 0 || n_ >= errlen) n_ = 0;                                      \
        snprintf(err + n_, (size_t)(errlen - n_), __VA_ARGS__);                  \
        return -1;                                                              \
    } while (0)
        if (p->nic_mhz < 0)
            VFAIL(p->file, p->line, "expected [clock] nic_mhz");
        if (p->wire_one_way_ps < 0)
            VFAIL(p->file, p->line, "expected [wire] one_way_ns");
        if (p->wire_gbytes_per_s < 0)
            VFAIL(p->file, p->line, "expected [wire] gbytes_per_s");
        if (p->n_stages == 0)
            VFAIL(p->file, p->line, "expected at least one [stage.NAME] section");
        for (int j = 0; j < p->n_stages; j++) {
            const stage_cfg_t *s = &p->stages[j];
            if (s->kinds_given == 0)
                VFAIL(s->file, s->line, "[stage.%s]: expected one of delay_ns, nic, wire",
                      s->name);
            if (s->kinds_given > 1)
                VFAIL(s->kind_file, s->kind_line, "[stage.%s]: expected exactly one of delay_ns, "
                      "nic, wire, but another is given here", s->name);
            if (s->category == CAT_NONE)
                VFAIL(s->file, s->line, "[stage.%s]: expected a category", s->name);
            if (s->kind == STAGE_WIRE && s->bytes < 0)
                VFAIL(s->file, s->line, "[stage.%s]: a wire stage needs bytes = N (packet size "
                      "on the wire)", s->name);
            if (s->kind == STAGE_WIRE && s->payload_bytes > s->bytes)
                VFAIL(s->file, s->line, "[stage.%s]: payload_bytes (%lld) larger than bytes (%lld)",
                      s->name, (long long)s->payload_bytes, (long long)s->bytes);
            if (s->kind != STAGE_WIRE && s->bytes >= 0)
                VFAIL(s->file, s->line, "[stage.%s]: bytes applies to wire stages only", s->name);
            if (s->kind == STAGE_NIC) {
                if (s->pipe == PIPE_TX && !p->have_tx)
                    VFAIL(s->file, s->line, "[stage.%s]: expected [nic] tx_stages", s->name);
                if (s->pipe == PIPE_RX && !p->have_rx)
                    VFAIL(s->file, s->line, "[stage.%s]: expected [nic] rx_stages", s->name);
            }
        }
        if (p->tx_block != NIC_BLOCK_NONE) {
            /* the packets a send pipeline emits are checked, and a message
             * of several packets is put together, at both ends' receive
             * pipelines */
            int rx[2] = {0, 0};
            for (int j = 0; j < p->n_stages; j++)
                if (p->stages[j].kind == STAGE_NIC && p->stages[j].pipe == PIPE_RX)
                    rx[p->stages[j].node] = 1;
            if (!rx[NODE_INITIATOR] || !rx[NODE_TARGET])
                VFAIL(p->file, p->line,
                      "[nic] tx_block: a send pipeline needs a receive pipeline at both ends "
                      "(a stage with nic = %s.rx)",
                      rx[NODE_TARGET] ? "initiator" : "target");
        }
#undef VFAIL
    }
    return 0;
}

const char *config_dir(void)
{
    const char *d = getenv("UBSIM_CONFIG_DIR");
    return (d && *d) ? d : UBSIM_CONFIG_DIR;
}

int config_load_defaults(config_t *c, char *err, int errlen)
{
    static const char *const names[] = {"pcie_nic", "ub_async", "ub_load", "pcie_nic_onproc"};
    /* every file name DIR/NAME.ini must fit in CFG_FILE_LEN */
    const int dir_max = CFG_FILE_LEN - 1 - (int)strlen("/pcie_nic_onproc.ini");
    if (strlen(config_dir()) > (size_t)dir_max) {
        snprintf(err, (size_t)errlen,
                 "$UBSIM_CONFIG_DIR: expected a directory name of at most %d characters, got %zu",
                 dir_max, strlen(config_dir()));
        return -1;
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char path[CFG_FILE_LEN];
        snprintf(path, sizeof(path), "%s/%s.ini", config_dir(), names[i]);
        if (config_load_file(c, path, err, errlen))
            return -1;
    }
    return 0;
}
