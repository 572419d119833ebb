#include "hist.h"

#include <stdlib.h>
#include <string.h>

void hist_init(hist_t *h)
{
    memset(h, 0, sizeof(*h));
    h->min = TICK_NEVER;
    h->max = INT64_MIN;
}

void hist_free(hist_t *h)
{
    free(h->key);
    free(h->cnt);
    h->key = NULL;
    h->cnt = NULL;
    h->cap = h->used = 0;
}

static uint64_t slot_of(tick_t v, int64_t cap)
{
    uint64_t x = (uint64_t)v * 0x9e3779b97f4a7c15ull;
    return (x ^ (x >> 29)) & (uint64_t)(cap - 1);
}

static int insert(tick_t *key, int64_t *cnt, int64_t cap, tick_t v, int64_t n)
{
    for (uint64_t i = slot_of(v, cap);; i = (i + 1) & (uint64_t)(cap - 1)) {
        if (cnt[i] == 0) {
            key[i] = v;
            cnt[i] = n;
            return 1; /* new */
        }
        if (key[i] == v) {
            cnt[i] += n;
            return 0;
        }
    }
}

int hist_add(hist_t *h, tick_t v)
{
    if ((h->used + 1) * 2 > h->cap) {
        int64_t ncap = h->cap ? h->cap * 2 : 64;
        tick_t *nk = malloc((size_t)ncap * sizeof(tick_t));
        int64_t *nc = calloc((size_t)ncap, sizeof(int64_t));
        if (!nk || !nc) {
            free(nk);
            free(nc);
            return -1;
        }
        for (int64_t i = 0; i < h->cap; i++)
            if (h->cnt[i])
                insert(nk, nc, ncap, h->key[i], h->cnt[i]);
        free(h->key);
        free(h->cnt);
        h->key = nk;
        h->cnt = nc;
        h->cap = ncap;
    }
    h->used += insert(h->key, h->cnt, h->cap, v, 1);
    h->total++;
    if (v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
    return 0;
}

typedef struct {
    tick_t v;
    int64_t n;
} pair_t;

static int cmp_pair(const void *a, const void *b)
{
    tick_t x = ((const pair_t *)a)->v, y = ((const pair_t *)b)->v;
    return (x > y) - (x < y);
}

tick_t hist_percentile(const hist_t *h, int pct)
{
    if (h->total == 0)
        return 0;
    int64_t rank = (h->total * pct + 99) / 100; /* nearest rank */
    if (rank < 1)
        rank = 1;
    pair_t *v = malloc((size_t)h->used * sizeof(pair_t));
    if (!v)
        return h->max;
    int64_t n = 0;
    for (int64_t i = 0; i < h->cap; i++)
        if (h->cnt[i])
            v[n++] = (pair_t){h->key[i], h->cnt[i]};
    qsort(v, (size_t)n, sizeof(pair_t), cmp_pair);
    tick_t r = h->max;
    int64_t seen = 0;
    for (int64_t i = 0; i < n; i++) {
        seen += v[i].n;
        if (seen >= rank) {
            r = v[i].v;
            break;
        }
    }
    free(v);
    return r;
}
