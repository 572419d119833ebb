/* ubsim: the command-line front end of the two-node UB / PCIe-NIC model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jobs.h"
#include "incast.h"
#include "loss.h"
#include "state.h"
#include "cache_bench.h"
#include "order.h"
#include "config.h"
#include "latency.h"
#include "rate.h"
#include "report.h"
#include "topo_cmd.h"
#include "vectors.h"
#include "wave.h"
#include "diff_cmd.h"

static const char *const usage_top =
    "ubsim - cycle-level model of a Unified Bus (UB) / URMA endpoint and a PCIe-NIC baseline\n"
    "\n"
    "usage: ubsim <command> [options]\n"
    "\n"
    "commands:\n"
    "  latency   latency of one 64 B remote read on each path, stage by stage,\n"
    "            measured in a two-node cycle simulation\n"
    "  rate      request issue rate of bursts of reads through the UB and the\n"
    "            RoCE RC send pipelines, with a conservation check, and the\n"
    "            throughput limit of a finite number of request slots\n"
    "  order     what ordering costs: first packet per mode, order and fence,\n"
    "            the wait behind predecessors, isolation of a stalled initiator\n"
    "            (UB against the RoCE baseline's queue pairs)\n"
    "  incast    N initiators write to (or read from) one target through a\n"
    "            switch: per-sender goodput and errors, the switch's drops and\n"
    "            peak queue\n"
    "  loss      goodput and message time against packet loss: selective\n"
    "            acknowledgement against go-back-N, over a lossy link\n"
    "  state     bytes of connection state per scheme (RoCE queue pairs\n"
    "            against UB's shared channels) and where each overflows the\n"
    "            context cache\n"
    "  cache     the context cache's cliff, simulated: hit rate and read\n"
    "            latency against the number of endpoints, UB against RoCE\n"
    "  topology  check a topology file (nodes, switches, links) and show its\n"
    "            routes\n"
    "  diff      compare two waveform files (FST or VCD: the C model's port\n"
    "            dump, the RTL's trace, a replay in another simulator) port by\n"
    "            port and cycle by cycle\n"
    "  help      this text; 'ubsim help <command>' or 'ubsim <command> --help'\n"
    "            describes a command\n"
    "  version   the version of this build (also --version)\n"
    "\n"
    "option of every simulating command:\n"
    "  --vectors DIR  write test vectors of every block instance the command\n"
    "                 runs into DIR/<block>.<k>/ (in.hex: inputs and resets per\n"
    "                 clock edge; exp.hex: the C model's outputs; manifest.json),\n"
    "                 for replay in any Verilog simulator with the testbench\n"
    "                 build/replay/<block>_replay.sv (make replay-tb;\n"
    "                 docs/vectors.md). Needs --backend c or lockstep; DIR\n"
    "                 must be new or empty, in a folder that exists\n"
    "\n"
    "Exit status: 0 success, 1 simulation failure or a report or waveform that\n"
    "could not be written (a full disk), 2 bad command line or config.\n";

static const char *const usage_latency =
    "usage: ubsim latency [options]\n"
    "\n"
    "Simulates dependent 64 B remote reads between two nodes and prints, for each\n"
    "path, every stage's configured (calc) and measured (sim) latency. Rows that the\n"
    "configured table does not list - waiting for a NIC clock edge, serialising a\n"
    "packet onto the wire - are measured and shown as their own rows; the measured\n"
    "total is the sum of the measured rows.\n"
    "\n"
    "options:\n"
    "  --config FILE        load the path described by FILE (repeatable). Without\n"
    "                       --config the built-in paths are loaded from the config\n"
    "                       directory: pcie_nic, ub_async, ub_load, pcie_nic_onproc.\n"
    "                       A later file naming the same path overrides its keys.\n"
    "  --path NAME          run only path NAME (repeatable; default: every path)\n"
    "  --set SEC.KEY=VALUE  override one key in every path that has section SEC,\n"
    "                       e.g. --set wire.one_way_ns=200 or\n"
    "                       --set stage.verbs_submit.delay_ns=60 (repeatable)\n"
    "  --link-ns L          one-way wire delay in ns (= --set wire.one_way_ns=L)\n"
    CLI_TOPOLOGY_HELP
    "  --ops N              N dependent reads back to back; shows mean, p50, p99\n"
    "                       (default 1)\n"
    "  --format FMT         table (default), csv or json\n"
    "  --wave FILE          dump the NIC pipelines and per-stage events to FILE\n"
    "                       (.fst or .vcd); open with waves/read_latency.gtkw.\n"
    "                       With --backend rtl or lockstep the initiator's send\n"
    "                       pipeline RTL also traces itself to FILE's name with\n"
    "                       -<path>-rtl.fst (waves/ub_send_pipeline.gtkw or\n"
    "                       waves/rc_send_pipeline.gtkw opens it); with\n"
    "                       c or lockstep its C model's ports go to\n"
    "                       -<path>-c.fst, laid out alike (a clk_i at every\n"
    "                       edge): 'ubsim diff X-c.fst Y-rtl.fst' compares them\n"
    "  --backend B          the modelled blocks (send pipelines) run as c (the C\n"
    "                       model, default), rtl (the Verilated RTL) or lockstep\n"
    "                       (both, every output port compared every cycle; the\n"
    "                       first difference stops the run with a report)\n"
    "  --step-all           step every NIC clock cycle instead of skipping idle\n"
    "                       ones (identical results, slower)\n"
    "  --fault SPEC         faults on the wires, e.g. loss=1e-3,dup=1e-4,\n"
    "                       reorder=1e-3,corrupt=1e-4,drop=fwd:5,seed=7 (keys: loss,\n"
    "                       dup, reorder, corrupt, reorder_ns, corrupt_bits,\n"
    "                       drop=fwd|back:K, seed; fwd./back. before a probability\n"
    "                       sets one direction; docs/packets.md). On a --topology\n"
    "                       each link and direction draws its faults on its own,\n"
    "                       and a drop names its link: drop=LINK.fwd|back:K. The\n"
    "                       receivers' checks refuse what arrives wrong; a read\n"
    "                       with no completion within the timeout ends in an\n"
    "                       error. Prints the reads that failed, the fault counts\n"
    "                       and the receive checks by reason\n"
    "  --timeout-us T       with --fault, or a switch on a --topology path: a read\n"
    "                       with no completion after T us\n"
    "                       fails (default 1000)\n"
    "  --seed N             random seed (the latency scenario is deterministic;\n"
    "                       accepted for uniformity and printed nowhere)\n"
    "  --progress           progress on stderr (default: when stderr is a terminal)\n"
    "  --quiet              no progress output\n"
    CLI_TRANSPORT_HELP
    CLI_VECTORS_HELP
    CLI_ENGINE_HELP
    CLI_JOBS_HELP
    "  -h, --help           this text\n"
    "\n"
    "The config directory is $UBSIM_CONFIG_DIR, else " UBSIM_CONFIG_DIR ".\n";

static void progress(void *ctx, const char *path, int64_t done, int64_t total)
{
    (void)ctx;
    jobs_lock();
    fprintf(stderr, "\rubsim: %s: %lld / %lld ops", path, (long long)done, (long long)total);
    fflush(stderr);
    jobs_unlock();
}

/* The paths of a command, each simulated by latency_job on a worker thread
 * (with a waveform, one thread: the paths one after the other, each 100 ns
 * after the previous one ends). */
