/* Fuzz target (libFuzzer) for everything a receiver parses from the wire:
 * UB and RoCE headers (sim/net/packet.c), UB acknowledgements with their
 * selective-ack extension, the receive checks (sim/node/rx_check.c), and the
 * transport block's receive and acknowledgement inputs (cmodel/transport.c).
 *
 * An input is a sequence of packets, each a 2-byte big-endian length and
 * that many bytes. Every packet is decoded as it came, and once more with a
 * correct checksum appended, so the parsers are exercised beyond the CRC.
 * Whatever decodes is fed to the receive checks and to a transport that has
 * 8 packets in flight on each channel; after every edge its invariants are
 * checked (nothing acknowledged beyond what was sent, the resend scan inside
 * the flight, the receiver's count of held packets equal to its ring), and a
 * violation aborts: a malformed packet may be counted and dropped, never
 * corrupt state. Built with clang -fsanitize=fuzzer,address,undefined by
 * `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "mem.h"
#include "packet.h"
#include "rx_check.h"
#include "transport.h"
#include "ub_pkg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXP 16384

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rx_fuzz: invariant broken: %s\n", what);
        abort();
    }
}

static void invariants(const transport_state_t *s, const transport_in_t *in)
{
    for (int c = 0; c < TP_CH; c++) {
        uint32_t fl = (s->nxt[c] - s->una[c]) & TP_PSN_MASK;
        check(fl <= in->cfg_window, "more in flight than the window");
        check(fl == s->fl[c], "the flight's offset differs from the PSNs");
        check(((s->rptr[c] - s->una[c]) & TP_PSN_MASK) == s->rpo[c],
              "the resend scan's offset differs from its PSN");
        check(s->rpo[c] <= fl && s->reo[c] <= fl, "resend scan outside the flight");
        unsigned pop = 0;
        for (int w = 0; w < TP_W / 64; w++)
            pop += (unsigned)__builtin_popcountll(s->ring[c][w]);
        check(pop == s->held[c], "held count differs from the ring");
        check(s->held[c] <= TP_W, "held beyond the ring");
    }
}

static void feed(transport_state_t *s, transport_in_t *in, transport_out_t *out, const uint8_t *b,
                 size_t n, rx_checker_t *rx)
{
    pkt_hdr_t h;
    const uint8_t *pl;
    (void)pkt_decode(b, n, PKT_RC, &h, &pl);
    if (pkt_decode(b, n, PKT_UB, &h, &pl) == PKT_OK) {
        check(h.payload_len <= n, "payload longer than the packet");
        (void)rx_check_fields(rx, &h, 1);
        if (h.tp_opcode == UB_TP_RELIABLE) {
            in->rx_valid = 1;
            in->rx_ch = (uint8_t)(h.dst_tpn & 3);
            in->rx_psn = h.psn;
        }
    }
    (void)rx_check(rx, b, n, &h, &pl);
    pkt_ack_t a;
    int sack = 0;
    if (pkt_ack_decode(b, n, &a) == PKT_OK) {
        sack = a.sack;
        check(a.code <= 4 || !a.sack, "bitmap code above 4");
        in->ack_valid = 1;
        in->ack_ch = (uint8_t)(a.dst_tpn & 3);
        in->ack_kind = a.sack ? TP_SACK : a.nak ? TP_NAK : TP_ACK;
        in->ack_base = a.psn;
        in->ack_hi = a.hi_psn;
        in->ack_code = a.code;
    }
    (void)pkt_ub_opcode(b, n);
    in->pkt_ready = 1;
    in->ao_ready = 1;
    if (in->ack_valid && !out->ack_ready) {
        /* (the edge after a header takes none: this one waits an edge) */
        transport_in_t idle = *in;
        idle.rx_valid = idle.ack_valid = 0;
        transport_step(s, &idle, out);
        invariants(s, in);
    }
    transport_step(s, in, out);
    in->rx_valid = in->ack_valid = 0;
    invariants(s, in);
    if (sack) {
        /* its bitmap, a word an edge */
        transport_words_t f;
        transport_words_start(&f, a.bmap, a.code);
        while (transport_words_feed(&f, in)) {
            transport_step(s, in, out);
            invariants(s, in);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static node_mem_t mem;
    static int ready;
    static uint8_t buf[MAXP + 4];
    char err[128];
    if (!ready) {
        if (node_mem_init(&mem, 1 << 16) ||
            node_mem_register(&mem, 0x1000, 0x4000, 0x5eed, SEG_READ | SEG_WRITE, err, sizeof err) < 0)
            abort();
        ready = 1;
    }
    rx_checker_t rx;
    rx_cfg_t rc = {.proto = PKT_UB, .tpn_base = 0, .n_tpn = 4, .tassn_ctx = 8, .mem = &mem, .n_src = 1};
    if (rx_init(&rx, &rc, err, sizeof err))
        abort();
    /* a transport with 8 packets in flight on each channel, made once */
    static transport_state_t primed, s;
    static transport_in_t in0;
    static int have_primed;
    transport_in_t in;
    transport_out_t out;
    if (!have_primed) {
        transport_reset(&primed);
        memset(&in0, 0, sizeof in0);
        in0.cfg_window = 64;
        in0.cfg_ooo_cap = 32;
        in0.cfg_rto = 8;
        in0.cfg_retry_max = 1;
        in0.cfg_backoff = 1;
        in0.cfg_bmap_code = 0;
        /* (a packet is taken at an edge sq_ready was 1 before) */
        for (int i = 0, taken = 0; i < 200 && taken < 4 * 8 + 4; i++) {
            in0.sq_valid = taken < 4 * 8;
            in0.sq_ch = (uint8_t)(taken % 4);
            in0.sq_hdl = (uint16_t)taken;
            in0.pkt_ready = 1;
            taken += !in0.sq_valid || primed.o.sq_ready;
            transport_step(&primed, &in0, &out);
        }
        in0.sq_valid = 0;
        have_primed = 1;
    }
    s = primed;
    out = s.o;
    in = in0;
    in.cfg_bmap_code = size ? data[0] % 5 : 2;
    in.cfg_gbn = size > 1 ? data[1] & 1 : 0;
    size_t at = size > 2 ? 2 : size;
    while (at + 2 <= size) {
        size_t n = (size_t)data[at] << 8 | data[at + 1];
        at += 2;
        if (n > size - at)
            n = size - at;
        if (n > MAXP)
            n = MAXP;
        feed(&s, &in, &out, data + at, n, &rx);
        /* the same bytes with a checksum that matches */
        memcpy(buf, data + at, n);
        uLong crc = crc32(crc32(0L, Z_NULL, 0), buf, (uInt)n);
        buf[n] = (uint8_t)(crc >> 24);
        buf[n + 1] = (uint8_t)(crc >> 16);
        buf[n + 2] = (uint8_t)(crc >> 8);
        buf[n + 3] = (uint8_t)crc;
        feed(&s, &in, &out, buf, n + 4, &rx);
        at += n;
    }
    /* time passes: timers expire and resends go out until the retry limit
     * ends the channels (quiet stretches jumped) */
    for (int i = 0; i < 96 && s.o.busy; i++) {
        int64_t q = transport_quiet(&s, &in);
        if (q > 0 && q < (1 << 20))
            transport_advance(&s, &in, (int)q);
        transport_step(&s, &in, &out);
        invariants(&s, &in);
    }
    rx_free(&rx);
    return 0;
}
