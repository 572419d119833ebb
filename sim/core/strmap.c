/* A map from strings to integers: see strmap.h. */
#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t slot_of(const strmap_t *m, const char *key)
{
    size_t mask = m->cap - 1, i = (size_t)hash_str(key) & mask;
    while (m->key[i] && strcmp(m->key[i], key) != 0)
        i = (i + 1) & mask;
    return i;
}

long strmap_get(const strmap_t *m, const char *key, long absent)
{
    if (!m->cap)
        return absent;
    size_t i = slot_of(m, key);
    return m->key[i] ? m->val[i] : absent;
}

int strmap_put(strmap_t *m, const char *key, long val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        strmap_t nm = {calloc(ncap, sizeof(char *)), calloc(ncap, sizeof(long)), ncap, m->n};
        if (!nm.key || !nm.val) {
            free(nm.key);
            free(nm.val);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (m->key[i]) {
                size_t j = slot_of(&nm, m->key[i]);
                nm.key[j] = m->key[i];
                nm.val[j] = m->val[i];
            }
        }
        free(m->key);
        free(m->val);
        *m = nm;
    }
    size_t i = slot_of(m, key);
    if (!m->key[i]) {
        m->key[i] = strdup(key);
        if (!m->key[i])
            return -1;
        m->n++;
    }
    m->val[i] = val;
    return 0;
}

void strmap_free(strmap_t *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->key[i]);
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
    m->cap = m->n = 0;
}