typedef struct {
    latency_sim_t **sims;
    latency_opts_t *o;
    const latency_result_t *res;
    const path_cfg_t *const *sel;
    long long ops;
    int progress;
    uint64_t wave_at_ps; /* where the next path starts in the waveform */
} latency_jobs_t;

static int latency_job(void *ctx, int i)
{
    latency_jobs_t *J = ctx;
    int wave = J->o[i].wave != NULL; /* (then on one thread, in order) */
    if (wave)
        J->o[i].wave_offset_ps = J->wave_at_ps;
    int rc = latency_simulate(J->sims[i]);
    if (wave)
        J->wave_at_ps += (uint64_t)(J->res[i].end_time / J->sel[i]->nic_mhz) + 100000;
    jobs_lock();
    if (rc == 0 && J->progress && J->ops >= 65536)
        fprintf(stderr, "\rubsim: %s: %lld / %lld ops, done\n", J->sel[i]->name, J->ops, J->ops);
    jobs_unlock();
    return rc != 0;
}

static int cmd_latency(int argc, char **argv)
{
    cli_args_t A = {.argc = argc, .argv = argv, .i = 1, .cmd = "latency"};
    cli_config_opts_t co = {0};
    const char *paths[CLI_MAX_LIST];
    int n_paths = 0;
    long long ops = 1;
    cli_run_opts_t ro;
    cli_run_defaults(&ro, 0);
    const sim_engine_t *engine = NULL;
    const char *engine_name = "native";
    cli_tp_opts_t tpo = {0};
    int jobs = 0;

    for (; A.i < argc; A.i++) {
        const char *v = NULL;
        int bad = 0;
        const char *arg = argv[A.i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_latency, stdout);
            return 0;
        } else if (cli_config_option(&A, &co, &bad) || cli_run_option(&A, &ro, &bad) ||
                   cli_engine_option(&A, &engine, &engine_name, &bad) || cli_jobs_option(&A, &jobs, &bad) ||
                   cli_transport_option(&A, &tpo, &bad)) {
        } else if (cli_opt_value(&A, "--path", &v, &bad)) {
            if (!bad && n_paths == CLI_MAX_LIST)
                bad = cli_usage_error(A.cmd, "--path: at most %d", CLI_MAX_LIST);
            if (!bad)
                paths[n_paths++] = v;
        } else if (cli_opt_value(&A, "--ops", &v, &bad)) {
            if (!bad && cli_parse_int(v, 1, &ops))
                bad = cli_usage_error(A.cmd, "--ops: expected a whole number from 1 to 9223372036854775807, got '%s'", v);
        } else {
            bad = cli_usage_error(A.cmd, "unknown option '%s'", arg);
        }
        if (bad)
            return bad;
    }

    if (engine && co.topology)
        return cli_usage_error(A.cmd, "--engine %s: a path over a --topology runs only on the native "
                                      "engine", engine_name);
    int rc = cli_transport_check(&A, &tpo);
    if (rc)
        return rc;
    static config_t cfg;
    char err[512];
    rc = cli_load_config(&cfg, &co, A.cmd);
    if (rc)
        return rc;

    const path_cfg_t *sel[CFG_MAX_PATHS];
    int n_sel = 0;
    if (n_paths == 0) {
        for (int i = 0; i < cfg.n_paths; i++)
            sel[n_sel++] = &cfg.paths[i];
    } else {
        for (int i = 0; i < n_paths; i++) {
            const path_cfg_t *p = config_find(&cfg, paths[i]);
            if (!p) {
                char known[512];
                cli_path_names(&cfg, known, sizeof(known));
                fprintf(stderr, "ubsim latency: --path: unknown path '%s' (loaded: %s)\n", paths[i],
                        known);
                return 2;
            }
            if (n_sel < CFG_MAX_PATHS)
                sel[n_sel++] = p;
        }
    }
    for (int i = 0; i < n_sel; i++)
        if ((rc = cli_transport_path_check("latency", &tpo, sel[i])) != 0)
            return rc;
    for (int i = 0; i < n_sel && ro.have_fault; i++)
        if (path_net_fault_check(&ro.fault, sel[i], err, sizeof err))
            return fprintf(stderr, "ubsim latency: %s\n", err), 2;

    wave_t *w = NULL;
    if (ro.wave) {
        w = wave_open(ro.wave, err, sizeof(err));
        if (!w) {
            fprintf(stderr, "ubsim latency: --wave: %s\n", err);
            return 2;
        }
    }
    latency_result_t *res = calloc((size_t)n_sel, sizeof(*res));
    if (!res) {
        fprintf(stderr, "ubsim latency: out of memory\n");
        wave_close(w);
        return 1;
    }
    /* every path is created (and declares its waveform signals) before any
     * runs; in the waveform each path starts 100 ns after the previous one
     * ends. */
    latency_opts_t *o = calloc((size_t)n_sel, sizeof(*o));
    static char rtl_waves[CFG_MAX_PATHS][CLI_WAVE_LEN], c_waves[CFG_MAX_PATHS][CLI_WAVE_LEN];
    static tp_cfg_t tpc[CFG_MAX_PATHS];
    static char errs[CFG_MAX_PATHS][512]; /* each simulation's message */
    static cli_report_t reports[CFG_MAX_PATHS]; /* and lockstep mismatch report */
    latency_sim_t **sims = calloc((size_t)n_sel, sizeof(*sims));
    rc = (o && sims) ? 0 : 1;
    if (rc)
        snprintf(err, sizeof(err), "out of memory");
    for (int i = 0; i < n_sel && rc == 0; i++) {
        o[i] = (latency_opts_t){
            .ops = ops,
            .slots = 1,
            .payload = -1,
            .backend = (backend_kind_t)ro.backend,
            .engine = engine,
            .step_every_cycle = ro.step_all,
            .fault = ro.have_fault ? &ro.fault : NULL,
            .timeout_ps = ro.timeout_us * 1000000,
            .transport = cli_transport_cfg(&tpo, sel[i], &tpc[i]),
            .wave = w,
            .progress = ro.show_progress ? progress : NULL,
        };
        o[i].report = cli_report_open(&reports[i]);
        if (tpo.mode != CLI_TP_OFF && !o[i].transport)
            fprintf(stderr, "ubsim latency: --transport: path '%s' has no send pipeline block to "
                            "number its packets: it runs without a transport\n", sel[i]->name);
        if (ro.wave && ro.backend != BACKEND_C && sel[i]->tx_block != NIC_BLOCK_NONE) {
            /* the RTL traces itself too: FILE-<path>-rtl.fst */
            char suffix[CFG_NAME_LEN + 16];
            snprintf(suffix, sizeof(suffix), "-%s-rtl.fst", sel[i]->name);
            if (cli_wave_sibling(ro.wave, suffix, rtl_waves[i], sizeof(rtl_waves[i]))) {
                snprintf(err, sizeof(err), "--wave: no room for the name of its %s sibling", suffix);
                rc = 1;
                break;
            }
            o[i].rtl_wave = rtl_waves[i];
        }
        if (ro.wave && ro.backend != BACKEND_RTL && sel[i]->tx_block != NIC_BLOCK_NONE) {
            /* and the C model's ports alike: FILE-<path>-c.fst */
            char suffix[CFG_NAME_LEN + 16];
            snprintf(suffix, sizeof(suffix), "-%s-c.fst", sel[i]->name);
            if (cli_wave_sibling(ro.wave, suffix, c_waves[i], sizeof(c_waves[i]))) {
                snprintf(err, sizeof(err), "--wave: no room for the name of its %s sibling", suffix);
                rc = 1;
                break;
            }
            o[i].c_wave = c_waves[i];
        }
        sims[i] = latency_create(sel[i], &o[i], &res[i], errs[i], sizeof(errs[i]));
        if (!sims[i])
            snprintf(err, sizeof(err), "%s", errs[i]), rc = 1;
    }
    int first_failed = -1;
    if (rc == 0) {
        /* each path a simulation of its own, side by side (--jobs) */
        latency_jobs_t J = {sims, o, res, sel, ops, ro.show_progress, 0};
        first_failed = jobs_run(cli_jobs(jobs, w != NULL, engine_name), n_sel, latency_job, &J);
        if (first_failed >= 0)
            snprintf(err, sizeof(err), "%s", errs[first_failed]), rc = 1;
    }
    /* as one after the other: the mismatch reports of the paths up to the
     * first that failed (then its error, below) */
    for (int i = 0; i < n_sel; i++)
        cli_report_close(&reports[i], first_failed < 0 || i <= first_failed);
    for (int i = 0; sims && i < n_sel; i++)
        latency_destroy(sims[i]);
    /* the RTL's own FST files are finished now; the FST writer does not check
     * its writes, so see that each is whole (a full disk) */
    for (int i = 0; o && i < n_sel && rc == 0; i++) {
        char why[400];
        if (o[i].rtl_wave && wave_fst_verify(o[i].rtl_wave, why, sizeof(why))) {
            snprintf(err, sizeof(err), "--wave: could not finish writing the RTL's waveform: %s", why);
            rc = 1;
        } else if (o[i].c_wave && wave_fst_verify(o[i].c_wave, why, sizeof(why))) {
            snprintf(err, sizeof(err), "--wave: could not finish writing the C model's waveform: %s",
                     why);
            rc = 1;
        }
    }
    free(sims);
    free(o);
    if (rc) {
        fprintf(stderr, "ubsim latency: %s\n", err);
        free(res);
        wave_close(w);
        return 1;
    }
    if (w && wave_close(w)) {
        fprintf(stderr, "ubsim latency: --wave: could not finish writing '%s'\n", ro.wave);
        free(res);
        return 1;
    }
    rc = report_latency(stdout, (report_format_t)ro.format, sel, res, n_sel) ? 1 : 0;
    free(res);
    return rc;
}


