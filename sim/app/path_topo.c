#include "path_topo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int path_has_switch(const path_cfg_t *p)
{
    for (int i = 0; i < p->n_stages; i++)
        if (p->stages[i].kind == STAGE_SWITCH)
            return 1;
    return 0;
}

int path_on_topology(const path_cfg_t *p, const topo_file_t *tf, int from, int to, path_cfg_t *out,
                     char *err, int errlen)
{
    const topo_t *t = &tf->t;
    *out = *p;
    out->n_stages = 0;
    out->topo = tf;
    out->from_node = from;
    out->to_node = to;
    for (int i = 0; i < p->n_stages; i++) {
        const stage_cfg_t *st = &p->stages[i];
        if (st->kind != STAGE_WIRE) {
            if (out->n_stages == CFG_MAX_STAGES)
                goto too_long;
            out->stages[out->n_stages++] = *st;
            continue;
        }
        int fwd = st->wire_dir == WIRE_FORWARD;
        topo_hop_t hop[CFG_MAX_STAGES];
        char e[200];
        int n = topo_hops(t, fwd ? from : to, fwd ? to : from, hop, CFG_MAX_STAGES, e, sizeof e);
        if (n < 0) {
            snprintf(err, (size_t)errlen, "path '%s' on topology '%s': stage '%s': %s", p->name,
                     tf->name, st->name, e);
            return -1;
        }
        for (int h = 0; h < n; h++) {
            const topo_link_t *l = &t->link[hop[h].link];
            if (out->n_stages + (hop[h].sw >= 0) + 1 > CFG_MAX_STAGES)
                goto too_long;
            stage_cfg_t *w = &out->stages[out->n_stages++];
            *w = *st;
            char a[64], b[64];
            topo_end_name(t, hop[h].from_b ? l->b : l->a, a, sizeof a);
            topo_end_name(t, hop[h].from_b ? l->a : l->b, b, sizeof b);
            if (n > 1)
                snprintf(w->name, sizeof w->name, "%.20s.%.18s", st->name, l->name);
            snprintf(w->label, sizeof w->label, "%.60s, %.20s to %.20s", st->label[0] ? st->label : st->name,
                     a, b);
            w->has_link = 1;
            w->link = hop[h].link;
            w->link_one_way_ps = (int64_t)llround(l->one_way_ns * 1000.0);
            w->link_gbytes_per_s = l->gbytes_per_s;
            if (hop[h].sw < 0)
                continue;
            const topo_switch_t *sw = &t->sw[hop[h].sw];
            stage_cfg_t *s = &out->stages[out->n_stages++];
            *s = *st;
            s->kind = STAGE_SWITCH;
            s->category = CAT_SWITCH;
            s->bytes = -1;
            s->payload_bytes = 0;
            s->has_link = 0;
            s->sw = hop[h].sw;
            s->sw_in = hop[h].in_port;
            s->sw_out = hop[h].out_port;
            snprintf(s->name, sizeof s->name, "switch.%.24s.%s", sw->name, fwd ? "fwd" : "back");
            snprintf(s->label, sizeof s->label, "switch %.24s: forwarding, port %d to %d (%d cycles at %lld MHz)",
                     sw->name, s->sw_in, s->sw_out, sw->fwd_cycles, (long long)sw->clock_mhz);
        }
    }
    return 0;
too_long:
    snprintf(err, (size_t)errlen, "path '%s' on topology '%s': more than %d stages", p->name,
             tf->name, CFG_MAX_STAGES);
    return -1;
}
