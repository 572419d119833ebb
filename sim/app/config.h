/* Scenario configuration: INI files (parsed with libinih) describing read
 * paths stage by stage, plus command-line overrides.
 *
 * One file describes one path:
 *
 *   [path]            name = ub_async      title = ...
 *   [clock]           nic_mhz = 322
 *   [wire]            one_way_ns = 100     gbytes_per_s = 50
 *   [nic]             tx_stages = name:cycles ...   rx_stages = ...
 *                     tx_block = ub_send_pipeline | rc_send_pipeline (optional:
 *                       the transmit pipeline ends in that block)
 *                     mtu_bytes = 4096 (a power of two, 256..65536: a request
 *                       becomes packets of at most that much payload)
 *   [stage.NAME]      one section per stage, in critical-path order:
 *                     label, category and exactly one of
 *                       delay_ns = N               a fixed delay
 *                       nic = initiator|target . tx|rx   a NIC pipeline traversal
 *                       wire = forward|back, bytes = N   a wire crossing
 *                       (payload_bytes = M: M of the N bytes are payload)
 *
 * A later file naming the same path overrides keys and may add stages.
 * Errors carry file:line and say what was expected. */
#ifndef UB_CONFIG_H
#define UB_CONFIG_H

#include <stdint.h>

#include "nic_pipe.h"

#define CFG_MAX_PATHS 16
#define CFG_MAX_STAGES 32
#define CFG_NAME_LEN 40
#define CFG_TEXT_LEN 128
#define CFG_FILE_LEN 256  /* a config file's name, with its NUL */
#define CFG_SET_LEN 512   /* an assignment config_set takes, with its NUL */

/* STAGE_SWITCH stages come only from a topology (path_on_topology). */
typedef enum { STAGE_NONE = 0, STAGE_DELAY, STAGE_NIC, STAGE_WIRE, STAGE_SWITCH } stage_kind_t;

/* A modelled block (C and RTL) that a NIC pipeline may end in. */
typedef enum { NIC_BLOCK_NONE = 0, NIC_BLOCK_UB_SEND, NIC_BLOCK_RC_SEND } nic_block_t;
const char *nic_block_name(nic_block_t b);
/* The block's idle latency in cycles (its documented design budget). */
int nic_block_latency(nic_block_t b);

typedef enum {
    CAT_NONE = 0,
    CAT_SOFTWARE,
    CAT_PCIE,
    CAT_BUS,
    CAT_NIC,
    CAT_WIRE,
    CAT_MEMORY,
    CAT_COMPLETION,
    CAT_ALIGNMENT,     /* derived rows: waiting for a NIC clock edge */
    CAT_SERIALISATION, /* derived rows: putting the packet on the wire */
    CAT_SWITCH,        /* a switch's forwarding (topologies) */
    CAT_QUEUEING,      /* derived rows: waiting in a switch's output queue */
    CAT_TRANSPORT,     /* derived rows: through a NIC's transport (--transport) */
    CAT_COUNT
} category_t;

enum { NODE_INITIATOR = 0, NODE_TARGET = 1 };
enum { PIPE_TX = 0, PIPE_RX = 1 };
enum { WIRE_FORWARD = 0, WIRE_BACK = 1 };

typedef struct {
    char name[CFG_NAME_LEN];
    char label[CFG_TEXT_LEN];
    category_t category;
    stage_kind_t kind;
    int kinds_given;   /* how many of delay_ns / nic / wire were given */
    char kind_file[CFG_FILE_LEN]; /* where the last of them was given */
    int kind_line;
    int64_t delay_ps;  /* STAGE_DELAY */
    int node, pipe;    /* STAGE_NIC */
    int wire_dir;      /* STAGE_WIRE */
    int64_t bytes;     /* STAGE_WIRE, -1 = not given */
    int64_t payload_bytes; /* STAGE_WIRE: the part of `bytes` that is payload */
    /* on a topology (path_on_topology): a wire stage is one link with its
     * own rate and delay; a switch stage names the switch and its ports */
    int has_link;
    int link;          /* STAGE_WIRE with has_link: the topology's link index */
    int64_t link_one_way_ps;
    double link_gbytes_per_s;
    int sw, sw_in, sw_out; /* STAGE_SWITCH: topology switch, input, output port */
    char file[CFG_FILE_LEN];
    int line;          /* where the section was first seen */
} stage_cfg_t;