/* The command, with --vectors DIR (any simulating command takes it) taken
 * out of argv and turned on. Returns the command's exit status. */
static int dispatch(int argc, char **argv)
{
    if (strcmp(argv[1], "latency") == 0)
        return cmd_latency(argc - 1, argv + 1);
    if (strcmp(argv[1], "rate") == 0)
        return cmd_rate(argc - 1, argv + 1);
    if (strcmp(argv[1], "topology") == 0)
        return cmd_topology(argc - 1, argv + 1);
    if (strcmp(argv[1], "incast") == 0)
        return cmd_incast(argc - 1, argv + 1);
    if (strcmp(argv[1], "order") == 0)
        return cmd_order(argc - 1, argv + 1);
    if (strcmp(argv[1], "loss") == 0)
        return cmd_loss(argc - 1, argv + 1);
    if (strcmp(argv[1], "state") == 0)
        return cmd_state(argc - 1, argv + 1);
    if (strcmp(argv[1], "cache") == 0)
        return cmd_cache(argc - 1, argv + 1);
    if (strcmp(argv[1], "diff") == 0)
        return cmd_diff(argc - 1, argv + 1);
    fprintf(stderr,
            "ubsim: unknown command '%s' (expected latency, rate, order, incast, loss, state, cache, "
            "topology or diff; see 'ubsim help')\n",
            argv[1]);
    return 2;
}

