/* A node's memory: bytes that segments are registered in.
 *
 * A segment is a range [base, base + len) registered with a token value and
 * an access right (read; write, which implies read; atomic, which implies
 * both). A remote access names an address, a length and the token it was
 * given when it imported the segment; it is allowed only when the whole
 * range lies in one segment, the token is that segment's and the segment
 * grants the access. A refused access touches no byte.
 *
 * The bytes are allocated zeroed and lazily (the operating system maps a
 * page when it is first written), so a large memory costs only what is
 * used. */
#ifndef UB_NODE_MEM_H
#define UB_NODE_MEM_H

#include <stdint.h>

#define MEM_MAX_SEGS 64

typedef enum { SEG_READ = 1, SEG_WRITE = 2, SEG_ATOMIC = 4 } seg_access_t;

typedef enum {
    MEM_OK = 0,
    MEM_OUT_OF_SEGMENT, /* no segment holds the whole range */
    MEM_BAD_TOKEN,      /* the range is in a segment with another token */
    MEM_NO_ACCESS,      /* the segment does not grant the access */
} mem_verdict_t;

typedef struct {
    uint64_t base, len;
    uint32_t token;
    int access;         /* seg_access_t bits, with what they imply */
} seg_t;

typedef struct {
    uint8_t *bytes;
    uint64_t size;
    seg_t seg[MEM_MAX_SEGS];
    int n_seg;
} node_mem_t;

/* size bytes, all zero. Returns 0, or -1 when they cannot be had. */
int node_mem_init(node_mem_t *m, uint64_t size);
/* Gives its bytes back (the memory now lives elsewhere: the caller puts
 * the new bytes in m->bytes); size and segments stay. */
void node_mem_drop_bytes(node_mem_t *m);
void node_mem_free(node_mem_t *m);
/* Registers [base, base + len) with `token` and `access` (seg_access_t
 * bits). Returns the segment's index, or -1 with a message (outside the
 * memory, empty, overlapping another segment, no access, too many). */
int node_mem_register(node_mem_t *m, uint64_t base, uint64_t len, uint32_t token, int access,
                      char *err, int errlen);
/* Whether a remote access of `access` to [addr, addr + len) with `token`
 * is allowed. */
mem_verdict_t node_mem_check(const node_mem_t *m, uint32_t token, uint64_t addr, uint64_t len,
                             int access);
const char *mem_verdict_name(mem_verdict_t v);
/* Local copies (the caller has checked the range lies in the memory). */
void node_mem_read(const node_mem_t *m, uint64_t addr, void *dst, uint64_t len);
void node_mem_write(node_mem_t *m, uint64_t addr, const void *src, uint64_t len);

#endif
