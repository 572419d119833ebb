#include "topo.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void topo_init(topo_t *t) { memset(t, 0, sizeof(*t)); }

void topo_default(topo_t *t)
{
    char err[128];
    topo_init(t);
    topo_add_node(t, "A", err, sizeof err);
    topo_add_node(t, "B", err, sizeof err);
    int l = topo_add_link(t, "A", "B", 50.0, 100.0, err, sizeof err);
    if (l >= 0) {
        memset(t->link[l].name, 0, sizeof t->link[l].name);
        snprintf(t->link[l].name, sizeof t->link[l].name, "%s", TOPO_DEFAULT_LINK);
    }
}

int topo_name_ok(const char *name, char *err, int errlen)
{
    size_t n = strlen(name);
    if (n == 0 || n >= TOPO_NAME_LEN) {
        snprintf(err, (size_t)errlen, "name '%s': expected 1 to %d characters", name,
                 TOPO_NAME_LEN - 1);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!text_name_char(c)) {
            snprintf(err, (size_t)errlen,
                     "name '%s': expected letters, digits, '_' or '-' (not '%c')", name, c);
            return 0;
        }
    }
    return 1;
}

int topo_find_node(const topo_t *t, const char *name)
{
    for (int i = 0; i < t->n_nodes; i++)
        if (!strcmp(t->node[i].name, name))
            return i;
    return -1;
}

int topo_find_switch(const topo_t *t, const char *name)
{
    for (int i = 0; i < t->n_switches; i++)
        if (!strcmp(t->sw[i].name, name))
            return i;
    return -1;
}

static int name_free(const topo_t *t, const char *name, char *err, int errlen)
{
    if (!topo_name_ok(name, err, errlen))
        return 0;
    if (topo_find_node(t, name) >= 0 || topo_find_switch(t, name) >= 0) {
        snprintf(err, (size_t)errlen, "'%s' is named twice", name);
        return 0;
    }
    return 1;
}

int topo_add_node(topo_t *t, const char *name, char *err, int errlen)
{
    if (!name_free(t, name, err, errlen))
        return -1;
    if (t->n_nodes == TOPO_MAX_NODES) {
        snprintf(err, (size_t)errlen, "more than %d nodes", TOPO_MAX_NODES);
        return -1;
    }
    snprintf(t->node[t->n_nodes].name, TOPO_NAME_LEN, "%s", name);
    return t->n_nodes++;
}

int topo_add_switch(topo_t *t, const char *name, int n_ports, char *err, int errlen)
{
    if (!name_free(t, name, err, errlen))
        return -1;
    if (n_ports < 2 || n_ports > TOPO_MAX_PORTS) {
        snprintf(err, (size_t)errlen, "switch '%s': expected 2 to %d ports, not %d", name,
                 TOPO_MAX_PORTS, n_ports);
        return -1;
    }
    if (t->n_switches == TOPO_MAX_SWITCHES) {
        snprintf(err, (size_t)errlen, "more than %d switches", TOPO_MAX_SWITCHES);
        return -1;
    }
    topo_switch_t *s = &t->sw[t->n_switches];
    memset(s, 0, sizeof(*s));
    snprintf(s->name, TOPO_NAME_LEN, "%s", name);
    s->n_ports = n_ports;
    for (int i = 0; i < TOPO_MAX_NODES; i++)
        s->route[i] = -1;
    return t->n_switches++;
}

/* "NODE" or "SWITCH:PORT" */
static int parse_end(const topo_t *t, const char *text, topo_end_t *e, char *err, int errlen)
{
    const char *colon = strchr(text, ':');
    if (!colon) {
        int n = topo_find_node(t, text);
        if (n < 0) {
            snprintf(err, (size_t)errlen, "link end '%s': no node of that name (a switch's "
                     "port is written SWITCH:PORT)", text);
            return -1;
        }
        *e = (topo_end_t){-1, n, 0};
        return 0;
    }
    char sw[TOPO_NAME_LEN];
    size_t len = (size_t)(colon - text);
    if (len >= sizeof sw) {
        snprintf(err, (size_t)errlen, "link end '%s': switch name too long", text);
        return -1;
    }
    memcpy(sw, text, len);
    sw[len] = 0;
    int s = topo_find_switch(t, sw);
    if (s < 0) {
        snprintf(err, (size_t)errlen, "link end '%s': no switch '%s'", text, sw);
        return -1;
    }
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || p < 0 || p >= t->sw[s].n_ports) {
        snprintf(err, (size_t)errlen, "link end '%s': expected a port from 0 to %d of switch '%s'",
                 text, t->sw[s].n_ports - 1, sw);
        return -1;
    }
    *e = (topo_end_t){s, -1, (int)p};
    return 0;
}