#ifndef UBSIM_VERSION
#define UBSIM_VERSION "unknown" /* (the build sets it: git describe) */
#endif

/* A report that could not be written (a full disk) is a failure, said on
 * stderr: the command's status, or 1 if it succeeded; for diff, whose 1
 * means "different", 2 (trouble), as diff and cmp do. */
static int stdout_written(const char *cmd, int rc)
{
    int failed = ferror(stdout);
    errno = 0;
    failed |= fflush(stdout) != 0; /* (not closed: libraries may still print at exit) */
    int err = errno;
    if (failed) {
        fprintf(stderr, "ubsim%s%s: cannot write to standard output: %s\n", cmd ? " " : "", cmd ? cmd : "",
                err ? strerror(err) : "write error");
        return cmd && strcmp(cmd, "diff") == 0 ? 2 : rc ? rc : 1;
    }
    return rc;
}

static int run_main(int argc, char **argv);

int main(int argc, char **argv)
{
    const char *cmd = argc >= 2 && argv[1][0] != '-' ? argv[1] : NULL;
    char name[32];
    if (cmd) { /* (run_main may reorder argv) */
        snprintf(name, sizeof name, "%s", cmd);
        cmd = name;
    }
    int rc = run_main(argc, argv);
    return stdout_written(cmd, rc);
}