/* [context]: the context cache of each node's NIC (docs/context_cache.md).
 * The NIC pipelines that read contexts look them up in their node's cache as
 * a request enters: the initiator's transmit pipeline its Jetty and its
 * channel (UB) or its queue pair (RoCE RC), the target's receive pipeline
 * its channel or its queue pair. The pipeline needs them `need_cycle`
 * cycles after the request entered: a request whose contexts come later
 * leaves the pipeline that much later (and holds those behind it). */
typedef struct {
    int64_t cache_bytes;   /* 0: contexts are not looked up */
    int sets_log2, ways, hit_cycles;
    int need_cycle;        /* the pipeline needs its contexts this many cycles
                              after the request entered it */
    int64_t miss_ps;       /* a record's fetch from host memory */
    int rec[4];            /* record bytes: Jetty, segment, channel, queue pair */
    int backend;           /* the caches' backend_kind_t, or -1: the path's
                              (--backend, as the send pipelines) */
} ctx_cfg_t;

typedef struct {
    char name[CFG_NAME_LEN];
    char title[CFG_TEXT_LEN];
    char file[CFG_FILE_LEN];
    int line;
    ctx_cfg_t ctx;
    int64_t nic_mhz;
    int64_t wire_one_way_ps;
    double wire_gbytes_per_s;
    int have_tx, have_rx;
    nic_pipe_cfg_t tx, rx;
    nic_block_t tx_block;  /* block after the tx stages, or NIC_BLOCK_NONE */
    int64_t mtu_bytes;     /* [nic] mtu_bytes: a request becomes packets of at
                              most this many payload bytes (default 4096) */
    int n_stages;
    stage_cfg_t stages[CFG_MAX_STAGES];
    /* on a topology (path_on_topology), or NULL: two nodes back to back */
    const struct topo_file *topo;
    int from_node, to_node;    /* the initiator and the target in it */
} path_cfg_t;

/* A wire stage's one-way delay and rate: its link's on a topology, else the
 * path's [wire] section. */
int64_t stage_one_way_ps(const path_cfg_t *p, const stage_cfg_t *st);
double stage_gbytes_per_s(const path_cfg_t *p, const stage_cfg_t *st);

typedef struct {
    int n_paths;
    path_cfg_t paths[CFG_MAX_PATHS];
} config_t;

void config_init(config_t *c);
/* Loads one INI file, merging by path name. 0, or -1 with "file:line: ..." */
int config_load_file(config_t *c, const char *path, char *err, int errlen);
/* Loads the INI text `text` as if it were file `name` (tests, built-ins). */
int config_load_string(config_t *c, const char *name, const char *text, char *err, int errlen);
/* Applies "section.key=value" to every path that has the section (the path
 * sections clock, wire, nic apply to all paths). `origin` names the source in
 * error messages, e.g. "--set". */
int config_set(config_t *c, const char *assignment, const char *origin, char *err, int errlen);
/* Checks every path is complete and consistent. */
int config_validate(const config_t *c, char *err, int errlen);
path_cfg_t *config_find(config_t *c, const char *name);

/* Numbers, in config files and on the command line alike: blanks around it
 * are ignored, then an optional sign and decimal digits; a real number may add
 * a fraction and an exponent (12, 12.5, .5, 1e3). No hexadecimal, inf or nan.
 * Each returns 0, or -1 if V is not such a number or does not fit. */
int config_parse_real(const char *v, double *out);
int config_parse_whole(const char *v, int64_t *out);

const char *category_name(category_t c);
/* Loads the four built-in paths from the config directory
 * ($UBSIM_CONFIG_DIR, else the source tree's configs/). */
int config_load_defaults(config_t *c, char *err, int errlen);
const char *config_dir(void);

#endif
