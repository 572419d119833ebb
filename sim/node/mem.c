#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "mem.h"

#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int node_mem_init(node_mem_t *m, uint64_t size)
{
    memset(m, 0, sizeof(*m));
    if (size == 0 || size > (uint64_t)SIZE_MAX)
        return -1;
    /* pages of zeros the system makes as they are first touched: a node's
     * memory costs nothing where nothing is written (a run that makes
     * several simulations would otherwise clear each one's anew); from the
     * heap under AddressSanitizer, which then guards its ends */
#ifdef __SANITIZE_ADDRESS__
    void *p = calloc(1, (size_t)size);
    if (!p)
        return -1;
#else
    void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
#endif
    m->bytes = p;
    m->size = size;
    return 0;
}

void node_mem_drop_bytes(node_mem_t *m)
{
#ifdef __SANITIZE_ADDRESS__
    free(m->bytes);
#else
    if (m->bytes)
        munmap(m->bytes, (size_t)m->size);
#endif
    m->bytes = NULL;
}

void node_mem_free(node_mem_t *m)
{
    node_mem_drop_bytes(m);
    m->bytes = NULL;
    m->size = 0;
    m->n_seg = 0;
}

/* Write implies read; atomic implies write and read. */
static int implied(int access)
{
    if (access & SEG_ATOMIC)
        access |= SEG_WRITE;
    if (access & SEG_WRITE)
        access |= SEG_READ;
    return access;
}

int node_mem_register(node_mem_t *m, uint64_t base, uint64_t len, uint32_t token, int access,
                      char *err, int errlen)
{
    if (len == 0 || base >= m->size || len > m->size - base) {
        snprintf(err, (size_t)errlen,
                 "segment [0x%llx, +%llu) is empty or outside the node's %llu bytes of memory",
                 (unsigned long long)base, (unsigned long long)len, (unsigned long long)m->size);
        return -1;
    }
    if (!(access & (SEG_READ | SEG_WRITE | SEG_ATOMIC))) {
        snprintf(err, (size_t)errlen, "segment at 0x%llx grants no access",
                 (unsigned long long)base);
        return -1;
    }
    for (int i = 0; i < m->n_seg; i++) {
        const seg_t *s = &m->seg[i];
        if (base < s->base + s->len && s->base < base + len) {
            snprintf(err, (size_t)errlen,
                     "segment [0x%llx, +%llu) overlaps segment %d [0x%llx, +%llu)",
                     (unsigned long long)base, (unsigned long long)len, i,
                     (unsigned long long)s->base, (unsigned long long)s->len);
            return -1;
        }
    }
    if (m->n_seg == MEM_MAX_SEGS) {
        snprintf(err, (size_t)errlen, "more than %d segments", MEM_MAX_SEGS);
        return -1;
    }
    m->seg[m->n_seg] = (seg_t){base, len, token, implied(access)};
    return m->n_seg++;
}

mem_verdict_t node_mem_check(const node_mem_t *m, uint32_t token, uint64_t addr, uint64_t len,
                             int access)
{
    for (int i = 0; i < m->n_seg; i++) {
        const seg_t *s = &m->seg[i];
        if (addr < s->base || addr - s->base >= s->len)
            continue; /* the first byte is not in this one */
        if (s->token != token)
            return MEM_BAD_TOKEN;
        if (len > s->len - (addr - s->base))
            return MEM_OUT_OF_SEGMENT;
        if ((implied(access) & s->access) != implied(access))
            return MEM_NO_ACCESS;
        return MEM_OK;
    }
    return MEM_OUT_OF_SEGMENT;
}

const char *mem_verdict_name(mem_verdict_t v)
{
    switch (v) {
    case MEM_OK:
        return "ok";
    case MEM_OUT_OF_SEGMENT:
        return "out of segment";
    case MEM_BAD_TOKEN:
        return "bad token";
    case MEM_NO_ACCESS:
        return "no access";
    }
    return "?";
}

void node_mem_read(const node_mem_t *m, uint64_t addr, void *dst, uint64_t len)
{
    if (len)
        memcpy(dst, m->bytes + addr, (size_t)len);
}

void node_mem_write(node_mem_t *m, uint64_t addr, const void *src, uint64_t len)
{
    if (len)
        memcpy(m->bytes + addr, src, (size_t)len);
}
