/* Seeds for trace_fuzz (the waveform reader, sim/core/trace_read.c).
 *
 *   trace_seeds OUTDIR [TRACE...]
 *
 * A seed is a first byte that names the file the fuzzer writes (even: .fst,
 * odd: .vcd; see trace_fuzz.c) and the file's content. Written to OUTDIR:
 *  - each TRACE given (FST and VCD files written by ubsim), as it is, and
 *    for an FST file copies with one byte changed in each of its blocks and
 *    in each section of its value change blocks;
 *  - FST files from the FST writer itself in the forms ubsim does not
 *    write: each pack type (LZ4, fastlz, zlib), the hierarchy gzip or LZ4
 *    compressed, several value change blocks, reals, strings, aliases,
 *    dump on/off, the whole file gzip wrapped, a dump without times;
 *  - a few VCD files.
 * Exit status 0, or 1 with a message. */
#include <fstapi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *out_dir;
static int n_seeds;

static int put_seed(const char *name, unsigned char first, const unsigned char *data, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fputc(first, f) == EOF || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "trace_seeds: cannot write %s\n", path);
        return -1;
    }
    n_seeds++;
    return 0;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char *b = malloc(cap);
    for (;;) {
        if (!b)
            break;
        size_t got = fread(b + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        unsigned char *nb = realloc(b, cap *= 2);
        if (!nb) {
            free(b);
            b = NULL;
        }
        b = nb;
    }
    fclose(f);
    *n = len;
    return b;
}

static uint64_t be64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | b[i];
    return v;
}

/* An FST file and copies of it with one byte changed: in each block's type
 * and length, a quarter, half and three quarters in, and in a value change
 * block near its start (times, initial values), before its end (index of
 * chains, time table) and at its last bytes. */