static int run_main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0)) {
        if (argc > 2) {
            fprintf(stderr, "ubsim %s: takes no arguments, got '%s'\n", argv[1], argv[2]);
            return 2;
        }
        printf("ubsim %s\n", UBSIM_VERSION);
        return 0;
    }
    if (argc >= 3 && (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        /* ubsim help CMD (or --help CMD): as ubsim CMD --help */
        if (argc > 3) {
            fprintf(stderr, "ubsim help: expected one command, got '%s' and more\n", argv[2]);
            return 2;
        }
        if (strcmp(argv[2], "help") == 0 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
            fputs(usage_top, stdout);
            return 0;
        }
        if (strcmp(argv[2], "version") == 0 || strcmp(argv[2], "--version") == 0) {
            printf("usage: ubsim version (or ubsim --version)\n\n"
                   "Prints the version of this build: 'ubsim' and the 'git describe' of the checkout\n"
                   "it was built from (a tag, commits since, the commit; '-dirty' with uncommitted\n"
                   "changes).\n");
            return 0;
        }
        char help[] = "--help";
        char *args[] = {argv[0], argv[2], help, NULL};
        return dispatch(3, args);
    }
    if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "--help") == 0) {
        fputs(usage_top, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    /* --vectors DIR / --vectors=DIR, wherever it stands after the command */
    const char *vec_dir = NULL, *seed = "";
    size_t cmd_len = 1;
    for (int i = 0; i < argc; i++)
        cmd_len += strlen(argv[i]) + 1;
    char *cmdline = malloc(cmd_len);
    if (!cmdline) {
        fprintf(stderr, "ubsim: out of memory\n");
        return 1;
    }
    cmdline[0] = '\0';
    int n = 1;
    for (int i = 1; i < argc; i++) {
        if (i > 1)
            strcat(cmdline, " ");
        strcat(cmdline, argv[i]);
        if (i > 1 && vec_dir && (!strcmp(argv[i], "--vectors") || !strncmp(argv[i], "--vectors=", 10))) {
            fprintf(stderr, "ubsim %s: --vectors: given twice (give it once)\n", argv[1]);
            free(cmdline);
            return 2;
        }
        if (i > 1 && strcmp(argv[i], "--vectors") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                fprintf(stderr, "ubsim %s: --vectors: a folder expected\n", argv[1]);
                free(cmdline);
                return 2;
            }
            vec_dir = argv[++i];
            strcat(cmdline, " ");
            strcat(cmdline, argv[i]);
            continue;
        }
        if (i > 1 && strncmp(argv[i], "--vectors=", 10) == 0) {
            vec_dir = argv[i] + 10;
            continue;
        }
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = argv[i + 1];
        else if (strncmp(argv[i], "--seed=", 7) == 0)
            seed = argv[i] + 7;
        argv[n++] = argv[i];
    }
    argv[n] = NULL;
    int rc;
    if (vec_dir) {
        char err[600];
        if (strcmp(argv[1], "diff") == 0 || strcmp(argv[1], "state") == 0 || strcmp(argv[1], "topology") == 0) {
            fprintf(stderr, "ubsim %s: --vectors: this command runs no block\n", argv[1]);
            free(cmdline);
            return 2;
        }
        for (int i = 2; i < n; i++) {
            const char *b = strcmp(argv[i], "--backend") == 0 && i + 1 < n ? argv[i + 1]
                            : strncmp(argv[i], "--backend=", 10) == 0  ? argv[i] + 10
                                                                        : NULL;
            if (b && strcmp(b, "rtl") == 0) {
                fprintf(stderr,
                        "ubsim %s: --vectors writes the C model's outputs as the expected ones: use "
                        "--backend c or lockstep, not rtl\n",
                        argv[1]);
                free(cmdline);
                return 2;
            }
        }
        if (block_vectors_begin(vec_dir, cmdline, seed, err, sizeof err)) {
            fprintf(stderr, "ubsim %s: %s\n", argv[1], err);
            free(cmdline);
            return 2;
        }
        rc = dispatch(n, argv);
        if (block_vectors_end(err, sizeof err)) {
            fprintf(stderr, "ubsim %s: %s\n", argv[1], err);
            if (!rc)
                rc = 1;
        }
    } else {
        rc = dispatch(n, argv);
    }
    free(cmdline);
    return rc;
}
