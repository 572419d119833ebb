/* Ports of the selective-acknowledgement transport: the one list behind
 * transport_in_t / _out_t, the block class's port tables, the RTL shim and
 * the port check of the Verilated rtl/transport.sv. X(dir, name, width,
 * ctype): see block_ports.h. docs/transport.md has the rules. Channels are
 * 2 bits (TP_CH = 4), PSNs 24 bits. A SACK's bitmap (64 to 1024 bits)
 * crosses the ack ports in 64-bit words, one an edge, after its header:
 * no port is wider than a word. */
#ifndef TRANSPORT_PORTS_H
#define TRANSPORT_PORTS_H

#define TRANSPORT_PORTS(X)                                                      \
    /* configuration: static while packets are in flight */                    \
    X(IN, cfg_gbn, 1, uint8_t)        /* 0 selective ack, 1 go-back-N */       \
    X(IN, cfg_bmap_code, 3, uint8_t)  /* bitmap of 64 << code bits (0..4) */   \
    X(IN, cfg_window, 11, uint16_t)   /* packets in flight per channel */      \
    X(IN, cfg_ooo_cap, 11, uint16_t)  /* packets the receiver holds */         \
    X(IN, cfg_rto, 32, uint32_t)      /* first timeout, cycles (>= 1) */       \
    X(IN, cfg_backoff, 1, uint8_t)    /* the timeout doubles per retry */      \
    X(IN, cfg_retry_max, 4, uint8_t)  /* timeouts in a row before failing */   \
    X(IN, cfg_psn_init, 24, uint32_t) /* every channel's first PSN, taken at   \
                                         the first edge after reset */          \
    /* transmit: a new packet (taken when sq_valid && sq_ready) */              \
    X(IN, sq_valid, 1, uint8_t)                                                 \
    X(IN, sq_ch, 2, uint8_t)                                                    \
    X(IN, sq_hdl, 16, uint16_t)       /* its descriptor: a handle */           \
    X(IN, pkt_ready, 1, uint8_t)      /* the link takes pkt this edge */       \
    /* an acknowledgement received (passed the receive checks): its header  \
       is taken when ack_valid && ack_ready */                                 \
    X(IN, ack_valid, 1, uint8_t)                                                \
    X(IN, ack_ch, 2, uint8_t)                                                   \
    X(IN, ack_kind, 2, uint8_t)       /* 0 ACK, 1 SACK, 2 NAK */               \
    X(IN, ack_base, 24, uint32_t)                                               \
    X(IN, ack_hi, 24, uint32_t)       /* SACK: highest PSN received */         \
    X(IN, ack_code, 3, uint8_t)       /* SACK: bitmap size code */             \
    /* a SACK's bitmap: word k (bit i = PSN base + 64k + i held) at edge       \
       k + 1 after its header's, k = 0 .. (64 << code) / 64 - 1; no header   \
       while words are due */                                                   \
    X(IN, ack_wvalid, 1, uint8_t)                                               \
    X(IN, ack_word, 64, uint64_t)                                               \
    /* receive: a data packet (passed checksum and TPN checks) */               \
    X(IN, rx_valid, 1, uint8_t)                                                 \
    X(IN, rx_ch, 2, uint8_t)                                                    \
    X(IN, rx_psn, 24, uint32_t)                                                 \
    X(IN, ao_ready, 1, uint8_t)       /* the link takes ao this edge */        \
    /* transmit outputs */                                                      \
    X(OUT, sq_ready, 1, uint8_t)                                                \
    X(OUT, ack_ready, 1, uint8_t)     /* a header can be taken: not at the    \
                                         edge after one was */                 \
    X(OUT, pkt_valid, 1, uint8_t)                                               \
    X(OUT, pkt_ch, 2, uint8_t)                                                  \
    X(OUT, pkt_psn, 24, uint32_t)                                               \
    X(OUT, pkt_hdl, 16, uint16_t)                                               \
    X(OUT, pkt_retx, 1, uint8_t)      /* a resend */                           \
    X(OUT, una, 96, u64_words)        /* per channel c, bits 24c..: oldest     \
                                         PSN not acknowledged */               \
    X(OUT, fail, 4, uint8_t)          /* bit c: channel c reached the retry    \
                                         limit */                              \
    X(OUT, tmo, 1, uint8_t)           /* a timeout expired at the last edge */ \
    /* receive outputs */                                                       \
    X(OUT, rxv_valid, 1, uint8_t)     /* the verdict on the packet taken two   \
                                         edges before */                       \
    X(OUT, rxv_ch, 2, uint8_t)                                                  \
    X(OUT, rxv_psn, 24, uint32_t)                                               \
    X(OUT, rxv_verdict, 3, uint8_t)   /* tp_verdict_t */                       \
    X(OUT, dlv_valid, 1, uint8_t)     /* in-order delivery */                  \
    X(OUT, dlv_ch, 2, uint8_t)                                                  \
    X(OUT, dlv_psn, 24, uint32_t)                                               \
    X(OUT, ao_valid, 1, uint8_t)      /* an acknowledgement to send */         \
    X(OUT, ao_ch, 2, uint8_t)                                                   \
    X(OUT, ao_kind, 2, uint8_t)                                                 \
    X(OUT, ao_base, 24, uint32_t)                                               \
    X(OUT, ao_hi, 24, uint32_t)                                                 \
    X(OUT, ao_code, 3, uint8_t)                                                 \
    /* a SACK's bitmap: word k at edge k + 2 after the one that loaded the     \
       header, whatever ao_ready says; the header stays until its words are   \
       out and the link takes it */                                             \
    X(OUT, ao_wvalid, 1, uint8_t)                                               \
    X(OUT, ao_word, 64, uint64_t)                                               \
    X(OUT, busy, 1, uint8_t)          /* anything in flight, held or owed */

#endif
