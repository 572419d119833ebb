/* Command-line helpers shared by the ubsim commands. */
#ifndef UB_CLI_H
#define UB_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "fault.h"
#include "parts.h"

#define CLI_MAX_LIST 32
/* Longest --wave FILE; a buffer of CLI_WAVE_LEN holds it with any sibling's
 * suffix (cli_wave_sibling). */
#define CLI_WAVE_LEN 1024
#define CLI_WAVE_MAX (CLI_WAVE_LEN - 64 - 1)

#define CLI_MAX_SEEN 64
typedef struct {
    int argc;
    char **argv;
    int i;           /* the argument being looked at */
    const char *cmd; /* "latency", "rate": for messages */
    /* (cli_opt_value's) the options with a value met so far */
    const char *seen[CLI_MAX_SEEN];
    int n_seen;
} cli_args_t;

/* Prints "ubsim CMD: <message>" and a pointer to --help; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Matches --name VALUE or --name=VALUE at argv[i]; *val gets the value. A
 * missing value sets *bad to the exit status. Returns 1 on a match. An
 * option given a second time is a usage error (a second value would replace
 * or silently merge with the first), except those that are lists on
 * purpose: --config, --set, --burst and latency's --path (their values add
 * up). */
int cli_opt_value(cli_args_t *A, const char *name, const char **val, int *bad);

/* A whole number >= min, in decimal (config_parse_whole). Returns 0, -1 if
 * not. */
int cli_parse_int(const char *v, long long min, long long *out);

/* Options every simulation command shares: where the paths come from. */
typedef struct {
    const char *configs[CLI_MAX_LIST];
    int n_configs;
    const char *sets[CLI_MAX_LIST];
    int n_sets;
    const char *link_ns; /* --link-ns, or NULL */
    const char *topology; /* --topology FILE, or NULL */
    const char *from, *to; /* --from NODE, --to NODE, or NULL */
} cli_config_opts_t;

/* Handles --config, --set, --link-ns, --topology, --from and --to; returns
 * 1 if argv[i] was one of them (with *bad set on a usage error). */
int cli_config_option(cli_args_t *A, cli_config_opts_t *o, int *bad);
/* The first --set of a [wire] key (which a topology's links replace), or
 * NULL. */
const char *cli_wire_set(const cli_config_opts_t *o);

/* Options every simulation command shares: how it runs and reports. */
typedef struct {
    int format;        /* report_format_t */
    int backend;       /* backend_kind_t */
    const char *wave;  /* --wave FILE, or NULL */
    long long seed;
    int step_all;
    int show_progress; /* default: stderr is a terminal */
    int have_fault;    /* --fault given */
    fault_spec_t fault;
    long long timeout_us; /* --timeout-us, 0: the default */
} cli_run_opts_t;

void cli_run_defaults(cli_run_opts_t *o, long long seed);
/* Handles --format, --backend, --wave, --seed, --step-all, --progress,
 * --quiet, --fault and --timeout-us; returns 1 if argv[i] was one of them
 * (*bad set on a usage error). */
int cli_run_option(cli_args_t *A, cli_run_opts_t *o, int *bad);

/* --engine NAME (latency, rate): native (the default: one kernel), nodes
 * (each node on a kernel of its own, run side by side) or systemc (each
 * node an sc_module, sim/systemc/); returns 1 if argv[i] was it. */
struct sim_engine;
int cli_engine_option(cli_args_t *A, const struct sim_engine **e, const char **name, int *bad);
#define CLI_ENGINE_HELP                                                                      \
    "  --engine E           what runs the simulation: native (default, one kernel),\n"      \
    "                       nodes (each node's parts on a kernel of their own, run\n"      \
    "                       side by side) or systemc (each node an sc_module with\n"        \
    "                       TLM-2.0 sockets, a link module between them;\n"                \
    "                       docs/systemc.md); same figures on every engine\n"

/* --jobs N (latency, rate): how many of the command's simulations run side
 * by side (sim/core/jobs.h); *jobs stays 0 (the processors online) unless
 * given. Returns 1 if argv[i] was it. */
int cli_jobs_option(cli_args_t *A, int *jobs, int *bad);
/* The threads a command runs its simulations on: --jobs (or the
 * processors this process may run on, jobs_default), and 1 where they
 * share something: a waveform, test vectors, or SystemC's one simulation
 * kernel. */
int cli_jobs(int jobs, int shared_wave, const char *engine_name);
#define CLI_JOBS_HELP                                                                        \
    "  --jobs N             run up to N of its simulations side by side, one per\n"          \
    "                       thread (default: the processors this process may run\n"         \
    "                       on; 1 with --wave, --vectors or --engine systemc); the\n"        \
    "                       figures and their order are the same for every N\n"
/* (rate adds that a simulation following a million requests or more runs
 * alone) */
#define CLI_JOBS_RATE_HELP                                                                   \
    "                       (a simulation that follows a million requests or more\n"        \
    "                       runs alone, keeping the memory of one)\n"

/* A simulation's lockstep mismatch report, kept apart while simulations
 * run side by side (a memory stream) and printed on stderr in the order of
 * the command line. cli_report_open returns the stream for the
 * simulation's options (NULL when none can be made: it then reports on
 * stderr at once); cli_report_close prints what it holds if `print`. */
