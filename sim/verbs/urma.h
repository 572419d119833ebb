/* The verbs a workload program uses, named after the URMA verbs of a UB
 * endpoint: contexts, completion queues (JFC), send and receive queues (JFS,
 * JFR), Jetties, segments registered in a node's memory and imported by
 * another node with their token, work requests (read, write, send), and
 * completion records.
 *
 * A workload runs inside the simulation: it is called at time 0 with every
 * node's context (urma_workload_t.start) and again whenever a completion
 * queue it asked to be told about has a new record (urma_jfc_cfg_t.notify).
 * It never blocks; it posts work requests and polls completions in those
 * calls, and calls urma_stop when it is done. Every post returns at once; its
 * completion comes back after the simulated time the path takes.
 *
 * Memory is each node's byte-addressable memory (urma_node_memory): a
 * segment is a range of it registered with a token and an access; a local
 * buffer is an address in it. A read copies the bytes of the remote segment
 * into the local buffer when its response arrives; a write copies the local
 * buffer into the remote segment when the target executes it; a send lands
 * in the next receive buffer posted on the target Jetty's JFR.
 *
 * Errors: a verb returns URMA_SUCCESS (0) or a negative urma_status_t; a
 * work request that fails at the target or in the network completes with a
 * status other than URMA_CR_SUCCESS (docs/verbs.md lists them). */
#ifndef UB_URMA_H
#define UB_URMA_H

#include <stdint.h>

typedef struct urma_context urma_context_t;
typedef struct urma_jfc urma_jfc_t;
typedef struct urma_jfs urma_jfs_t;
typedef struct urma_jfr urma_jfr_t;
typedef struct urma_jetty urma_jetty_t;
typedef struct urma_seg urma_seg_t;
typedef struct urma_target_seg urma_target_seg_t;
typedef struct urma_target_jetty urma_target_jetty_t;

typedef enum {
    URMA_SUCCESS = 0,
    URMA_EINVAL = -1,  /* a bad argument (the message says which) */
    URMA_ENOMEM = -2,
    URMA_EAGAIN = -3,  /* the queue is full: post again after a completion */
    URMA_ENOPERM = -4, /* a local buffer outside the node's memory */
} urma_status_t;

typedef enum { URMA_OPC_WRITE = 0, URMA_OPC_READ = 1, URMA_OPC_SEND = 2 } urma_opcode_t;

/* Completion status, with the values of the URMA completion record. */
typedef enum {
    URMA_CR_SUCCESS = 0,
    URMA_CR_LOC_LEN_ERR = 2,          /* a send longer than the receive buffer */
    URMA_CR_LOC_ACCESS_ERR = 4,
    URMA_CR_REM_ACCESS_ABORT_ERR = 8, /* the target refused it: token, bounds,
                                         access, no receive buffer posted */
    URMA_CR_ACK_TIMEOUT_ERR = 9,      /* no response within the timeout */
    URMA_CR_WR_FLUSH_ERR = 11,
} urma_cr_status_t;

/* Segment access. Write implies read. */
enum { URMA_ACCESS_READ = 1, URMA_ACCESS_WRITE = 2 };

/* The execution order a request asks for (the send pipeline's order
 * tracker enforces it, docs/order_tracker.md). */
typedef enum { URMA_ORDER_NO = 0, URMA_ORDER_RO = 1, URMA_ORDER_SO = 2 } urma_order_t;

typedef struct {
    uint32_t depth;                /* records it holds (> 0) */
    /* called (inside the simulation) when a record is added, or NULL */
    void (*notify)(urma_jfc_t *jfc, void *arg);
    void *arg;
} urma_jfc_cfg_t;

/* The transport service mode of a send queue: where ordering is enforced
 * (docs/order_tracker.md). */
typedef enum {
    URMA_TM_DEFAULT = 0, /* ROT */
    URMA_TM_ROT = 1,     /* reliable, ordered at the target */
    URMA_TM_ROI = 2,     /* reliable, ordered at the initiator */
    URMA_TM_ROL = 3,     /* reliable, the transaction ack fused into the transport's */
    URMA_TM_UNO = 4,     /* unreliable, no ordering */
} urma_tp_mode_t;

typedef struct {
    uint32_t depth;                /* work requests outstanding at most (> 0) */
    urma_jfc_t *jfc;               /* where their completions go */
    urma_tp_mode_t mode;
} urma_jfs_cfg_t;

typedef struct {
    uint32_t depth;                /* receive buffers posted at most (> 0) */
    urma_jfc_t *jfc;               /* where receive completions go */
} urma_jfr_cfg_t;

typedef struct {
    urma_jfs_cfg_t jfs;            /* its send queue */
    urma_jfr_t *jfr;               /* its receive queue, or NULL */
} urma_jetty_cfg_t;

typedef struct {
    uint64_t va, len;              /* in the node's memory */
    uint32_t token;
    uint32_t access;               /* URMA_ACCESS_* */
} urma_seg_cfg_t;

/* What a node tells another about a segment it registered (out of band). */
typedef struct {
    uint32_t node;
    uint64_t va, len;
} urma_seg_info_t;

