/* nic_pipe: a generic clocked NIC pipeline with valid/ready at both ends.
 *
 * The pipeline is a chain of named stages; stage i holds a request for
 * cycles[i] clock cycles, so an idle traversal takes the sum of the stage
 * cycles. Every cycle is a register slot: a request advances one slot per
 * edge while the slot ahead is free (or being freed), so the pipeline stalls
 * without loss when out_ready is low and accepts one request per cycle
 * otherwise. in_ready depends only on registers: it is high while the
 * pipeline holds at most `depth` requests, and a skid register in front of
 * slot 0 catches the request accepted in a cycle where slot 0 stays occupied.
 * out_* is the last slot: no combinational path from inputs to outputs.
 *
 * Cycle semantics (shared by every block, see sim/core/block.h): step() applies
 * one rising edge with `in` and writes `out`, the wires during the next cycle.
 * A request accepted at edge n is taken by the consumer at edge n + depth. */
#ifndef UB_NIC_PIPE_H
#define UB_NIC_PIPE_H

#include <stdint.h>

#define NIC_PIPE_MAX_STAGES 16
#define NIC_PIPE_MAX_DEPTH 64
#define NIC_PIPE_NAME_LEN 24
#define NIC_PIPE_MAX_RING 128 /* a power of two above NIC_PIPE_MAX_DEPTH + 1 */

typedef struct {
    int n_stages;
    char stage_name[NIC_PIPE_MAX_STAGES][NIC_PIPE_NAME_LEN];
    int stage_cycles[NIC_PIPE_MAX_STAGES];
} nic_pipe_cfg_t;

typedef struct {
    uint8_t in_valid;
    uint32_t in_tag;
    uint8_t out_ready;
} nic_pipe_in_t;

typedef struct {
    uint8_t in_ready;
    uint8_t out_valid;
    uint32_t out_tag;
} nic_pipe_out_t;

typedef struct {
    nic_pipe_cfg_t cfg;
    int depth;
    /* requests in flight, oldest first, in a ring */
    int head, count;
    int shift; /* added to every stored position (see nic_pipe.c) */
    int pos[NIC_PIPE_MAX_RING]; /* slot, or -1 for the skid register */
    uint32_t tag[NIC_PIPE_MAX_RING];
} nic_pipe_t;

/* Parses "name:cycles name:cycles ..." (spaces or commas between). Returns 0,
 * or -1 with a message in err. */
int nic_pipe_parse(const char *text, nic_pipe_cfg_t *cfg, char *err, int errlen);
int nic_pipe_depth(const nic_pipe_cfg_t *cfg);

void nic_pipe_init(nic_pipe_t *p, const nic_pipe_cfg_t *cfg);
void nic_pipe_reset(nic_pipe_t *p, nic_pipe_out_t *out);
void nic_pipe_step(nic_pipe_t *p, const nic_pipe_in_t *in, nic_pipe_out_t *out);
/* Fast-forward: n edges with nothing entering and the output not reached
 * (n < nic_pipe_edges_to_output) move every request n slots on, exactly as
 * n steps with in_valid = 0 would. */
void nic_pipe_advance(nic_pipe_t *p, int64_t n);
/* Fast-forward with out_ready = 0: n edges with nothing entering and nothing
 * taken: every request moves on as far as the slot ahead of it lets it (the
 * oldest stops in the last slot), exactly as n such steps would. */
void nic_pipe_advance_held(nic_pipe_t *p, int64_t n);
/* 1 when a step with `in` would change nothing: nothing enters, and the
 * pipeline is empty or its oldest request is held in the last slot with
 * every other one right behind it. */
int nic_pipe_settled(const nic_pipe_t *p, const nic_pipe_in_t *in);
/* Edges until the oldest request is in the last slot (0 when it is there,
 * -1 when the pipeline is empty). */
int64_t nic_pipe_edges_to_output(const nic_pipe_t *p);
/* Bit s set: register slot s holds a request (for waveforms). */
uint64_t nic_pipe_slot_mask(const nic_pipe_t *p);
static inline int nic_pipe_empty(const nic_pipe_t *p) { return p->count == 0; }
/* Index of the stage that owns register slot s. */
int nic_pipe_stage_of_slot(const nic_pipe_cfg_t *cfg, int slot);

#endif
