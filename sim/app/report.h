/* Printing latency results as a table, CSV or JSON. */
#ifndef UB_REPORT_H
#define UB_REPORT_H

#include <stdio.h>

#include "config.h"
#include "latency.h"

typedef enum { FMT_TABLE = 0, FMT_CSV, FMT_JSON } report_format_t;

/* "table" / "csv" / "json" -> format, -1 otherwise */
int report_format_parse(const char *s);

/* Prints n results (paths[i] produced res[i]). Returns 0, -1 on failure. */
int report_latency(FILE *f, report_format_t fmt, const path_cfg_t *const *paths,
                   const latency_result_t *res, int n);

#endif
