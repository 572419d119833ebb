#include "packet.h"

#include <string.h>
#include <zlib.h>

#include "ub_pkg.h"

#define UB_TPVER 0        /* the transport version this model speaks */
#define UB_NLP_TA 0       /* next-layer protocol: the transaction layer */

const char *pkt_err_name(pkt_err_t e)
{
    switch (e) {
    case PKT_OK:
        return "ok";
    case PKT_TRUNCATED:
        return "truncated";
    case PKT_BAD_CRC:
        return "bad checksum";
    case PKT_BAD_VERSION:
        return "bad version";
    case PKT_BAD_FIELD:
        return "field wider than its width";
    }
    return "?";
}

int pkt_rc_has_reth(uint8_t opcode)
{
    return opcode == RC_OP_READ_REQUEST || opcode == RC_OP_WRITE_FIRST ||
           opcode == RC_OP_WRITE_ONLY;
}

int pkt_rc_has_aeth(uint8_t opcode)
{
    /* RDMA READ response first/last/only, ACKNOWLEDGE */
    return opcode == 0x0D || opcode == 0x0F || opcode == 0x10 || opcode == 0x11;
}

size_t pkt_header_bytes(const pkt_hdr_t *h)
{
    if (h->proto == PKT_UB)
        return UB_RTPH_BYTES + PKT_UB_TAH_BYTES;
    size_t n = PKT_RC_BTH_BYTES;
    if (pkt_rc_has_reth(h->tp_opcode))
        n += PKT_RC_RETH_BYTES;
    if (pkt_rc_has_aeth(h->tp_opcode))
        n += PKT_RC_AETH_BYTES;
    return n;
}

size_t pkt_wire_bytes(const pkt_hdr_t *h)
{
    return pkt_header_bytes(h) + h->payload_len + PKT_CRC_BYTES;
}

/* ---- big-endian fields ---- */

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

static uint64_t get_be(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = v << 8 | p[i];
    return v;
}

static uint32_t crc_of(const uint8_t *p, size_t n)
{
    uLong c = crc32(0L, Z_NULL, 0);
    while (n > 0) { /* zlib takes uInt lengths */
        uInt k = n > 0x40000000u ? 0x40000000u : (uInt)n;
        c = crc32(c, p, k);
        p += k;
        n -= k;
    }
    return (uint32_t)c;
}

static int fits(uint64_t v, int bits) { return bits >= 64 || v < (1ull << bits); }

static int ub_fields_fit(const pkt_hdr_t *h)
{
    return fits(h->last, 1) && fits(h->tp_opcode, UB_TP_OPCODE_BITS) && fits(h->ack_req, 1) &&
           fits(h->err_flag, 1) && fits(h->rsp_status, 3) && fits(h->rsp_info, 5) &&
           fits(h->src_tpn, UB_TPN_BITS) && fits(h->dst_tpn, UB_TPN_BITS) &&
           fits(h->psn, UB_PSN_BITS) && fits(h->tpmsn, UB_TPMSN_BITS) &&
           fits(h->mode, UB_MODE_BITS) && fits(h->wire_order, UB_WIRE_ORDER_BITS) &&
           fits(h->jetty, UB_JETTY_BITS);
}

static int rc_fields_fit(const pkt_hdr_t *h)
{
    return fits(h->ack_req, 1) && fits(h->dst_tpn, RC_QPN_BITS) && fits(h->psn, RC_PSN_BITS) &&
           fits(h->tpmsn, 24);
}

size_t pkt_encode(const pkt_hdr_t *h, const uint8_t *payload, uint8_t *buf, size_t cap,
                  pkt_err_t *err)
{
    if (err)
        *err = PKT_OK;
    size_t total = pkt_wire_bytes(h);
    if ((h->proto != PKT_UB && h->proto != PKT_RC) ||
        !(h->proto == PKT_UB ? ub_fields_fit(h) : rc_fields_fit(h))) {
        if (err)
            *err = PKT_BAD_FIELD;
        return 0;
    }
    if (total > cap) {
        if (err)
            *err = PKT_TRUNCATED;
        return 0;
    }
    uint8_t *p = buf;
    memset(p, 0, pkt_header_bytes(h));
    if (h->proto == PKT_UB) {
        p[0] = (uint8_t)(h->last << 7 | h->tp_opcode);
        p[1] = (uint8_t)(UB_TPVER << 6 | UB_NLP_TA);
        put_be(p + 2, h->src_tpn, 3);
        put_be(p + 5, h->dst_tpn, 3);
        p[8] = (uint8_t)(h->ack_req << 7 | h->err_flag << 6);
        put_be(p + 9, h->psn, 3);
        p[12] = (uint8_t)(h->rsp_status << 5 | h->rsp_info);
        put_be(p + 13, h->tpmsn, 3);
        p += UB_RTPH_BYTES;
        p[0] = h->ta_opcode;
        p[1] = (uint8_t)(h->mode << 4 | h->wire_order);
        put_be(p + 2, h->tassn, 2);
        put_be(p + 4, h->jetty, 3);
        put_be(p + 8, h->token, 4);
        put_be(p + 12, h->addr, 8);
        put_be(p + 20, h->len, 4);
        p += PKT_UB_TAH_BYTES;
    } else {
        p[0] = h->tp_opcode;
        put_be(p + 2, h->pkey, 2);
        put_be(p + 5, h->dst_tpn, 3);
        p[8] = (uint8_t)(h->ack_req << 7);
        put_be(p + 9, h->psn, 3);
        p += PKT_RC_BTH_BYTES;
        if (pkt_rc_has_reth(h->tp_opcode)) {
            put_be(p, h->addr, 8);
            put_be(p + 8, h->token, 4);
            put_be(p + 12, h->len, 4);
            p += PKT_RC_RETH_BYTES;
        }
        if (pkt_rc_has_aeth(h->tp_opcode)) {
            p[0] = h->syndrome;
            put_be(p + 1, h->tpmsn, 3);
            p += PKT_RC_AETH_BYTES;
        }
    }
    if (h->payload_len) {
        if (payload)
            memcpy(p, payload, h->payload_len);
        else
            memset(p, 0, h->payload_len);
        p += h->payload_len;
    }
    put_be(p, crc_of(buf, (size_t)(p - buf)), 4);
    return total;
}

