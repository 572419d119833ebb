/* Checking an FST file before the FST reader sees it: see fst_check.h.
 *
 * The file, as the FST writer lays it out (fixed-size integers big-endian;
 * varints little-endian groups of 7 bits, the high bit set on every byte but
 * the last):
 *
 *   file   := block+                      (or the gzip wrapper: type 254,
 *                                          length, unpacked length, gzip)
 *   block  := type:u8 length:u64 body     (length counts itself and body)
 *
 *   header (type 0, first, length 329): start and end time, an endianness
 *     test double, memory used by the writer, scope, variable, handle and
 *     value change block counts, timescale, version, date, file type and
 *     time zero.
 *   geometry (3): unpacked length:u64, handles:u64, then (zlib unless the
 *     packed length, length - 24, equals the unpacked one) one varint per
 *     handle: its width, 0 for a real, 0xFFFFFFFF for variable length.
 *   hierarchy (4: u64 unpacked length, gzip; 6: the same, LZ4; 7: the same,
 *     varint first-round length, LZ4 of LZ4): the declarations, tag byte
 *     first (scope, upscope, attribute begin and end, variable).
 *   dump on/off (2): a varint count, then per change a byte and a varint
 *     time delta.
 *   value changes (1, 5, 8): begin and end time, memory the reader needs to
 *     unpack the changes (u64 each); the initial values ("frame": varint
 *     unpacked and packed length and handle count, the zlib data); varint
 *     handle count; the pack type ('4' LZ4, 'F' fastlz, 'Z' zlib) at the
 *     base every chain offset counts from; the chains of changes, one per
 *     handle that changed (varint unpacked length, 0 if stored as is, then
 *     the data); the index of chains (offset deltas, runs of handles
 *     without changes, and aliases: handles whose chain is another's, coded
 *     differently by the block types); u64 index length; the time table
 *     (zlib unless unpacked); u64 unpacked and packed time table length and
 *     time count.
 *
 * Each part is read in full and checked against the others; a chain is
 * unpacked into a buffer of exactly its stated size and decoded as the
 * reader decodes it, against the width of every handle that uses it and
 * the block's time count. The reader's chain tables are also worked out as
 * the reader works them out (it keeps them from one block to the next) and
 * must agree with the file's own. */
#include "fst_check.h"

#include <errno.h>
#include <fstapi.h>
#include <limits.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

/* The header block's length field (the fields after the type byte). */
#define HDR_LENGTH 329
/* Longest name the reader takes (scope, component, attribute, variable). */
#define NAME_MAX_LEN 512
/* Unpacked data is at most this many times its packed size plus a margin
 * (deflate's limit is 1032:1; LZ4's and fastlz's are below 256:1); a larger
 * claim is refused before anything is allocated for it. */
#define MAX_RATIO 1032u
#define RATIO_SLACK 1024u
/* The least the reader allocates for a packed chain (its buffer grows to
 * the longest chain). */
#define READER_BUF 16384u

enum { K_BITS = 0, K_REAL = 1, K_VARLEN = 2 };

typedef struct {
    unsigned char type;
    uint64_t pos; /* of the type byte */
    uint64_t len; /* the length field */
} blk_t;

typedef struct {
    FILE *f;
    uint64_t size;
    char *why;
    size_t whylen;
    int status; /* the first failure */

    /* the header */
    uint64_t start, end, n_scopes, n_vars, maxh, n_vc;
    int timeless; /* start and end 0: the reader takes widths from the hierarchy */

    blk_t *blk;
    size_t n_blk, blk_cap;

    /* per handle (from 0), from the geometry: the reader's value length
     * (the width, 8 for a real, 0 for variable length) and kind */
    uint32_t *len;
    unsigned char *kind;

    /* the reader's chain tables as it keeps them from block to block */
    int64_t *rd_off;
    uint32_t *rd_len;
    uint64_t rd_cap;
    uint32_t rd_pidx;
} ck_t;

