/* ubsim topology FILE: checks a topology file and prints it. */
#ifndef UB_TOPO_CMD_H
#define UB_TOPO_CMD_H

int cmd_topology(int argc, char **argv);

#endif