pkt_err_t pkt_decode(const uint8_t *buf, size_t n, pkt_proto_t proto, pkt_hdr_t *h,
                     const uint8_t **payload)
{
    memset(h, 0, sizeof(*h));
    h->proto = proto;
    if (proto != PKT_UB && proto != PKT_RC)
        return PKT_BAD_FIELD;
    /* the length every packet of the protocol has, then the checksum, and
     * only then what the (now trusted) bytes say: a corrupted opcode or
     * version is a bad checksum, not a malformed packet */
    size_t need = proto == PKT_UB ? UB_RTPH_BYTES + PKT_UB_TAH_BYTES : PKT_RC_BTH_BYTES;
    if (n < need + PKT_CRC_BYTES)
        return PKT_TRUNCATED;
    if ((uint32_t)get_be(buf + n - PKT_CRC_BYTES, 4) != crc_of(buf, n - PKT_CRC_BYTES))
        return PKT_BAD_CRC;
    if (proto == PKT_RC) {
        h->tp_opcode = buf[0];
        if (n < pkt_header_bytes(h) + PKT_CRC_BYTES)
            return PKT_TRUNCATED;
    }
    const uint8_t *p = buf;
    if (proto == PKT_UB) {
        if (p[1] >> 6 != UB_TPVER)
            return PKT_BAD_VERSION;
        h->last = p[0] >> 7;
        h->tp_opcode = p[0] & 0x7f;
        h->src_tpn = (uint32_t)get_be(p + 2, 3);
        h->dst_tpn = (uint32_t)get_be(p + 5, 3);
        h->ack_req = p[8] >> 7;
        h->err_flag = (p[8] >> 6) & 1;
        h->psn = (uint32_t)get_be(p + 9, 3);
        h->rsp_status = p[12] >> 5;
        h->rsp_info = p[12] & 0x1f;
        h->tpmsn = (uint32_t)get_be(p + 13, 3);
        p += UB_RTPH_BYTES;
        h->ta_opcode = p[0];
        h->mode = (p[1] >> 4) & 7;
        h->wire_order = p[1] & 7;
        h->tassn = (uint16_t)get_be(p + 2, 2);
        h->jetty = (uint32_t)get_be(p + 4, 3) & UB_JETTY_MASK;
        h->token = (uint32_t)get_be(p + 8, 4);
        h->addr = get_be(p + 12, 8);
        h->len = (uint32_t)get_be(p + 20, 4);
        p += PKT_UB_TAH_BYTES;
    } else {
        h->pkey = (uint16_t)get_be(p + 2, 2);
        h->dst_tpn = (uint32_t)get_be(p + 5, 3);
        h->ack_req = p[8] >> 7;
        h->psn = (uint32_t)get_be(p + 9, 3);
        p += PKT_RC_BTH_BYTES;
        if (pkt_rc_has_reth(h->tp_opcode)) {
            h->addr = get_be(p, 8);
            h->token = (uint32_t)get_be(p + 8, 4);
            h->len = (uint32_t)get_be(p + 12, 4);
            p += PKT_RC_RETH_BYTES;
        }
        if (pkt_rc_has_aeth(h->tp_opcode)) {
            h->syndrome = p[0];
            h->tpmsn = (uint32_t)get_be(p + 1, 3);
            p += PKT_RC_AETH_BYTES;
        }
    }
    h->payload_len = (uint32_t)(n - PKT_CRC_BYTES - (size_t)(p - buf));
    if (payload)
        *payload = p;
    return PKT_OK;
}

/* ---- UB transport acknowledgements ---- */

