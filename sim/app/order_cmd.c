/* ubsim order: the command and its report. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "order.h"
#include "report.h"
#include "ub_pkg.h"

static const char *const usage_order =
    "usage: ubsim order [options]\n"
    "\n"
    "What ordering costs, counted cycle by cycle on the send pipelines (the order\n"
    "tracker of docs/order_tracker.md inside the UB send pipeline; the RoCE\n"
    "baseline's queue pairs in front of the RC send pipeline):\n"
    "  first packet  cycles from a request's acceptance to its first packet, on an\n"
    "                idle UB pipeline, for every mode (ROI, ROT, ROL, UNO), order\n"
    "                tag (NO, RO, SO) and fence;\n"
    "  gated wait    an SO request behind 1 to 4 outstanding predecessors of its\n"
    "                initiator: cycles from the last predecessor's completion\n"
    "                arriving to its packet leaving;\n"
    "  isolation     one initiator's SO request stalled (its predecessor's\n"
    "                completion withheld) while 4 other initiators post 8 unordered\n"
    "                requests: cycles from the first of them accepted to the last\n"
    "                of them sent; on UB, and on the RoCE baseline with the 8 on\n"
    "                the stalled request's queue pair (blocked behind it) and on\n"
    "                queue pairs of their own.\n"
    "\n"
    "options:\n"
    "  --backend B          the blocks as c (default), rtl or lockstep\n"
    "  --format FMT         table (default), csv or json\n"
    CLI_VECTORS_HELP
    "  -h, --help           this text\n";

static const char *mode_name(uint8_t m)
{
    switch (m) {
    case URMA_OI: return "ROI";
    case URMA_OT: return "ROT";
    case URMA_OL: return "ROL";
    case URMA_NO: return "UNO";
    }
    return "?";
}

static const char *order_name(uint8_t o) { return o == 0 ? "NO" : o == 1 ? "RO" : "SO"; }

static void print_table(const order_result_t *r, const char *backend)
{
    printf("ubsim order: backend %s, cycles of the NIC clock\n\n", backend);
    printf("first packet (acceptance to first packet, idle pipeline)\n");
    printf("  %-5s %-6s %-6s %s\n", "mode", "order", "fence", "cycles");
    for (int i = 0; i < r->n_first; i++)
        printf("  %-5s %-6s %-6d %lld\n", mode_name(r->first[i].mode), order_name(r->first[i].order),
               r->first[i].fence, (long long)r->first[i].cycles);
    printf("\ngated wait (SO behind k outstanding predecessors: last completion to its packet)\n");
    printf("  %-13s %s\n", "predecessors", "cycles");
    for (int i = 0; i < r->n_gated; i++)
        printf("  %-13d %lld\n", r->gated[i].predecessors, (long long)r->gated[i].cycles);
    printf("\nisolation (one initiator's SO stalled; 8 unordered requests of 4 others)\n");
    printf("  %-6s %-14s %-11s %-9s %s\n", "stack", "queue pairs", "initiators", "requests",
           "cycles to all sent");
    for (int i = 0; i < r->n_iso; i++) {
        const order_iso_t *x = &r->iso[i];
        if (x->blocked)
            printf("  %-6s %-14s %-11d %-9d blocked (none sent in %d cycles)\n", x->stack, x->qps,
                   x->initiators, x->requests, ORDER_LIMIT);
        else
            printf("  %-6s %-14s %-11d %-9d %lld\n", x->stack, x->qps, x->initiators, x->requests,
                   (long long)x->cycles);
    }
}

static void print_csv(const order_result_t *r)
{
    printf("measure,mode,order,fence,predecessors,stack,queue_pairs,initiators,requests,cycles,blocked\n");
    for (int i = 0; i < r->n_first; i++)
        printf("first_packet,%s,%s,%d,,,,,,%lld,\n", mode_name(r->first[i].mode),
               order_name(r->first[i].order), r->first[i].fence, (long long)r->first[i].cycles);
    for (int i = 0; i < r->n_gated; i++)
        printf("gated_wait,,,,%d,,,,,%lld,\n", r->gated[i].predecessors, (long long)r->gated[i].cycles);
    for (int i = 0; i < r->n_iso; i++) {
        const order_iso_t *x = &r->iso[i];
        char cyc[24] = ""; /* empty when blocked, as null in JSON */
        if (!x->blocked)
            snprintf(cyc, sizeof cyc, "%lld", (long long)x->cycles);
        printf("isolation,,,,,%s,%s,%d,%d,%s,%d\n", x->stack, x->qps, x->initiators, x->requests, cyc,
               x->blocked);
    }
}

static int print_json(const order_result_t *r, const char *backend)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "backend", backend);
    cJSON *fp = cJSON_AddArrayToObject(root, "first_packet");
    for (int i = 0; i < r->n_first; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(fp, o);
        cJSON_AddStringToObject(o, "mode", mode_name(r->first[i].mode));
        cJSON_AddStringToObject(o, "order", order_name(r->first[i].order));
        cJSON_AddNumberToObject(o, "fence", r->first[i].fence);
        cJSON_AddNumberToObject(o, "cycles", (double)r->first[i].cycles);
    }
    cJSON *gw = cJSON_AddArrayToObject(root, "gated_wait");
    for (int i = 0; i < r->n_gated; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(gw, o);
        cJSON_AddNumberToObject(o, "predecessors", r->gated[i].predecessors);
        cJSON_AddNumberToObject(o, "cycles", (double)r->gated[i].cycles);
    }
    cJSON *is = cJSON_AddArrayToObject(root, "isolation");
    for (int i = 0; i < r->n_iso; i++) {
        const order_iso_t *x = &r->iso[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(is, o);
        cJSON_AddStringToObject(o, "stack", x->stack);
        cJSON_AddStringToObject(o, "queue_pairs", x->qps);
        cJSON_AddNumberToObject(o, "initiators", x->initiators);
        cJSON_AddNumberToObject(o, "requests", x->requests);
        if (x->blocked)
            cJSON_AddNullToObject(o, "cycles_to_all_sent");
        else
            cJSON_AddNumberToObject(o, "cycles_to_all_sent", (double)x->cycles);
        cJSON_AddBoolToObject(o, "blocked", x->blocked);
    }
    return report_json_print(stdout, root);
}

int cmd_order(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "order"};
    cli_run_opts_t ro;
    cli_run_defaults(&ro, 0);
    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_order, stdout);
            return 0;
        } else if (cli_opt_value(&A, "--backend", &v, &bad)) {
            if (!bad && (ro.backend = backend_parse(v)) < 0)
                bad = cli_usage_error(A.cmd, "--backend: expected c, rtl or lockstep, got '%s'", v);
        } else if (cli_opt_value(&A, "--format", &v, &bad)) {
            if (!bad && (ro.format = report_format_parse(v)) < 0)
                bad = cli_usage_error(A.cmd, "--format: expected table, csv or json, got '%s'", v);
        } else {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        }
        if (bad)
            return bad;
    }
    static order_result_t r;
    char err[400];
    if (order_run((backend_kind_t)ro.backend, &r, err, sizeof err)) {
        fprintf(stderr, "ubsim order: %s\n", err);
        return 1;
    }
    const char *be = backend_name((backend_kind_t)ro.backend);
    switch ((report_format_t)ro.format) {
    case FMT_TABLE:
        print_table(&r, be);
        return 0;
    case FMT_CSV:
        print_csv(&r);
        return 0;
    case FMT_JSON:
        return print_json(&r, be) ? 1 : 0;
    }
    return 1;
}
