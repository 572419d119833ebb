#include "fault.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "topo.h"

_Static_assert(FAULT_LINK_LEN == TOPO_NAME_LEN, "a drop= link name holds any link's name");
_Static_assert(FAULT_MAX_DROPS <= 64, "a link's drop entries are the bits of a uint64_t");

void fault_spec_init(fault_spec_t *s)
{
    memset(s, 0, sizeof(*s));
    s->reorder_ns = 500;
    s->corrupt_bits = 1;
    s->seed = 1;
}

int fault_any(const fault_spec_t *s)
{
    for (int d = 0; d < 2; d++) {
        const fault_rates_t *r = &s->dir[d];
        if (r->loss > 0 || r->dup > 0 || r->reorder > 0 || r->corrupt > 0)
            return 1;
    }
    return s->n_drop > 0;
}

/* ---- parsing ---- */

static int parse_prob(const char *key, const char *v, double *out, char *err, int errlen)
{
    double p;
    if (text_parse_real(v, &p) || p < 0 || p > 1) {
        snprintf(err, (size_t)errlen,
                 "--fault: %s=%s: expected a probability from 0 to 1 (for example 1e-3)", key, v);
        return -1;
    }
    *out = p;
    return 0;
}

static int parse_u64(const char *key, const char *v, uint64_t lo, uint64_t hi, uint64_t *out,
                     char *err, int errlen)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno || *v == '-' || x < lo || x > hi) {
        snprintf(err, (size_t)errlen, "--fault: %s=%s: expected a whole number from %llu to %llu",
                 key, v, (unsigned long long)lo, (unsigned long long)hi);
        return -1;
    }
    *out = x;
    return 0;
}

static int parse_pair(fault_spec_t *s, const char *key, const char *v, char *err, int errlen)
{
    /* fwd.KEY / back.KEY: one direction */
    int d0 = 0, d1 = 1;
    const char *k = key;
    if (!strncmp(key, "fwd.", 4)) {
        d1 = 0;
        k = key + 4;
    } else if (!strncmp(key, "back.", 5)) {
        d0 = 1;
        k = key + 5;
    }
    double p;
    if (!strcmp(k, "loss") || !strcmp(k, "dup") || !strcmp(k, "reorder") ||
        !strcmp(k, "corrupt")) {
        if (parse_prob(key, v, &p, err, errlen))
            return -1;
        for (int d = d0; d <= d1; d++) {
            fault_rates_t *r = &s->dir[d];
            *(!strcmp(k, "loss")  ? &r->loss
              : !strcmp(k, "dup") ? &r->dup
              : !strcmp(k, "reorder") ? &r->reorder
                                      : &r->corrupt) = p;
        }
        return 0;
    }
    if (k != key) {
        snprintf(err, (size_t)errlen,
                 "--fault: %s: only loss, dup, reorder and corrupt can be set per direction", key);
        return -1;
    }
    uint64_t x;
    if (!strcmp(key, "seed"))
        return parse_u64(key, v, 0, UINT64_MAX, &s->seed, err, errlen);
    if (!strcmp(key, "corrupt_bits")) {
        if (parse_u64(key, v, 1, FAULT_MAX_FLIPS, &x, err, errlen))
            return -1;
        s->corrupt_bits = (int)x;
        return 0;
    }
    if (!strcmp(key, "reorder_ns")) {
        double ns;
        if (text_parse_real(v, &ns) || ns < 0 || ns > 1e12) {
            snprintf(err, (size_t)errlen,
                     "--fault: reorder_ns=%s: expected a delay in ns from 0 to 1e12", v);
            return -1;
        }
        s->reorder_ns = ns;
        return 0;
    }
    if (!strcmp(key, "drop")) {
        /* [LINK.]DIR:K: K follows the last ':', DIR the last '.' before it
         * (a link's name has no '.') */
        const char *colon = strrchr(v, ':'), *dot = NULL;
        for (const char *c = v; colon && c < colon; c++)
            if (*c == '.')
                dot = c;
        const char *d = dot ? dot + 1 : v;
        int dir = -1;
        if (colon && colon - d == 3 && !strncmp(d, "fwd", 3))
            dir = FAULT_FWD;
        else if (colon && colon - d == 4 && !strncmp(d, "back", 4))
            dir = FAULT_BACK;
        if (dir < 0 || (dot && (dot == v || dot - v >= FAULT_LINK_LEN))) {
            snprintf(err, (size_t)errlen,
                     "--fault: drop=%s: expected [LINK.]DIR:K with DIR fwd or back and LINK the name "
                     "of a link of the topology (for example drop=fwd:5, drop=trunk0.back:2)",
                     v);
            return -1;
        }
        if (parse_u64("drop", colon + 1, 1, UINT64_MAX, &x, err, errlen)) {
            snprintf(err, (size_t)errlen,
                     "--fault: drop=%s: expected [LINK.]DIR:K with K a whole number from 1 to %llu "
                     "(the K-th packet, counted from 1)",
                     v, (unsigned long long)UINT64_MAX);
            return -1;
        }
        if (s->n_drop == FAULT_MAX_DROPS) {
            snprintf(err, (size_t)errlen, "--fault: more than %d drop= entries", FAULT_MAX_DROPS);
            return -1;
        }
        memset(s->drop[s->n_drop].link, 0, FAULT_LINK_LEN);
        if (dot)
            memcpy(s->drop[s->n_drop].link, v, (size_t)(dot - v));
        s->drop[s->n_drop].dir = dir;
        s->drop[s->n_drop++].k = x;
        return 0;
    }
    snprintf(err, (size_t)errlen,
             "--fault: unknown key '%s' (expected loss, dup, reorder, corrupt, reorder_ns, "
             "corrupt_bits, drop, seed, or fwd./back. before a probability)",
             key);
    return -1;
}

