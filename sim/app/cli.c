#include "cli.h"

#include "path_topo.h"
#include "topo_file.h"

#include <unistd.h>

#include "block.h"
#include "jobs.h"
#include "vectors.h"
#include "report.h"
#include "sc_engine.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ubsim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'ubsim %s --help')\n", cmd);
    return 2;
}

/* Notes that option `name` was met: 1 (with *bad set) if it was met before
 * and may not be repeated. */
static int once_more(cli_args_t *A, const char *name, int *bad)
{
    static const char *const lists[] = {"--config", "--set", "--burst"};
    for (size_t k = 0; k < sizeof lists / sizeof *lists; k++)
        if (!strcmp(name, lists[k]))
            return 0;
    if (!strcmp(name, "--path") && !strcmp(A->cmd, "latency"))
        return 0;
    for (int k = 0; k < A->n_seen; k++)
        if (!strcmp(A->seen[k], name)) {
            *bad = cli_usage_error(A->cmd, "%s: given twice (give it once%s)", name,
                                   !strcmp(name, "--fault") ? ", with every fault key in one "
                                                              "comma-separated list" : "");
            return 1;
        }
    if (A->n_seen < CLI_MAX_SEEN)
        A->seen[A->n_seen++] = name;
    return 0;
}

int cli_opt_value(cli_args_t *A, const char *name, const char **val, int *bad)
{
    const char *arg = A->argv[A->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *val = arg + n + 1;
        once_more(A, name, bad);
        return 1;
    }
    if (arg[n] != 0)
        return 0;
    if (once_more(A, name, bad))
        return 1;
    if (A->i + 1 >= A->argc) {
        *bad = cli_usage_error(A->cmd, "%s: expected a value after it", name);
        return 1;
    }
    *val = A->argv[++A->i];
    return 1;
}

int cli_parse_int(const char *v, long long min, long long *out)
{
    int64_t x;
    if (config_parse_whole(v, &x) || x < min)
        return -1;
    *out = x;
    return 0;
}

/* "wire.one_way_ns=": what --link-ns L stands for, without L */
static const char link_key[] = "wire.one_way_ns=";

/* Values are used whole or not at all: one longer than MAX characters is a
 * usage error (sets *bad, returns 1). */
static int too_long(cli_args_t *A, const char *opt, const char *what, const char *v, size_t max,
                    int *bad)
{
    if (strlen(v) <= max)
        return 0;
    *bad = cli_usage_error(A->cmd, "%s: expected %s of at most %zu characters, got %zu", opt, what,
                           max, strlen(v));
    return 1;
}

int cli_config_option(cli_args_t *A, cli_config_opts_t *o, int *bad)
{
    const char *v = NULL;
    if (cli_opt_value(A, "--config", &v, bad)) {
        if (*bad || too_long(A, "--config", "a file name", v, CFG_FILE_LEN - 1, bad))
            return 1;
        if (o->n_configs == CLI_MAX_LIST)
            *bad = cli_usage_error(A->cmd, "--config: at most %d files", CLI_MAX_LIST);
        else
            o->configs[o->n_configs++] = v;
        return 1;
    }
    if (cli_opt_value(A, "--set", &v, bad)) {
        if (*bad || too_long(A, "--set", "SEC.KEY=VALUE", v, CFG_SET_LEN - 1, bad))
            return 1;
        if (o->n_sets == CLI_MAX_LIST)
            *bad = cli_usage_error(A->cmd, "--set: at most %d", CLI_MAX_LIST);
        else
            o->sets[o->n_sets++] = v;
        return 1;
    }
    if (cli_opt_value(A, "--topology", &v, bad)) {
        if (!*bad && !too_long(A, "--topology", "a file name", v, 255, bad))
            o->topology = v;
        return 1;
    }
    if (cli_opt_value(A, "--from", &v, bad)) {
        if (!*bad)
            o->from = v;
        return 1;
    }
    if (cli_opt_value(A, "--to", &v, bad)) {
        if (!*bad)
            o->to = v;
        return 1;
    }
    if (cli_opt_value(A, "--link-ns", &v, bad)) {
        if (!*bad && !too_long(A, "--link-ns", "a value", v, CFG_SET_LEN - sizeof link_key, bad))
            o->link_ns = v;
        return 1;
    }
    return 0;
}

