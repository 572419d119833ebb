/* Ports of the UB send pipeline: the one list behind ub_send_pipeline_in_t /
 * _out_t, the block class's port tables, the RTL shim and the port check of
 * the Verilated rtl/ub_send_pipeline.sv. X(dir, name, width, ctype): see
 * block_ports.h.
 *
 * UB_SEND_PIPELINE_COMMON_PORTS are the ports it shares with the UB transmit
 * path (ub_tx_ports.h: the pipeline and the transport channel table it
 * numbers its packets from); UB_SEND_PIPELINE_PORTS adds the port to that
 * table at the end, so the structs of both begin with the same fields. */
#ifndef UB_SEND_PIPELINE_PORTS_H
#define UB_SEND_PIPELINE_PORTS_H

#define UB_SEND_PIPELINE_COMMON_PORTS(X)                                        \
    /* work requests: the fields of the request record (UB_REQ_FIELDS) */       \
    X(IN, wr_valid, 1, uint8_t)                                                 \
    X(IN, wr_opcode, 8, uint8_t)      /* ub_ta_opcode_t */                      \
    X(IN, wr_mode, 3, uint8_t)        /* ub_mode_t */                           \
    X(IN, wr_order, 2, uint8_t)       /* place_order, ub_order_t */             \
    X(IN, wr_fence, 1, uint8_t)                                                 \
    X(IN, wr_comp_order, 1, uint8_t)                                            \
    X(IN, wr_jetty, 20, uint32_t)                                               \
    X(IN, wr_dst, 20, uint32_t)       /* target compact EID */                  \
    X(IN, wr_len, 32, uint32_t)                                                 \
    X(IN, wr_addr, 64, uint64_t)                                                \
    X(IN, wr_token, 32, uint32_t)                                               \
    X(IN, wr_tag, 32, uint32_t)       /* opaque id carried to the packet */     \
    X(IN, pkt_ready, 1, uint8_t)      /* back-pressure from the MAC */          \
    /* a completion of a request of queue cmp_q (its Jetty % 8) came back */    \
    X(IN, cmp_valid, 1, uint8_t)                                                \
    X(IN, cmp_q, 3, uint8_t)                                                    \
    /* configuration */                                                         \
    X(IN, cfg_tpn_base, 24, uint32_t) /* TPN of channel k: base + k */          \
    X(IN, cfg_mtu_log2, 5, uint8_t)   /* MTU 2^n B; 0: a packet per request */  \
    X(OUT, wr_ready, 1, uint8_t)                                                \
    X(OUT, held, 8, uint8_t)          /* queue q's head waits (order tracker) */\
    X(OUT, pkt_valid, 1, uint8_t)                                               \
    /* RTPH */                                                                  \
    X(OUT, pkt_tp_opcode, 7, uint8_t) /* ub_tp_opcode_t */                      \
    X(OUT, pkt_last, 1, uint8_t)                                                \
    X(OUT, pkt_src_tpn, 24, uint32_t)                                           \
    X(OUT, pkt_dst_tpn, 24, uint32_t)                                           \
    X(OUT, pkt_psn, 24, uint32_t)                                               \
    X(OUT, pkt_tpmsn, 24, uint32_t)                                             \
    X(OUT, pkt_ack_req, 1, uint8_t)                                             \
    /* transaction header */                                                    \
    X(OUT, pkt_ta_opcode, 8, uint8_t)                                           \
    X(OUT, pkt_order, 3, uint8_t)     /* wire order: {fence, place_order} */    \
    X(OUT, pkt_tassn, 16, uint16_t)                                             \
    X(OUT, pkt_jetty, 20, uint32_t)                                             \
    X(OUT, pkt_token, 32, uint32_t)                                             \
    /* payload descriptor and sideband (not on the wire) */                     \
    X(OUT, pkt_len, 32, uint32_t)     /* this packet's payload bytes */         \
    X(OUT, pkt_addr, 64, uint64_t)    /* where they start */                    \
    X(OUT, pkt_tag, 32, uint32_t)                                               \
    X(OUT, pkt_dst, 20, uint32_t)     /* destination compact EID, routing */    \
    X(OUT, pkt_mode, 3, uint8_t)      /* service mode */                        \
    X(OUT, pkt_comp_order, 1, uint8_t)

#define UB_SEND_PIPELINE_PORTS(X)                                               \
    UB_SEND_PIPELINE_COMMON_PORTS(X)                                            \
    /* the transport channel table (tp_chan_ports.h): its answer ... */         \
    X(IN, seq_valid, 1, uint8_t)                                                \
    X(IN, seq_psn, 24, uint32_t)      /* the message's first PSN */             \
    X(IN, seq_tpmsn, 24, uint32_t)                                              \
    /* ... to the request S13 makes: the numbers of a message of seq_nseg + 1   \
     * packets on channel seq_ch */                                             \
    X(OUT, seq_rq, 1, uint8_t)                                                  \
    X(OUT, seq_ch, 4, uint8_t)                                                  \
    X(OUT, seq_nseg, 24, uint32_t)

#endif
