/* Ports of the RoCE RC send pipeline: the one list behind
 * rc_send_pipeline_in_t / _out_t, the block class's port tables, the RTL shim
 * and the port check of the Verilated rtl/rc_send_pipeline.sv.
 * X(dir, name, width, ctype): see block_ports.h. */
#ifndef RC_SEND_PIPELINE_PORTS_H
#define RC_SEND_PIPELINE_PORTS_H

#define RC_SEND_PIPELINE_PORTS(X)                                               \
    /* work requests */                                                         \
    X(IN, wr_valid, 1, uint8_t)                                                 \
    X(IN, wr_qpn, 24, uint32_t)                                                 \
    X(IN, wr_opcode, 8, uint8_t)      /* IB BTH opcode */                       \
    X(IN, wr_len, 32, uint32_t)       /* message length in bytes */             \
    X(IN, wr_addr, 64, uint64_t)      /* remote virtual address */              \
    X(IN, wr_rkey, 32, uint32_t)                                                \
    X(IN, wr_tag, 32, uint32_t)       /* opaque id, carried to the packet */    \
    X(IN, pkt_ready, 1, uint8_t)      /* downstream back-pressure */            \
    X(IN, cfg_psn_init, 24, uint32_t) /* first PSN of every QP after reset */   \
    X(IN, cfg_mtu_log2, 5, uint8_t)   /* MTU 2^n B; 0: a packet per request */  \
    /* packets */                                                               \
    X(OUT, wr_ready, 1, uint8_t)                                                \
    X(OUT, pkt_valid, 1, uint8_t)                                               \
    X(OUT, pkt_opcode, 8, uint8_t)                                              \
    X(OUT, pkt_ack_req, 1, uint8_t)                                             \
    X(OUT, pkt_dqpn, 24, uint32_t)                                              \
    X(OUT, pkt_psn, 24, uint32_t)                                               \
    X(OUT, pkt_len, 32, uint32_t)     /* this packet's payload bytes */         \
    X(OUT, pkt_addr, 64, uint64_t)    /* where they start */                    \
    X(OUT, pkt_rkey, 32, uint32_t)                                              \
    X(OUT, pkt_tag, 32, uint32_t)

#endif