static int same_end(topo_end_t x, topo_end_t y)
{
    return x.sw == y.sw && (x.sw < 0 ? x.node == y.node : x.port == y.port);
}

int topo_link_at(const topo_t *t, topo_end_t e)
{
    for (int i = 0; i < t->n_links; i++)
        if (same_end(t->link[i].a, e) || same_end(t->link[i].b, e))
            return i;
    return -1;
}

static void end_name(const topo_t *t, topo_end_t e, char *buf, size_t n)
{
    if (e.sw < 0)
        snprintf(buf, n, "%s", t->node[e.node].name);
    else
        snprintf(buf, n, "%s:%d", t->sw[e.sw].name, e.port);
}

int topo_add_link(topo_t *t, const char *a, const char *b, double gbytes_per_s,
                  double one_way_ns, char *err, int errlen)
{
    topo_end_t ea, eb;
    if (parse_end(t, a, &ea, err, errlen) || parse_end(t, b, &eb, err, errlen))
        return -1;
    if (same_end(ea, eb)) {
        snprintf(err, (size_t)errlen, "link %s - %s joins a port to itself", a, b);
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        topo_end_t e = k ? eb : ea;
        int l = topo_link_at(t, e);
        if (l >= 0) {
            char x[64], y[64];
            end_name(t, t->link[l].a, x, sizeof x);
            end_name(t, t->link[l].b, y, sizeof y);
            snprintf(err, (size_t)errlen, "link %s - %s: %s is already linked (%s - %s)", a, b,
                     k ? b : a, x, y);
            return -1;
        }
    }
    if (!(gbytes_per_s > 0) || !(one_way_ns >= 0)) {
        snprintf(err, (size_t)errlen,
                 "link %s - %s: expected a rate above 0 GB/s and a delay of 0 ns or more", a, b);
        return -1;
    }
    if (t->n_links == TOPO_MAX_LINKS) {
        snprintf(err, (size_t)errlen, "more than %d links", TOPO_MAX_LINKS);
        return -1;
    }
    topo_link_t *l = &t->link[t->n_links];
    *l = (topo_link_t){.a = ea, .b = eb, .gbytes_per_s = gbytes_per_s, .one_way_ns = one_way_ns};
    memset(l->name, 0, sizeof l->name);
    snprintf(l->name, sizeof l->name, "%.14s-%.14s", a, b);
    return t->n_links++;
}

/* Vertices: nodes 0..n_nodes-1, then switches. */
static int vertex(const topo_t *t, topo_end_t e) { return e.sw < 0 ? e.node : t->n_nodes + e.sw; }

/* Hop counts from every vertex to `dst` (node index), -1 unreachable, with
 * `queue` room for every vertex. A path may pass through switches only,
 * never through another node. */
static void hops_to(const topo_t *t, int dst, int *dist, int *queue)
{
    int nv = t->n_nodes + t->n_switches;
    for (int v = 0; v < nv; v++)
        dist[v] = -1;
    int head = 0, tail = 0;
    dist[dst] = 0;
    queue[tail++] = dst;
    while (head < tail) {
        int v = queue[head++];
        if (v < t->n_nodes && v != dst)
            continue; /* nodes do not forward */
        for (int l = 0; l < t->n_links; l++) {
            int x = vertex(t, t->link[l].a), y = vertex(t, t->link[l].b);
            int w = x == v ? y : y == v ? x : -1;
            if (w >= 0 && dist[w] < 0) {
                dist[w] = dist[v] + 1;
                queue[tail++] = w;
            }
        }
    }
}

/* Every switch's port towards node d, from the hop counts to d. */
static void routes_to(topo_t *t, int d, const int *dist)
{
    for (int s = 0; s < t->n_switches; s++) {
        topo_switch_t *sw = &t->sw[s];
        sw->route[d] = -1;
        int me = t->n_nodes + s;
        if (dist[me] < 0)
            continue; /* a switch off every path to d */
        /* the lowest port whose neighbour is one hop nearer */
        for (int p = 0; p < sw->n_ports && sw->route[d] < 0; p++) {
            int l = topo_link_at(t, (topo_end_t){s, -1, p});
            if (l < 0)
                continue;
            topo_end_t far = same_end(t->link[l].a, (topo_end_t){s, -1, p}) ? t->link[l].b
                                                                             : t->link[l].a;
            int w = vertex(t, far);
            if (dist[w] >= 0 && dist[w] == dist[me] - 1 && (w >= t->n_nodes || w == d))
                sw->route[d] = (int16_t)p;
        }
    }
}

