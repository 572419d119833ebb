/* C model and block class of the test-only block wide_port_test: see
 * wide_port_test.h. */
#include "wide_port_test.h"

#include <string.h>

#define W 130
#define NW PORT_WORDS(W)

static int bit(const uint64_t *v, int i) { return (int)((v[i / 64] >> (i % 64)) & 1u); }

void wide_port_test_reset(wide_port_test_state_t *s) { memset(s, 0, sizeof *s); }

void wide_port_test_step(wide_port_test_state_t *s, const wide_port_test_in_t *in,
                         wide_port_test_out_t *out)
{
    uint64_t acc[NW] = {0};
    const uint64_t top = (UINT64_C(1) << (W % 64)) - 1;
    if (in->valid & 1u) {
        int sh = in->shift & 0x7F;
        for (int i = 0; i < W; i++)  /* rotl: bit i comes from bit i - sh */
            if (bit(s->acc, (i - sh + W) % W))
                acc[i / 64] |= UINT64_C(1) << (i % 64);
        for (int k = 0; k < NW; k++)
            acc[k] ^= in->data[k];
        acc[NW - 1] &= top;
    } else {
        memcpy(acc, s->acc, sizeof acc);
    }
    /* mix and parity from the registers before the edge */
    uint64_t hi8 = ((s->acc[1] >> 58) & 0x3Fu) | ((s->acc[2] & 3u) << 6);
    s->mix[0] = s->acc[0] + in->data[1];
    s->mix[1] = (hi8 ^ in->data[0]) & 0xFFu;
    int p = 0;
    for (int i = 0; i < W; i++)
        p ^= bit(s->acc, i);
    s->parity = (uint8_t)p;
    memcpy(s->acc, acc, sizeof acc);

    memcpy(out->acc, s->acc, sizeof out->acc);
    memcpy(out->mix, s->mix, sizeof out->mix);
    out->parity = s->parity;
    out->low = s->acc[0];
}

#define BLOCK_NAME wide_port_test
BLOCK_CLASS(WIDE_PORT_TEST_PORTS);
#undef BLOCK_NAME
