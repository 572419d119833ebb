/* Printing latency results as a table, CSV or JSON. */
#ifndef UB_REPORT_H
#define UB_REPORT_H

#include <stdio.h>

#include "config.h"
#include "latency.h"

typedef enum { FMT_TABLE = 0, FMT_CSV, FMT_JSON } report_format_t;

/* "table" / "csv" / "json" -> format, -1 otherwise */
int report_format_parse(const char *s);

/* With faults (x->on): the reads that ended in an error, what the wires
 * did and what the receivers made of it, as indented text lines, as JSON
 * members of `o` ("reads", "faults", "rx_checks"), or as CSV rows of the
 * latency table (category "count", the count in the sim_ns column). */
void report_faults_text(FILE *f, const lat_faults_t *x, const char *indent);
struct cJSON;
void report_faults_json(struct cJSON *o, const lat_faults_t *x);
void report_faults_csv(FILE *f, const char *path, const lat_faults_t *x);
/* What the context caches did - only when a lookup missed (with every
 * context in the cache there is nothing to say, and nothing is printed). */
void report_ctx_text(FILE *f, const lat_ctx_t *c, const char *indent);
void report_ctx_json(struct cJSON *o, const lat_ctx_t *c);
/* The transport's counts (--transport), when it ran. */
void report_tp_text(FILE *f, int on, int gbn, const path_tp_counts_t *t, const char *indent);
void report_tp_json(struct cJSON *o, int on, int gbn, const path_tp_counts_t *t);
void report_tp_csv(FILE *f, const char *path, int on, int gbn, const path_tp_counts_t *t);
void report_ctx_csv(FILE *f, const char *path, const lat_ctx_t *c);
/* What the switches of a path on a topology did (nothing when n is 0). */
void report_switches_text(FILE *f, const lat_switch_t *sw, int n, const char *indent);
void report_switches_json(struct cJSON *o, const lat_switch_t *sw, int n);
/* "topology NAME, A to B", or the path's own wire's delay and rate. */
void report_where_text(FILE *f, const path_cfg_t *p);

/* Prints `root` as indented JSON and a newline to f, and frees it.
 * Returns 0, -1 when the text could not be made. */
int report_json_print(FILE *f, struct cJSON *root);

/* Prints n results (paths[i] produced res[i]). Returns 0, -1 on failure. */
int report_latency(FILE *f, report_format_t fmt, const path_cfg_t *const *paths,
                   const latency_result_t *res, int n);

#endif