/* Checks the topology and, if routes is set, fills every switch's routes:
 * one walk from every node. */
static int walk(const topo_t *t, topo_t *routes, char *err, int errlen)
{
    if (t->n_nodes < 2) {
        snprintf(err, (size_t)errlen, "a topology needs at least two nodes, not %d", t->n_nodes);
        return -1;
    }
    for (int n = 0; n < t->n_nodes; n++) {
        if (topo_link_at(t, (topo_end_t){-1, n, 0}) < 0) {
            snprintf(err, (size_t)errlen, "node '%s' is linked to nothing", t->node[n].name);
            return -1;
        }
    }
    for (int s = 0; s < t->n_switches; s++) {
        int linked = 0;
        for (int p = 0; p < t->sw[s].n_ports && !linked; p++)
            linked = topo_link_at(t, (topo_end_t){s, -1, p}) >= 0;
        if (!linked) {
            snprintf(err, (size_t)errlen, "switch '%s' is linked to nothing", t->sw[s].name);
            return -1;
        }
    }
    int nv = t->n_nodes + t->n_switches;
    int *dist = malloc((size_t)nv * 2 * sizeof(int));
    if (!dist) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int d = 0; d < t->n_nodes && !rc; d++) {
        hops_to(t, d, dist, dist + nv);
        for (int n = 0; n < t->n_nodes; n++) {
            if (dist[n] < 0) {
                snprintf(err, (size_t)errlen, "node '%s' cannot reach node '%s'", t->node[n].name,
                         t->node[d].name);
                rc = -1;
                break;
            }
        }
        for (int sw = 0; sw < t->n_switches && !rc; sw++) {
            if (dist[t->n_nodes + sw] < 0) { /* (an island of switches, or one linked to itself) */
                snprintf(err, (size_t)errlen, "switch '%s' cannot reach node '%s'", t->sw[sw].name,
                         t->node[d].name);
                rc = -1;
            }
        }
        if (!rc && routes)
            routes_to(routes, d, dist);
    }
    free(dist);
    return rc;
}

int topo_check(const topo_t *t, char *err, int errlen) { return walk(t, NULL, err, errlen); }

int topo_routes(topo_t *t, char *err, int errlen) { return walk(t, t, err, errlen); }

void topo_end_name(const topo_t *t, topo_end_t e, char *buf, int len)
{
    end_name(t, e, buf, (size_t)len);
}

int topo_hops(const topo_t *t, int from, int to, topo_hop_t *hops, int max, char *err, int errlen)
{
    if (from < 0 || from >= t->n_nodes || to < 0 || to >= t->n_nodes || from == to) {
        snprintf(err, (size_t)errlen, "no route from node %d to node %d", from, to);
        return -1;
    }
    topo_end_t at = {-1, from, 0};
    for (int n = 0; n < max; n++) {
        int l = topo_link_at(t, at);
        if (l < 0) {
            snprintf(err, (size_t)errlen, "no link at %s on the way from %s to %s",
                     at.sw < 0 ? t->node[at.node].name : t->sw[at.sw].name, t->node[from].name,
                     t->node[to].name);
            return -1;
        }
        int from_b = same_end(t->link[l].b, at);
        topo_end_t far = from_b ? t->link[l].a : t->link[l].b;
        hops[n] = (topo_hop_t){.link = l, .from_b = from_b, .sw = -1, .in_port = -1, .out_port = -1};
        if (far.sw < 0) {
            if (far.node != to) {
                snprintf(err, (size_t)errlen, "the route from %s to %s ends at node %s",
                         t->node[from].name, t->node[to].name, t->node[far.node].name);
                return -1;
            }
            return n + 1;
        }
        int out = t->sw[far.sw].route[to];
        if (out < 0) {
            snprintf(err, (size_t)errlen, "switch %s has no route to %s", t->sw[far.sw].name,
                     t->node[to].name);
            return -1;
        }
        hops[n].sw = far.sw;
        hops[n].in_port = far.port;
        hops[n].out_port = out;
        at = (topo_end_t){far.sw, -1, out};
    }
    snprintf(err, (size_t)errlen, "the route from %s to %s has more than %d links",
             t->node[from].name, t->node[to].name, max);
    return -1;
}
