/* The hosts behind the verbs (urma.h) in a simulation: the initiator's and
 * the target's contexts, their memories, and the component that puts work
 * requests into a read path (sim/net/path_net.h) and takes their completions
 * out of it.
 *
 *   workload --urma_post_*--> host --ch[0]--> path ... --ch[n]--> host --> JFC
 *
 * The initiator posts; each request becomes a message with an id (without
 * losses a free id is reused once its request completed; with them every
 * request has an id of its own and a deadline, and one with no completion by
 * then completes with URMA_CR_ACK_TIMEOUT_ERR). The target executes a request
 * when its response or acknowledgement leaves the target's transmit pipeline
 * (urma_host_emit): a read takes the bytes of its segment, a write changes
 * them, a send fills the next receive buffer of the target Jetty. Its receive
 * checks learn a request's remote address and token from the request
 * (urma_host_fields), as its header carries them; one it refuses is answered
 * with a negative acknowledgement and completes with
 * URMA_CR_REM_ACCESS_ABORT_ERR. A read's response copies its bytes into the
 * initiator's buffer when it completes. */
#ifndef UB_URMA_HOST_H
#define UB_URMA_HOST_H

#include <stdint.h>

#include "kernel.h"
#include "mem.h"
#include "packet.h"
#include "payload.h"
#include "urma.h"

typedef struct urma_host urma_host_t;

typedef struct {
    int64_t max_outstanding;  /* requests in flight at once, at most */
    int lossy;                /* requests may be lost: ids of their own, deadlines */
    tick_t timeout;           /* with losses: a request's deadline after its post */
    int post_point, done_point; /* probes when a request is posted, completes */
    uint64_t mem_bytes[2];    /* the initiator's and the target's memory */
    uint32_t node_id[2];      /* their node numbers (packets are routed by them) */
    /* several initiators of one target (incast): every host but the first
     * shares the first's target (its context, memory and payloads), and each
     * numbers its requests apart: message id = index * id_stride + id_offset */
    struct urma_host *share_target;
    uint32_t id_offset, id_stride; /* (stride 0 means 1) */
} urma_host_cfg_t;

/* What the hosts counted. */
typedef struct {
    int64_t posted, completed;   /* requests; completed counts every status */
    int64_t errors;              /* completions other than URMA_CR_SUCCESS */
    int64_t timeouts;            /* of them, URMA_CR_ACK_TIMEOUT_ERR */
    int64_t refused;             /* of them, refused at the target */
    int64_t stale;               /* responses after their request's deadline */
    int64_t flagged;             /* corrupted or duplicate packets reaching the
                                    host (no receive checks on the path) */
    int64_t executed;            /* requests the target executed */
    int64_t no_recv_buffer;      /* sends that found no receive buffer */
} urma_host_stats_t;

urma_host_t *urma_host_new(kernel_t *k, const char *name, const urma_host_cfg_t *cfg,
                           const urma_workload_t *wl, char *err, int errlen);
/* Joins the path (its ch[0] and ch[n]) and adds the host to the kernel; it
 * starts the workload at time 0. Returns 0, or -1 with a message. */
int urma_host_connect(urma_host_t *h, chan_t *out, chan_t *in, char *err, int errlen);
/* Hooks for the path: the target's transmit pipeline (every packet leaving
 * it) and the target's receive checks (a request's address and token). */
void urma_host_emit(void *host, msg_t *m, tick_t t);
void urma_host_fields(void *host, const msg_t *m, pkt_hdr_t *hd);
/* The Jetty (send queue) a request was posted on: the initiator's transmit
 * pipeline fetches it with the request (the message leaves it out, so that
 * a burst of requests on several queues stays one channel entry). */
uint32_t urma_host_jetty(void *host, const msg_t *m);
node_mem_t *urma_host_mem(urma_host_t *h, int node);
/* The kernel node `node` runs on (when the simulation is split in nodes):
 * its context's time (urma_now_ps) is that kernel's. */
void urma_host_set_node_kernel(urma_host_t *h, int node, kernel_t *k);
/* Puts node `node`'s memory in `bytes` (size bytes, as large as the memory
 * asked for, zero): a memory model of one's own holds them from then on.
 * Returns 0, or -1 when it is too small. */
int urma_host_use_memory(urma_host_t *h, int node, uint8_t *bytes, uint64_t size);
/* Verbs called from outside the simulation's instants (a SystemC thread
 * posting through a socket) act at time t: set it first (never earlier than
 * the host's last instant). */
void urma_host_at(urma_host_t *h, tick_t t);
urma_context_t *urma_host_context(urma_host_t *h, int node);
payload_pool_t *urma_host_pool(urma_host_t *h);
const urma_host_stats_t *urma_host_stats(const urma_host_t *h);
/* Whether the path moves bytes (a target transmit pipeline answers): set by
 * the caller; without it a read completes with no bytes copied. */
void urma_host_set_moves_data(urma_host_t *h, int yes);
/* Every completion (and every request that ends in an error) is told to
 * the initiator's send pipeline through c: its order tracker counts it
 * done. */
void urma_host_set_cmp(urma_host_t *h, chan_t *c);
/* The initiator's transmit port issued request m (its first packet left at
 * t): the host's record of it, and a checker, learn it. */
void urma_host_issued(void *host, const msg_t *m, tick_t t);
/* An ordering checker (order_check.h) sees every post, issue (through
 * urma_host_issued), execution at the target, and completion as the NIC
 * learns it. */
struct order_check;
void urma_host_set_checker(urma_host_t *h, struct order_check *oc);
/* Whether the probe of request `id` at time t belongs to a request that has
 * ended (with losses: timed out, or past its deadline). */
int urma_host_ended(const urma_host_t *h, uint32_t id, tick_t t);
void urma_host_free(urma_host_t *h);

#endif
