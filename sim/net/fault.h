/* Seeded faults on a link, one decision per packet and direction.
 *
 * A fault option string (`--fault`) is a comma-separated list of key=value:
 *   loss=P       each packet is lost with probability P (0 <= P <= 1)
 *   dup=P        ... delivered twice
 *   reorder=P    ... held back by reorder_ns, so later ones overtake it
 *   corrupt=P    ... has corrupt_bits distinct bits flipped (the receiver's
 *                CRC-32 catches up to 3 flipped bits in a packet of up to
 *                about 11 KiB, and a burst of up to 32 bits, always; any
 *                other pattern except with a probability of about 2^-32)
 *   reorder_ns=D the extra delay of a reordered packet (default 500)
 *   corrupt_bits=N bits flipped in a corrupted packet (1..16, default 1)
 *   drop=DIR:K   the K-th packet (counting from 1) sent in direction DIR,
 *                fwd (initiator to target) or back, is lost; repeatable
 *   seed=N       the seed (default 1)
 * A probability applies to both directions; fwd.KEY / back.KEY sets one.
 * Every direction draws from its own generator, seeded from the seed and
 * the direction, a fixed number of draws per packet: the same seed and the
 * same traffic give the same faults, bit for bit. */
#ifndef UB_FAULT_H
#define UB_FAULT_H

#include <stddef.h>
#include <stdint.h>

enum { FAULT_FWD = 0, FAULT_BACK = 1 };

#define FAULT_MAX_DROPS 64
#define FAULT_MAX_FLIPS 16

typedef struct {
    double loss, dup, reorder, corrupt;
} fault_rates_t;

typedef struct {
    fault_rates_t dir[2];
    double reorder_ns;
    int corrupt_bits;
    uint64_t seed;
    int n_drop;
    struct {
        int dir;
        uint64_t k;
    } drop[FAULT_MAX_DROPS];
} fault_spec_t;

/* No faults, the defaults of the other keys. */
void fault_spec_init(fault_spec_t *s);
/* Parses an option string into s (on top of what it holds). Returns 0, or -1
 * with a message naming the key and what was expected. */
int fault_parse(const char *text, fault_spec_t *s, char *err, int errlen);
/* Whether any fault is asked for. */
int fault_any(const fault_spec_t *s);

/* One direction of a link: its generator and counts. */
typedef struct {
    int dir;
    uint64_t rng;
    uint64_t sent;  /* packets decided on */
    uint64_t lost, dropped, duplicated, reordered, corrupted;
} fault_link_t;

/* What happens to one packet. */
typedef struct {
    int lose;       /* it never arrives (by chance or by the drop list) */
    int dup;        /* a second, identical copy follows it */
    int reorder;    /* it is held back by reorder_ns */
    int n_flip;     /* distinct bits to flip: flip[i] < the packet's bits */
    uint64_t flip[FAULT_MAX_FLIPS];
} fault_action_t;

void fault_link_init(fault_link_t *l, const fault_spec_t *s, int dir);
/* Decides on the next packet of `bytes` bytes in l's direction. */
void fault_decide(fault_link_t *l, const fault_spec_t *s, size_t bytes, fault_action_t *a);
/* Flips the bits a decision named. */
void fault_apply_flips(uint8_t *bytes, const fault_action_t *a);

#endif
