/* ubsim cache: the command and its report. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_bench.h"
#include "cli.h"
#include "context_cache.h"
#include "wave.h"
#include "latency.h"
#include "report.h"
#include "state.h"
#include "text.h"

static const char *const usage_cache =
    "usage: ubsim cache [options]\n"
    "\n"
    "The context cache's cliff, simulated. Two nodes with N = M endpoints each\n"
    "read from each other, every pair alike (or Zipf-skewed); each NIC looks\n"
    "the contexts of a read up in its context cache (docs/context_cache.md):\n"
    "  ub        Jetty (20 B) and transport channel (56 B) at the initiator,\n"
    "            segment (32 B) and channel at the target: one channel per\n"
    "            remote host, shared by the Jetties;\n"
    "  pcie_nic  the connection's queue pair (512 B) at both ends and the\n"
    "            segment at the target: a queue pair per pair of endpoints.\n"
    "A miss fetches the record from host memory: a PCIe DMA read for the PCIe\n"
    "NIC, the on-chip bus and local memory for UB. For each N: the state the\n"
    "formulas give (ubsim state), the measured hit rate, and the mean, p50\n"
    "and p99 read latency: the path's latency with every context a hit\n"
    "(measured by the latency simulation of ub_async and pcie_nic) plus the\n"
    "cycles both NICs waited for their contexts.\n"
    "\n"
    "options:\n"
    "  --stack S            ub, pcie_nic or both (default)\n"
    "  --n LIST             the N = M to run, comma-separated (default: 1 to\n"
    "                       4096, --steps-per-octave per doubling)\n"
    "  --steps-per-octave K points per doubling of N (default 2)\n"
    "  --reads R            reads measured per point (default 4000), after a\n"
    "                       warm-up of eight reads per record a NIC holds (at\n"
    "                       least R, at most 50 R)\n"
    "  --zipf S             endpoints drawn Zipf(S) instead of uniformly\n"
    "  --cache-bytes B      each NIC's context cache (default 262144)\n"
    "  --sets-log2 K        2^K sets, K 0..6 (default 6)\n"
    "  --ways W             records per set at most, 1..128 (default 128)\n"
    "  --replacement R      lru (default: a pseudo-LRU tree per set) or random (a random\n"
    "                       walk down that tree)\n"
    "  --seed N             the random replacement's and the stream's seed (1)\n"
    "  --hit-cycles C       a hit's latency in NIC cycles, 4..15 (default 4)\n"
    "  --miss-ns-ub NS      UB's fetch: the on-chip bus and a local memory\n"
    "                       read (default 100 = 30 + 70)\n"
    "  --miss-ns-pcie NS    the PCIe NIC's fetch: a PCIe DMA read (default 500)\n"
    "  --backend B          the caches as c (default), rtl or lockstep (the RTL\n"
    "                       steps every cycle: slow past the cliff)\n"
    "  --format FMT         table (default), csv or json\n"
    "  --wave FILE.fst      the first NIC's cache RTL traced into FILE.fst (its\n"
    "                       ports and registers, at the NIC clock; open with\n"
    "                       waves/context_cache.gtkw): one run (--stack ub or\n"
    "                       pcie_nic, one --n value), --backend rtl or lockstep\n"
    "  --progress, --quiet  progress on stderr (default: when it is a terminal)\n"
    CLI_VECTORS_HELP
    "  -h, --help           this text\n";

static int parse_double(const char *cmd, const char *opt, const char *v, double lo, double hi, double *out)
{
    double d;
    if (text_parse_real(v, &d) || !(d >= lo) || d > hi)
        return cli_usage_error(cmd, "%s: expected a number from %g to %g, got '%s'", opt, lo, hi, v);
    *out = d;
    return 0;
}

static int base_latency(const char *name, double *ns, char *err, int errlen)
{
    static config_t cfg;
    static int loaded;
    cli_config_opts_t co = {0};
    if (!loaded) {
        if (cli_load_config(&cfg, &co, "cache"))
            return 2;
        loaded = 1;
    }
    const path_cfg_t *p = config_find(&cfg, name);
    if (!p) {
        snprintf(err, (size_t)errlen, "no built-in path '%s'", name);
        return 1;
    }
    latency_opts_t one = {.ops = 1, .slots = 1, .backend = BACKEND_C};
    latency_result_t r;
    if (latency_run(p, &one, &r, err, errlen))
        return 1;
    *ns = lat_sim_total_ns(&r);
    latency_result_free(&r);
    return 0;
}

typedef struct {
    cb_stack_t stack;
    uint64_t n;
    uint64_t state_bytes;
    cb_result_t r;
} point_t;

int cmd_cache(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "cache"};
    cli_run_opts_t ro;
    cli_run_defaults(&ro, 1);
    cb_cfg_t base;
    memset(&base, 0, sizeof base);
    base.capacity = 262144;
    base.sets_log2 = 6;
    base.ways = 128;
    base.hit_cycles = CC_MIN_HIT;
    base.rec[0] = 20;
    base.rec[1] = 32;
    base.rec[2] = 56;
    base.rec[3] = 512;
    base.reads = 4000;
    double miss_ub = 100, miss_pcie = 500, spo = 2;
    int stacks = 3;
    uint64_t ns_list[128]; /* 12 doublings of up to 8 steps, or a list of 64 */
    int n_list = 0;
    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0;
        long long x = 0;
        double d = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_cache, stdout);
            return 0;
        } else if (cli_opt_value(&A, "--stack", &v, &bad)) {
            if (!bad) {
                if (strcmp(v, "ub") == 0)
                    stacks = 1;
                else if (strcmp(v, "pcie_nic") == 0)
                    stacks = 2;
                else if (strcmp(v, "both") == 0)
                    stacks = 3;
                else
                    bad = cli_usage_error(A.cmd, "--stack: expected ub, pcie_nic or both, got '%s'", v);
            }
        } else if (cli_opt_value(&A, "--n", &v, &bad)) {
            char buf[512], *item[64];
            int n = bad ? 0 : text_list_split(v, buf, sizeof buf, item, 64);
            if (!bad && n < 0)
                bad = cli_usage_error(A.cmd, "--n: expected up to 64 values from 1 to 4096, "
                                      "comma-separated, got '%s': %s", v, text_list_error(n));
            n_list = 0;
            for (int i = 0; i < n && !bad; i++) {
                int64_t u;
                if (text_parse_whole(item[i], &u) || u < 1 || u > 4096)
                    bad = cli_usage_error(A.cmd, "--n: expected up to 64 values from 1 to 4096, comma-separated, got '%s'", v);
                else
                    ns_list[n_list++] = (uint64_t)u;
            }
        } else if (cli_opt_value(&A, "--steps-per-octave", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 8))
                bad = cli_usage_error(A.cmd, "--steps-per-octave: expected 1 to 8, got '%s'", v);
            spo = (double)x;
        } else if (cli_opt_value(&A, "--reads", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 10000000))
                bad = cli_usage_error(A.cmd, "--reads: expected 1 to 10000000, got '%s'", v);
            base.reads = (uint64_t)x;
        } else if (cli_opt_value(&A, "--zipf", &v, &bad)) {
            if (!bad && !(bad = parse_double(A.cmd, "--zipf", v, 0, 10, &d)))
                base.zipf = d;
        } else if (cli_opt_value(&A, "--cache-bytes", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 0xFFFFFFFFll))
                bad = cli_usage_error(A.cmd, "--cache-bytes: expected 1 to 4294967295, got '%s'", v);
            base.capacity = (uint32_t)x;
        } else if (cli_opt_value(&A, "--sets-log2", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 0, &x) || x > 6))
                bad = cli_usage_error(A.cmd, "--sets-log2: expected 0 to 6, got '%s'", v);
            base.sets_log2 = (unsigned)x;
        } else if (cli_opt_value(&A, "--ways", &v, &bad)) {
            if (!bad && (cli_parse_int(v, 1, &x) || x > 128))
                bad = cli_usage_error(A.cmd, "--ways: expected 1 to 128, got '%s'", v);
            base.ways = (unsigned)x;
        } else if (cli_opt_value(&A, "--replacement", &v, &bad)) {
            if (!bad && strcmp(v, "lru") && strcmp(v, "random"))
                bad = cli_usage_error(A.cmd, "--replacement: expected lru or random, got '%s'", v);
            base.random = !bad && strcmp(v, "random") == 0;
        } else if (cli_opt_value(&A, "--hit-cycles", &v, &bad)) {
            if (!bad && (cli_parse_int(v, CC_MIN_HIT, &x) || x > 15))
                bad = cli_usage_error(A.cmd, "--hit-cycles: expected %d to 15 (a lookup's pipeline "
                                      "and data read take %d cycles), got '%s'", CC_MIN_HIT,
                                      CC_MIN_HIT, v);
            base.hit_cycles = (unsigned)x;
        } else if (cli_opt_value(&A, "--miss-ns-ub", &v, &bad)) {
            if (!bad)
                bad = parse_double(A.cmd, "--miss-ns-ub", v, 0, 1e6, &miss_ub);
        } else if (cli_opt_value(&A, "--miss-ns-pcie", &v, &bad)) {
            if (!bad)
                bad = parse_double(A.cmd, "--miss-ns-pcie", v, 0, 1e6, &miss_pcie);
        } else if (strncmp(arg, "--fault", 7) == 0 || strcmp(arg, "--step-all") == 0 ||
                   strncmp(arg, "--timeout-us", 12) == 0) {
            bad = cli_usage_error(A.cmd, "%s: not available for cache", arg);
        } else if (cli_run_option(&A, &ro, &bad)) {
        } else {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        }
        if (bad)
            return bad;
    }
    if (!n_list) {
        /* 1 to 4096: spo points per doubling, rounded, each once */
        for (int k = 0; k <= (int)(12 * spo); k++) {
            uint64_t n = (uint64_t)llround(pow(2.0, (double)k / spo));
            if (!n_list || ns_list[n_list - 1] != n)
                ns_list[n_list++] = n;
        }
    }
    const char *wave = ro.wave; /* (its length checked by cli_run_option) */
    if (wave) {
        size_t len = strlen(wave);
        if (len < 5 || strcmp(wave + len - 4, ".fst") != 0) {
            fprintf(stderr, "ubsim cache: --wave: expected a file name ending in .fst, got '%s'\n", wave);
            return 2;
        }
        if (ro.backend == BACKEND_C) {
            fprintf(stderr, "ubsim cache: --wave: the RTL cache traces itself: give --backend rtl or "
                            "lockstep\n");
            return 2;
        }
        if (stacks == 3 || n_list != 1) {
            fprintf(stderr, "ubsim cache: --wave: one run: give --stack ub or pcie_nic and one --n value\n");
            return 2;
        }
        char werr[600];
        if (cli_wave_creatable(wave, werr, sizeof werr)) {
            fprintf(stderr, "ubsim cache: --wave: %s\n", werr);
            return 2;
        }
    }
    base.wave = wave;
    base.seed = (uint16_t)ro.seed;
    base.backend = (backend_kind_t)ro.backend;
    base.stream_seed = (uint64_t)ro.seed;
    char err[600];
    double lat[2];
    const char *path_of[2] = {"ub_async", "pcie_nic"};
    for (int s = 0; s < 2; s++) {
        if (!(stacks >> s & 1))
            continue;
        int rc = base_latency(path_of[s], &lat[s], err, sizeof err);
        if (rc) {
            if (rc == 1)
                fprintf(stderr, "ubsim cache: %s\n", err);
            return rc;
        }
    }
    static point_t pts[256];
    int np = 0, total = n_list * ((stacks & 1) + (stacks >> 1 & 1)), done = 0;
    for (int s = 0; s < 2; s++) {
        if (!(stacks >> s & 1))
            continue;
        for (int k = 0; k < n_list; k++) {
            cb_cfg_t c = base;
            c.stack = (cb_stack_t)s;
            c.n = c.m = ns_list[k];
            c.miss_ns = s == CB_UB ? miss_ub : miss_pcie;
            c.base_ns = lat[s];
            c.clock_mhz = 322;
            point_t *p = &pts[np++];
            p->stack = c.stack;
            p->n = c.n;
            state_cfg_t sc;
            state_cfg_default(&sc);
            sc.n = sc.m = c.n;
            sc.jetty = c.rec[0];
            sc.seg = c.rec[1];
            sc.channel = c.rec[2];
            sc.qp = c.rec[3];
            state_scheme_t ss[STATE_MAX_SCHEMES];
            state_eval(&sc, ss);
            p->state_bytes = s == CB_UB ? ss[1].bytes : ss[0].bytes;
            if (cb_run(&c, &p->r, err, sizeof err)) {
                fprintf(stderr, "ubsim cache: %s\n", err);
                return 1;
            }
            /* the RTL's FST is finished (cb_run freed its blocks); the FST
             * writer does not check its writes: see that it is whole */
            if (wave && wave_fst_verify(wave, err, sizeof err)) {
                fprintf(stderr, "ubsim cache: --wave: could not finish writing the RTL's waveform: %s\n", err);
                return 1;
            }
            done++;
            if (ro.show_progress)
                fprintf(stderr, "\rubsim cache: %d / %d points%s", done, total, done == total ? "\n" : "");
        }
    }
    const char *stack_name[2] = {"ub", "pcie_nic"};
    report_format_t fmt = (report_format_t)ro.format;
    if (fmt == FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON *cfg = cJSON_AddObjectToObject(root, "config");
        cJSON_AddNumberToObject(cfg, "cache_bytes", base.capacity);
        cJSON_AddNumberToObject(cfg, "sets", 1 << base.sets_log2);
        cJSON_AddNumberToObject(cfg, "ways", base.ways);
        cJSON_AddStringToObject(cfg, "replacement", base.random ? "random" : "lru");
        cJSON_AddNumberToObject(cfg, "reads", (double)base.reads);
        cJSON_AddNumberToObject(cfg, "zipf", base.zipf);
        cJSON_AddNumberToObject(cfg, "miss_ns_ub", miss_ub);
        cJSON_AddNumberToObject(cfg, "miss_ns_pcie", miss_pcie);
        cJSON_AddStringToObject(cfg, "backend", backend_name(base.backend));
        cJSON *arr = cJSON_AddArrayToObject(root, "points");
        for (int i = 0; i < np; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(arr, o);
            cJSON_AddStringToObject(o, "stack", stack_name[pts[i].stack]);
            cJSON_AddNumberToObject(o, "n", (double)pts[i].n);
            cJSON_AddNumberToObject(o, "state_bytes", (double)pts[i].state_bytes);
            cJSON_AddNumberToObject(o, "hit_rate", pts[i].r.hit_rate);
            cJSON_AddNumberToObject(o, "mean_ns", pts[i].r.mean_ns);
            cJSON_AddNumberToObject(o, "p50_ns", pts[i].r.p50_ns);
            cJSON_AddNumberToObject(o, "p99_ns", pts[i].r.p99_ns);
            cJSON_AddNumberToObject(o, "lookups", (double)pts[i].r.lookups);
            cJSON_AddNumberToObject(o, "misses", (double)pts[i].r.misses);
        }
        return report_json_print(stdout, root) ? 1 : 0;
    }
    if (fmt == FMT_CSV) {
        printf("stack,n,state_bytes,hit_rate,mean_ns,p50_ns,p99_ns,lookups,misses\n");
        for (int i = 0; i < np; i++)
            printf("%s,%llu,%llu,%.6f,%.3f,%.3f,%.3f,%llu,%llu\n", stack_name[pts[i].stack],
                   (unsigned long long)pts[i].n, (unsigned long long)pts[i].state_bytes, pts[i].r.hit_rate,
                   pts[i].r.mean_ns, pts[i].r.p50_ns, pts[i].r.p99_ns,
                   (unsigned long long)pts[i].r.lookups, (unsigned long long)pts[i].r.misses);
        return 0;
    }
    printf("ubsim cache: N = M endpoints per node, reads both ways %s, a %u B context cache per NIC "
           "(%u sets of at most %u records, %s), %llu read%s per point\n",
           base.zipf > 0 ? "Zipf-skewed" : "spread evenly", base.capacity, 1u << base.sets_log2, base.ways,
           base.random ? "random" : "pseudo-LRU", (unsigned long long)base.reads, base.reads == 1 ? "" : "s");
    for (int s = 0; s < 2; s++) {
        if (!(stacks >> s & 1))
            continue;
        state_cfg_t sc;
        state_cfg_default(&sc);
        sc.cache_bytes = base.capacity;
        state_scheme_t ss[STATE_MAX_SCHEMES];
        state_eval(&sc, ss);
        printf("\n%s: all-hit read %.1f ns (%s), a miss fetches in %.0f ns; the state formula "
               "overflows at N = %llu\n",
               stack_name[s], lat[s], path_of[s], s == CB_UB ? miss_ub : miss_pcie,
               (unsigned long long)(s == CB_UB ? ss[1].overflow_at : ss[0].overflow_at));
        printf("%8s %14s %9s %10s %10s %10s\n", "N", "state B", "hit rate", "mean ns", "p50 ns", "p99 ns");
        for (int i = 0; i < np; i++)
            if ((int)pts[i].stack == s)
                printf("%8llu %14llu %8.1f%% %10.1f %10.1f %10.1f\n", (unsigned long long)pts[i].n,
                       (unsigned long long)pts[i].state_bytes, 100.0 * pts[i].r.hit_rate, pts[i].r.mean_ns,
                       pts[i].r.p50_ns, pts[i].r.p99_ns);
    }
    return 0;
}
