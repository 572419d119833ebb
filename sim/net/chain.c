/* A chain of parts running ahead as one component (see parts.h). */
#include <stdio.h>
#include <string.h>

#include "parts.h"

/* When the link takes what reaches it at t. */
static tick_t link_take(link_kind_t kind, const void *part, tick_t t)
{
    switch (kind) {
    case LINK_WIRE:
        return wire_take(part, t);
    case LINK_NIC:
        return nic_port_take(part, t);
    case LINK_DELAY:
        break; /* a delay is always ready */
    }
    return t;
}

/* Passes a request that reaches the link at t; returns when it leaves, or
 * TICK_NEVER when the link lost or refused it. */
static tick_t link_pass(link_kind_t kind, void *part, msg_t *m, tick_t t)
{
    switch (kind) {
    case LINK_DELAY:
        return delay_pass(part, m, t);
    case LINK_WIRE:
        return wire_pass(part, m, t);
    case LINK_NIC:
        return nic_port_pass(part, m, t);
    }
    return t;
}

static int run_copy(chain_comp_t *ch, msg_t *m, int i, tick_t t, tick_t now);

/* Passes m, arriving at t, from link `from` on, and hands it on at the end
 * (a wire that duplicates it: see run_copy). Returns -1 after a failure. */
static inline int run_links(chain_comp_t *ch, msg_t *m, int from, tick_t t, tick_t now)
{
    for (int i = from; i < ch->n && t != TICK_NEVER; i++) {
        t = link_pass(ch->kind[i], ch->part[i], m, t);
        if (ch->kind[i] == LINK_WIRE && ((wire_comp_t *)ch->part[i])->copy_at >= 0)
            return run_copy(ch, m, i, t, now);
    }
    if (t == TICK_NEVER)
        return 0; /* lost or refused on the way, and counted there */
    m->t = t;
    if (chan_push(ch->out, m, now)) {
        kernel_fail(ch->c.k, "internal: %s: no room in '%s'", ch->c.name, ch->out->name);
        return -1;
    }
    return 0;
}

/* Wire i duplicated m (which left it at t): the original goes on from the
 * next link, then its copy. */
static __attribute__((noinline)) int run_copy(chain_comp_t *ch, msg_t *m, int i, tick_t t,
                                              tick_t now)
{
    wire_comp_t *w = ch->part[i];
    msg_t copy = *m;
    copy.flags |= MSG_COPY;
    kernel_copy(ch->c.k, &copy);
    tick_t at = w->copy_at;
    w->copy_at = -1;
    return run_links(ch, m, i + 1, t, now) || run_links(ch, &copy, i + 1, at, now);
}

static tick_t chain_commit(comp_t *c, tick_t now)
{
    chain_comp_t *ch = (chain_comp_t *)c;
    const msg_t *h;
    while ((h = chan_first(ch->in)) != NULL) {
        /* taken when the first link takes it (the producer's probe of the
         * hand-over comes first), then through every link at once */
        msg_t m = chan_pop(ch->in, link_take(ch->kind[0], ch->part[0], h->t));
        if (run_links(ch, &m, 0, m.t, now))
            return TICK_NEVER;
    }
    return TICK_NEVER; /* woken by the next push */
}

static const comp_ops_t chain_ops = {.commit = chain_commit};

void chain_init(chain_comp_t *ch, const char *name, kernel_t *k, chan_t *in, chan_t *out)
{
    memset(ch, 0, sizeof(*ch));
    snprintf(ch->c.name, sizeof(ch->c.name), "%s", name);
    ch->c.ops = &chain_ops;
    ch->c.k = k;
    ch->c.ahead = 1;
    ch->in = in;
    ch->out = out;
    in->dst = &ch->c;
    out->src = &ch->c;
}

int chain_add(chain_comp_t *ch, link_kind_t kind, void *part)
{
    if (ch->n == CHAIN_MAX_LINKS)
        return -1;
    ((comp_t *)part)->k = ch->c.k;
    ch->kind[ch->n] = kind;
    ch->part[ch->n++] = part;
    return 0;
}
