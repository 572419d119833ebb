/* Writes the seed inputs of rx_fuzz (rx_fuzz.c) into a directory: a UB data
 * packet, a TPACK, a NAK, a TPSACK of each bitmap size, a RoCE packet, each
 * as one fuzz input (a 2-byte length, then the bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "packet.h"
#include "ub_pkg.h"

static int put(const char *dir, const char *name, const uint8_t *b, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    uint8_t hdr[4] = {0, 0, (uint8_t)(n >> 8), (uint8_t)n};
    int ok = fwrite(hdr, 1, 4, f) == 4 && fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    uint8_t buf[512], pay[64];
    memset(pay, 0xA5, sizeof pay);
    pkt_hdr_t h;
    memset(&h, 0, sizeof h);
    h.proto = PKT_UB;
    h.tp_opcode = UB_TP_RELIABLE;
    h.dst_tpn = 1;
    h.psn = 3;
    h.ta_opcode = 0x03;
    h.token = 0x5eed;
    h.addr = 0x1000;
    h.len = 64;
    h.payload_len = 64;
    size_t n = pkt_encode(&h, pay, buf, sizeof buf, NULL);
    int bad = !n || put(argv[1], "ub_data", buf, n);
    h.proto = PKT_RC;
    h.tp_opcode = 0x0A; /* RDMA WRITE only */
    n = pkt_encode(&h, pay, buf, sizeof buf, NULL);
    bad |= !n || put(argv[1], "rc_write", buf, n);
    pkt_ack_t a;
    memset(&a, 0, sizeof a);
    a.dst_tpn = 2;
    a.psn = 20;
    n = pkt_ack_encode(&a, buf, sizeof buf, NULL);
    bad |= !n || put(argv[1], "ack", buf, n);
    a.nak = 1;
    n = pkt_ack_encode(&a, buf, sizeof buf, NULL);
    bad |= !n || put(argv[1], "nak", buf, n);
    a.nak = 0;
    a.sack = 1;
    a.hi_psn = 30;
    a.bmap[0] = 0x5555;
    for (int c = 0; c <= 4; c++) {
        char name[32];
        a.code = (uint8_t)c;
        snprintf(name, sizeof name, "sack%d", 64 << c);
        n = pkt_ack_encode(&a, buf, sizeof buf, NULL);
        bad |= !n || put(argv[1], name, buf, n);
    }
    if (bad) {
        fprintf(stderr, "%s: could not write the seeds into %s\n", argv[0], argv[1]);
        return 1;
    }
    return 0;
}