/* Whether two items set the same thing: one key twice (drop= only with the
 * same value: several drops are several packets), or a probability for
 * both directions and for one of them (which would win by their order). */
static int keys_clash(const char *a, const char *va, const char *b, const char *vb)
{
    if (!strcmp(a, "drop") || !strcmp(b, "drop"))
        return !strcmp(a, b) && !strcmp(va, vb);
    if (!strcmp(a, b))
        return 1;
    for (int k = 0; k < 2; k++) {
        const char *dir = strchr(k ? b : a, '.'), *plain = k ? a : b;
        if (dir && !strchr(plain, '.') && !strcmp(dir + 1, plain))
            return 1;
    }
    return 0;
}

int fault_parse(const char *text, fault_spec_t *s, char *err, int errlen)
{
    size_t n = strlen(text);
    char *buf = malloc(n + 1);
    char **items = malloc((n / 2 + 1) * sizeof *items); /* (an item and its comma: 2 characters) */
    if (!buf || !items) {
        free(buf);
        free(items);
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    int k = text_list_split(text, buf, n + 1, items, (int)(n / 2 + 1));
    int rc = 0;
    if (k < 0) {
        snprintf(err, (size_t)errlen, "--fault: '%s': expected KEY=VALUE[,KEY=VALUE...], got %s",
                 text, text_list_error(k));
        rc = -1;
    }
    for (int i = 0; i < k && !rc; i++) {
        char *item = items[i];
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1]) {
            snprintf(err, (size_t)errlen, "--fault: '%s': expected KEY=VALUE", item);
            rc = -1;
            break;
        }
        *eq = 0;
        for (int j = 0; j < i; j++) { /* (an earlier item, parsed: its '=' already cut) */
            const char *v = items[j] + strlen(items[j]) + 1;
            if (keys_clash(items[j], v, item, eq + 1)) {
                snprintf(err, (size_t)errlen, "--fault: %s=%s and %s=%s: the same setting twice", items[j],
                         v, item, eq + 1);
                rc = -1;
                break;
            }
        }
        if (!rc)
            rc = parse_pair(s, item, eq + 1, err, errlen);
    }
    free(buf);
    free(items);
    return rc;
}

/* ---- links ---- */

/* "a, b, c" of t's link names (NULL: the default link's), cut short with
 * "..." to fit len. */
static void link_names(const topo_t *t, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    int n = t ? t->n_links : 1;
    for (int i = 0; i < n; i++) {
        const char *name = t ? t->link[i].name : TOPO_DEFAULT_LINK;
        size_t need = strlen(name) + (i ? 2 : 0);
        if (at + need + 5 > len) { /* (room for ", ..." and the 0) */
            snprintf(buf + at, len - at, "%s...", i ? ", " : "");
            return;
        }
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", name);
    }
}

