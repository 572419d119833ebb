/* Payloads: the bytes a message carries, held outside it (a message holds a
 * handle, msg_t.data), counted by reference so that a duplicated packet
 * shares its bytes and every part that drops a message gives them back.
 * Handles are small integers; storage is reused, so the bytes in flight
 * cost what is in flight, not what has ever been sent. */
#ifndef UB_PAYLOAD_H
#define UB_PAYLOAD_H

#include <stdint.h>

typedef struct {
    uint8_t **bytes;   /* per handle - 1 */
    uint32_t *len, *refs;
    uint32_t *free;    /* handles - 1 not in use */
    uint32_t n, cap, n_free;
    uint64_t live;     /* handles in use */
} payload_pool_t;

void payload_init(payload_pool_t *p);
void payload_free_all(payload_pool_t *p);
/* A new payload holding a copy of len bytes (1 reference); 0 when out of
 * memory. */
uint32_t payload_new(payload_pool_t *p, const void *src, uint32_t len);
const uint8_t *payload_bytes(const payload_pool_t *p, uint32_t h);
uint32_t payload_len(const payload_pool_t *p, uint32_t h);
void payload_ref(payload_pool_t *p, uint32_t h);
/* Drops a reference (h may be 0: nothing). */
void payload_release(payload_pool_t *p, uint32_t h);

#endif
