/* A map from strings to integers (open addressing, FNV-1a): the index of a
 * named signal in a waveform being written, of a VCD identifier code while
 * one is read, of a port by its name. The map keeps its own copies of the
 * keys. */
#ifndef UB_STRMAP_H
#define UB_STRMAP_H

#include <stddef.h>

typedef struct {
    char **key;
    long *val;
    size_t cap, n; /* cap: 0 or a power of two, at least twice n */
} strmap_t;

#define STRMAP_INIT {NULL, NULL, 0, 0}

/* The value of key, or `absent`. */
long strmap_get(const strmap_t *m, const char *key, long absent);
/* Sets key to val (adding it if new). Returns 0, or -1 out of memory. */
int strmap_put(strmap_t *m, const char *key, long val);
/* Empties the map and frees what it holds. */
void strmap_free(strmap_t *m);

#endif
