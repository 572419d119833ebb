/* A topology: nodes, switches and the links between them, and the routes
 * packets take.
 *
 * A node has one network port (its NIC); a switch has n_ports. A link joins
 * two ports (a node's, or a switch's port p) and has a rate, a propagation
 * delay and, optionally, faults. topo_check makes sure every link names
 * ports that exist and every port is used at most once, that every node is
 * linked, and that every node can reach every other; topo_routes then gives
 * every switch, for every destination node, the port on a shortest path
 * (fewest links; among equals the lowest port number), so the same topology
 * always routes the same way. The default topology is two nodes joined back
 * to back. */
#ifndef UB_TOPO_H
#define UB_TOPO_H

#include <stdint.h>

#define TOPO_MAX_NODES 256
#define TOPO_MAX_SWITCHES 64
#define TOPO_MAX_LINKS 512
#define TOPO_MAX_PORTS 64
#define TOPO_NAME_LEN 32

typedef struct {
    int sw;   /* -1: a node's port; else the switch */
    int node; /* the node (sw < 0) */
    int port; /* the switch's port (sw >= 0) */
} topo_end_t;

typedef struct {
    char name[TOPO_NAME_LEN];
} topo_node_t;

typedef struct {
    char name[TOPO_NAME_LEN];
    int n_ports;
    int64_t buffer_bytes;
    int fwd_cycles;
    int64_t clock_mhz;
    int cut_through;
    int64_t header_bytes;    /* what a cut-through switch waits for */
    int16_t route[TOPO_MAX_NODES]; /* destination node -> port (topo_routes) */
} topo_switch_t;

typedef struct {
    topo_end_t a, b;
    double gbytes_per_s;
    double one_way_ns;
    char name[TOPO_NAME_LEN]; /* "A-S:0" unless named (topology files do) */
} topo_link_t;

/* One link a packet crosses on its way from one node to another, and the
 * switch it then enters (sw < 0 for the last link, into the destination). */
typedef struct {
    int link;
    int from_b;   /* it crosses the link from its end b to its end a */
    int sw, in_port, out_port;
} topo_hop_t;

typedef struct topo {
    int n_nodes, n_switches, n_links;
    topo_node_t node[TOPO_MAX_NODES];
    topo_switch_t sw[TOPO_MAX_SWITCHES];
    topo_link_t link[TOPO_MAX_LINKS];
} topo_t;

void topo_init(topo_t *t);
/* The two-node default: nodes A and B, one link of 50 GB/s and 100 ns,
 * named TOPO_DEFAULT_LINK (as in configs/topo/two_nodes.ini). */
#define TOPO_DEFAULT_LINK "AB"
void topo_default(topo_t *t);
/* Adds a node / a switch (name unique); returns its index or -1 with a
 * message. */
int topo_add_node(topo_t *t, const char *name, char *err, int errlen);
int topo_add_switch(topo_t *t, const char *name, int n_ports, char *err, int errlen);
/* Adds a link between two ends written "NODE" or "SWITCH:PORT"; returns its
 * index or -1 with a message. */
int topo_add_link(topo_t *t, const char *a, const char *b, double gbytes_per_s,
                  double one_way_ns, char *err, int errlen);
/* Index of a node / switch by name, or -1. */
/* Whether name is 1 to TOPO_NAME_LEN - 1 letters, digits, '_' or '-' (the
 * names of nodes, switches, links and topologies); 0 with a message if not. */
int topo_name_ok(const char *name, char *err, int errlen);
int topo_find_node(const topo_t *t, const char *name);
int topo_find_switch(const topo_t *t, const char *name);
/* Checks the whole topology (see above); 0, or -1 with a message. */
int topo_check(const topo_t *t, char *err, int errlen);
/* Fills every switch's routes (topo_check first); 0, or -1 with a message. */
int topo_routes(topo_t *t, char *err, int errlen);
/* The link at a port, or -1. */
int topo_link_at(const topo_t *t, topo_end_t e);
/* The links and switches from node `from` to node `to` (routes filled in),
 * at most `max` hops; returns how many, or -1 with a message. */
int topo_hops(const topo_t *t, int from, int to, topo_hop_t *hops, int max, char *err, int errlen);
/* "A" or "S:2", the name of a link's end. */
void topo_end_name(const topo_t *t, topo_end_t e, char *buf, int len);

#endif
