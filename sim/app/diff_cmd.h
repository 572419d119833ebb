/* ubsim diff: two waveform files (VCD or FST) compared cycle by cycle, port
 * by port. */
#ifndef UB_DIFF_CMD_H
#define UB_DIFF_CMD_H

/* argv[0] is "diff". Returns the exit status: 0 equal, 1 different, 2 bad
 * input or a bad option. */
int cmd_diff(int argc, char **argv);

#endif