typedef struct urma_jfs_wr {
    urma_opcode_t opcode;
    uint64_t user_ctx;             /* comes back in the completion record */
    uint64_t local_va;             /* read: where the bytes go; write, send:
                                      where they come from */
    uint32_t len;                  /* 1 B and up */
    urma_target_seg_t *tseg;       /* read, write: the remote segment */
    uint64_t remote_va;            /* read, write: inside it */
    urma_target_jetty_t *tjetty;   /* send: the remote Jetty */
    urma_order_t order;            /* NO, RO, SO: see docs/order_tracker.md */
    uint8_t fence;                 /* every earlier request of the queue completes first */
    struct urma_jfs_wr *next;      /* a list of requests, or NULL */
} urma_jfs_wr_t;

typedef struct urma_jfr_wr {
    uint64_t user_ctx;
    uint64_t local_va;             /* the receive buffer */
    uint32_t len;
    struct urma_jfr_wr *next;
} urma_jfr_wr_t;

typedef struct {
    urma_cr_status_t status;
    urma_opcode_t opcode;
    int recv;                      /* 1: a receive completion (a send landed) */
    uint64_t user_ctx;
    uint32_t completion_len;       /* bytes moved */
    uint32_t local_id;             /* the Jetty (or JFS / JFR) number */
    uint64_t time_ps;              /* when it completed */
} urma_cr_t;

/* A workload: started once, at time 0, with every node's context. It returns
 * 0, or -1 after urma_fail. */
typedef struct {
    const char *name;
    int (*start)(void *arg, urma_context_t *const *nodes, int n_nodes);
    void *arg;
} urma_workload_t;

/* ---- objects ---- */
urma_jfc_t *urma_create_jfc(urma_context_t *ctx, const urma_jfc_cfg_t *cfg);
urma_jfs_t *urma_create_jfs(urma_context_t *ctx, const urma_jfs_cfg_t *cfg);
urma_jfr_t *urma_create_jfr(urma_context_t *ctx, const urma_jfr_cfg_t *cfg);
urma_jetty_t *urma_create_jetty(urma_context_t *ctx, const urma_jetty_cfg_t *cfg);
/* Objects are freed with the simulation; deleting one with work outstanding
 * fails (URMA_EAGAIN). */
int urma_delete_jfc(urma_jfc_t *jfc);
int urma_delete_jfs(urma_jfs_t *jfs);
int urma_delete_jfr(urma_jfr_t *jfr);
int urma_delete_jetty(urma_jetty_t *jetty);
uint32_t urma_jetty_id(const urma_jetty_t *jetty);
urma_jfs_t *urma_jetty_jfs(urma_jetty_t *jetty);

urma_seg_t *urma_register_seg(urma_context_t *ctx, const urma_seg_cfg_t *cfg);
int urma_unregister_seg(urma_seg_t *seg);
urma_seg_info_t urma_seg_info(const urma_seg_t *seg);
/* A remote segment, for reads and writes through ctx; the token must be the
 * segment's (a wrong one is refused at the target, not here). */
urma_target_seg_t *urma_import_seg(urma_context_t *ctx, const urma_seg_info_t *info, uint32_t token);
urma_target_jetty_t *urma_import_jetty(urma_context_t *ctx, uint32_t node, uint32_t jetty_id);

/* ---- work ---- */
/* Posts a list of work requests; on a failure *bad_wr points at the first
 * not posted. */
int urma_post_jfs_wr(urma_jfs_t *jfs, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr);
int urma_post_jetty_send_wr(urma_jetty_t *jetty, urma_jfs_wr_t *wr, urma_jfs_wr_t **bad_wr);
int urma_post_jfr_wr(urma_jfr_t *jfr, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr);
int urma_post_jetty_recv_wr(urma_jetty_t *jetty, urma_jfr_wr_t *wr, urma_jfr_wr_t **bad_wr);
/* Takes up to cr_cnt records; returns how many. */
int urma_poll_jfc(urma_jfc_t *jfc, int cr_cnt, urma_cr_t *cr);
/* One request each, posted on jfs. */
int urma_read(urma_jfs_t *jfs, urma_target_seg_t *src_tseg, uint64_t dst_va, uint64_t src_va,
              uint32_t len, uint64_t user_ctx);
int urma_write(urma_jfs_t *jfs, urma_target_seg_t *dst_tseg, uint64_t dst_va, uint64_t src_va,
               uint32_t len, uint64_t user_ctx);
int urma_send(urma_jfs_t *jfs, urma_target_jetty_t *tjetty, uint64_t src_va, uint32_t len,
              uint64_t user_ctx);

/* ---- the simulation around it ---- */
uint32_t urma_node_id(const urma_context_t *ctx);
/* The node's memory: size bytes at the returned address (va 0 is its first). */
uint8_t *urma_node_memory(urma_context_t *ctx, uint64_t *size);
uint64_t urma_now_ps(const urma_context_t *ctx);
/* The workload is done: the simulation ends (what is still in flight is
 * left). */
void urma_stop(urma_context_t *ctx);
/* Fails the simulation with a message (printf format). */
void urma_fail(urma_context_t *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Why the last verb on ctx failed. */
const char *urma_last_error(const urma_context_t *ctx);

#endif
