#include "payload.h"

#include <stdlib.h>
#include <string.h>

void payload_init(payload_pool_t *p) { memset(p, 0, sizeof(*p)); }

void payload_free_all(payload_pool_t *p)
{
    for (uint32_t i = 0; i < p->n; i++)
        free(p->bytes[i]);
    free(p->bytes);
    free(p->len);
    free(p->refs);
    free(p->free);
    memset(p, 0, sizeof(*p));
}

static int grow(payload_pool_t *p)
{
    uint32_t ncap = p->cap ? p->cap * 2 : 64;
    uint8_t **b = realloc(p->bytes, ncap * sizeof(*b));
    if (!b)
        return -1;
    p->bytes = b;
    uint32_t *l = realloc(p->len, ncap * sizeof(*l));
    if (!l)
        return -1;
    p->len = l;
    uint32_t *r = realloc(p->refs, ncap * sizeof(*r));
    if (!r)
        return -1;
    p->refs = r;
    uint32_t *f = realloc(p->free, ncap * sizeof(*f));
    if (!f)
        return -1;
    p->free = f;
    p->cap = ncap;
    return 0;
}

uint32_t payload_new(payload_pool_t *p, const void *src, uint32_t len)
{
    uint32_t i;
    if (p->n_free) {
        i = p->free[--p->n_free];
        if (p->len[i] < len) { /* reused storage, grown to fit */
            uint8_t *nb = realloc(p->bytes[i], len ? len : 1);
            if (!nb) {
                p->free[p->n_free++] = i;
                return 0;
            }
            p->bytes[i] = nb;
        }
    } else {
        if (p->n == p->cap && grow(p))
            return 0;
        i = p->n;
        p->bytes[i] = malloc(len ? len : 1);
        if (!p->bytes[i])
            return 0;
        p->n++;
    }
    if (len)
        memcpy(p->bytes[i], src, len);
    p->len[i] = len;
    p->refs[i] = 1;
    p->live++;
    return i + 1;
}

const uint8_t *payload_bytes(const payload_pool_t *p, uint32_t h) { return p->bytes[h - 1]; }
uint32_t payload_len(const payload_pool_t *p, uint32_t h) { return p->len[h - 1]; }
void payload_ref(payload_pool_t *p, uint32_t h)
{
    if (h)
        p->refs[h - 1]++;
}

void payload_release(payload_pool_t *p, uint32_t h)
{
    if (!h || --p->refs[h - 1])
        return;
    p->free[p->n_free++] = h - 1;
    p->live--;
}