static int fst_seeds(const char *name, const unsigned char *d, size_t n)
{
    if (put_seed(name, 0, d, n))
        return -1;
    unsigned char *m = malloc(n ? n : 1);
    if (!m)
        return -1;
    size_t pos = 0;
    int blk = 0, rc = 0;
    while (pos + 9 <= n && rc == 0) {
        uint64_t len = be64(d + pos + 1);
        if (len < 8 || len > n - pos - 1)
            break;
        size_t at[16], k = 0;
        at[k++] = pos;
        at[k++] = pos + 8;
        at[k++] = pos + 1 + (size_t)len / 4;
        at[k++] = pos + 1 + (size_t)len / 2;
        at[k++] = pos + 1 + (size_t)len * 3 / 4;
        at[k++] = pos + (size_t)len;
        if (d[pos] == FST_BL_VCDATA_DYN_ALIAS2 || d[pos] == FST_BL_VCDATA ||
            d[pos] == FST_BL_VCDATA_DYN_ALIAS) {
            at[k++] = pos + 1 + 16;     /* end time */
            at[k++] = pos + 1 + 31;     /* memory needed */
            at[k++] = pos + 1 + 32;     /* initial values' lengths */
            at[k++] = pos + 1 + 36;
            at[k++] = pos + (size_t)len - 30; /* index length, time table */
            at[k++] = pos + (size_t)len - 40;
            at[k++] = pos + (size_t)len - 12; /* time table's lengths, count */
        }
        for (size_t i = 0; i < k && rc == 0; i++) {
            if (at[i] >= n)
                continue;
            memcpy(m, d, n);
            m[at[i]] ^= (unsigned char)(0x01 << (i % 8)) | 0x10;
            char mname[512];
            snprintf(mname, sizeof mname, "%s.b%d.%zu", name, blk, i);
            rc = put_seed(mname, 0, m, n);
        }
        pos += 1 + (size_t)len;
        blk++;
    }
    free(m);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* FST files in the writer's other forms                                     */

enum {
    V_MULTI = 1 << 0,    /* several value change blocks */
    V_REALS = 1 << 1,
    V_STRINGS = 1 << 2,
    V_ALIAS = 1 << 3,    /* declared aliases */
    V_BLACKOUT = 1 << 4, /* dump off and on */
    V_REPACK = 1 << 5,   /* the whole file gzip wrapped */
    V_TIMELESS = 1 << 6, /* everything at time 0 */
    V_XZ = 1 << 7,       /* values other than 0 and 1 */
};

/* V as W characters '0' and '1', most significant first (0 above bit 63). */
static void bits(char *s, int w, uint64_t v)
{
    for (int i = 0; i < w; i++) {
        int b = w - 1 - i;
        s[i] = (char)('0' + (b < 64 ? (v >> b) & 1 : 0));
    }
    s[w] = '\0';
}

static int writer_variant(const char *tmp, const char *name, enum fstWriterPackType pack, int flags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    void *w = fstWriterCreate(path, 1);
    if (!w)
        return -1;
    fstWriterSetPackType(w, pack);
    fstWriterSetTimescale(w, -9);
    if (flags & V_REPACK)
        fstWriterSetRepackOnClose(w, 1);
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "top", NULL);
    fstHandle clk = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_INPUT, 1, "clk_i", 0);
    fstHandle rst = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_INPUT, 1, "rst_ni", 0);
    fstHandle data = fstWriterCreateVar(w, FST_VT_VCD_REG, FST_VD_OUTPUT, 8, "data_o [7:0]", 0);
    fstHandle wide = fstWriterCreateVar(w, FST_VT_SV_LOGIC, FST_VD_OUTPUT, 70, "wide_o", 0);
    fstHandle twin = fstWriterCreateVar(w, FST_VT_VCD_REG, FST_VD_OUTPUT, 8, "twin_o", 0);
    fstHandle real = 0, str = 0;
    fstHandle fill[24];
    fstWriterSetScope(w, FST_ST_VCD_MODULE, "inner", NULL);
    if (flags & V_ALIAS) {
        fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_INPUT, 1, "clk_i", clk);
        fstWriterCreateVar(w, FST_VT_VCD_REG, FST_VD_OUTPUT, 8, "data_i", data);
    }
    if (flags & V_REALS)
        real = fstWriterCreateVar(w, FST_VT_VCD_REAL, FST_VD_IMPLICIT, 64, "level", 0);
    if (flags & V_STRINGS)
        str = fstWriterCreateVar(w, FST_VT_GEN_STRING, FST_VD_IMPLICIT, 0, "state", 0);
    for (int i = 0; i < 24; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "f%d", i);
        fill[i] = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, (uint32_t)(1 + i % 5), nm, 0);
    }
    fstWriterSetUpscope(w);
    fstWriterSetUpscope(w);
    int steps = flags & V_TIMELESS ? 1 : 120;
    char v[128];
    for (int t = 0; t < steps; t++) {
        if (!(flags & V_TIMELESS))
            fstWriterEmitTimeChange(w, (uint64_t)t * 5);
        if ((flags & V_BLACKOUT) && t == 40)
            fstWriterEmitDumpActive(w, 0);
        if ((flags & V_BLACKOUT) && t == 60)
            fstWriterEmitDumpActive(w, 1);
        fstWriterEmitValueChange(w, clk, t % 2 ? "0" : "1");
        fstWriterEmitValueChange(w, rst, t > 3 ? "1" : (flags & V_XZ) ? "x" : "0");
        bits(v, 8, (uint64_t)t * 37);
        if ((flags & V_XZ) && t % 9 == 0)
            v[3] = 'z';
        fstWriterEmitValueChange(w, data, v);
        if (t < 40 || (t >= 80 && t % 3 == 0))
            fstWriterEmitValueChange(w, twin, v); /* equal to data for a while */
        bits(v, 70, (uint64_t)t * 0x9e3779b97f4a7c15ull);
        if ((flags & V_XZ) && t % 7 == 0)
            v[0] = 'x';
        fstWriterEmitValueChange(w, wide, v);
        if (real) {
            double d = t * 0.25;
            fstWriterEmitValueChange(w, real, &d);
        }
        if (str && t % 4 == 0) {
            char s[32];
            int len = snprintf(s, sizeof s, "st%d", t / 4);
            fstWriterEmitVariableLengthValueChange(w, str, s, (uint32_t)len);
        }
        for (int i = 0; i < 24; i++)
            if ((t + i) % (2 + i % 4) == 0) {
                bits(v, 1 + i % 5, (uint64_t)(t + i));
                fstWriterEmitValueChange(w, fill[i], v);
            }
        if ((flags & V_MULTI) && t % 40 == 39)
            fstWriterFlushContext(w);
    }
    if (!(flags & V_TIMELESS))
        fstWriterEmitTimeChange(w, (uint64_t)steps * 5);
    fstWriterClose(w);
    size_t n;
    unsigned char *d = slurp(path, &n);
    remove(path);
    if (!d)
        return -1;
    int rc = fst_seeds(name, d, n);
    free(d);
    return rc;
}