int fault_check_links(const fault_spec_t *s, const topo_t *t, const char *topo_name, char *err,
                      int errlen)
{
    char names[400];
    for (int i = 0; i < s->n_drop; i++) {
        const char *link = s->drop[i].link, *dir = s->drop[i].dir == FAULT_FWD ? "fwd" : "back";
        unsigned long long k = (unsigned long long)s->drop[i].k;
        if (!link[0]) {
            if (t && t->n_links > 1) {
                link_names(t, names, sizeof names);
                snprintf(err, (size_t)errlen,
                         "--fault: drop=%s:%llu: topology '%s' has %d links: name the one to drop "
                         "on, as drop=LINK.%s:%llu (links: %s)",
                         dir, k, topo_name ? topo_name : "", t->n_links, dir, k, names);
                return -1;
            }
            continue;
        }
        int found = 0;
        for (int l = 0; l < (t ? t->n_links : 1) && !found; l++)
            found = !strcmp(link, t ? t->link[l].name : TOPO_DEFAULT_LINK);
        if (!found) {
            link_names(t, names, sizeof names);
            if (t)
                snprintf(err, (size_t)errlen,
                         "--fault: drop=%s.%s:%llu: topology '%s' has no link '%s' (links: %s)", link,
                         dir, k, topo_name ? topo_name : "", link, names);
            else
                snprintf(err, (size_t)errlen,
                         "--fault: drop=%s.%s:%llu: no link '%s': between two nodes the one "
                         "link is %s (drop=%s:%llu or drop=%s.%s:%llu)",
                         link, dir, k, link, names, dir, k, names, dir, k);
            return -1;
        }
    }
    return 0;
}

/* ---- decisions ---- */

static uint64_t next_u64(uint64_t *x)
{
    /* splitmix64 */
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A uniform draw in [0, 1) with 53 bits. */
static double next_unit(uint64_t *x) { return (double)(next_u64(x) >> 11) * 0x1.0p-53; }

void fault_link_init(fault_link_t *l, const fault_spec_t *s, const topo_t *t, int link, int dir)
{
    memset(l, 0, sizeof(*l));
    l->dir = dir;
    l->link = link;
    /* link 0 adds nothing: the stream a two-node path has always had */
    uint64_t id = (uint64_t)link, mix = link ? next_u64(&id) : 0;
    uint64_t x = s->seed ^ (0xa0761d6478bd642full * (uint64_t)(dir + 1)) ^ mix;
    l->rng = next_u64(&x);
    const char *name = !t ? TOPO_DEFAULT_LINK : link >= 0 && link < t->n_links ? t->link[link].name : "";
    for (int i = 0; i < s->n_drop; i++)
        if (s->drop[i].dir == dir && (!s->drop[i].link[0] || !strcmp(s->drop[i].link, name)))
            l->drops |= 1ull << i;
}

void fault_decide(fault_link_t *l, const fault_spec_t *s, size_t bytes, fault_action_t *a)
{
    memset(a, 0, sizeof(*a));
    const fault_rates_t *r = &s->dir[l->dir];
    uint64_t k = ++l->sent;
    /* four draws for every packet, whatever the outcome */
    double u_loss = next_unit(&l->rng), u_dup = next_unit(&l->rng);
    double u_reorder = next_unit(&l->rng), u_corrupt = next_unit(&l->rng);
    for (int i = 0; i < s->n_drop; i++) {
        if ((l->drops >> i & 1) && s->drop[i].k == k) {
            a->lose = 1;
            l->dropped++;
            return;
        }
    }
    if (u_loss < r->loss) {
        a->lose = 1;
        l->lost++;
        return;
    }
    if (u_dup < r->dup) {
        a->dup = 1;
        l->duplicated++;
    }
    if (u_reorder < r->reorder) {
        a->reorder = 1;
        l->reordered++;
    }
    if (u_corrupt < r->corrupt && bytes > 0) {
        /* the flipped bits come from a generator of this packet's own, so
         * the main sequence stays four draws per packet */
        uint64_t x = l->rng ^ k, bits = (uint64_t)bytes * 8;
        int want = s->corrupt_bits < FAULT_MAX_FLIPS ? s->corrupt_bits : FAULT_MAX_FLIPS;
        if ((uint64_t)want > bits)
            want = (int)bits;
        /* distinct bits: two flips of one bit would undo each other */
        while (a->n_flip < want) {
            uint64_t b = next_u64(&x) % bits;
            int seen = 0;
            for (int i = 0; i < a->n_flip; i++)
                seen |= a->flip[i] == b;
            if (!seen)
                a->flip[a->n_flip++] = b;
        }
        l->corrupted++;
    }
}

void fault_apply_flips(uint8_t *bytes, const fault_action_t *a)
{
    for (int i = 0; i < a->n_flip; i++)
        bytes[a->flip[i] / 8] ^= (uint8_t)(1u << (a->flip[i] % 8));
}
