/* A read path laid over a topology: the initiator is one node, the target
 * another, and each wire stage of the path becomes the links and switches
 * that the topology's routes take between them.
 *
 * A wire stage crossing k links becomes k wire stages, each with its link's
 * rate and delay (named "<stage>.<link>" when k > 1; the name stays when the
 * nodes are back to back), and a switch stage after every link but the last
 * ("switch.<name>.fwd" or ".back"). Everything else is kept. On the default
 * topology (two nodes joined by one link with the path's own rate and delay)
 * the path is the same as without one. */
#ifndef UB_PATH_TOPO_H
#define UB_PATH_TOPO_H

#include "config.h"
#include "topo_file.h"

/* Fills *out with path p between nodes `from` and `to` of tf (routes filled
 * in). Returns 0, or -1 with a message. */
int path_on_topology(const path_cfg_t *p, const topo_file_t *tf, int from, int to, path_cfg_t *out,
                     char *err, int errlen);
/* Whether a path has a switch stage. */
int path_has_switch(const path_cfg_t *p);

#endif