static const char *vcds[] = {
    "$timescale 1ns $end\n$scope module t $end\n$var wire 1 ! clk_i $end\n$var wire 8 \" d_o [7:0] $end\n"
    "$var real 64 # r $end\n$upscope $end\n$enddefinitions $end\n#0\n1!\nb0 \"\nr0.5 #\n#5\n0!\n#10\n1!\n"
    "b1010x01z \"\n#15\n0!\n",
    "$date today $end\n$version x $end\n$timescale 10 ps $end\n$scope module top $end\n$scope module u "
    "$end\n$var reg 4 a data [3:0] $end\n$var wire 1 b v $end\n$upscope $end\n$var wire 1 c clk_i $end\n"
    "$upscope $end\n$enddefinitions $end\n$dumpvars\nbx a\nz b\n0c\n$end\n#1\n1c\nb11 a\n#2\n0c\n1b\n",
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: trace_seeds OUTDIR [TRACE...]\n");
        return 1;
    }
    out_dir = argv[1];
    for (int i = 2; i < argc; i++) {
        size_t n;
        unsigned char *d = slurp(argv[i], &n);
        if (!d) {
            fprintf(stderr, "trace_seeds: cannot read %s\n", argv[i]);
            return 1;
        }
        const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        size_t bl = strlen(base);
        int rc = bl > 4 && !strcmp(base + bl - 4, ".vcd") ? put_seed(base, 1, d, n) : fst_seeds(base, d, n);
        free(d);
        if (rc)
            return 1;
    }
    char tmp[] = "/tmp/trace_seeds_XXXXXX";
    if (!mkdtemp(tmp)) {
        fprintf(stderr, "trace_seeds: cannot make a temporary directory\n");
        return 1;
    }
    static const struct {
        const char *name;
        enum fstWriterPackType pack;
        int flags;
    } var[] = {
        {"w_lz4.fst", FST_WR_PT_LZ4, V_ALIAS | V_XZ},
        {"w_fastlz.fst", FST_WR_PT_FASTLZ, V_ALIAS | V_REALS},
        {"w_zlib.fst", FST_WR_PT_ZLIB, V_STRINGS | V_XZ},
        {"w_multi_lz4.fst", FST_WR_PT_LZ4, V_MULTI | V_REALS | V_STRINGS},
        {"w_multi_fastlz.fst", FST_WR_PT_FASTLZ, V_MULTI | V_ALIAS},
        {"w_multi_zlib.fst", FST_WR_PT_ZLIB, V_MULTI | V_BLACKOUT},
        {"w_blackout.fst", FST_WR_PT_LZ4, V_BLACKOUT},
        {"w_repack.fst", FST_WR_PT_LZ4, V_REPACK | V_ALIAS},
        {"w_timeless.fst", FST_WR_PT_LZ4, V_TIMELESS | V_REALS},
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof var / sizeof var[0] && !rc; i++)
        if (writer_variant(tmp, var[i].name, var[i].pack, var[i].flags)) {
            fprintf(stderr, "trace_seeds: cannot write %s\n", var[i].name);
            rc = 1;
        }
    rmdir(tmp);
    for (size_t i = 0; i < sizeof vcds / sizeof vcds[0] && !rc; i++) {
        char name[32];
        snprintf(name, sizeof name, "v%zu.vcd", i);
        rc = put_seed(name, 1, (const unsigned char *)vcds[i], strlen(vcds[i]));
    }
    if (!rc)
        printf("trace_seeds: %d seeds in %s\n", n_seeds, out_dir);
    return rc;
}
