/* Fuzz target (libFuzzer) for the waveform reader behind `ubsim diff`
 * (sim/core/trace_read.c): VCD parsed there, FST checked in full
 * (sim/core/fst_check.c) and then read by the FST reader that ships with
 * Verilator (fstapi), compiled in here.
 *
 * An input is a first byte that names the file, even: X.fst, odd: X.vcd
 * (the format is told by the content first, by the name when the content
 * does not tell), and the file's content. The file is written to a
 * directory of its own (on /dev/shm when there is one) and read, with every
 * signal recorded or, when bit 1 of the first byte is set, only those whose
 * name ends in _i or _o (so that the FST reader skips the others); what was
 * read is then walked: its cycles and every track's values. A file may be
 * refused with a message, never crash, leak, hang or end the process.
 * Seeds: testbench/fuzz/trace_seeds.c. Built with clang
 * -fsanitize=fuzzer,address,undefined by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_read.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], fst_path[96], vcd_path[96];

static void cleanup(void)
{
    remove(fst_path);
    remove(vcd_path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "%s/trace_fuzz_XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir)) {
        perror("trace_fuzz: mkdtemp");
        abort();
    }
    snprintf(fst_path, sizeof fst_path, "%s/t.fst", dir);
    snprintf(vcd_path, sizeof vcd_path, "%s/t.vcd", dir);
    atexit(cleanup);
    return 0;
}

static int ports_only(const trace_signal_t *s, void *ctx)
{
    (void)ctx;
    size_t n = strlen(s->leaf);
    return n >= 2 && s->leaf[n - 2] == '_' && (s->leaf[n - 1] == 'i' || s->leaf[n - 1] == 'o');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = data[0] & 1 ? vcd_path : fst_path;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0) {
        perror("trace_fuzz: writing the input");
        abort();
    }
    char err[1024];
    trace_t *t = trace_read(path, data[0] & 2 ? ports_only : NULL, NULL, err, sizeof err);
    if (!t) {
        if (!err[0]) {
            fprintf(stderr, "trace_fuzz: refused without a message\n");
            abort();
        }
        return 0;
    }
    trace_cycles_t cyc;
    if (trace_cycles(t, NULL, &cyc, err, sizeof err) == 0) {
        for (size_t i = 0; i < t->n_track; i++) {
            trace_cursor_t c;
            trace_cursor_init(&c, &t->track[i]);
            for (size_t k = 0; k < cyc.n; k++) {
                const char *v = trace_cursor_at(&c, cyc.time[k]);
                if (v && strlen(v) != (size_t)t->track[i].width) {
                    fprintf(stderr, "trace_fuzz: a value of the wrong width\n");
                    abort();
                }
            }
        }
        trace_cycles_free(&cyc);
    }
    for (size_t i = 0; i < t->n_sig; i++)
        if (trace_find(t, t->sig[i].name) < 0) {
            fprintf(stderr, "trace_fuzz: a signal not found by its name\n");
            abort();
        }
    trace_free(t);
    return 0;
}
