/* Ports of the transport channel table: the one list behind tp_chan_in_t /
 * _out_t, the block class's port tables, the RTL shim and the port check of
 * the Verilated rtl/tp_chan.sv. X(dir, name, width, ctype): see
 * block_ports.h. docs/transport.md has the rules. Channels are 4 bits
 * (UBSP_NUM_CHANNELS = 16), PSNs and TPMSNs 24 bits. */
#ifndef TP_CHAN_PORTS_H
#define TP_CHAN_PORTS_H

#define TP_CHAN_PORTS(X)                                                        \
    X(IN, cfg_psn_init, 24, uint32_t) /* first PSN/TPMSN of a channel */        \
    /* a message of rq_nseg + 1 packets on channel rq_ch asks for its PSNs */   \
    X(IN, rq_valid, 1, uint8_t)                                                 \
    X(IN, rq_ch, 4, uint8_t)                                                    \
    X(IN, rq_nseg, 24, uint32_t)                                                \
    /* the answer, at the edge after the request: the message's first PSN     \
     * and its TPMSN (both held until the next answer) */                       \
    X(OUT, rs_valid, 1, uint8_t)                                                \
    X(OUT, rs_psn, 24, uint32_t)                                                \
    X(OUT, rs_tpmsn, 24, uint32_t)

#endif