int cli_engine_option(cli_args_t *A, const sim_engine_t **e, const char **name, int *bad)
{
    const char *v = NULL;
    if (!cli_opt_value(A, "--engine", &v, bad))
        return 0;
    if (*bad)
        return 1;
    char err[PATH_MAX + 256];
    int rc = engine_by_name(v, e, err, sizeof err);
    if (rc == -1) {
        *bad = cli_usage_error(A->cmd, "--engine: %s", err);
    } else if (rc) {
        fprintf(stderr, "ubsim %s: --engine %s: %s\n", A->cmd, v, err);
        *bad = 1;
    } else {
        *name = v;
    }
    return 1;
}

int cli_jobs_option(cli_args_t *A, int *jobs, int *bad)
{
    const char *v = NULL;
    if (!cli_opt_value(A, "--jobs", &v, bad))
        return 0;
    long long n;
    if (!*bad && (cli_parse_int(v, 1, &n) || n > 64))
        *bad = cli_usage_error(A->cmd, "--jobs: expected a whole number 1..64, got '%s'", v);
    else if (!*bad)
        *jobs = (int)n;
    return 1;
}

int cli_jobs(int jobs, int shared_wave, const char *engine_name)
{
    if (shared_wave || block_vectors_dir() || (engine_name && strcmp(engine_name, "systemc") == 0))
        return 1;
    return jobs > 0 ? jobs : jobs_default();
}

FILE *cli_report_open(cli_report_t *r)
{
    *r = (cli_report_t){NULL, NULL, 0};
    r->f = open_memstream(&r->buf, &r->len);
    return r->f;
}

void cli_report_close(cli_report_t *r, int print)
{
    if (r->f)
        fclose(r->f);
    if (print && r->buf)
        fputs(r->buf, stderr);
    free(r->buf);
    *r = (cli_report_t){NULL, NULL, 0};
}

int cli_transport_option(cli_args_t *A, cli_tp_opts_t *t, int *bad)
{
    const char *v = NULL;
    if (cli_opt_value(A, "--transport", &v, bad)) {
        static const char *const names[] = {"off", "on", "sack", "gbn"};
        int m = -1;
        for (int i = 0; !*bad && i < 4; i++)
            if (strcmp(v, names[i]) == 0)
                m = i;
        if (!*bad && m < 0)
            *bad = cli_usage_error(A->cmd, "--transport: expected off, on, sack or gbn, got '%s'", v);
        else if (!*bad)
            t->mode = m;
        return 1;
    }
    if (cli_opt_value(A, "--rto-ns", &v, bad)) {
        if (!*bad && (cli_parse_int(v, 1, &t->rto_ns) || t->rto_ns > 1000000000))
            *bad = cli_usage_error(A->cmd, "--rto-ns: expected 1 to 1000000000 ns, got '%s'", v);
        return 1;
    }
    return 0;
}

int cli_transport_check(const cli_args_t *A, const cli_tp_opts_t *t)
{
    if (t->rto_ns && t->mode == CLI_TP_OFF)
        return cli_usage_error(A->cmd, "--rto-ns: the timeout of --transport, which is off");
    return 0;
}

int cli_transport_path_check(const char *cmd, const cli_tp_opts_t *t, const path_cfg_t *p)
{
    if (t->mode == CLI_TP_SACK && p->tx_block == NIC_BLOCK_RC_SEND)
        return cli_usage_error(cmd, "--transport sack: path '%s': %s (--transport on or gbn)",
                               p->name, TP_SACK_NOT_ON_ROCE);
    return 0;
}

const tp_cfg_t *cli_transport_cfg(const cli_tp_opts_t *t, const path_cfg_t *p, tp_cfg_t *cfg)
{
    if (t->mode == CLI_TP_OFF || p->tx_block == NIC_BLOCK_NONE)
        return NULL;
    tp_cfg_default(cfg, t->mode == CLI_TP_GBN ||
                            (t->mode == CLI_TP_ON && p->tx_block == NIC_BLOCK_RC_SEND));
    if (t->rto_ns > 0)
        cfg->rto_ps = t->rto_ns * 1000;
    return cfg;
}

