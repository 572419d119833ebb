/* ubsim state: the command and its report. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "state.h"

static const char *const usage_state =
    "usage: ubsim state [options]\n"
    "\n"
    "How many bytes of connection state each scheme needs, and whether it fits\n"
    "in the NIC's context cache. With N local endpoints talking to M remote\n"
    "endpoints:\n"
    "  pairwise   qp*N*M + seg*N               (RoCE RC: a queue-pair context\n"
    "                                           per connection)\n"
    "  ub_shared  (jetty + seg)*N + channel*M  (UB: one transport channel per\n"
    "                                           remote host, shared by Jetties)\n"
    "With any of --l, --p, --e, --r, --t, --k, also the general form with L\n"
    "endpoints, P targets and record sizes e (endpoint), r (relation binding),\n"
    "t (transport state):\n"
    "  private    L*e + L*P*(r + t)\n"
    "  shared     L*e + L*P*r + P*t\n"
    "  groups     L*e + L*P*r + K*P*t          (K isolated groups)\n"
    "For each scheme: its bytes (\">= 2^64\", null in JSON, when 64 bits cannot\n"
    "hold them), whether they fit, and its overflow point: the smallest N (L) at\n"
    "which it no longer fits, M (P) growing with it unless given. These are\n"
    "formulas; 'ubsim cache' simulates the cache.\n"
    "\n"
    "options:\n"
    "  --n N                local endpoints (default 1024)\n"
    "  --m M                remote endpoints (default: N)\n"
    "  --cache-bytes B      the context cache (default 262144)\n"
    "  --jetty-bytes B      a Jetty context (default 20)\n"
    "  --seg-bytes B        a registered segment (default 32)\n"
    "  --channel-bytes B    a transport channel (default 56)\n"
    "  --qp-bytes B         a RoCE RC queue-pair context (default 512)\n"
    "  --l L, --p P         the general form's endpoints and targets (default N\n"
    "                       and M; with --l and no --p, P = L)\n"
    "  --e B, --r B, --t B  its record sizes (default 52, 0, 56: UB's)\n"
    "  --k K                its isolated groups of transport state (default 1)\n"
    "  --format FMT         table (default), csv or json\n"
    "  -h, --help           this text\n";

typedef struct {
    const char *opt;
    uint64_t *field;
    long long min, max;
    int *given;
} num_opt_t;

int cmd_state(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "state"};
    state_cfg_t c;
    state_cfg_default(&c);
    int fmt = FMT_TABLE, l_given = 0, dummy = 0;
    const long long maxn = (long long)STATE_MAX_N, maxb = 1ll << 32;
    num_opt_t opts[] = {
        {"--n", &c.n, 1, maxn, &dummy},
        {"--m", &c.m, 1, maxn, &c.m_given},
        {"--cache-bytes", &c.cache_bytes, 1, 1ll << 40, &dummy},
        {"--jetty-bytes", &c.jetty, 0, maxb, &dummy},
        {"--seg-bytes", &c.seg, 0, maxb, &dummy},
        {"--channel-bytes", &c.channel, 0, maxb, &dummy},
        {"--qp-bytes", &c.qp, 0, maxb, &dummy},
        {"--l", &c.l, 1, maxn, &l_given},
        {"--p", &c.p, 1, maxn, &c.p_given},
        {"--e", &c.e, 0, maxb, &c.general},
        {"--r", &c.r, 0, maxb, &c.general},
        {"--t", &c.t, 0, maxb, &c.general},
        {"--k", &c.k, 1, maxn, &c.general},
    };
    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0, done = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_state, stdout);
            return 0;
        }
        for (size_t j = 0; j < sizeof opts / sizeof opts[0] && !done; j++) {
            if (!cli_opt_value(&A, opts[j].opt, &v, &bad))
                continue;
            done = 1;
            long long x;
            if (!bad && (cli_parse_int(v, opts[j].min, &x) || x > opts[j].max))
                bad = cli_usage_error(A.cmd, "%s: expected a whole number from %lld to %lld, got '%s'",
                                      opts[j].opt, opts[j].min, opts[j].max, v);
            if (!bad) {
                *opts[j].field = (uint64_t)x;
                *opts[j].given = 1;
            }
        }
        if (!done) {
            if (cli_opt_value(&A, "--format", &v, &bad)) {
                if (!bad) {
                    if (strcmp(v, "table") == 0)
                        fmt = FMT_TABLE;
                    else if (strcmp(v, "csv") == 0)
                        fmt = FMT_CSV;
                    else if (strcmp(v, "json") == 0)
                        fmt = FMT_JSON;
                    else
                        bad = cli_usage_error(A.cmd, "--format: expected table, csv or json, got '%s'", v);
                }
            } else {
                bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
            }
        }
        if (bad)
            return bad;
    }
    if (!c.m_given)
        c.m = c.n;
    if (l_given || c.p_given)
        c.general = 1;
    if (!l_given)
        c.l = c.n;
    if (!c.p_given)
        c.p = l_given ? c.l : c.m; /* P grows with L unless given */
    state_scheme_t s[STATE_MAX_SCHEMES];
    int n = state_eval(&c, s);
    if (fmt == FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddNumberToObject(root, "n", (double)c.n);
        cJSON_AddNumberToObject(root, "m", (double)c.m);
        cJSON_AddNumberToObject(root, "cache_bytes", (double)c.cache_bytes);
        if (c.general) {
            cJSON *g = cJSON_AddObjectToObject(root, "general");
            cJSON_AddNumberToObject(g, "l", (double)c.l);
            cJSON_AddNumberToObject(g, "p", (double)c.p);
            cJSON_AddNumberToObject(g, "e", (double)c.e);
            cJSON_AddNumberToObject(g, "r", (double)c.r);
            cJSON_AddNumberToObject(g, "t", (double)c.t);
            cJSON_AddNumberToObject(g, "k", (double)c.k);
        }
        cJSON *arr = cJSON_AddArrayToObject(root, "schemes");
        for (int i = 0; i < n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(arr, o);
            cJSON_AddStringToObject(o, "name", s[i].name);
            cJSON_AddStringToObject(o, "formula", s[i].formula);
            if (s[i].too_big) /* (more than 64 bits) */
                cJSON_AddNullToObject(o, "bytes");
            else
                cJSON_AddNumberToObject(o, "bytes", (double)s[i].bytes);
            cJSON_AddBoolToObject(o, "fits", s[i].fits);
            if (s[i].overflow_at)
                cJSON_AddNumberToObject(o, "overflow_at", (double)s[i].overflow_at);
            else
                cJSON_AddNullToObject(o, "overflow_at");
        }
        return report_json_print(stdout, root) ? 1 : 0;
    }
    if (fmt == FMT_CSV) {
        printf("name,formula,bytes,fits,overflow_at\n");
        for (int i = 0; i < n; i++) {
            char b[24] = ""; /* empty: more than 64 bits */
            if (!s[i].too_big)
                snprintf(b, sizeof b, "%llu", (unsigned long long)s[i].bytes);
            printf("%s,%s,%s,%d,%llu\n", s[i].name, s[i].formula, b, s[i].fits,
                   (unsigned long long)s[i].overflow_at);
        }
        return 0;
    }
    printf("ubsim state: N = %llu local endpoints, M = %llu remote (%s), cache %llu B\n",
           (unsigned long long)c.n, (unsigned long long)c.m, c.m_given ? "fixed" : "M = N",
           (unsigned long long)c.cache_bytes);
    if (c.general)
        printf("general form: L = %llu, P = %llu, e = %llu B, r = %llu B, t = %llu B, K = %llu\n",
               (unsigned long long)c.l, (unsigned long long)c.p, (unsigned long long)c.e,
               (unsigned long long)c.r, (unsigned long long)c.t, (unsigned long long)c.k);
    printf("\n%-10s %-28s %16s %5s  %s\n", "scheme", "formula", "bytes", "fits", "overflow at");
    for (int i = 0; i < n; i++) {
        char at[48];
        const char *var = i >= 2 ? "L" : "N";
        if (s[i].overflow_at)
            snprintf(at, sizeof at, "%s = %llu", var, (unsigned long long)s[i].overflow_at);
        else
            snprintf(at, sizeof at, "fits up to %s = %llu", var, (unsigned long long)STATE_MAX_N);
        char b[24] = ">= 2^64";
        if (!s[i].too_big)
            snprintf(b, sizeof b, "%llu", (unsigned long long)s[i].bytes);
        printf("%-10s %-28s %16s %5s  %s\n", s[i].name, s[i].formula, b, s[i].fits ? "yes" : "no", at);
    }
    return 0;
}