size_t pkt_ack_bytes(const pkt_ack_t *a)
{
    size_t n = UB_RTPH_BYTES + PKT_CRC_BYTES;
    if (a->sack)
        n += PKT_UB_SAETPH_BYTES + (a->code <= 4 ? (64u << a->code) / 8 : 0);
    return n;
}

size_t pkt_ack_encode(const pkt_ack_t *a, uint8_t *buf, size_t cap, pkt_err_t *err)
{
    if (err)
        *err = PKT_OK;
    if (!fits(a->src_tpn, UB_TPN_BITS) || !fits(a->dst_tpn, UB_TPN_BITS) || !fits(a->psn, UB_PSN_BITS) ||
        !fits(a->tpmsn, UB_TPMSN_BITS) || (a->sack && (a->code > 4 || !fits(a->hi_psn, UB_PSN_BITS)))) {
        if (err)
            *err = PKT_BAD_FIELD;
        return 0;
    }
    size_t total = pkt_ack_bytes(a);
    if (total > cap) {
        if (err)
            *err = PKT_TRUNCATED;
        return 0;
    }
    uint8_t *p = buf;
    memset(p, 0, total);
    p[0] = (uint8_t)(a->sack ? UB_TP_SACK : UB_TP_ACK);
    p[1] = (uint8_t)(UB_TPVER << 6);
    put_be(p + 2, a->src_tpn, 3);
    put_be(p + 5, a->dst_tpn, 3);
    put_be(p + 9, a->psn, 3);
    p[12] = (uint8_t)((!a->sack && a->nak ? PKT_UB_NAK_STATUS : 0) << 5);
    put_be(p + 13, a->tpmsn, 3);
    p += UB_RTPH_BYTES;
    if (a->sack) {
        p[0] = a->code;
        put_be(p + 1, a->hi_psn, 3);
        p += PKT_UB_SAETPH_BYTES;
        unsigned bytes = (64u << a->code) / 8;
        for (unsigned j = 0; j < bytes; j++)
            p[j] = (uint8_t)(a->bmap[j / 8] >> (8 * (j % 8)));
        p += bytes;
    }
    put_be(p, crc_of(buf, (size_t)(p - buf)), 4);
    return total;
}

int pkt_ub_opcode(const uint8_t *buf, size_t n)
{
    if (n < UB_RTPH_BYTES + PKT_CRC_BYTES)
        return -1;
    if ((uint32_t)get_be(buf + n - PKT_CRC_BYTES, 4) != crc_of(buf, n - PKT_CRC_BYTES))
        return -1;
    return buf[0] & 0x7f;
}

pkt_err_t pkt_ack_decode(const uint8_t *buf, size_t n, pkt_ack_t *a)
{
    memset(a, 0, sizeof *a);
    if (n < UB_RTPH_BYTES + PKT_CRC_BYTES)
        return PKT_TRUNCATED;
    if ((uint32_t)get_be(buf + n - PKT_CRC_BYTES, 4) != crc_of(buf, n - PKT_CRC_BYTES))
        return PKT_BAD_CRC;
    const uint8_t *p = buf;
    if (p[1] >> 6 != UB_TPVER)
        return PKT_BAD_VERSION;
    int op = p[0] & 0x7f;
    if (op != UB_TP_ACK && op != UB_TP_SACK)
        return PKT_BAD_FIELD;
    a->sack = op == UB_TP_SACK;
    a->src_tpn = (uint32_t)get_be(p + 2, 3);
    a->dst_tpn = (uint32_t)get_be(p + 5, 3);
    a->psn = (uint32_t)get_be(p + 9, 3);
    a->tpmsn = (uint32_t)get_be(p + 13, 3);
    unsigned status = p[12] >> 5;
    if (!a->sack) {
        if (n != UB_RTPH_BYTES + PKT_CRC_BYTES)
            return PKT_TRUNCATED;
        if (status != 0 && status != PKT_UB_NAK_STATUS)
            return PKT_BAD_FIELD;
        a->nak = status == PKT_UB_NAK_STATUS;
        return PKT_OK;
    }
    if (status != 0)
        return PKT_BAD_FIELD;
    if (n < UB_RTPH_BYTES + PKT_UB_SAETPH_BYTES + PKT_CRC_BYTES)
        return PKT_TRUNCATED;
    p += UB_RTPH_BYTES;
    if ((p[0] >> 3) != 0 || (p[0] & 7) > 4)
        return PKT_BAD_FIELD;
    a->code = p[0] & 7;
    a->hi_psn = (uint32_t)get_be(p + 1, 3);
    unsigned bytes = (64u << a->code) / 8;
    if (n != UB_RTPH_BYTES + PKT_UB_SAETPH_BYTES + bytes + PKT_CRC_BYTES)
        return PKT_TRUNCATED;
    p += PKT_UB_SAETPH_BYTES;
    for (unsigned j = 0; j < bytes; j++)
        a->bmap[j / 8] |= (uint64_t)p[j] << (8 * (j % 8));
    return PKT_OK;
}
