/* Seeded faults on the links, one decision per packet, link and direction.
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
 *                fwd (initiator to target) or back, on the one link of a
 *                two-node path is lost; repeatable
 *   drop=LINK.DIR:K  the same on link LINK of a topology (its name in the
 *                topology file) only; repeatable
 *   seed=N       the seed (default 1)
 * A probability applies to both directions; fwd.KEY / back.KEY sets one.
 *
 * On a topology a path crosses several links. The probabilities (and
 * reorder_ns, corrupt_bits) apply to every link and direction alike, each
 * link and direction deciding on its own packets independently of the
 * others; a drop= names one link and direction and counts that link's
 * packets in that direction (the direction is the path's: fwd is the way
 * from the initiator to the target, in incast from a sender to the
 * target); seed= seeds them all. A plain drop=DIR:K is refused on a
 * topology of more than one link (fault_check_links).
 *
 * Every link and direction draws from its own generator (splitmix64),
 * making a fixed number of draws per packet: the same seed and the same
 * traffic give the same faults, bit for bit. Its seed comes from the seed,
 * the link and the direction:
 *   state = splitmix64(seed ^ 0xa0761d6478bd642f * (dir + 1) ^ mix(link))
 * (splitmix64(v): the first output of a splitmix64 generator started at
 * v), where dir is 0 (fwd) or 1 (back), link is the link's index in its
 * topology (the order of the [link.NAME] sections of a topology file, the
 * order of topo_add_link; a link's name plays no part) and mix(0) = 0,
 * mix(L) = splitmix64(L) otherwise. Link 0 therefore draws exactly what the
 * one link of a two-node path (no topology, or the default topology) has
 * always drawn, and every other link a well-mixed stream of its own. */
#ifndef UB_FAULT_H
#define UB_FAULT_H

#include <stddef.h>
#include <stdint.h>

enum { FAULT_FWD = 0, FAULT_BACK = 1 };

#define FAULT_MAX_DROPS 64
#define FAULT_MAX_FLIPS 16
#define FAULT_LINK_LEN 32 /* a link's name, with its 0 (TOPO_NAME_LEN) */

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
        char link[FAULT_LINK_LEN]; /* "": the one link of a two-node path */
    } drop[FAULT_MAX_DROPS];
} fault_spec_t;

/* No faults, the defaults of the other keys. */
void fault_spec_init(fault_spec_t *s);
/* Parses an option string into s (on top of what it holds). Returns 0, or -1
 * with a message naming the key and what was expected. */
int fault_parse(const char *text, fault_spec_t *s, char *err, int errlen);
/* Whether any fault is asked for. */
int fault_any(const fault_spec_t *s);

struct topo; /* topo.h */
/* Checks the drop list against the links of topology t (NULL: a two-node
 * path without one, whose one link is named TOPO_DEFAULT_LINK; `topo_name`
 * names t in messages): a plain drop=DIR:K needs a topology of one link, a
 * named one a link of that name. Returns 0, or -1 with a message that
 * lists the link names. */
int fault_check_links(const fault_spec_t *s, const struct topo *t, const char *topo_name, char *err,
                      int errlen);

/* One direction of a link: its generator and counts. */
typedef struct {
    int dir;
    int link;       /* its index in the topology (0 without one) */
    uint64_t drops; /* the drop list's entries that name it (bit i: drop[i]) */
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

/* Direction dir of link `link` of topology t (t NULL, link 0: the one link
 * of a two-node path). A plain drop= entry applies to any link (the
 * caller has refused it on a topology of several, fault_check_links). */
void fault_link_init(fault_link_t *l, const fault_spec_t *s, const struct topo *t, int link,
                     int dir);
/* Decides on the next packet of `bytes` bytes in l's direction. */
void fault_decide(fault_link_t *l, const fault_spec_t *s, size_t bytes, fault_action_t *a);
/* Flips the bits a decision named. */
void fault_apply_flips(uint8_t *bytes, const fault_action_t *a);

#endif
