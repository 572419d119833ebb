/* Topology files: an INI file naming nodes, switches and the links between
 * them (configs/topo/; docs/packets.md).
 *
 *   [topology]        name = ... (default: the file's name without .ini),
 *                     description = ...
 *   [node.NAME]       a node (its NIC's one network port)
 *   [switch.NAME]     ports = N (required), buffer_bytes = B (262144),
 *                     fwd_cycles = C (10), clock_mhz = F (500),
 *                     mode = store_and_forward | cut_through,
 *                     header_bytes = H (40; what cut-through waits for)
 *   [link.NAME]       a = END, b = END (required; END is NODE or SWITCH:PORT),
 *                     gbytes_per_s = R (50), one_way_ns = D (100)
 *
 * Sections may come in any order. Errors carry file:line and say what was
 * expected; a topology that is not whole (topo_check) names the culprit. */
#ifndef UB_TOPO_FILE_H
#define UB_TOPO_FILE_H

#include "topo.h"

#define TOPO_TEXT_LEN 128

typedef struct topo_file {
    topo_t t;
    char name[TOPO_NAME_LEN];
    char description[TOPO_TEXT_LEN];
    char file[256];
} topo_file_t;

/* Loads a topology from a file, or from text (`name` is used for messages).
 * On success the routes are filled in. Returns 0, or -1 with a message. */
int topo_load_file(topo_file_t *tf, const char *path, char *err, int errlen);
int topo_load_text(topo_file_t *tf, const char *name, const char *text, char *err, int errlen);

#endif