void cli_run_defaults(cli_run_opts_t *o, long long seed)
{
    o->format = FMT_TABLE;
    o->backend = BACKEND_C;
    o->wave = NULL;
    o->seed = seed;
    o->step_all = 0;
    o->show_progress = isatty(2);
    o->have_fault = 0;
    fault_spec_init(&o->fault);
    o->timeout_us = 0;
}

int cli_run_option(cli_args_t *A, cli_run_opts_t *o, int *bad)
{
    const char *v = NULL;
    const char *arg = A->argv[A->i];
    if (cli_opt_value(A, "--format", &v, bad)) {
        if (!*bad && (o->format = report_format_parse(v)) < 0)
            *bad = cli_usage_error(A->cmd, "--format: expected table, csv or json, got '%s'", v);
    } else if (cli_opt_value(A, "--backend", &v, bad)) {
        if (!*bad && (o->backend = backend_parse(v)) < 0)
            *bad = cli_usage_error(A->cmd, "--backend: expected c, rtl or lockstep, got '%s'", v);
    } else if (cli_opt_value(A, "--wave", &v, bad)) {
        if (!*bad && !too_long(A, "--wave", "a file name", v, CLI_WAVE_MAX, bad))
            o->wave = v;
    } else if (cli_opt_value(A, "--seed", &v, bad)) {
        if (!*bad && cli_parse_int(v, 0, &o->seed))
            *bad = cli_usage_error(A->cmd, "--seed: expected a whole number from 0 to 9223372036854775807, got '%s'", v);
    } else if (cli_opt_value(A, "--fault", &v, bad)) {
        char err[300];
        if (!*bad && fault_parse(v, &o->fault, err, sizeof err))
            *bad = cli_usage_error(A->cmd, "%s", err);
        o->have_fault = !*bad;
    } else if (cli_opt_value(A, "--timeout-us", &v, bad)) {
        if (!*bad && (cli_parse_int(v, 1, &o->timeout_us) || o->timeout_us > 1000000000))
            *bad = cli_usage_error(A->cmd,
                                   "--timeout-us: expected a whole number of microseconds from 1 "
                                   "to 1000000000, got '%s'",
                                   v);
    } else if (strcmp(arg, "--step-all") == 0) {
        o->step_all = 1;
    } else if (strcmp(arg, "--progress") == 0) {
        o->show_progress = 1;
    } else if (strcmp(arg, "--quiet") == 0) {
        o->show_progress = 0;
    } else {
        return 0;
    }
    return 1;
}

/* The topology the paths run on (they point into it). */
static topo_file_t cli_topo;

const char *cli_wire_set(const cli_config_opts_t *o)
{
    for (int i = 0; i < o->n_sets; i++)
        if (strncmp(o->sets[i], "wire.", 5) == 0)
            return o->sets[i];
    return NULL;
}

static int on_topology(config_t *cfg, const cli_config_opts_t *o, char *err, int errlen)
{
    if (!o->topology) {
        snprintf(err, (size_t)errlen, "%s: names a node of a topology: give --topology FILE too",
                 o->from ? "--from" : "--to");
        return -1;
    }
    if (o->link_ns) {
        snprintf(err, (size_t)errlen, "--link-ns: with --topology each link's delay is its "
                                      "one_way_ns in the topology file");
        return -1;
    }
    if (cli_wire_set(o)) {
        snprintf(err, (size_t)errlen, "--set %s: with --topology each link's delay and bandwidth "
                                      "are its one_way_ns and gbytes_per_s in the topology file",
                 cli_wire_set(o));
        return -1;
    }
    char e[400];
    if (topo_load_file(&cli_topo, o->topology, e, sizeof e)) {
        snprintf(err, (size_t)errlen, "--topology: %s", e);
        return -1;
    }
    const topo_t *t = &cli_topo.t;
    int from = 0, to = t->n_nodes - 1;
    const char *name[2] = {o->from, o->to};
    int *idx[2] = {&from, &to};
    for (int k = 0; k < 2; k++) {
        if (!name[k])
            continue;
        *idx[k] = topo_find_node(t, name[k]);
        if (*idx[k] < 0) {
            char known[300] = "";
            for (int n = 0; n < t->n_nodes && strlen(known) + TOPO_NAME_LEN + 8 < sizeof known; n++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", n ? ", " : "",
                         t->node[n].name);
            snprintf(err, (size_t)errlen, "%s: no node '%s' in topology '%s' (nodes: %s)",
                     k ? "--to" : "--from", name[k], cli_topo.name, known);
            return -1;
        }
    }
    if (from == to) {
        snprintf(err, (size_t)errlen, "--from and --to: the initiator and the target must be two "
                                      "nodes, both are '%s'", t->node[from].name);
        return -1;
    }
    static path_cfg_t tmp;
    for (int i = 0; i < cfg->n_paths; i++) {
        if (path_on_topology(&cfg->paths[i], &cli_topo, from, to, &tmp, err, errlen))
            return -1;
        cfg->paths[i] = tmp;
    }
    return 0;
}

