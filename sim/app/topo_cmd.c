/* ubsim topology: checks a topology file and shows what it describes. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "topo_cmd.h"
#include "topo_file.h"

static const char *const usage_topology =
    "usage: ubsim topology FILE [options]\n"
    "\n"
    "Reads a topology file (nodes, switches and the links between them; see\n"
    "docs/packets.md and the examples in the config directory's topo/), checks\n"
    "that every link names ports that exist and are used once, that every node\n"
    "is linked and can reach every other, and prints the nodes, the switches,\n"
    "the links and every switch's route to every node (the port on a shortest\n"
    "path; among equals the lowest). An error names file:line and what was\n"
    "expected; the exit status is then 2.\n"
    "\n"
    "options:\n"
    "  --format FMT         table (default) or json\n"
    "  -h, --help           this text\n";

static void end_text(const topo_t *t, topo_end_t e, char *buf, size_t n)
{
    if (e.sw < 0)
        snprintf(buf, n, "%s", t->node[e.node].name);
    else
        snprintf(buf, n, "%s:%d", t->sw[e.sw].name, e.port);
}

static void print_table(const topo_file_t *tf)
{
    const topo_t *t = &tf->t;
    printf("topology %s%s%s (%s)\n\n", tf->name[0] ? tf->name : "(unnamed)",
           tf->description[0] ? ": " : "", tf->description, tf->file);
    printf("nodes (%d):", t->n_nodes);
    for (int i = 0; i < t->n_nodes; i++)
        printf(" %s", t->node[i].name);
    printf("\n\n");
    if (t->n_switches) {
        printf("%-12s %5s %12s %10s %9s %s\n", "switch", "ports", "buffer B", "fwd cyc", "MHz",
               "mode");
        for (int s = 0; s < t->n_switches; s++) {
            const topo_switch_t *w = &t->sw[s];
            printf("%-12s %5d %12lld %10d %9lld %s\n", w->name, w->n_ports,
                   (long long)w->buffer_bytes, w->fwd_cycles, (long long)w->clock_mhz,
                   w->cut_through ? "cut-through" : "store-and-forward");
        }
        printf("\n");
    }
    printf("%-16s %-16s %10s %10s\n", "link end a", "link end b", "GB/s", "one-way ns");
    for (int l = 0; l < t->n_links; l++) {
        char a[64], b[64];
        end_text(t, t->link[l].a, a, sizeof a);
        end_text(t, t->link[l].b, b, sizeof b);
        printf("%-16s %-16s %10g %10g\n", a, b, t->link[l].gbytes_per_s, t->link[l].one_way_ns);
    }
    for (int s = 0; s < t->n_switches; s++) {
        printf("\nroutes of %s (destination -> port):", t->sw[s].name);
        for (int d = 0; d < t->n_nodes; d++)
            printf(" %s->%d", t->node[d].name, t->sw[s].route[d]);
        printf("\n");
    }
}

static int print_json(const topo_file_t *tf)
{
    const topo_t *t = &tf->t;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", tf->name);
    cJSON_AddStringToObject(root, "description", tf->description);
    cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
    for (int i = 0; i < t->n_nodes; i++)
        cJSON_AddItemToArray(nodes, cJSON_CreateString(t->node[i].name));
    cJSON *sws = cJSON_AddArrayToObject(root, "switches");
    for (int s = 0; s < t->n_switches; s++) {
        const topo_switch_t *w = &t->sw[s];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", w->name);
        cJSON_AddNumberToObject(o, "ports", w->n_ports);
        cJSON_AddNumberToObject(o, "buffer_bytes", (double)w->buffer_bytes);
        cJSON_AddNumberToObject(o, "fwd_cycles", w->fwd_cycles);
        cJSON_AddNumberToObject(o, "clock_mhz", (double)w->clock_mhz);
        cJSON_AddStringToObject(o, "mode", w->cut_through ? "cut_through" : "store_and_forward");
        cJSON_AddNumberToObject(o, "header_bytes", (double)w->header_bytes);
        cJSON *r = cJSON_AddObjectToObject(o, "routes");
        for (int d = 0; d < t->n_nodes; d++)
            cJSON_AddNumberToObject(r, t->node[d].name, w->route[d]);
        cJSON_AddItemToArray(sws, o);
    }
    cJSON *links = cJSON_AddArrayToObject(root, "links");
    for (int l = 0; l < t->n_links; l++) {
        char a[64], b[64];
        end_text(t, t->link[l].a, a, sizeof a);
        end_text(t, t->link[l].b, b, sizeof b);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "a", a);
        cJSON_AddStringToObject(o, "b", b);
        cJSON_AddNumberToObject(o, "gbytes_per_s", t->link[l].gbytes_per_s);
        cJSON_AddNumberToObject(o, "one_way_ns", t->link[l].one_way_ns);
        cJSON_AddItemToArray(links, o);
    }
    return report_json_print(stdout, root);
}

int cmd_topology(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "topology"};
    const char *file = NULL;
    int format = FMT_TABLE;
    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_topology, stdout);
            return 0;
        } else if (cli_opt_value(&A, "--format", &v, &bad)) {
            if (!bad) {
                format = report_format_parse(v);
                if (format != FMT_TABLE && format != FMT_JSON)
                    bad = cli_usage_error(A.cmd, "--format: expected table or json, got '%s'", v);
            }
        } else if (arg[0] == '-') {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        } else if (file) {
            bad = cli_usage_error(A.cmd, "one topology file, not '%s' and '%s'", file, arg);
        } else {
            file = arg;
        }
        if (bad)
            return bad;
    }
    if (!file)
        return cli_usage_error(A.cmd, "expected a topology FILE");
    topo_file_t *tf = malloc(sizeof(*tf));
    if (!tf) {
        fprintf(stderr, "ubsim topology: out of memory\n");
        return 1;
    }
    char err[512];
    if (topo_load_file(tf, file, err, sizeof err)) {
        fprintf(stderr, "ubsim topology: %s\n", err);
        free(tf);
        return 2;
    }
    int rc = 0;
    if (format == FMT_JSON)
        rc = print_json(tf) ? 1 : 0;
    else
        print_table(tf);
    free(tf); /* (main checks that the report reached standard output) */
    return rc;
}