static int fail(ck_t *c, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(ck_t *c, int status, const char *fmt, ...)
{
    if (c->status)
        return -1;
    c->status = status;
    if (c->why && c->whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, c->whylen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

#define BAD(c, ...) fail((c), FST_CHECK_MALFORMED, __VA_ARGS__)
#define LIMIT(c, ...) fail((c), FST_CHECK_UNREADABLE, __VA_ARGS__)
#define NOMEM(c) fail((c), FST_CHECK_UNREADABLE, "out of memory")

typedef unsigned long long ull;

static uint64_t be64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | b[i];
    return v;
}

/* A varint at b[*pos] of at most maxb bytes, all before n, whose value does
 * not exceed max: 0 and the value in *v (*pos past it), else -1. */
static int get_var(const unsigned char *b, size_t n, size_t *pos, int maxb, uint64_t max, uint64_t *v)
{
    uint64_t r = 0;
    size_t p = *pos;
    for (int k = 0; k < maxb && k < 10; k++) {
        if (p >= n)
            return -1;
        unsigned x = b[p++];
        uint64_t part = x & 0x7f;
        if (k == 9 && part > 1)
            return -1;
        r |= part << (7 * k);
        if (!(x & 0x80)) {
            if (r > max)
                return -1;
            *pos = p;
            *v = r;
            return 0;
        }
    }
    return -1;
}

#define VAR32(b, n, pos, v) get_var((b), (n), (pos), 5, UINT32_MAX, (v))
#define VAR64(b, n, pos, v) get_var((b), (n), (pos), 10, UINT64_MAX, (v))

/* The signed varint of the alias index (block type 8): at most 5 bytes, the
 * last one's bit 6 the sign. */
static int get_svar(const unsigned char *b, size_t n, size_t *pos, int64_t *v)
{
    uint64_t r = 0;
    int shift = 0;
    size_t p = *pos;
    unsigned x;
    do {
        if (p >= n || shift >= 35)
            return -1;
        x = b[p++];
        r |= (uint64_t)(x & 0x7f) << shift;
        shift += 7;
    } while (x & 0x80);
    int64_t s = (int64_t)r; /* r < 2^35 */
    if (x & 0x40)
        s -= (int64_t)1 << shift;
    *pos = p;
    *v = s;
    return 0;
}

static int32_t as_i32(uint32_t u)
{
    return u > INT32_MAX ? -(int32_t)(~u) - 1 : (int32_t)u;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */

static int read_at(ck_t *c, uint64_t off, void *buf, size_t n)
{
    if (off > c->size || n > c->size - off || off > (uint64_t)INT64_MAX)
        return BAD(c, "a read past the end of the file at byte %llu", (ull)off);
    errno = 0;
    if (fseeko(c->f, (off_t)off, SEEK_SET) != 0 || fread(buf, 1, n, c->f) != n)
        return LIMIT(c, "cannot read it at byte %llu: %s", (ull)off,
                     errno ? strerror(errno) : "it is shorter than when it was opened");
    return 0;
}

/* N bytes from OFF in a new buffer (one more, zeroed, so that N may be 0). */
static unsigned char *load(ck_t *c, uint64_t off, uint64_t n)
{
    if (n > c->size || n >= SIZE_MAX) {
        BAD(c, "a read past the end of the file at byte %llu", (ull)off);
        return NULL;
    }
    unsigned char *b = malloc((size_t)n + 1);
    if (!b) {
        NOMEM(c);
        return NULL;
    }
    b[n] = 0;
    if (read_at(c, off, b, (size_t)n)) {
        free(b);
        return NULL;
    }
    return b;
}

/* A claim of UNPACKED bytes from PACKED ones that no decompressor here can
 * meet. */
static int too_packed(uint64_t packed, uint64_t unpacked)
{
    return packed > (UINT64_MAX - RATIO_SLACK) / MAX_RATIO || unpacked > packed * MAX_RATIO + RATIO_SLACK;
}

/* zlib data IN (n bytes) that unpacks to exactly OUTLEN bytes, the way the
 * reader calls uncompress(): the new buffer, or NULL after a message naming
 * WHAT. */
static unsigned char *unzlib(ck_t *c, const unsigned char *in, uint64_t n, uint64_t outlen, const char *what)
{
    if (too_packed(n, outlen)) {
        BAD(c, "%s: %llu bytes cannot unpack to the %llu it states", what, (ull)n, (ull)outlen);
        return NULL;
    }
    unsigned char *out = malloc(outlen ? (size_t)outlen : 1);
    if (!out) {
        NOMEM(c);
        return NULL;
    }
    uLongf dl = (uLongf)outlen;
    int rc = uncompress(out, &dl, in, (uLong)n);
    if (rc != Z_OK || dl != outlen) {
        free(out);
        if (rc == Z_MEM_ERROR)
            NOMEM(c);
        else if (rc == Z_OK)
            BAD(c, "%s unpacks to %llu bytes, not the %llu it states", what, (ull)dl, (ull)outlen);
        else
            BAD(c, "%s is not zlib data that unpacks to the %llu bytes it states (%s)", what, (ull)outlen,
                rc == Z_BUF_ERROR ? "more data, or cut short" : "corrupt");
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------------------ */
/* fastlz                                                                    */

/* A fastlz chain as the reader unpacks it: IN holds n bytes of the chain
 * and the reader passes `ext` bytes in all (the chain and the first bytes of
 * what follows it in the file, which are in IN too). The chain must unpack
 * to exactly cap bytes into OUT, reading nothing outside its n bytes, and
 * the reader's next step, which decodes the bytes after the chain as one
 * more instruction before it finds the output full, must not read beyond
 * its buffer. 0; -1 (malformed) or 1 (beyond the reader) with the reason in
 * *why. */
static int fastlz_unpack(const unsigned char *in, size_t n, size_t ext, unsigned char *out, size_t cap,
                         const char **why)
{
    if (n == 0) {
        *why = "is empty";
        return -1;
    }
    unsigned level = (in[0] >> 5) + 1u;
    if (level > 2) {
        *why = "has an unknown fastlz level";
        return -1;
    }
    size_t ip = 1, op = 0;
    unsigned ctrl = in[0] & 31;
    for (;;) {
        if (ctrl < 32) { /* ctrl + 1 bytes as they are */
            size_t run = (size_t)ctrl + 1;
            if (run > cap - op) {
                *why = "unpacks to more than it states";
                return -1;
            }
            if (run > n - ip) {
                *why = "runs past its end";
                return -1;
            }
            memcpy(out + op, in + ip, run);
            op += run;
            ip += run;
        } else { /* a copy of earlier output */
            size_t len = (ctrl >> 5) - 1;
            size_t dist = (size_t)(ctrl & 31) << 8; /* back from op, less 1 */
            if (len == 6) {
                unsigned code;
                do {
                    if (ip >= n)
                        goto cut;
                    code = in[ip++];
                    len += code;
                } while (level == 2 && code == 255);
            }
            if (ip >= n)
                goto cut;
            unsigned code = in[ip++];
            dist += code;
            if (level == 2 && code == 255 && (ctrl & 31) == 31) {
                if (n - ip < 2)
                    goto cut;
                dist = ((size_t)in[ip] << 8 | in[ip + 1]) + 8191;
                ip += 2;
            }
            len += 3;
            if (len > cap - op) {
                *why = "unpacks to more than it states";
                return -1;
            }
            if (dist + 1 > op) {
                *why = "refers to data before its start";
                return -1;
            }
            for (size_t k = 0; k < len; k++, op++)
                out[op] = out[op - dist - 1];
        }
        if (ip == n)
            break;
        ctrl = in[ip++];
    }
    if (op != cap) {
        *why = "unpacks to fewer bytes than it states";
        return -1;
    }
    /* the reader's extra step: it decodes the byte after the chain as one
     * more instruction (then finds the output full), reading on in its
     * buffer, which holds the ext bytes it read from the file and is at
     * least READER_BUF bytes long (past ext: earlier data, unknown here) */
    if (ext <= n) {
        *why = "is not followed by the bytes the reader reads after it";
        return -1;
    }
    size_t lim = ext > READER_BUF ? ext : READER_BUF;
    ctrl = in[ip++];
    if (ctrl >= 32) {
        int long_len = (ctrl >> 5) - 1 == 6;
        if (level == 1) {
            if (ip + (size_t)long_len + 1 > lim)
                goto past;
        } else {
            if (long_len) {
                while (ip < ext && in[ip] == 255)
                    ip++;
                if (ip >= ext)
                    goto past; /* a run of 255 into data of unknown end */
                ip++;
            }
            /* the offset byte, two more after one of 255 with the top bits set */
            size_t more = (ctrl & 31) == 31 && (ip >= ext || in[ip] == 255) ? 2 : 0;
            if (ip + 1 + more > lim)
                goto past;
        }
    }
    return 0;
cut:
    *why = "ends inside an instruction";
    return -1;
past:
    *why = "is followed by bytes that make the FST reader read past its buffer";
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The header and the blocks                                                 */

static const char *block_name(unsigned char type)
{
    switch (type) {
    case FST_BL_HDR: return "header";
    case FST_BL_VCDATA:
    case FST_BL_VCDATA_DYN_ALIAS:
    case FST_BL_VCDATA_DYN_ALIAS2: return "value change";
    case FST_BL_BLACKOUT: return "dump on/off";
    case FST_BL_GEOM: return "geometry";
    case FST_BL_HIER:
    case FST_BL_HIER_LZ4:
    case FST_BL_HIER_LZ4DUO: return "hierarchy";
    default: return "unknown";
    }
}

static int is_vc(unsigned char type)
{
    return type == FST_BL_VCDATA || type == FST_BL_VCDATA_DYN_ALIAS || type == FST_BL_VCDATA_DYN_ALIAS2;
}

static int is_hier(unsigned char type)
{
    return type == FST_BL_HIER || type == FST_BL_HIER_LZ4 || type == FST_BL_HIER_LZ4DUO;
}

/* The chain of blocks, each whole and of a known type, up to the end of
 * the file. */
static int walk_blocks(ck_t *c)
{
    uint64_t pos = 0;
    while (pos < c->size) {
        unsigned char b[9];
        if (c->size - pos < 9)
            return BAD(c, "the file ends inside the block header at byte %llu", (ull)pos);
        if (read_at(c, pos, b, 9))
            return -1;
        uint64_t len = be64(b + 1);
        unsigned char type = b[0];
        if (type == FST_BL_SKIP)
            return BAD(c, "the block at byte %llu was never finished (the writer did not close the file)",
                       (ull)pos);
        if (!is_vc(type) && !is_hier(type) && type != FST_BL_HDR && type != FST_BL_GEOM &&
            type != FST_BL_BLACKOUT)
            return BAD(c, "the block at byte %llu has the unknown type %u", (ull)pos, type);
        if (pos == 0 && type != FST_BL_HDR)
            return BAD(c, "it does not start with a header block");
        if (pos != 0 && type == FST_BL_HDR)
            return BAD(c, "a second header block at byte %llu", (ull)pos);
        if (len < 8 || len > c->size - pos - 1)
            return BAD(c, "the %s block at byte %llu has length %llu, %s", block_name(type), (ull)pos, (ull)len,
                       len < 8 ? "less than its length field" : "past the end of the file");
        if (c->n_blk == c->blk_cap) {
            size_t ncap = c->blk_cap ? c->blk_cap * 2 : 16;
            blk_t *nb = realloc(c->blk, ncap * sizeof *nb);
            if (!nb)
                return NOMEM(c);
            c->blk = nb;
            c->blk_cap = ncap;
        }
        c->blk[c->n_blk++] = (blk_t){type, pos, len};
        pos += 1 + len;
    }
    if (c->n_blk == 0)
        return BAD(c, "it holds no block");
    return 0;
}

static int check_header(ck_t *c)
{
    const blk_t *bk = &c->blk[0];
    if (bk->len != HDR_LENGTH)
        return BAD(c, "its header block has length %llu, not %d", (ull)bk->len, HDR_LENGTH);
    unsigned char h[HDR_LENGTH];
    if (read_at(c, 1, h, sizeof h))
        return -1;
    c->start = be64(h + 8);
    c->end = be64(h + 16);
    c->n_scopes = be64(h + 40);
    c->n_vars = be64(h + 48);
    c->maxh = be64(h + 56);
    c->n_vc = be64(h + 64);
    c->timeless = c->start == 0 && c->end == 0;
    /* the endianness test: e in this machine's byte order or reversed */
    double e = 2.7182818284590452354;
    unsigned char ne[8], rev[8];
    memcpy(ne, &e, 8);
    for (int i = 0; i < 8; i++)
        rev[i] = ne[7 - i];
    if (memcmp(h + 24, ne, 8) && memcmp(h + 24, rev, 8))
        return BAD(c, "its header's endianness test is not the number it should be");
    if (c->start > c->end)
        return BAD(c, "its header's start time %llu is after its end time %llu", (ull)c->start, (ull)c->end);
    int ts = (signed char)h[72];
    if (ts < -21 || ts > 2)
        return BAD(c, "its header's timescale 10^%d s is outside 10^-21 .. 10^2", ts);
    unsigned ft = h[72 + 1 + 128 + 119];
    if (ft > FST_FT_MAX)
        return BAD(c, "its header's file type %u is not one of 0 .. %d", ft, FST_FT_MAX);
    if (c->maxh == 0)
        return LIMIT(c, "it holds no signal (the FST reader takes no file without one)");
    if (c->maxh >= UINT32_MAX)
        return BAD(c, "its header states %llu handles, more than an FST handle can number", (ull)c->maxh);
    if (c->n_vars < c->maxh)
        return BAD(c, "its header states %llu variables but %llu handles", (ull)c->n_vars, (ull)c->maxh);
    if (c->n_vc == 0)
        return BAD(c, "its header states no value change block");
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Geometry                                                                  */

static int check_geometry(ck_t *c, const blk_t *bk)
{
    if (bk->len < 25)
        return BAD(c, "the geometry block at byte %llu is too short (%llu)", (ull)bk->pos, (ull)bk->len);
    unsigned char f[16];
    if (read_at(c, bk->pos + 9, f, 16))
        return -1;
    uint64_t ulen = be64(f), maxh = be64(f + 8), clen = bk->len - 24;
    if (maxh != c->maxh)
        return BAD(c, "the geometry block at byte %llu states %llu handles, the header %llu", (ull)bk->pos,
                   (ull)maxh, (ull)c->maxh);
    if (ulen < maxh || ulen / 5 > maxh)
        return BAD(c, "the geometry block at byte %llu states %llu bytes for %llu handles", (ull)bk->pos,
                   (ull)ulen, (ull)maxh);
    unsigned char *raw = load(c, bk->pos + 25, clen);
    if (!raw)
        return -1;
    unsigned char *g = raw;
    if (clen != ulen) {
        char what[96];
        snprintf(what, sizeof what, "the geometry block at byte %llu", (ull)bk->pos);
        g = unzlib(c, raw, clen, ulen, what);
        if (!g) {
            free(raw);
            return -1;
        }
    }
    int rc = -1;
    c->len = malloc((size_t)maxh * sizeof *c->len);
    c->kind = malloc((size_t)maxh);
    if (!c->len || !c->kind) {
        NOMEM(c);
        goto out;
    }
    size_t p = 0;
    for (uint64_t i = 0; i < maxh; i++) {
        uint64_t v;
        if (VAR32(g, (size_t)ulen, &p, &v)) {
            BAD(c, "the geometry block at byte %llu: the width of handle %llu is not a number below 2^32",
                (ull)bk->pos, (ull)i + 1);
            goto out;
        }
        if (v == 0) {
            c->len[i] = 8;
            c->kind[i] = K_REAL;
        } else if (v == 0xFFFFFFFFu) {
            c->len[i] = 0;
            c->kind[i] = K_VARLEN;
        } else {
            c->len[i] = (uint32_t)v;
            c->kind[i] = K_BITS;
        }
    }
    if (p != ulen) {
        BAD(c, "the geometry block at byte %llu holds %llu bytes after its last handle", (ull)bk->pos,
            (ull)(ulen - p));
        goto out;
    }
    rc = 0;
out:
    if (g != raw)
        free(g);
    free(raw);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Hierarchy                                                                 */

static int is_real_type(unsigned t)
{
    return t == FST_VT_VCD_REAL || t == FST_VT_VCD_REAL_PARAMETER || t == FST_VT_VCD_REALTIME ||
           t == FST_VT_SV_SHORTREAL;
}

/* A handle's kind and width for a message. */
static const char *describe(unsigned kind, uint32_t len, char *buf, size_t n)
{
    if (kind == K_REAL)
        return "a real";
    if (kind == K_VARLEN)
        return "of variable length";
    snprintf(buf, n, "%u bits", len);
    return buf;
}

/* NAME (NUL-terminated) for a message: at most n - 4 characters,
 * non-printable ones as '?'. */
static void shown(const char *name, char *out, size_t n)
{
    size_t k = 0;
    for (; name[k] && k + 4 < n; k++)
        out[k] = name[k] >= 0x20 && name[k] < 0x7f ? name[k] : '?';
    if (name[k]) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
}

/* A NUL-terminated name at h[*p] of at most NAME_MAX_LEN bytes. */
static int hier_name(const unsigned char *h, size_t n, size_t *p)
{
    const unsigned char *z = memchr(h + *p, 0, n - *p);
    if (!z || (size_t)(z - (h + *p)) > NAME_MAX_LEN)
        return -1;
    *p = (size_t)(z - h) + 1;
    return 0;
}

/* The declarations of check_hier_text, counted. */
static int check_decls(ck_t *c, const unsigned char *h, size_t n, const char *where, uint32_t *seen,
                       uint64_t *handles, uint64_t *vars, uint64_t *scopes, uint64_t *depth)
{
    size_t p = 0;
    while (p < n) {
        size_t at = p;
        unsigned tag = h[p++];
        if (tag == FST_ST_VCD_SCOPE) {
            if (p >= n || h[p] > FST_ST_MAX)
                return BAD(c, "%s: the scope at byte %zu has no valid scope type", where, at);
            p++;
            if (hier_name(h, n, &p) || hier_name(h, n, &p))
                return BAD(c, "%s: the scope at byte %zu has a name that is not ended or longer than %d bytes",
                           where, at, NAME_MAX_LEN);
            (*scopes)++;
            (*depth)++;
        } else if (tag == FST_ST_VCD_UPSCOPE) {
            if (*depth == 0)
                return BAD(c, "%s: an upscope at byte %zu with no scope open", where, at);
            (*depth)--;
        } else if (tag == FST_ST_GEN_ATTRBEGIN) {
            uint64_t arg;
            if (n - p < 2 || h[p] > FST_AT_MAX)
                return BAD(c, "%s: the attribute at byte %zu has no valid attribute type", where, at);
            p += 2;
            if (hier_name(h, n, &p))
                return BAD(c, "%s: the attribute at byte %zu has a name that is not ended or longer than %d "
                           "bytes", where, at, NAME_MAX_LEN);
            if (VAR64(h, n, &p, &arg))
                return BAD(c, "%s: the attribute at byte %zu has no valid argument", where, at);
        } else if (tag == FST_ST_GEN_ATTREND) {
            /* nothing more */
        } else if (tag <= FST_VT_MAX) {
            uint64_t vlen, alias;
            if (p >= n || h[p] > FST_VD_MAX)
                return BAD(c, "%s: the variable at byte %zu has no valid direction", where, at);
            p++;
            size_t name_at = p;
            if (hier_name(h, n, &p))
                return BAD(c, "%s: the variable at byte %zu has a name that is not ended or longer than %d "
                           "bytes", where, at, NAME_MAX_LEN);
            char name[64];
            shown((const char *)h + name_at, name, sizeof name);
            if (VAR32(h, n, &p, &vlen) || VAR32(h, n, &p, &alias))
                return BAD(c, "%s: variable '%s' has no valid width or alias", where, name);
            (*vars)++;
            /* what the writer stores: a real is 8 bytes, a string 0 */
            unsigned kind = is_real_type(tag) ? K_REAL : vlen == 0 ? K_VARLEN : K_BITS;
            if (kind == K_REAL && vlen != 8)
                return BAD(c, "%s: real variable '%s' has width %llu, not 8 (bytes)", where, name, (ull)vlen);
            if (tag == FST_VT_GEN_STRING && vlen != 0)
                return BAD(c, "%s: string variable '%s' has width %llu, not 0", where, name, (ull)vlen);
            if (tag == FST_VT_VCD_PORT && (vlen < 2 || (vlen - 2) % 3))
                return BAD(c, "%s: port '%s' has width %llu, not 3 per bit plus 2", where, name, (ull)vlen);
            uint64_t hd;
            uint32_t shown_w = tag == FST_VT_VCD_PORT ? (uint32_t)(vlen - 2) / 3 : (uint32_t)vlen;
            if (alias == 0) {
                if (*handles == c->maxh)
                    return BAD(c, "%s declares more than the %llu handles of the header", where, (ull)c->maxh);
                hd = (*handles)++;
                seen[hd] = shown_w;
            } else {
                if (alias > *handles)
                    return BAD(c, "%s: variable '%s' is an alias of handle %llu, not declared before it",
                               where, name, (ull)alias);
                hd = alias - 1;
                /* the reader, rebuilding the widths from the hierarchy (a
                 * header without times), marks a real alias on the next
                 * handle's slot, past its table at these counts */
                if (c->timeless && kind == K_REAL && *handles >= 65536 && (*handles & (*handles - 1)) == 0)
                    return LIMIT(c, "%s: a real alias after %llu handles in a file without times is beyond "
                                 "the FST reader", where, (ull)*handles);
            }
            uint32_t want = kind == K_REAL ? 8 : kind == K_VARLEN ? 0 : (uint32_t)vlen;
            if (c->kind[hd] != kind || c->len[hd] != want) {
                char d1[32], d2[32];
                return BAD(c, "%s: variable '%s' (handle %llu) is %s but the geometry has %s", where, name,
                           (ull)hd + 1, describe(kind, want, d1, sizeof d1),
                           describe(c->kind[hd], c->len[hd], d2, sizeof d2));
            }
            if (seen[hd] != shown_w)
                return BAD(c, "%s: variable '%s' is %u bits wide, its alias, handle %llu, %u", where, name,
                           shown_w, (ull)hd + 1, seen[hd]);
        } else {
            return BAD(c, "%s: an entry of unknown type %u at byte %zu", where, tag, at);
        }
    }
    return 0;
}

/* The declarations (unpacked), from WHERE ("the hierarchy block at byte N"
 * or "FILE.hier"), against the header and the geometry. */
static int check_hier_text(ck_t *c, const unsigned char *h, size_t n, const char *where)
{
    uint64_t handles = 0, vars = 0, scopes = 0, depth = 0;
    if (n == 0)
        return BAD(c, "%s is empty", where);
    /* per handle, the width readers see (a port's is a third of what is
     * stored): its aliases must have it too */
    uint32_t *seen = malloc((size_t)c->maxh * sizeof *seen);
    if (!seen)
        return NOMEM(c);
    int rc = check_decls(c, h, n, where, seen, &handles, &vars, &scopes, &depth);
    free(seen);
    if (rc)
        return -1;
    if (depth)
        return BAD(c, "%s leaves %llu scopes open", where, (ull)depth);
    if (handles != c->maxh)
        return BAD(c, "%s declares %llu handles, the header %llu", where, (ull)handles, (ull)c->maxh);
    if (vars != c->n_vars)
        return BAD(c, "%s declares %llu variables, the header %llu", where, (ull)vars, (ull)c->n_vars);
    if (scopes != c->n_scopes)
        return BAD(c, "%s declares %llu scopes, the header %llu", where, (ull)scopes, (ull)c->n_scopes);
    return 0;
}

/* LZ4 data as the reader unpacks it (it passes the packed and unpacked
 * lengths as int). */
static unsigned char *unlz4(ck_t *c, const unsigned char *in, uint64_t n, uint64_t outlen, const char *what)
{
    if (n > INT_MAX || outlen > INT_MAX || outlen == 0 || n == 0 || too_packed(n, outlen)) {
        BAD(c, "%s: %llu LZ4 bytes cannot unpack to the %llu it states", what, (ull)n, (ull)outlen);
        return NULL;
    }
    unsigned char *out = malloc((size_t)outlen);
    if (!out) {
        NOMEM(c);
        return NULL;
    }
    int r = LZ4_decompress_safe_partial((const char *)in, (char *)out, (int)n, (int)outlen, (int)outlen);
    if (r < 0 || (uint64_t)r != outlen) {
        free(out);
        BAD(c, "%s is not LZ4 data that unpacks to the %llu bytes it states", what, (ull)outlen);
        return NULL;
    }
    return out;
}

/* gzip data (one member, to the end of IN) that unpacks to exactly OUTLEN
 * bytes. */
static unsigned char *ungzip(ck_t *c, const unsigned char *in, uint64_t n, uint64_t outlen, const char *what)
{
    if (too_packed(n, outlen) || n > UINT_MAX || outlen >= UINT_MAX) {
        BAD(c, "%s: %llu gzip bytes cannot unpack to the %llu it states", what, (ull)n, (ull)outlen);
        return NULL;
    }
    /* one byte more than stated: more data shows */
    unsigned char *out = malloc((size_t)outlen + 1);
    if (!out) {
        NOMEM(c);
        return NULL;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        free(out);
        NOMEM(c);
        return NULL;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)outlen + 1;
    int rc = inflate(&z, Z_FINISH);
    uint64_t done = z.total_out;
    unsigned left = z.avail_in;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || done != outlen || left != 0) {
        free(out);
        if (rc == Z_MEM_ERROR)
            NOMEM(c);
        else
            BAD(c, "%s is not one gzip member that unpacks to the %llu bytes it states", what, (ull)outlen);
        return NULL;
    }
    return out;
}

static int check_hier_block(ck_t *c, const blk_t *bk)
{
    char what[96];
    snprintf(what, sizeof what, "the hierarchy block at byte %llu", (ull)bk->pos);
    if (bk->len < 17)
        return BAD(c, "%s is too short (%llu)", what, (ull)bk->len);
    unsigned char *b = load(c, bk->pos + 1, bk->len);
    if (!b)
        return -1;
    uint64_t ulen = be64(b + 8), clen = bk->len - 16;
    const unsigned char *in = b + 16;
    unsigned char *h = NULL;
    int rc = -1;
    if (ulen == 0) {
        BAD(c, "%s states an empty hierarchy", what);
        goto out;
    }
    if (bk->type == FST_BL_HIER) {
        h = ungzip(c, in, clen, ulen, what);
    } else if (bk->type == FST_BL_HIER_LZ4) {
        h = unlz4(c, in, clen, ulen, what);
    } else { /* twice LZ4: the first round's length, then its LZ4 */
        size_t p = 0;
        uint64_t ulen1;
        if (VAR64(in, (size_t)clen, &p, &ulen1)) {
            BAD(c, "%s has no valid first-round length", what);
            goto out;
        }
        unsigned char *h1 = unlz4(c, in + p, clen - p, ulen1, what);
        if (h1) {
            h = unlz4(c, h1, ulen1, ulen, what);
            free(h1);
        }
    }
    if (h)
        rc = check_hier_text(c, h, (size_t)ulen, what);
out:
    free(h);
    free(b);
    return rc;
}

/* FILE.hier, which the reader reads instead of the file's own hierarchy
 * when it is there. */
static int check_hier_file(ck_t *c, const char *path, int *present)
{
    size_t n = strlen(path);
    char *hp = malloc(n + sizeof ".hier");
    if (!hp)
        return NOMEM(c);
    memcpy(hp, path, n);
    memcpy(hp + n, ".hier", sizeof ".hier");
    FILE *f = fopen(hp, "rb");
    *present = f != NULL;
    if (!f) {
        free(hp);
        return 0;
    }
    int rc = -1;
    unsigned char *h = NULL;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char what[128];
    snprintf(what, sizeof what, "the hierarchy file '%.60s.hier' next to it", base);
    off_t size = -1;
    if (fseeko(f, 0, SEEK_END) == 0)
        size = ftello(f);
    if (size < 0 || fseeko(f, 0, SEEK_SET) != 0) {
        LIMIT(c, "%s cannot be read", what);
        goto out;
    }
    h = malloc((size_t)size + 1);
    if (!h) {
        NOMEM(c);
        goto out;
    }
    if (fread(h, 1, (size_t)size, f) != (size_t)size || ferror(f)) {
        LIMIT(c, "%s cannot be read", what);
        goto out;
    }
    rc = check_hier_text(c, h, (size_t)size, what);
out:
    free(h);
    fclose(f);
    free(hp);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Dump on/off                                                               */

static int check_blackout(ck_t *c, const blk_t *bk)
{
    unsigned char *b = load(c, bk->pos + 1, bk->len);
    if (!b)
        return -1;
    size_t n = (size_t)bk->len, p = 8;
    uint64_t count, t = 0;
    int rc = -1;
    if (VAR32(b, n, &p, &count) || count > n) {
        BAD(c, "the dump on/off block at byte %llu has no valid count", (ull)bk->pos);
        goto out;
    }
    for (uint64_t i = 0; i < count; i++) {
        uint64_t d;
        if (p >= n || b[p] > 1) {
            BAD(c, "the dump on/off block at byte %llu: change %llu is neither on nor off", (ull)bk->pos,
                (ull)i + 1);
            goto out;
        }
        p++;
        if (VAR64(b, n, &p, &d) || d > UINT64_MAX - t) {
            BAD(c, "the dump on/off block at byte %llu: change %llu has no valid time", (ull)bk->pos, (ull)i + 1);
            goto out;
        }
        t += d;
    }
    if (p != n) {
        BAD(c, "the dump on/off block at byte %llu holds %llu bytes after its changes", (ull)bk->pos,
            (ull)(n - p));
        goto out;
    }
    rc = 0;
out:
    free(b);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Value change blocks                                                       */

/* A value character: 0, 1, x, z, h, u, w, l (either case) or '-'. */
static int value_ok(unsigned char ch)
{
    return ch && strchr("01xXzZhHuUwWlL-", ch) != NULL;
}

typedef struct {
    ck_t *c;
    const blk_t *bk;
    unsigned char *b;     /* the block from its length field */
    size_t n;             /* its length */
    uint64_t n_times;
    uint64_t vc_maxh;
    size_t vc_start;      /* the pack type byte: chain offsets count from it */
    size_t idx_pos, idx_end; /* the index of chains */
    /* the file's own reading of the index: per handle the chain it uses
     * (-1: none), per chain its offset, length and first user */
    int64_t *chain_of;
    uint64_t *coff, *clen;
    int64_t *head, *next;
    size_t n_chains;
} vc_t;

#define VBAD(v, fmt, ...) BAD((v)->c, "the value change block at byte %llu: " fmt, (ull)(v)->bk->pos, __VA_ARGS__)

/* The index of chains as the file states it. */
static int parse_index(vc_t *v, int alias2)
{
    const unsigned char *b = v->b;
    size_t p = v->idx_pos, end = v->idx_end;
    uint64_t idx = 0, pval = 0, span = v->idx_pos - v->vc_start;
    int64_t prev_alias = -1;
    size_t cap = 0;
    while (p < end) {
        size_t at = p;
        uint64_t x;
        int kind; /* 0 run, 1 chain, 2 alias */
        uint64_t arg;
        if (alias2 && (b[p] & 1)) {
            int64_t s;
            if (get_svar(b, end, &p, &s))
                return VBAD(v, "its index of chains has a bad entry at byte %zu", at);
            int64_t sh = (s - 1) / 2;
            if (sh > 0) {
                kind = 1;
                arg = (uint64_t)sh;
            } else if (sh < 0) {
                kind = 2;
                arg = (uint64_t)(-(sh + 1));
                prev_alias = (int64_t)arg;
            } else {
                if (prev_alias < 0)
                    return VBAD(v, "its index of chains repeats an alias at byte %zu before any", at);
                kind = 2;
                arg = (uint64_t)prev_alias;
            }
        } else {
            if (VAR32(b, end, &p, &x))
                return VBAD(v, "its index of chains has a bad entry at byte %zu", at);
            if (!alias2 && x == 0) {
                uint64_t a;
                if (VAR32(b, end, &p, &a) || a == 0)
                    return VBAD(v, "its index of chains has a bad alias at byte %zu", at);
                kind = 2;
                arg = a - 1;
            } else if (!alias2 && (x & 1)) {
                kind = 1;
                arg = x >> 1;
                if (arg == 0)
                    return VBAD(v, "its index of chains gives two chains one offset at byte %zu", at);
            } else {
                kind = 0;
                arg = x >> 1;
                if (arg == 0)
                    return VBAD(v, "its index of chains has an empty run at byte %zu", at);
            }
        }
        if (kind == 0) {
            if (arg > v->vc_maxh - idx)
                return VBAD(v, "its index of chains covers more than its %llu handles", (ull)v->vc_maxh);
            for (uint64_t k = 0; k < arg; k++)
                v->chain_of[idx++] = -1;
            continue;
        }
        if (idx >= v->vc_maxh)
            return VBAD(v, "its index of chains covers more than its %llu handles", (ull)v->vc_maxh);
        if (kind == 2) {
            if (arg >= idx || v->chain_of[arg] < 0)
                return VBAD(v, "handle %llu is an alias of handle %llu, which has no changes before it",
                            (ull)idx + 1, (ull)arg + 1);
            v->chain_of[idx++] = v->chain_of[arg];
            continue;
        }
        if (arg >= span - pval)
            return VBAD(v, "the chain of handle %llu starts past the chains' end", (ull)idx + 1);
        pval += arg;
        if (v->n_chains == 0 && pval != 1)
            return VBAD(v, "its first chain starts at offset %llu, not 1", (ull)pval);
        if (v->n_chains == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            uint64_t *no = realloc(v->coff, ncap * sizeof *no);
            if (!no)
                return NOMEM(v->c);
            v->coff = no;
            uint64_t *nl = realloc(v->clen, ncap * sizeof *nl);
            if (!nl)
                return NOMEM(v->c);
            v->clen = nl;
            int64_t *nh = realloc(v->head, ncap * sizeof *nh);
            if (!nh)
                return NOMEM(v->c);
            v->head = nh;
            cap = ncap;
        }
        v->coff[v->n_chains] = pval;
        v->chain_of[idx++] = (int64_t)v->n_chains++;
    }
    if (idx != v->vc_maxh)
        return VBAD(v, "its index of chains covers %llu handles, not its %llu", (ull)idx, (ull)v->vc_maxh);
    if (v->n_chains == 0 && span != 1)
        return VBAD(v, "it holds %llu bytes of chains but no chain", (ull)(span - 1));
    for (size_t k = 0; k < v->n_chains; k++) {
        v->clen[k] = (k + 1 < v->n_chains ? v->coff[k + 1] : span) - v->coff[k];
        if (v->clen[k] > INT32_MAX)
            return LIMIT(v->c, "the value change block at byte %llu: a chain of %llu bytes is beyond the FST "
                         "reader", (ull)v->bk->pos, (ull)v->clen[k]);
    }
    return 0;
}

/* The reader's chain tables after this block's index, worked out as the
 * reader works them out (its tables, and the last chain's handle, carry
 * over from the previous block), then compared with the file's. */
static int reader_tables(vc_t *v, int alias2)
{
    ck_t *c = v->c;
    const unsigned char *b = v->b;
    if (v->vc_maxh > c->rd_cap) {
        free(c->rd_off);
        free(c->rd_len);
        c->rd_off = calloc((size_t)v->vc_maxh + 1, sizeof *c->rd_off);
        c->rd_len = calloc((size_t)v->vc_maxh + 1, sizeof *c->rd_len);
        c->rd_cap = c->rd_off && c->rd_len ? v->vc_maxh : 0;
        if (!c->rd_off || !c->rd_len)
            return NOMEM(c);
    }
    int64_t *off = c->rd_off;
    uint32_t *len = c->rd_len;
    uint32_t idx = 0, pidx = c->rd_pidx, prev_alias = 0;
    uint64_t pval = 0;
    size_t p = v->idx_pos;
    /* (the entries parsed already: the reads cannot fail) */
    while (p < v->idx_end) {
        uint64_t x = 0;
        if (alias2 && (b[p] & 1)) {
            int64_t s = 0;
            get_svar(b, v->idx_end, &p, &s);
            int64_t sh = (s - 1) / 2;
            if (sh > 0) {
                pval += (uint64_t)sh;
                off[idx] = (int64_t)pval;
                if (idx)
                    len[pidx] = (uint32_t)(pval - (uint64_t)off[pidx]);
                pidx = idx++;
            } else {
                if (sh < 0)
                    prev_alias = (uint32_t)(uint64_t)sh;
                off[idx] = 0;
                len[idx] = prev_alias;
                idx++;
            }
            continue;
        }
        VAR32(b, v->idx_end, &p, &x);
        if (!alias2 && x == 0) {
            uint64_t a = 0;
            VAR32(b, v->idx_end, &p, &a);
            off[idx] = 0;
            len[idx] = (uint32_t)(0 - a);
            idx++;
        } else if (!alias2 && (x & 1)) {
            pval += x >> 1;
            off[idx] = (int64_t)pval;
            if (idx)
                len[pidx] = (uint32_t)(pval - (uint64_t)off[pidx]);
            pidx = idx++;
        } else {
            for (uint64_t k = 0; k < (x >> 1); k++)
                off[idx++] = 0;
        }
    }
    off[idx] = (int64_t)(v->idx_pos - v->vc_start);
    len[pidx] = (uint32_t)((uint64_t)off[idx] - (uint64_t)off[pidx]);
    c->rd_pidx = pidx;
    for (uint32_t i = 0; i < idx; i++) {
        int32_t v32 = as_i32(len[i]);
        if (v32 < 0 && off[i] == 0) {
            uint32_t t = (uint32_t)(-(int64_t)v32) - 1;
            if (t < i) {
                off[i] = off[t];
                len[i] = len[t];
            }
        }
    }
    for (uint32_t i = 0; i < idx; i++) {
        int64_t k = v->chain_of[i];
        int same = k < 0 ? off[i] == 0
                         : off[i] == (int64_t)v->coff[k] && len[i] == (uint32_t)v->clen[k];
        if (!same)
            return VBAD(v, "the FST reader would take the changes of handle %lu from the wrong place (it "
                        "carries its index of chains over from the block before)", (unsigned long)i + 1);
    }
    return 0;
}

/* The changes of handle h (from 0): n bytes unpacked from its chain,
 * decoded as the reader decodes them. */
static int walk_chain(vc_t *v, uint64_t h, const unsigned char *d, size_t n)
{
    ck_t *c = v->c;
    uint32_t w = c->len[h];
    unsigned kind = c->kind[h];
    size_t p = 0;
    uint64_t t = 0;
    while (p < n) {
        size_t at = p;
        uint64_t vli;
        if (VAR32(d, n, &p, &vli))
            return VBAD(v, "handle %llu: a change at byte %zu of its chain has no valid time step", (ull)h + 1, at);
        uint64_t step = w == 1 ? vli >> ((vli & 1) ? 4 : 2) : vli >> 1;
        t += step;
        if (t >= v->n_times)
            return VBAD(v, "handle %llu: a change at byte %zu of its chain is at time %llu of the block's %llu",
                        (ull)h + 1, at, (ull)t + 1, (ull)v->n_times);
        size_t need;
        if (w == 1) {
            if ((vli & 1) && ((vli >> 1) & 7) == 7)
                return VBAD(v, "handle %llu: a change at byte %zu of its chain has no valid value", (ull)h + 1, at);
            need = 0;
        } else if (kind == K_VARLEN) {
            uint64_t l;
            if (vli & 1)
                return VBAD(v, "handle %llu: a change at byte %zu of its chain has a reserved flag", (ull)h + 1, at);
            if (VAR32(d, n, &p, &l) || l > n - p)
                return VBAD(v, "handle %llu: a change at byte %zu of its chain runs past its end", (ull)h + 1, at);
            need = (size_t)l;
        } else if (kind == K_REAL) {
            need = (vli & 1) ? 8 : 1;
        } else {
            need = (vli & 1) ? w : (w + 7) / 8;
        }
        if (need > n - p)
            return VBAD(v, "handle %llu: a change at byte %zu of its chain runs past its end", (ull)h + 1, at);
        if (kind == K_BITS && w > 1 && (vli & 1))
            for (size_t k = 0; k < need; k++)
                if (!value_ok(d[p + k]))
                    return VBAD(v, "handle %llu: a change at byte %zu of its chain holds a character that is "
                                "not a value", (ull)h + 1, at);
        p += need;
    }
    return 0;
}

/* Chain k: unpacked (into *out, which the caller frees, or pointing into
 * the block) and decoded for every handle that uses it. *mem adds what the
 * reader unpacks for them. */
static int check_chain(vc_t *v, size_t k, unsigned pack, uint64_t *mem)
{
    ck_t *c = v->c;
    size_t a = v->vc_start + (size_t)v->coff[k];
    size_t cl = (size_t)v->clen[k];
    size_t p = a;
    uint64_t ulen;
    uint64_t h0 = (uint64_t)v->head[k];
    if (VAR32(v->b, a + cl, &p, &ulen))
        return VBAD(v, "the chain of handle %llu has no valid length", (ull)h0 + 1);
    size_t skip = p - a;
    if (skip >= cl)
        return VBAD(v, "the chain of handle %llu is empty", (ull)h0 + 1);
    const unsigned char *data = v->b + p;
    unsigned char *out = NULL;
    size_t dn = cl - skip;
    if (ulen) {
        /* the reader hands the decompressor the chain's whole length,
         * starting after the length varint: `skip` bytes past the chain */
        if (p + cl > v->n)
            return VBAD(v, "the chain of handle %llu ends too near the block's end", (ull)h0 + 1);
        if (too_packed(dn, ulen) || ulen > INT_MAX)
            return VBAD(v, "the chain of handle %llu: %zu bytes cannot unpack to the %llu it states", (ull)h0 + 1,
                        dn, (ull)ulen);
        out = malloc((size_t)ulen);
        if (!out)
            return NOMEM(c);
        const char *why = NULL;
        if (pack == '4') {
            int r = LZ4_decompress_safe_partial((const char *)data, (char *)out, (int)cl, (int)ulen, (int)ulen);
            if (r < 0 || (uint64_t)r != ulen)
                why = "is not LZ4 data of the length it states";
        } else if (pack == 'F') {
            if (fastlz_unpack(data, dn, cl, out, (size_t)ulen, &why) > 0) {
                free(out);
                return LIMIT(c, "the value change block at byte %llu: the fastlz chain of handle %llu %s",
                             (ull)v->bk->pos, (ull)h0 + 1, why);
            }
        } else {
            uLongf dl = (uLongf)ulen;
            int rc = uncompress(out, &dl, data, (uLong)cl);
            if (rc == Z_MEM_ERROR) {
                free(out);
                return NOMEM(c);
            }
            if (rc != Z_OK || dl != ulen)
                why = "is not zlib data of the length it states";
        }
        if (why) {
            free(out);
            return VBAD(v, "the chain of handle %llu %s", (ull)h0 + 1, why);
        }
        data = out;
        dn = (size_t)ulen;
    }
    int rc = 0;
    for (int64_t h = v->head[k]; h >= 0 && !rc; h = v->next[h]) {
        rc = walk_chain(v, (uint64_t)h, data, dn);
        *mem += dn;
    }
    free(out);
    return rc;
}

/* The initial values: n bytes for handles 0 .. maxh-1. */
static int check_frame(vc_t *v, const unsigned char *f, uint64_t maxh)
{
    ck_t *c = v->c;
    size_t p = 0;
    for (uint64_t h = 0; h < maxh; h++) {
        if (c->kind[h] == K_BITS)
            for (uint32_t k = 0; k < c->len[h]; k++)
                if (!value_ok(f[p + k]))
                    return VBAD(v, "the initial value of handle %llu holds a character that is not a value",
                                (ull)h + 1);
        p += c->len[h];
    }
    return 0;
}

/* A value change block; FIRST: the file's first one, else PREV_END is the
 * end of the one before (the writer starts a block at the time it ended
 * the last one, with that time first in its table, and ends a block at the
 * last time of its table). */
static int check_vc(ck_t *c, const blk_t *bk, int first, uint64_t *prev_end)
{
    vc_t v;
    memset(&v, 0, sizeof v);
    v.c = c;
    v.bk = bk;
    if (bk->len < 32 + 3 + 1 + 1 + 1 + 8 + 1 + 24)
        return BAD(c, "the value change block at byte %llu is too short (%llu)", (ull)bk->pos, (ull)bk->len);
    v.b = load(c, bk->pos + 1, bk->len);
    if (!v.b)
        return -1;
    v.n = (size_t)bk->len;
    const unsigned char *b = v.b;
    size_t n = v.n;
    int rc = -1;
    unsigned char *times_raw = NULL, *frame = NULL;
    uint64_t *times = NULL;

    uint64_t beg = be64(b + 8), end = be64(b + 16), memreq = be64(b + 24);
    uint64_t t_ulen = be64(b + n - 24), t_clen = be64(b + n - 16), t_n = be64(b + n - 8);
    if (beg > end) {
        VBAD(&v, "it begins at %llu, after its end %llu", (ull)beg, (ull)end);
        goto out;
    }
    if (!c->timeless && (beg < c->start || end > c->end)) {
        VBAD(&v, "its span %llu .. %llu is outside the file's %llu .. %llu", (ull)beg, (ull)end, (ull)c->start,
             (ull)c->end);
        goto out;
    }
    /* the time table, just before the last 24 bytes */
    if (t_clen == 0 || t_clen > n - 24 - 8 - 32) {
        VBAD(&v, "its time table of %llu bytes does not fit in it", (ull)t_clen);
        goto out;
    }
    size_t t_at = n - 24 - (size_t)t_clen;
    v.idx_end = t_at - 8;
    if (t_n == 0 || t_ulen < t_n || t_ulen / 10 > t_n) {
        VBAD(&v, "its time table states %llu times in %llu bytes", (ull)t_n, (ull)t_ulen);
        goto out;
    }
    const unsigned char *tt = b + t_at;
    if (t_ulen != t_clen) {
        char what[96];
        snprintf(what, sizeof what, "the time table of the value change block at byte %llu", (ull)bk->pos);
        times_raw = unzlib(c, tt, t_clen, t_ulen, what);
        if (!times_raw)
            goto out;
        tt = times_raw;
    }
    times = malloc((size_t)t_n * sizeof *times);
    if (!times) {
        NOMEM(c);
        goto out;
    }
    {
        size_t p = 0;
        uint64_t acc = 0;
        for (uint64_t i = 0; i < t_n; i++) {
            uint64_t d;
            if (VAR64(tt, (size_t)t_ulen, &p, &d) || d > UINT64_MAX - acc) {
                VBAD(&v, "time %llu of its time table is not a valid number", (ull)i + 1);
                goto out;
            }
            acc += d;
            times[i] = acc;
        }
        if (p != t_ulen) {
            VBAD(&v, "its time table holds %llu bytes after its %llu times", (ull)(t_ulen - p), (ull)t_n);
            goto out;
        }
    }
    if (times[0] < beg || times[t_n - 1] != end || (!first && times[0] != beg)) {
        VBAD(&v, "its times %llu .. %llu do not span it, %llu .. %llu", (ull)times[0], (ull)times[t_n - 1],
             (ull)beg, (ull)end);
        goto out;
    }
    if (first ? beg != c->start : beg != *prev_end) {
        VBAD(&v, "it begins at %llu, not where the %s, %llu", (ull)beg, first ? "file begins" : "block before ends",
             (ull)(first ? c->start : *prev_end));
        goto out;
    }
    *prev_end = end;
    v.n_times = t_n;

    /* the initial values */
    size_t p = 32;
    uint64_t f_ulen, f_clen, f_maxh;
    if (VAR64(b, v.idx_end, &p, &f_ulen) || VAR64(b, v.idx_end, &p, &f_clen) || VAR64(b, v.idx_end, &p, &f_maxh)) {
        VBAD(&v, "its initial values have no valid lengths%s", "");
        goto out;
    }
    if (f_maxh > c->maxh) {
        VBAD(&v, "its initial values are of %llu handles, more than the %llu of the file", (ull)f_maxh,
             (ull)c->maxh);
        goto out;
    }
    {
        uint64_t want = 0;
        for (uint64_t h = 0; h < f_maxh; h++)
            want += c->len[h];
        if (f_ulen != want) {
            VBAD(&v, "its initial values are %llu bytes, not the %llu of its %llu handles", (ull)f_ulen, (ull)want,
                 (ull)f_maxh);
            goto out;
        }
    }
    if (f_clen > v.idx_end - p) {
        VBAD(&v, "its initial values (%llu bytes) run past its end", (ull)f_clen);
        goto out;
    }
    if (f_clen == f_ulen) {
        if (check_frame(&v, b + p, f_maxh))
            goto out;
    } else {
        char what[96];
        snprintf(what, sizeof what, "the initial values of the value change block at byte %llu", (ull)bk->pos);
        frame = unzlib(c, b + p, f_clen, f_ulen, what);
        if (!frame || check_frame(&v, frame, f_maxh))
            goto out;
    }
    p += (size_t)f_clen;

    /* the chains and their index */
    if (VAR64(b, v.idx_end, &p, &v.vc_maxh)) {
        VBAD(&v, "its handle count is not a valid number%s", "");
        goto out;
    }
    if (v.vc_maxh < f_maxh || v.vc_maxh > c->maxh) {
        VBAD(&v, "its changes are of %llu handles, not between the %llu of its initial values and the %llu of "
             "the file", (ull)v.vc_maxh, (ull)f_maxh, (ull)c->maxh);
        goto out;
    }
    v.vc_start = p;
    if (v.vc_start >= v.idx_end) {
        VBAD(&v, "it ends before its changes%s", "");
        goto out;
    }
    unsigned pack = b[v.vc_start];
    if (pack != '4' && pack != 'F' && pack != 'Z') {
        VBAD(&v, "its pack type is %u, not '4' (LZ4), 'F' (fastlz) or 'Z' (zlib)", pack);
        goto out;
    }
    uint64_t idx_len = be64(b + v.idx_end);
    if (idx_len == 0 || idx_len > v.idx_end - v.vc_start - 1) {
        VBAD(&v, "its index of chains (%llu bytes) does not fit in it", (ull)idx_len);
        goto out;
    }
    v.idx_pos = v.idx_end - (size_t)idx_len;
    v.chain_of = malloc(((size_t)v.vc_maxh + 1) * sizeof *v.chain_of);
    v.next = malloc(((size_t)v.vc_maxh + 1) * sizeof *v.next);
    if (!v.chain_of || !v.next) {
        NOMEM(c);
        goto out;
    }
    if (parse_index(&v, bk->type == FST_BL_VCDATA_DYN_ALIAS2) ||
        reader_tables(&v, bk->type == FST_BL_VCDATA_DYN_ALIAS2))
        goto out;
    for (size_t k = 0; k < v.n_chains; k++)
        v.head[k] = -1;
    for (uint64_t h = v.vc_maxh; h-- > 0;) {
        int64_t k = v.chain_of[h];
        v.next[h] = -1;
        if (k >= 0) {
            v.next[h] = v.head[k];
            v.head[k] = (int64_t)h;
        }
    }
    uint64_t mem = 0;
    for (size_t k = 0; k < v.n_chains; k++)
        if (check_chain(&v, k, pack, &mem))
            goto out;
    if (mem != memreq) {
        VBAD(&v, "it states %llu bytes to unpack its changes, they take %llu", (ull)memreq, (ull)mem);
        goto out;
    }
    rc = 0;
out:
    free(times_raw);
    free(times);
    free(frame);
    free(v.chain_of);
    free(v.next);
    free(v.coff);
    free(v.clen);
    free(v.head);
    free(v.b);
    return rc;
}

/* ------------------------------------------------------------------------ */

static int check_all(ck_t *c, const char *path)
{
    if (walk_blocks(c) || check_header(c))
        return -1;
    size_t n_geom = 0, n_hier = 0, n_black = 0, n_vc = 0;
    const blk_t *geom = NULL;
    for (size_t i = 1; i < c->n_blk; i++) {
        unsigned char t = c->blk[i].type;
        if (t == FST_BL_GEOM) {
            n_geom++;
            geom = &c->blk[i];
        }
        n_hier += is_hier(t);
        n_black += t == FST_BL_BLACKOUT;
        n_vc += is_vc(t);
    }
    if (n_geom != 1)
        return BAD(c, "it holds %zu geometry blocks, not one", n_geom);
    if (n_black > 1)
        return BAD(c, "it holds %zu dump on/off blocks, not at most one", n_black);
    if (n_vc != c->n_vc)
        return BAD(c, "it holds %zu value change blocks, its header states %llu", n_vc, (ull)c->n_vc);
    if (check_geometry(c, geom))
        return -1;
    int hier_file = 0;
    if (check_hier_file(c, path, &hier_file))
        return -1;
    if (n_hier > 1 || (n_hier == 0 && !hier_file))
        return BAD(c, "it holds %zu hierarchy blocks, not one", n_hier);
    for (size_t i = 1; i < c->n_blk; i++) {
        const blk_t *bk = &c->blk[i];
        if ((is_hier(bk->type) && check_hier_block(c, bk)) || (bk->type == FST_BL_BLACKOUT && check_blackout(c, bk)))
            return -1;
    }
    /* (after the hierarchy: a width that disagrees with it is malformed) */
    for (uint64_t h = 0; h < c->maxh; h++)
        if (c->len[h] > FST_CHECK_MAX_WIDTH)
            return LIMIT(c, "handle %llu is %u bits wide, more than the %u this reader takes", (ull)h + 1,
                         c->len[h], FST_CHECK_MAX_WIDTH);
    uint64_t prev_end = 0;
    int first = 1;
    for (size_t i = 1; i < c->n_blk; i++) {
        if (is_vc(c->blk[i].type)) {
            if (check_vc(c, &c->blk[i], first, &prev_end))
                return -1;
            first = 0;
        }
    }
    return 0;
}

/* The gzip-wrapped file (type 254, length, unpacked length, then gzip to
 * the end): unpacked into a temporary file, returned open. */
static FILE *unwrap(ck_t *c, FILE *f, uint64_t size)
{
    unsigned char h[17];
    if (size < 17 || fread(h, 1, 17, f) != 17) {
        BAD(c, "it ends inside its gzip wrapper's header");
        return NULL;
    }
    uint64_t len = be64(h + 1), ulen = be64(h + 9);
    if (len != size - 1) {
        BAD(c, "its gzip wrapper has length %llu, the file %llu", (ull)len, (ull)(size - 1));
        return NULL;
    }
    if (too_packed(size - 17, ulen) || ulen > (uint64_t)INT64_MAX) {
        BAD(c, "its gzip wrapper's %llu bytes cannot unpack to the %llu it states", (ull)(size - 17), (ull)ulen);
        return NULL;
    }
    FILE *t = tmpfile();
    if (!t) {
        LIMIT(c, "cannot make a temporary file to unpack it into: %s", strerror(errno));
        return NULL;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        fclose(t);
        NOMEM(c);
        return NULL;
    }
    enum { CHUNK = 1 << 15 };
    unsigned char *in = malloc(CHUNK), *out = malloc(CHUNK);
    if (!in || !out) {
        free(in);
        free(out);
        inflateEnd(&z);
        fclose(t);
        NOMEM(c);
        return NULL;
    }
    uint64_t done = 0;
    int rc = Z_OK, bad = 0;
    while (rc != Z_STREAM_END && !bad) {
        if (z.avail_in == 0) {
            size_t got = fread(in, 1, CHUNK, f);
            if (got == 0) {
                bad = 1;
                break;
            }
            z.next_in = in;
            z.avail_in = (uInt)got;
        }
        z.next_out = out;
        z.avail_out = CHUNK;
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            bad = 1;
            break;
        }
        size_t got = CHUNK - z.avail_out;
        if (got > ulen - done || (got && fwrite(out, 1, got, t) != got)) {
            bad = got > ulen - done ? 1 : 2;
            break;
        }
        done += got;
    }
    int trailing = z.avail_in != 0 || (rc == Z_STREAM_END && fgetc(f) != EOF);
    inflateEnd(&z);
    free(in);
    free(out);
    if (bad == 2 || fflush(t) != 0) {
        LIMIT(c, "cannot unpack it into a temporary file: %s", strerror(errno));
        fclose(t);
        return NULL;
    }
    if (bad || done != ulen || trailing) {
        BAD(c, "its gzip wrapper is not one gzip member that unpacks to the %llu bytes it states", (ull)ulen);
        fclose(t);
        return NULL;
    }
    rewind(t);
    return t;
}

int fst_check(const char *path, char *why, size_t whylen)
{
    ck_t c;
    memset(&c, 0, sizeof c);
    c.why = why;
    c.whylen = whylen;
    if (why && whylen)
        why[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) {
        LIMIT(&c, "cannot open it: %s", strerror(errno));
        return c.status;
    }
    FILE *inner = NULL;
    off_t size = -1;
    if (fseeko(f, 0, SEEK_END) == 0)
        size = ftello(f);
    if (size < 0 || fseeko(f, 0, SEEK_SET) != 0) {
        LIMIT(&c, "cannot read it");
        goto out;
    }
    int first = fgetc(f);
    if (first == EOF) {
        BAD(&c, "it is empty");
        goto out;
    }
    rewind(f);
    c.f = f;
    c.size = (uint64_t)size;
    if (first == FST_BL_ZWRAPPER) {
        inner = unwrap(&c, f, (uint64_t)size);
        if (!inner)
            goto out;
        off_t isize = -1;
        if (fseeko(inner, 0, SEEK_END) == 0)
            isize = ftello(inner);
        if (isize < 0) {
            LIMIT(&c, "cannot read the temporary file it was unpacked into");
            goto out;
        }
        c.f = inner;
        c.size = (uint64_t)isize;
    }
    check_all(&c, path);
out:
    if (inner)
        fclose(inner);
    fclose(f);
    free(c.blk);
    free(c.len);
    free(c.kind);
    free(c.rd_off);
    free(c.rd_len);
    return c.status;
}