int cli_load_config(config_t *cfg, const cli_config_opts_t *o, const char *cmd)
{
    char err[512];
    config_init(cfg);
    int rc = 0;
    if (o->n_configs == 0)
        rc = config_load_defaults(cfg, err, sizeof(err));
    for (int i = 0; i < o->n_configs && rc == 0; i++)
        rc = config_load_file(cfg, o->configs[i], err, sizeof(err));
    for (int i = 0; i < o->n_sets && rc == 0; i++) {
        char origin[64];
        snprintf(origin, sizeof(origin), "--set #%d", i + 1);
        rc = config_set(cfg, o->sets[i], origin, err, sizeof(err));
    }
    if (rc == 0 && o->link_ns) {
        char set[CFG_SET_LEN];
        int n = snprintf(set, sizeof(set), "%s%s", link_key, o->link_ns);
        if (n < 0 || n >= (int)sizeof(set)) {
            snprintf(err, sizeof(err), "--link-ns: expected a value of at most %zu characters, got %zu",
                     CFG_SET_LEN - sizeof link_key, strlen(o->link_ns));
            rc = -1;
        } else {
            rc = config_set(cfg, set, "--link-ns", err, sizeof(err));
        }
    }
    if (rc == 0)
        rc = config_validate(cfg, err, sizeof(err));
    if (rc == 0 && (o->topology || o->from || o->to))
        rc = on_topology(cfg, o, err, sizeof err);
    if (rc) {
        fprintf(stderr, "ubsim %s: %s\n", cmd, err);
        return 2;
    }
    return 0;
}

int cli_wave_creatable(const char *path, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    char dir[CLI_WAVE_LEN];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    struct stat st;
    const char *why = NULL;
    if (stat(dir, &st))
        why = strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = strerror(ENOTDIR);
    else if (access(dir, W_OK | X_OK))
        why = strerror(errno);
    else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        why = strerror(EISDIR);
    if (!why)
        return 0;
    snprintf(err, errlen, "cannot create '%s': %s", path, why);
    return -1;
}

int cli_wave_sibling(const char *wave, const char *suffix, char *buf, size_t len)
{
    const char *dot = strrchr(wave, '.');
    int stem = dot ? (int)(dot - wave) : (int)strlen(wave);
    int n = snprintf(buf, len, "%.*s%s", stem, wave, suffix);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

void cli_path_names(const config_t *cfg, char *buf, int len)
{
    buf[0] = 0;
    for (int j = 0; j < cfg->n_paths; j++) {
        size_t used = strlen(buf), need = strlen(cfg->paths[j].name) + (j ? 2 : 0);
        /* room for the name, the NUL and, if more follow, ", ..." */
        size_t reserve = j + 1 < cfg->n_paths ? 6 : 1;
        if (used + need + reserve > (size_t)len) {
            snprintf(buf + used, (size_t)len - used, "%s...", j ? ", " : "");
            return;
        }
        snprintf(buf + used, (size_t)len - used, "%s%s", j ? ", " : "", cfg->paths[j].name);
    }
}