typedef struct {
    FILE *f;
    char *buf;
    size_t len;
} cli_report_t;
FILE *cli_report_open(cli_report_t *r);
void cli_report_close(cli_report_t *r, int print);

/* Whether a waveform file can be created at `path` (its folder exists and
 * may be written) before a run that writes it only later: 0, or -1 with
 * "cannot create 'path': ..." in err. */
int cli_wave_creatable(const char *path, char *err, size_t errlen);

/* FILE.fst -> FILE<suffix>: where a run's second waveform goes. Returns 0, or
 * -1 if it does not fit in len bytes (never with a --wave name, a buffer of
 * CLI_WAVE_LEN and a suffix of up to 64 characters). */
int cli_wave_sibling(const char *wave, const char *suffix, char *buf, size_t len);

/* Loads the configs (the built-in ones when none was given), applies --set
 * and --link-ns and validates; with --topology lays every path over it
 * (path_topo.h) from --from (default: the topology's first node) to --to
 * (default: its last). On failure prints the reason and returns 2. */
int cli_load_config(config_t *cfg, const cli_config_opts_t *o, const char *cmd);

/* The option text of --topology, --from and --to, for the --help of the
 * commands that take them. */
/* The --vectors line of every simulating command's help (main.c takes the
 * option out before the command sees it). */
#define CLI_VECTORS_HELP                                                                     \
    "  --vectors DIR        test vectors of every block instance the run makes, into\n"     \
    "                       DIR/<block>.<k>/ (inputs, resets, the C model's outputs;\n"     \
    "                       docs/vectors.md); needs --backend c or lockstep; DIR\n"   \
    "                       new or empty, in a folder that exists\n"

/* --transport MODE and --rto-ns NS (latency, rate): the NICs' transport
 * in the read paths (parts.h, tp_port). */
typedef struct {
    int mode;               /* CLI_TP_OFF, _ON (selective ack on UB, go-back-N on
                               RoCE), _SACK, _GBN */
    long long rto_ns;       /* 0: the default */
} cli_tp_opts_t;
enum { CLI_TP_OFF = 0, CLI_TP_ON, CLI_TP_SACK, CLI_TP_GBN };
/* Returns 1 if argv[i] was --transport or --rto-ns (*bad set on a usage
 * error). */
int cli_transport_option(cli_args_t *A, cli_tp_opts_t *t, int *bad);
/* The transport options against each other: 0, or a usage error's exit
 * status (printed). */
int cli_transport_check(const cli_args_t *A, const cli_tp_opts_t *t);
/* Path p against the mode: 0, or a usage error's exit status (printed):
 * selective ack on a RoCE path. */
int cli_transport_path_check(const char *cmd, const cli_tp_opts_t *t, const path_cfg_t *p);
/* The transport of path p under t into *cfg: NULL when off or when the
 * path has no send-pipeline block to number its packets, else cfg. */
const tp_cfg_t *cli_transport_cfg(const cli_tp_opts_t *t, const path_cfg_t *p, tp_cfg_t *cfg);
#define CLI_TRANSPORT_HELP                                                                   \
    "  --transport MODE     the NICs run their transport between their pipelines\n"         \
    "                       and the wires: off (default), on (selective ack on UB,\n"        \
    "                       go-back-N on RoCE), sack (UB paths only: RoCE's\n"             \
    "                       acknowledgements carry no bitmap) or gbn. Each node numbers the\n"        \
    "                       packets it sends, keeps them until acknowledged and\n"         \
    "                       resends what is lost; the receiver delivers in order\n"         \
    "                       and acknowledges over the reverse links (through the\n"      \
    "                       switches of a --topology), where acknowledgements\n"         \
    "                       meet the faults too. Adds the rows transport.tx/rx\n"         \
    "                       of each way and a transport line (window 256, SACK\n"        \
    "                       bitmap 256 bits; docs/transport.md)\n"                        \
    "  --rto-ns NS          with --transport: the first retransmission timeout\n"         \
    "                       (default 25600 ns), doubled per retry up to 7 tries\n"

#define CLI_TOPOLOGY_HELP                                                                    \
    "  --topology FILE      run the paths across the nodes, switches and links of\n"         \
    "                       FILE (configs/topo/*.ini; docs/packets.md): each wire\n"         \
    "                       becomes the links and switches of the route, each link\n"       \
    "                       with its own rate and delay (they replace [wire]); a\n"          \
    "                       switch adds rows for its clock edge, its forwarding and\n"       \
    "                       its output queue, and its counts (forwarded, dropped,\n"        \
    "                       peak queue). A switch drops what its buffer cannot hold:\n"      \
    "                       such a read ends in an error after the timeout. Default:\n"    \
    "                       two nodes back to back, as configured\n"                         \
    "  --from NODE          the initiator (default: the topology's first node)\n"            \
    "  --to NODE            the target (default: the topology's last node)\n"

/* "name[, name...]" of the loaded paths, for messages ("..." at the end if
 * they do not all fit). */
void cli_path_names(const config_t *cfg, char *buf, int len);

#endif
